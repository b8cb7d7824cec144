// SPDX-License-Identifier: GPL-2.0
#include "branch.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert.h"
#include "fastimport.h"
#include "hash.h"
#include "pool.h"
#include "record.h"
#include "series.h"
#include "tree.h"
#include "version.h"

/* A top-level folder with more converted files is split one level down. */
#define GROUP_MAX_FILES 250
/* the fast-import stream's ref, deleted once the commits are written */
#define SERIES_REF "refs/rtlock/series"
/* A kept-locks commit gives the whole chain of this many locks. */
#define EVIDENCE_MAX_LOCKS 200

static int git_error(struct branch *b, const char *what)
{
	char *e = git_last_error(&b->g);

	error("%s: %s", what, e);
	free(e);
	return -1;
}

/* ---- identity, dates ---- */

static void set_identity(struct branch *b, struct git *user)
{
	const char *id = b->o->identity ? b->o->identity : getenv("RTLOCK_IDENTITY");
	const char *lt;

	if (id && *id && (lt = strchr(id, '<')) && strchr(lt, '>')) {
		const char *end = lt;

		while (end > id && end[-1] == ' ')
			end--;
		b->name = xstrndup(id, end - id);
		b->mail = xstrndup(lt + 1, strchr(lt, '>') - lt - 1);
		return;
	}
	/* the repository's own user.name/user.email, else a fixed one */
	b->name = user ? git_read(user, "config", "user.name", NULL) : NULL;
	b->mail = user ? git_read(user, "config", "user.email", NULL) : NULL;
	if (!b->name || !*b->name || !b->mail || !*b->mail) {
		free(b->name);
		free(b->mail);
		b->name = xstrdup("rtlock");
		b->mail = xstrdup("rtlock@localhost");
	}
}

/* Author @an <@am> (NULL: the identity), committer the identity, at @t. */
static void set_env(struct branch *b, const char *an, const char *am,
		    long long t)
{
	unsigned i = 0;

	b->g.env[i++] = xasprintf("GIT_AUTHOR_NAME=%s", an ? an : b->name);
	b->g.env[i++] = xasprintf("GIT_AUTHOR_EMAIL=%s", an ? am : b->mail);
	b->g.env[i++] = xasprintf("GIT_AUTHOR_DATE=%lld +0000", t);
	b->g.env[i++] = xasprintf("GIT_COMMITTER_NAME=%s", b->name);
	b->g.env[i++] = xasprintf("GIT_COMMITTER_EMAIL=%s", b->mail);
	b->g.env[i++] = xasprintf("GIT_COMMITTER_DATE=%lld +0000", t);
}

static void clear_env(struct branch *b)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(b->g.env); i++) {
		free((char *)b->g.env[i]);
		b->g.env[i] = NULL;
	}
}

/* ---- the repository and the base ---- */

static char *toplevel_git_dir(const char *kernel, const char *log)
{
	char *argv[] = { "git", "-C", (char *)kernel, "rev-parse",
			 "--show-toplevel", "--absolute-git-dir", NULL };
	const char *env[] = { "LC_ALL=C", NULL };
	struct sb out = SB_INIT;
	struct command c = { .argv = argv, .env = env, .out = &out, .log = log };
	char *top, *gd = NULL, *nl, *real = abs_path(kernel);

	if (!run_cmd(&c) && (nl = strchr(sb_str(&out), '\n'))) {
		top = xstrndup(out.buf, nl - out.buf);
		gd = xstrdup(nl + 1);
		gd[strcspn(gd, "\n")] = '\0';
		if (!real || strcmp(top, real)) {
			free(gd);
			gd = NULL;
		}
		free(top);
	}
	free(real);
	sb_release(&out);
	return gd;
}

/*
 * A repository for an unpacked release: OUT/repo.git.  The release's files
 * are read into a repository of the cache, CACHE/releases/<path hash>.git,
 * whose index is kept between runs (git re-reads only the files whose
 * stat data changed: all of 6.1 takes 36 s, none 0.4 s) and whose objects
 * are packed; OUT/repo.git gets the packs as hard links (copies across
 * file systems), so a new OUT costs no re-reading and stands alone.  The
 * branch's packs go back to it (branch_build()) for the next new OUT.
 */
static int release_init(struct branch *b)
{
	char *abs = abs_path(b->o->kernel), h[HASH_HEX];
	struct git rel = b->g;

	b->tree_dir = abs;
	hash_buf(abs, strlen(abs), h);
	b->release_dir = xasprintf("%s/releases/%.16s.git", b->cache, h);
	b->git_dir = xasprintf("%s/repo.git", b->out);
	b->g.git_dir = b->git_dir;
	rel.git_dir = b->release_dir;
	if (!is_dir(b->release_dir) &&
	    (mkdir_p(b->release_dir) < 0 ||
	     git_run(&rel, NULL, NULL, "init", "-q", "--bare", NULL)))
		return git_error(b, b->release_dir);
	if (!is_dir(b->git_dir) &&
	    git_run(&b->g, NULL, NULL, "init", "-q", "--bare", NULL))
		return git_error(b, b->git_dir);
	set_identity(b, NULL);
	return 0;
}

/* The packs of repository @from that @to lacks, hard-linked (or copied). */
static int link_packs(const char *from, const char *to)
{
	static const char *const packs[] = { ".pack", ".idx", NULL };
	char *from_dir = xasprintf("%s/objects/pack", from);
	char *to_dir = xasprintf("%s/objects/pack", to);
	int rc = copy_dir(from_dir, to_dir, true, packs);

	if (rc < 0)
		error("%s: %s", to_dir, strerror(errno));
	free(from_dir);
	free(to_dir);
	return rc;
}

/*
 * The release's tree in the release repository, its loose objects packed
 * (a ref keeps them reachable), and the packs linked into OUT/repo.git.
 */
