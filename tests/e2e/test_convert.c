// SPDX-License-Identifier: GPL-2.0
/* rtlock convert on the fixture: result, type check, idempotence, faults. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "util.h"

static char *work, *before;

/* In a spatch wrapper: its arguments and the files of its --file-groups. */
#define SPATCH_FILES "\"$* $(cat $(printf '%%s\\n' \"$@\" | grep '[.]groups$') " \
	"</dev/null 2>/dev/null)\""

static int setup(void **state)
{
	(void)state;
	work = tmpdir();
	before = tree_digest(FIXTURE);
	return run(NULL, "%s convert -q --no-whitelist -C %s/cache -o %s/meta "
			 "--tree-out %s/tree %s",
		   RTLOCK, work, work, work, FIXTURE);
}

static int teardown(void **state)
{
	(void)state;
	remove_tree(work);
	free(work);
	free(before);
	return 0;
}

static char *file_of(const char *rel)
{
	char *p = xasprintf("%s/tree/%s", work, rel), *t = read_file(p, NULL);

	free(p);
	assert_non_null(t);
	return t;
}

static void converted(void **state)
{
	json_t *res = load_json("%s/meta/convert.json", work);
	char *t, *after = tree_digest(FIXTURE);

	(void)state;
	assert_string_equal(before, after);	/* the input is only read */
	free(after);
	assert_int_equal(json_array_size(json_object_get(res, "failed")), 0);
	assert_int_equal(json_integer_value(json_object_get(res, "leftovers")),
			 0);
	/*
	 * read by the scan for their contexts, nothing to convert: spatch does
	 * not run on them (kernel/irq/irqs_only.c and seven headers:
	 * interrupt.h, irq.h, preempt.h ...)
	 */
	assert_int_equal(json_integer_value(json_object_get(res, "no_names")),
			 8);
	json_decref(res);
	/* must spin: the raw spelling; may sleep: lock_t */
	t = file_of("arch/x86/kernel/irq.c");
	assert_non_null(strstr(t, "DEFINE_RAW_SPINLOCK(arch_irq_entry_lock)"));
	assert_non_null(strstr(t, "DEFINE_LOCK(arch_process_lock)"));
	assert_non_null(strstr(t, "acquire_lock_t(&arch_process_lock)"));
	free(t);
	/* a spinlock_t * that may hold a lock that spins keeps its type */
	t = file_of("kernel/lock_shared.c");
	assert_non_null(strstr(t, "DEFINE_RAW_SPINLOCK(shared_partner_lock)"));
	assert_non_null(strstr(t, "static raw_spinlock_t *shared_lock_of("));
	assert_non_null(strstr(t, "raw_spinlock_t *lock = shared_lock_of("));
	assert_non_null(strstr(t, "static void shared_count(lock_t *lock)"));
	/* the initialiser a macro's macro writes */
	assert_non_null(strstr(t, ".lock	= __RAW_SPIN_LOCK_UNLOCKED(name.lock) }"));
	/* the unlock a macro's macro writes */
	assert_non_null(strstr(t, "#define shared_do_unlock(ptr, member)\t"
				  "raw_spin_unlock(&(ptr)->member)"));
	/* a parameter named like a kept lock that holds none */
	assert_non_null(strstr(t, "static void shared_walk_one(lock_t "
				  "*shared_irqsoff_lock)"));
	/* and under an #ifdef the scan's configuration leaves out */
	assert_non_null(strstr(t, "#ifdef CONFIG_SHARED_DEBUG\nstatic "
				  "raw_spinlock_t *shared_lock_of(int which);"));
	assert_non_null(strstr(t, "\traw_spin_lock(&shared_partner_lock);\n"
				  "\tshared_events[1]++;\n"
				  "\traw_spin_unlock(&shared_partner_lock);\n"
				  "\traw_spin_lock(shared_lock_of(0));"));
	/* there, a field name converted elsewhere but kept in this file */
	assert_non_null(strstr(t, "\traw_spin_lock(&q->lock);\n"));
	/* a lock pointer handed back through a spinlock_t ** parameter */
	assert_non_null(strstr(t, "static void shared_lock_out(raw_spinlock_t "
				  "**lockp)"));
	assert_non_null(strstr(t, "static void shared_lock_get(raw_spinlock_t "
				  "**lockp)"));
	assert_non_null(strstr(t, "\traw_spinlock_t *lock;\n\n"
				  "\tshared_lock_get(&lock);"));
	assert_non_null(strstr(t, "\traw_spin_lock(*lockp);"));
	free(t);
	/* a seqcount follows the kept lock it is given, not a converted one */
	t = file_of("fs/mini_seq.c");
	assert_non_null(strstr(t, "seqcount_raw_spinlock_t rtc_seq = "
				  "SEQCNT_RAW_SPINLOCK_ZERO(rtc_seq, &rtc_lock);"));
	assert_non_null(strstr(t, "static seqcount_spinlock_t sb_seq;"));
	assert_non_null(strstr(t, "seqcount_lock_init(&sb_seq, &sb_lock);"));
	/* a name two seqcounts have: each follows the locks near it */
	assert_non_null(strstr(t, "seqcount_raw_spinlock_init(&o->seq, &rtc_lock);"));
	/* a lock spelt through a macro (d_lock): the seqcount follows it */
	assert_non_null(strstr(t, "seqcount_raw_spinlock_init(&d->m_seq, &d->m_lock);"));
	/* "lock" of its own record, kept where another record's converts */
	assert_non_null(strstr(t, "\tseqcount_raw_spinlock_t period_seq;"));
	assert_non_null(strstr(t, "seqcount_raw_spinlock_init(&p->period_seq, &p->lock);"));
	free(t);
	t = file_of("include/linux/mini_seq.h");
	assert_non_null(strstr(t, "\tseqcount_raw_spinlock_t seq;"));
	assert_non_null(strstr(t, "extern seqcount_raw_spinlock_t rtc_seq;"));
	assert_non_null(strstr(t, "\tseqcount_raw_spinlock_t m_seq;"));
	free(t);
	t = file_of("fs/mini_seq_sb.c");
	assert_non_null(strstr(t, "\tseqcount_spinlock_t seq;"));
	assert_non_null(strstr(t, "SEQCNT_LOCK_ZERO(mini_sb_stats.seq, &sb_lock)"));
	assert_non_null(strstr(t, "seqcount_lock_init(&s->seq, &sb_lock);"));
	free(t);
	t = file_of("include/linux/lock.h");
	assert_non_null(strstr(t, "RT_SUBST"));
	free(t);
	t = file_of("include/linux/spinlock.h");
	assert_non_null(strstr(t, "#include <linux/lock.h>"));
	free(t);
	t = file_of("lib/Kconfig.debug");
	assert_non_null(strstr(t, "config DEBUG_LOCK_T_TYPECHECK"));
	free(t);
}

