// SPDX-License-Identifier: GPL-2.0
/* The libclang extractor on a small file using the fixture's headers. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "extract.h"
#include "util.h"

#define FIXTURE "tests/fixtures/linux-mini"

static const char src[] =
	"#include <linux/spinlock.h>\n"			      /* 1 */
	"struct s { spinlock_t lock; spinlock_t *lockp; };\n" /* 2 */
	"static DEFINE_SPINLOCK(file_lock);\n"		      /* 3 */
	"static void helper(spinlock_t *l)\n"		      /* 4 */
	"{\n"
	"\tspin_lock(l);\n"				      /* 6 */
	"\tspin_unlock(l);\n"
	"}\n"
	"#define s_lock(x) spin_lock(&(x)->lock)\n"	      /* 9 */
	"int f(struct s *x, int err)\n"			      /* 10 */
	"{\n"
	"\tunsigned long flags;\n"
	"\tspin_lock_irqsave(&x->lock, flags);\n"	      /* 13 */
	"\tif (err)\n"
	"\t\tgoto out;\n"
	"\thelper(&file_lock);\n"			      /* 16 */
	"\tspin_lock(x->lockp);\n"			      /* 17 */
	"\tspin_unlock(x->lockp);\n"
	"out:\n"
	"\tspin_unlock_irqrestore(&x->lock, flags);\n"
	"\ts_lock(x);\n"				      /* 21 */
	"\treturn 0;\n"
	"}\n"
	"struct s *g(struct s *x)\n"			      /* 24 */
	"{\n"
	"\tfor ( ; ; ) {\n"				      /* 26 */
	"\t\tspin_lock(&x->lock);\n"			      /* 27 */
	"\t\tif (x->lockp)\n"
	"\t\t\treturn x;\n"
	"\t\tspin_unlock(&x->lock);\n"
	"\t}\n"
	"}\n"
	"int h(struct s *x, int n)\n"			      /* 33 */
	"{\n"
	"\tif (__builtin_constant_p(n))\n"		      /* 35 */
	"\t\tspin_lock(x->lockp);\n"
	"\tif (!IS_ENABLED(CONFIG_NOT_SET))\n"		      /* 37 */
	"\t\treturn sizeof(int) == 4 ? 1 : spin_trylock(x->lockp);\n"
	"\tspin_lock(&x->lock);\n"			      /* 39 */
	"\treturn 0;\n"
	"}\n"
	"int k(struct s *x)\n"				      /* 42 */
	"{\n"
	"\tif (!IS_ENABLED(CONFIG_PREEMPT_RT))\n"	      /* 44 */
	"\t\treturn spin_trylock(x->lockp);\n"
	"\tif (IS_ENABLED(CONFIG_PREEMPT_RT) && x->lockp)\n" /* 46 */
	"\t\tspin_lock(x->lockp);\n"
	"\tspin_lock(&x->lock);\n"			      /* 48 */
	"\treturn 0;\n"
	"}\n"
	"int m(struct s *x, int fast)\n"			      /* 51 */
	"{\n"
	"\tif (!fast)\n"					      /* 53 */
	"\t\thelper(x->lockp);\n"
	"\treturn m(x, 1);\n"				      /* 55 */
	"}\n"
	"void die(void) __attribute__((__noreturn__));\n"   /* 57 */
	"int q(struct s *x)\n"
	"{\n"
	"\tif (x->lockp)\n"
	"\t\tdie();\n"					      /* 61 */
	"\tspin_lock(&x->lock);\n"
	"\treturn 0;\n"
	"}\n"
	"#define swp(a, b) do { typeof(a) __tmp = (a); (a) = (b); "
	"(b) = __tmp; } while (0)\n"			      /* 65 */
	"void sw(spinlock_t *a, spinlock_t *b)\n"
	"{\n"
	"\tswp(a, b);\n"				      /* 68 */
	"}\n"
	"void r(struct s *x)\n"				      /* 70 */
	"{\n"
	"\tm(x, 0);\n"
	"\tif (IS_ENABLED(CONFIG_PREEMPT_RT))\n"
	"\t\treturn;\n"
	"\thelper(x->lockp);\n"			      /* 75 */
	"}\n";

