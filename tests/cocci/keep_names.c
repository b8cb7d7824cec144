// Code the scan's configuration left out (an #ifdef branch) has no keep
// entries; the names only kept locks have (keep_names.keep_names) keep its
// declarations and API calls spinning.  Other names are converted.
struct lruvec {
	spinlock_t lru_lock;		/* kept by name */
	spinlock_t stats_lock;		/* converted */
};

struct pglist_data {
	struct lruvec __lruvec;
	spinlock_t *locks;		/* converted */
};

static DEFINE_SPINLOCK(kept_static_lock);	/* kept by name */
static DEFINE_SPINLOCK(plain_lock);		/* converted */

spinlock_t *ptlock_ptr(struct page *page);	/* kept by name */
spinlock_t *other_ptr(struct page *page);	/* converted */

static void lruvec_lock_irqsave(struct pglist_data *pgdat,
				unsigned long *flagsp)
{
	spin_lock_irqsave(&pgdat->__lruvec.lru_lock, *flagsp);
	spin_lock(&pgdat->__lruvec.stats_lock);
	spin_unlock(&pgdat->__lruvec.stats_lock);
}

static void page_work(struct pglist_data *pgdat, struct page *page, int i)
{
	spin_lock(ptlock_ptr(page));
	spin_unlock((ptlock_ptr(page)));
	spin_lock(other_ptr(page));
	spin_unlock(other_ptr(page));
	spin_lock(&kept_static_lock);
	spin_unlock(&kept_static_lock);
	spin_lock(&pgdat->locks[i]);
	spin_unlock(&pgdat->locks[i]);
	spin_lock(&plain_lock);
	spin_unlock(&plain_lock);
}

/* a parameter named like a kept field is no field: converted */
static void isolate(spinlock_t *lru_lock)
{
	spin_lock(lru_lock);
	spin_unlock(lru_lock);
}