/*
 * Every converted file type-checks, plain and with DEBUG_LOCK_T_TYPECHECK,
 * a pointer of the wrong lock type an error, as kbuild makes it (a .c
 * file another one includes, through the one that includes it).
 */
static void type_checks(void **state)
{
	int rc;

	(void)state;
	rc = run(NULL,
		 "cd %s/tree && for f in $(find . -name '*.c' ! -path "
		 "'./kernel/locking/*'); do grep -qs \"#include \\\"$(basename "
		 "$f)\\\"\" $(dirname $f)/*.c && continue; for tc in '' "
		 "-DCONFIG_DEBUG_LOCK_T_TYPECHECK; do clang -fsyntax-only $tc "
		 "-Werror=incompatible-pointer-types -nostdinc -Iinclude -Iarch/x86/include -include "
		 "include/linux/kconfig.h -D__KERNEL__ -I$(dirname $f) $f || "
		 "exit 1; done; done",
		 work);
	assert_int_equal(rc, 0);
	/* and the type check does catch a spinlock_t call on a lock_t */
	rc = run(NULL,
		 "cd %s/tree && sed 's/acquire_lock_t(&arch_process_lock)/"
		 "spin_lock(\\&arch_process_lock)/' arch/x86/kernel/irq.c > "
		 "/tmp/rtlock-tc.c && clang -fsyntax-only "
		 "-Werror=incompatible-pointer-types "
		 "-DCONFIG_DEBUG_LOCK_T_TYPECHECK -nostdinc -Iinclude "
		 "-Iarch/x86/include -include include/linux/kconfig.h "
		 "-D__KERNEL__ /tmp/rtlock-tc.c",
		 work);
	assert_int_not_equal(rc, 0);
	unlink("/tmp/rtlock-tc.c");
}

