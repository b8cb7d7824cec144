/* spin_lock( in a comment */
spin_lock(&a); // spin_unlock
const char *s = "spin_lock \
 spin_lock";
#define spin_lock_irq(l) x
extern int __cond_resched_lock(spinlock_t *lock);
char c = '\''; spinlock_t x; /* unterminated
