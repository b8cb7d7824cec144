// The helpers of include/linux that take a spinlock.
struct obj {
	spinlock_t lock;
	atomic_t count;
	refcount_t ref;
	struct kref kref;
	wait_queue_head_t wq;
	DECLARE_KFIFO(fifo, int, 16);
	bool done;
	seqcount_spinlock_t seq;
};

static struct obj static_obj = {
	.lock = __SPIN_LOCK_UNLOCKED(static_obj.lock),
	.seq = SEQCNT_SPINLOCK_ZERO(static_obj.seq, &static_obj.lock),
};

static void obj_release(struct kref *kref);

static int helpers(struct obj *o, int *v)
{
	unsigned long flags;
	int n = 0;

	seqcount_spinlock_init(&o->seq, &o->lock);
	spin_lock(&o->lock);
	if (spin_needbreak(&o->lock))
		cond_resched_lock(&o->lock);
	wait_event_lock_irq(o->wq, o->done, o->lock);
	wait_event_lock_irq_cmd(o->wq, o->done, o->lock, n++);
	n += wait_event_lock_irq_timeout(o->wq, o->done, o->lock, HZ);
	n += wait_event_interruptible_lock_irq(o->wq, o->done, o->lock);
	n += wait_event_interruptible_lock_irq_cmd(o->wq, o->done, o->lock, n++);
	n += wait_event_interruptible_lock_irq_timeout(o->wq, o->done, o->lock, HZ);
	spin_unlock(&o->lock);
	if (atomic_dec_and_lock(&o->count, &o->lock))
		spin_unlock(&o->lock);
	if (atomic_dec_and_lock_irqsave(&o->count, &o->lock, flags))
		spin_unlock_irqrestore(&o->lock, flags);
	if (refcount_dec_and_lock(&o->ref, &o->lock))
		spin_unlock(&o->lock);
	if (refcount_dec_and_lock_irqsave(&o->ref, &o->lock, &flags))
		spin_unlock_irqrestore(&o->lock, flags);
	if (kref_put_lock(&o->kref, obj_release, &o->lock))
		spin_unlock(&o->lock);
	n += kfifo_in_spinlocked(&o->fifo, v, 1, &o->lock);
	n += kfifo_out_spinlocked(&o->fifo, v, 1, &o->lock);
	n += kfifo_in_spinlocked_noirqsave(&o->fifo, v, 1, &o->lock);
	n += kfifo_out_spinlocked_noirqsave(&o->fifo, v, 1, &o->lock);
	n += kfifo_is_empty_spinlocked(&o->fifo, &o->lock);
	n += kfifo_is_empty_spinlocked_noirqsave(&o->fifo, &o->lock);
	n += kfifo_in_locked(&o->fifo, v, 1, &o->lock);
	n += kfifo_out_locked(&o->fifo, v, 1, &o->lock);
	return n;
}

struct table {
	spinlock_t *locks;
	unsigned int mask;
};

static int table_init(struct table *t)
{
	return alloc_bucket_spinlocks(&t->locks, &t->mask, 1024, 1, GFP_KERNEL);
}

static void table_free(struct table *t)
{
	free_bucket_spinlocks(t->locks);
}
