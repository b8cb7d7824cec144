// SPDX-License-Identifier: GPL-2.0
/*
 * The patches of a series, one file per commit, as git format-patch
 * writes them.  A commit's patch depends on its place in the series
 * ([PATCH n/N]), its tree diff, author, date and message, and on its name
 * only in its first line ("From <name> Mon Sep 17 00:00:00 2001").  A
 * branch regenerated on a new base renames every commit while most of
 * them change nothing: their patches come from the cache with the name
 * written again, and git formats the others only.
 *
 * The key of a patch is a hash of git's version, the place, and what
 * `git log --raw --no-abbrev` says of the commit apart from its name (the
 * blobs of every file it changes, the author, the date, the message).
 * CACHE/patches/XX/KEY (cache_blob_put()) holds the patch's file name on
 * its first line, then the patch.
 */
#include "series.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "hash.h"

/* Formatting more than this share of the commits, git does them in one go. */
#define ONE_BY_ONE_MAX(n) ((n) / 4 + 4)
#define SHA_HEX 40

struct patch {
	char sha[SHA_HEX + 1];
	char key[HASH_HEX];
	char *name; /* its file name, once written */
};

struct series {
	const struct git *g;
	const char *dir, *cache;
	struct patch *v;
	unsigned n;
};

static char *cache_path(const struct series *s, const struct patch *p)
{
	return xasprintf("%s/patches/%.2s/%s", s->cache, p->key, p->key);
}

/* The commits of @range, oldest first, each with its patch's key. */
static int read_commits(struct series *s, const char *range)
{
	struct sb log = SB_INIT;
	char *gitver = git_read(s->g, "version", NULL), *p, *end, num[32];
	unsigned i;
	int rc = 0;

	if (!gitver ||
	    git_run(s->g, &log, NULL, "log", "--reverse", "--no-renames",
		    "--raw", "--no-abbrev", "-r", "--date=raw",
		    "--format=%x01%H%n%an <%ae>%n%ad%n%B", range, NULL)) {
		rc = error("git log %s failed", range);
		goto out;
	}
	for (p = strchr(sb_str(&log), '\001'); p; p = strchr(p + 1, '\001'))
		s->n++;
	s->v = xcalloc(s->n + 1, sizeof(*s->v));
	p = strchr(sb_str(&log), '\001');
	for (i = 0; p; i++, p = end) {
		const char *body = p + 1 + SHA_HEX;
		struct hasher h;

		end = strchr(p + 1, '\001');
		memcpy(s->v[i].sha, p + 1, SHA_HEX);
		hasher_init(&h);
		hasher_adds(&h, "rtlock-patch-1");
		hasher_adds(&h, gitver);
		snprintf(num, sizeof(num), "%u/%u", i + 1, s->n);
		hasher_adds(&h, num);
		hasher_add(&h, body, end ? (size_t)(end - body) : strlen(body));
		hasher_final(&h, s->v[i].key);
	}
out:
	free(gitver);
	sb_release(&log);
	return rc;
}

/*
 * Write @p's patch from the cache, named after its commit: true if so.  An
 * entry that is not a file name and a patch is said and removed.
 */
static bool from_cache(struct series *s, struct patch *p)
{
	char *path = cache_path(s, p), *to = NULL, *text = NULL;
	size_t len;
	char *data = cache_blob_get(path, &len);
	struct sb out = SB_INIT;
	bool ok = false;

	if (data && (!(text = strchr(data, '\n')) || text == data ||
		     memchr(data, '/', (size_t)(text - data)) ||
		     strncmp(text + 1, "From ", 5) ||
		     strlen(text + 1) < 5 + SHA_HEX)) {
		warning("%s: corrupt cache entry ignored (not a patch)", path);
		unlink(path);
		text = NULL;
	}
	if (text) {
		*text++ = '\0';
		sb_addf(&out, "From %s", p->sha);
		sb_adds(&out, text + 5 + SHA_HEX);
		to = xasprintf("%s/%s", s->dir, data);
		ok = write_file_atomic(to, out.buf, out.len) == 0;
		if (ok)
			p->name = xstrdup(data);
	}
	sb_release(&out);
	free(data);
	free(path);
	free(to);
	return ok;
}

/* Keep a copy of @p's patch, written as @text: only slower without it. */
static void to_cache(struct series *s, const struct patch *p, const char *text,
		     size_t len)
{
	char *path = cache_path(s, p);
	struct sb rec = SB_INIT;

	sb_addf(&rec, "%s\n", p->name);
	sb_add(&rec, text, len);
	if (mkdir_parent(path) < 0 || cache_blob_put(path, rec.buf, rec.len) < 0)
		warning("%s: %s", path, strerror(errno));
	sb_release(&rec);
	free(path);
}

