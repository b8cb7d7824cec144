// SPDX-License-Identifier: GPL-2.0
/* rtlock scan on the fixture tree, against its EXPECTED files. */
#include <stdlib.h>
#include <string.h>

#include "e2e.h"
#include "util.h"

static char *work, *before;

static int setup(void **state)
{
	(void)state;
	work = tmpdir();
	before = tree_digest(FIXTURE);
	return run(NULL, "%s scan -q -C %s/cache -o %s/out %s", RTLOCK, work,
		   work, FIXTURE);
}

static int teardown(void **state)
{
	(void)state;
	remove_tree(work);
	free(work);
	free(before);
	return 0;
}

static json_t *find(json_t *arr, const char *key, const char *val)
{
	size_t i;
	json_t *o;

	json_array_foreach(arr, i, o)
		if (!strcmp(json_string_value(json_object_get(o, key)), val))
			return o;
	return NULL;
}

static void every_lock(void **state)
{
	json_t *inv = load_json("%s/out/scan.json", work), *locks, *l;
	size_t n, i;
	char **exp = expected_lines("expected-locks.txt", &n);

	(void)state;
	locks = json_object_get(inv, "locks");
	assert_int_equal(json_array_size(locks), n);
	for (i = 0; i < n; i++) {
		char *id = strtok(exp[i], "\t"), *type = strtok(NULL, "\t");
		char *kind = strtok(NULL, "\t"), *pos = strtok(NULL, "\t");
		char *got;

		l = find(locks, "id", id);
		if (!l)
			fail_msg("lock %s not found", id);
		assert_string_equal(json_string_value(json_object_get(l, "type")),
				    type);
		assert_string_equal(json_string_value(json_object_get(l, "kind")),
				    kind);
		got = xasprintf("%s:%d",
				json_string_value(json_object_get(l, "file")),
				(int)json_integer_value(json_object_get(l, "line")));
		assert_string_equal(got, pos);
		free(got);
		free(exp[i]);
	}
	free(exp);
	json_decref(inv);
}

/* A site matches "file:line api identity" (identity or param:FN#N). */
static bool site_matches(json_t *s, const char *at, const char *api,
			 const char *id)
{
	const char *sat = json_string_value(json_object_get(s, "at"));
	size_t i, n = strlen(at);
	json_t *l;

	if (strncmp(sat, at, n) || sat[n] != ':' ||
	    strcmp(json_string_value(json_object_get(s, "api")), api))
		return false;
	if (!strncmp(id, "param:", 6))
		return !strncmp(json_string_value(json_object_get(s, "target")),
				"P:", 2);
	json_array_foreach(json_object_get(s, "locks"), i, l)
		if (!strcmp(json_string_value(l), id))
			return true;
	return false;
}

static void every_site(void **state)
{
	json_t *inv = load_json("%s/out/scan.json", work), *sites, *s, *sum;
	size_t n, i, j;
	char **exp = expected_lines("expected-sites.txt", &n);

	(void)state;
	sites = json_object_get(inv, "sites");
	for (i = 0; i < n; i++) {
		char *at = strtok(exp[i], "\t"), *api = strtok(NULL, "\t");
		char *id = strtok(NULL, "\t");
		bool found = false;

		json_array_foreach(sites, j, s)
			found |= site_matches(s, at, api, id);
		if (!found)
			fail_msg("site %s %s %s not found", at, api, id);
		free(exp[i]);
	}
	free(exp);
	sum = json_object_get(inv, "summary");
	assert_int_equal(json_integer_value(json_object_get(sum, "api_sites")),
			 n);
	assert_int_equal(json_integer_value(json_object_get(
				 sum, "api_sites_resolved")),
			 n);
	assert_int_equal(json_array_size(json_object_get(inv, "unresolved")), 0);
	json_decref(inv);
}

