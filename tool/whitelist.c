// SPDX-License-Identifier: GPL-2.0
#include "whitelist.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char *const classes[] = {
	"hardirq", "irqchip", "sched", "arch", "irqs-off", "nested",
	"latency", "hardware", NULL,
};

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static int parse_line(struct whitelist *w, const char *path, unsigned ln,
		      char *line)
{
	struct wl_entry e = { 0 };
	char *sep, *id, *word;
	unsigned i;

	for (sep = strstr(line, " :"); sep && sep[2] && sep[2] != ' ' &&
					sep[2] != '\t';
	     sep = strstr(sep + 1, " :"))
		;
	if (!sep)
		return error("%s:%u: expected 'must-spin CLASS IDENTITY : "
			     "REASON' or 'convert IDENTITY : REASON'",
			     path, ln);
	*sep = '\0';
	e.reason = trim(sep + 2);
	if (!*e.reason)
		return error("%s:%u: the reason is missing", path, ln);
	word = trim(line);
	id = word + strcspn(word, " \t");
	if (*id)
		*id++ = '\0';
	if (!strcmp(word, "must-spin")) {
		e.must_spin = true;
		e.cls = trim(id);
		id = e.cls + strcspn(e.cls, " \t");
		if (*id)
			*id++ = '\0';
		if (!*e.cls)
			return error("%s:%u: the class is missing (one of "
				     "hardirq, irqchip, sched, arch, irqs-off, "
				     "nested, latency, hardware)", path, ln);
		if (!str_in(classes, e.cls))
			return error("%s:%u: unknown reason '%s' (one of hardirq, "
				     "irqchip, sched, arch, irqs-off, nested, "
				     "latency, hardware)",
				     path, ln, e.cls);
	} else if (strcmp(word, "convert")) {
		return error("%s:%u: unknown verdict '%s' (must-spin or "
			     "convert)", path, ln, word);
	}
	id = trim(id);
	if (!*id)
		return error("%s:%u: the lock identity is missing", path, ln);
	for (i = 0; i < w->n; i++)
		if (!strcmp(w->v[i].id, id))
			return error("%s:%u: %s is already listed at %s", path,
				     ln, id, w->v[i].where);
	ALLOC_GROW(w->v, w->n, w->alloc);
	w->v[w->n].id = xstrdup(id);
	w->v[w->n].must_spin = e.must_spin;
	w->v[w->n].cls = e.cls ? xstrdup(e.cls) : NULL;
	w->v[w->n].reason = xstrdup(e.reason);
	w->v[w->n++].where = xasprintf("%s:%u", path, ln);
	return 0;
}

int whitelist_parse(struct whitelist *w, const char *path, const char *text)
{
	char *copy = xstrdup(text), *line, *next;
	unsigned ln = 0;
	int rc = 0;

	for (line = copy; line && !rc; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ln++;
		if (strchr(line, '#'))
			*strchr(line, '#') = '\0';
		if (!*trim(line))
			continue;
		if (strlen(line) > 4096)
			rc = error("%s:%u: line too long", path, ln);
		else if (!utf8_valid(line))
			rc = error("%s:%u: not valid UTF-8", path, ln);
		else
			rc = parse_line(w, path, ln, line);
	}
	free(copy);
	return rc;
}

int whitelist_load(struct whitelist *w, const char *dir)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL, *text;
	size_t n = 0, alloc = 0, i, len;
	int rc = 0;

	memset(w, 0, sizeof(*w));
	if (is_file(dir)) {
		names = xcalloc(1, sizeof(char *));
		names[n++] = xstrdup(dir);
	} else if ((d = opendir(dir))) {
		while ((de = readdir(d))) {
			if (!has_suffix(de->d_name, ".txt"))
				continue;
			ALLOC_GROW(names, n, alloc);
			names[n++] = xasprintf("%s/%s", dir, de->d_name);
		}
		closedir(d);
		if (n)
			qsort(names, n, sizeof(char *), cmp_strp);
	} else {
		return error("whitelist %s: %s", dir, strerror(errno));
	}
	for (i = 0; i < n && !rc; i++) {
		text = read_file(names[i], &len);
		if (!text)
			rc = error("whitelist %s: %s", names[i], strerror(errno));
		else if (strlen(text) != len)
			rc = error("%s: not a text file (NUL byte)", names[i]);
		else
			rc = whitelist_parse(w, names[i], text);
		free(text);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

void whitelist_free(struct whitelist *w)
{
	unsigned i;

	for (i = 0; i < w->n; i++) {
		free(w->v[i].id);
		free(w->v[i].cls);
		free(w->v[i].reason);
		free(w->v[i].where);
	}
	free(w->v);
	memset(w, 0, sizeof(*w));
}
