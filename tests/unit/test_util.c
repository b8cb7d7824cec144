// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "hash.h"
#include "util.h"

static void strbuf(void **state)
{
	struct sb sb = SB_INIT;

	(void)state;
	assert_string_equal(sb_str(&sb), "");
	sb_adds(&sb, "spin");
	sb_addf(&sb, "_%s_%d", "lock", 42);
	assert_string_equal(sb.buf, "spin_lock_42");
	sb_reset(&sb);
	assert_int_equal(sb.len, 0);
	sb_release(&sb);
}

static void atomic_write(void **state)
{
	char dir[] = "/tmp/rtlock-unit-XXXXXX", *path, *sub, *data;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	sub = xasprintf("%s/a/b/c", dir);
	assert_int_equal(mkdir_p(sub), 0);
	assert_true(is_dir(sub));
	path = xasprintf("%s/f.json", sub);
	assert_int_equal(write_file_atomic(path, "{}", 2), 0);
	data = read_file(path, &len);
	assert_int_equal(len, 2);
	assert_string_equal(data, "{}");
	free(data);
	/* a directory that does not exist: error, nothing left behind */
	free(path);
	path = xasprintf("%s/missing/f.json", dir);
	assert_int_equal(write_file_atomic(path, "x", 1), -1);
	assert_false(is_file(path));
	assert_int_equal(remove_tree(dir), 0);
	assert_false(is_dir(dir));
	free(path);
	free(sub);
}

static void hashes(void **state)
{
	char a[HASH_HEX], b[HASH_HEX];
	struct hasher h;

	(void)state;
	hash_buf("abc", 3, a);
	assert_int_equal(strlen(a), 32);
	hash_buf("abd", 3, b);
	assert_string_not_equal(a, b);
	/* strings are NUL separated: "ab"+"c" differs from "a"+"bc" */
	hasher_init(&h);
	hasher_adds(&h, "ab");
	hasher_adds(&h, "c");
	hasher_final(&h, a);
	hasher_init(&h);
	hasher_adds(&h, "a");
	hasher_adds(&h, "bc");
	hasher_final(&h, b);
	assert_string_not_equal(a, b);
	assert_int_equal(hash_file("/nonexistent/file", a), -1);
}

static void placed_hash(const char *s, const char *root, const char *out,
			char hex[HASH_HEX])
{
	const char *const places[] = { root, out, NULL };
	struct hasher h;

	hasher_init(&h);
	hasher_adds_placed(&h, s, places);
	hasher_final(&h, hex);
}

/* Keys say what the tree and the cache hold, not where they are. */
static void placed_hashes(void **state)
{
	char a[HASH_HEX], b[HASH_HEX];

	(void)state;
	placed_hash("-I/src/linux/include -I/cache/kb/include", "/src/linux",
		    "/cache/kb", a);
	placed_hash("-I/w/l/include -I/tmp/c2/kb/include", "/w/l",
		    "/tmp/c2/kb", b);
	assert_string_equal(a, b);
	/* what is not a place still counts */
	placed_hash("-I/w/l/include -I/tmp/c2/kb/arch", "/w/l", "/tmp/c2/kb",
		    b);
	assert_string_not_equal(a, b);
	/* the root and the output are told apart */
	placed_hash("-I/cache/kb/include -I/src/linux/include", "/src/linux",
		    "/cache/kb", b);
	assert_string_not_equal(a, b);
	/* a cache inside the tree: the longer place where both match */
	placed_hash("/t/.c/kb/x /t/y", "/t", "/t/.c/kb", a);
	placed_hash("/u/.c/kb/x /u/y", "/u", "/u/.c/kb", b);
	assert_string_equal(a, b);
	placed_hash("/u/.c/kb/x /u/y", "/u", "/elsewhere", b);
	assert_string_not_equal(a, b);
}

static void paths(void **state)
{
	char *cwd, *p, *q;

	(void)state;
	assert_string_equal(rel_to("/a/b", 4, "/a/b/c/d.c"), "c/d.c");
	assert_null(rel_to("/a/b", 4, "/a/bc/d.c"));
	assert_true(has_suffix("x.c", ".c"));
	assert_false(has_suffix("c", ".c"));
	assert_true(has_prefix("spin_lock", "spin_"));
	/* -C cache: the same cache as -C $PWD/cache, existing or not */
	cwd = getcwd(NULL, 0);
	p = path_from_cwd("no/such/cache");
	q = xasprintf("%s/no/such/cache", cwd);
	assert_string_equal(p, q);
	free(p);
	p = path_from_cwd("/abs");
	assert_string_equal(p, "/abs");
	free(p);
	free(q);
	free(cwd);
}

/* The link count of DIR/NAME; 0 if it is not there. */
static nlink_t links_of(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	struct stat st;
	nlink_t n = stat(p, &st) ? 0 : st.st_nlink;

	free(p);
	return n;
}

/* copy_dir(): the files asked for, linked or copied, none overwritten. */
static void dir_copy(void **state)
{
	static const char *const packs[] = { ".pack", ".idx", NULL };
	char dir[] = "/tmp/rtlock-unit-XXXXXX", *from, *to, *p, *data;
	const char *const names[] = { "a.pack", "a.idx", "notes.txt" };
	unsigned i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	from = xasprintf("%s/from", dir);
	to = xasprintf("%s/to/pack", dir);
	for (i = 0; i < 3; i++) {
		p = xasprintf("%s/%s", from, names[i]);
		assert_int_equal(mkdir_p(from), 0);
		assert_int_equal(write_file_atomic(p, names[i], strlen(names[i])), 0);
		free(p);
	}
	/* one already there is left alone */
	p = xasprintf("%s/a.idx", to);
	assert_int_equal(mkdir_p(to), 0);
	assert_int_equal(write_file_atomic(p, "mine", 4), 0);
	free(p);
	assert_int_equal(copy_dir(from, to, true, packs), 0);
	assert_int_equal(links_of(to, "a.pack"), 2);
	p = xasprintf("%s/a.idx", to);
	data = read_file(p, NULL);
	assert_string_equal(data, "mine");
	free(data);
	free(p);
	p = xasprintf("%s/notes.txt", to);
	assert_false(is_file(p));
	free(p);
	/* copies: every file, unlinked */
	free(to);
	to = xasprintf("%s/copy", dir);
	assert_int_equal(copy_dir(from, to, false, NULL), 0);
	assert_int_equal(links_of(to, "notes.txt"), 1);
	/* a missing source directory is an error */
	p = xasprintf("%s/none", dir);
	assert_int_equal(copy_dir(p, to, false, NULL), -1);
	free(p);
	free(from);
	free(to);
	assert_int_equal(remove_tree(dir), 0);
}

int test_util(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strbuf),
		cmocka_unit_test(atomic_write),
		cmocka_unit_test(dir_copy),
		cmocka_unit_test(hashes),
		cmocka_unit_test(placed_hashes),
		cmocka_unit_test(paths),
	};
	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
