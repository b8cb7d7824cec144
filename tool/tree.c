// SPDX-License-Identifier: GPL-2.0
#include "tree.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pool.h"
#include "util.h"

/* Threads that read the walk's C files (no more: the disk is shared). */
#define PREFILTER_THREADS 4

/* Folders that never hold kernel C code for the target. */
static const char *const skip_top[] = {
	"Documentation", "tools", "scripts", "samples", "usr", "LICENSES",
	".git", NULL,
};

/* Words whose presence makes a file worth parsing. */
static const char *const tokens[] = {
	"spin_lock",	  "spin_unlock",   "spin_trylock", "spinlock_t",
	"SPIN_LOCK",	  "SPINLOCK",	   "spin_is_",	   "dec_and_lock", "dec_and_raw_lock",
	"assert_spin",	  "request_irq",   "threaded_irq", "percpu_irq",
	"irq_chip",	  "clock_event",   "HRTIMER_MODE", "smp_call_function",
	"on_each_cpu",	  "irq_work",	   "nmi_handler",  "local_irq_save",
	"local_irq_disable", "preempt_disable", "chained_handler",
	"(spinlock",	  "(raw_spinlock", /* guard(spinlock_irq)(&l) only */
	NULL,
};
_Static_assert(sizeof(tokens) / sizeof(tokens[0]) - 1 <= 32,
	       "prefilter_match() keeps a bit per token");

static int read_makefile_var(const char *mk, const char *var, char *out,
			     size_t size)
{
	size_t n = strlen(var);
	const char *p;

	for (p = mk; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q;
		size_t len;

		if (strncmp(p, var, n))
			continue;
		for (q = p + n; *q == ' ' || *q == '\t'; q++)
			;
		if (*q != '=')
			continue;
		for (q++; *q == ' ' || *q == '\t'; q++)
			;
		len = strcspn(q, "\n");
		while (len && (q[len - 1] == ' ' || q[len - 1] == '\t'))
			len--;
		if (len >= size)
			len = size - 1;
		memcpy(out, q, len);
		out[len] = '\0';
		return 0;
	}
	return -1;
}

static bool exists(const char *root, const char *rel)
{
	char *p = xasprintf("%s/%s", root, rel);
	struct stat st;
	bool r = !lstat(p, &st);

	free(p);
	return r;
}

static bool file_contains(const char *root, const char *rel, const char *s)
{
	char *p = xasprintf("%s/%s", root, rel), *data;
	size_t len;
	bool r = false;

	data = read_file(p, &len);
	if (data)
		r = memmem(data, len, s, strlen(s)) != NULL;
	free(data);
	free(p);
	return r;
}

int tree_parse_makefile(struct tree *t, const char *mk, const char *mkpath)
{
	char v[16], p[16], s[16], e[32];

	if (read_makefile_var(mk, "VERSION", v, sizeof(v)) ||
	    read_makefile_var(mk, "PATCHLEVEL", p, sizeof(p)) ||
	    !atoi(v))
		return error("%s:1: not a kernel Makefile (no VERSION/PATCHLEVEL)",
			     mkpath);
	if (read_makefile_var(mk, "SUBLEVEL", s, sizeof(s)))
		strcpy(s, "0");
	if (read_makefile_var(mk, "EXTRAVERSION", e, sizeof(e)))
		e[0] = '\0';
	t->ver[0] = atoi(v);
	t->ver[1] = atoi(p);
	t->ver[2] = atoi(s);
	snprintf(t->version, sizeof(t->version), "%d.%d.%d%s", t->ver[0],
		 t->ver[1], t->ver[2], e);
	return 0;
}

