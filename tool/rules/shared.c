// SPDX-License-Identifier: GPL-2.0
/*
 * shared: locks whose addresses one declaration holds (a parameter, a
 * return type, a local or a field of type spinlock_t *: pte_lockptr()
 * returns &mm->page_table_lock or a page's ptl) have one type in the
 * converted tree.  When one of them spins, the declaration keeps the
 * spinning type, and so must every other lock it holds, or the tree does
 * not compile.  Seeds nothing: like nesting, it closes over the others.
 */
#include "rules.h"

static void shared_on_spin(struct classify *c, unsigned lock)
{
	struct cl_lock *l = &c->locks[lock];
	unsigned i, j;

	for (i = 0; i < l->nslots; i++) {
		const struct cl_slot *s = &c->slots[l->slots[i]];

		for (j = 0; j < s->nlocks; j++)
			if (s->locks[j] != lock)
				spin_lock_shared(c, s->locks[j], lock,
						 l->slots[i]);
	}
}

const struct rule rule_shared = {
	.name = "shared",
	.cls = CL_SHARED,
	.help = "held by one spinlock_t * declaration with a spinning lock",
	.on_spin = shared_on_spin,
};
