// A kept parameter is kept in every declaration of its function, seen by
// the scan or not (params_kept.keep_names: "params_kept.c:set_class()#0",
// a static function, and "walk_one()#1", a global one): the stub of the
// #else branch, a prototype.  Other parameters are converted.
#ifdef CONFIG_LOCKDEP
static inline void set_class(spinlock_t *lock, unsigned short type)
{
	lockdep_set_class(lock, &keys[type]);
}
#else
static inline void set_class(spinlock_t *lock, unsigned short type)
{
}
#endif

int walk_one(struct list_head *item, spinlock_t *lock, void *arg);
int walk_two(struct list_head *item, spinlock_t *lock, void *arg);
