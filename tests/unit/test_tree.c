// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "built.h"
#include "tree.h"
#include "util.h"

static char dir[64];

static void put(const char *rel, const char *text)
{
	char *p = xasprintf("%s/%s", dir, rel), *d = xstrdup(p);

	*strrchr(d, '/') = '\0';
	assert_int_equal(mkdir_p(d), 0);
	assert_int_equal(write_file_atomic(p, text, strlen(text)), 0);
	free(p);
	free(d);
}

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/rtlock-tree-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return remove_tree(dir);
}

static void bad_trees(void **state)
{
	struct tree t;
	char *p;

	(void)state;
	p = xasprintf("%s/nope", dir);
	assert_int_equal(tree_open(&t, p, NULL), -1);	/* no such dir */
	free(p);
	assert_int_equal(tree_open(&t, dir, NULL), -1); /* no Makefile */
	tree_release(&t);
	put("Makefile", "all:\n\techo hi\n");
	assert_int_equal(tree_open(&t, dir, NULL), -1); /* no VERSION */
	tree_release(&t);
	put("Makefile", "VERSION = x\nPATCHLEVEL = 1\n");
	assert_int_equal(tree_open(&t, dir, NULL), -1); /* corrupt */
	tree_release(&t);
}

static void version_and_era(void **state)
{
	struct tree t;

	(void)state;
	put("Makefile", "# SPDX\nVERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 5\n"
			"EXTRAVERSION = -rc2\nNAME = Baby Opossum Posse\n");
	assert_int_equal(tree_open(&t, dir, NULL), 0);
	assert_string_equal(t.version, "6.12.5-rc2");
	assert_false(t.has_raw);
	assert_false(t.has_rt_subst);
	assert_false(t.kbuild);
	tree_release(&t);
	put("include/linux/spinlock_types_raw.h", "typedef int raw_spinlock_t;\n");
	put("include/linux/spinlock_rt.h", "\n");
	assert_int_equal(tree_open(&t, dir, "x86"), 0);
	assert_true(t.has_raw);
	assert_true(t.has_rt_subst);
	tree_release(&t);
}

/* Open and prefilter the test tree: @ntus TUs, @nheaders headers. */
static void prefilter_counts(struct tree *t, size_t ntus, size_t nheaders)
{
	assert_int_equal(tree_open(t, dir, "x86"), 0);
	assert_int_equal(tree_prefilter(t), 0);
	assert_int_equal(t->ntus, ntus);
	assert_int_equal(t->nheaders, nheaders);
}

