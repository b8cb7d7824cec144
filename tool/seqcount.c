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
 * The identifier that ends right before @e (blanks skipped), not before
 * @s: its start, *@n its length (0: none).
 */
static size_t word_before(const char *m, size_t s, size_t e, size_t *n)
{
	while (e > s && strchr(" \t\n\\", m[e - 1]))
		e--;
	for (*n = 0; *n < e - s && ident_char(m[e - 1 - *n]); ++*n)
		;
	return e - *n;
}

/*
 * The name an argument [s, e) ends in: &x->a.NAME, NAME, &NAME; *member
 * when it is written after '.' or "->", *at where it starts.  NULL for
 * anything else.
 */
static char *last_name(const char *m, size_t s, size_t e, bool *member,
		       size_t *at)
{
	size_t n;

	e = word_before(m, s, e, &n);
	if (!n || (m[e] >= '0' && m[e] <= '9'))
		return NULL;
	*member = (e > s && m[e - 1] == '.') ||
		  (e > s + 1 && m[e - 1] == '>' && m[e - 2] == '-');
	*at = e;
	return xstrndup(m + e, n);
}

/* Is the object before the last name the same in [s0, e0) and [s1, e1)? */
static bool same_base(const char *m, size_t s0, size_t e0, size_t s1,
		      size_t e1)
{
	while (s0 < e0 && strchr(" \t\n\\&", m[s0]))
		s0++;
	while (s1 < e1 && strchr(" \t\n\\&", m[s1]))
		s1++;
	return e0 - s0 == e1 - s1 && !memcmp(m + s0, m + s1, e0 - s0);
}

static void add_use(struct seqcounts *sc, const char *rel, const char *m,
		    unsigned line, unsigned col, size_t args)
{
	size_t e0 = arg_end(m, args), e1, seq_at, lock_at;
	struct seq_use u = { 0 };

	if (m[e0] != ',')
		return;
	e1 = arg_end(m, e0 + 1);
	if (m[e1] != ')')
		return;
	u.seq = last_name(m, args, e0, &u.seq_member, &seq_at);
	u.lock = last_name(m, e0 + 1, e1, &u.lock_member, &lock_at);
	if (!u.seq || !u.lock) {
		free(u.seq);
		free(u.lock);
		return;
	}
	u.same_object = u.seq_member && u.lock_member &&
			same_base(m, args, seq_at, e0 + 1, lock_at);
	u.rel = xstrdup(rel);
	u.line = line;
	u.col = col;
	ALLOC_GROW(sc->uses, sc->nuses, sc->alloc_uses);
	sc->uses[sc->nuses++] = u;
}

/* The offset of the '{' that opens the block @i is in, or -1. */
static long block_start(const char *m, size_t i)
{
	int depth = 0;

	while (i--) {
		if (m[i] == '}')
			depth++;
		else if (m[i] == '{' && !depth--)
			return (long)i;
	}
	return -1;
}

/* Is the block opening at @open followed by ';' once it is closed? */
static bool block_ends_decl(const char *m, size_t open)
{
	int depth = 0;
	size_t i;

	for (i = open; m[i]; i++) {
		if (m[i] == '{')
			depth++;
		else if (m[i] == '}' && !--depth)
			break;
	}
	if (!m[i])
		return false;
	i = skip_ws(m, i + 1);
	return m[i] == ';';
}

/* Is [s, s + n) the keyword "struct" or "union"? */
static bool record_keyword(const char *m, size_t s, size_t n)
{
	return (n == 6 && !memcmp(m + s, "struct", 6)) ||
	       (n == 5 && !memcmp(m + s, "union", 5));
}

/*
 * The record a declaration at @i is a field of, named as resolve.c names
 * a field's record: "struct NAME", with " (in FILE)" in a C file; an
 * anonymous member's fields are its outermost named record's.  NULL when
 * the declaration is not in a "struct NAME {" or "union NAME {" body, or
 * is in an unnamed record that is not an anonymous member.  *@body is
 * where the record's '{' is.
 */
static char *record_of(const char *rel, const char *m, size_t i, size_t *body)
{
	long open;

	while ((open = block_start(m, i)) >= 0) {
		size_t n, k, name = word_before(m, 0, (size_t)open, &n);
		size_t kw = word_before(m, 0, name, &k);

		if (n && record_keyword(m, name, n)) {
			if (!block_ends_decl(m, (size_t)open))
				return NULL;
			i = (size_t)open;	/* an anonymous member */
			continue;
		}
		if (!n || !record_keyword(m, kw, k))
			return NULL;
		*body = (size_t)open;
		return has_suffix(rel, ".c")
			       ? xasprintf("%.*s %.*s (in %s)", (int)k, m + kw,
					   (int)n, m + name, rel)
			       : xasprintf("%.*s %.*s", (int)k, m + kw, (int)n,
					   m + name);
	}
	return NULL;
}

