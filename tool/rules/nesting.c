// SPDX-License-Identifier: GPL-2.0
/*
 * nested: a sleeping lock may never be taken while a spinning lock is
 * held.  Each time a lock becomes spinning, every lock acquired while it
 * is held spins too, and every function called while it is held runs in
 * atomic context.  Seeds nothing: it closes over the other rules.
 */
#include "rules.h"

static void nesting_on_spin(struct classify *c, unsigned lock)
{
	struct cl_lock *l = &c->locks[lock];
	unsigned i;

	for (i = 0; i < l->nheld_at; i++) {
		struct cl_held *h = &l->held_at[i];
		struct cl_func *f = &c->funcs[h->func];

		if (h->is_call)
			enqueue_func(c, f->calls[h->idx].callee, CL_NESTED,
				     h->func, h->idx, lock);
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
