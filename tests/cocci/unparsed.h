/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Code spatch 1.1.1 cannot parse (an attribute after the closing brace, as
 * struct klist and struct address_space in 6.1) is converted by the
 * textual rule; an implementation prototype is still left alone.
 */
#ifndef _UNPARSED_H
#define _UNPARSED_H

struct klist_like {
	spinlock_t		k_lock;
	struct list_head	k_list;
	void			(*get)(struct klist_node *);
} __attribute__ ((aligned (sizeof(void *))));

/* a field named after the API is a name, not a call */
struct unparsed_named {
	spinlock_t		spin_lock;
	int			n;
} __attribute__ ((aligned (sizeof(void *))));

#define KLIST_LIKE_INIT(_name)						\
	{ .k_lock = __SPIN_LOCK_UNLOCKED(_name.k_lock),		\
	  .k_list = LIST_HEAD_INIT(_name.k_list) }

extern int __cond_resched_lock(spinlock_t *lock);
extern bool refcount_dec_and_lock(refcount_t *r, spinlock_t *lock) __cond_acquires(lock);

static inline void klist_like_lock(struct klist_like *k)
{
	spin_lock(&k->k_lock);
}

static inline void klist_like_unlock(struct klist_like *k)
{
	spin_unlock(&k->k_lock);
}

#endif
