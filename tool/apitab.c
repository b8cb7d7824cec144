// SPDX-License-Identifier: GPL-2.0
#include "apitab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R LAPI_RAW
#define I LAPI_IRQ
#define B LAPI_BH
#define N LAPI_NESTED
#define X LAPI_INTERNAL

/* Sorted by name (checked by the unit tests) for bsearch. */
static const struct lock_api lock_apis[] = {
	{ "__RAW_SPIN_LOCK_UNLOCKED", LOP_STATIC, R, 0 },
	{ "__SPIN_LOCK_UNLOCKED", LOP_STATIC, 0, 0 },
	{ "__raw_spin_lock_init", LOP_INIT, R | X, 0 },
	{ "_atomic_dec_and_lock", LOP_CONDLOCK, X, 1 },
	{ "_atomic_dec_and_lock_irqsave", LOP_CONDLOCK, I | X, 1 },
	{ "_atomic_dec_and_raw_lock", LOP_CONDLOCK, R | X, 1 },
	{ "_atomic_dec_and_raw_lock_irqsave", LOP_CONDLOCK, R | I | X, 1 },
	{ "_raw_spin_lock", LOP_ACQUIRE, R | X, 0 },
	{ "_raw_spin_lock_bh", LOP_ACQUIRE, R | B | X, 0 },
	{ "_raw_spin_lock_irq", LOP_ACQUIRE, R | I | X, 0 },
	{ "_raw_spin_lock_irqsave", LOP_ACQUIRE, R | I | X, 0 },
	{ "_raw_spin_lock_irqsave_nested", LOP_ACQUIRE, R | I | N | X, 0 },
	{ "_raw_spin_lock_nest_lock", LOP_ACQUIRE, R | N | X, 0 },
	{ "_raw_spin_lock_nested", LOP_ACQUIRE, R | N | X, 0 },
	{ "_raw_spin_trylock", LOP_TRYLOCK, R | X, 0 },
	{ "_raw_spin_trylock_bh", LOP_TRYLOCK, R | B | X, 0 },
	{ "_raw_spin_unlock", LOP_RELEASE, R | X, 0 },
	{ "_raw_spin_unlock_bh", LOP_RELEASE, R | B | X, 0 },
	{ "_raw_spin_unlock_irq", LOP_RELEASE, R | I | X, 0 },
	{ "_raw_spin_unlock_irqrestore", LOP_RELEASE, R | I | X, 0 },
	{ "assert_raw_spin_locked", LOP_QUERY, R, 0 },
	{ "assert_spin_locked", LOP_QUERY, 0, 0 },
	{ "atomic_dec_and_lock", LOP_CONDLOCK, 0, 1 },
	{ "atomic_dec_and_lock_irqsave", LOP_CONDLOCK, I, 1 },
	{ "atomic_dec_and_raw_lock", LOP_CONDLOCK, R, 1 },
	{ "atomic_dec_and_raw_lock_irqsave", LOP_CONDLOCK, R | I, 1 },
	{ "cond_resched_lock", LOP_RELOCK, 0, 0 },
	{ "do_raw_spin_lock", LOP_ACQUIRE, R | X, 0 },
	{ "do_raw_spin_trylock", LOP_TRYLOCK, R | X, 0 },
	{ "do_raw_spin_unlock", LOP_RELEASE, R | X, 0 },
	{ "raw_spin_is_contended", LOP_QUERY, R, 0 },
	{ "raw_spin_is_locked", LOP_QUERY, R, 0 },
	{ "raw_spin_lock", LOP_ACQUIRE, R, 0 },
	{ "raw_spin_lock_bh", LOP_ACQUIRE, R | B, 0 },
	{ "raw_spin_lock_init", LOP_INIT, R, 0 },
	{ "raw_spin_lock_irq", LOP_ACQUIRE, R | I, 0 },
	{ "raw_spin_lock_irqsave", LOP_ACQUIRE, R | I, 0 },
	{ "raw_spin_lock_irqsave_nested", LOP_ACQUIRE, R | I | N, 0 },
	{ "raw_spin_lock_nest_lock", LOP_ACQUIRE, R | N, 0 },
	{ "raw_spin_lock_nested", LOP_ACQUIRE, R | N, 0 },
	{ "raw_spin_trylock", LOP_TRYLOCK, R, 0 },
	{ "raw_spin_trylock_bh", LOP_TRYLOCK, R | B, 0 },
	{ "raw_spin_trylock_irq", LOP_TRYLOCK, R | I, 0 },
	{ "raw_spin_trylock_irqsave", LOP_TRYLOCK, R | I, 0 },
	{ "raw_spin_unlock", LOP_RELEASE, R, 0 },
	{ "raw_spin_unlock_bh", LOP_RELEASE, R | B, 0 },
	{ "raw_spin_unlock_irq", LOP_RELEASE, R | I, 0 },
	{ "raw_spin_unlock_irqrestore", LOP_RELEASE, R | I, 0 },
	{ "refcount_dec_and_lock", LOP_CONDLOCK, 0, 1 },
	{ "refcount_dec_and_lock_irqsave", LOP_CONDLOCK, I, 1 },
	{ "spin_can_lock", LOP_QUERY, 0, 0 },
	{ "spin_is_contended", LOP_QUERY, 0, 0 },
	{ "spin_is_locked", LOP_QUERY, 0, 0 },
	{ "spin_lock", LOP_ACQUIRE, 0, 0 },
	{ "spin_lock_bh", LOP_ACQUIRE, B, 0 },
	{ "spin_lock_init", LOP_INIT, 0, 0 },
	{ "spin_lock_irq", LOP_ACQUIRE, I, 0 },
	{ "spin_lock_irqsave", LOP_ACQUIRE, I, 0 },
	{ "spin_lock_irqsave_nested", LOP_ACQUIRE, I | N, 0 },
	{ "spin_lock_nest_lock", LOP_ACQUIRE, N, 0 },
	{ "spin_lock_nested", LOP_ACQUIRE, N, 0 },
	{ "spin_needbreak", LOP_QUERY, 0, 0 },
	{ "spin_trylock", LOP_TRYLOCK, 0, 0 },
	{ "spin_trylock_bh", LOP_TRYLOCK, B, 0 },
	{ "spin_trylock_irq", LOP_TRYLOCK, I, 0 },
	{ "spin_trylock_irqsave", LOP_TRYLOCK, I, 0 },
	{ "spin_unlock", LOP_RELEASE, 0, 0 },
	{ "spin_unlock_bh", LOP_RELEASE, B, 0 },
	{ "spin_unlock_irq", LOP_RELEASE, I, 0 },
	{ "spin_unlock_irqrestore", LOP_RELEASE, I, 0 },
	{ "spin_unlock_wait", LOP_QUERY, 0, 0 },
};

