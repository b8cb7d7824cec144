// Declarations: fields, globals, statics, externs, locals, arrays,
// several declarators, typedefs, casts, sizeof.
struct bucket {
	spinlock_t lock ____cacheline_aligned_in_smp;
	spinlock_t *lockp, locks[4];
	struct {
		spinlock_t inner;
		int depth;
	};
	union {
		spinlock_t u_lock;
		long pad;
	} u;
	const spinlock_t *ro;
	spinlock_t **pp;
};

typedef struct {
	spinlock_t lock;
	int hits;
} counter_t;

typedef spinlock_t my_lock_t;

/* fields named after the API (drivers' comedidev.h, aic7xxx_osm.h) */
struct named_after_api {
	spinlock_t spin_lock;
	spinlock_t *spin_unlock, spin_trylock[2];
};

spinlock_t global_lock;
extern spinlock_t extern_lock;
static spinlock_t static_lock, *static_lockp = &static_lock;
static spinlock_t table_locks[16] __cacheline_aligned;

static size_t decls(void *p)
{
	spinlock_t local_lock;
	static spinlock_t static_local;
	spinlock_t *lp = (spinlock_t *)p;
	size_t n = sizeof(spinlock_t) + sizeof(*lp) + __alignof__(spinlock_t);
	struct bucket *b = container_of(p, spinlock_t, lock);

	spin_lock_init(&local_lock);
	(void)b;
	return n + sizeof(static_local);
}
