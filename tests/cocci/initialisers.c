// DEFINE_SPINLOCK() and __SPIN_LOCK_UNLOCKED() in static initialisers.
struct stats {
	spinlock_t lock;
	unsigned long count;
};

struct wrapper {
	struct stats st;
	spinlock_t locks[2];
};

static DEFINE_SPINLOCK(file_lock);
DEFINE_SPINLOCK(exported_lock);
static spinlock_t init_lock = __SPIN_LOCK_UNLOCKED(init_lock);
static struct stats stats = {
	.lock = __SPIN_LOCK_UNLOCKED(stats.lock),
	.count = 0,
};
static struct wrapper wrap = {
	.st = { .lock = __SPIN_LOCK_UNLOCKED(wrap.st.lock) },
	.locks = { __SPIN_LOCK_UNLOCKED(wrap.locks[0]),
		   __SPIN_LOCK_UNLOCKED(wrap.locks[1]) },
};

static void reinit(struct stats *s)
{
	static DEFINE_SPINLOCK(func_lock);

	spin_lock(&func_lock);
	s->lock = __SPIN_LOCK_UNLOCKED(s->lock);
	spin_unlock(&func_lock);
}