int tree_open(struct tree *t, const char *path, const char *arch)
{
	char *mkpath, *mk;
	int rc;

	memset(t, 0, sizeof(*t));
	t->arch = arch ? arch : "x86";
	if (!is_dir(path))
		return error("%s: not a directory", path);
	t->root = abs_path(path);
	if (!t->root)
		return error("%s: %s", path, strerror(errno));
	if (!utf8_valid(t->root)) {
		char *e = utf8_escape(path);

		error("%s: the path is not valid UTF-8 (rtlock's JSON cannot "
		      "name it)", e);
		free(e);
		return -1;
	}
	mkpath = xasprintf("%s/Makefile", t->root);
	mk = read_file(mkpath, NULL);
	if (!mk) {
		error("%s: not a kernel tree (no top-level Makefile)", path);
		free(mkpath);
		return -1;
	}
	rc = tree_parse_makefile(t, mk, mkpath);
	free(mk);
	free(mkpath);
	if (rc < 0)
		return -1;
	t->has_raw = exists(t->root, "include/linux/spinlock_types_raw.h") ||
		     file_contains(t->root, "include/linux/spinlock_types.h",
				   "raw_spinlock_t");
	t->has_rt_subst = exists(t->root, "include/linux/spinlock_rt.h");
	t->has_raw_dec_and_lock = file_contains(
		t->root, "include/linux/spinlock.h", "atomic_dec_and_raw_lock");
	t->kbuild = exists(t->root, "scripts/Makefile.build") &&
		    exists(t->root, "scripts/kconfig");
	t->is_git = exists(t->root, ".git");
	return 0;
}

/*
 * One pass over the text: the tokens that begin with each pair of bytes
 * (a bit each), so that a position is one table look-up and, rarely, a
 * comparison.  A memmem() a token was 73 % of the walk's time.
 */
static uint32_t token_pairs[1 << 16];

static void token_pairs_init(void)
{
	unsigned i;

	for (i = 0; tokens[i]; i++)
		token_pairs[(unsigned char)tokens[i][0] |
			    (unsigned char)tokens[i][1] << 8] |= 1u << i;
}

bool prefilter_match(const char *data, size_t len)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	const unsigned char *d = (const unsigned char *)data;
	size_t i;

	pthread_once(&once, token_pairs_init);
	for (i = 0; i + 1 < len; i++) {
		uint32_t m = token_pairs[d[i] | d[i + 1] << 8];

		while (m) {
			const char *tok = tokens[__builtin_ctz(m)];
			size_t n = strlen(tok);

			if (n <= len - i && !memcmp(data + i, tok, n))
				return true;
			m &= m - 1;
		}
	}
	return false;
}

/* A C file the walk found, and what reading it told (by a reader). */
struct cand {
	char *rel;
	bool is_c;		/* a .c file (else a .h) */
	int err;		/* errno of the read, or 0 */
	bool match;		/* it uses a word of tokens[] */
	char **incl;		/* the .c files it includes by a plain name */
	size_t nincl, aincl;
};

struct walk {
	struct tree *t;
	char **tus, **hdrs;
	size_t ntus, atus, nhdrs, ahdrs;
	char **incl;		/* .c files another .c file includes */
	size_t nincl, aincl;
	struct cand *cands;	/* in walk order */
	size_t ncands, acands, next;	/* next: the next to read */
	pthread_mutex_t lock;
	struct sb path;
};

/*
 * The .c files @c includes by a plain name ("#include \"rt.c\"" in
 * kernel/sched/build_policy.c): they are compiled as part of it, not on
 * their own.
 */
static void included_c_files(struct cand *c, const char *data, size_t len)
{
	const char *p = data, *end = data + len, *q, *name;
	const char *slash = strrchr(c->rel, '/');

	while ((p = memmem(p, end - p, "#include \"", 10))) {
		name = p += 10;
		q = memchr(p, '"', end - p);
		if (!q || memchr(p, '\n', q - p))
			continue;
		if (q - name > 2 && !memcmp(q - 2, ".c", 2) &&
		    !memchr(name, '/', q - name)) {
			ALLOC_GROW(c->incl, c->nincl, c->aincl);
			c->incl[c->nincl++] =
				xasprintf("%.*s%.*s", slash ? (int)(slash - c->rel + 1) : 0,
					  c->rel, (int)(q - name), name);
		}
		p = q;
	}
}

