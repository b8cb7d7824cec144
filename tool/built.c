// SPDX-License-Identifier: GPL-2.0
#include "built.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "util.h"

/* What the Makefiles say about a path: "dir/file.o" or "dir/sub/". */
struct ref {
	char *path;
	bool on;		/* some mention is built */
	char *off_by;		/* the unset option of a mention */
	char *owner;		/* the folder whose Makefile first named it */
	UT_hash_handle hh;
};

/* A variable of one Makefile ("FULL_AMD_PATH=$(srctree)/$(src)/.."). */
struct var {
	char *name, *value;
	UT_hash_handle hh;
};

/* One folder's Makefile: its variables and include options. */
struct mk {
	char *dir;
	bool exists;
	struct var *vars;
	struct sb cflags;	/* ccflags-y: "-Ipath\n", "-DNAME\n"... */
	struct sb subdir;	/* subdir-ccflags-y: here and below */
	UT_hash_handle hh;
};

struct built {
	char *root;
	struct ref *refs;
	struct mk *mks;		/* folders whose Makefile was read */
	struct ref *config;	/* options set (=y, =m, or a value) */
	bool all_set;		/* no .config: every option */
	struct ref *unset;	/* options taken as unset all the same */
};

static bool option_set(struct built *b, const char *opt);

static struct ref *find(struct ref *map, const char *path)
{
	struct ref *r;

	HASH_FIND_STR(map, path, r);
	return r;
}

static struct ref *add(struct ref **map, const char *path)
{
	struct ref *r = find(*map, path);

	if (!r) {
		r = xcalloc(1, sizeof(*r));
		r->path = xstrdup(path);
		HASH_ADD_KEYPTR(hh, *map, r->path, strlen(r->path), r);
	}
	return r;
}

static void free_map(struct ref **map)
{
	struct ref *r, *t;

	HASH_ITER(hh, *map, r, t) {
		HASH_DEL(*map, r);
		free(r->path);
		free(r->off_by);
		free(r->owner);
		free(r);
	}
}

static void free_mks(struct mk **map)
{
	struct mk *m, *t;
	struct var *v, *vt;

	HASH_ITER(hh, *map, m, t) {
		HASH_DEL(*map, m);
		HASH_ITER(hh, m->vars, v, vt) {
			HASH_DEL(m->vars, v);
			free(v->name);
			free(v->value);
			free(v);
		}
		sb_release(&m->cflags);
		sb_release(&m->subdir);
		free(m->dir);
		free(m);
	}
}

static int read_config(struct built *b, const char *dotconfig)
{
	char *text = read_file(dotconfig, NULL), *line, *save = NULL;

	if (!text) {
		error("%s: cannot read the kbuild configuration", dotconfig);
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (strncmp(line, "CONFIG_", 7) || !eq || !strcmp(eq, "=n"))
			continue;
		*eq = '\0';
		add(&b->config, line + 7);
	}
	free(text);
	return 0;
}

/*
 * One assignment "PREFIX-COND += words" of @dir's Makefile: COND is y, m,
 * objs, or $(CONFIG_X).  Each word.o and word/ is a mention.
 */
