// seqcounts tied to a lock: the one given a kept lock is retyped with it
struct obj {
	spinlock_t lock;		/* kept */
	seqcount_spinlock_t seq;	/* given only the kept lock */
	spinlock_t other;		/* converted */
	seqcount_spinlock_t other_seq;
};

static struct obj static_obj = {
	.lock = __SPIN_LOCK_UNLOCKED(static_obj.lock),
	.seq = SEQCNT_SPINLOCK_ZERO(static_obj.seq, &static_obj.lock),
	.other = __SPIN_LOCK_UNLOCKED(static_obj.other),
	.other_seq = SEQCNT_SPINLOCK_ZERO(static_obj.other_seq, &static_obj.other),
};

void obj_init(struct obj *o)
{
	spin_lock_init(&o->lock);
	seqcount_spinlock_init(&o->seq, &o->lock);
	spin_lock_init(&o->other);
	seqcount_spinlock_init(&o->other_seq, &o->other);
}
