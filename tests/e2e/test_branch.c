// SPDX-License-Identifier: GPL-2.0
/*
 * rtlock branch on a git checkout of the fixture: the commit series, its
 * reproducibility, that the user's checkout is untouched, the refusals,
 * and a release that is not a git checkout.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e.h"
#include "util.h"

#define PATCHES "tests/fixtures/patches"
#define IDENT_A "--base v6.1 --identity 'A U Thor <a@example.org>'"

static char *work, *repo, *before;

/* The standard output of a shell command run in the checkout. */
static char *git_out(const char *fmt, const char *arg)
{
	char *cmd = xasprintf(fmt, arg), *path = xasprintf("%s/cmd.out", work);
	char *out;

	assert_int_equal(run(NULL, "cd %s && { %s; } > %s", repo, cmd, path), 0);
	out = read_file(path, NULL);
	assert_non_null(out);
	free(cmd);
	free(path);
	return out;
}

/* HEAD, index, branches other than rt-*, and every file of the checkout. */
static char *checkout_state(void)
{
	return git_out("git rev-parse HEAD; git symbolic-ref HEAD; git "
		       "for-each-ref | grep -v refs/heads/rt-%s; git ls-files "
		       "-s; git status --porcelain; find . -path ./.git -prune -o "
		       "-type f -print0 | sort -z | xargs -0 sha1sum", "");
}

static int branch(char **err, const char *name, const char *extra)
{
	return run(err, "%s branch -q -C %s/cache -o %s/out-%s --patches %s "
			"--name %s %s %s",
		   RTLOCK, work, work, name, PATCHES, name, extra, repo);
}

static int setup(void **state)
{
	(void)state;
	work = tmpdir();
	repo = xasprintf("%s/linux", work);
	copy_tree(FIXTURE, repo);
	if (run(NULL, "cd %s && git init -q && git add -A && "
		      "GIT_AUTHOR_DATE='1700000000 +0000' "
		      "GIT_COMMITTER_DATE='1700000000 +0000' git -c user.name=t "
		      "-c user.email=t@t commit -qm base && git tag v6.1",
		repo))
		return -1;
	before = checkout_state();
	return branch(NULL, "rt-a", IDENT_A);
}

static int teardown(void **state)
{
	(void)state;
	remove_tree(work);
	free(work);
	free(repo);
	free(before);
	return 0;
}

static void series(void **state)
{
	char *log = git_out("git log --reverse --format=%%s v6.1..%s", "rt-a");
	char *after;

	(void)state;
	/* lock.h first, then the conversion, the kept locks, the workqueue */
	assert_true(has_prefix(log, "locking: Add lock_t, the lock that may "
				    "sleep on PREEMPT_RT\narch: Convert"));
	assert_true(strstr(log, "kernel: Convert spinlock_t to lock_t") <
		    strstr(log, "locking: Keep the hardirq locks spinning"));
	assert_true(strstr(log, "locking: Keep the hardirq locks spinning") <
		    strstr(log, "locking: Keep the nested locks spinning"));
	assert_true(strstr(log, "locking: Keep the nested locks spinning") <
		    strstr(log, "locking: Keep the shared locks spinning"));
	assert_true(has_suffix(log, "\nworkqueue: Add priority queueing and "
				    "priority inheritance\n"));
	free(log);
	log = git_out("git log -1 --format=%%an%%n%%b rt-a~2 && "
		      "git log -1 --format=%%ad --date=raw %s~2", "rt-a");
	assert_non_null(strstr(log, "A U Thor"));
	assert_non_null(strstr(log, "Signed-off-by: A U Thor <a@example.org>"));
	assert_non_null(strstr(log, "kernel/lock_nesting.c:nest_ops_lock"));
	assert_non_null(strstr(log, "ptr-call"));
	free(log);
	/* a shared lock's evidence names the declaration it shares */
	log = git_out("git log -1 --format=%%b %s~1", "rt-a");
	assert_non_null(strstr(log, "kernel/lock_shared.c:shared_partner_lock"));
	assert_non_null(strstr(log, "kernel/lock_shared.c:209"));
	free(log);
	/* the user's checkout: same HEAD, index, files; only a new branch */
	after = checkout_state();
	assert_string_equal(before, after);
	free(after);
	/* the series: a cover letter and one patch per commit */
	assert_int_equal(run(NULL, "test $(ls %s/out-rt-a/series | wc -l) = "
				   "$(($(cd %s && git rev-list --count v6.1..rt-a)"
				   " + 1))",
			     work, repo),
			 0);
	assert_int_equal(run(NULL, "grep -q 'Subject: \\[PATCH 00/.*PREEMPT_RT: "
				   "lock_t for Linux 6.1.0' %s/out-rt-a/series/"
				   "0000-cover-letter.patch",
			     work),
			 0);
}

