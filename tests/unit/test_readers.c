// SPDX-License-Identifier: GPL-2.0
/* The readers of outside text, on buffers: what the fuzzers also run. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "cache.h"
#include "convert.h"
#include "leftover.h"
#include "scan.h"
#include "seqcount.h"
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
	struct strset keep = { 0 }, impl = { 0 };
	json_t *list = json_array();
	const char *text =
		"/* spin_lock(&a)\n * spin_unlock */\n"	/* 1-2: comment */
		"const char *s = \"spin_lock \\\n"	/* 3-4: a string */
		"spin_unlock\";\n"
		"\tspin_lock(&b); spin_unlock(&b);\n"	/* 5: left over, once */
		"\tspin_lock(&kept);\n"			/* 6: kept */
		"#define spin_lock_irq(l) x\n"		/* 7: the API itself */
		"// spin_lock\n"			/* 8 */
		"\tlock_t spin_lock; x->spin_lock = 1;\n"	/* 9: names */
		"\tgoto spin_unlock; spin_unlock:\n"	/* 10: a label */
		"int spin_needbreak(spinlock_t *l)\n"	/* 11-13: a definition */
		"{ spin_unlock(l);\n}\n"
		"#define kfifo_in_spinlocked(f, b, n, l) \\\n" /* 14-15 */
		"\tspin_lock(l)\n"
		"TRACE_EVENT(x, spin_lock(&c););\n"	/* 16: not a definition */
		"static spinlock_t d;\n"		/* 17 */
		"\tspin_unlock(&b); /* spin_lock\n";	/* 18, unterminated */
	unsigned n;

	(void)state;
	strset_add(&keep, "f.c:6");
	strset_add(&impl, "spin_needbreak");
	strset_add(&impl, "spin_lock");
	strset_add(&impl, "spin_lock_irq");
	strset_add(&impl, "kfifo_in_spinlocked");
	n = leftover_lines("f.c", text, &keep, &impl, list);
	assert_int_equal(n, 4);
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(list, 0), "at")), "f.c:5");
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(list, 1), "at")), "f.c:16");
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(list, 2), "at")), "f.c:17");
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(list, 3), "at")), "f.c:18");
	json_decref(list);
	strset_free(&keep);
	strset_free(&impl);
}

/* The names read from the rules: LOCK_T_MAP's keys and IMPL's members. */
static void leftover_names(void **state)
{
	struct strset impl = { 0 };
	char path[] = "/tmp/rtlock-impl-XXXXXX";
	const char *cocci = "@script:python@\n@@\nLOCK_T_MAP = {\n"
			    "    \"spin_lock\": (\"acquire_lock_t\", \"raw_spin_lock\"),\n"
			    "    # \"in_a_comment\": no\n"
			    "    \"spinlock_t\": (\"lock_t\", \"raw_spinlock_t\"),\n"
			    "    \"kref_put_lock\":   (\"kref_put_acquire_lock\", None),\n}\n"
			    "IMPL = set(k for k in LOCK_T_MAP if k != \"spinlock_t\") | {\n"
			    "    \"__cond_resched_lock\", \"spinlock_check\",\n}\n";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, cocci, strlen(cocci)), (ssize_t)strlen(cocci));
	close(fd);
	assert_int_equal(leftover_impl_names(path, &impl), 0);
	assert_true(strset_has(&impl, "spin_lock"));
	assert_true(strset_has(&impl, "kref_put_lock"));
	assert_true(strset_has(&impl, "__cond_resched_lock"));
	assert_true(strset_has(&impl, "spinlock_check"));
	assert_false(strset_has(&impl, "acquire_lock_t"));
	assert_false(strset_has(&impl, "spinlock_t"));
	assert_int_equal(impl.n, 4);
	strset_free(&impl);
	unlink(path);
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

