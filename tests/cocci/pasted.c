// An API name pasted from a prefix in a macro's body (the shape of
// sound/core/pcm_native.c's group lock helpers): lock.h's token-pasting
// forms, lock_t_ ## action, for a converted lock; raw_spin_ ## action for
// a kept one (pasted.keep_names, with raw); decided by the lock's name.
struct group {
	spinlock_t lock;
	spinlock_t mask_lock;		/* kept by name */
	struct mutex mutex;
};

#define DEFINE_GROUP_LOCK(action, mutex_action) \
static void group_ ## action(struct group *group, bool nonatomic) \
{ \
	if (nonatomic) \
		mutex_ ## mutex_action(&group->mutex); \
	else \
		spin_ ## action(&group->lock); \
}

DEFINE_GROUP_LOCK(lock, lock);
DEFINE_GROUP_LOCK(unlock_irq, unlock);

#define DEFINE_MASK_LOCK(action) \
static void mask_ ## action(struct group *group) \
{ \
	spin_ ## action(&group->mask_lock); \
}

DEFINE_MASK_LOCK(lock_irq);