static json_t *extract(char *dir)
{
	char *path, *fx = abs_path(FIXTURE), err[256];
	char *inc = xasprintf("-I%s/include", fx);
	char *ainc = xasprintf("-I%s/arch/x86/include", fx);
	char *kconf = xasprintf("%s/include/linux/kconfig.h", fx);
	const char *args[] = { "-nostdinc", inc, ainc, "-include", kconf,
			       "-D__KERNEL__" };
	struct extract_opts o = { dir, args, 6, NULL, "", 0, NULL, NULL };
	json_t *f;

	assert_non_null(fx);
	assert_int_equal(clang_load(), 0);
	path = xasprintf("%s/t.c", dir);
	assert_int_equal(write_file_atomic(path, src, strlen(src)), 0);
	f = extract_tu(&o, "t.c", err, sizeof(err));
	free(path);
	free(fx);
	free(inc);
	free(ainc);
	free(kconf);
	return f;
}

static json_t *func(json_t *facts, const char *id)
{
	size_t i;
	json_t *fn;

	json_array_foreach(json_object_get(facts, "funcs"), i, fn)
		if (!strcmp(json_string_value(json_object_get(fn, "id")), id))
			return fn;
	fail_msg("no function %s", id);
	return NULL;
}

static char *dump(json_t *j)
{
	return json_dumps(j, JSON_COMPACT);
}

static void facts_of_a_file(void **state)
{
	char dir[] = "/tmp/rtlock-extract-XXXXXX", *ir, *locks;
	json_t *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	f = extract(dir);
	assert_non_null(f);
	assert_int_equal(json_integer_value(json_object_get(f, "errors")), 0);
	locks = dump(json_object_get(f, "locks"));
	assert_non_null(strstr(locks, "\"id\":\"struct s (in t.c)::lock\""));
	assert_non_null(strstr(locks, "\"id\":\"t.c:file_lock\""));
	assert_non_null(strstr(locks, "\"def\":true"));
	/* the pointer field is not a lock */
	assert_null(strstr(locks, "lockp"));
	free(locks);

	ir = dump(json_object_get(func(f, "t.c:helper"), "ir"));
	assert_non_null(strstr(ir, "[\"lock\",6,\"acquire\",\"spin_lock\","
				   "\"P:t.c:helper#0\",\"t.c:6:2\"]"));
	free(ir);

	ir = dump(json_object_get(func(f, "f"), "ir"));
	assert_non_null(strstr(ir, "[\"lock\",13,\"acquire\","
				   "\"spin_lock_irqsave\",\"L:struct s (in t.c)::lock\""));
	/* an if on parameter 1 */
	assert_non_null(strstr(ir, "[\"if\",[[\"goto\",\"out\"]],[],1]"));
	assert_non_null(strstr(ir, "[\"call\",16,\"t.c:helper\","
				   "[\"L:t.c:file_lock\"]]"));
	assert_non_null(strstr(ir, "\"F:struct s (in t.c)::lockp\""));
	assert_non_null(strstr(ir, "[\"label\",\"out\"]"));
	/* a lock call inside a macro: used on line 21, written on line 9 */
	assert_non_null(strstr(ir, "[\"lock\",21,\"acquire\",\"spin_lock\","
				   "\"L:struct s (in t.c)::lock\",\"t.c:9:19\"]"));
	free(ir);
	/* for (;;) is left by return or break only */
	ir = dump(json_object_get(func(f, "g"), "ir"));
	assert_non_null(strstr(ir, "[[\"forever\",[[\"lock\",27,"));
	free(ir);
	/*
	 * a constant condition takes one branch: the trylock is never
	 * reached, the lock after the return is dead code (the return is
	 * not inside an "if"); __builtin_constant_p() of a variable may be
	 * either
	 */
	ir = dump(json_object_get(func(f, "h"), "ir"));
	assert_non_null(strstr(ir, "[\"if\",[[\"lock\",36,"));
	assert_non_null(strstr(ir, "]],[]],[\"ret\"],[\"lock\",39,"));
	assert_null(strstr(ir, "spin_trylock"));
	free(ir);
	/* what PREEMPT_RT says, not the parsed configuration; both when mixed */
	ir = dump(json_object_get(func(f, "k"), "ir"));
	assert_null(strstr(ir, "spin_trylock"));
	assert_non_null(strstr(ir, "[\"if\",[[\"lock\",47,"));
	assert_non_null(strstr(ir, "[\"lock\",48,"));
	free(ir);
	/*
	 * a function with calls only keeps its ifs on a parameter (!fast:
	 * the branch for zero); a call's constant arguments
	 */
	ir = dump(json_object_get(func(f, "m"), "ir"));
	assert_non_null(strstr(ir, "[[\"if\",[],[[\"call\",54,\"t.c:helper\","));
	assert_non_null(strstr(ir, "[\"call\",55,\"m\",null,[null,1]]"));
	free(ir);
	/* a macro's local of inferred type is each expansion's own */
	locks = dump(json_object_get(f, "slots"));
	assert_non_null(strstr(locks, "{\"name\":\"__tmp\",\"at\":\"t.c:68\""));
	free(locks);
	/* a function of calls only keeps none after its return */
	ir = dump(json_object_get(func(f, "r"), "ir"));
	assert_non_null(strstr(ir, "[\"call\",72,\"m\""));
	assert_null(strstr(ir, "helper"));
	free(ir);
	/* nothing runs after a call of a __noreturn function */
	ir = dump(json_object_get(func(f, "q"), "ir"));
	assert_non_null(strstr(ir, "[\"call\",61,\"die\"],[\"noret\"]]"));
	free(ir);
	json_decref(f);
	remove_tree(dir);
}

