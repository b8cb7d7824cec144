// SPDX-License-Identifier: GPL-2.0
/*
 * nested: a sleeping lock may never be taken while a spinning lock is
 * held.  Each time a lock becomes spinning, every lock acquired while it
 * is held spins too, and every function called while it is held runs in
 * atomic context.  Seeds nothing: it closes over the other rules.
 *
 * A callee may drop its caller's lock and take it again around work that
 * may sleep (the shape of __fixup_pi_state_owner()): only the part of it
 * before the drop runs under the lock; what it takes again is held there
 * in its own right and reached through the lock's own held_at list.
 */
#include "rules.h"
#include "../util.h"

static bool drops(const struct cl_func *f, unsigned lock)
{
	unsigned i;

	if (!f->drops)
		return false;
	for (i = 0; i < f->ncalls; i++)
		if (ids_have(f->calls[i].dropped, f->calls[i].ndropped, lock))
			return true;
	for (i = 0; i < f->nacqs; i++)
		if (ids_have(f->acqs[i].dropped, f->acqs[i].ndropped, lock))
			return true;
	return false;
}

static void call_under(struct classify *c, unsigned func, unsigned call,
		       unsigned lock);

/*
 * Call @call of @func is made with @lock held, and its callee @fn drops it:
 * visit the part before.
 */
static void visit_until_drop(struct classify *c, unsigned func, unsigned call,
			     unsigned fn, unsigned lock)
{
	struct cl_func *f = &c->funcs[fn];
	unsigned i;

	if (f->cls != CL_NONE || f->off_rt || func_part(c, fn, lock))
		return;
	ALLOC_GROW(f->parts, f->nparts, f->aparts);
	f->parts[f->nparts].lock = lock;
	f->parts[f->nparts].from_func = func;
	f->parts[f->nparts++].from_call = call;
	for (i = 0; i < f->nacqs; i++) {
		struct cl_acq *a = &f->acqs[i];

		if (a->lock != lock && !ids_have(a->dropped, a->ndropped, lock))
			spin_lock_from(c, a->lock, CL_NESTED, fn, i, lock);
	}
	for (i = 0; i < f->ncalls; i++) {
		struct cl_call *cl = &f->calls[i];

		if (!ids_have(cl->dropped, cl->ndropped, lock))
			call_under(c, fn, i, lock);
	}
}

/*
 * Call @call of @func is made with @lock held (if the closure follows it:
 * call_followed()).
 */
static void call_under(struct classify *c, unsigned func, unsigned call,
		       unsigned lock)
{
	unsigned callee = c->funcs[func].calls[call].callee;

	if (!call_followed(&c->funcs[func].calls[call]))
		return;
	if (drops(&c->funcs[callee], lock)) {
		visit_until_drop(c, func, call, callee, lock);
	} else {
		enqueue_func(c, callee, CL_NESTED, func, call, lock);
		enqueue_passed(c, func, call, CL_NESTED, lock);
	}
}

static void nesting_on_spin(struct classify *c, unsigned lock)
{
	struct cl_lock *l = &c->locks[lock];
	unsigned i;

	for (i = 0; i < l->nheld_at; i++) {
		struct cl_held *h = &l->held_at[i];
		struct cl_func *f = &c->funcs[h->func];

		if (f->off_rt)
			continue; /* not built with PREEMPT_RT */
		if (h->is_call)
			call_under(c, h->func, h->idx, lock);
		else if (f->acqs[h->idx].lock != lock)
			spin_lock_from(c, f->acqs[h->idx].lock, CL_NESTED,
				       h->func, h->idx, lock);
	}
}

const struct rule rule_nesting = {
	.name = "nested",
	.cls = CL_NESTED,
	.help = "taken while a spinning lock is held, directly or in a callee",
	.on_spin = nesting_on_spin,
};
