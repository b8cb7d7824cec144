// Locks that must keep spinning (listed in keep.keep_sites and
// keep.keep_decls, as rtlock writes them) are left as spinlock_t/spin_*();
// everything else is converted.  keep_raw.c is the same file run with
// -D raw=1, where the kept ones become raw_spinlock_t/raw_spin_*().
struct irq_dev {
	spinlock_t hw_lock;		/* kept: taken in a hard irq handler */
	spinlock_t sw_lock;		/* converted */
	spinlock_t a, b;		/* a kept, b converted: both kept */
	atomic_t users;
};

static DEFINE_SPINLOCK(nmi_lock);		/* kept */
static DEFINE_SPINLOCK(proc_lock);		/* converted */
static DEFINE_PER_CPU(spinlock_t, hard_cpu_lock);	/* kept */
static DEFINE_PER_CPU(spinlock_t, soft_cpu_lock);	/* converted */
static spinlock_t early_lock = __SPIN_LOCK_UNLOCKED(early_lock); /* kept */
static struct irq_dev dev0 = {
	.hw_lock = __SPIN_LOCK_UNLOCKED(dev0.hw_lock),	/* kept site */
	.sw_lock = __SPIN_LOCK_UNLOCKED(dev0.sw_lock),
};

#define dev_hw_lock(d)		spin_lock(&(d)->hw_lock)	/* kept site */
#define dev_sw_lock(d)		spin_lock(&(d)->sw_lock)

static irqreturn_t hard_handler(int irq, void *data)
{
	struct irq_dev *d = data;

	dev_hw_lock(d);
	spin_lock(&nmi_lock);
	spin_lock(this_cpu_ptr(&hard_cpu_lock));
	spin_unlock(this_cpu_ptr(&hard_cpu_lock));
	spin_unlock(&nmi_lock);
	spin_unlock(&d->hw_lock);
	return IRQ_HANDLED;
}

/* hw is a kept parameter: it is given &d->hw_lock */
static void process_ctx(struct irq_dev *d, spinlock_t *hw, spinlock_t *sw)
{
	unsigned long flags;
	size_t n;

	spin_lock_init(&d->hw_lock);
	spin_lock_init(&d->sw_lock);
	spin_lock_irqsave(hw, flags);
	assert_spin_locked(hw);
	spin_unlock_irqrestore(hw, flags);
	dev_sw_lock(d);
	spin_unlock(sw);
	spin_lock(&proc_lock);
	spin_lock(this_cpu_ptr(&soft_cpu_lock));
	spin_unlock(this_cpu_ptr(&soft_cpu_lock));
	spin_unlock(&proc_lock);
	spin_lock(&early_lock);
	cond_resched_lock(&early_lock);
	spin_unlock(&early_lock);
	if (atomic_dec_and_lock(&d->users, &d->hw_lock))
		spin_unlock(&d->hw_lock);
	n = sizeof(spinlock_t) +
	    sizeof(spinlock_t);		/* kept site */
	(void)n;
}