static void seqcount_aliases(void **state)
{
	struct seqcounts sc = { 0 };

	(void)state;
	assert_int_equal(seqcounts_scan(&sc, "include/linux/dcache.h",
		"#define d_lock\td_lockref.lock\t/* alias */\n"
		"# define x_lock a->b.c // alias\n"
		"#define f_lock(x) x.lock\n"	/* function-like */
		"#define n_lock lock\n"		/* no field */
		"#define m_lock a.b + 1\n"		/* not only a field */
		"#define NUM 1.5\n"
		"seqcount_spinlock_t d_seq;\n"), 1);
	assert_int_equal(sc.naliases, 2);
	assert_string_equal(sc.aliases[0].name, "d_lock");
	assert_string_equal(sc.aliases[0].last, "lock");
	assert_string_equal(sc.aliases[1].name, "x_lock");
	assert_string_equal(sc.aliases[1].last, "c");
	assert_string_equal(sc.aliases[0].first, "d_lockref");
	assert_null(sc.aliases[1].first);	/* three names */
	assert_int_equal(seqcounts_scan(&sc, "fs/dcache.c",
		"\tseqcount_spinlock_init(&dentry->d_seq, &dentry->d_lock);\n"
		"\tseqcount_spinlock_init(&o->seq, &x_lock);\n"), 2);
	/* a second, different definition makes x_lock ambiguous */
	seqcounts_scan(&sc, "x.h", "#define x_lock y.lock\n");
	seqcounts_resolve_aliases(&sc);
	assert_string_equal(sc.uses[0].lock, "lock");
	assert_true(sc.uses[0].lock_member);
	assert_true(sc.uses[0].same_object);
	assert_string_equal(sc.uses[0].via, "d_lockref");
	assert_null(sc.uses[1].via);
	assert_string_equal(sc.uses[1].lock, "x_lock");
	assert_false(sc.uses[1].lock_member);
	seqcounts_free(&sc);
}

/* The record a seqcount field is in; a tie between fields of one object. */
static void seqcount_records(void **state)
{
	struct seqcounts sc = { 0 };

	(void)state;
	assert_int_equal(seqcounts_scan(&sc, "block/blk-iocost.c",
		"struct ioc {\n"
		"\tspinlock_t lock;\n"
		"\tunion {\n"			/* anonymous member */
		"\t\tstruct { int a; };\n"
		"\t\tseqcount_spinlock_t period_seqcount;\n"
		"\t};\n"
		"\tstruct { seqcount_spinlock_t s; } named;\n"
		"\tstruct lockref lr;\n"
		"\tstruct lockref *plr;\n"
		"};\n"
		"static seqcount_spinlock_t global_seq;\n"
		"void f(struct ioc *ioc)\n{\n"
		"\tseqcount_spinlock_t local;\n"
		"\tseqcount_spinlock_init(&ioc->period_seqcount, &ioc->lock);\n"
		"\tseqcount_spinlock_init(&ioc->period_seqcount, & ioc -> lock);\n"
		"\tseqcount_spinlock_init(&ioc->period_seqcount, &other->lock);\n"
		"\tseqcount_spinlock_init(&global_seq, &global_lock);\n"
		"}\n"), 8);
	assert_string_equal(sc.decls[0].name, "period_seqcount");
	assert_string_equal(sc.decls[0].record, "struct ioc (in block/blk-iocost.c)");
	assert_string_equal(sc.decls[1].name, "s");
	assert_null(sc.decls[1].record);	/* an unnamed record's */
	assert_null(sc.decls[2].record);	/* a variable */
	assert_null(sc.decls[3].record);	/* a local */
	assert_true(sc.uses[0].same_object);
	assert_false(sc.uses[1].same_object);	/* written otherwise */
	assert_false(sc.uses[2].same_object);
	assert_false(sc.uses[3].same_object);
	assert_string_equal(seqcounts_field_type(&sc,
		"struct ioc (in block/blk-iocost.c)", "lr"), "struct lockref");
	assert_null(seqcounts_field_type(&sc,
		"struct ioc (in block/blk-iocost.c)", "plr"));	/* a pointer */
	assert_null(seqcounts_field_type(&sc,
		"struct ioc (in block/blk-iocost.c)", "named"));
	assert_int_equal(seqcounts_scan(&sc, "include/linux/x.h",
		"union x { seqcount_spinlock_t seq; };\n"), 1);
	assert_string_equal(sc.decls[4].record, "union x");
	seqcounts_free(&sc);
}

/* Which parses under the prelude are worth a second parse without it. */
static void prelude_retry(void **state)
{
	json_t *ok = json_pack("{si}", "errors", 0);
	json_t *clash = json_pack("{siss}", "errors", 3, "first_error",
				  "a.c:3: error: redefinition of 'x'");
	json_t *missing = json_pack("{siss}", "errors", 20, "first_error",
				    "p.h:5: error: 'engine/fifo.h' file not "
				    "found");

	(void)state;
	assert_true(scan_retry_without_prelude(NULL));
	assert_false(scan_retry_without_prelude(ok));
	assert_true(scan_retry_without_prelude(clash));
	assert_false(scan_retry_without_prelude(missing));
	json_decref(ok);
	json_decref(clash);
	json_decref(missing);
}

int test_readers(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(utf8),
		cmocka_unit_test(cache_entry),
		cmocka_unit_test(leftovers),
		cmocka_unit_test(leftover_names),
		cmocka_unit_test(makefile),
		cmocka_unit_test(seqcount_aliases),
		cmocka_unit_test(seqcount_records),
		cmocka_unit_test(prelude_retry),
	};
	return cmocka_run_group_tests_name("readers", tests, NULL, NULL);
}
