/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the scanner recognises by name: the spinlock API family, the calls
 * that disable interrupts or preemption by hand, and the registrations that
 * put a function into hard-interrupt (or otherwise atomic) context.
 *
 * Names are matched as the source writes them (the macro or function at the
 * call's place in the file), then as the callee the AST names, so that both
 * "spin_lock_irqsave(l, f)" (a macro) and a driver's own macro wrapping
 * spin_lock() are recognised.
 */
#ifndef RTLOCK_APITAB_H
#define RTLOCK_APITAB_H

#include <stdbool.h>

enum lock_op {
	LOP_ACQUIRE,	/* lock, lock_irq, lock_irqsave, _nested ... */
	LOP_RELEASE,	/* unlock, unlock_irqrestore ... */
	LOP_TRYLOCK,	/* trylock family: acquires when it succeeds */
	LOP_CONDLOCK,	/* atomic_dec_and_lock & co: acquires when true */
	LOP_INIT,	/* spin_lock_init */
	LOP_QUERY,	/* is_locked, is_contended, assert, needbreak */
	LOP_RELOCK,	/* cond_resched_lock: may drop and retake */
	LOP_STATIC,	/* DEFINE_SPINLOCK, __SPIN_LOCK_UNLOCKED (no call) */
};

/* Flags of a lock API entry. */
#define LAPI_RAW	0x01	/* raw_spin_* spelling */
#define LAPI_IRQ	0x02	/* disables/enables interrupts (_irq, _irqsave) */
#define LAPI_BH		0x04	/* _bh */
#define LAPI_NESTED	0x08	/* _nested, _nest_lock: lockdep subclass */
#define LAPI_INTERNAL	0x10	/* _raw_spin_lock & co: implementation names */

struct lock_api {
	const char *name;
	enum lock_op op;
	unsigned flags;
	int lock_arg;		/* index of the lock argument */
};

/* Exact match on a name, or NULL. */
const struct lock_api *lock_api_find(const char *name);
const char *lock_op_name(enum lock_op op);
/*
 * The public spelling of an implementation name ("_raw_spin_lock_irqsave"
 * -> "raw_spin_lock_irqsave"), used when the source wrote a macro of its
 * own around it.  @spin selects the spinlock_t spelling.
 */
const char *lock_api_public_name(const struct lock_api *api, bool spin,
				 char *buf, unsigned size);

/*
 * Lock guards (linux/cleanup.h): "guard(spinlock_irqsave)(&l)" and
 * "scoped_guard(spinlock, &l) { ... }" declare a variable initialised by
 * class_spinlock_irqsave_constructor(&l): the lock is taken there and
 * released, by the variable's cleanup, where its scope ends.  By the
 * class name: the API calls they stand for.
 */
struct lock_guard {
	const char *cls;
	const char *lock, *unlock;
};
/* "class_NAME_constructor" of a spinlock guard class, or NULL. */
const struct lock_guard *lock_guard_find(const char *constructor);

/* Interrupt and preemption control done by hand. */
enum ctx_kind { CTX_IRQ, CTX_PREEMPT };
struct ctx_api {
	const char *name;
	enum ctx_kind kind;
	int delta;		/* +1 disables, -1 enables */
};
const struct ctx_api *ctx_api_find(const char *name);

/* Registrations of callbacks that may run in atomic context. */
struct reg_api {
	const char *name;
	const char *role;	/* irq, percpu_irq, nmi, chained, hrtimer, ... */
	int fn_arg;		/* argument holding the function, -1: none */
	int fn2_arg;		/* second function (thread_fn), -1: none */
	int flags_arg;		/* flags or mode argument, -1: none */
	int obj_arg;		/* object the callback is bound to, -1: none */
};
const struct reg_api *reg_api_find(const char *name);

/*
 * A function of the lock API or one of its helpers (spin_lock(),
 * kref_put_lock(), __cond_resched_lock() ...): it takes either kind of
 * lock, so its parameters tie no lock to another.
 */
bool is_lock_api_function(const char *name);

/*
 * A function that takes an rwlock_t (_raw_read_lock_irqsave(),
 * __raw_write_lock(), rt_read_lock() ...), the implementation read_lock()
 * and write_lock() and their forms call.  rwlock_t is not converted, but
 * it sleeps on PREEMPT_RT.
 */
bool is_rwlock_acquire(const char *name);

/* Lock type names. */
enum lock_type { LT_NONE = 0, LT_SPIN = 1, LT_RAW = 2 };
const char *lock_type_name(enum lock_type t);

/*
 * Files that implement the lock API itself: their declarations and calls
 * are not users of the API.  @rel is relative to the tree root.
 */
bool is_lock_impl_file(const char *rel);

#endif