static char *release_tree(struct branch *b)
{
	char *index = xasprintf("%s/rtlock-release.index", b->release_dir);
	char *lock = xasprintf("%s.lock", index);
	char *tree = NULL, *commit = NULL, *count;
	struct git rel;
	int rc;

	/* left by a killed run; git removes its own on a signal it catches */
	unlink(lock);
	free(lock);
	set_env(b, NULL, NULL, b->base_time);
	rel = b->g;
	rel.git_dir = b->release_dir;
	rel.index = index;
	rel.work_tree = rel.cwd = b->tree_dir;
	/*
	 * Every blob straight into a pack (git's bulk check-in for files over
	 * core.bigFileThreshold, on this command only: in a repository's
	 * config it makes diff call them binary), deflated fast: on 6.1,
	 * 28 s of CPU for the add and a 1 s repack, where loose objects
	 * packed again took 69 s.  The objects are the same.
	 */
	rc = git_run(&rel, NULL, NULL, "-c", "core.bigFileThreshold=1", "-c",
		     "pack.compression=1", "add", "-A", "-f", ".", NULL);
	rel.work_tree = rel.cwd = NULL;
	tree = rc ? NULL : git_read(&rel, "write-tree", NULL);
	count = tree ? git_read(&rel, "count-objects", NULL) : NULL;
	if (count && strtol(count, NULL, 10) > 0) {
		commit = git_read(&rel, "commit-tree", "-m", "rtlock release", tree,
				  NULL);
		rc = !commit || git_run(&rel, NULL, NULL, "update-ref",
					"refs/rtlock/release", commit, NULL) ||
		     git_run(&rel, NULL, NULL, "repack", "-d", "-q", "--window=0",
			     NULL);
	}
	clear_env(b);
	free(count);
	free(commit);
	free(index);
	if (!tree || rc) {
		git_error(b, "reading the release into the cache");
		free(tree);
		return NULL;
	}
	if (link_packs(b->release_dir, b->git_dir) < 0) {
		free(tree);
		return NULL;
	}
	return tree;
}

/* The release as the base commit, dated by its top Makefile. */
static int release_commit(struct branch *b, const char *version)
{
	struct stat st;
	char *mf = xasprintf("%s/Makefile", b->tree_dir);
	char *msg = xasprintf("%s/base-message", b->work), *text, *tree;
	int rc;

	b->base_time = stat(mf, &st) ? 0 : st.st_mtime;
	free(mf);
	tree = release_tree(b);
	if (!tree) {
		free(msg);
		return -1;
	}
	text = xasprintf("Linux %s\n\nThe unpacked release, as rtlock read "
			 "it.\n", version);
	if (!write_file_atomic(msg, text, strlen(text))) {
		set_env(b, NULL, NULL, b->base_time);
		b->base = git_read(&b->g, "commit-tree", "--no-gpg-sign", tree,
				   "-F", msg, NULL);
		clear_env(b);
	}
	rc = b->base ? 0 : git_error(b, "reading the release into a repository");
	free(text);
	free(tree);
	free(msg);
	return rc;
}

/* The base revision's files, exported once into the cache. */
static int export_base(struct branch *b)
{
	char *done = xasprintf("%s/trees/%s.done", b->cache, b->base);
	char *gd = xasprintf("GIT_DIR=%s", b->git_dir);
	char *argv[] = { "sh", "-c",
			 "git archive --format=tar \"$1\" | tar -C \"$2\" -xf -",
			 "sh", b->base, NULL, NULL };
	const char *env[] = { gd, "GIT_CONFIG_NOSYSTEM=1",
			      "GIT_CONFIG_GLOBAL=/dev/null", NULL };
	struct command c = { .argv = argv, .env = env, .log = b->log };
	int rc = 0;

	b->tree_dir = xasprintf("%s/trees/%s", b->cache, b->base);
	argv[5] = b->tree_dir;
	if (!is_file(done)) {
		remove_tree(b->tree_dir);
		if (mkdir_p(b->tree_dir) < 0)
			rc = error("%s: %s", b->tree_dir, strerror(errno));
		else if (run_cmd(&c))
			rc = git_error(b, "exporting the base revision");
		else if (write_file_atomic(done, b->base, strlen(b->base)) < 0)
			rc = error("%s: %s", done, strerror(errno));
	}
	free(done);
	free(gd);
	return rc;
}

/* Is refs/heads/NAME checked out in a worktree of the repository? */
static char *checked_out_in(struct branch *b)
{
	char *list = git_read(&b->g, "worktree", "list", "--porcelain", NULL);
	char *want = xasprintf("branch refs/heads/%s", b->o->name), *p, *wt = NULL;
	char *save = NULL;
	const char *last = NULL;

	for (p = list ? strtok_r(list, "\n", &save) : NULL; p;
	     p = strtok_r(NULL, "\n", &save)) {
		if (has_prefix(p, "worktree "))
			last = p + 9;
		else if (!strcmp(p, want) && last)
			wt = xstrdup(last);
	}
	free(want);
	free(list);
	return wt;
}

/* The branch is made from a commit: say so when the checkout differs. */
static void warn_uncommitted(struct branch *b)
{
	char *abs = abs_path(b->o->kernel);
	struct git g = b->g;
	char *st;

	g.index = NULL;
	g.work_tree = abs;
	g.cwd = abs;
	st = git_read(&g, "--no-optional-locks", "status", "--porcelain",
		      "--untracked-files=no", NULL);
	if (st && *st)
		warning("%s has uncommitted changes: the branch is made from "
			"%.12s, without them", b->o->kernel, b->base);
	free(st);
	free(abs);
}

static int check_name(struct branch *b)
{
	char *ref = xasprintf("refs/heads/%s", b->o->name), *wt;
	int rc = 0;

	if (git_run(&b->g, NULL, NULL, "check-ref-format", "--branch",
		    b->o->name, NULL)) {
		free(ref);
		return error("'%s' is not a valid branch name", b->o->name);
	}
	b->old = git_read(&b->g, "rev-parse", "--verify", "-q", ref, NULL);
	if (b->old && !*b->old) {
		free(b->old);
		b->old = NULL;
	}
	if (b->old && !b->o->force)
		rc = error("branch '%s' already exists (at %.12s); --force "
			   "replaces it", b->o->name, b->old);
	else if (b->old && (wt = checked_out_in(b))) {
		rc = error("branch '%s' is checked out in %s: rtlock never moves "
			   "a checked-out branch", b->o->name, wt);
		free(wt);
	}
	free(ref);
	return rc;
}

/* <patches>/<major>.<minor>/0001-*.patch for the tree's version. */
static int find_patch(struct branch *b, char *version, size_t size)
{
	struct tree t;
	char *dir, *ports = NULL;
	struct dirent *de;
	DIR *d;

	if (tree_open(&t, b->tree_dir, "x86") < 0)
		return -1;
	snprintf(version, size, "%s", t.version);
	dir = xasprintf("%s/%d.%d", b->o->patches, t.ver[0], t.ver[1]);
	d = opendir(dir);
	while (d && (de = readdir(d)))
		if (has_prefix(de->d_name, "0001-") &&
		    has_suffix(de->d_name, ".patch"))
			b->patch = xasprintf("%s/%s", dir, de->d_name);
	if (d)
		closedir(d);
	free(dir);
	if (!b->patch) {
		struct sb sb = SB_INIT;

		d = opendir(b->o->patches);
		while (d && (de = readdir(d)))
			if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
				sb_addf(&sb, "%s%s", sb.len ? ", " : "",
					de->d_name);
		if (d)
			closedir(d);
		ports = xstrdup(sb.len ? sb_str(&sb) : "none");
		sb_release(&sb);
		error("no workqueue priority-inheritance port for Linux %s in "
		      "%s (ports: %s)", t.version, b->o->patches, ports);
		free(ports);
	}
	tree_release(&t);
	return b->patch ? 0 : -1;
}