/* Contexts the classifier relies on, on a few known sites. */
static void contexts(void **state)
{
	json_t *inv = load_json("%s/out/scan.json", work), *s, *regs;
	size_t i;
	bool irqs_off = false, nested = false;

	(void)state;
	json_array_foreach(json_object_get(inv, "sites"), i, s) {
		const char *at = json_string_value(json_object_get(s, "at"));
		json_t *held = json_object_get(s, "held");

		if (strstr(at, "kernel/irqs_off.c") &&
		    json_is_true(json_object_get(s, "irqs_off")))
			irqs_off = true;
		if (json_array_size(held) &&
		    strstr(json_dumps(held, 0), "nest_outer_raw_lock"))
			nested = true;
	}
	assert_true(irqs_off);
	assert_true(nested);
	regs = json_object_get(inv, "locks");
	assert_non_null(regs);
	json_decref(inv);
}

static void tree_untouched(void **state)
{
	char *after = tree_digest(FIXTURE);

	(void)state;
	assert_string_equal(before, after);
	free(after);
}

static void warm_cache(void **state)
{
	json_t *a, *b, *sa, *sb;
	char *da, *db;

	(void)state;
	a = load_json("%s/out/scan.json", work);
	assert_int_equal(run(NULL, "%s scan -q -C %s/cache -o %s/out2 %s",
			     RTLOCK, work, work, FIXTURE),
			 0);
	b = load_json("%s/out2/scan.json", work);
	sa = json_object_get(a, "summary");
	sb = json_object_get(b, "summary");
	assert_int_equal(json_integer_value(json_object_get(sb, "cached")),
			 json_integer_value(json_object_get(sa, "tus")));
	assert_int_equal(json_integer_value(json_object_get(sb, "parsed")), 0);
	da = json_dumps(json_object_get(a, "sites"), JSON_SORT_KEYS);
	db = json_dumps(json_object_get(b, "sites"), JSON_SORT_KEYS);
	assert_string_equal(da, db);
	free(da);
	free(db);
	da = json_dumps(json_object_get(a, "locks"), JSON_SORT_KEYS);
	db = json_dumps(json_object_get(b, "locks"), JSON_SORT_KEYS);
	assert_string_equal(da, db);
	free(da);
	free(db);
	json_decref(b);
	/* a cache kept elsewhere (CI restores it anywhere) is as warm */
	assert_int_equal(run(NULL, "cp -a %s/cache %s/cache-moved && "
				   "%s scan -q -C %s/cache-moved -o %s/out4 %s",
			     work, work, RTLOCK, work, work, FIXTURE),
			 0);
	b = load_json("%s/out4/scan.json", work);
	sb = json_object_get(b, "summary");
	assert_int_equal(json_integer_value(json_object_get(sb, "parsed")), 0);
	assert_int_equal(json_integer_value(json_object_get(sb, "cached")),
			 json_integer_value(json_object_get(sa, "tus")));
	json_decref(a);
	json_decref(b);
}

/* A corrupt cache entry is detected, dropped and rebuilt. */
static void corrupt_cache(void **state)
{
	char *err;
	json_t *inv;
	int rc;

	(void)state;
	assert_int_equal(run(NULL, "f=$(find %s/cache/facts-v2/tu -name '*.json'"
				   " | head -1) && printf '{garbage' > $f",
			     work),
			 0);
	rc = run(&err, "%s scan -q -C %s/cache -o %s/out3 %s", RTLOCK, work,
		 work, FIXTURE);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(err, "corrupt cache entry ignored"));
	inv = load_json("%s/out3/scan.json", work);
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(inv, "summary"), "parsed")),
			 1);
	json_decref(inv);
	free(err);
}

int test_scan(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_lock),
		cmocka_unit_test(every_site),
		cmocka_unit_test(contexts),
		cmocka_unit_test(tree_untouched),
		cmocka_unit_test(warm_cache),
		cmocka_unit_test(corrupt_cache),
	};
	return cmocka_run_group_tests_name("scan", tests, setup, teardown);
}