/* The branch minus the workqueue patch is what rtlock convert writes. */
static void same_as_convert(void **state)
{
	(void)state;
	assert_int_equal(run(NULL, "%s convert -q -C %s/cache -o %s/cv "
				   "--tree-out %s/converted %s",
			     RTLOCK, work, work, work, repo),
			 0);
	assert_int_equal(run(NULL, "mkdir %s/b && cd %s && git archive rt-a~1 | "
				   "tar -x -C %s/b && diff -r -x .git %s/b "
				   "%s/converted",
			     work, repo, work, work, work),
			 0);
}

/* Do branches @x and @y have the same head? */
static bool same_head(const char *x, const char *y)
{
	char *a = git_out("git rev-parse %s", x), *b = git_out("git rev-parse %s", y);
	bool same = !strcmp(a, b);

	free(a);
	free(b);
	return same;
}

static void reproducible(void **state)
{
	char *records = xasprintf("%s/cache/branches", work);

	(void)state;
	/* built again, not taken from rt-a's record */
	remove_tree(records);
	free(records);
	assert_int_equal(branch(NULL, "rt-b", IDENT_A), 0);
	assert_int_equal(branch(NULL, "rt-a", "--force " IDENT_A), 0);
	assert_true(same_head("rt-a", "rt-b"));
	assert_int_equal(run(NULL, "diff -r %s/out-rt-a/series %s/out-rt-b/series",
			     work, work),
			 0);
}

/* out-NAME/branch.json has "reused": @reused and rt-a's head. */
static void assert_reused(const char *name, bool reused)
{
	char *path = xasprintf("%s/out-%s/branch.json", work, name);
	char *json = read_file(path, NULL), *head = git_out("git rev-parse %s", "rt-a");

	assert_non_null(json);
	assert_non_null(strstr(json, reused ? "\"reused\": true" :
					      "\"reused\": false"));
	head[strcspn(head, "\n")] = '\0';
	assert_non_null(strstr(json, head));
	free(head);
	free(json);
	free(path);
}

/*
 * The same inputs again: rt-a's commits taken from its record; a record
 * whose head the repository lacks, or other inputs, build again.
 */
static void reused(void **state)
{
	(void)state;
	assert_int_equal(branch(NULL, "rt-r1", IDENT_A), 0);
	assert_reused("rt-r1", true);
	assert_int_equal(run(NULL, "sed -i 's/\"head\": \"[0-9a-f]*/\"head"
				   "\": \"%040d/' %s/cache/branches/*.json",
			     0, work),
			 0);
	assert_int_equal(branch(NULL, "rt-r2", IDENT_A), 0);
	assert_reused("rt-r2", false);
	assert_int_equal(branch(NULL, "rt-r3", "--base v6.1 --identity 'B U "
					       "Thor <b@example.org>'"),
			 0);
	assert_false(same_head("rt-a", "rt-r3"));
}

/*
 * A folder split by subfolder: one commit for its own files (kernel/x.c
 * sort between kernel/irq/ and kernel/sched/), one per subfolder; the
 * same tree at the end.
 */
static void split(void **state)
{
	char *log, *p;

	(void)state;
	assert_int_equal(branch(NULL, "rt-s", "--base v6.1 --split-over 8"), 0);
	log = git_out("git log --reverse --format=%%s v6.1..%s", "rt-s");
	p = strstr(log, "\nkernel: Convert spinlock_t to lock_t\n");
	assert_non_null(p);
	assert_null(strstr(p + 1, "\nkernel: Convert spinlock_t to lock_t\n"));
	assert_true(strstr(log, "\nkernel/irq: Convert") > p);
	assert_true(strstr(log, "\nkernel/sched: Convert") > p);
	free(log);
	log = git_out("git diff --stat rt-a rt-%s", "s");
	assert_string_equal(log, "");
	free(log);
}