int branch_prepare(struct branch *b, const struct branch_opts *o)
{
	struct git user;
	char *gd, *rev;

	memset(b, 0, sizeof(*b));
	b->o = o;
	b->patches_reused = -1;
	b->commits = json_array();
	if (mkdir_p(o->out_dir) < 0 || mkdir_p(o->cache_dir) < 0) {
		error("%s: %s", is_dir(o->out_dir) ? o->cache_dir : o->out_dir,
		      strerror(errno));
		return EXIT_ENV;
	}
	/* absolute: git runs in other directories */
	b->out = abs_path(o->out_dir);
	b->cache = abs_path(o->cache_dir);
	b->work = xasprintf("%s/work", b->out);
	b->log = xasprintf("%s/git.log", b->work);
	b->index = xasprintf("%s/index", b->work);
	b->conv = xasprintf("%s/tree", b->work);
	if (mkdir_p(b->work) < 0) {
		error("%s: %s", b->work, strerror(errno));
		return EXIT_ENV;
	}
	unlink(b->log);
	b->g.log = b->log;
	b->g.index = b->index;
	if (!is_dir(o->kernel)) {
		error("%s: not a directory", o->kernel);
		return EXIT_INPUT;
	}
	gd = toplevel_git_dir(o->kernel, b->log);
	if (!gd) {
		if (o->base && strcmp(o->base, "HEAD")) {
			error("%s is not a git checkout: --base %s names nothing "
			      "(an unpacked release is its own base)", o->kernel,
			      o->base);
			return EXIT_INPUT;
		}
		if (release_init(b) < 0)
			return EXIT_ENV;
	} else {
		b->git_dir = gd;
		b->g.git_dir = gd;
		user = b->g;
		user.index = NULL;
		set_identity(b, &user);
		rev = xasprintf("%s^{commit}", o->base ? o->base : "HEAD");
		b->base = git_read(&b->g, "rev-parse", "--verify", "-q",
				   "--end-of-options", rev, NULL);
		free(rev);
		if (!b->base || !*b->base) {
			error("base revision '%s' does not exist in %s",
			      o->base ? o->base : "HEAD", o->kernel);
			return EXIT_INPUT;
		}
		rev = git_read(&b->g, "show", "-s", "--format=%ct", b->base, NULL);
		b->base_time = rev ? atoll(rev) : 0;
		free(rev);
		warn_uncommitted(b);
	}
	if (check_name(b) < 0)
		return EXIT_INPUT;
	if (gd && export_base(b) < 0)
		return EXIT_ENV;
	if (find_patch(b, b->version, sizeof(b->version)) < 0)
		return EXIT_INPUT;
	if (!gd && release_commit(b, b->version) < 0)
		return EXIT_ENV;
	b->head = xstrdup(b->base);
	return EXIT_OK;
}

/* ---- commits ---- */

static void trailers(struct branch *b, struct sb *msg)
{
	if (b->o->link)
		sb_addf(msg, "Link: %s\n", b->o->link);
	sb_addf(msg, "Signed-off-by: %s <%s>\n", b->name, b->mail);
}

/*
 * Commit what was staged on top of b->head, by @author (NULL: the
 * identity), dated base + n seconds.  A commit that changes nothing is
 * skipped.  The commits are written to the fast-import stream; their
 * names are known after fi_run() (b->head is ":MARK" until then).
 */
static int commit(struct branch *b, const char *subject, struct sb *body,
		  const char *author, const char *author_mail)
{
	char *who, *me;
	struct sb text = SB_INIT;
	unsigned mark;
	int rc;

	/* a signal stops the series here: the branch is only moved at the end */
	test_hold("commit", subject);
	if ((rc = scan_interrupted()))
		return rc;
	if (!fi_changed(&b->fi)) {
		if (!b->o->quiet)
			printf("branch: nothing for '%s', skipped\n", subject);
		return 0;
	}
	b->ncommits++;
	sb_addf(&text, "%s\n\n%s", subject, sb_str(body));
	if (text.buf[text.len - 1] != '\n')
		sb_adds(&text, "\n");
	who = xasprintf("%s <%s>", author ? author : b->name,
			author ? author_mail : b->mail);
	me = xasprintf("%s <%s>", b->name, b->mail);
	mark = fi_commit(&b->fi, SERIES_REF, b->head, who, me,
			 b->base_time + b->ncommits, sb_str(&text));
	if (mark) {
		free(b->head);
		b->head = xasprintf(":%u", mark);
		json_array_append_new(b->commits, json_pack("{siss}", "mark",
							    mark, "subject", subject));
	} else {
		rc = error("%s: %s", b->fi.path, strerror(errno));
	}
	free(who);
	free(me);
	sb_release(&text);
	return rc;
}

/* Stage @files (paths relative to the converted tree) for the next commit. */
static int stage(struct branch *b, json_t *files)
{
	json_t *f;
	size_t i;

	json_array_foreach(files, i, f)
		if (fi_stage(&b->fi, json_string_value(f)) < 0)
			return error("%s/%s: %s", b->conv, json_string_value(f),
				     strerror(errno));
	return 0;
}

/* Write the series' objects; the commits get their names. */
static int write_commits(struct branch *b)
{
	json_t *c;
	size_t i;
	int rc = fi_run(&b->fi, &b->g);

	if (rc < 0)
		return error("%s: %s", b->fi.path, strerror(errno));
	if (rc)
		return git_error(b, "git fast-import");
	json_array_foreach(b->commits, i, c) {
		const char *sha = fi_sha(&b->fi, json_integer_value(
						 json_object_get(c, "mark")));

		if (!sha)
			return error("git fast-import: no commit for '%s'",
				     json_str(c, "subject"));
		json_object_set_new(c, "commit", json_string(sha));
		json_object_del(c, "mark");
	}
	if (json_array_size(b->commits)) {
		free(b->head);
		b->head = xstrdup(json_str(json_array_get(b->commits,
			json_array_size(b->commits) - 1), "commit"));
	}
	/* the branch is made by update_ref(), not by the stream's ref */
	git_run(&b->g, NULL, NULL, "update-ref", "-d", SERIES_REF, NULL);
	return 0;
}

/* ---- 1: lock.h ---- */