/* lock.h's guard classes, where cleanup.h defines DEFINE_LOCK_GUARD_1 */
static int compile_guards(const char *opts)
{
	return run(NULL, "clang -fsyntax-only -Werror=incompatible-pointer-types "
			 "%s -nostdinc -I%s/tree/include -I%s/tree/arch/x86/include "
			 "-include %s/tree/include/linux/kconfig.h -D__KERNEL__ "
			 "tests/e2e/data/guards.c",
		   opts, work, work, work);
}

static void guard_classes(void **state)
{
	(void)state;
	assert_int_equal(compile_guards(""), 0);
	assert_int_equal(compile_guards("-DCONFIG_DEBUG_LOCK_T_TYPECHECK"), 0);
	/* and a lock_t class on a spinlock_t is an error there */
	assert_int_equal(compile_guards("-DWRONG_LOCK"), 0);
	assert_int_not_equal(compile_guards("-DWRONG_LOCK "
					    "-DCONFIG_DEBUG_LOCK_T_TYPECHECK"), 0);
}

/* Converting the converted tree changes nothing. */
static void idempotent(void **state)
{
	(void)state;
	assert_int_equal(run(NULL, "%s convert -q --no-whitelist -C %s/cache2 "
				   "-o %s/meta2 --tree-out %s/tree2 %s/tree",
			     RTLOCK, work, work, work, work),
			 0);
	assert_int_equal(run(NULL, "diff -r %s/tree %s/tree2", work, work), 0);
}

static void refuses(void **state)
{
	char *err, *git = xasprintf("%s/git", work);
	int rc;

	(void)state;
	/* an existing output directory */
	rc = run(&err, "%s convert -q -C %s/cache -o %s/m3 --tree-out %s/tree %s",
		 RTLOCK, work, work, work, FIXTURE);
	assert_int_equal(rc, 3);
	assert_non_null(strstr(err, "already exists"));
	free(err);
	/* --in-place on a checkout with uncommitted changes */
	copy_tree(FIXTURE, git);
	assert_int_equal(run(NULL, "cd %s && git init -q && git add -A && git "
				   "-c user.name=t -c user.email=t@t commit -qm "
				   "base && echo '/* x */' >> lib/obj_hash.c",
			     git),
			 0);
	before = (free(before), tree_digest(git));
	rc = run(&err, "%s convert -q -C %s/cache -o %s/m4 --in-place %s",
		 RTLOCK, work, work, git);
	assert_int_equal(rc, 3);
	assert_non_null(strstr(err, "uncommitted changes"));
	free(err);
	err = tree_digest(git);
	assert_string_equal(before, err);
	free(err);
	/* a name lock.h defines is already used in the tree */
	assert_int_equal(run(NULL, "cd %s && git checkout -q . && echo 'int "
				   "acquire_lock_t;' >> lib/obj_hash.c && "
				   "git commit -qam x",
			     git),
			 0);
	rc = run(&err, "%s convert -q -C %s/cache -o %s/m5 --in-place %s",
		 RTLOCK, work, work, git);
	assert_int_equal(rc, 3);
	assert_non_null(strstr(err, "already uses 'acquire_lock_t'"));
	free(err);
	free(git);
}