/*
 * Move @tmp/@name, made by git for patch @i, to the series: its subject
 * numbered [PATCH i/N] (a commit formatted alone is [PATCH i/i]).
 */
static int take(struct series *s, unsigned i, const char *tmp, const char *name)
{
	char *from = xasprintf("%s/%s", tmp, name), *to, *text, *subj;
	struct sb out = SB_INIT;
	size_t len;
	int rc = 0, width = snprintf(NULL, 0, "%u", s->n);

	text = read_file(from, &len);
	if (!text) {
		rc = error("%s: %s", from, strerror(errno));
		free(from);
		return rc;
	}
	subj = strstr(text, "\nSubject: [PATCH ");
	if (subj) {
		char *close = strchr(subj, ']');

		subj += strlen("\nSubject: [PATCH ");
		sb_add(&out, text, (size_t)(subj - text));
		sb_addf(&out, "%0*u/%u", width, i + 1, s->n);
		sb_adds(&out, close ? close : subj);
	} else {
		sb_add(&out, text, len);
	}
	s->v[i].name = xstrdup(name);
	to = xasprintf("%s/%s", s->dir, name);
	if (write_file_atomic(to, out.buf, out.len) < 0)
		rc = error("%s: %s", to, strerror(errno));
	else
		to_cache(s, &s->v[i], out.buf, out.len);
	sb_release(&out);
	free(text);
	free(from);
	free(to);
	return rc;
}

/* The file git named for patch number @nr in @tmp, or NULL. */
static char *patch_file(const char *tmp, unsigned nr)
{
	DIR *d = opendir(tmp);
	struct dirent *e;
	char prefix[16], *name = NULL;

	snprintf(prefix, sizeof(prefix), "%04u-", nr);
	while (d && !name && (e = readdir(d)))
		if (has_prefix(e->d_name, prefix))
			name = xstrdup(e->d_name);
	if (d)
		closedir(d);
	return name;
}

/* Format the @nmiss patches of @miss: one by one, or all at once. */
static int format_missing(struct series *s, const char *range,
			  const unsigned *miss, unsigned nmiss)
{
	char *tmp = xasprintf("%s/.format", s->dir), start[32], *name;
	bool all = nmiss > ONE_BY_ONE_MAX(s->n);
	unsigned i, k;
	int rc = 0;

	remove_tree(tmp);
	if (mkdir(tmp, 0777) < 0)
		rc = error("%s: %s", tmp, strerror(errno));
	else if (all && git_run(s->g, NULL, NULL, "format-patch", "-q",
				"--numbered", "--no-signature", "--full-index",
				"--no-renames", "-o", tmp, range, NULL))
		rc = error("git format-patch %s failed", range);
	for (i = 0; !rc && i < nmiss; i++) {
		k = miss[i];
		snprintf(start, sizeof(start), "--start-number=%u", k + 1);
		if (!all && git_run(s->g, NULL, NULL, "format-patch", "-q",
				    "--numbered", "--no-signature",
				    "--full-index", "--no-renames", start, "-o",
				    tmp, "-1", s->v[k].sha, NULL)) {
			rc = error("git format-patch %s failed", s->v[k].sha);
			break;
		}
		name = patch_file(tmp, k + 1);
		rc = name ? take(s, k, tmp, name) :
			    error("git format-patch wrote no patch %u", k + 1);
		free(name);
	}
	remove_tree(tmp);
	free(tmp);
	return rc;
}

int series_patches(const struct git *g, const char *base, const char *head,
		   const char *dir, const char *cache, struct series_stats *st)
{
	struct series s = { g, dir, cache, NULL, 0 };
	char *range = xasprintf("%s..%s", base, head);
	unsigned *miss, nmiss = 0, i;
	int rc = read_commits(&s, range);

	miss = xcalloc(s.n + 1, sizeof(*miss));
	for (i = 0; !rc && i < s.n; i++)
		if (!from_cache(&s, &s.v[i]))
			miss[nmiss++] = i;
	if (!rc && nmiss)
		rc = format_missing(&s, range, miss, nmiss);
	st->patches = s.n;
	st->reused = s.n - nmiss;
	for (i = 0; i < s.n; i++)
		free(s.v[i].name);
	free(s.v);
	free(miss);
	free(range);
	return rc ? -1 : 0;
}
