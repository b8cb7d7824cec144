// SPDX-License-Identifier: GPL-2.0
/* The readers of outside text, on buffers: what the fuzzers also run. */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "cache.h"
#include "convert.h"
#include "tree.h"
#include "util.h"

static void utf8(void **state)
{
	char *e;

	(void)state;
	assert_true(utf8_valid("kernel/sched/core.c"));
	assert_true(utf8_valid("caf\xc3\xa9/\xe2\x82\xac/\xf0\x9f\x94\x92"));
	assert_false(utf8_valid("caf\xe9"));		/* Latin-1 */
	assert_false(utf8_valid("\xc0\xaf"));		/* overlong '/' */
	assert_false(utf8_valid("\xed\xa0\x80"));	/* a surrogate */
	assert_false(utf8_valid("\xf4\x90\x80\x80"));	/* > U+10FFFF */
	assert_false(utf8_valid("\xe2\x82"));		/* cut short */
	e = utf8_escape("drivers/caf\xe9/x\xff.c \xc3\xa9");
	assert_string_equal(e, "drivers/caf\\xe9/x\\xff.c \xc3\xa9");
	assert_true(utf8_valid(e));
	free(e);
}

static void cache_entry(void **state)
{
	json_t *j = json_pack("{ss}", "file", "kernel/fork.c"), *k;
	char why[128], *s;
	size_t len;

	(void)state;
	s = cache_encode(j, &len);
	assert_non_null(s);
	assert_true(has_prefix(s, "rtlock-cache-1 "));
	k = cache_decode(s, len, why, sizeof(why));
	assert_non_null(k);
	assert_true(json_equal(j, k));
	json_decref(k);
	s[len - 4] ^= 1;		/* one bit in the JSON */
	assert_null(cache_decode(s, len, why, sizeof(why)));
	assert_string_equal(why, "checksum mismatch");
	assert_null(cache_decode(s, 10, why, sizeof(why)));
	assert_string_equal(why, "no checksum line");
	assert_null(cache_decode("{}", 2, why, sizeof(why)));
	free(s);
	json_decref(j);
}

static void leftovers(void **state)
{
	struct strset keep = { 0 };
	json_t *list = json_array();
	const char *text =
		"/* spin_lock(&a)\n * spin_unlock */\n"	/* 1-2: comment */
		"const char *s = \"spin_lock \\\n"	/* 3-4: a string */
		"spin_unlock\";\n"
		"\tspin_lock(&b);\n"			/* 5: left over */
		"\tspin_lock(&kept);\n"			/* 6: kept */
		"#define spin_lock_irq(l) x\n"		/* 7: the API itself */
		"// spin_lock\n"			/* 8 */
		"\tspin_unlock(&b); /* spin_lock\n";	/* 9, unterminated */
	unsigned n;

	(void)state;
	strset_add(&keep, "f.c:6");
	n = convert_leftovers("f.c", text, &keep, list);
	assert_int_equal(n, 2);
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(list, 0), "at")), "f.c:5");
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(list, 1), "at")), "f.c:9");
	json_decref(list);
	strset_free(&keep);
}

static void makefile(void **state)
{
	struct tree t;

	(void)state;
	memset(&t, 0, sizeof(t));
	assert_int_equal(tree_parse_makefile(&t, "VERSION = 6\nPATCHLEVEL = 12\n"
						 "SUBLEVEL = 9\nEXTRAVERSION = "
						 "-rc3\n", "Makefile"), 0);
	assert_string_equal(t.version, "6.12.9-rc3");
	assert_int_equal(tree_parse_makefile(&t, "all:\n", "Makefile"), -1);
}

int test_readers(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(utf8),
		cmocka_unit_test(cache_entry),
		cmocka_unit_test(leftovers),
		cmocka_unit_test(makefile),
	};
	return cmocka_run_group_tests_name("readers", tests, NULL, NULL);
}
