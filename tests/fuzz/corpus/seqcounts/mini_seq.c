// SPDX-License-Identifier: GPL-2.0
/*
 * linux-mini: sequence counters tied to a lock.  With lockdep and on
 * PREEMPT_RT a seqcount_spinlock_t holds a spinlock_t *: the one given
 * rtc_lock, which keeps spinning, becomes a seqcount_raw_spinlock_t with
 * it; the one given sb_lock, which is converted, stays as it is.
 */
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/mc146818rtc.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>

seqcount_spinlock_t rtc_seq = SEQCNT_SPINLOCK_ZERO(rtc_seq, &rtc_lock);
static seqcount_spinlock_t sb_seq;

void mini_seq_init(void)
{
	seqcount_spinlock_init(&sb_seq, &sb_lock);
}

/*
 * Seqcounts are known by name: this "seq" is include/linux/mini_seq.h's
 * (a declaration near the use: the same file name), given only rtc_lock;
 * fs/mini_seq_sb.c's "seq" is given sb_lock.  Each follows its own.
 */
#include <linux/mini_seq.h>

void mini_seq_obj_init(struct mini_seq_obj *o)
{
	seqcount_spinlock_init(&o->seq, &rtc_lock);
}

/*
 * m_lock is a macro for m_ref.lock, which a hard-irq handler takes: the
 * seqcount follows struct mini_ref::lock, m_ref's, although a lock named
 * "lock" below converts.
 */
#include <linux/interrupt.h>

static irqreturn_t mini_dent_irq(int irq, void *data)
{
	struct mini_dent *d = data;

	spin_lock(&d->m_lock);
	d->m_ref.count++;
	spin_unlock(&d->m_lock);
	return IRQ_HANDLED;
}

void mini_dent_init(struct mini_dent *d)
{
	spin_lock_init(&d->m_lock);
	seqcount_spinlock_init(&d->m_seq, &d->m_lock);
	if (request_irq(5, mini_dent_irq, IRQF_NO_THREAD, "mini-dent", d))
		d->m_ref.count = -1;
}

/*
 * Two records of this file have a lock named "lock": a hard-irq handler
 * takes mini_period's, mini_queue's converts.  The seqcount tied to
 * &p->lock is a field of the same record as that lock: it follows it.
 */
struct mini_period {
	spinlock_t lock;
	seqcount_spinlock_t period_seq;
	u64 period;
};

struct mini_queue {
	spinlock_t lock;
	int len;
};

static irqreturn_t mini_period_irq(int irq, void *data)
{
	struct mini_period *p = data;

	spin_lock(&p->lock);
	p->period++;
	spin_unlock(&p->lock);
	return IRQ_HANDLED;
}

int mini_period_init(struct mini_period *p, struct mini_queue *q)
{
	spin_lock_init(&p->lock);
	seqcount_spinlock_init(&p->period_seq, &p->lock);
	spin_lock_init(&q->lock);
	spin_lock(&q->lock);
	q->len = 0;
	spin_unlock(&q->lock);
	return request_irq(6, mini_period_irq, IRQF_NO_THREAD, "mini-period", p);
}
