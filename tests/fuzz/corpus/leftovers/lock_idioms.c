// SPDX-License-Identifier: GPL-2.0
/*
 * lib/lock_idioms.c - assorted ways of declaring and reaching a spinlock:
 * a lock on the stack, a function-static lock, a lock in a typedef'd
 * anonymous struct, and a helper that locks whatever its caller passes.
 */
#include <linux/kernel.h>
#include <linux/spinlock.h>

typedef struct {
	spinlock_t	lock;
	u64		hits;
	u64		misses;
} hitcount_t;

static DEFINE_SPINLOCK(idioms_total_lock);
static u64 idioms_total;

/* Locks whatever lock the caller hands in. */
static void counter_add_locked(spinlock_t *lock, u64 *counter, u64 delta)
{
	spin_lock(lock);
	*counter += delta;
	spin_unlock(lock);
}

void hitcount_init(hitcount_t *hc)
{
	spin_lock_init(&hc->lock);
	hc->hits = 0;
	hc->misses = 0;
}

void hitcount_hit(hitcount_t *hc)
{
	counter_add_locked(&hc->lock, &hc->hits, 1);
	counter_add_locked(&idioms_total_lock, &idioms_total, 1);
}

void hitcount_miss(hitcount_t *hc)
{
	spin_lock(&hc->lock);
	hc->misses++;
	spin_unlock(&hc->lock);
}

/* Self test with a lock that lives on the stack. */
int lock_idioms_selftest(void)
{
	spinlock_t onstack_lock;
	int ret;

	spin_lock_init(&onstack_lock);
	spin_lock(&onstack_lock);
	ret = spin_is_locked(&onstack_lock) ? 0 : -EINVAL;
	spin_unlock(&onstack_lock);

	return ret;
}

/* Warn once per boot, serialised by a function-static lock. */
bool lock_idioms_warn_once(const char *what)
{
	static DEFINE_SPINLOCK(warned_lock);
	static bool warned;
	bool first = false;

	spin_lock(&warned_lock);
	if (!warned) {
		warned = true;
		first = true;
	}
	spin_unlock(&warned_lock);

	if (first)
		pr_warn("lock_idioms: %s\n", what);
	return first;
}