static void refuses(void **state)
{
	char *err, *after;
	int rc;

	(void)state;
	rc = branch(&err, "rt-a", "--base v6.1");
	assert_int_equal(rc, 3);
	assert_non_null(strstr(err, "already exists"));
	free(err);
	rc = branch(&err, "rt-c", "--base no-such-tag");
	assert_int_equal(rc, 3);
	assert_non_null(strstr(err, "base revision 'no-such-tag' does not exist"));
	free(err);
	rc = branch(&err, "bad..name", "");
	assert_int_equal(rc, 3);
	assert_non_null(strstr(err, "not a valid branch name"));
	free(err);
	rc = run(&err, "%s branch -q -C %s/cache -o %s/o --patches %s/none "
		       "--name rt-d %s",
		 RTLOCK, work, work, work, repo);
	assert_int_equal(rc, 3);
	assert_non_null(strstr(err, "no workqueue priority-inheritance port for "
				    "Linux 6.1.0"));
	free(err);
	/* a checked-out branch is never moved, even with --force */
	assert_int_equal(run(NULL, "cd %s && git checkout -q rt-b", repo), 0);
	rc = branch(&err, "rt-b", "--force");
	assert_int_equal(rc, 3);
	assert_non_null(strstr(err, "is checked out"));
	free(err);
	assert_int_equal(run(NULL, "cd %s && git checkout -q -", repo), 0);
	after = checkout_state();
	assert_string_equal(before, after);
	free(after);
}

/* Uncommitted changes: a warning, the branch from the commit, all kept. */
static void dirty(void **state)
{
	char *err, *st, *a, *b;

	(void)state;
	assert_int_equal(run(NULL, "cd %s && echo '/* x */' >> lib/obj_hash.c",
			     repo),
			 0);
	st = checkout_state();
	assert_int_equal(branch(&err, "rt-e", "--base v6.1 --identity "
					      "'A U Thor <a@example.org>'"),
			 0);
	assert_non_null(strstr(err, "has uncommitted changes"));
	free(err);
	a = checkout_state();
	assert_string_equal(st, a);	/* the change is still there */
	b = git_out("git rev-parse rt-e rt-a", "");
	assert_int_equal(strncmp(b, strchr(b, '\n') + 1, 40), 0);
	assert_int_equal(run(NULL, "cd %s && git checkout -q .", repo), 0);
	free(st);
	free(a);
	free(b);
}

/* An unpacked release gets a repository of its own in OUT/repo.git. */
static void release(void **state)
{
	char *rel = xasprintf("%s/release", work), *d, *err, *git;

	(void)state;
	copy_tree(FIXTURE, rel);
	d = tree_digest(rel);
	assert_int_equal(run(NULL, "%s branch -q -C %s/cache -o %s/out-rel "
				   "--patches %s --name rt %s",
			     RTLOCK, work, work, PATCHES, rel),
			 0);
	git = xasprintf("git --git-dir=%s/out-rel/repo.git log --format=%%%%s rt",
			work);
	err = git_out(git, "");
	free(git);
	assert_true(has_suffix(err, "\nLinux 6.1.0\n"));
	assert_true(has_prefix(err, "workqueue: "));
	free(err);
	err = tree_digest(rel);
	assert_string_equal(d, err);
	free(err);
	err = xasprintf("%s/.git", rel);
	assert_false(is_dir(err));
	free(err);
	/*
	 * A new OUT on the same cache (the release's objects and the series
	 * come from it): the same head and series, in a repository that
	 * stands alone.
	 */
	assert_int_equal(run(NULL, "%s branch -q -C %s/cache -o %s/out-rel2 "
				   "--patches %s --name rt %s",
			     RTLOCK, work, work, PATCHES, rel),
			 0);
	git = xasprintf("for o in out-rel out-rel2; do git --git-dir=%s/$o/repo.git "
			"rev-parse rt; done", work);
	err = git_out(git, "");
	free(git);
	assert_int_equal(strlen(err), 2 * 41);
	assert_memory_equal(err, err + 41, 41);
	free(err);
	assert_int_equal(run(NULL, "test ! -e %s/out-rel2/repo.git/objects/info/alternates "
				   "&& git --git-dir=%s/out-rel2/repo.git fsck --no-dangling rt >/dev/null "
				   "&& diff -r %s/out-rel/series %s/out-rel2/series",
			     work, work, work, work),
			 0);
	free(d);
	free(rel);
}

/* A port that does not apply: the rejected hunk named, no branch made. */
/* Are rt-@name's patches git format-patch's of @base..rt-@name? */
static bool patches_as_git_writes(const char *base, const char *name)
{
	return !run(NULL, "cd %s && rm -rf %s/fp && git format-patch -q "
			  "--numbered --no-signature --full-index --no-renames "
			  "-o %s/fp %s..rt-%s && cd %s/out-rt-%s/series && "
			  "test $(ls | wc -l) = $(($(ls %s/fp | wc -l) + 1)) && "
			  "for f in %s/fp/*; do cmp -s $f ${f##*/} || exit 1; done",
		    repo, work, work, base, name, work, name, work, work);
}

