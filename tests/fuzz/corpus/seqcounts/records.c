struct ioc {
	spinlock_t lock;
	union {
		struct { int a; };
		seqcount_spinlock_t period_seqcount;
	};
	struct lockref lr;
};
#define d_lock lr.lock
void f(struct ioc *ioc)
{
	seqcount_spinlock_init(&ioc->period_seqcount, &ioc->d_lock);
	seqcount_spinlock_init(&ioc->period_seqcount, &ioc->lock);
}
static seqcount_spinlock_t s = SEQCNT_SPINLOCK_ZERO(s, &l);
