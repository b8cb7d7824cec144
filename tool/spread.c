// SPDX-License-Identifier: GPL-2.0
/*
 * The spread bound.  A lock that one context makes spin drags along every
 * lock taken under it, and what those take, through the nesting closure.
 * Where that is a handful of locks, keeping them spinning is the price of
 * the context (an irq_chip callback under the descriptor lock).  Where it
 * is hundreds, the kernel's own answer is the other one: the context is
 * wrong, not the lock (a hard-irq handler that wakes a wait queue on
 * PREEMPT_RT is a bug to fix in the driver; wait_queue_head::lock stays a
 * sleeping lock).  So a lock whose spinning alone would make more than
 * max_spread other locks spin converts, with the context as its conflict
 * for review; a reviewer who disagrees whitelists it.
 *
 * The weight of a lock is measured, not guessed: the locks that spin
 * because of it are at most those whose evidence chains lead back to it
 * (the candidates), and exactly those that stop spinning when the
 * classification runs again with it converted (the trial).
 */
#include "classify_int.h"
#include "util.h"

/* The spinning lock whose nesting made @lock spin, or -1: a context's. */
static int outer_of(const struct classify *c, unsigned lock)
{
	const struct cl_lock *l = &c->locks[lock];
	int fn;

	if (l->outer >= 0)
		return l->outer;
	for (fn = l->by_func; fn >= 0; fn = c->funcs[fn].from_func)
		if (c->funcs[fn].from_lock >= 0)
			return c->funcs[fn].from_lock;
	return -1;
}

static bool context_class(enum lclass cls)
{
	return cls >= CL_HARDIRQ && cls <= CL_IRQSOFF;
}

/* How many spinning locks' evidence chains lead back to each lock. */
static unsigned *chain_counts(const struct classify *c)
{
	unsigned *count = xcalloc(c->nlocks + 1, sizeof(*count));
	unsigned i, hops;
	int x, up;

	for (i = 0; i < c->nlocks; i++) {
		if (c->locks[i].cls == CL_NONE)
			continue;
		/* every lock above @i in its chain gains one */
		for (x = i, hops = 0; (up = outer_of(c, x)) >= 0 &&
				      hops < c->nlocks; x = up, hops++)
			count[up]++;
	}
	return count;
}

/* The heaviest untried candidate, or -1. */
static int next_candidate(const struct classify *c)
{
	unsigned *count = chain_counts(c), i;
	int best = -1;

	for (i = 0; i < c->nlocks; i++) {
		const struct cl_lock *l = &c->locks[i];

		if (!context_class(l->cls) || l->spread_tried ||
		    outer_of(c, i) >= 0 || count[i] <= c->max_spread)
			continue;
		if (best < 0 || count[i] > count[best])
			best = i;
	}
	free(count);
	return best;
}

static unsigned spinning(const struct classify *c)
{
	unsigned i, n = 0;

	for (i = 0; i < c->nlocks; i++)
		n += c->locks[i].cls != CL_NONE;
	return n;
}

void bound_spread(struct classify *c)
{
	int lock;

	while ((lock = next_candidate(c)) >= 0) {
		struct cl_lock *l = &c->locks[lock];
		unsigned before = spinning(c), after;

		l->spread_tried = true;
		l->forced_convert = true;
		classify_rerun(c);
		after = spinning(c) + 1; /* it no longer spins itself */
		if (after < before && before - after > c->max_spread) {
			l->spread = before - after;
			c->bounded++;
			continue;
		}
		l->forced_convert = false;
		classify_rerun(c);
	}
}
