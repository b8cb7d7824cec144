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
 * converts with that context as its conflict, a call made where interrupts
 * or preemption were disabled by hand is not followed (6.1's bio_put()
 * frees into a mempool with preemption off, and reaches the wait queues
 * and everything woken under them: the region is the bug); all are listed
 * for review, and a reviewer who disagrees whitelists the locks.  Calls
 * made under a spinning lock have a bound of their own, max_call_spread.
 * Other entries are
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

/* A seed: an entry point, a lock, or a call (by its index in calls[]). */
enum seed_kind { SEED_FN, SEED_LOCK, SEED_CALL };

struct seed {
	enum seed_kind kind;
	unsigned idx;
};

/* The calls of every function, numbered: v[i] is call i. */
struct calls {
	struct cl_call **v;
	unsigned n;
	unsigned *base;		/* a function's first call's number */
	unsigned *stamp;	/* the last lock counted through it, plus one */
};

static void number_calls(const struct classify *c, struct calls *cs)
{
	unsigned i, j, n = 0;

	for (i = 0; i < c->nfuncs; i++)
		n += c->funcs[i].ncalls;
	cs->v = xcalloc(n + 1, sizeof(*cs->v));
	cs->base = xcalloc(c->nfuncs + 1, sizeof(*cs->base));
	cs->stamp = xcalloc(n + 1, sizeof(*cs->stamp));
	for (i = 0, cs->n = 0; i < c->nfuncs; i++) {
		cs->base[i] = cs->n;
		for (j = 0; j < c->funcs[i].ncalls; j++)
			cs->v[cs->n++] = &c->funcs[i].calls[j];
	}
}

static void free_calls(struct calls *cs)
{
	free(cs->v);
	free(cs->base);
	free(cs->stamp);
}

/*
 * Walk @lock's evidence chain, from the function that takes it up through
 * each outer lock: count @lock once for every call the chain goes through
 * (the stamp @stamp marks those counted) and for every outer lock; the
 * lock the chain starts from.
 */
static unsigned walk_chain(const struct classify *c, const struct calls *cs,
			   unsigned lock, unsigned stamp, unsigned *locks,
			   unsigned *calls)
{
	unsigned x = lock, lock_hops = 0, fn_hops = 0, n;
	const struct cl_func *f;
	int up;

	for (;;) {
		f = c->locks[x].by_func >= 0 ? &c->funcs[c->locks[x].by_func]
					     : NULL;
		for (; f && f->from_func >= 0 && fn_hops++ <= c->nfuncs;
		     f = &c->funcs[f->from_func]) {
			n = cs->base[f->from_func] + (unsigned)f->from_call;
			if (cs->stamp[n] != stamp) {
				cs->stamp[n] = stamp;
				calls[n]++;
			}
			if (f->from_lock >= 0)
				break;
		}
		up = outer_of(c, x);
		if (up < 0 || lock_hops++ >= c->nlocks)
			return x;
		locks[up]++;
		x = up;
	}
}

/*
 * How many spinning locks' evidence chains lead back to each lock (locks),
 * to each entry point (fns) and through each call (calls), counting the
 * seed lock itself.
 */
static void chain_counts(const struct classify *c, const struct calls *cs,
			 unsigned *locks, unsigned *fns, unsigned *calls)
{
	unsigned i, x;
	int e;

	memset(cs->stamp, 0, (cs->n + 1) * sizeof(*cs->stamp));
	for (i = 0; i < c->nlocks; i++) {
		if (c->locks[i].cls == CL_NONE)
			continue;
		x = walk_chain(c, cs, i, i + 1, locks, calls);
		if (c->locks[x].cls != CL_NESTED && (e = entry_of(c, x)) >= 0)
			fns[e]++;
	}
}

/* Is a lock that spins held at @cl? */
static bool under_spinning(const struct classify *c, const struct cl_call *cl)
{
	unsigned i;

	for (i = 0; i < cl->nheld; i++)
		if (c->locks[cl->held[i]].cls != CL_NONE)
			return true;
	return false;
}

/* Is call @cl made where interrupts or preemption were disabled by hand? */
static bool in_region(const struct cl_call *cl)
{
	return cl->irqs_off || cl->preempt_off;
}

/*
 * The bound of call @cl as a seed: max_spread in a region disabled by hand
 * (a component's choice: where it reaches dozens of locks, the region is
 * what PREEMPT_RT needs changed, like a context's lock), else
 * max_call_spread (a call under a spinning lock).
 */
static unsigned call_bound(const struct classify *c, const struct cl_call *cl)
{
	return in_region(cl) ? c->max_spread : c->max_call_spread;
}

/*
 * The heaviest candidate not tried yet, by how far it is over its bound;
 * false if none.
 */
static bool next_candidate(const struct classify *c, const struct calls *cs,
			   struct seed *best)
{
	unsigned *locks = xcalloc(c->nlocks + 1, sizeof(*locks));
	unsigned *fns = xcalloc(c->nfuncs + 1, sizeof(*fns));
	unsigned *calls = xcalloc(cs->n + 1, sizeof(*calls));
	unsigned bound = c->max_spread, cbound;
	unsigned i, most = 0;

