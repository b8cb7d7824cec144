// SPDX-License-Identifier: GPL-2.0
/*
 * lib/bucket_locks.c - a small refcounted object hash with one lock per
 * hash bucket.
 */
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/atomic.h>
#include <linux/spinlock.h>

#define OBJ_HASH_BITS	4
#define OBJ_HASH_SIZE	(1 << OBJ_HASH_BITS)

struct hobj {
	struct list_head	node;
	atomic_t		refcnt;
	unsigned long		key;
};

static lock_t obj_hash_locks[OBJ_HASH_SIZE];
static struct list_head obj_hash[OBJ_HASH_SIZE];

static inline unsigned int obj_hash_fn(unsigned long key)
{
	return (unsigned int)((key * 0x61C8864680B583EBull) >> 60) &
	       (OBJ_HASH_SIZE - 1);
}

void __init obj_hash_init(void)
{
	int i;

	for (i = 0; i < OBJ_HASH_SIZE; i++) {
		lock_init(&obj_hash_locks[i]);
		INIT_LIST_HEAD(&obj_hash[i]);
	}
}

struct hobj *obj_lookup(unsigned long key)
{
	unsigned int b = obj_hash_fn(key);
	struct hobj *o, *found = NULL;

	acquire_lock_t(&obj_hash_locks[b]);
	list_for_each_entry(o, &obj_hash[b], node) {
		if (o->key == key) {
			atomic_inc(&o->refcnt);
			found = o;
			break;
		}
	}
	release_lock_t(&obj_hash_locks[b]);
	return found;
}

void obj_insert(struct hobj *o)
{
	unsigned int b = obj_hash_fn(o->key);
	lock_t *lock = &obj_hash_locks[b];
	unsigned long flags;

	atomic_set(&o->refcnt, 1);
	acquire_lock_irqsave(lock, flags);
	list_add(&o->node, &obj_hash[b]);
	release_lock_irqrestore(lock, flags);
}

/* Returns true when the last reference was dropped and @o was unhashed. */
bool obj_put(struct hobj *o)
{
	unsigned int b = obj_hash_fn(o->key);
	unsigned long flags;

	if (!atomic_dec_and_acquire_lock_irqsave(&o->refcnt, &obj_hash_locks[b], flags))
		return false;
	list_del(&o->node);
	release_lock_irqrestore(&obj_hash_locks[b], flags);
	return true;
}