static void prefilter(void **state)
{
	struct tree t;
	char *loop;

	(void)state;
	put("Makefile", "VERSION = 6\nPATCHLEVEL = 1\n");
	put("kernel/a.c", "static DEFINE_SPINLOCK(x);\n");
	put("kernel/b.c", "int main(void) { return 0; }\n");
	put("kernel/c.c", "request_irq(1, h, IRQF_NO_THREAD, \"x\", 0);\n");
	put("include/linux/a.h", "struct s { spinlock_t lock; };\n");
	put("arch/arm/kernel/d.c", "spin_lock(&l);\n");
	put("arch/x86/kernel/e.c", "spin_lock(&l);\n");
	put("Documentation/f.c", "spin_lock(&l);\n");
	put("drivers/g/g.c", "raw_spin_lock(&l);\n");
	loop = xasprintf("%s/drivers/g/loop", dir);
	assert_int_equal(symlink("..", loop), 0);
	free(loop);
	/* a.h, and spinlock_types_raw.h from version_and_era() */
	prefilter_counts(&t, 4, 2);
	assert_string_equal(t.tus[0], "arch/x86/kernel/e.c");
	assert_string_equal(t.tus[1], "drivers/g/g.c");
	assert_string_equal(t.tus[2], "kernel/a.c");
	assert_string_equal(t.tus[3], "kernel/c.c");
	assert_string_equal(t.headers[0], "include/linux/a.h");
	tree_release(&t);
	t.only = NULL;
	assert_int_equal(tree_open(&t, dir, "x86"), 0);
	t.only = "kernel,drivers/";
	tree_prefilter(&t);
	assert_int_equal(t.ntus, 3);
	tree_release(&t);
	assert_true(prefilter_match("x spinlock_t y", 14));
	assert_false(prefilter_match("mutex_lock(&m);", 15));
	/* at either end, cut short by the length, the last token */
	assert_true(prefilter_match("spin_lock", 9));
	assert_true(prefilter_match("x = 1; on_each_cpu", 18));
	assert_false(prefilter_match("x = 1; on_each_cpu", 17));
	assert_true(prefilter_match("\tchained_handler", 16));
	/* a file whose only lock use is a guard (6.12's cmos_rtc.c) */
	assert_true(prefilter_match("guard(spinlock_irq)(&rtc_lock);", 31));
	assert_true(prefilter_match("scoped_guard(raw_spinlock, &l)", 30));
	assert_false(prefilter_match("chained_handle", 14));
	assert_false(prefilter_match("s", 1));
	assert_false(prefilter_match("", 0));
	/*
	 * a .c file another one includes is parsed as part of it, as kbuild
	 * compiles it: the includer is a TU, the included one a header
	 */
	put("kernel/sched/build_policy.c", "#include \"sched.h\"\n"
					   "#include \"rt.c\"\n");
	put("kernel/sched/rt.c", "void f(struct rq *rq) { spin_lock(&l); }\n");
	prefilter_counts(&t, 5, 3);
	assert_string_equal(t.tus[4], "kernel/sched/build_policy.c");
	assert_string_equal(t.headers[2], "kernel/sched/rt.c");
	tree_release(&t);
	/* and so is one an includer that uses the lock API itself includes */
	put("drivers/usb/host/ohci-hcd.c", "#include \"ohci-dbg.c\"\n"
					   "void g(void) { spin_lock(&l); }\n");
	put("drivers/usb/host/ohci-dbg.c", "void d(void) { spin_lock(&l); }\n");
	prefilter_counts(&t, 6, 4);
	assert_string_equal(t.tus[2], "drivers/usb/host/ohci-hcd.c");
	assert_string_equal(t.headers[0], "drivers/usb/host/ohci-dbg.c");
	tree_release(&t);
}

/* What the configuration builds, from the Makefiles and the .config. */
static void built_files(void **state)
{
	struct built *b;
	char *cfg = xasprintf("%s/obj/.config", dir);

	(void)state;
	put("obj/.config", "CONFIG_BAR=y\n# CONFIG_FOO is not set\n"
			   "CONFIG_MOD=m\nCONFIG_OFF=n\n");
	put("drivers/Makefile", "obj-$(CONFIG_BAR)\t+= bar/\n"
				"obj-$(CONFIG_NOPE) += nope/ \\\n"
				"\tother/\n"
				"obj-$(CONFIG_FOO) += foo.o\n"
				"obj-$(CONFIG_MOD) += mod.o\n"
				"obj-y += baz.o\n"
				"both-objs := two.o\n"
				"obj-$(CONFIG_FOO) += two.o\n"
				"# obj-$(CONFIG_FOO) += commented.o\n"
				"obj-$(CONFIG_OFF) += off.o\n");
	b = built_open(dir, cfg);
	assert_non_null(b);
	assert_false(built_has(b, "drivers/foo.c"));
	assert_string_equal(built_why(b, "drivers/foo.c"), "FOO");
	assert_false(built_has(b, "drivers/off.c"));
	assert_true(built_has(b, "drivers/mod.c"));
	assert_true(built_has(b, "drivers/baz.c"));
	assert_true(built_has(b, "drivers/two.c"));	/* a composite's part */
	assert_true(built_has(b, "drivers/unknown.c"));	/* not mentioned */
	assert_true(built_has(b, "drivers/commented.c"));
	assert_true(built_has(b, "drivers/bar/x.c"));
	assert_false(built_has(b, "drivers/nope/deep/x.c"));
	assert_false(built_has(b, "drivers/other/x.c")); /* continued line */
	assert_string_equal(built_why(b, "drivers/nope/deep/x.c"), "NOPE");
	/* a header: its folder decides, not a foo.o of the same name */
	assert_true(built_has(b, "drivers/foo.h"));
	assert_false(built_has(b, "drivers/nope/x.h"));
	built_close(b);
	assert_null(built_open(dir, "/nonexistent/.config"));
	free(cfg);
}