/* The number of patches the cache holds. */
static unsigned cached_patches(void)
{
	char *n = git_out("find %s/cache/patches -type f | wc -l", work);
	unsigned v = (unsigned)strtoul(n, NULL, 10);

	free(n);
	return v;
}

/*
 * The patches are git's byte for byte, whether git formatted them all at
 * once (rt-a, a cold cache), or they come from the cache under their
 * commits' new names, or git formatted them one by one: on a new base of
 * the same date (the series' dates follow it) with one converted file
 * changed, only its folder's commit is new.
 */
static void patches_reused(void **state)
{
	unsigned before, n;
	char *err;

	(void)state;
	assert_true(patches_as_git_writes("v6.1", "a"));
	before = cached_patches();
	assert_int_equal(run(NULL, "cd %s && export GIT_INDEX_FILE=%s/next.idx "
				   "GIT_COMMITTER_DATE='1700000000 +0000' "
				   "GIT_AUTHOR_DATE='1700000000 +0000' && git read-tree v6.1 && b=$({ git show "
				   "v6.1:kernel/panic.c; echo '/* next */'; } | "
				   "git hash-object -w --stdin) && git "
				   "update-index --cacheinfo 100644,$b,"
				   "kernel/panic.c && c=$(git commit-tree -p v6.1 "
				   "-m next $(git write-tree)) && git tag "
				   "v6.1-next $c",
			     repo, work),
			 0);
	assert_int_equal(branch(NULL, "rt-n", "--base v6.1-next --identity "
					      "'A U Thor <a@example.org>'"),
			 0);
	assert_true(patches_as_git_writes("v6.1-next", "n"));
	n = cached_patches() - before;
	assert_int_equal(n, 1);
	assert_int_equal(run(NULL, "test $(jq .patches_reused %s/out-rt-n/"
				   "branch.json) = $(($(ls %s/out-rt-n/series | "
				   "wc -l) - 2))", work, work),
			 0);
	/* a corrupt entry is said, dropped and formatted again */
	assert_int_equal(run(NULL, "rm -rf %s/cache/series && for f in $(find "
				   "%s/cache/patches -type f); do echo x >> $f; "
				   "done", work, work),
			 0);
	assert_int_equal(branch(&err, "rt-n2", "--base v6.1-next "
					      "--identity 'A U Thor "
					      "<a@example.org>'"),
			 0);
	assert_non_null(strstr(err, "corrupt cache entry ignored (checksum "
				    "mismatch)"));
	free(err);
	assert_true(patches_as_git_writes("v6.1-next", "n2"));
}

static void patch_rejected(void **state)
{
	char *dir = xasprintf("%s/bad-patches/6.1", work), *path, *err, *after;
	static const char patch[] =
		"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
		"From: A U Thor <a@example.org>\n"
		"Subject: [PATCH] workqueue: stale port\n"
		"\n"
		"---\n"
		"diff --git a/kernel/cpu_stats.c b/kernel/cpu_stats.c\n"
		"--- a/kernel/cpu_stats.c\n"
		"+++ b/kernel/cpu_stats.c\n"
		"@@ -2,3 +2,4 @@\n"
		" this line is not in the file\n"
		" nor this one\n"
		"+added\n"
		" nor this\n";
	int rc;

	(void)state;
	assert_int_equal(run(NULL, "mkdir -p %s", dir), 0);
	path = xasprintf("%s/0001-workqueue-stale-port.patch", dir);
	assert_int_equal(write_file_atomic(path, patch, strlen(patch)), 0);
	rc = run(&err, "%s branch -q -C %s/cache -o %s/out-bad --patches "
		       "%s/bad-patches --name rt-bad %s",
		 RTLOCK, work, work, work, repo);
	assert_int_not_equal(rc, 0);
	assert_non_null(strstr(err, "0001-workqueue-stale-port.patch does not "
				    "apply to the converted Linux 6.1.0: hunks "
				    "rejected at kernel/cpu_stats.c:2"));
	free(err);
	after = checkout_state();
	assert_string_equal(before, after);
	assert_int_not_equal(run(NULL, "cd %s && git rev-parse -q --verify "
				       "rt-bad", repo),
			     0);
	free(after);
	free(path);
	free(dir);
}

int test_branch(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(series),
		cmocka_unit_test(same_as_convert),
		cmocka_unit_test(reproducible),
		cmocka_unit_test(reused),
		cmocka_unit_test(split),
		cmocka_unit_test(refuses),
		cmocka_unit_test(dirty),
		cmocka_unit_test(release),
		cmocka_unit_test(patch_rejected),
		cmocka_unit_test(patches_reused),
	};
	return cmocka_run_group_tests_name("branch", tests, setup, teardown);
}