static int commit_lock_h(struct branch *b, struct scan *s)
{
	json_t *files = json_pack("[sssss]", "include/linux/lock.h",
				  "include/linux/lock_types.h",
				  "include/linux/spinlock.h",
				  "include/linux/spinlock_types.h",
				  "lib/Kconfig.debug");
	struct sb body = SB_INIT;
	int rc;

	sb_addf(&body,
		"lock_t is the lock most kernel code takes: on PREEMPT_RT it may\n"
		"sleep (%s), elsewhere it is\n"
		"spinlock_t and every acquire_lock_t()/release_lock_t() call is\n"
		"the spin_lock()/spin_unlock() call it replaces.  Code that must\n"
		"keep spinning says so by using %s.\n\n"
		"CONFIG_DEBUG_LOCK_T_TYPECHECK makes lock_t a distinct type of the\n"
		"same layout, so that a spin_*() call on a lock_t, or an\n"
		"acquire_*() call on a spinlock_t, does not compile.\n\n"
		"include/linux/lock.h is generated by %s for Linux %s.\n\n",
		s->tree.has_rt_subst ? "PREEMPT_RT's spinlock_t" :
		"an rt_mutex based lock",
		s->tree.has_raw ? "raw_spinlock_t" : "spinlock_t",
		RTLOCK_VERSION, s->tree.version);
	trailers(b, &body);
	rc = stage(b, files);
	if (!rc)
		rc = commit(b, "locking: Add lock_t, the lock that may sleep on "
			       "PREEMPT_RT", &body, NULL, NULL);
	sb_release(&body);
	json_decref(files);
	return rc;
}

/* ---- 2: the mechanical conversion ---- */

struct counts {
	long decls, calls;
};

/* spinlock_t and DEFINE_SPINLOCK words, and spin_*( calls, in a file. */
static void count_file(const char *path, struct counts *c, int sign)
{
	char *t = read_file(path, NULL), *p, *w;

	for (p = t; p && *p; p++) {
		if (!ident_char(*p) || (p > t && ident_char(p[-1])))
			continue;
		for (w = p; ident_char(*p); p++)
			;
		if ((p - w == 10 && !strncmp(w, "spinlock_t", 10)) ||
		    (p - w == 15 && !strncmp(w, "DEFINE_SPINLOCK", 15)))
			c->decls += sign;
		else if (p - w > 5 && !strncmp(w, "spin_", 5) &&
			 w[strspn(w + (p - w), " \t") + (p - w)] == '(')
			c->calls += sign;
		p--;
	}
	free(t);
}

static void count_group(struct branch *b, const char *base, json_t *files,
			struct counts *c)
{
	json_t *f;
	size_t i;

	json_array_foreach(files, i, f) {
		char *a = xasprintf("%s/%s", base, json_string_value(f));
		char *z = xasprintf("%s/%s", b->conv, json_string_value(f));

		count_file(a, c, 1);
		count_file(z, c, -1);
		free(a);
		free(z);
	}
}

/* "drivers/net/x.c" -> "drivers" or, for a big folder, "drivers/net". */
static char *group_of(const char *path, int depth)
{
	const char *p = path;
	int i;

	for (i = 0; i < depth; i++) {
		const char *s = strchr(p, '/');

		if (!s)
			return i ? xstrndup(path, p - path - 1) : xstrdup(".");
		p = s + 1;
	}
	return xstrndup(path, p - path - 1);
}

static int cmp_json_str(const void *a, const void *b)
{
	return strcmp(json_string_value(*(json_t *const *)a),
		      json_string_value(*(json_t *const *)b));
}

/* The rule names of cocci/lock_t.cocci, for the commit messages. */
static char *cocci_rules(void)
{
	char *path = xasprintf("%s/cocci/lock_t.cocci", rtlock_home());
	char *t = read_file(path, NULL), *p;
	struct sb sb = SB_INIT;

	for (p = t; p && (p = strstr(p, "\n@")); p++) {
		const char *w = p + 2;
		size_t n;

		w += strspn(w, " ");
		n = strspn(w, "abcdefghijklmnopqrstuvwxyz_0123456789");
		if (!n || !strncmp(w, "initialize", n) ||
		    !strncmp(w, "script", n) || !strncmp(w, "finalize", n))
			continue;
		sb_addf(&sb, "%s%.*s", sb.len ? ", " : "", (int)n, w);
	}
	free(t);
	free(path);
	return sb.len ? sb.buf : xstrdup("?");
}

static int commit_group(struct branch *b, struct scan *s, const char *group,
			json_t *files, const char *rules)
{
	struct counts c = { 0, 0 };
	struct sb body = SB_INIT;
	char *subject;
	int rc;

	count_group(b, s->tree.root, files, &c);
	sb_addf(&body,
		"Convert the spinlock_t locks of %s/ to lock_t, and their\n"
		"spin_*() calls to the lock_t API.  Without PREEMPT_RT nothing\n"
		"changes: lock_t is spinlock_t and each call is the same spinlock\n"
		"call.  The locks that must keep spinning are switched back by\n"
		"the commits at the end of the series.\n\n"
		"Mechanical, by %s with cocci/lock_t.cocci (rules: %s)\n"
		"and cocci/lock_t_text.py (macro bodies):\n"
		"%zu files, %ld spinlock_t declarations, %ld spin_*() calls.\n\n",
		group, RTLOCK_VERSION, rules, json_array_size(files), c.decls,
		c.calls);
	trailers(b, &body);
	subject = xasprintf("%s: Convert spinlock_t to lock_t", group);
	rc = stage(b, files);
	if (!rc)
		rc = commit(b, subject, &body, NULL, NULL);
	free(subject);
	sb_release(&body);
	return rc;
}

/* The end of the run of files from @i that share their group at @depth. */
static size_t group_end(json_t **v, size_t i, size_t n, int depth)
{
	char *g = group_of(json_string_value(v[i]), depth);
	size_t j;

	for (j = i + 1; j < n; j++) {
		char *h = group_of(json_string_value(v[j]), depth);
		bool same = !strcmp(g, h);

		free(h);
		if (!same)
			break;
	}
	free(g);
	return j;
}

/* By second-level folder, a big folder's own files first, then by path. */
static int cmp_group2(const void *a, const void *b)
{
	const char *x = json_string_value(*(json_t *const *)a);
	const char *y = json_string_value(*(json_t *const *)b);
	char *gx = group_of(x, 2), *gy = group_of(y, 2);
	int d = strcmp(gx, gy);

	free(gx);
	free(gy);
	return d ? d : strcmp(x, y);
}

