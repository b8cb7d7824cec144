// SPDX-License-Identifier: GPL-2.0
#include "prog.h"

#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "util.h"

struct strset_ix {
	const char *str;	/* one of the set's v[] */
	UT_hash_handle hh;
};

static void strset_index(struct strset *s, const char *str)
{
	struct strset_ix *e = xmalloc(sizeof(*e));

	e->str = str;
	HASH_ADD_KEYPTR(hh, s->ix, str, strlen(str), e);
}

bool strset_has(const struct strset *s, const char *str)
{
	struct strset_ix *e;
	unsigned i;

	if (s->ix) {
		HASH_FIND_STR(s->ix, str, e);
		return e != NULL;
	}
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], str))
			return true;
	return false;
}

bool strset_add(struct strset *s, const char *str)
{
	unsigned i;

	if (strset_has(s, str))
		return false;
	ALLOC_GROW(s->v, s->n, s->alloc);
	s->v[s->n++] = xstrdup(str);
	if (s->ix)
		strset_index(s, s->v[s->n - 1]);
	else if (s->n > STRSET_LINEAR)
		for (i = 0; i < s->n; i++)
			strset_index(s, s->v[i]);
	return true;
}

void strset_free(struct strset *s)
{
	struct strset_ix *e, *tmp;
	unsigned i;

	HASH_ITER(hh, s->ix, e, tmp) {
		HASH_DEL(s->ix, e);
		free(e);
	}
	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

struct rmemo {
	char *target;
	struct strset ids;
	bool resolved, busy;
	UT_hash_handle hh;
};

void prog_init(struct prog *p)
{
	memset(p, 0, sizeof(*p));
	p->fnrefs = json_array();
	p->regs = json_array();
	p->statics = json_array();
}

struct plock *prog_lock(struct prog *p, const char *id)
{
	struct plock *l;

	if (!id)
		return NULL;
	HASH_FIND_STR(p->locks, id, l);
	return l;
}

struct pfunc *prog_func(struct prog *p, const char *id)
{
	struct pfunc *f;

	if (!id)
		return NULL;
	HASH_FIND_STR(p->funcs, id, f);
	return f;
}

static void add_lock(struct prog *p, const char *file, json_t *o)
{
	struct plock *l = prog_add_lock(
		p, json_str(o, "id"),
		!strcmp(json_str(o, "type"), "raw_spinlock_t") ? LT_RAW : LT_SPIN,
		json_str(o, "kind"), file,
		json_int(o, "line"));

	{
		char *pos = xasprintf("%s:%d", file,
				      (int)json_integer_value(
					      json_object_get(o, "line")));

		strset_add(&l->decls, pos);
		free(pos);
	}
	l->array |= json_is_true(json_object_get(o, "array"));
	l->def |= json_is_true(json_object_get(o, "def"));
	l->ndecls++;
}

struct plock *prog_add_lock(struct prog *p, const char *id,
			    enum lock_type type, const char *kind,
			    const char *file, int line)
{
	struct plock *l = prog_lock(p, id);

	if (l)
		return l;
	l = xcalloc(1, sizeof(*l));
	l->id = xstrdup(id);
	l->type = type;
	l->kind = xstrdup(kind);
	l->file = xstrdup(file);
	l->line = line;
	HASH_ADD_KEYPTR(hh, p->locks, l->id, strlen(l->id), l);
	return l;
}

/* Function attributes that put a function in a low-level section. */
static const char *const low_level_sections[] = {
	"noinstr", "__irq_entry", "__cpuidle", "__noinstr_section", NULL,
};

static void add_func(struct prog *p, const char *file, json_t *o)
{
	const char *id = json_str(o, "id");
	struct pfunc *f = prog_func(p, id);

	if (f)
		return; /* a static inline seen again, or a duplicate */
	f = xcalloc(1, sizeof(*f));
	f->id = xstrdup(id);
	f->name = xstrdup(json_str(o, "name"));
	f->file = xstrdup(file);
	f->line = json_int(o, "line");
	f->is_static = json_is_true(json_object_get(o, "static"));
	f->attrs = json_incref(json_object_get(o, "attrs"));
	f->low_level = json_words_have(f->attrs, low_level_sections);
	if (json_object_get(o, "macro"))
		f->macro = xstrdup(json_str(o, "macro"));
	if (json_object_get(o, "ret"))
		f->ret = xstrdup(json_str(o, "ret"));
	f->outs = json_incref(json_object_get(o, "outs"));
	f->ir = json_incref(json_object_get(o, "ir"));
	HASH_ADD_KEYPTR(hh, p->funcs, f->id, strlen(f->id), f);
}

static void add_ptr(struct pptr **set, const char *id, const char *to)
{
	struct pptr *pp;

	HASH_FIND_STR(*set, id, pp);
	if (!pp) {
		pp = xcalloc(1, sizeof(*pp));
		pp->id = xstrdup(id);
		HASH_ADD_KEYPTR(hh, *set, pp->id, strlen(pp->id), pp);
	}
	if (to)
		strset_add(&pp->to, to);
}

static void add_slot(struct prog *p, json_t *o)
{
	char *id = xasprintf("%s:%s", json_str(o, "at"), json_str(o, "name"));

	add_ptr(&p->slots, id, json_string_value(json_object_get(o, "flows")));
	free(id);
}

static void append_with_file(json_t *dst, json_t *src, const char *file)
{
	size_t i;
	json_t *o;

	json_array_foreach(src, i, o) {
		json_t *c = json_copy(o);

		json_object_set_new(c, "file", json_string(file));
		json_array_append_new(dst, c);
	}
}

void prog_add_facts(struct prog *p, json_t *facts)
{
	const char *file = json_str(facts, "file");
	size_t i;
	json_t *o;

	p->nfiles++;
	json_array_foreach(json_object_get(facts, "locks"), i, o)
		add_lock(p, file, o);
	json_array_foreach(json_object_get(facts, "funcs"), i, o)
		add_func(p, file, o);
	json_array_foreach(json_object_get(facts, "ptrs"), i, o)
		add_ptr(&p->ptrs, json_str(o, "id"), json_str(o, "to"));
	json_array_foreach(json_object_get(facts, "slots"), i, o)
		add_slot(p, o);
	append_with_file(p->fnrefs, json_object_get(facts, "fnrefs"), file);
	append_with_file(p->regs, json_object_get(facts, "regs"), file);
	append_with_file(p->statics, json_object_get(facts, "statics"), file);
}

bool is_direct_callee(const char *c)
{
	return strncmp(c, "ptr:", 4) && strncmp(c, "var:", 4) &&
	       strncmp(c, "P:", 2) && strncmp(c, "U:", 2);
}

static void add_args(struct pfunc *f, json_t *args)
{
	size_t j;
	json_t *a;

	if (f->nparams < json_array_size(args)) {
		f->param_args = xrealloc(f->param_args, json_array_size(args) *
							sizeof(struct strset));
		memset(f->param_args + f->nparams, 0,
		       (json_array_size(args) - f->nparams) *
			       sizeof(struct strset));
		f->nparams = json_array_size(args);
	}
	json_array_foreach(args, j, a)
		if (json_is_string(a))
			strset_add(&f->param_args[j], json_string_value(a));
}

/* The function of a "P:fn#n" or "O:fn#n" target, and its n in *@n. */
static struct pfunc *target_param(struct prog *p, const char *t, unsigned *n)
{
	const char *hash = strrchr(t, '#');
	struct pfunc *f;
	char *fn;

	if (!hash)
		return NULL;
	fn = xstrndup(t + 2, hash - t - 2);
	f = prog_func(p, fn);
	free(fn);
	*n = atoi(hash + 1);
	return f;
}

/* What callers pass as parameter n of f, for a target "P:f#n", or NULL. */
static const struct strset *param_args_of(struct prog *p, const char *t)
{
	unsigned n;
	struct pfunc *f = target_param(p, t, &n);

	return f && n < f->nparams ? &f->param_args[n] : NULL;
}

static void resolve_fns(struct prog *p, const char *t, struct strset *out,
			struct strset *seen)
{
	const struct strset *args;
	unsigned i;

	if (out->n > PROG_MAX_FNS)
		return;
	if (!strncmp(t, "fn:", 3)) {
		strset_add(out, t + 3);
		return;
	}
	if (strncmp(t, "P:", 2) || strchr(t, '|') || !strset_add(seen, t))
		return;
	args = param_args_of(p, t);
	for (i = 0; args && i < args->n; i++)
		resolve_fns(p, args->v[i], out, seen);
}

const struct strset *prog_resolve_fns(struct prog *p, const char *target)
{
	char *key = xasprintf("fns:%s", target);
	struct rmemo *m;

	HASH_FIND_STR(p->memo, key, m);
	if (!m) {
		struct strset seen = { 0 };

		m = xcalloc(1, sizeof(*m));
		m->target = key;
		key = NULL;
		resolve_fns(p, target, &m->ids, &seen);
		strset_free(&seen);
		m->resolved = m->ids.n <= PROG_MAX_FNS;
		HASH_ADD_KEYPTR(hh, p->memo, m->target, strlen(m->target), m);
	}
	free(key);
	return m->resolved ? &m->ids : NULL;
}

/*
 * Calls' arguments, per callee parameter: direct calls first; then calls
 * through a function pointer parameter, to every function callers pass
 * there (list_lru's isolate callbacks get &nlru->lock).
 */
static void collect_args(struct prog *p, json_t *ir, bool indirect)
{
	size_t i, j;
	json_t *ev, *sub;

	json_array_foreach(ir, i, ev) {
		const char *op = json_string_value(json_array_get(ev, 0));

		if (op && !strcmp(op, "call")) {
			const char *callee =
				json_string_value(json_array_get(ev, 2));
			json_t *args = json_array_get(ev, 3);
			const struct strset *fns;
			struct pfunc *f;

			if (!callee || !args)
				continue;
			if (!indirect) {
				if (is_direct_callee(callee) &&
				    (f = prog_func(p, callee)))
					add_args(f, args);
				continue;
			}
			if (strncmp(callee, "P:", 2))
				continue;
			fns = prog_resolve_fns(p, callee);
			for (j = 0; fns && j < fns->n; j++)
				if ((f = prog_func(p, fns->v[j])))
					add_args(f, args);
			continue;
		}
		json_array_foreach(ev, j, sub)
			if (json_is_array(sub))
				collect_args(p, sub, indirect);
	}
}

void prog_link(struct prog *p)
{
	struct pfunc *f, *tmp;

	HASH_ITER(hh, p->funcs, f, tmp)
		collect_args(p, f->ir, false);
	HASH_ITER(hh, p->funcs, f, tmp)
		collect_args(p, f->ir, true);
	flow_summaries(p);
}

static bool resolve_one(struct prog *p, const char *t, struct strset *out,
			int depth);

static bool resolve_set(struct prog *p, const struct strset *s,
			struct strset *out, int depth)
{
	bool ok = true;
	unsigned i;

	for (i = 0; i < s->n; i++)
		ok &= resolve_one(p, s->v[i], out, depth + 1);
	return ok && s->n;
}

static bool resolve_alt(struct prog *p, const char *t, struct strset *out,
			int depth)
{
	struct pfunc *f;
	struct pptr *pp;
	bool ok = false;

	if (!strncmp(t, "L:", 2)) {
		strset_add(out, t + 2);
		return true;
	}
	if (depth > 12)
		return false;
	if (!strncmp(t, "P:", 2)) {
		const struct strset *args = param_args_of(p, t);

		return args && resolve_set(p, args, out, depth);
	}
	if (!strncmp(t, "R:", 2)) {
		f = prog_func(p, t + 2);
		return f && f->ret && resolve_one(p, f->ret, out, depth + 1);
	}
	if (!strncmp(t, "O:", 2)) {
		const char *stored = NULL;
		char key[16];
		unsigned n;

		if ((f = target_param(p, t, &n))) {
			snprintf(key, sizeof(key), "%u", n);
			stored = json_string_value(json_object_get(f->outs, key));
		}
		return stored && resolve_one(p, stored, out, depth + 1);
	}
	if (!strncmp(t, "F:", 2)) {
		unsigned before = out->n;

		HASH_FIND_STR(p->ptrs, t + 2, pp);
		ok = pp && resolve_set(p, &pp->to, out, depth);
		if (out->n > before)
			return ok;
		/*
		 * Nothing declared is ever stored there: the pointer leads to
		 * an allocated lock (page->ptl), named after the pointer.
		 */
		if (!strchr(t + 2, ':') || strstr(t + 2, "::")) {
			strset_add(out, t + 2);
			return true;
		}
		return false;
	}
	return false;
}

/* A target with alternatives, memoised; cycles resolve to nothing. */
static bool resolve_one(struct prog *p, const char *t, struct strset *out,
			int depth)
{
	struct rmemo *m;
	unsigned i;

	if (!strncmp(t, "L:", 2) && !strchr(t, '|')) {
		strset_add(out, t + 2);
		return true;
	}
	HASH_FIND_STR(p->memo, t, m);
	if (!m) {
		char *copy = xstrdup(t), *alt, *save = NULL;

		m = xcalloc(1, sizeof(*m));
		m->target = xstrdup(t);
		m->busy = true;
		HASH_ADD_KEYPTR(hh, p->memo, m->target, strlen(m->target), m);
		m->resolved = true;
		for (alt = strtok_r(copy, "|", &save); alt;
		     alt = strtok_r(NULL, "|", &save))
			m->resolved &= resolve_alt(p, alt, &m->ids, depth);
		m->busy = false;
		free(copy);
	} else if (m->busy) {
		return true; /* recursion: the outer call collects the rest */
	}
	for (i = 0; i < m->ids.n; i++)
		strset_add(out, m->ids.v[i]);
	return m->resolved && m->ids.n;
}

bool prog_resolve(struct prog *p, const char *target, struct strset *out)
{
	return resolve_one(p, target, out, 0);
}

static void pptrs_free(struct pptr **set)
{
	struct pptr *pp, *pt;

	HASH_ITER(hh, *set, pp, pt) {
		HASH_DEL(*set, pp);
		free(pp->id);
		strset_free(&pp->to);
		free(pp);
	}
}

void prog_free(struct prog *p)
{
	struct plock *l, *lt;
	struct pfunc *f, *ft;
	struct rmemo *m, *mt;
	unsigned i;

	HASH_ITER(hh, p->locks, l, lt) {
		HASH_DEL(p->locks, l);
		free(l->id);
		free(l->kind);
		free(l->file);
		strset_free(&l->decls);
		free(l);
	}
	HASH_ITER(hh, p->funcs, f, ft) {
		HASH_DEL(p->funcs, f);
		free(f->id);
		free(f->name);
		free(f->file);
		free(f->macro);
		free(f->ret);
		json_decref(f->attrs);
		json_decref(f->outs);
		json_decref(f->ir);
		strset_free(&f->acquires);
		strset_free(&f->releases);
		strset_free(&f->may_release);
		for (i = 0; i < f->nparams; i++)
			strset_free(&f->param_args[i]);
		free(f->param_args);
		free(f->callees);
		free(f);
	}
	pptrs_free(&p->ptrs);
	pptrs_free(&p->slots);
	HASH_ITER(hh, p->memo, m, mt) {
		HASH_DEL(p->memo, m);
		free(m->target);
		strset_free(&m->ids);
		free(m);
	}
	json_decref(p->fnrefs);
	json_decref(p->regs);
	json_decref(p->statics);
}
