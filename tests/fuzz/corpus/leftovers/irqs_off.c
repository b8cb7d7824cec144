// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/irqs_off.c - locks taken in atomic sections opened by hand.
 *
 * A spinlock_t acquired after local_irq_save() or preempt_disable() was
 * called explicitly must keep spinning on PREEMPT_RT.  A lock that only
 * disables interrupts through its own spin_lock_irqsave() may sleep.
 */
#include <linux/kernel.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>

static DEFINE_SPINLOCK(irqsoff_save_lock);		/* after local_irq_save() */
static DEFINE_SPINLOCK(irqsoff_preempt_lock);		/* after preempt_disable() */
static DEFINE_SPINLOCK(irqsoff_own_irqsave_lock);	/* spin_lock_irqsave() only */

static unsigned long irqsoff_events[3];

void irqsoff_run_local_irq_save(void)
{
	unsigned long flags;

	local_irq_save(flags);
	spin_lock(&irqsoff_save_lock);
	irqsoff_events[0]++;
	spin_unlock(&irqsoff_save_lock);
	local_irq_restore(flags);
}

void irqsoff_run_preempt_disable(void)
{
	preempt_disable();
	spin_lock(&irqsoff_preempt_lock);
	irqsoff_events[1]++;
	spin_unlock(&irqsoff_preempt_lock);
	preempt_enable();
}

void irqsoff_run_own_irqsave(void)
{
	unsigned long flags;

	spin_lock_irqsave(&irqsoff_own_irqsave_lock, flags);
	irqsoff_events[2]++;
	spin_unlock_irqrestore(&irqsoff_own_irqsave_lock, flags);
}