/*
 * A static initialiser written by a macro of a header in a PCH: libclang
 * does not list the PCH's headers among the TU's files, so the macro is
 * found through the index of the PCH's headers, not by luck (a header the
 * TU walks for its own facts that names it).
 */
static void macro_from_pch(void **state)
{
	static const char hdr[] =
		"#include <linux/spinlock.h>\n"
		"struct q { spinlock_t lock; int n; };\n"
		"#define Q_INIT(name) { .lock = __SPIN_LOCK_UNLOCKED(name.lock) }\n"
		"#define DEFINE_Q(name) struct q name = Q_INIT(name)\n";
	static const char tu[] = "DEFINE_Q(myq);\n";
	char dir[] = "/tmp/rtlock-pch-XXXXXX", err[256], *fx = abs_path(FIXTURE);
	char *inc = xasprintf("-I%s/include", fx), *cmd, *path, *qh, *pch;
	char *ainc = xasprintf("-I%s/arch/x86/include", fx);
	char *kconf = xasprintf("%s/include/linux/kconfig.h", fx);
	const char *args[] = { "-nostdinc", inc, ainc, "-include", kconf,
			       "-D__KERNEL__", "-include-pch", NULL };
	struct extract_opts o = { dir, args, 8, NULL, "", 0, NULL, NULL };
	struct macro_index *mi;
	char *statics;
	json_t *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(clang_load(), 0);
	qh = xasprintf("%s/q.h", dir);
	assert_int_equal(write_file_atomic(qh, hdr, strlen(hdr)), 0);
	path = xasprintf("%s/t.c", dir);
	assert_int_equal(write_file_atomic(path, tu, strlen(tu)), 0);
	pch = xasprintf("%s/q.pch", dir);
	args[7] = pch;
	cmd = xasprintf("clang-14 -x c-header -nostdinc %s %s -include %s "
			"-D__KERNEL__ %s -o %s", inc, ainc, kconf, qh, pch);
	assert_int_equal(system(cmd), 0);
	/* without the index: the macros are not found */
	f = extract_tu(&o, "t.c", err, sizeof(err));
	assert_non_null(f);
	assert_null(json_object_get(f, "statics"));
	json_decref(f);
	/* the PCH's dependency list names q.h */
	mi = macro_index_read(dir, (const char *const *)&qh, 1);
	o.pch_macros = mi;
	f = extract_tu(&o, "t.c", err, sizeof(err));
	assert_non_null(f);
	statics = dump(json_object_get(f, "statics"));
	assert_non_null(strstr(statics, "\"at\":\"q.h:3:"));
	assert_non_null(strstr(statics, "\"lock\":\"struct q::lock\""));
	free(statics);
	json_decref(f);
	macro_index_free(mi);
	remove_tree(dir);
	free(cmd);
	free(qh);
	free(pch);
	free(path);
	free(inc);
	free(ainc);
	free(kconf);
	free(fx);
}

