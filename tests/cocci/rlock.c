// The spinlock_t inside a kept lock, read by a macro (lib/lockref.c's
// CMPXCHG_LOOP): a raw_spinlock_t has no .rlock, it is that lock
// (rlock.keep_names: "rlock.c:.lock", every lock named lock here is
// kept).  A converted lock's .rlock is left alone.  And the lock argument
// of a helper is the one LOCK_ARG names: wait_event_lock_irq()'s third.
struct lockref {
	spinlock_t lock;
	unsigned int count;
};

struct other {
	spinlock_t olock;
};

#define CMPXCHG_LOOP(old)						\
	while (arch_spin_value_unlocked(old.lock.rlock.raw_lock))	\
		cpu_relax()

#define OTHER_LOOP(o)							\
	while (arch_spin_value_unlocked(o.olock.rlock.raw_lock))	\
		cpu_relax()

static void wait_for(struct lockref *r, struct wait_queue_head *wq)
{
	spin_lock_irq(&r->lock);
	wait_event_lock_irq(*wq, r->count == 0, r->lock);
	spin_unlock_irq(&r->lock);
}