/* One commit per top-level folder, per second-level one for big folders. */
static int commit_conversion(struct branch *b, struct scan *s, json_t *changed)
{
	size_t n = json_array_size(changed), i, j, k, end;
	json_t **v = xcalloc(n + 1, sizeof(*v)), *files;
	char *rules = cocci_rules(), *grp;
	size_t split_over = b->o->split_over ? b->o->split_over
					     : GROUP_MAX_FILES;
	int rc = 0, depth;

	for (i = 0; i < n; i++)
		v[i] = json_array_get(changed, i);
	qsort(v, n, sizeof(*v), cmp_json_str);
	for (i = 0; i < n && !rc; i = end) {
		end = group_end(v, i, n, 1);
		depth = end - i > split_over ? 2 : 1;
		if (depth == 2)
			qsort(v + i, end - i, sizeof(*v), cmp_group2);
		for (j = i; j < end && !rc; j = k) {
			k = group_end(v, j, end, depth);
			grp = group_of(json_string_value(v[j]), depth);
			files = json_array();
			while (j < k)
				json_array_append(files, v[j++]);
			rc = commit_group(b, s, grp, files, rules);
			json_decref(files);
			free(grp);
		}
	}
	free(v);
	free(rules);
	return rc;
}

/* ---- 3: the locks kept spinning, one commit per class ---- */

static const struct keep_class {
	const char *cls, *why;
} keep_classes[] = {
	{ "hardirq", "taken in hard interrupt context, which PREEMPT_RT does "
		     "not force-thread" },
	{ "irqchip", "taken in irq_chip or irq_domain callbacks, under the "
		     "raw irq descriptor lock" },
	{ "sched", "taken by the scheduler core, or with its locks held" },
	{ "arch", "taken by low-level arch code (entry, idle, NMI, early boot, "
		  "IPIs)" },
	{ "irqs-off", "taken where interrupts or preemption were disabled by "
		      "hand" },
	{ "nested", "taken while a lock that must spin is held" },
	{ "shared", "held by one spinlock_t * declaration with a lock that "
		    "must spin" },
	{ "whitelist", "that a reviewer decided must spin (whitelist/)" },
};

/*
 * A classification where only the spinlock_t locks of classes [0, upto]
 * must spin (upto -1: none); the locks of class @upto go into @these.
 */
static json_t *keep_upto(json_t *rep, int upto, json_t *these)
{
	json_t *c = json_deep_copy(rep), *l;
	size_t i;
	int k;

	json_array_foreach(json_object_get(c, "locks"), i, l) {
		bool keep = false;

		if (strcmp(json_str(l, "verdict"), "must-spin") ||
		    strcmp(json_str(l, "type"), "spinlock_t"))
			continue;
		for (k = 0; k <= upto && k < (int)ARRAY_SIZE(keep_classes); k++)
			keep |= !strcmp(json_str(l, "class"), keep_classes[k].cls);
		if (!keep)
			json_object_set_new(l, "verdict", json_string("convert"));
		else if (these && !strcmp(json_str(l, "class"),
					  keep_classes[upto].cls))
			json_array_append(these, l);
	}
	return c;
}

static void evidence_text(struct sb *sb, json_t *l)
{
	json_t *step;
	size_t i;

	sb_addf(sb, "%s (%s:%d, confidence %s)\n", json_str(l, "id"),
		json_str(l, "file"), (int)json_int(l, "line"),
		json_str(l, "confidence"));
	json_array_foreach(json_object_get(l, "evidence"), i, step)
		sb_addf(sb, "    %-8s %s%s%s\n", json_str(step, "kind"),
			json_str(step, "text"), *json_str(step, "at") ? "  " : "",
			json_str(step, "at"));
}

/*
 * Convert into the branch's tree, the stage's own files in @meta:
 * @reuse, a keep stage (only the files holding kept locks, over the tree
 * the first stage wrote); @among, only these files (NULL: all).
 */
static int run_stage(struct branch *b, struct scan *s, json_t *inv,
		     json_t *cls, const char *meta, bool reuse,
		     const struct strset *among, bool select_only, json_t **res)
{
	struct convert_opts co = {
		.out_tree = b->conv, .reuse_target = reuse, .only_kept = reuse,
		.sparse_target = true, .among = among,
		.select_only = select_only, .meta_dir = meta,
		.cache_dir = b->cache, .jobs = b->o->jobs,
		.timeout = b->o->timeout, .batch = 0,
		.quiet = b->o->quiet || select_only,
	};

	if (mkdir_p(meta) < 0) {
		error("%s: %s", meta, strerror(errno));
		return EXIT_ENV;
	}
	return convert_run(&co, s, inv, cls, res);
}

static int convert_stage(struct branch *b, struct scan *s, json_t *inv,
			 json_t *cls, const char *meta, bool reuse,
			 const struct strset *among, json_t **changed)
{
	json_t *res = NULL;
	int rc = run_stage(b, s, inv, cls, meta, reuse, among, false, &res);

	if (res) {
		write_json(meta, "convert.json", res);
		*changed = json_incref(json_object_get(res, "changed_files"));
		if (reuse) {
			b->keep_failed += json_array_size(
				json_object_get(res, "failed"));
		} else {
			b->convert_failed = json_array_size(
				json_object_get(res, "failed"));
			b->leftovers = json_integer_value(
				json_object_get(res, "leftovers"));
		}
		json_decref(res);
	}
	return rc;
}

/*
 * The files the last keep stage chooses: the keep lists only grow from
 * one class to the next, so no stage chooses a file outside them, and
 * each stage reads these instead of the whole tree.
 */
static int kept_files(struct branch *b, struct scan *s, json_t *inv,
		      json_t *rep, struct strset *among)
{
	json_t *cls = keep_upto(rep, (int)ARRAY_SIZE(keep_classes) - 1, NULL);
	char *meta = xasprintf("%s/keep-select", b->work);
	json_t *res = NULL, *f;
	size_t i;
	int rc = run_stage(b, s, inv, cls, meta, true, NULL, true, &res);

	json_array_foreach(json_object_get(res, "selected"), i, f)
		strset_add(among, json_string_value(f));
	json_decref(res);
	json_decref(cls);
	free(meta);
	return rc;
}

