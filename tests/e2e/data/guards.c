// SPDX-License-Identifier: GPL-2.0
/*
 * lock.h's guard classes, compiled against a converted tree's headers by
 * tests/e2e/test_convert.c.  The cleanup.h macros are those of Linux
 * 6.1.192 (include/linux/cleanup.h); with them defined before spinlock.h,
 * lock.h defines lock_t, lock_t_irq, lock_t_bh and lock_t_irqsave.
 * -DWRONG_LOCK guards a spinlock_t with a lock_t class: an error with
 * CONFIG_DEBUG_LOCK_T_TYPECHECK.
 */
#define __cleanup(func) __attribute__((__cleanup__(func)))
#define ___PASTE(a, b) a##b
#define __PASTE(a, b) ___PASTE(a, b)
#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)

#define CLASS(_name, var)						\
	class_##_name##_t var __cleanup(class_##_name##_destructor) =	\
		class_##_name##_constructor
#define guard(_name) CLASS(_name, __UNIQUE_ID(guard))
#define scoped_guard(_name, args...)					\
	for (CLASS(_name, scope)(args), *done = NULL; !done; done = (void *)1)

#define __DEFINE_UNLOCK_GUARD(_name, _type, _unlock, ...)		\
typedef struct {							\
	_type *lock;							\
	__VA_ARGS__;							\
} class_##_name##_t;							\
static inline void class_##_name##_destructor(class_##_name##_t *_T)	\
{									\
	if (_T->lock) { _unlock; }					\
}
#define __DEFINE_LOCK_GUARD_1(_name, _type, _lock)			\
static inline class_##_name##_t class_##_name##_constructor(_type *l)	\
{									\
	class_##_name##_t _t = { .lock = l }, *_T = &_t;		\
	_lock;								\
	return _t;							\
}
#define DEFINE_LOCK_GUARD_1(_name, _type, _lock, _unlock, ...)		\
__DEFINE_UNLOCK_GUARD(_name, _type, _unlock, __VA_ARGS__)		\
__DEFINE_LOCK_GUARD_1(_name, _type, _lock)

#include <linux/spinlock.h>

static DEFINE_LOCK(guarded_lock);
static DEFINE_SPINLOCK(plain_spinlock);
static int guarded_count;

void guarded_work(void)
{
	{
		guard(lock_t_irqsave)(&guarded_lock);
		guarded_count++;
	}
	scoped_guard(lock_t, &guarded_lock)
		guarded_count++;
	scoped_guard(lock_t_irq, &guarded_lock) {
		guarded_count++;
	}
	scoped_guard(lock_t_bh, &guarded_lock)
		guarded_count++;
#ifdef WRONG_LOCK
	guard(lock_t)(&plain_spinlock);
#else
	(void)plain_spinlock;
#endif
}
