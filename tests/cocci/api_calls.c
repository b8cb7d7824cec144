// Every spin_*() of the mapping table, on a lock reached in various ways.
struct dev {
	spinlock_t lock;
	struct dev *next;
};

static void api_calls(struct dev *d, spinlock_t *l, struct mutex *m)
{
	unsigned long flags;

	spin_lock_init(&d->lock);
	spin_lock(&d->lock);
	spin_unlock(&d->lock);
	spin_lock_bh(l);
	spin_unlock_bh(l);
	spin_lock_irq(&d->next->lock);
	spin_unlock_irq(&d->next->lock);
	spin_lock_irqsave(l, flags);
	spin_unlock_irqrestore(l, flags);
	spin_lock_nested(&d->lock, SINGLE_DEPTH_NESTING);
	spin_unlock(&d->lock);
	spin_lock_nest_lock(&d->lock, m);
	spin_unlock(&d->lock);
	spin_lock_irqsave_nested(&d->lock, flags, 1);
	spin_unlock_irqrestore(&d->lock, flags);
	if (spin_trylock(l))
		spin_unlock(l);
	if (spin_trylock_bh(l))
		spin_unlock_bh(l);
	if (!spin_trylock_irq(l))
		return;
	spin_unlock_irq(l);
	if (spin_trylock_irqsave(l, flags))
		spin_unlock_irqrestore(l, flags);
	WARN_ON(!spin_is_locked(l) || spin_is_contended(l));
	assert_spin_locked(&d->lock);
	while (!spin_can_lock(l))
		spin_unlock_wait(l);
}

/* raw_spinlock_t code is never touched */
static void raw_calls(raw_spinlock_t *r)
{
	raw_spin_lock(r);
	raw_spin_unlock(r);
}

/* API names used as values */
static void (*lock_fn)(spinlock_t *) = spin_lock;