static int commit_kept(struct branch *b, struct scan *s, json_t *inv,
		       json_t *rep, json_t *all_changed)
{
	struct strset among = { 0 };
	size_t k, i;
	int rc = kept_files(b, s, inv, rep, &among);

	for (k = 0; k < ARRAY_SIZE(keep_classes) && !rc; k++) {
		json_t *these = json_array(), *cls = keep_upto(rep, (int)k, these);
		json_t *changed = NULL, *l;
		char *meta, *subject;
		struct sb body = SB_INIT;

		if (!json_array_size(these))
			goto next;
		meta = xasprintf("%s/keep-%s", b->work, keep_classes[k].cls);
		rc = convert_stage(b, s, inv, cls, meta, true, &among, &changed);
		free(meta);
		if (rc != EXIT_OK && rc != EXIT_REVIEW)
			goto next;
		rc = 0;
		sb_addf(&body,
			"These locks are %s:\nthey cannot sleep, so they stay %s on "
			"PREEMPT_RT.\nEach is listed with the chain of evidence "
			"that decided it\n(%s, entry first, acquisition "
			"last).\n\n",
			keep_classes[k].why, s->tree.has_raw ? "raw_spinlock_t" :
			"spinlock_t", RTLOCK_VERSION);
		json_array_foreach(these, i, l) {
			if (i < EVIDENCE_MAX_LOCKS) {
				evidence_text(&body, l);
				continue;
			}
			if (i == EVIDENCE_MAX_LOCKS)
				sb_addf(&body, "\nThe other %zu, without their chains "
					"(the report has them):\n",
					json_array_size(these) - i);
			sb_addf(&body, "%s (%s:%d)\n", json_str(l, "id"), json_str(l, "file"),
				(int)json_int(l, "line"));
		}
		sb_adds(&body, "\n");
		trailers(b, &body);
		subject = xasprintf("locking: Keep the %s locks spinning (%zu)",
				    keep_classes[k].cls, json_array_size(these));
		/* every file the conversion touched, so a reverted one is seen */
		rc = stage(b, all_changed);
		if (!rc && changed)
			rc = stage(b, changed);
		if (!rc)
			rc = commit(b, subject, &body, NULL, NULL);
		free(subject);
next:
		sb_release(&body);
		json_decref(changed);
		json_decref(these);
		json_decref(cls);
	}
	strset_free(&among);
	return rc;
}

/* ---- 4: the workqueue patch ---- */

/* "Author: x\nEmail: y\nSubject: z\n" from git mailinfo: the value of @key. */
static char *info_field(const char *info, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	for (p = info; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == ':' && p[n + 1] == ' ')
			return xstrndup(p + n + 2, strcspn(p + n + 2, "\n"));
	return xstrdup("");
}

/* What git apply rejected, from its log: "hunks rejected at F:L, ...". */
static char *rejected_hunks(struct branch *b)
{
	static const char failed[] = "error: patch failed: ";
	char *log = read_file(b->log, NULL), *p, *eol;
	struct sb sb = SB_INIT;

	for (p = log; p && *p; p = eol + !!*eol) {
		eol = p + strcspn(p, "\n");
		if (has_prefix(p, failed))
			sb_addf(&sb, "%s%.*s", sb.len ? ", " : "hunks rejected at ",
				(int)(eol - p - strlen(failed)),
				p + strlen(failed));
	}
	free(log);
	if (!sb.len) {
		p = git_last_error(&b->g);
		sb_addf(&sb, "git apply: %s", p);
		free(p);
	}
	p = xstrdup(sb_str(&sb));
	sb_release(&sb);
	return p;
}

/* The paths of git apply --numstat's "ADDED\tDELETED\tPATH" lines. */
static json_t *numstat_paths(const char *numstat)
{
	json_t *paths = json_array();
	const char *p, *path, *eol;

	for (p = numstat; *p; p = eol + !!*eol) {
		eol = p + strcspn(p, "\n");
		path = memchr(p, '\t', eol - p);
		path = path ? memchr(path + 1, '\t', eol - path - 1) : NULL;
		if (path)
			json_array_append_new(paths, json_stringn(path + 1,
								  eol - path - 1));
	}
	return paths;
}

/*
 * The converted tree holds only the files the conversion wrote: the others
 * a patch changes come from the base (a file it creates from nowhere).
 */
static void copy_from_base(struct branch *b, json_t *files)
{
	json_t *v;
	size_t i;

	json_array_foreach(files, i, v) {
		char *to = xasprintf("%s/%s", b->conv, json_string_value(v));
		char *from = xasprintf("%s/%s", b->tree_dir, json_string_value(v));

		if (access(to, F_OK) && !access(from, F_OK))
			copy_file(from, to);
		free(to);
		free(from);
	}
}

static int commit_patch(struct branch *b)
{
	char *msg = xasprintf("%s/patch-msg", b->work);
	char *diff = xasprintf("%s/patch-diff", b->work);
	char *author, *mail, *subject, *text;
	struct sb info = SB_INIT, body = SB_INIT, numstat = SB_INIT;
	json_t *files;
	int rc;

	if (git_run(&b->g, &info, b->patch, "mailinfo", "-b", msg, diff, NULL))
		return git_error(b, b->patch);
	author = info_field(sb_str(&info), "Author");
	mail = info_field(sb_str(&info), "Email");
	subject = info_field(sb_str(&info), "Subject");
	text = read_file(msg, NULL);
	sb_adds(&body, text ? text : "");
	if (!strstr(sb_str(&body), "Signed-off-by: "))
		sb_adds(&body, "\n");
	if (b->o->link)
		sb_addf(&body, "Link: %s\n", b->o->link);
	if (!strstr(sb_str(&body), b->mail))
		sb_addf(&body, "Signed-off-by: %s <%s>\n", b->name, b->mail);
	/* into the converted tree, then what it touched is staged */
	b->g.work_tree = b->conv;
	b->g.cwd = b->conv;
	rc = git_run(&b->g, &numstat, NULL, "apply", "--numstat", diff, NULL);
	files = numstat_paths(sb_str(&numstat));
	if (!rc)
		copy_from_base(b, files);
	rc = rc || git_run(&b->g, NULL, NULL, "apply", "--whitespace=nowarn",
			   diff, NULL);
	b->g.work_tree = NULL;
	b->g.cwd = NULL;
	if (!rc && (rc = stage(b, files))) {
		json_decref(files);
		goto out;
	}
	json_decref(files);
	if (rc) {
		char *hunks = rejected_hunks(b);

		error("%s does not apply to the converted Linux %s: %s",
		      b->patch, b->version, hunks);
		free(hunks);
		rc = -1;
	} else {
		rc = commit(b, subject, &body, *author ? author : NULL, mail);
	}
out:
	free(author);
	free(mail);
	free(subject);
	free(text);
	free(msg);
	free(diff);
	sb_release(&info);
	sb_release(&body);
	sb_release(&numstat);
	return rc;
}

/* ---- the branch and the series ---- */

static int update_ref(struct branch *b)
{
	char *ref = xasprintf("refs/heads/%s", b->o->name);
	const char *old = b->old ? b->old : "0000000000000000000000000000000000000000";
	int rc = 0;

	if (git_run(&b->g, NULL, NULL, "update-ref", "-m", "rtlock branch", ref,
		    b->head, old, NULL))
		rc = git_error(b, ref);
	free(ref);
	return rc;
}