static bool skip_dir(struct walk *w, const char *rel, const char *name)
{
	unsigned i;

	if (name[0] == '.')
		return true;
	if (!strchr(rel, '/')) {
		for (i = 0; skip_top[i]; i++)
			if (!strcmp(rel, skip_top[i]))
				return true;
	}
	/* other architectures: only arch/<arch> is scanned */
	if (!strncmp(rel, "arch/", 5) && !strchr(rel + 5, '/'))
		return strcmp(rel + 5, w->t->arch) != 0;
	return false;
}

/* --only kernel,mm: is @rel inside one of the listed folders? */
static bool in_only(const char *only, const char *rel)
{
	const char *p = only;

	while (p && *p) {
		size_t n = strcspn(p, ",");

		while (n && p[n - 1] == '/')
			n--;
		if (n && !strncmp(rel, p, n) && (rel[n] == '/' || !rel[n]))
			return true;
		p += strcspn(p, ",");
		p += *p == ',';
	}
	return false;
}

bool tree_header_in_slice(const struct tree *t, const char *rel)
{
	char *arch_inc;
	bool in;

	if (!t->only || in_only(t->only, rel) || !strncmp(rel, "include/", 8))
		return true;
	arch_inc = xasprintf("arch/%s/include/", t->arch);
	in = !strncmp(rel, arch_inc, strlen(arch_inc));
	free(arch_inc);
	return in;
}

/* A file or folder the walk could not look into: a review item. */
static void skip(struct tree *t, const char *rel, const char *why)
{
	char *path = utf8_escape(rel);

	warning("%s: %s (skipped)", path, why);
	ALLOC_GROW(t->skipped, t->nskipped, t->askipped);
	t->skipped[t->nskipped].path = path;
	t->skipped[t->nskipped++].why = xstrdup(why);
}

/* A .c or .h file: read later, by read_cands(). */
static void consider(struct walk *w, const char *rel)
{
	bool is_c = has_suffix(rel, ".c");

	if (!is_c && !has_suffix(rel, ".h"))
		return;
	w->t->nwalked++;
	if (!utf8_valid(rel)) {
		skip(w->t, rel, "file name is not valid UTF-8");
		return;
	}
	ALLOC_GROW(w->cands, w->ncands, w->acands);
	memset(&w->cands[w->ncands], 0, sizeof(*w->cands));
	w->cands[w->ncands].is_c = is_c;
	w->cands[w->ncands++].rel = xstrdup(rel);
}

/* Read candidates until none is left: one thread of read_cands(). */
static void *reader(void *arg)
{
	struct walk *w = arg;
	struct sb path = SB_INIT;

	for (;;) {
		struct cand *c;
		char *data;
		size_t len;

		pthread_mutex_lock(&w->lock);
		c = w->next < w->ncands && !pool_interrupted() ?
			    &w->cands[w->next++] : NULL;
		pthread_mutex_unlock(&w->lock);
		if (!c)
			break;
		sb_reset(&path);
		sb_addf(&path, "%s/%s", w->t->root, c->rel);
		data = read_file(path.buf, &len);
		if (!data) {
			c->err = errno;
			continue;
		}
		/* every .c file's includes, whether or not it matches itself */
		if (c->is_c)
			included_c_files(c, data, len);
		c->match = c->nincl || prefilter_match(data, len);
		free(data);
	}
	sb_release(&path);
	return NULL;
}

/*
 * Read the candidates on a few threads (reading and matching is most of
 * the walk's time), then take the results in walk order: the same lists
 * and warnings as one thread gives.
 */
static void read_cands(struct walk *w)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t th[PREFILTER_THREADS];
	int n = ncpu < 1 ? 1 : ncpu > PREFILTER_THREADS ? PREFILTER_THREADS : ncpu;
	int i, started = 0;
	size_t k, j;

	pthread_mutex_init(&w->lock, NULL);
	/* the calling thread is one reader; a thread not started is one less */
	for (i = 1; i < n; i++)
		if (!pthread_create(&th[started], NULL, reader, w))
			started++;
	reader(w);
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&w->lock);
	for (k = 0; k < w->ncands; k++) {
		struct cand *c = &w->cands[k];
		bool in = !w->t->only || in_only(w->t->only, c->rel);

		if (c->err) {
			skip(w->t, c->rel, strerror(c->err));
		} else if (c->match && c->is_c && in) {
			ALLOC_GROW(w->tus, w->ntus, w->atus);
			w->tus[w->ntus++] = c->rel;
			c->rel = NULL;
		} else if (c->match && !c->is_c) {
			ALLOC_GROW(w->hdrs, w->nhdrs, w->ahdrs);
			w->hdrs[w->nhdrs++] = c->rel;
			c->rel = NULL;
		}
		for (j = 0; j < c->nincl; j++) {
			ALLOC_GROW(w->incl, w->nincl, w->aincl);
			w->incl[w->nincl++] = c->incl[j];
		}
		free(c->incl);
		free(c->rel);
	}
	free(w->cands);
}