#undef R
#undef I
#undef B
#undef N
#undef X

static int cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

#define FIND(table, name)                                                     \
	bsearch(name, table, sizeof(table) / sizeof(table[0]),                \
		sizeof(table[0]), cmp_name)

const struct lock_api *lock_api_find(const char *name)
{
	return FIND(lock_apis, name);
}

const char *lock_op_name(enum lock_op op)
{
	static const char *const names[] = {
		[LOP_ACQUIRE] = "acquire", [LOP_RELEASE] = "release",
		[LOP_TRYLOCK] = "trylock", [LOP_CONDLOCK] = "condlock",
		[LOP_INIT] = "init",	   [LOP_QUERY] = "query",
		[LOP_RELOCK] = "relock",   [LOP_STATIC] = "static",
	};
	return names[op];
}

const char *lock_api_public_name(const struct lock_api *api, bool spin,
				 char *buf, unsigned size)
{
	const char *n = api->name;

	if (!(api->flags & LAPI_INTERNAL))
		return n;
	while (*n == '_')
		n++;
	if (!strncmp(n, "do_", 3))
		n += 3;
	if (spin && !strncmp(n, "raw_spin_", 9))
		snprintf(buf, size, "%s", n + 4);
	else if (spin && !strncmp(n, "atomic_dec_and_raw_lock", 23))
		snprintf(buf, size, "atomic_dec_and_lock%s", n + 23);
	else if (!spin && !strncmp(n, "atomic_dec_and_lock", 19))
		snprintf(buf, size, "atomic_dec_and_raw_lock%s", n + 19);
	else
		snprintf(buf, size, "%s", n);
	return buf;
}

