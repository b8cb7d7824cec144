// SPDX-License-Identifier: GPL-2.0
/*
 * Seqcounts associated with a spinlock, read from a file's text: the calls
 * that tie a seqcount to its lock and the declarations of seqcounts.
 * convert.c decides from them which seqcounts follow a kept lock.
 */
#include <string.h>

#include "seqcount.h"
#include "util.h"

static const char *const tie_macros[] = {
	"seqcount_spinlock_init",
	"SEQCNT_SPINLOCK_ZERO",
	NULL,
};

static size_t skip_ws(const char *m, size_t i)
{
	while (m[i] == ' ' || m[i] == '\t' || m[i] == '\n' || m[i] == '\\')
		i++;
	return i;
}

/* Offset of the ',' or ')' that ends the argument starting at @i. */
static size_t arg_end(const char *m, size_t i)
{
	int depth = 0;

	for (; m[i]; i++) {
		if (m[i] == '(' || m[i] == '[' || m[i] == '{')
			depth++;
		else if ((m[i] == ')' || m[i] == ']' || m[i] == '}') && depth)
			depth--;
		else if ((m[i] == ',' || m[i] == ')') && !depth)
			break;
	}
	return i;
}

/*
 * The name an argument [s, e) ends in: &x->a.NAME, NAME, &NAME; *member
 * when it is written after '.' or "->".  NULL for anything else.
 */
static char *last_name(const char *m, size_t s, size_t e, bool *member)
{
	size_t n;

	while (e > s && strchr(" \t\n\\", m[e - 1]))
		e--;
	for (n = 0; n < e - s && ident_char(m[e - 1 - n]); n++)
		;
	if (!n || (m[e - n] >= '0' && m[e - n] <= '9'))
		return NULL;
	e -= n;
	*member = (e > s && m[e - 1] == '.') ||
		  (e > s + 1 && m[e - 1] == '>' && m[e - 2] == '-');
	return xstrndup(m + e, n);
}

static void add_use(struct seqcounts *sc, const char *rel, const char *m,
		    unsigned line, unsigned col, size_t args)
{
	size_t e0 = arg_end(m, args), e1;
	struct seq_use u = { 0 };

	if (m[e0] != ',')
		return;
	e1 = arg_end(m, e0 + 1);
	if (m[e1] != ')')
		return;
	u.seq = last_name(m, args, e0, &u.seq_member);
	u.lock = last_name(m, e0 + 1, e1, &u.lock_member);
	if (!u.seq || !u.lock) {
		free(u.seq);
		free(u.lock);
		return;
	}
	u.rel = xstrdup(rel);
	u.line = line;
	u.col = col;
	ALLOC_GROW(sc->uses, sc->nuses, sc->alloc_uses);
	sc->uses[sc->nuses++] = u;
}

static void add_decl(struct seqcounts *sc, const char *rel, const char *m,
		     size_t i, unsigned line)
{
	size_t n;

	for (;;) {
		i = skip_ws(m, i);
		if (m[i] != '*')
			break;
		i++;
	}
	for (n = 0; ident_char(m[i + n]); n++)
		;
	if (!n)
		return;
	ALLOC_GROW(sc->decls, sc->ndecls, sc->alloc_decls);
	sc->decls[sc->ndecls].rel = xstrdup(rel);
	sc->decls[sc->ndecls].line = line;
	sc->decls[sc->ndecls++].name = xstrndup(m + i, n);
}

static size_t skip_blank(const char *t, size_t i)
{
	while (t[i] == ' ' || t[i] == '\t')
		i++;
	return i;
}

static size_t ident_len(const char *t, size_t i)
{
	size_t n = 0;

	while (ident_char(t[i + n]))
		n++;
	return n && !(t[i] >= '0' && t[i] <= '9') ? n : 0;
}

/*
 * The alias a line holding "#define NAME a.b->LAST" at @i (the '#')
 * defines, added to @sc.  Function-like macros and any other body are not.
 */
