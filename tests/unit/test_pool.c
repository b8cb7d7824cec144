// SPDX-License-Identifier: GPL-2.0
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"
#include "pool.h"

/* job 0 succeeds, 1 exits 3, 2 crashes, 3 hangs, 4 succeeds */
static int job(size_t i, void *ctx)
{
	(void)ctx;
	switch (i) {
	case 1:
		return 3;
	case 2:
		raise(SIGSEGV);
		return 0;
	case 3:
		for (;;)
			pause();
	default:
		return 0;
	}
}

static int ndone;

static void done(size_t i, const struct job_result *r, void *ctx)
{
	(void)i;
	(void)r;
	(void)ctx;
	ndone++;
}

static void isolation(void **state)
{
	struct job_result res[5] = { 0 };
	struct pool_opts o = { 2, 1.0, done, NULL };
	char buf[64];

	(void)state;
	assert_int_equal(pool_run(&o, 5, job, NULL, res), 0);
	assert_int_equal(ndone, 5);
	assert_int_equal(res[0].state, JOB_OK);
	assert_int_equal(res[1].state, JOB_FAILED);
	assert_int_equal(res[1].code, 3);
	assert_int_equal(res[2].state, JOB_CRASHED);
	assert_int_equal(res[2].code, SIGSEGV);
	assert_int_equal(res[3].state, JOB_TIMEOUT);
	assert_true(res[3].seconds >= 1.0);
	assert_int_equal(res[4].state, JOB_OK);
	assert_string_equal(job_state_name(&res[1], buf, sizeof(buf)),
			    "failed (exit 3)");
}

int test_pool(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(isolation),
	};
	return cmocka_run_group_tests_name("pool", tests, NULL, NULL);
}
