// SPDX-License-Identifier: GPL-2.0
/*
 * What a conversion left: spinlock API calls and spinlock_t types on
 * lines of a converted file that are not the API's own definitions.
 */
#include "leftover.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "apitab.h"
#include "util.h"

/* End of the logical line at p (its '\n' or NUL), continuations followed. */
static const char *logical_eol(const char *p)
{
	for (; *p && *p != '\n'; p++)
		if (*p == '\\' && p[1] == '\n')
			p++;
	return p;
}

/* Index past the bracket matching m[i] (open), or strlen(m). */
static size_t match_close(const char *m, size_t i, char open, char close)
{
	int depth = 0;

	for (; m[i]; i++) {
		depth += (m[i] == open) - (m[i] == close);
		if (!depth)
			return i + 1;
	}
	return i;
}

static bool all_caps(const char *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (w[i] >= 'a' && w[i] <= 'z')
			return false;
	return true;
}

struct spans {
	size_t (*v)[2];
	size_t n, alloc;
};

static void span_add(struct spans *s, size_t from, size_t to)
{
	ALLOC_GROW(s->v, s->n, s->alloc);
	s->v[s->n][0] = from;
	s->v[s->n][1] = to;
	s->n++;
}

static bool in_spans(const struct spans *s, size_t off)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i][0] <= off && off < s->v[i][1])
			return true;
	return false;
}

static bool impl_name(const struct strset *impl, const char *w, size_t n)
{
	char *name = xstrndup(w, n);
	bool yes = strset_has(impl, name);

	free(name);
	return yes;
}

/*
 * Spans of m (masked) that define a name of impl: the logical line of
 * "#define NAME", and the parameters and body (or prototype) of a
 * function NAME at file scope.  The #define lines are blanked in m,
 * so that a macro's braces do not count at file scope.
 */
static void impl_spans(char *m, const struct strset *impl, struct spans *out)
{
	size_t i, depth = 0, parens = 0;
	char *p;

	for (p = m; (p = strchr(p, '#')); p++) {
		const char *bol = p, *w, *e;

		while (bol > m && (bol[-1] == ' ' || bol[-1] == '\t'))
			bol--;
		if (bol > m && bol[-1] != '\n')
			continue;
		e = logical_eol(p);
		w = p + 1 + strspn(p + 1, " \t");
		if (!strncmp(w, "define", 6)) {
			w += 6 + strspn(w + 6, " \t");
			for (i = 0; ident_char(w[i]); i++)
				;
			if (i && impl_name(impl, w, i))
				span_add(out, p - m, e - m);
		}
		for (; p < e; p++)
			if (*p != '\n')
				*p = ' ';
		p--;
	}
	for (i = 0; m[i]; i++) {
		size_t k, n;

		if (m[i] == '{' || m[i] == '}') {
			depth += m[i] == '{' ? 1 : -(depth > 0);
			continue;
		}
		if (m[i] == '(' || m[i] == ')') {
			parens += m[i] == '(' ? 1 : -(parens > 0);
			continue;
		}
		if (!ident_char(m[i]) || (i && ident_char(m[i - 1])))
			continue;
		for (n = 0; ident_char(m[i + n]); n++)
			;
		k = i + n + strspn(m + i + n, " \t\n");
		if (depth || parens || m[k] != '(' || all_caps(m + i, n) ||
		    !impl_name(impl, m + i, n)) {
			i += n - 1;
			continue;
		}
		k = match_close(m, k, '(', ')');
		k += strcspn(m + k, "{;");
		if (m[k] == '{')
			k = match_close(m, k, '{', '}');
		span_add(out, i, k + (m[k] != '\0'));
		i = k - (m[k] == '\0');
	}
}

/* An API word the conversion rewrites (not raw_spin_*, not _raw_spin_*). */
static bool spin_api_word(const char *w, size_t n)
{
	char buf[64];
	const struct lock_api *a;

	if (n >= sizeof(buf))
		return false;
	memcpy(buf, w, n);
	buf[n] = '\0';
	if (!strcmp(buf, "spinlock_t") || !strcmp(buf, "DEFINE_SPINLOCK"))
		return true;
	a = lock_api_find(buf);
	return a && !(a->flags & (LAPI_RAW | LAPI_INTERNAL));
}