/* Sorted by name. */
static const struct ctx_api ctx_apis[] = {
	{ "get_cpu", CTX_PREEMPT, +1 },
	{ "get_cpu_light", CTX_PREEMPT, 0 },
	{ "hard_irq_disable", CTX_IRQ, +1 },
	{ "local_irq_disable", CTX_IRQ, +1 },
	{ "local_irq_enable", CTX_IRQ, -1 },
	{ "local_irq_restore", CTX_IRQ, -1 },
	{ "local_irq_save", CTX_IRQ, +1 },
	{ "preempt_disable", CTX_PREEMPT, +1 },
	{ "preempt_disable_notrace", CTX_PREEMPT, +1 },
	{ "preempt_enable", CTX_PREEMPT, -1 },
	{ "preempt_enable_no_resched", CTX_PREEMPT, -1 },
	{ "preempt_enable_no_resched_notrace", CTX_PREEMPT, -1 },
	{ "preempt_enable_notrace", CTX_PREEMPT, -1 },
	{ "put_cpu", CTX_PREEMPT, -1 },
	{ "raw_local_irq_disable", CTX_IRQ, +1 },
	{ "raw_local_irq_enable", CTX_IRQ, -1 },
	{ "raw_local_irq_restore", CTX_IRQ, -1 },
	{ "raw_local_irq_save", CTX_IRQ, +1 },
};

static const struct lock_guard lock_guards[] = {
	{ "raw_spinlock", "raw_spin_lock", "raw_spin_unlock" },
	{ "raw_spinlock_nested", "raw_spin_lock_nested", "raw_spin_unlock" },
	{ "raw_spinlock_irq", "raw_spin_lock_irq", "raw_spin_unlock_irq" },
	{ "raw_spinlock_irqsave", "raw_spin_lock_irqsave",
	  "raw_spin_unlock_irqrestore" },
	{ "raw_spinlock_bh", "raw_spin_lock_bh", "raw_spin_unlock_bh" },
	{ "raw_spinlock_try", "raw_spin_trylock", "raw_spin_unlock" },
	{ "raw_spinlock_irq_try", "raw_spin_trylock_irq",
	  "raw_spin_unlock_irq" },
	{ "raw_spinlock_irqsave_try", "raw_spin_trylock_irqsave",
	  "raw_spin_unlock_irqrestore" },
	{ "spinlock", "spin_lock", "spin_unlock" },
	{ "spinlock_irq", "spin_lock_irq", "spin_unlock_irq" },
	{ "spinlock_irqsave", "spin_lock_irqsave", "spin_unlock_irqrestore" },
	{ "spinlock_bh", "spin_lock_bh", "spin_unlock_bh" },
	{ "spinlock_try", "spin_trylock", "spin_unlock" },
	{ "spinlock_irq_try", "spin_trylock_irq", "spin_unlock_irq" },
	{ "spinlock_irqsave_try", "spin_trylock_irqsave",
	  "spin_unlock_irqrestore" },
};

const struct lock_guard *lock_guard_find(const char *constructor)
{
	static const char pre[] = "class_", post[] = "_constructor";
	const size_t npre = sizeof(pre) - 1, npost = sizeof(post) - 1;
	size_t n = strlen(constructor), i, len;

	if (n <= npre + npost || strncmp(constructor, pre, npre) ||
	    strcmp(constructor + n - npost, post))
		return NULL;
	len = n - npre - npost;
	for (i = 0; i < sizeof(lock_guards) / sizeof(lock_guards[0]); i++)
		if (strlen(lock_guards[i].cls) == len &&
		    !strncmp(constructor + npre, lock_guards[i].cls, len))
			return &lock_guards[i];
	return NULL;
}

const struct ctx_api *ctx_api_find(const char *name)
{
	const struct ctx_api *c = FIND(ctx_apis, name);

	return c && c->delta ? c : NULL;
}

