// SPDX-License-Identifier: GPL-2.0
/*
 * The spread bound.  A context makes spin every lock it takes and, through
 * the nesting closure, every lock taken under those.  Where that is a
 * handful of locks, keeping them spinning is the price of the context (an
 * irq_chip callback under the descriptor lock).  Where it is hundreds, the
 * kernel's own answer is the other one: the context is wrong, not the
 * locks.  A driver's hard-irq handler that wakes a wait queue or sends a
 * signal on PREEMPT_RT is a bug to fix in the driver; wait_queue_head::lock
 * and siglock stay sleeping locks.
 *
 * So a seed that alone would make more than max_spread locks spin is not
 * taken at its word: a weighable entry point (weigh_entry(): a primary
 * handler kept in hard irq only by IRQF_ONESHOT, which the kernel expects
 * to do no more than wake its thread) is left out, a lock a context takes
 * converts with that context as its conflict; both are listed for review,
 * and a reviewer who disagrees whitelists the locks.  Other entries are
 * the kernel's own hard contexts (the tick, IPIs, NMIs, clockevents):
 * many of them reach the same locks, and each would look heavy as soon as
 * the others were left out.
 *
 * The weight is measured, not guessed.  The candidates are the seeds that
 * more than max_spread spinning locks' evidence chains lead back to (at
 * least what each makes spin alone).  The heaviest is left out and the
 * classification runs again, until no candidate is left; then each one
 * left out is given back, with the others still out, and stays out only if
 * more than max_spread locks start spinning with it (locks that one
 * handler reaches through both the wait queues and siglock are not freed
 * by leaving out either lock alone, but are by leaving out the handler).
 */
#include "classify_int.h"
#include "util.h"

/*
 * The spinning lock whose nesting made @lock spin, or -1: a context's.
 * The same walk as the evidence chain's (lock_chain(), func_chain()): a
 * lock taken, or a function called, with interrupts off by hand starts
 * there, whatever made the function atomic before.
 */
static int outer_of(const struct classify *c, unsigned lock)
{
	const struct cl_lock *l = &c->locks[lock];
	const struct cl_acq *a;
	const struct cl_func *f;
	const struct cl_call *cl;
	unsigned hops = 0;

	if (l->outer >= 0 || l->by_func < 0)
		return l->outer;
	a = &c->funcs[l->by_func].acqs[l->by_acq];
	if (l->cls == CL_IRQSOFF && (a->irqs_off || a->preempt_off))
		return -1;
	/* bounded: from_func goes round a recursion that a region began */
	for (f = &c->funcs[l->by_func]; f->from_lock < 0;
	     f = &c->funcs[f->from_func]) {
		if (f->from_func < 0 || hops++ > c->nfuncs)
			return -1;
		cl = &c->funcs[f->from_func].calls[f->from_call];
		if (cl->irqs_off || cl->preempt_off)
			return -1;
	}
	return f->from_lock;
}

int spin_root(const struct classify *c, unsigned lock)
{
	unsigned x = lock, hops = 0;
	int up;

	while ((up = outer_of(c, x)) >= 0 && hops++ < c->nlocks)
		x = up;
	return x;
}

/* The entry point that made @lock spin, or -1 (a lock marked spinning). */
static int entry_of(const struct classify *c, unsigned lock)
{
	int fn = c->locks[lock].by_func;
	unsigned hops = 0;

	while (fn >= 0 && c->funcs[fn].from_func >= 0 && hops++ <= c->nfuncs)
		fn = c->funcs[fn].from_func;
	return fn >= 0 && c->funcs[fn].why ? fn : -1;
}

static bool context_class(enum lclass cls)
{
	return cls >= CL_HARDIRQ && cls <= CL_IRQSOFF;
}

/* A seed: entry point @idx (is_fn) or lock @idx. */
struct seed {
	bool is_fn;
	unsigned idx;
};

/*
 * How many spinning locks' evidence chains lead back to each lock (locks)
 * and to each entry point (fns), counting the seed lock itself.
 */
static void chain_counts(const struct classify *c, unsigned *locks,
			 unsigned *fns)
{
	unsigned i, hops;
	int x, up, e;

	for (i = 0; i < c->nlocks; i++) {
		if (c->locks[i].cls == CL_NONE)
			continue;
		for (x = i, hops = 0; (up = outer_of(c, x)) >= 0 &&
				      hops < c->nlocks; x = up, hops++)
			locks[up]++;
		if (c->locks[x].cls != CL_NESTED && (e = entry_of(c, x)) >= 0)
			fns[e]++;
	}
}

/* The heaviest candidate not tried yet; false if none. */
static bool next_candidate(const struct classify *c, struct seed *best)
{
	unsigned *locks = xcalloc(c->nlocks + 1, sizeof(*locks));
	unsigned *fns = xcalloc(c->nfuncs + 1, sizeof(*fns));
	unsigned i, most = c->max_spread;

	chain_counts(c, locks, fns);
	for (i = 0; i < c->nfuncs; i++)
		if (fns[i] > most && c->funcs[i].weighable &&
		    !c->funcs[i].spread_tried) {
			most = fns[i];
			*best = (struct seed){ true, i };
		}
	for (i = 0; i < c->nlocks; i++)
		if (locks[i] > most && !c->locks[i].spread_tried &&
		    context_class(c->locks[i].cls) && outer_of(c, i) < 0) {
			most = locks[i];
			*best = (struct seed){ false, i };
		}
	free(locks);
	free(fns);
	return most > c->max_spread;
}

static void leave_out(struct classify *c, struct seed s, bool out)
{
	if (s.is_fn)
		c->funcs[s.idx].left_out = out;
	else
		c->locks[s.idx].forced_convert = out;
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
	struct seed *out = NULL, s;
	unsigned nout = 0, aout = 0, i, before, after;

	while (!(c->interrupted && c->interrupted()) &&
	       next_candidate(c, &s)) {
		if (s.is_fn)
			c->funcs[s.idx].spread_tried = true;
		else
			c->locks[s.idx].spread_tried = true;
		leave_out(c, s, true);
		ALLOC_GROW(out, nout, aout);
		out[nout++] = s;
		classify_rerun(c);
	}
	for (i = 0; i < nout && !(c->interrupted && c->interrupted()); i++) {
		before = spinning(c);
		leave_out(c, out[i], false);
		classify_rerun(c);
		/* what it makes spin; a lock: besides itself */
		after = spinning(c) - !out[i].is_fn;
		if (after <= before || after - before <= c->max_spread)
			continue;
		leave_out(c, out[i], true);
		if (out[i].is_fn)
			c->funcs[out[i].idx].spread = after - before;
		else
			c->locks[out[i].idx].spread = after - before;
		c->bounded++;
		classify_rerun(c);
	}
	free(out);
}