static void walk_dir(struct walk *w, size_t rootlen)
{
	DIR *d = opendir(w->path.buf);
	struct dirent *de;
	size_t base = w->path.len;

	if (!d) {
		skip(w->t, base > rootlen ? w->path.buf + rootlen + 1 : ".",
		     strerror(errno));
		return;
	}
	while ((de = readdir(d)) && !pool_interrupted()) {
		const char *rel;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		w->path.len = base;
		sb_addf(&w->path, "/%s", de->d_name);
		rel = w->path.buf + rootlen + 1;
		if (lstat(w->path.buf, &st) < 0) {
			skip(w->t, rel, strerror(errno));
			continue;
		}
		/* never follow symlinks: no loops, no escaping the tree */
		if (S_ISLNK(st.st_mode))
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (!skip_dir(w, rel, de->d_name))
				walk_dir(w, rootlen);
		} else if (S_ISREG(st.st_mode)) {
			consider(w, rel);
		}
	}
	w->path.len = base;
	w->path.buf[base] = '\0';
	closedir(d);
}

static int cmp_skip(const void *a, const void *b)
{
	return strcmp(((const struct tree_skip *)a)->path,
		      ((const struct tree_skip *)b)->path);
}

/*
 * An included .c file is parsed as part of the file that includes it, as
 * kbuild compiles it, and its facts are claimed like a header's: alone it
 * does not parse (kernel/sched/rt.c needs sched.h from build_policy.c).
 */
static void move_included(struct walk *w)
{
	size_t i, j, k;

	if (!w->nincl)
		return;
	qsort(w->incl, w->nincl, sizeof(char *), cmp_strp);
	for (i = j = 0; i < w->ntus; i++) {
		char *tu = w->tus[i];

		if (bsearch(&tu, w->incl, w->nincl, sizeof(char *), cmp_strp)) {
			ALLOC_GROW(w->hdrs, w->nhdrs, w->ahdrs);
			w->hdrs[w->nhdrs++] = tu;
		} else {
			w->tus[j++] = tu;
		}
	}
	w->ntus = j;
	for (k = 0; k < w->nincl; k++)
		free(w->incl[k]);
	free(w->incl);
}

int tree_prefilter(struct tree *t)
{
	struct walk w = { .t = t };

	sb_adds(&w.path, t->root);
	walk_dir(&w, strlen(t->root));
	sb_release(&w.path);
	read_cands(&w);
	move_included(&w);
	if (w.ntus)
		qsort(w.tus, w.ntus, sizeof(char *), cmp_strp);
	if (w.nhdrs)
		qsort(w.hdrs, w.nhdrs, sizeof(char *), cmp_strp);
	if (t->nskipped)
		qsort(t->skipped, t->nskipped, sizeof(*t->skipped), cmp_skip);
	t->tus = w.tus;
	t->ntus = w.ntus;
	t->headers = w.hdrs;
	t->nheaders = w.nhdrs;
	return 0;
}

void tree_release(struct tree *t)
{
	size_t i;

	for (i = 0; i < t->ntus; i++)
		free(t->tus[i]);
	for (i = 0; i < t->nheaders; i++)
		free(t->headers[i]);
	for (i = 0; i < t->nskipped; i++) {
		free(t->skipped[i].path);
		free(t->skipped[i].why);
	}
	free(t->tus);
	free(t->headers);
	free(t->skipped);
	free(t->root);
	memset(t, 0, sizeof(*t));
}