/* Sorted by name. */
static const struct reg_api reg_apis[] = {
	{ "INIT_CSD", "ipi", 1, -1, -1, 0 },
	{ "IRQ_WORK_INIT", "irq_work", 0, -1, -1, -1 },
	{ "IRQ_WORK_INIT_HARD", "irq_work_hard", 0, -1, -1, -1 },
	{ "devm_request_any_context_irq", "irq", 2, -1, 3, -1 },
	{ "devm_request_irq", "irq", 2, -1, 3, -1 },
	{ "devm_request_threaded_irq", "irq", 2, 3, 4, -1 },
	{ "hrtimer_init", "hrtimer_init", -1, -1, 2, 0 },
	{ "hrtimer_setup", "hrtimer", 1, -1, 3, 0 },
	{ "init_irq_work", "irq_work", 1, -1, -1, 0 },
	{ "irq_set_chained_handler", "chained", 1, -1, -1, -1 },
	{ "irq_set_chained_handler_and_data", "chained", 1, -1, -1, -1 },
	{ "irq_set_chip_and_handler", "flow", 2, -1, -1, -1 },
	{ "irq_set_chip_and_handler_name", "flow", 2, -1, -1, -1 },
	{ "irq_set_handler", "flow", 1, -1, -1, -1 },
	{ "on_each_cpu", "ipi", 0, -1, -1, -1 },
	{ "on_each_cpu_cond", "ipi", 1, 0, -1, -1 },
	{ "on_each_cpu_cond_mask", "ipi", 1, 0, -1, -1 },
	{ "on_each_cpu_mask", "ipi", 1, -1, -1, -1 },
	{ "register_nmi_handler", "nmi", 1, -1, -1, -1 },
	{ "request_any_context_irq", "irq", 1, -1, 2, -1 },
	{ "request_irq", "irq", 1, -1, 2, -1 },
	{ "request_nmi", "nmi", 1, -1, -1, -1 },
	{ "request_percpu_irq", "percpu_irq", 1, -1, -1, -1 },
	{ "request_percpu_nmi", "nmi", 1, -1, -1, -1 },
	{ "request_threaded_irq", "irq", 1, 2, 3, -1 },
	{ "smp_call_function", "ipi", 0, -1, -1, -1 },
	{ "smp_call_function_any", "ipi", 1, -1, -1, -1 },
	{ "smp_call_function_many", "ipi", 1, -1, -1, -1 },
	{ "smp_call_function_single", "ipi", 1, -1, -1, -1 },
	{ "stop_machine", "stop_machine", 0, -1, -1, -1 },
	{ "stop_machine_cpuslocked", "stop_machine", 0, -1, -1, -1 },
};

const struct reg_api *reg_api_find(const char *name)
{
	return FIND(reg_apis, name);
}

const char *lock_type_name(enum lock_type t)
{
	return t == LT_RAW ? "raw_spinlock_t" : t == LT_SPIN ? "spinlock_t" : "";
}

bool is_lock_api_function(const char *name)
{
	static const char *const helpers[] = {
		"__cond_resched_lock", "kref_put_lock", "spinlock_check",
	};
	unsigned i;

	if (lock_api_find(name))
		return true;
	for (i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++)
		if (!strcmp(name, helpers[i]))
			return true;
	return false;
}

bool is_rwlock_acquire(const char *name)
{
	static const char *const prefixes[] = {
		"_raw_read_", "_raw_write_", "__raw_read_", "__raw_write_",
		"rt_read_", "rt_write_",
	};
	unsigned i;
	size_t n;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		n = strlen(prefixes[i]);
		if (!strncmp(name, prefixes[i], n))
			return !strncmp(name + n, "lock", 4) ||
			       !strncmp(name + n, "trylock", 7);
	}
	return false;
}

bool is_lock_impl_file(const char *rel)
{
	static const char *const prefixes[] = {
		"include/linux/spinlock",
		"include/linux/lock.h",
		"include/linux/lock_types.h",
		"include/linux/rwlock",
		"include/asm-generic/qspinlock",
		"include/asm-generic/qrwlock",
		"kernel/locking/spinlock",
		"lib/dec_and_lock.c",
		"lib/refcount.c",
		"arch/x86/include/asm/spinlock",
		"arch/x86/include/asm/qspinlock",
		"arch/x86/include/asm/paravirt",
		"include/linux/lockdep",
		"include/linux/irqflags.h",
		"include/linux/preempt.h",
		"include/linux/bottom_half.h",
	};
	unsigned i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(rel, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}
