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
	UT_hash_handle hh;
};

struct built {
	char *root;
	struct ref *refs;
	struct ref *dirs_read;	/* folders whose Makefile was read */
	struct ref *config;	/* options set (=y, =m, or a value) */
};

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
		free(r);
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
		on = find(b->config, opt) != NULL;
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
		r->on |= on;
		if (!on && !r->off_by)
			r->off_by = xstrdup(opt);
	}
	free(opt);
}

/* The logical lines of @dir's Kbuild or Makefile, once. */
static void read_makefile(struct built *b, const char *dir)
{
	char *path, *text, *p, *line;

	if (find(b->dirs_read, dir))
		return;
	add(&b->dirs_read, dir);
	path = xasprintf("%s/%s/Kbuild", b->root, dir);
	text = read_file(path, NULL);
	free(path);
	if (!text) {
		path = xasprintf("%s/%s/Makefile", b->root, dir);
		text = read_file(path, NULL);
		free(path);
	}
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
		dash = strchr(line, '-');
		op = strstr(line, "=");
		if (dash && op && dash < op && *line != '#') {
			char *cond = dash + 1, *end = op;

			if (end > cond && (end[-1] == '+' || end[-1] == ':'))
				end--;
			while (end > cond && isspace((unsigned char)end[-1]))
				end--;
			mention(b, dir, cond, end - cond, op + 1);
		}
		line = eol;
	}
	free(text);
}

struct built *built_open(const char *root, const char *dotconfig)
{
	struct built *b = xcalloc(1, sizeof(*b));

	b->root = xstrdup(root);
	if (read_config(b, dotconfig) < 0) {
		built_close(b);
		return NULL;
	}
	return b;
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
	free_map(&b->dirs_read);
	free_map(&b->config);
	free(b->root);
	free(b);
}
