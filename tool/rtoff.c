// SPDX-License-Identifier: GPL-2.0
/*
 * Code a PREEMPT_RT kernel does not build: the options whose Kconfig entry
 * depends on !PREEMPT_RT (6.1: DRM_I915, TRANSPARENT_HUGEPAGE, SLAB,
 * LEDS_TRIGGER_CPU ...) and the files the Makefiles build only under them
 * (built.c, with those options unset).  A chain through such code cannot
 * happen on PREEMPT_RT, and a verdict on a lock declared there is moot.
 * Only a plain conjunct counts: "depends on X && !PREEMPT_RT", not one
 * under "||" or in an "if" block.
 */
#include "rtoff.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "built.h"
#include "prog.h"
#include "util.h"

struct rtoff {
	struct built *view;	/* the configuration, those options unset */
	struct strset opts;
};

static bool is_kconfig(const char *name)
{
	return !strcmp(name, "Kconfig") || !strncmp(name, "Kconfig.", 8);
}

static const char *after(const char *line, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(line, word, n) || (line[n] != ' ' && line[n] != '\t'))
		return NULL;
	return line + n + strspn(line + n, " \t");
}

/* The options of one Kconfig file that depend on !PREEMPT_RT. */
static void read_kconfig(struct rtoff *r, const char *path)
{
	char *text = read_file(path, NULL), *line, *save = NULL;
	char *cur = NULL;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *s = line + strspn(line, " \t"), *v;

		if ((v = after(s, "config")) || (v = after(s, "menuconfig"))) {
			free(cur);
			cur = xstrndup(v, strcspn(v, " \t#"));
		} else if (!strncmp(s, "help", 4) || !strncmp(s, "---help", 7) ||
			   after(s, "menu") || after(s, "choice") ||
			   after(s, "if") || after(s, "source") ||
			   !strcmp(s, "endmenu") || !strcmp(s, "endif") ||
			   !strcmp(s, "endchoice")) {
			FREE_AND_NULL(cur);
		} else if (cur && (v = after(s, "depends")) &&
			   (v = after(v, "on")) && strstr(v, "!PREEMPT_RT") &&
			   !strstr(v, "||")) {
			strset_add(&r->opts, cur);
		}
	}
	free(cur);
	free(text);
}

static void walk(struct rtoff *r, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *path;
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			walk(r, path);
		else if (S_ISREG(st.st_mode) && is_kconfig(e->d_name))
			read_kconfig(r, path);
		free(path);
	}
	if (d)
		closedir(d);
}

struct rtoff *rtoff_open(const char *root, const char *dotconfig)
{
	struct rtoff *r = xcalloc(1, sizeof(*r));
	unsigned i;

	walk(r, root);
	r->view = built_open(root, dotconfig);
	if (!r->view) {
		rtoff_close(r);
		return NULL;
	}
	for (i = 0; i < r->opts.n; i++)
		built_unset(r->view, r->opts.v[i]);
	return r;
}

const char *rtoff_why(struct rtoff *r, const char *rel)
{
	const char *opt;

	if (!r || !r->opts.n)
		return NULL;
	opt = built_why(r->view, rel);
	return opt && strset_has(&r->opts, opt) ? opt : NULL;
}

void rtoff_close(struct rtoff *r)
{
	if (!r)
		return;
	built_close(r->view);
	strset_free(&r->opts);
	free(r);
}
