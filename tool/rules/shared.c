// SPDX-License-Identifier: GPL-2.0
/*
 * shared: locks whose addresses one declaration holds (a parameter, a
 * return type, a local or a field of type spinlock_t *: pte_lockptr()
 * returns &mm->page_table_lock or a page's ptl) have one type in the
 * converted tree.  When one of them spins, the declaration keeps the
 * spinning type, and so must every other lock it holds, or the tree does
 * not compile.  Seeds nothing: like nesting, it closes over the others
 * (spin_shared_with(), beside the other ways a lock starts spinning).
 */
#include "rules.h"

const struct rule rule_shared = {
	.name = "shared",
	.cls = CL_SHARED,
	.help = "held by one spinlock_t * declaration with a spinning lock",
	.on_spin = spin_shared_with,
};
