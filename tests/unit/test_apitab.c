// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "unit.h"
#include "apitab.h"
#include "sleep.h"

static void lookups(void **state)
{
	const struct lock_api *a = lock_api_find("spin_lock_irqsave");
	char buf[64];

	(void)state;
	assert_non_null(a);
	assert_int_equal(a->op, LOP_ACQUIRE);
	assert_true(a->flags & LAPI_IRQ);
	assert_false(a->flags & LAPI_RAW);
	assert_int_equal(lock_api_find("raw_spin_trylock")->op, LOP_TRYLOCK);
	assert_int_equal(lock_api_find("atomic_dec_and_lock")->lock_arg, 1);
	assert_null(lock_api_find("spin_lock_foo"));
	assert_null(lock_api_find("mutex_lock"));
	/* implementation names map back to what the source means */
	a = lock_api_find("_raw_spin_lock_irqsave");
	assert_string_equal(lock_api_public_name(a, true, buf, sizeof(buf)),
			    "spin_lock_irqsave");
	assert_string_equal(lock_api_public_name(a, false, buf, sizeof(buf)),
			    "raw_spin_lock_irqsave");
	a = lock_api_find("_atomic_dec_and_lock");
	assert_string_equal(lock_api_public_name(a, true, buf, sizeof(buf)),
			    "atomic_dec_and_lock");
	assert_int_equal(ctx_api_find("local_irq_save")->delta, 1);
	assert_int_equal(ctx_api_find("preempt_enable")->kind, CTX_PREEMPT);
	assert_null(ctx_api_find("get_cpu_light"));
	assert_int_equal(reg_api_find("request_threaded_irq")->fn2_arg, 2);
	assert_string_equal(reg_api_find("request_percpu_irq")->role,
			    "percpu_irq");
}

/* The rwlock_t acquisitions, in every implementation's spelling. */
static void rwlock_acquires(void **state)
{
	(void)state;
	assert_true(is_rwlock_acquire("_raw_read_lock"));
	assert_true(is_rwlock_acquire("_raw_write_lock_irqsave"));
	assert_true(is_rwlock_acquire("__raw_read_lock_bh"));
	assert_true(is_rwlock_acquire("_raw_write_trylock"));
	assert_true(is_rwlock_acquire("rt_read_lock"));
	assert_false(is_rwlock_acquire("_raw_read_unlock_irqrestore"));
	assert_false(is_rwlock_acquire("rt_write_unlock"));
	assert_false(is_rwlock_acquire("_raw_spin_lock"));
	assert_false(is_rwlock_acquire("read_lock_stats"));
	assert_false(is_rwlock_acquire("_raw_read_"));
	/* a sleeper by name; a static one only where the tree has none */
	assert_true(is_sleeping_call("mutex_lock", true));
	assert_true(is_sleeping_call("_raw_write_lock_irq", false));
	assert_true(is_sleeping_call("drivers/x.c:msleep", false));
	assert_false(is_sleeping_call("drivers/x.c:msleep", true));
	assert_false(is_sleeping_call("mutex_unlock", false));
	/* the spellings lockdep builds call */
	assert_true(is_sleeping_call("rt_mutex_lock_nested", false));
	assert_true(is_sleeping_call("down_read_nested", false));
	assert_false(is_sleeping_call("down_read_trylock", false));
	/* a header's inline wrapper counts by name, a file's own does not */
	assert_true(is_sleeping_call("include/linux/mmap_lock.h:mmap_read_lock",
				     true));
	assert_false(is_sleeping_call("mm/x.c:mmap_read_lock", true));
}

/* A guard class's constructor stands for the API call it makes. */
static void guards(void **state)
{
	const struct lock_guard *g;

	(void)state;
	g = lock_guard_find("class_raw_spinlock_irqsave_constructor");
	assert_non_null(g);
	assert_string_equal(g->lock, "raw_spin_lock_irqsave");
	assert_string_equal(g->unlock, "raw_spin_unlock_irqrestore");
	assert_non_null(lock_api_find(g->lock));
	assert_non_null(lock_api_find(g->unlock));
	g = lock_guard_find("class_spinlock_constructor");
	assert_string_equal(g->lock, "spin_lock");
	assert_null(lock_guard_find("class_spinlock_destructor"));
	assert_null(lock_guard_find("class_mutex_constructor"));
	assert_null(lock_guard_find("class_spinlock_irqsave_nested_constructor"));
	assert_null(lock_guard_find("class__constructor"));
}

/* bsearch needs sorted tables: every name must find its own entry */
static void tables_sorted(void **state)
{
	static const char *const names[] = {
		"__RAW_SPIN_LOCK_UNLOCKED", "__SPIN_LOCK_UNLOCKED",
		"__raw_spin_lock_init", "_atomic_dec_and_lock",
		"do_raw_spin_lock", "raw_spin_lock_nest_lock",
		"raw_spin_lock_nested", "refcount_dec_and_lock",
		"spin_lock_init", "spin_needbreak", "spin_unlock_wait",
		"cond_resched_lock", "assert_spin_locked",
	};
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct lock_api *a = lock_api_find(names[i]);

		assert_non_null(a);
		assert_string_equal(a->name, names[i]);
	}
	assert_non_null(reg_api_find("INIT_CSD"));
	assert_non_null(reg_api_find("stop_machine_cpuslocked"));
	assert_non_null(ctx_api_find("raw_local_irq_save"));
}

static void impl_files(void **state)
{
	(void)state;
	assert_true(is_lock_impl_file("include/linux/spinlock.h"));
	assert_true(is_lock_impl_file("kernel/locking/spinlock.c"));
	assert_false(is_lock_impl_file("kernel/sched/core.c"));
	assert_false(is_lock_impl_file("include/linux/wait.h"));
}

int test_apitab(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lookups),
		cmocka_unit_test(guards),
		cmocka_unit_test(tables_sorted),
		cmocka_unit_test(impl_files),
		cmocka_unit_test(rwlock_acquires),
	};
	return cmocka_run_group_tests_name("apitab", tests, NULL, NULL);
}
