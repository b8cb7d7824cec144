// Names the scan did not see, decided by the per-file names
// (private.keep_names: "private.h:.lock", every lock named lock that
// this file declares or takes is kept): a __private field written
// through ACCESS_PRIVATE(p, NAME) is the member NAME, and a static
// initialiser in a macro the scan did not expand is decided by its
// argument, written as the lock.
struct srcu_struct {
	spinlock_t __private lock;
	spinlock_t __private other;
};

#define __SRCU_STRUCT_INIT(name)					\
{									\
	.lock = __SPIN_LOCK_UNLOCKED(name.lock),			\
	.other = __SPIN_LOCK_UNLOCKED(name.other),			\
}

#define spin_lock_irqsave_srcu(p, flags)				\
	spin_lock_irqsave(&ACCESS_PRIVATE(p, lock), flags)

static inline void srcu_init(struct srcu_struct *ssp)
{
	spin_lock_init(&ACCESS_PRIVATE(ssp, lock));
	spin_lock_init(&ACCESS_PRIVATE(ssp, other));
}