static void mention(struct built *b, const char *dir, const char *cond,
		    size_t condlen, char *words)
{
	char *opt = NULL, *w, *save = NULL;
	bool on = true;

	if (condlen > 10 && !strncmp(cond, "$(CONFIG_", 9) &&
	    cond[condlen - 1] == ')') {
		opt = xstrndup(cond + 9, condlen - 10);
		on = option_set(b, opt);
	} else if (strncmp(cond, "y", condlen) && strncmp(cond, "m", condlen) &&
		   strncmp(cond, "objs", condlen)) {
		return;	/* a variable we do not follow */
	}
	for (w = strtok_r(words, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		size_t n = strlen(w);
		char *path;
		struct ref *r;

		if (strchr(w, '$') || n < 2 ||
		    (strcmp(w + n - 2, ".o") && w[n - 1] != '/'))
			continue;
		path = xasprintf("%s/%s", dir, w);
		r = add(&b->refs, path);
		free(path);
		if (!r->owner)
			r->owner = xstrdup(dir);
		r->on |= on;
		if (!on && !r->off_by)
			r->off_by = xstrdup(opt);
	}
	free(opt);
}

/*
 * @text with $(srctree), $(src), $(obj) and the Makefile's own variables
 * expanded ($(src) and $(obj) as the folder, relative to the root); what
 * cannot be expanded ($(call ...), options) becomes '\1', which spoils
 * the word it is in.  Bounded: 8 levels of variables, 64 KiB of text.
 */
static void expand(struct built *b, struct mk *m, const char *text,
		   struct sb *out, int depth)
{
	const char *p = text, *end;

	while (*p) {
		struct var *v;
		char *name;

		if (p[0] != '$' || p[1] != '(' || !(end = strchr(p, ')'))) {
			sb_addf(out, "%c", *p++);
			continue;
		}
		name = xstrndup(p + 2, end - p - 2);
		HASH_FIND_STR(m->vars, name, v);
		if (!strcmp(name, "srctree"))
			sb_adds(out, b->root);
		else if (!strcmp(name, "src") || !strcmp(name, "obj"))
			sb_adds(out, m->dir);
		else if (v && depth < 8 && out->len < 65536)
			expand(b, m, v->value, out, depth + 1);
		else
			sb_adds(out, "\1");
		free(name);
		p = end + 1;
	}
}

/*
 * The -I, -D and -U options of a flags assignment's value, appended to @to:
 * i915's subdir-ccflags-y += -DI915 compiles code under #ifdef I915.
 */
static void include_opts(struct built *b, struct mk *m, const char *value,
			 struct sb *to)
{
	struct sb x = SB_INIT;
	char *w, *save = NULL;
	bool next_is_dir = false;

	expand(b, m, value, &x, 0);
	for (w = strtok_r(x.buf ? x.buf : "", " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		const char *dir = NULL;

		if (next_is_dir)
			dir = w;
		else if (!strncmp(w, "-I", 2) && w[2])
			dir = w + 2;
		else if ((!strncmp(w, "-D", 2) || !strncmp(w, "-U", 2)) &&
			 w[2] && !strchr(w, '\1') && !strpbrk(w, "'\"$("))
			sb_addf(to, "%s\n", w);
		next_is_dir = !strcmp(w, "-I");
		if (!dir || strchr(dir, '\1'))
			continue;
		/* kbuild's addtree: a relative folder is one of the source */
		if (dir[0] == '/')
			sb_addf(to, "-I%s\n", dir);
		else
			sb_addf(to, "-I%s/%s\n", b->root, dir);
	}
	sb_release(&x);
}

/*
 * A flags or variable assignment of @m's Makefile: ccflags-y,
 * ccflags-$(CONFIG_X), subdir-ccflags-..., EXTRA_CFLAGS, or NAME = value.
 */
static void assignment(struct built *b, struct mk *m, char *line)
{
	char *op = strchr(line, '='), *lhs_end, *lhs = line;
	bool reset = false;
	struct sb *to = NULL;
	size_t n;

	if (!op || op == line)
		return;
	lhs_end = op;
	if (strchr("+:?", op[-1]))
		lhs_end--;
	reset = *lhs_end != '+';
	while (lhs_end > lhs && isspace((unsigned char)lhs_end[-1]))
		lhs_end--;
	n = lhs_end - lhs;
	if (!strncmp(lhs, "subdir-", 7)) {
		to = &m->subdir;
		lhs += 7;
		n -= 7;
	} else {
		to = &m->cflags;
	}
	if ((n == 9 && !strncmp(lhs, "ccflags-y", 9)) ||
	    (n == 12 && !strncmp(lhs, "EXTRA_CFLAGS", 12))) {
		/* unconditional */
	} else if (n > 18 && !strncmp(lhs, "ccflags-$(CONFIG_", 17) &&
		   lhs[n - 1] == ')') {
		char *opt = xstrndup(lhs + 17, n - 18);
		bool on = find(b->config, opt) != NULL;

		free(opt);
		if (!on)
			return;
	} else if (to == &m->cflags && n &&
		   strspn(lhs, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			       "0123456789_") == n) {
		struct var *v;
		char *name = xstrndup(lhs, n), *value = op + 1, *old;

		while (isspace((unsigned char)*value))
			value++;
		HASH_FIND_STR(m->vars, name, v);
		if (!v) {
			v = xcalloc(1, sizeof(*v));
			v->name = name;
			HASH_ADD_KEYPTR(hh, m->vars, v->name, n, v);
		} else {
			free(name);
		}
		old = v->value;
		v->value = !reset && old ? xasprintf("%s %s", old, value)
					 : xstrdup(value);
		free(old);
		return;
	} else {
		return;
	}
	if (reset)
		sb_release(to);
	include_opts(b, m, op + 1, to);
}

static void read_lines(struct built *b, struct mk *m, char *text, int depth);

/*
 * "include FILE" (or "-include"): its lines are the includer's, with its
 * folder and variables.  nouveau's Kbuild lists nvkm/engine/fifo/base.o &
 * co in the files it includes, and gives them its include paths.
 */
static void include_makefile(struct built *b, struct mk *m, const char *arg,
			     int depth)
{
	struct sb path = SB_INIT;
	char *text;

	while (isspace((unsigned char)*arg))
		arg++;
	expand(b, m, arg, &path, 0);
	/* $(src) is relative to the root, $(srctree) is not */
	if (depth < 4 && path.len && !strchr(sb_str(&path), '\1') &&
	    !strpbrk(sb_str(&path), " \t")) {
		char *full = path.buf[0] == '/'
				     ? xstrdup(path.buf)
				     : xasprintf("%s/%s", b->root, path.buf);

		text = read_file(full, NULL);
		free(full);
		read_lines(b, m, text, depth + 1);
		free(text);
	}
	sb_release(&path);
}

/* The logical lines of a Makefile's @text, for @m. */
static void read_lines(struct built *b, struct mk *m, char *text, int depth)
{
	char *p, *line;

	/* join continuation lines */
	for (p = text; p && *p; p++)
		if (p[0] == '\\' && p[1] == '\n')
			p[0] = p[1] = ' ';
	for (line = text; line && *line;) {
		char *eol = line + strcspn(line, "\n"), *dash, *op;

		if (*eol)
			*eol++ = '\0';
		while (isspace((unsigned char)*line))
			line++;
		/* -include: the same, if the file is there */
		p = line + (*line == '-');
		if (!strncmp(p, "include", 7) && isspace((unsigned char)p[7])) {
			include_makefile(b, m, p + 8, depth);
			line = eol;
			continue;
		}
		if (*line != '#')
			assignment(b, m, line);
		dash = strchr(line, '-');
		op = strstr(line, "=");
		if (dash && op && dash < op && *line != '#') {
			char *cond = dash + 1, *end = op;

			if (end > cond && (end[-1] == '+' || end[-1] == ':'))
				end--;
			while (end > cond && isspace((unsigned char)end[-1]))
				end--;
			mention(b, m->dir, cond, end - cond, op + 1);
		}
		line = eol;
	}
}

/* The logical lines of @dir's Kbuild or Makefile, once. */
static struct mk *read_makefile(struct built *b, const char *dir)
{
	char *path, *text;
	struct mk *m;

	HASH_FIND_STR(b->mks, dir, m);
	if (m)
		return m;
	m = xcalloc(1, sizeof(*m));
	m->dir = xstrdup(dir);
	HASH_ADD_KEYPTR(hh, b->mks, m->dir, strlen(m->dir), m);
	path = xasprintf("%s/%s/Kbuild", b->root, dir);
	text = read_file(path, NULL);
	free(path);
	if (!text) {
		path = xasprintf("%s/%s/Makefile", b->root, dir);
		text = read_file(path, NULL);
		free(path);
	}
	m->exists = text != NULL;
	read_lines(b, m, text, 0);
	free(text);
	return m;
}

static bool option_set(struct built *b, const char *opt)
{
	return (b->all_set || find(b->config, opt)) && !find(b->unset, opt);
}

struct built *built_open(const char *root, const char *dotconfig)
{
	struct built *b = xcalloc(1, sizeof(*b));

	b->root = xstrdup(root);
	b->all_set = !dotconfig;
	if (dotconfig && read_config(b, dotconfig) < 0) {
		built_close(b);
		return NULL;
	}
	return b;
}

void built_unset(struct built *b, const char *opt)
{
	add(&b->unset, opt);
}

/*
 * The first mention of a folder of @rel, or of @rel itself (a .c file),
 * that is off.
 */
static struct ref *off_ref(struct built *b, const char *rel)
{
	bool is_c = has_suffix(rel, ".c");
	char *copy = xstrdup(rel), *slash, *obj;
	struct ref *r, *off = NULL;

	obj = xasprintf("%.*so", (int)strlen(rel) - 1, rel); /* x.c -> x.o */
	/* a/b/c/x.c: a's Makefile says b/, a/b's says c/, a/b/c's x.o */
	for (slash = strchr(copy, '/'); slash && !off;
	     slash = strchr(slash + 1, '/')) {
		char *next = strchr(slash + 1, '/'), *key;

		*slash = '\0';
		read_makefile(b, copy);
		*slash = '/';
		if (!next && !is_c)
			break;	/* a header: its folders only */
		key = next ? xstrndup(copy, next - copy + 1) : xstrdup(obj);
		r = find(b->refs, key);
		if (r && !r->on)
			off = r;
		free(key);
	}
	free(obj);
	free(copy);
	return off;
}

void built_include_opts(struct built *b, const char *rel, struct sb *out)
{
	char *obj = xasprintf("%.*so", (int)strlen(rel) - 1, rel);
	char *copy = xstrdup(rel), *slash, *owner = NULL;
	struct ref *r;
	struct mk *m;

	off_ref(b, rel);	/* reads the Makefiles of every folder of @rel */
	r = find(b->refs, obj);
	if (r)
		owner = xstrdup(r->owner);
	/* else the nearest folder with a Makefile */
	for (slash = strrchr(copy, '/'); !owner && slash;
	     slash = strrchr(copy, '/')) {
		*slash = '\0';
		if (read_makefile(b, copy)->exists)
			owner = xstrdup(copy);
	}
	free(copy);
	if (!owner) {
		free(obj);
		return;
	}
	/* subdir-ccflags-y of every folder down to the owner, then its own */
	for (slash = strchr(owner, '/');; slash = strchr(slash + 1, '/')) {
		if (slash)
			*slash = '\0';
		m = read_makefile(b, owner);
		sb_adds(out, sb_str(&m->subdir));
		if (!slash)
			break;
		*slash = '/';
	}
	sb_adds(out, sb_str(&m->cflags));
	free(owner);
	free(obj);
}

bool built_has(struct built *b, const char *rel)
{
	return !off_ref(b, rel);
}

const char *built_why(struct built *b, const char *rel)
{
	struct ref *r = off_ref(b, rel);

	return r ? r->off_by : NULL;
}

void built_close(struct built *b)
{
	if (!b)
		return;
	free_map(&b->refs);
	free_mks(&b->mks);
	free_map(&b->config);
	free_map(&b->unset);
	free(b->root);
	free(b);
}