/*
 * A use of the word at m[w..w+n): not a member (x->spin_lock), and a
 * function-like name only where it is called (not a label, "goto
 * spin_unlock;", nor a declared name, "lock_t spin_lock;").
 */
static bool is_use(const char *m, size_t w, size_t n)
{
	size_t k = w;

	while (k > 0 && (m[k - 1] == ' ' || m[k - 1] == '\t' || m[k - 1] == '\n'))
		k--;
	if (k > 0 && (m[k - 1] == '.' || (m[k - 1] == '>' && k > 1 && m[k - 2] == '-')))
		return false;
	if (n == strlen("spinlock_t") && !strncmp(m + w, "spinlock_t", n))
		return true;
	return m[w + n + strspn(m + w + n, " \t\n")] == '(';
}

/* Is an API word written anywhere in t, comments and all? */
static bool has_api_word(const char *t)
{
	size_t i, n, len = strlen(t);

	for (i = 0; next_word(t, len, &i, &n); i += n)
		if (spin_api_word(t + i, n))
			return true;
	return false;
}

unsigned leftover_lines(const char *rel, const char *t, const struct strset *keep,
			const struct strset *impl, json_t *list)
{
	char *m, *top;
	struct spans defs = { 0 };
	unsigned line = 1, n = 0, last = 0;
	size_t i;

	/* most converted files: one pass, nothing to mask */
	if (!has_api_word(t))
		return 0;
	m = mask_c(t);
	top = xstrdup(m);
	impl_spans(top, impl, &defs);
	for (i = 0; m[i]; i++) {
		size_t len;
		char *pos;

		if (m[i] == '\n')
			line++;
		if (!ident_char(m[i]) || (i && ident_char(m[i - 1])))
			continue;
		for (len = 0; ident_char(m[i + len]); len++)
			;
		if (line == last || !spin_api_word(m + i, len) || !is_use(m, i, len) ||
		    in_spans(&defs, i)) {
			i += len - 1;
			continue;
		}
		pos = xasprintf("%s:%u", rel, line);
		if (!strset_has(keep, pos)) {
			last = line;
			n++;
			if (json_array_size(list) < LEFTOVER_LIST_MAX)
				json_array_append_new(list, json_pack("{ssss#}", "at", pos,
								      "word", m + i, len));
		}
		free(pos);
		i += len - 1;
	}
	free(defs.v);
	free(top);
	free(m);
	return n;
}

void cocci_block_names(const char *t, const char *block, bool keys_only,
		       struct strset *out)
{
	char *start = xasprintf("\n%s = ", block);
	const char *p = strstr(t, start), *end;

	free(start);
	if (!p)
		return;
	end = strstr(p, "\n}");
	for (p = strchr(p, '{'); p && p < end; p++) {
		const char *q;

		if (*p == '#')
			p += strcspn(p, "\n");
		if (*p != '"')
			continue;
		for (q = p + 1; ident_char(*q); q++)
			;
		if (*q == '"' && q > p + 1 &&
		    (!keys_only || q[1 + strspn(q + 1, " \t")] == ':')) {
			char *name = xstrndup(p + 1, q - p - 1);

			strset_add(out, name);
			free(name);
		}
		p = q;
	}
}

int leftover_impl_names(const char *cocci_path, struct strset *impl)
{
	char *t = read_file(cocci_path, NULL);
	struct strset keys = { 0 };
	unsigned i;

	if (!t)
		return error("%s: %s", cocci_path, strerror(errno));
	/* IMPL's own definition: LOCK_T_MAP but spinlock_t, and its set */
	cocci_block_names(t, "LOCK_T_MAP", true, &keys);
	for (i = 0; i < keys.n; i++)
		if (strcmp(keys.v[i], "spinlock_t"))
			strset_add(impl, keys.v[i]);
	cocci_block_names(t, "IMPL", false, impl);
	strset_free(&keys);
	free(t);
	if (impl->n < 2)
		return error("%s: no LOCK_T_MAP or IMPL names found", cocci_path);
	return 0;
}