static int nlines(const char *s)
{
	int n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/* Has process @pid ended (a zombie waiting for init counts)? 2 s at most. */
static bool ended(long pid)
{
	char *stat = xasprintf("/proc/%ld/stat", pid), *t;
	int i;
	bool gone = false;

	for (i = 0; i < 40 && !gone; i++) {
		t = read_file(stat, NULL);
		gone = !t || strstr(t, ") Z ");
		free(t);
		if (!gone)
			usleep(50 * 1000);
	}
	free(stat);
	return gone;
}

/*
 * spatch crashing on one file, or hanging on it: that file is listed,
 * reported on stderr and left unconverted; nothing spatch started stays.
 */
static void spatch_fault(void **state)
{
	char *wrap = xasprintf("%s/spatch-crash", work), *text, *err, *pidf;
	char *in = tree_digest(FIXTURE), *dig;
	json_t *res, *f;
	long pid;
	int rc;

	(void)state;
	text = xasprintf("#!/bin/sh\ncase " SPATCH_FILES " in *lib/obj_hash.c*) "
			 "kill -SEGV $$;; esac\nexec spatch \"$@\"\n");
	assert_int_equal(write_file_atomic(wrap, text, strlen(text)), 0);
	assert_int_equal(run(NULL, "chmod +x %s", wrap), 0);
	rc = run(&err, "RTLOCK_SPATCH=%s %s convert -q -C %s/c6 -o %s/m6 "
		       "--tree-out %s/t6 %s",
		 wrap, RTLOCK, work, work, work, FIXTURE);
	assert_int_equal(rc, 1);
	assert_int_equal(nlines(err), 1);
	assert_non_null(strstr(err, "rtlock: warning: lib/obj_hash.c: not "
				    "converted: failed (exit 3), see "));
	free(err);
	/* the log it points to says why */
	assert_int_equal(run(NULL, "grep -q 'spatch-crash: killed by signal "
				   "11' %s/m6/logs/batch-*.log", work),
			 0);
	res = load_json("%s/m6/convert.json", work);
	f = json_object_get(res, "failed");
	assert_int_equal(json_array_size(f), 1);
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(f, 0), "file")),
			    "lib/obj_hash.c");
	/* left as it was, not half done */
	assert_int_equal(run(NULL, "cmp %s/lib/obj_hash.c "
				   "%s/t6/lib/obj_hash.c",
			     FIXTURE, work),
			 0);
	json_decref(res);
	free(text);
	/*
	 * Hanging: killed at the time limit with what it started.  With the
	 * cache of the run above, this file is all there is to convert.
	 */
	pidf = xasprintf("%s/spatch.pid", work);
	text = xasprintf("#!/bin/sh\ncase " SPATCH_FILES " in *lib/obj_hash.c*) "
			 "echo $$ > %s; exec sleep 300;;\nesac\n"
			 "exec spatch \"$@\"\n", pidf);
	assert_int_equal(write_file_atomic(wrap, text, strlen(text)), 0);
	assert_int_equal(run(NULL, "chmod +x %s", wrap), 0);
	rc = run(&err, "RTLOCK_SPATCH=%s %s convert -q --timeout 0.2 -C %s/c6 "
		       "-o %s/m8 --tree-out %s/t8 %s",
		 wrap, RTLOCK, work, work, work, FIXTURE);
	assert_int_equal(rc, 1);
	assert_int_equal(nlines(err), 1);
	assert_non_null(strstr(err, "rtlock: warning: lib/obj_hash.c: not "
				    "converted: timeout after 0."));
	free(err);
	res = load_json("%s/m8/convert.json", work);
	f = json_object_get(res, "failed");
	assert_int_equal(json_array_size(f), 1);
	assert_int_equal(run(NULL, "cmp %s/lib/obj_hash.c "
				   "%s/t8/lib/obj_hash.c",
			     FIXTURE, work),
			 0);
	json_decref(res);
	text = (free(text), read_file(pidf, NULL));
	assert_non_null(text);
	pid = atol(text);
	assert_true(pid > 0);
	assert_true(ended(pid));
	free(text);
	free(pidf);
	free(wrap);
	/* spatch missing altogether */
	assert_int_equal(run(NULL, "RTLOCK_SPATCH=/nonexistent/spatch %s "
				   "convert -q -C %s/c7 -o %s/m7 --tree-out "
				   "%s/t7 %s",
			     RTLOCK, work, work, work, FIXTURE),
			 4);
	/* and the input was only read */
	dig = tree_digest(FIXTURE);
	assert_string_equal(in, dig);
	free(dig);
	free(in);
}

int test_convert(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(converted),
		cmocka_unit_test(type_checks),
		cmocka_unit_test(guard_classes),
		cmocka_unit_test(idempotent),
		cmocka_unit_test(refuses),
		cmocka_unit_test(spatch_fault),
	};
	return cmocka_run_group_tests_name("convert", tests, setup, teardown);
}
