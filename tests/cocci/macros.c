// Calls and types inside macro bodies, including a macro that generates
// functions (as KYBER_DEBUGFS_DOMAIN_ATTRS in block/kyber-iosched.c).
struct foo {
	spinlock_t lock;
	int val;
};

#define foo_lock(f)		spin_lock(&(f)->lock)
#define foo_unlock(f)		do { spin_unlock(&(f)->lock); } while (0)
#define foo_lock_irqsave(f, fl)	spin_lock_irqsave(&(f)->lock, fl)
#define my_unlock_fn		spin_unlock	/* alias of an API name */
#define DECLARE_LOCKED_INT(name)				\
	struct name##_locked {					\
		spinlock_t lock;				\
		int v;						\
	}
/* spin_lock() in a comment and "spin_lock" in a string stay */
#define LOCK_NAME		"spin_lock"

#define FOO_ATTRS(name, field)						\
static int foo_##name##_get(struct foo *f)				\
{									\
	int v;								\
									\
	spin_lock(&f->lock);						\
	v = f->field;							\
	spin_unlock(&f->lock);						\
	return v;							\
}									\
									\
static void foo_##name##_set(struct foo *f, int v)			\
{									\
	unsigned long flags;						\
									\
	spin_lock_irqsave(&f->lock, flags);				\
	f->field = v;							\
	spin_unlock_irqrestore(&f->lock, flags);			\
}
FOO_ATTRS(val, val)

DECLARE_LOCKED_INT(counter);

static int use(struct foo *f)
{
	unsigned long fl;

	foo_lock(f);
	foo_unlock(f);
	foo_lock_irqsave(f, fl);
	spin_unlock_irqrestore(&f->lock, fl);
	return foo_val_get(f);
}

/* a list of names, not calls (the BPF helper list is ABI) */
#define HELPER_LIST(FN)		FN(map_lookup), FN(spin_lock), FN( spin_unlock )
