/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _HEADER_H
#define _HEADER_H

#include <linux/spinlock.h>

struct hdr_queue {
	spinlock_t lock;
	struct list_head list;
};

extern spinlock_t hdr_global_lock;
DECLARE_PER_CPU(spinlock_t, hdr_cpu_lock);

#define hdr_queue_lock(q)	spin_lock_bh(&(q)->lock)
#define hdr_queue_unlock(q)	spin_unlock_bh(&(q)->lock)
#define HDR_QUEUE_INIT(name) {						\
	.lock = __SPIN_LOCK_UNLOCKED(name.lock),			\
	.list = LIST_HEAD_INIT(name.list),				\
}

static inline void hdr_queue_init(struct hdr_queue *q)
{
	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->list);
}

static inline spinlock_t *hdr_queue_lockptr(struct hdr_queue *q)
{
	return &q->lock;
}

static inline bool hdr_queue_empty_locked(struct hdr_queue *q)
{
	lockdep_assert_held(&q->lock);
	assert_spin_locked(&q->lock);
	return list_empty(&q->list);
}

#endif /* _HEADER_H */
