// A call the scan did not see (the #else branch its configuration left
// out) on a name that other files' converted locks also have: kept when,
// in this file, every call the scan saw on that name is on a kept lock
// (keep_file_names.keep_names: "path:.NAME").  The seen call is kept by
// its site (keep_file_names.keep_sites); other names are converted.
struct lruvec {
	spinlock_t lru_lock;
	spinlock_t stats_lock;
};

#ifdef CONFIG_MEMCG
static inline void unlock_lruvec(struct lruvec *lruvec)
{
	spin_unlock(&lruvec->lru_lock);
	spin_unlock(&lruvec->stats_lock);
}
#else
static inline struct lruvec *folio_lruvec_lock(struct pglist_data *pgdat)
{
	spin_lock(&pgdat->__lruvec.lru_lock);
	spin_lock(&pgdat->__lruvec.stats_lock);
	return &pgdat->__lruvec;
}
#endif

/* a local of that name is not the field: converted */
static inline void isolate(spinlock_t *lru_lock)
{
	spin_lock(lru_lock);
	spin_unlock(lru_lock);
}