/* The names of the functions in facts @f, comma-separated, in order. */
static char *func_names(json_t *f)
{
	struct sb sb = SB_INIT;
	json_t *fn;
	size_t i;

	json_array_foreach(json_object_get(f, "funcs"), i, fn)
		sb_addf(&sb, "%s,", json_string_value(json_object_get(fn, "name")));
	return xstrdup(sb_str(&sb));
}

/*
 * A header without an include guard (a trace header: what it defines
 * depends on CREATE_TRACE_POINTS) is the TU's, in its "inlined" facts,
 * whichever TU comes first; a guarded header is claimed once.
 */
static void unguarded_header(void **state)
{
	static const char trace_h[] =
		"void ext(void);\n"
		"#ifdef MAKE_BODY\n"
		"void made_here(void) { ext(); }\n"
		"#endif\n"
		"static inline void declared(void) { ext(); }\n";
	static const char guard_h[] =
		"#ifndef G_H\n#define G_H\n"
		"void ext(void);\n"
		"static inline void guarded(void) { ext(); }\n"
		"#endif\n";
	static const char *const tus[][2] = {
		{ "a.c", "#include \"t.h\"\n#include \"g.h\"\n" },
		{ "b.c", "#define MAKE_BODY\n#include \"t.h\"\n"
			 "#include \"g.h\"\n" },
	};
	char dir[] = "/tmp/rtlock-guard-XXXXXX", err[256];
	char *hdrs, *p, *names;
	const char *args[] = { "-nostdinc" };
	struct extract_opts o = { dir, args, 1, NULL, "", 0, NULL, NULL };
	json_t *f[2], *inl;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(clang_load(), 0);
	hdrs = xasprintf("%s/.hdr", dir);
	o.hdr_dir = hdrs;
	p = xasprintf("%s/t.h", dir);
	assert_int_equal(write_file_atomic(p, trace_h, strlen(trace_h)), 0);
	free(p);
	p = xasprintf("%s/g.h", dir);
	assert_int_equal(write_file_atomic(p, guard_h, strlen(guard_h)), 0);
	free(p);
	for (i = 0; i < 2; i++) {
		p = xasprintf("%s/%s", dir, tus[i][0]);
		assert_int_equal(write_file_atomic(p, tus[i][1],
						   strlen(tus[i][1])), 0);
		free(p);
		f[i] = extract_tu(&o, tus[i][0], err, sizeof(err));
		assert_non_null(f[i]);
		inl = json_object_get(f[i], "inlined");
		assert_int_equal(json_array_size(inl), 1);
		assert_string_equal(json_string_value(json_object_get(
			json_array_get(inl, 0), "file")), "t.h");
	}
	/* a.c came first: it claimed g.h, b.c did not */
	assert_int_equal(json_array_size(json_object_get(f[0], "claimed")), 1);
	assert_int_equal(json_array_size(json_object_get(f[1], "claimed")), 0);
	names = func_names(json_array_get(json_object_get(f[0], "inlined"), 0));
	assert_string_equal(names, "declared,");
	free(names);
	names = func_names(json_array_get(json_object_get(f[1], "inlined"), 0));
	assert_string_equal(names, "made_here,declared,");
	free(names);
	json_decref(f[0]);
	json_decref(f[1]);
	remove_tree(dir);
	free(hdrs);
}

int test_extract(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(facts_of_a_file),
		cmocka_unit_test(macro_from_pch),
		cmocka_unit_test(unguarded_header),
	};
	return cmocka_run_group_tests_name("extract", tests, NULL, NULL);
}