static void add_alias(struct seqcounts *sc, const char *t, size_t i)
{
	size_t name, nlen, last = 0, n, dots = 0;

	i = skip_blank(t, i + 1);
	if (strncmp(t + i, "define", 6) ||
	    (t[i + 6] != ' ' && t[i + 6] != '\t'))
		return;
	name = skip_blank(t, i + 6);
	nlen = ident_len(t, name);
	if (!nlen || (t[name + nlen] != ' ' && t[name + nlen] != '\t'))
		return;
	for (i = skip_blank(t, name + nlen); (n = ident_len(t, i)); dots++) {
		last = i;
		i += n;
		if (t[i] == '.')
			i++;
		else if (t[i] == '-' && t[i + 1] == '>')
			i += 2;
		else
			break;
	}
	i = skip_blank(t, i);
	if (!n || !dots ||
	    (t[i] && t[i] != '\n' && strncmp(t + i, "/*", 2) &&
	     strncmp(t + i, "//", 2)))
		return;
	ALLOC_GROW(sc->aliases, sc->naliases, sc->alloc_aliases);
	sc->aliases[sc->naliases].name = xstrndup(t + name, nlen);
	sc->aliases[sc->naliases++].last = xstrndup(t + last, n);
}

static void scan_aliases(struct seqcounts *sc, const char *text)
{
	const char *p;

	for (p = strstr(text, "define"); p; p = strstr(p + 6, "define")) {
		const char *h = p;

		while (h > text && (h[-1] == ' ' || h[-1] == '\t'))
			h--;
		if (h > text && h[-1] == '#')
			add_alias(sc, text, (size_t)(h - 1 - text));
	}
}

size_t seqcounts_scan(struct seqcounts *sc, const char *rel, const char *text)
{
	size_t before = sc->nuses + sc->ndecls;
	char *m;
	size_t i, n, len, bol = 0;
	unsigned line = 1, k;

	scan_aliases(sc, text);
	if (!strstr(text, "seqcount_spinlock") &&
	    !strstr(text, "SEQCNT_SPINLOCK"))
		return 0;
	m = mask_c(text);
	len = strlen(m);
	for (i = 0; next_word(m, len, &i, &n); i += n) {
		for (; bol < i; bol++)
			line += m[bol] == '\n';
		for (k = 0; tie_macros[k]; k++)
			if (strlen(tie_macros[k]) == n &&
			    !memcmp(m + i, tie_macros[k], n))
				break;
		if (tie_macros[k]) {
			size_t j = skip_ws(m, i + n), c = i;

			while (c && m[c - 1] != '\n')
				c--;
			if (m[j] == '(')
				add_use(sc, rel, m, line, i - c + 1, j + 1);
		} else if (n == 19 &&
			   !memcmp(m + i, "seqcount_spinlock_t", n)) {
			add_decl(sc, rel, m, i + n, line);
		}
	}
	free(m);
	return sc->nuses + sc->ndecls - before;
}

/* The field alias @name names, if every definition of it agrees. */
static const char *alias_of(const struct seqcounts *sc, const char *name)
{
	const char *last = NULL;
	size_t i;

	for (i = 0; i < sc->naliases; i++) {
		if (strcmp(sc->aliases[i].name, name))
			continue;
		if (last && strcmp(last, sc->aliases[i].last))
			return NULL;
		last = sc->aliases[i].last;
	}
	return last;
}

void seqcounts_resolve_aliases(struct seqcounts *sc)
{
	size_t i;

	for (i = 0; i < sc->nuses; i++) {
		struct seq_use *u = &sc->uses[i];
		const char *last = alias_of(sc, u->lock);

		if (last) {
			free(u->lock);
			u->lock = xstrdup(last);
			u->lock_member = true;
		}
	}
}

void seqcounts_free(struct seqcounts *sc)
{
	size_t i;

	for (i = 0; i < sc->naliases; i++) {
		free(sc->aliases[i].name);
		free(sc->aliases[i].last);
	}
	free(sc->aliases);

	for (i = 0; i < sc->nuses; i++) {
		free(sc->uses[i].rel);
		free(sc->uses[i].seq);
		free(sc->uses[i].lock);
	}
	for (i = 0; i < sc->ndecls; i++) {
		free(sc->decls[i].rel);
		free(sc->decls[i].name);
	}
	free(sc->uses);
	free(sc->decls);
	memset(sc, 0, sizeof(*sc));
}
