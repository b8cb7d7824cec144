// The lock implementation (here kernel/locking/, excluded.path) is never
// converted, but a kept lock's type changes under the code there that
// takes it: the positions the keep lists name follow it (excluded.keep_sites,
// excluded.keep_decls); everything else is left as it is.
struct percpu_rw_semaphore {
	struct wait_queue_head waiters;
	spinlock_t own;
};

static spinlock_t kept_here;
static DEFINE_SPINLOCK(left_alone);

static void percpu_rwsem_wait(struct percpu_rw_semaphore *sem)
{
	spin_lock_irq(&sem->waiters.lock);
	spin_lock(&sem->own);
	spin_lock(&kept_here);
	spin_unlock(&kept_here);
	spin_unlock(&sem->own);
	spin_unlock_irq(&sem->waiters.lock);
}
