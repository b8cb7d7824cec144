// Parameters and return types of spinlock_t *, prototypes and definitions.
struct page_table {
	spinlock_t ptl;
};

spinlock_t *pt_lockptr(struct page_table *pt);
extern int pt_walk(struct page_table *pt, spinlock_t *ptl, int (*fn)(spinlock_t *));
static inline spinlock_t *pt_lock(struct page_table *pt)
{
	spinlock_t *ptl = pt_lockptr(pt);

	spin_lock(ptl);
	return ptl;
}

spinlock_t *pt_lockptr(struct page_table *pt)
{
	return &pt->ptl;
}

static void pt_unlock(spinlock_t *ptl, const spinlock_t *unused,
		      spinlock_t **out)
{
	*out = ptl;
	spin_unlock(ptl);
}

static spinlock_t *(*lockptr_fn)(struct page_table *) = pt_lockptr;