/* The shortlog of the series: each author's subjects, authors by name. */
static void add_shortlog(struct sb *out, const char *log)
{
	struct strset authors = { 0 };
	const char *p, *nl;
	char **sorted;
	unsigned i, n;

	for (p = log; *p; p = *nl ? nl + 1 : nl) {
		nl = p + strcspn(p, "\n");
		if (memchr(p, '\t', (size_t)(nl - p))) {
			char *a = xstrndup(p, strcspn(p, "\t"));

			strset_add(&authors, a);
			free(a);
		}
	}
	sorted = xcalloc(authors.n + 1, sizeof(*sorted));
	memcpy(sorted, authors.v, authors.n * sizeof(*sorted));
	qsort(sorted, authors.n, sizeof(*sorted), cmp_strp);
	for (i = 0; i < authors.n; i++) {
		size_t alen = strlen(sorted[i]);

		for (n = 0, p = log; *p; p = *nl ? nl + 1 : nl) {
			nl = p + strcspn(p, "\n");
			n += !strncmp(p, sorted[i], alen) && p[alen] == '\t';
		}
		sb_addf(out, "%s%s (%u):\n", i ? "\n" : "", sorted[i], n);
		for (p = log; *p; p = *nl ? nl + 1 : nl) {
			nl = p + strcspn(p, "\n");
			if (!strncmp(p, sorted[i], alen) && p[alen] == '\t')
				sb_addf(out, "  %.*s\n", (int)(nl - p - alen - 1),
					p + alen + 1);
		}
	}
	free(sorted);
	strset_free(&authors);
}

/*
 * The files the series changes, and those it creates or deletes: git's
 * --summary without the diffstat of the whole series, which took 5.4 of
 * the 12.1 s of format-patch on 6.1 (each patch has its own).
 */
static void add_files_changed(struct sb *out, const char *raw)
{
	struct sb modes = SB_INIT;
	unsigned files = 0;
	const char *p, *nl;

	for (p = raw; *p; p = *nl ? nl + 1 : nl) {
		char om[8], nm[8], st;
		const char *path;

		nl = p + strcspn(p, "\n");
		path = memchr(p, '\t', (size_t)(nl - p));
		if (*p != ':' || !path ||
		    sscanf(p, ":%7s %7s %*s %*s %c", om, nm, &st) != 3)
			continue;
		files++;
		if (st == 'A')
			sb_addf(&modes, " create mode %s %.*s\n", nm,
				(int)(nl - path - 1), path + 1);
		else if (st == 'D')
			sb_addf(&modes, " delete mode %s %.*s\n", om,
				(int)(nl - path - 1), path + 1);
	}
	sb_addf(out, " %u file%s changed\n%s", files, files == 1 ? "" : "s",
		sb_str(&modes));
	sb_release(&modes);
}

/* The classification's summary, for the cover letter. */
static void add_summary(struct sb *out, const struct branch *b,
			const struct scan *s, json_t *rep)
{
	json_t *sum = json_object_get(rep, "summary"), *v;
	const char *k;

	sb_addf(out,
		"This series converts the spinlocks of Linux %s that may sleep on\n"
		"PREEMPT_RT to lock_t, and keeps spinning those that must.  It was\n"
		"generated by %s; regenerate it rather than rebase it.\n\n"
		"Locks: %d, must spin: %d, convert: %d.  By class:\n",
		s->tree.version, RTLOCK_VERSION,
		(int)json_int(sum, "locks"),
		(int)json_int(sum, "must_spin"),
		(int)json_int(sum, "convert"));
	json_object_foreach(json_object_get(sum, "by_class"), k, v)
		sb_addf(out, "  %-10s %6d\n", k, (int)json_integer_value(v));
	sb_addf(out, "Whitelist entries: %d (stale: %d).  Unresolved lock "
		"calls: %d.  Files that\ndid not parse: %d.\n",
		(int)json_int(sum, "whitelist_entries"),
		(int)json_int(sum, "whitelist_stale"),
		(int)json_int(sum, "unresolved_sites"),
		(int)json_int(sum, "parse_failures"));
	if (b->o->link)
		sb_addf(out, "\nThe classification report: %s\n", b->o->link);
}

/* The cover letter, as git format-patch lays one out; the head's date. */
static int cover_letter(struct branch *b, const char *dir, struct scan *s,
			json_t *rep, unsigned npatches)
{
	char *path = xasprintf("%s/0000-cover-letter.patch", dir);
	char *range = xasprintf("%s..%s", b->base, b->head);
	char *date = git_read(&b->g, "show", "-s", "--format=%aD", b->head, NULL);
	char *log = git_read(&b->g, "log", "--reverse", "--format=%an%x09%s",
			     range, NULL);
	char *raw = git_read(&b->g, "diff", "--raw", "--no-renames", "-r",
			     b->base, b->head, NULL);
	struct sb out = SB_INIT;
	int rc = 0;

	if (!date || !log || !raw) {
		rc = git_error(b, "the cover letter");
		goto out;
	}
	sb_addf(&out, "From %s Mon Sep 17 00:00:00 2001\nFrom: %s <%s>\n"
		"Date: %s\nSubject: [PATCH %0*u/%u] PREEMPT_RT: lock_t for "
		"Linux %s\n\n", b->head, b->name, b->mail, date,
		snprintf(NULL, 0, "%u", npatches), 0, npatches,
		s->tree.version);
	add_summary(&out, b, s, rep);
	sb_adds(&out, "\n");
	add_shortlog(&out, log);
	sb_adds(&out, "\n");
	add_files_changed(&out, raw);
	sb_addf(&out, "\nbase-commit: %s\n", b->base);
	if (write_file_atomic(path, out.buf, out.len) < 0)
		rc = error("%s: %s", path, strerror(errno));
out:
	sb_release(&out);
	free(date);
	free(log);
	free(raw);
	free(range);
	free(path);
	return rc;
}

/*
 * What OUT/series is made from: the commits (by the head's name), and
 * what the cover letter says besides.
 */
static void series_key(struct branch *b, struct scan *s, json_t *rep,
		       char key[HASH_HEX])
{
	char *sum = json_dumps(json_object_get(rep, "summary"), JSON_SORT_KEYS);
	struct hasher h;

	hasher_init(&h);
	hasher_adds(&h, RTLOCK_VERSION);
	hasher_adds(&h, b->base);
	hasher_adds(&h, b->head);
	hasher_adds(&h, s->tree.version);
	hasher_adds(&h, b->o->link ? b->o->link : "");
	hasher_adds(&h, sum ? sum : "");
	hasher_final(&h, key);
	free(sum);
}

/*
 * The patches (series.c: made once per commit content, so that a new
 * base does not format every commit again), then the cover letter.
 */
