// Per-cpu locks.
DEFINE_PER_CPU(spinlock_t, cpu_lock);
static DEFINE_PER_CPU(spinlock_t, static_cpu_lock);
DECLARE_PER_CPU(spinlock_t, declared_cpu_lock);
static DEFINE_PER_CPU_SHARED_ALIGNED(spinlock_t, aligned_cpu_lock);
DEFINE_PER_CPU_PAGE_ALIGNED(spinlock_t, page_cpu_lock);
DEFINE_PER_CPU(spinlock_t, init_cpu_lock) = __SPIN_LOCK_UNLOCKED(init_cpu_lock);

static void percpu(int cpu)
{
	spinlock_t *l = per_cpu_ptr(&cpu_lock, cpu);

	spin_lock_init(this_cpu_ptr(&static_cpu_lock));
	spin_lock(l);
	spin_unlock(l);
	spin_lock_irq(&per_cpu(aligned_cpu_lock, cpu));
	spin_unlock_irq(&per_cpu(aligned_cpu_lock, cpu));
}