/* The -I and -D options a file's Makefiles give it. */
static void built_includes(void **state)
{
	struct built *b;
	char *cfg = xasprintf("%s/obj/.config", dir), *want;
	struct sb out = SB_INIT;

	(void)state;
	put("obj/.config", "CONFIG_GPU=y\nCONFIG_DBG=y\n");
	put("gpu/Makefile", "obj-$(CONFIG_GPU) += i9/ amd/\n"
			    "subdir-ccflags-y += -Iinclude/gpu -Wall\n");
	/* i9's Makefile builds gt/ring.o; its subdir-ccflags-y reach it */
	put("gpu/i9/Makefile", "subdir-ccflags-y := -Wextra\n"
			       "subdir-ccflags-y += -I$(srctree)/$(src)\n"
			       "subdir-ccflags-y += -DI9 -D'Q=\"q\"'\n"
			       "i9-y += gt/ring.o\n"
			       "ccflags-$(CONFIG_DBG) += -I $(src)/dbg\n"
			       "ccflags-$(CONFIG_NONE) += -I$(src)/none\n"
			       "obj-y += i9.o\n");
	/* a variable of the Makefile; $(call ...) spoils its word */
	put("gpu/amd/Makefile", "FULL=$(srctree)/$(src)/..\n"
				"ccflags-y := -I$(FULL)/inc \\\n"
				"\t-I$(call cc-option,x)/no\n"
				"obj-y += a.o\n");
	/* files listed by an included Kbuild get the includer's flags */
	put("gpu/nv/Kbuild", "NV ?= $(srctree)\n"
			     "ccflags-y += -I $(NV)/$(src)/include\n"
			     "include $(src)/sub/Kbuild\n"
			     "-include $(src)/none/Kbuild\n");
	put("gpu/nv/sub/Kbuild", "nv-y += sub/eng.o\n");
	b = built_open(dir, cfg);
	assert_non_null(b);
	built_include_opts(b, "gpu/nv/sub/eng.c", &out);
	want = xasprintf("-I%s/include/gpu\n-I%s/gpu/nv/include\n", dir, dir);
	assert_string_equal(sb_str(&out), want);
	free(want);
	sb_reset(&out);
	built_include_opts(b, "gpu/i9/gt/ring.c", &out);
	want = xasprintf("-I%s/include/gpu\n-I%s/gpu/i9\n-DI9\n"
			 "-I%s/gpu/i9/dbg\n", dir, dir, dir);
	assert_string_equal(sb_str(&out), want);
	free(want);
	sb_reset(&out);
	built_include_opts(b, "gpu/amd/a.c", &out);
	want = xasprintf("-I%s/include/gpu\n-I%s/gpu/amd/../inc\n", dir, dir);
	assert_string_equal(sb_str(&out), want);
	free(want);
	sb_release(&out);
	built_close(b);
	free(cfg);
}

int test_tree(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bad_trees),
		cmocka_unit_test(version_and_era),
		cmocka_unit_test(prefilter),
		cmocka_unit_test(built_files),
		cmocka_unit_test(built_includes),
	};
	return cmocka_run_group_tests_name("tree", tests, setup, teardown);
}