static int format_patch(struct branch *b, struct scan *s, json_t *rep,
			const char *dir)
{
	struct series_stats st;
	int rc;

	if (mkdir(dir, 0777) < 0)
		return error("%s: %s", dir, strerror(errno));
	rc = series_patches(&b->g, b->base, b->head, dir, b->cache, &st);
	b->patches_reused = rc ? -1 : (int)st.reused;
	if (!rc && cover_letter(b, dir, s, rep, st.patches) < 0)
		rc = -1;
	return rc;
}

/*
 * OUT/series: the patches of base..head (series.c) and a cover letter.  A
 * series is made once for the same commits and summary (the key): OUT
 * keeps it while OUT/work/series.key names it, and the cache keeps a copy
 * (CACHE/series/KEY) for a new OUT.
 * Copies, not links: a patch edited in place in OUT must not change the
 * cache's.
 */
static int write_series(struct branch *b, struct scan *s, json_t *rep)
{
	char *tmp = xasprintf("%s/series.tmp", b->out);
	char *dst = xasprintf("%s/series", b->out);
	char *kpath = xasprintf("%s/series.key", b->work), *old, *cached, *ctmp;
	char key[HASH_HEX];
	int rc = 0;

	series_key(b, s, rep, key);
	cached = xasprintf("%s/series/%s", b->cache, key);
	ctmp = xasprintf("%s.tmp.%ld", cached, (long)getpid());
	old = read_file(kpath, NULL);
	if (old && !strcmp(old, key) && is_dir(dst))
		goto out;
	unlink(kpath);
	remove_tree(tmp);
	if (!is_dir(cached) || copy_dir(cached, tmp, false, NULL) < 0) {
		remove_tree(tmp);
		rc = format_patch(b, s, rep, tmp);
		/* a copy for the next OUT; without it, only slower */
		if (!rc && (copy_dir(tmp, ctmp, false, NULL) < 0 ||
			    rename(ctmp, cached) < 0))
			remove_tree(ctmp);
	}
	if (!rc && (remove_tree(dst), rename(tmp, dst) < 0))
		rc = error("%s: %s", dst, strerror(errno));
	else if (!rc && write_file_atomic(kpath, key, strlen(key)) < 0)
		rc = error("%s: %s", kpath, strerror(errno));
out:
	free(old);
	free(kpath);
	free(cached);
	free(ctmp);
	free(tmp);
	free(dst);
	return rc;
}

static int write_summary(struct branch *b)
{
	json_t *j = json_pack("{sssssssssssOsisOsb}", "schema", "rtlock-branch-1",
			      "tool", RTLOCK_VERSION, "branch", b->o->name,
			      "base", b->base, "head", b->head, "commits",
			      b->commits, "converted_files", b->converted_files,
			      "patch", json_string(strrchr(b->patch, '/') + 1),
			      "reused", b->reused);
	int rc;

	json_object_set_new(j, "repository", json_string(b->git_dir));
	if (b->patches_reused >= 0)
		json_object_set_new(j, "patches_reused",
				    json_integer(b->patches_reused));
	rc = write_json(b->out, "branch.json", j);
	json_decref(j);
	return rc;
}

/* Convert, commit and write the commits: an exit status, or -1. */
static int build_commits(struct branch *b, struct scan *s, json_t *inv,
			 json_t *rep)
{
	json_t *all = keep_upto(rep, -1, NULL), *changed = NULL;
	char *meta = xasprintf("%s/convert-all", b->work), *stream;
	double t = now_sec();
	int rc, review;

	/* the whole tree converted: every spinlock_t becomes lock_t */
	remove_tree(b->conv);
	review = convert_stage(b, s, inv, all, meta, false, NULL, &changed);
	free(meta);
	json_decref(all);
	b->t_convert = now_sec() - t;
	if (review != EXIT_OK && review != EXIT_REVIEW) {
		json_decref(changed);
		return review;
	}
	b->converted_files = json_array_size(changed);
	stream = xasprintf("%s/series.fi", b->work);
	rc = fi_open(&b->fi, stream, b->conv, b->tree_dir) < 0 ?
		     error("%s: %s", stream, strerror(errno)) : 0;
	free(stream);
	if (!rc)
		rc = commit_lock_h(b, s);
	if (!rc)
		rc = commit_conversion(b, s, changed);
	t = now_sec();
	if (!rc)
		rc = commit_kept(b, s, inv, rep, changed);
	b->t_keep = now_sec() - t;
	if (!rc)
		rc = commit_patch(b);
	if (!rc)
		rc = scan_interrupted();
	if (!rc)
		rc = write_commits(b);
	/*
	 * the new objects back to the release's cache repository, so that a
	 * new OUT has them (fast-import skips the objects packs already hold)
	 */
	if (!rc && b->release_dir)
		link_packs(b->git_dir, b->release_dir);
	fi_release(&b->fi);
	json_decref(changed);
	return rc ? rc : review;
}

int branch_build(struct branch *b, struct scan *s, json_t *inv, json_t *rep)
{
	double t0 = now_sec();
	char key[HASH_HEX];
	int rc;

	record_key(b, s, rep, key);
	if (record_reuse(b, key)) {
		rc = b->leftovers ? EXIT_REVIEW : EXIT_OK;
		if (!b->o->quiet)
			printf("branch: the inputs of an earlier build: its %u "
			       "commits are taken again\n", b->ncommits);
	} else {
		rc = build_commits(b, s, inv, rep);
	}
	if (rc == EXIT_OK || rc == EXIT_REVIEW) {
		int review = rc;

		rc = update_ref(b);
		if (!rc)
			rc = write_series(b, s, rep);
		if (!rc)
			rc = write_summary(b);
		if (!rc && !b->reused && !b->convert_failed && !b->keep_failed)
			record_save(b, key);
		if (!rc)
			rc = review;
	}
	b->t_git = now_sec() - t0 - b->t_convert - b->t_keep;
	if ((rc == EXIT_OK || rc == EXIT_REVIEW) && !b->o->quiet)
		printf("branch: %s at %.12s, %u commits on %.12s; series in "
		       "%s/series\n", b->o->name, b->head, b->ncommits, b->base,
		       b->out);
	/* an exit status from a stage, or -1 from the git steps */
	return rc < 0 ? EXIT_FAIL : rc;
}

void branch_release(struct branch *b)
{
	free(b->out);
	free(b->cache);
	free(b->git_dir);
	free(b->release_dir);
	free(b->log);
	free(b->index);
	free(b->work);
	free(b->conv);
	free(b->base);
	free(b->old);
	free(b->tree_dir);
	free(b->patch);
	free(b->name);
	free(b->mail);
	free(b->head);
	json_decref(b->commits);
}