/* A statement "struct T NAME" in [s, e): a field of @record, added. */
static void add_field(struct seqcounts *sc, const char *record, const char *m,
		      size_t s, size_t e)
{
	size_t kw = skip_ws(m, s), k = ident_len(m, kw), t, n, name, nlen;

	if (!k || !record_keyword(m, kw, k))
		return;
	t = skip_ws(m, kw + k);
	n = ident_len(m, t);
	name = skip_ws(m, t + n);
	nlen = ident_len(m, name);
	if (!n || !nlen || skip_ws(m, name + nlen) < e)
		return;
	ALLOC_GROW(sc->fields, sc->nfields, sc->alloc_fields);
	sc->fields[sc->nfields].record = xstrdup(record);
	sc->fields[sc->nfields].name = xstrndup(m + name, nlen);
	sc->fields[sc->nfields++].type = xasprintf("%.*s %.*s", (int)k, m + kw,
						   (int)n, m + t);
}

/* The fields of a record type in the body of @record at @body ('{'). */
static void add_fields(struct seqcounts *sc, const char *record,
		       const char *m, size_t body)
{
	size_t i, s = body + 1;
	int depth = 0;

	for (i = 0; i < sc->nfields; i++)
		if (!strcmp(sc->fields[i].record, record))
			return;
	for (i = body + 1; m[i] && depth >= 0; i++) {
		if (m[i] == '{')
			depth++;
		else if (m[i] == '}')
			depth--;
		else if (m[i] == ';' && !depth) {
			add_field(sc, record, m, s, i);
			s = i + 1;
		}
	}
}

static void add_decl(struct seqcounts *sc, const char *rel, const char *m,
		     size_t i, unsigned line)
{
	size_t n, at = i, body = 0;

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
	sc->decls[sc->ndecls].record = record_of(rel, m, at, &body);
	if (sc->decls[sc->ndecls].record)
		add_fields(sc, sc->decls[sc->ndecls].record, m, body);
	sc->decls[sc->ndecls++].name = xstrndup(m + i, n);
}

/*
 * The alias a line holding "#define NAME a.b->LAST" at @i (the '#')
 * defines, added to @sc.  Function-like macros and any other body are not.
 */
static void add_alias(struct seqcounts *sc, const char *t, size_t i)
{
	size_t name, nlen, first = 0, last = 0, n, dots = 0;

	i = skip_blank(t, i + 1);
	if (strncmp(t + i, "define", 6) ||
	    (t[i + 6] != ' ' && t[i + 6] != '\t'))
		return;
	name = skip_blank(t, i + 6);
	nlen = ident_len(t, name);
	if (!nlen || (t[name + nlen] != ' ' && t[name + nlen] != '\t'))
		return;
	for (i = skip_blank(t, name + nlen); (n = ident_len(t, i)); dots++) {
		if (!dots)
			first = i;
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
	sc->aliases[sc->naliases].first =
		dots == 1 && t[first + ident_len(t, first)] == '.'
			? xstrndup(t + first, ident_len(t, first))
			: NULL;
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

/*
 * The field alias @name names, if every definition of it agrees; *@first
 * the field it goes through, if they all agree on that too.
 */
static const char *alias_of(const struct seqcounts *sc, const char *name,
			    const char **first)
{
	const char *last = NULL;
	bool same_first = true;
	size_t i;

	*first = NULL;
	for (i = 0; i < sc->naliases; i++) {
		const struct seq_alias *a = &sc->aliases[i];

		if (strcmp(a->name, name))
			continue;
		if (last && strcmp(last, a->last))
			return NULL;
		if (last && (!*first || !a->first || strcmp(*first, a->first)))
			same_first = false;
		last = a->last;
		*first = a->first;
	}
	if (!same_first)
		*first = NULL;
	return last;
}

void seqcounts_resolve_aliases(struct seqcounts *sc)
{
	size_t i;

	for (i = 0; i < sc->nuses; i++) {
		struct seq_use *u = &sc->uses[i];
		const char *first, *last = alias_of(sc, u->lock, &first);

		if (last) {
			free(u->lock);
			u->lock = xstrdup(last);
			u->same_object = u->same_object && u->lock_member && first;
			u->via = u->same_object ? xstrdup(first) : NULL;
			u->lock_member = true;
		}
	}
}

const char *seqcounts_field_type(const struct seqcounts *sc,
				 const char *record, const char *name)
{
	size_t i;

	for (i = 0; i < sc->nfields; i++)
		if (!strcmp(sc->fields[i].record, record) &&
		    !strcmp(sc->fields[i].name, name))
			return sc->fields[i].type;
	return NULL;
}

void seqcounts_free(struct seqcounts *sc)
{
	size_t i;

	for (i = 0; i < sc->naliases; i++) {
		free(sc->aliases[i].name);
		free(sc->aliases[i].first);
		free(sc->aliases[i].last);
	}
	free(sc->aliases);

	for (i = 0; i < sc->nuses; i++) {
		free(sc->uses[i].rel);
		free(sc->uses[i].seq);
		free(sc->uses[i].lock);
		free(sc->uses[i].via);
	}
	for (i = 0; i < sc->ndecls; i++) {
		free(sc->decls[i].rel);
		free(sc->decls[i].name);
		free(sc->decls[i].record);
	}
	for (i = 0; i < sc->nfields; i++) {
		free(sc->fields[i].record);
		free(sc->fields[i].name);
		free(sc->fields[i].type);
	}
	free(sc->uses);
	free(sc->decls);
	free(sc->fields);
	memset(sc, 0, sizeof(*sc));
}
