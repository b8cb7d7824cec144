// SPDX-License-Identifier: GPL-2.0
/* Bad input: one clear error line, a documented exit status. */
#include <stdlib.h>
#include <string.h>

#include "e2e.h"
#include "util.h"

static char *work;

static int setup(void **state)
{
	(void)state;
	work = tmpdir();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	remove_tree(work);
	free(work);
	return 0;
}

static int lines(const char *s)
{
	int n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* @rc and exactly one stderr line containing @msg */
static void expect(int rc, const char *msg, const char *fmt, const char *arg)
{
	char *err;
	int got = run(&err, fmt, RTLOCK, work, arg);

	assert_int_equal(got, rc);
	if (!strstr(err, msg))
		fail_msg("stderr lacks '%s': %s", msg, err);
	assert_int_equal(lines(err), 1);
	free(err);
}

static void not_a_tree(void **state)
{
	(void)state;
	expect(3, "not a directory", "%s scan -q -C %s/c %s", "/nonexistent");
	expect(3, "not a kernel tree", "%s scan -q -C %s/c %s", "/tmp");
	char *t = xasprintf("%s/t", work);

	run(NULL, "mkdir -p %s && echo 'all:' > %s/Makefile", t, t);
	expect(3, "t/Makefile:1: not a kernel Makefile",
	       "%s scan -q -C %s/c %s", t);
	free(t);
}

static void bad_usage(void **state)
{
	char *err;

	(void)state;
	assert_int_equal(run(&err, "%s frobnicate", RTLOCK), 2);
	assert_non_null(strstr(err, "not an rtlock command"));
	free(err);
	assert_int_equal(run(&err, "%s scan -j zero x", RTLOCK), 2);
	free(err);
	assert_int_equal(run(NULL, "%s help >/dev/null", RTLOCK), 0);
}

static void unwritable_cache(void **state)
{
	(void)state;
	expect(4, "cache directory", "%s scan -q -C /proc/rtlock%s %s",
	       FIXTURE);
}

/* A file libclang cannot parse is reported; the run goes on. */
static void broken_tu(void **state)
{
	char *tree = xasprintf("%s/tree", work), *before, *after, *err;
	json_t *inv, *tus, *t;
	size_t i;
	bool seen = false;
	int rc;

	(void)state;
	copy_tree(FIXTURE, tree);
	run(NULL, "mkdir -p %s/drivers/bad && printf 'spin_lock(&x);\\n"
		  "struct { int; } ]] \\001\\002' > %s/drivers/bad/bad.c",
	    tree, tree);
	before = tree_digest(tree);
	rc = run(&err, "%s scan -q -C %s/c2 -o %s/o2 %s", RTLOCK, work, work,
		 tree);
	assert_int_equal(rc, 0);
	after = tree_digest(tree);
	assert_string_equal(before, after);
	inv = load_json("%s/o2/scan.json", work);
	tus = json_object_get(inv, "tus");
	json_array_foreach(tus, i, t) {
		if (strcmp(json_string_value(json_object_get(t, "file")),
			   "drivers/bad/bad.c"))
			continue;
		seen = true;
		assert_string_equal(json_string_value(json_object_get(t, "state")),
				    "errors");
		assert_non_null(strstr(json_string_value(json_object_get(t, "why")),
				       "bad.c:1"));
	}
	assert_true(seen);
	json_decref(inv);
	free(err);
	free(before);
	free(after);
	free(tree);
}

/* A file that takes longer than --timeout is killed and reported. */
static void timeout(void **state)
{
	json_t *inv;
	int rc;

	(void)state;
	rc = run(NULL, "%s scan -q --timeout 0.000001 -C %s/c3 -o %s/o3 %s",
		 RTLOCK, work, work, FIXTURE);
	assert_int_equal(rc, 5);	/* nothing could be parsed */
	rc = run(NULL, "test ! -e %s/o3/scan.json", work);
	assert_int_equal(rc, 0);
	inv = NULL;
	(void)inv;
}

int test_bad_input(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(not_a_tree),
		cmocka_unit_test(bad_usage),
		cmocka_unit_test(unwritable_cache),
		cmocka_unit_test(broken_tu),
		cmocka_unit_test(timeout),
	};
	return cmocka_run_group_tests_name("bad input", tests, setup, teardown);
}
