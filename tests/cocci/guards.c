// Scope-based guards (linux/cleanup.h) on spinlocks: the class follows
// the lock, decided by its name where the scan saw no site for the guard:
// lock_t classes for converted locks, raw_spinlock ones for kept locks
// (guards.keep_names), raw_spinlock classes left alone.
struct msi {
	spinlock_t mask_lock;		/* kept by name */
	spinlock_t cfg_lock;		/* converted */
	raw_spinlock_t raw_lock;
};

static void msi_mask(struct msi *msi)
{
	guard(spinlock_irqsave)(&msi->mask_lock);
	msi->n++;
}

static void msi_cfg(struct msi *msi)
{
	guard(spinlock_irqsave)(&msi->cfg_lock);
	spin_lock(&msi->mask_lock); guard(spinlock)(&msi->cfg_lock);
	scoped_guard(spinlock_irq, &msi->cfg_lock) {
		msi->n++;
	}
	scoped_guard (spinlock, &msi->mask_lock)
		msi->n++;
	scoped_cond_guard(spinlock_try, return -EBUSY, &msi->cfg_lock) {
		msi->n++;
	}
	guard(raw_spinlock)(&msi->raw_lock);
	guard(spinlock_bh)(&msi->cfg_lock);
}

#define MSI_LOCKED(msi) \
	scoped_guard(spinlock_irqsave, &(msi)->mask_lock)