	chain_counts(c, cs, locks, fns, calls);
	for (i = 0; bound && i < c->nfuncs; i++)
		if (fns[i] > bound + most && c->funcs[i].weighable &&
		    !c->funcs[i].spread_tried) {
			most = fns[i] - bound;
			*best = (struct seed){ SEED_FN, i };
		}
	for (i = 0; bound && i < c->nlocks; i++)
		if (locks[i] > bound + most && !c->locks[i].spread_tried &&
		    context_class(c->locks[i].cls) && outer_of(c, i) < 0) {
			most = locks[i] - bound;
			*best = (struct seed){ SEED_LOCK, i };
		}
	for (i = 0; i < cs->n; i++)
		if (!cs->v[i]->spread_tried &&
		    (in_region(cs->v[i]) || under_spinning(c, cs->v[i])) &&
		    (cbound = call_bound(c, cs->v[i])) &&
		    calls[i] > cbound + most) {
			most = calls[i] - cbound;
			*best = (struct seed){ SEED_CALL, i };
		}
	free(locks);
	free(fns);
	free(calls);
	return most > 0;
}

/* Where a seed keeps whether it is out, whether it was tried, its spread. */
struct seed_state {
	bool *out, *tried;
	unsigned *spread;
};

static struct seed_state state_of(struct classify *c, const struct calls *cs,
				  struct seed s)
{
	struct cl_func *f;
	struct cl_lock *l;
	struct cl_call *cl;

	switch (s.kind) {
	case SEED_FN:
		f = &c->funcs[s.idx];
		return (struct seed_state){ &f->left_out, &f->spread_tried,
					    &f->spread };
	case SEED_LOCK:
		l = &c->locks[s.idx];
		return (struct seed_state){ &l->forced_convert,
					    &l->spread_tried, &l->spread };
	default:
		cl = cs->v[s.idx];
		return (struct seed_state){ &cl->left_out, &cl->spread_tried,
					    &cl->spread };
	}
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
	unsigned nout = 0, aout = 0, i, before, after, now, bound;
	bool stale = false;	/* the last seed run given back stays out */
	struct calls cs;

	number_calls(c, &cs);
	while (!(c->interrupted && c->interrupted()) &&
	       next_candidate(c, &cs, &s)) {
		*state_of(c, &cs, s).tried = true;
		*state_of(c, &cs, s).out = true;
		ALLOC_GROW(out, nout, aout);
		out[nout++] = s;
		classify_rerun(c);
	}
	/*
	 * A seed that stays out is not classified out again at once: the
	 * next seed's run has it out, and @before is still what spun then.
	 */
	before = spinning(c);
	for (i = 0; i < nout && !(c->interrupted && c->interrupted()); i++) {
		*state_of(c, &cs, out[i]).out = false;
		classify_rerun(c);
		now = spinning(c);
		/* what it makes spin; a lock: besides itself */
		after = now - (out[i].kind == SEED_LOCK);
		bound = out[i].kind == SEED_CALL
				? call_bound(c, cs.v[out[i].idx])
				: c->max_spread;
		stale = after > before && after - before > bound;
		if (!stale) {
			before = now;
			continue;
		}
		*state_of(c, &cs, out[i]).out = true;
		*state_of(c, &cs, out[i]).spread = after - before;
		c->bounded++;
	}
	if (stale)
		classify_rerun(c);
	free_calls(&cs);
	free(out);
}

json_t *classify_left_out(struct classify *c)
{
	json_t *out = json_array();
	unsigned i, j, k;

	for (i = 0; i < c->nfuncs; i++) {
		const struct cl_func *f = &c->funcs[i];

		if (f->spread)
			json_array_append_new(
				out, json_pack("{sssssssi}", "fn", f->f->id, "why",
					       f->out_why, "at", f->out_at,
					       "spread", (int)f->spread));
		for (j = 0; j < f->ncalls; j++) {
			const struct cl_call *cl = &f->calls[j];
			const char *held = "";
			char *why, *at;

			if (!cl->spread)
				continue;
			for (k = 0; k < cl->nheld && !*held; k++)
				if (c->locks[cl->held[k]].cls != CL_NONE)
					held = c->locks[cl->held[k]].l->id;
			why = xasprintf("%s() calls %s() with %s%s",
					f->f->name, c->funcs[cl->callee].f->name,
					cl->irqs_off	  ? "interrupts"
					: cl->preempt_off ? "preemption"
							  : held,
					in_region(cl) ? " disabled by hand"
						      : " held");
			at = xasprintf("%s:%d", f->f->file, cl->line);
			json_array_append_new(
				out, json_pack("{sssssssi}", "fn", f->f->id, "why",
					       why, "at", at, "spread",
					       (int)cl->spread));
			free(why);
			free(at);
		}
	}
	return out;
}
