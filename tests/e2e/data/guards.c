// SPDX-License-Identifier: GPL-2.0
/*
 * lock.h's guard classes, compiled against a converted tree's headers by
 * tests/e2e/test_convert.c.  The fixture's spinlock.h includes its
 * cleanup.h (the macros of Linux 6.1.192's include/linux/cleanup.h), so
 * lock.h defines lock_t, lock_t_irq, lock_t_bh and lock_t_irqsave.
 * -DWRONG_LOCK guards a spinlock_t with a lock_t class: an error with
 * CONFIG_DEBUG_LOCK_T_TYPECHECK.
 */
#include <linux/spinlock.h>

static DEFINE_LOCK(guarded_lock);
static DEFINE_SPINLOCK(plain_spinlock);
static int guarded_count;

void guarded_work(void)
{
	{
		guard(lock_t_irqsave)(&guarded_lock);
		guarded_count++;
	}
	scoped_guard(lock_t, &guarded_lock)
		guarded_count++;
	scoped_guard(lock_t_irq, &guarded_lock) {
		guarded_count++;
	}
	scoped_guard(lock_t_bh, &guarded_lock)
		guarded_count++;
#ifdef WRONG_LOCK
	guard(lock_t)(&plain_spinlock);
#else
	(void)plain_spinlock;
#endif
}
