// Guards the scan saw: a guard whose site (the position of the guard
// macro's name) is in keep_sites keeps its lock spinning, whatever the
// lock's name; two locks of one name, one kept, one converted.  A kept
// guard's site raises no "not matched" warning (stderr is empty).
struct a {
	spinlock_t lock;	/* kept: a must-spin verdict */
};

struct b {
	spinlock_t lock;	/* converted */
};

static void a_mask(struct a *a)
{
	guard(spinlock_irqsave)(&a->lock);
	a->n++;
}

static void b_work(struct b *b)
{
	scoped_guard(spinlock, &b->lock)
		b->n++;
}

static void a_again(struct a *a)
{
	scoped_guard(spinlock, &a->lock) {
		a->n++;
	}
}
