// SPDX-License-Identifier: GPL-2.0
#include "classify_int.h"
#include "convert.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "flow.h"
#include "rtoff.h"
#include "sleep.h"
#include "rules/rules.h"
#include "util.h"
#include "whitelist.h"

/*
 * The evidence printed for a lock: at most 8 outer locks, each reached
 * through at most 40 calls (lock_chain(), func_chain()).
 */
#define CHAIN_MAX_STEPS (8 * 41)

struct fidx {
	const char *id;
	unsigned idx;
	UT_hash_handle hh;
};

struct lidx {
	const char *id;
	unsigned idx;
	UT_hash_handle hh;
};

/* The functions stored into a field or variable, and the fnrefs saying so. */
struct fieldfns {
	const char *field;
	struct fieldfn {
		unsigned fn;
		json_t *ref;
	} *v;
	unsigned n, alloc;
	UT_hash_handle hh;
};

static const char *const class_names[CL_NCLASSES] = {
	[CL_NONE] = "sleepable", [CL_RAW] = "raw",
	[CL_WHITELIST] = "whitelist", [CL_HARDIRQ] = "hardirq",
	[CL_IRQCHIP] = "irqchip", [CL_SCHED] = "sched", [CL_ARCH] = "arch",
	[CL_IRQSOFF] = "irqs-off", [CL_NESTED] = "nested",
	[CL_SHARED] = "shared",
};

const char *class_name(enum lclass c)
{
	return class_names[c];
}

enum lclass class_by_name(const char *name)
{
	unsigned i;

	for (i = 0; i < CL_NCLASSES; i++)
		if (!strcmp(class_names[i], name))
			return i;
	return CL_NONE;
}

/* -1 for NULL too: ids come from facts, where a field may be missing. */
int func_index(struct classify *c, const char *id)
{
	struct fidx *f;

	if (!id)
		return -1;
	HASH_FIND_STR(c->fmap, id, f);
	return f ? (int)f->idx : -1;
}

static int lock_index(struct classify *c, const char *id)
{
	struct lidx *l;

	if (!id)
		return -1;
	HASH_FIND_STR(c->lmap, id, l);
	return l ? (int)l->idx : -1;
}

/*
 * The memory allocator's entry points.  On PREEMPT_RT the allocator takes
 * sleeping locks (zone->lock, the pcp and slab node locks) and may not be
 * called where a task cannot sleep (Documentation/locking/locktypes.rst,
 * "raw_spinlock_t on RT": no kmalloc(GFP_ATOMIC) under a raw_spinlock_t).
 * A context that cannot sleep therefore does not reach its locks: the call
 * is the PREEMPT_RT bug, not a reason to make them spin.  Unlike a sleeper,
 * calling one says nothing of the caller (kmalloc(GFP_ATOMIC) under a
 * spinlock_t is fine on PREEMPT_RT).
 */
static const char *const rt_sleepers[] = {
	"__alloc_pages", "__alloc_pages_bulk", "free_the_page", "free_unref_page",
	"free_unref_page_list", "__free_pages_ok", "slab_alloc_node", "slab_free",
	"__slab_free", "__kmem_cache_alloc_node", "__kmem_cache_free",
	"kmem_cache_alloc", "kmem_cache_alloc_lru", "kmem_cache_alloc_node",
	"kmem_cache_alloc_bulk", "kmem_cache_free", "kmem_cache_free_bulk",
	"kfree", "kmalloc_trace", "kmalloc_node_trace", "__kmalloc",
	"__kmalloc_node", "__kmalloc_node_track_caller", "kmalloc_large",
	"kmalloc_large_node", "free_large_kmalloc", "__vmalloc_node_range",
	"vfree", "kvfree",
	/* 6.10+ */
	"kmalloc", "__kmalloc_cache", "__kmalloc_cache_node", "__kmalloc_large",
	"__kmalloc_large_node", "alloc_pages", "alloc_pages_bulk",
	"free_unref_folios", NULL,
};

/*
 * One of rt_sleepers[]: since 6.10 (memory allocation profiling) their
 * definitions are called NAME_noprof, behind alloc_hooks() macros.
 */
static bool is_rt_sleeper(const char *name)
{
	size_t n = strlen(name);
	char stem[64];

	if (n > 7 && n - 7 < sizeof(stem) && !strcmp(name + n - 7, "_noprof")) {
		memcpy(stem, name, n - 7);
		stem[n - 7] = '\0';
		name = stem;
	}
	return str_in(rt_sleepers, name);
}


static struct fieldfns *field_fns(struct classify *c, const char *field)
{
	struct fieldfns *ff;

	HASH_FIND_STR(c->fields, field, ff);
	return ff;
}

/* Function @fn is stored into @field (a string of @ref's), as @ref says. */
static void add_field_fn(struct classify *c, const char *field, unsigned fn,
			 json_t *ref)
{
	struct fieldfns *ff = field_fns(c, field);

	if (!ff) {
		ff = xcalloc(1, sizeof(*ff));
		ff->field = field;
		HASH_ADD_KEYPTR(hh, c->fields, ff->field, strlen(ff->field),
				ff);
	}
	ALLOC_GROW(ff->v, ff->n, ff->alloc);
	ff->v[ff->n++] = (struct fieldfn){ fn, ref };
}

static void index_fnrefs(struct classify *c)
{
	size_t i;
	json_t *r;

	json_array_foreach(c->p->fnrefs, i, r) {
		const char *how = json_string_value(json_object_get(r, "how"));
		const char *field = json_string_value(json_object_get(r, "field"));
		int fn = func_index(c, json_string_value(json_object_get(r, "fn")));

		if (!how || strcmp(how, "arg") == 0 || !field || fn < 0)
			continue;
		add_field_fn(c, field, fn, r);
	}
}

#define TP_REGISTER "register_trace_"
#define TP_RAW_EVENT "trace_event_raw_event_"

/* The field of tracepoint @name's probes, in @buf. */
static const char *tp_field(const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "tracepoint %s", name);
	return buf;
}

/*
 * Store function @fn into tracepoint @name's field, once: a probe,
 * registered (or defined) at @file:@line.
 */
static void add_tp_probe(struct classify *c, const char *name, unsigned fn,
			 const char *file, json_int_t line)
{
	char buf[256];
	const struct fieldfns *ff = field_fns(c, tp_field(name, buf, sizeof(buf)));
	json_t *ref;
	unsigned i;

	for (i = 0; ff && i < ff->n; i++)
		if (ff->v[i].fn == fn)
			return;
	ref = json_pack("{sssssssI}", "fn", c->funcs[fn].f->id, "field", buf,
			"file", file, "line", line);
	json_array_append_new(c->tp_probes, ref);
	add_field_fn(c, json_str(ref, "field"), fn, ref);
}

/* register_trace_NAME(probe, ...) and register_trace_prio_NAME() in @ir */
static void find_tp_probes(struct classify *c, unsigned caller, json_t *ir)
{
	const char *kind = json_string_value(json_array_get(ir, 0));
	const char *callee, *name, *probe;
	json_t *v;
	size_t i;
	int fn;

	if (!kind || strcmp(kind, "call")) {
		json_array_foreach(ir, i, v)
			if (json_is_array(v))
				find_tp_probes(c, caller, v);
		return;
	}
	callee = json_string_value(json_array_get(ir, 2));
	name = callee ? strrchr(callee, ':') : NULL;
	if (!name || strncmp(++name, TP_REGISTER, strlen(TP_REGISTER)))
		return;
	name += strlen(TP_REGISTER);
	if (!strncmp(name, "prio_", 5))
		name += 5;
	probe = json_string_value(json_array_get(json_array_get(ir, 3), 0));
	if (probe && !strncmp(probe, "fn:", 3) &&
	    (fn = func_index(c, probe + 3)) >= 0)
		add_tp_probe(c, name, fn, c->funcs[caller].f->file,
			     json_integer_value(json_array_get(ir, 1)));
}

/*
 * A tracepoint fires where trace_NAME() is called, in any context (hard
 * irq, NMI, the scheduler's locks held), and calls its probes there:
 * those registered with register_trace_NAME(), and TRACE_EVENT(NAME)'s
 * trace_event_raw_event_NAME() (an event defined from a class calls the
 * class's, not followed).  Each is stored into the field "tracepoint NAME",
 * which a call of trace_NAME() calls through (build_call()), and listed in
 * c->tp_probes with where it was registered (or defined).
 */
static void index_tracepoints(struct classify *c)
{
	unsigned i;

	c->tp_probes = json_array();
	for (i = 0; i < c->nfuncs; i++) {
		const struct pfunc *f = c->funcs[i].f;

		if (!strncmp(f->name, TP_RAW_EVENT, strlen(TP_RAW_EVENT)))
			add_tp_probe(c, f->name + strlen(TP_RAW_EVENT), i,
				     f->file, f->line);
		if (f->ir)
			find_tp_probes(c, i, f->ir);
	}
}

struct build {
	struct classify *c;
	unsigned func;
	json_t *consts;		/* of the call event being built */
};

/* Lock indexes of resolved lock ids, a zero-terminated array. */
static unsigned *lock_ids(struct classify *c, struct strset *ids, unsigned *n)
{
	unsigned i, *v = xcalloc(ids->n + 1, sizeof(unsigned));

	*n = 0;
	for (i = 0; i < ids->n; i++) {
		int l = lock_index(c, ids->v[i]);

		if (l >= 0)
			v[(*n)++] = l;
	}
	strset_free(ids);
	return v;
}

/*
 * The locks held, but for those held through target @same: a lock taken
 * through a pointer while another is held through the same pointer
 * (spin_lock_nested(prev->lock) under fence->lock) is one lock of that
 * role taken twice, not each lock the pointer may name under each other.
 */
static unsigned *held_ids(struct classify *c, const struct fstate *st,
			  const char *same, unsigned *n)
{
	struct strset ids = { 0 };
	unsigned i;

	for (i = 0; i < st->nheld; i++)
		if (!same || strcmp(st->held[i].target, same))
			prog_resolve(c->p, st->held[i].target, &ids);
	return lock_ids(c, &ids, n);
}

static unsigned *dropped_ids(struct classify *c, const struct fstate *st,
			     unsigned *n)
{
	struct strset ids = { 0 };
	unsigned i;

	for (i = 0; i < st->ndropped; i++)
		prog_resolve(c->p, st->dropped[i], &ids);
	return lock_ids(c, &ids, n);
}

/*
 * A slot of the lock API itself (spin_needbreak()'s parameter) takes any
 * lock, and one in a file the conversion leaves alone keeps its type
 * (seqlock.h's seqcount_spinlock_t::lock, made by a macro that makes one
 * such type for each lock type).
 */
static bool slot_ignored(const struct pptr *slot)
{
	unsigned i;

	if (convert_leaves_alone(slot->id))
		return true;
	for (i = 0; i < slot->to.n; i++) {
		const char *t = slot->to.v[i];
		char *fn;
		bool api;

		if (strncmp(t, "P:", 2) && strncmp(t, "R:", 2))
			continue;
		fn = xstrndup(t + 2, strcspn(t + 2, "#|"));
		api = is_lock_api_function(id_name(fn));
		free(fn);
		if (api)
			return true;
	}
	return false;
}

static int cmp_slot(const void *a, const void *b)
{
	return strcmp((*(struct pptr *const *)a)->id,
		      (*(struct pptr *const *)b)->id);
}

/* The slots that hold more than nothing, and the slots of each lock. */
static void index_slots(struct classify *c)
{
	struct pptr *s, *tmp, **sv;
	unsigned n = HASH_COUNT(c->p->slots), i, j;

	sv = xcalloc(n + 1, sizeof(*sv));
	n = 0;
	HASH_ITER(hh, c->p->slots, s, tmp)
		if (!slot_ignored(s))
			sv[n++] = s;
	qsort(sv, n, sizeof(*sv), cmp_slot);
	c->slots = xcalloc(n + 1, sizeof(*c->slots));
	for (i = 0; i < n; i++) {
		struct cl_slot *cs = &c->slots[c->nslots];
		struct strset ids = { 0 };

		for (j = 0; j < sv[i]->to.n; j++)
			prog_resolve(c->p, sv[i]->to.v[j], &ids);
		cs->locks = lock_ids(c, &ids, &cs->nlocks);
		if (!cs->nlocks) {
			free(cs->locks);
			continue;
		}
		cs->id = sv[i]->id;
		for (j = 0; j < cs->nlocks; j++) {
			struct cl_lock *l = &c->locks[cs->locks[j]];

			ALLOC_GROW(l->slots, l->nslots, l->aslots);
			l->slots[l->nslots++] = c->nslots;
		}
		c->nslots++;
	}
	free(sv);
}

static void add_call(struct build *b, unsigned callee, int line,
		     const char *via, const struct fstate *st)
{
	struct cl_func *f = &b->c->funcs[b->func];
	struct cl_call *cl;

	ALLOC_GROW(f->calls, f->ncalls, f->acalls);
	cl = &f->calls[f->ncalls++];
	memset(cl, 0, sizeof(*cl));
	cl->callee = callee;
	cl->line = line;
	cl->via = via;
	cl->irqs_off = st->irq > 0;
	cl->irqs_may_on = st->irq_may_on;
	cl->preempt_off = st->preempt > 0;
	cl->last_ref = st->last_ref;
	cl->guard = st->guard;
	cl->guard_nonzero = st->guard_nonzero;
	cl->consts = b->consts;
	cl->held = held_ids(b->c, st, NULL, &cl->nheld);
	cl->dropped = dropped_ids(b->c, st, &cl->ndropped);
	f->drops |= cl->ndropped > 0;
}

/*
 * The function arguments of the call just added: functions, and the
 * caller's own parameters passed on ("P:self#n").
 */
static void add_fnargs(struct build *b, json_t *args)
{
	struct cl_func *f = &b->c->funcs[b->func];
	struct cl_call *cl = &f->calls[f->ncalls - 1];
	size_t self = strlen(f->f->id), m;
	json_t *a;

	json_array_foreach(args, m, a) {
		const char *t = json_string_value(a);
		int x;

		if (!t)
			continue;
		if (!strncmp(t, "fn:", 3) && (x = func_index(b->c, t + 3)) >= 0) {
			cl->fnargs = xrealloc(cl->fnargs, (cl->nfnargs + 1) *
							      sizeof(*cl->fnargs));
			cl->fnargs[cl->nfnargs].idx = m;
			cl->fnargs[cl->nfnargs++].fn = x;
		} else if (!strncmp(t, "P:", 2) && !strncmp(t + 2, f->f->id, self) &&
			   t[2 + self] == '#') {
			cl->passes = xrealloc(cl->passes, (cl->npasses + 1) *
							      sizeof(*cl->passes));
			cl->passes[cl->npasses].idx = m;
			cl->passes[cl->npasses++].param = atoi(t + 3 + self);
		}
	}
}

/* Does @f call its parameter @n (calls_params)? */
static bool calls_param(const struct cl_func *f, unsigned n)
{
	return n < 64 && (f->calls_params >> n & 1);
}

/*
 * The functions callers pass as a parameter ("P:f#n"), or NULL: unknown,
 * or more than max_fanout.
 */
static const struct strset *passed_fns(struct classify *c, const char *param)
{
	const struct strset *fns = prog_resolve_fns(c->p, param);

	return fns && fns->n <= c->max_fanout ? fns : NULL;
}

/*
 * A function calls its parameter n when it passes it on to a callee that
 * calls it (__list_lru_walk_one()'s isolate, through list_lru_walk()'s):
 * to a fixed point.
 */
static void close_calls_params(struct classify *c)
{
	bool changed = true;
	unsigned i, j, k;

	while (changed) {
		changed = false;
		for (i = 0; i < c->nfuncs; i++) {
			struct cl_func *f = &c->funcs[i];

			for (j = 0; j < f->ncalls; j++) {
				const struct cl_call *cl = &f->calls[j];

				for (k = 0; k < cl->npasses; k++) {
					unsigned n = cl->passes[k].param;

					if (n < 64 && !calls_param(f, n) &&
					    calls_param(&c->funcs[cl->callee],
							cl->passes[k].idx)) {
						f->calls_params |= 1ULL << n;
						changed = true;
					}
				}
			}
		}
	}
}

static void add_wide(struct build *b, const struct fieldfns *ff, int line,
		     const struct fstate *st)
{
	struct cl_func *f = &b->c->funcs[b->func];
	struct cl_wide *w;

	ALLOC_GROW(f->wide, f->nwide, f->awide);
	w = &f->wide[f->nwide++];
	w->field = ff->field;
	w->nfns = ff->n;
	w->line = line;
	w->irqs_off = st->irq > 0;
	w->preempt_off = st->preempt > 0;
	w->held = held_ids(b->c, st, NULL, &w->nheld);
	b->c->wide_calls++;
}

/* A call through @ff: each function stored there, unless too many. */
static void add_field_calls(struct build *b, const struct fieldfns *ff,
			    int line, const struct fstate *st)
{
	unsigned i;

	if (ff && ff->n > b->c->max_fanout) {
		add_wide(b, ff, line, st);
		return;
	}
	for (i = 0; ff && i < ff->n; i++) {
		add_call(b, ff->v[i].fn, line, ff->field, st);
		b->c->ptr_edges++;
	}
}

/* trace_NAME(): its probes (index_tracepoints()) */
static void add_tp_calls(struct build *b, const char *callee, int line,
			 const struct fstate *st)
{
	const char *name = id_name(callee);
	char buf[256];

	if (strncmp(name, "trace_", 6))
		return;
	tp_field(name + 6, buf, sizeof(buf));
	add_field_calls(b, field_fns(b->c, buf), line, st);
}

static void build_call(struct build *b, const struct flow_event *e)
{
	const char *callee = json_string_value(json_array_get(e->ev, 2));
	int line = json_integer_value(json_array_get(e->ev, 1)), fn;
	unsigned i;

	if (!callee)
		return;
	b->consts = json_array_get(e->ev, 4);
	/* through a field, or a variable (a global function pointer) */
	if (!strncmp(callee, "ptr:", 4) || !strncmp(callee, "var:", 4)) {
		if (rules_dispatched(callee + 4))
			return;
		add_field_calls(b, field_fns(b->c, callee + 4), line, e->st);
		return;
	}
	/* through a function pointer parameter: what callers pass there */
	if (!strncmp(callee, "P:", 2)) {
		const struct strset *fns = passed_fns(b->c, callee);
		const char *hash = strrchr(callee, '#');
		unsigned n = hash ? atoi(hash + 1) : 64;

		/* not on a release path: kref_put()'s release() */
		if (n < 64 && !e->st->last_ref)
			b->c->funcs[b->func].calls_params |= 1ULL << n;

		for (i = 0; fns && i < fns->n; i++) {
			if ((fn = func_index(b->c, fns->v[i])) < 0)
				continue;
			add_call(b, fn, line, callee, e->st);
			b->c->ptr_edges++;
		}
		return;
	}
	/* by name, even where the tree defines it (schedule(), mutex_lock()) */
	fn = func_index(b->c, callee);
	if (is_sleeping_call(callee, fn >= 0))
		b->c->funcs[b->func].sleeps = true;
	if (fn >= 0) {
		add_call(b, fn, line, NULL, e->st);
		add_fnargs(b, json_array_get(e->ev, 3));
	}
	add_tp_calls(b, callee, line, e->st);
}

static void build_acq(struct build *b, const struct flow_event *e)
{
	const char *op = json_string_value(json_array_get(e->ev, 2));
	const char *tgt = json_string_value(json_array_get(e->ev, 4));
	struct cl_func *f = &b->c->funcs[b->func];
	struct strset ids = { 0 };
	unsigned i;

	if (!op || !tgt ||
	    (strcmp(op, "acquire") && strcmp(op, "trylock") &&
	     strcmp(op, "condlock")))
		return;
	prog_resolve(b->c->p, tgt, &ids);
	for (i = 0; i < ids.n; i++) {
		int l = lock_index(b->c, ids.v[i]);
		struct cl_acq *a;

		if (l < 0)
			continue;
		ALLOC_GROW(f->acqs, f->nacqs, f->aacqs);
		a = &f->acqs[f->nacqs++];
		a->lock = l;
		a->line = json_integer_value(json_array_get(e->ev, 1));
		a->api = json_string_value(json_array_get(e->ev, 3));
		a->at = json_string_value(json_array_get(e->ev, 5));
		a->irqs_off = e->st->irq > 0;
		a->irqs_may_on = e->st->irq_may_on;
		a->preempt_off = e->st->preempt > 0;
		a->guard = e->st->guard;
		a->guard_nonzero = e->st->guard_nonzero;
		a->held = held_ids(b->c, e->st, ids.n > 1 ? tgt : NULL,
				   &a->nheld);
		a->dropped = dropped_ids(b->c, e->st, &a->ndropped);
		f->drops |= a->ndropped > 0;
		b->c->locks[l].nacqs++;
	}
	strset_free(&ids);
}

/*
 * Helpers the tree has for spinlock_t only: a lock used with one cannot
 * keep spinning unless that code is rewritten, so it converts whatever
 * its contexts say (a conflict, for review).  atomic_dec_and_raw_lock()
 * came later than raw_spinlock_t.
 */
static bool has_no_raw_form(const struct prog *p, const char *api)
{
	static const char *const names[] = {
		"cond_resched_lock", "spin_needbreak", "refcount_dec_and_lock",
		"refcount_dec_and_lock_irqsave", NULL,
	};

	if (!p->raw_dec_and_lock && (!strcmp(api, "atomic_dec_and_lock") ||
				     !strcmp(api, "atomic_dec_and_lock_irqsave")))
		return true;
	return str_in(names, api);
}

static void build_pin(struct build *b, const struct flow_event *e)
{
	const char *api = json_string_value(json_array_get(e->ev, 3));
	const char *tgt = json_string_value(json_array_get(e->ev, 4));
	const char *at = json_string_value(json_array_get(e->ev, 5));
	struct strset ids = { 0 };
	unsigned i;

	if (!api || !tgt || !has_no_raw_form(b->c->p, api))
		return;
	prog_resolve(b->c->p, tgt, &ids);
	for (i = 0; i < ids.n; i++) {
		int l = lock_index(b->c, ids.v[i]);

		if (l >= 0 && !b->c->locks[l].pin_api) {
			b->c->locks[l].pin_api = api;
			b->c->locks[l].pin_at = at ? at : "";
		}
	}
	strset_free(&ids);
}

/*
 * A pin holds for every lock a spinlock_t * declaration ties to a pinned
 * one (they have one type): struct page::ptl, handed to spin_needbreak(),
 * pins mm_struct::page_table_lock, which pte_lockptr() returns too.
 */
static void spread_pins(struct classify *c)
{
	unsigned *queue = xcalloc(c->nlocks + 1, sizeof(unsigned));
	unsigned head = 0, tail = 0, i, j, k;

	for (i = 0; i < c->nlocks; i++)
		if (c->locks[i].pin_api)
			queue[tail++] = i;
	while (head < tail) {
		struct cl_lock *l = &c->locks[queue[head++]];

		l->forced_convert = true;
		for (j = 0; j < l->nslots; j++) {
			const struct cl_slot *s = &c->slots[l->slots[j]];

			for (k = 0; k < s->nlocks; k++) {
				struct cl_lock *m = &c->locks[s->locks[k]];

				if (m->pin_api)
					continue;
				m->pin_api = l->pin_api;
				m->pin_at = l->pin_at;
				m->pin_by = l - c->locks;
				m->pin_slot = l->slots[j];
				queue[tail++] = s->locks[k];
			}
		}
	}
	free(queue);
}

/*
 * Unreached code (after `if (IS_ENABLED(CONFIG_PREEMPT_RT)) return;`, or a
 * call that does not return) takes and calls nothing in any context; its
 * uses of a lock still pin it (the conversion rewrites them all).
 */
static int build_cb(const struct flow_event *e, void *ctx)
{
	if (!strcmp(e->kind, "call")) {
		if (!e->st->unreached)
			build_call(ctx, e);
	} else {
		if (!e->st->unreached)
			build_acq(ctx, e);
		build_pin(ctx, e);
	}
	return 0;
}

static void add_held(struct cl_lock *l, unsigned func, unsigned idx,
		     bool is_call)
{
	ALLOC_GROW(l->held_at, l->nheld_at, l->aheld_at);
	l->held_at[l->nheld_at].func = func;
	l->held_at[l->nheld_at].idx = idx;
	l->held_at[l->nheld_at++].is_call = is_call;
}

static int cmp_func(const void *a, const void *b)
{
	return strcmp((*(struct pfunc *const *)a)->id,
		      (*(struct pfunc *const *)b)->id);
}

static int cmp_lock(const void *a, const void *b)
{
	return strcmp((*(struct plock *const *)a)->id,
		      (*(struct plock *const *)b)->id);
}

void classify_init(struct classify *c, struct prog *p, bool audit,
		   unsigned max_fanout)
{
	struct build b = { c, 0, NULL };
	struct pfunc *pf, *pft, **fv;
	struct plock *pl, *plt, **lv;
	unsigned i, j, k;

	memset(c, 0, sizeof(*c));
	c->p = p;
	c->audit = audit;
	c->max_fanout = max_fanout ? max_fanout : CL_MAX_FANOUT;
	c->max_spread = CL_MAX_SPREAD;
	c->max_call_spread = CL_MAX_CALL_SPREAD;
	c->stale = json_array();
	/* sorted, so that results do not depend on hash order */
	c->nlocks = HASH_COUNT(p->locks);
	lv = xcalloc(c->nlocks + 1, sizeof(*lv));
	i = 0;
	HASH_ITER(hh, p->locks, pl, plt)
		lv[i++] = pl;
	qsort(lv, c->nlocks, sizeof(*lv), cmp_lock);
	c->locks = xcalloc(c->nlocks + 1, sizeof(*c->locks));
	for (i = 0; i < c->nlocks; i++) {
		struct lidx *li = xcalloc(1, sizeof(*li));

		c->locks[i].l = lv[i];
		c->locks[i].by_func = c->locks[i].by_acq = -1;
		c->locks[i].outer = c->locks[i].by_slot = -1;
		c->locks[i].pin_by = c->locks[i].pin_slot = -1;
		li->id = lv[i]->id;
		li->idx = i;
		HASH_ADD_KEYPTR(hh, c->lmap, li->id, strlen(li->id), li);
	}
	free(lv);
	index_slots(c);
	c->nfuncs = HASH_COUNT(p->funcs);
	fv = xcalloc(c->nfuncs + 1, sizeof(*fv));
	i = 0;
	HASH_ITER(hh, p->funcs, pf, pft)
		fv[i++] = pf;
	qsort(fv, c->nfuncs, sizeof(*fv), cmp_func);
	c->funcs = xcalloc(c->nfuncs + 1, sizeof(*c->funcs));
	for (i = 0; i < c->nfuncs; i++) {
		struct fidx *fi = xcalloc(1, sizeof(*fi));

		c->funcs[i].f = fv[i];
		c->funcs[i].from_func = c->funcs[i].from_call = -1;
		c->funcs[i].from_lock = c->funcs[i].from_arg = -1;
		/* a sleeping primitive itself is never atomic either */
		c->funcs[i].sleeps = is_sleeping_call(fv[i]->id, true) ||
				     is_rt_sleeper(fv[i]->name);
		c->funcs[i].alone = rules_alone(fv[i]->name);
		fi->id = fv[i]->id;
		fi->idx = i;
		HASH_ADD_KEYPTR(hh, c->fmap, fi->id, strlen(fi->id), fi);
	}
	free(fv);
	owner_init(c);
	index_fnrefs(c);
	index_tracepoints(c);
	for (i = 0; i < c->nfuncs; i++) {
		b.func = i;
		flow_run(p, c->funcs[i].f, build_cb, &b);
		c->sleepy += c->funcs[i].sleeps;
	}
	close_calls_params(c);
	spread_pins(c);
	/* where each lock is held */
	for (i = 0; i < c->nfuncs; i++) {
		struct cl_func *f = &c->funcs[i];

		for (j = 0; j < f->nacqs; j++)
			for (k = 0; k < f->acqs[j].nheld; k++)
				add_held(&c->locks[f->acqs[j].held[k]], i, j,
					 false);
		for (j = 0; j < f->ncalls; j++)
			for (k = 0; k < f->calls[j].nheld; k++)
				add_held(&c->locks[f->calls[j].held[k]], i, j,
					 true);
	}
	/* a function is queued once, and again once when widened */
	c->queue = xcalloc(2 * c->nfuncs + 1, sizeof(unsigned));
}

/* The constant arguments of the call @from_func makes of @func there. */
static json_t *entry_consts(const struct classify *c, unsigned func,
			    int from_func, int from_call)
{
	const struct cl_call *cl;

	if (from_func < 0 || from_call < 0)
		return NULL;
	cl = &c->funcs[from_func].calls[from_call];
	return cl->callee == func ? cl->consts : NULL;
}

/* Does a call passing @consts rule out at least what @known did? */
static bool knows_as_much(json_t *known, json_t *consts)
{
	size_t i;
	json_t *v;

	json_array_foreach(known, i, v)
		if (json_is_integer(v) &&
		    !json_equal(v, json_array_get(consts, i)))
			return false;
	return true;
}

/*
 * Does the evidence chain that starts at @from_func (or at lock @from_lock
 * held there) go through @func?  It walks what func_chain() and
 * lock_chain() print, no further than they do: a chain may go round a
 * recursion that does not pass through @func.
 */
static bool chain_through(const struct classify *c, int from_func,
			  int from_lock, unsigned func)
{
	unsigned hops = 0;

	while (hops++ <= CHAIN_MAX_STEPS) {
		if (from_lock >= 0) {
			const struct cl_lock *l = &c->locks[from_lock];

			if (l->outer >= 0 && l->by_func < 0) {
				from_lock = l->outer;
				continue;
			}
			from_func = l->by_func;
			from_lock = l->outer;
			if (from_func < 0)
				return false;
		}
		if (from_func < 0)
			return false;
		if ((unsigned)from_func == func)
			return true;
		from_lock = c->funcs[from_func].from_lock;
		from_func = c->funcs[from_func].from_func;
	}
	return false;
}

/*
 * @f, already in a context that pruned branches by its constant arguments,
 * is entered by a call that does not rule out as much: it runs again with
 * every branch, from that call.  Unless that call's own chain goes through
 * @f (a lock @f made spin, held where @f is called again): the first chain
 * stays, or the evidence would go round in a circle.
 */
static void widen(struct classify *c, unsigned func, json_t *consts,
		  int from_func, int from_call, int from_lock)
{
	struct cl_func *f = &c->funcs[func];

	if (!f->consts || (consts && knows_as_much(f->consts, consts)))
		return;
	f->consts = NULL;
	if (!chain_through(c, from_func, from_lock, func)) {
		f->from_func = from_func;
		f->from_call = from_call;
		f->from_lock = from_lock;
		f->from_arg = -1;
	}
	c->queue[c->qtail++] = func;
}

void enqueue_in(struct classify *c, unsigned func, enum lclass cls,
		int from_func, int from_call, int from_lock, int scope)
{
	struct cl_func *f = &c->funcs[func];
	json_t *consts = entry_consts(c, func, from_func, from_call);

	if (f->sleeps || f->alone || f->off_rt)
		return;
	if (f->cls != CL_NONE) {
		widen(c, func, consts, from_func, from_call, from_lock);
		return;
	}
	f->consts = consts;
	f->cls = cls;
	f->scope = scope;
	f->from_func = from_func;
	f->from_call = from_call;
	f->from_lock = from_lock;
	f->from_arg = -1;
	c->queue[c->qtail++] = func;
}

/* The scope a context inherits: @lock's held, else @func's, else none. */
static int scope_from(const struct classify *c, int lock, int func)
{
	if (lock >= 0)
		return c->locks[lock].scope;
	return func >= 0 ? c->funcs[func].scope : -1;
}

void enqueue_func(struct classify *c, unsigned func, enum lclass cls,
		  int from_func, int from_call, int from_lock)
{
	enqueue_in(c, func, cls, from_func, from_call, from_lock,
		   scope_from(c, from_lock, from_func));
}

/*
 * Does @f's context come with what its caller passed (a call made in that
 * context, whose enqueue_passed() reached what @f calls through its
 * parameters), or from elsewhere (an entry, the functions a callee calls
 * through its parameters): then every function any caller passes.
 */
static bool passed_by_caller(const struct cl_func *f)
{
	return f->from_func >= 0 && f->from_arg < 0;
}

static void enqueue_arg(struct classify *c, unsigned fn, enum lclass cls,
			unsigned func, unsigned call, int lock, unsigned idx)
{
	unsigned tail = c->qtail;

	enqueue_func(c, fn, cls, func, call, lock);
	if (c->qtail != tail)
		c->funcs[fn].from_arg = idx;
}

void enqueue_passed(struct classify *c, unsigned func, unsigned call,
		    enum lclass cls, int lock)
{
	const struct cl_func *f = &c->funcs[func];
	const struct cl_call *cl = &f->calls[call];
	const struct cl_func *callee = &c->funcs[cl->callee];
	unsigned i, j;

	for (i = 0; i < cl->nfnargs; i++)
		if (calls_param(callee, cl->fnargs[i].idx))
			enqueue_arg(c, cl->fnargs[i].fn, cls, func, call, lock,
				    cl->fnargs[i].idx);
	/* its own parameter passed on: what its callers pass there */
	if (lock < 0 && passed_by_caller(f))
		return;
	for (i = 0; i < cl->npasses; i++) {
		const struct strset *fns;
		char *t;

		if (!calls_param(callee, cl->passes[i].idx))
			continue;
		t = xasprintf("P:%s#%u", f->f->id, cl->passes[i].param);
		fns = passed_fns(c, t);
		free(t);
		for (j = 0; fns && j < fns->n; j++) {
			int fn = func_index(c, fns->v[j]);

			if (fn >= 0)
				enqueue_arg(c, fn, cls, func, call, lock,
					    cl->passes[i].idx);
		}
	}
}

void entry_in(struct classify *c, unsigned fn, enum lclass cls,
	      const char *why, const char *at, int scope)
{
	struct cl_func *f = &c->funcs[fn];

	if (f->left_out && !f->out_why) {
		f->out_why = xstrdup(why);
		f->out_at = xstrdup(at ? at : "");
	}
	if (f->cls != CL_NONE || f->sleeps || f->alone || f->left_out ||
	    f->off_rt)
		return;
	f->why = xstrdup(why);
	f->at = xstrdup(at ? at : "");
	enqueue_in(c, fn, cls, -1, -1, -1, scope);
}

static void on_spin(struct classify *c, unsigned lock)
{
	unsigned i;

	for (i = 0; rules[i]; i++)
		if (rules[i]->on_spin)
			rules[i]->on_spin(c, lock);
}

/*
 * Already decided: spinning, or forced to convert with the first conflict
 * kept.  A lock that only a foreign context reached is not: its own
 * component's may still make it spin.
 */
static bool decided(const struct cl_lock *l)
{
	return l->cls != CL_NONE || (l->conflict != CL_NONE && !l->foreign);
}

/*
 * A lock forced to convert (a whitelist entry, a helper with no spinning
 * form) does not spin; the first context that would have made it spin is
 * kept as its conflict, for review.
 */
static bool set_spinning(struct classify *c, unsigned lock, enum lclass cls,
			 int func, int acq, int outer, int scope)
{
	struct cl_lock *l = &c->locks[lock];

	bool foreign;

	if (decided(l))
		return false;
	/* a declaration holds its locks whoever decided: one type */
	foreign = cls != CL_SHARED && !owner_admits(c, lock, scope);
	if (foreign && l->foreign)
		return false;
	l->by_func = func;
	l->by_acq = acq;
	l->outer = outer;
	l->scope = scope;
	l->foreign = foreign;
	if (l->forced_convert || foreign) {
		l->conflict = cls;
		return false;
	}
	l->conflict = CL_NONE;
	l->cls = cls;
	return true;
}

void spin_in(struct classify *c, unsigned lock, enum lclass cls, int func,
	     int acq, int outer, int scope)
{
	if (set_spinning(c, lock, cls, func, acq, outer, scope))
		on_spin(c, lock);
}

void spin_lock_from(struct classify *c, unsigned lock, enum lclass cls,
		    int func, int acq, int outer)
{
	spin_in(c, lock, cls, func, acq, outer, scope_from(c, outer, func));
}

/*
 * Every lock that shares a slot with spinning @outer first, then what each
 * makes spin: a lock's evidence names the declaration and the spinning lock
 * it shares, not a walk through the slot's other locks one by one.
 */
void spin_shared_with(struct classify *c, unsigned outer)
{
	const struct cl_lock *o = &c->locks[outer];
	unsigned *now = NULL, i, j, n = 0, a = 0;

	for (i = 0; i < o->nslots; i++) {
		const struct cl_slot *s = &c->slots[o->slots[i]];

		for (j = 0; j < s->nlocks; j++) {
			struct cl_lock *l = &c->locks[s->locks[j]];

			if (s->locks[j] == outer || decided(l))
				continue;
			l->by_slot = o->slots[i];
			if (!set_spinning(c, s->locks[j], CL_SHARED, -1, -1,
					  outer, o->scope))
				continue;
			ALLOC_GROW(now, n, a);
			now[n++] = s->locks[j];
		}
	}
	for (i = 0; i < n; i++)
		on_spin(c, now[i]);
	free(now);
}

void mark_lock(struct classify *c, unsigned lock, enum lclass cls,
	       const char *why, const char *at)
{
	struct cl_lock *l = &c->locks[lock];

	if (decided(l))
		return;
	l->why = xstrdup(why);
	l->at = xstrdup(at ? at : "");
	spin_lock_from(c, lock, cls, -1, -1, -1);
}

/*
 * Does an event of @f, in the state @irqs_off/@irqs_may_on, run in @f's
 * context?  Code reached from an entry that turns interrupts on, on some
 * path, is ordinary code from there (syscall_enter_from_user_mode() after
 * local_irq_enable(), do_user_addr_fault() before handle_mm_fault());
 * low-level code runs with them off until then.
 */
static bool in_context(const struct cl_func *f, bool irqs_off,
		       bool irqs_may_on)
{
	if (f->cls != CL_ARCH)
		return true;
	return !irqs_may_on && (!f->f->low_level || irqs_off);
}

/* Is a branch on parameter @guard ruled out by what @f was entered with? */
static bool ruled_out(const struct cl_func *f, int guard, bool nonzero)
{
	json_t *v;

	if (!guard || !f->consts)
		return false;
	v = json_array_get(f->consts, guard - 1);
	return json_is_integer(v) && (json_integer_value(v) != 0) != nonzero;
}

/* Visit queued functions: their locks spin, their callees are atomic. */
void drain(struct classify *c)
{
	while (c->qhead < c->qtail) {
		unsigned fn = c->queue[c->qhead++], i;
		struct cl_func *f = &c->funcs[fn];

		for (i = 0; i < f->nacqs; i++)
			if (in_context(f, f->acqs[i].irqs_off,
				       f->acqs[i].irqs_may_on) &&
			    !ruled_out(f, f->acqs[i].guard,
				       f->acqs[i].guard_nonzero))
				spin_lock_from(c, f->acqs[i].lock, f->cls, fn, i,
					       -1);
		for (i = 0; i < f->ncalls; i++) {
			const struct cl_call *cl = &f->calls[i];

			if (!in_context(f, cl->irqs_off, cl->irqs_may_on) ||
			    !call_followed(cl) ||
			    ruled_out(f, cl->guard, cl->guard_nonzero))
				continue;
			/*
			 * a call through a parameter calls what this
			 * function's caller passed, which that call enqueued
			 * (enqueue_passed()); an entry's calls every
			 * function any caller passes
			 */
			if (cl->via && !strncmp(cl->via, "P:", 2) &&
			    passed_by_caller(f))
				continue;
			enqueue_func(c, cl->callee, f->cls, fn, i, -1);
			enqueue_passed(c, fn, i, f->cls, -1);
		}
	}
}

bool ids_have(const unsigned *v, unsigned n, unsigned x)
{
	while (n--)
		if (v[n] == x)
			return true;
	return false;
}

const struct cl_part *func_part(struct classify *c, unsigned fn,
				unsigned lock)
{
	struct cl_func *f = &c->funcs[fn];
	unsigned i;

	for (i = 0; i < f->nparts; i++)
		if (f->parts[i].lock == lock)
			return &f->parts[i];
	return NULL;
}

void for_each_field_fn(struct classify *c, const char *field,
		       void (*fn)(struct classify *c, json_t *ref, void *ctx),
		       void *ctx)
{
	struct fieldfns *ff = field_fns(c, field);
	unsigned i;

	for (i = 0; ff && i < ff->n; i++)
		fn(c, ff->v[i].ref, ctx);
}

/* Forget every verdict and visit; what init and the whitelist forced stays. */
static void reset(struct classify *c)
{
	unsigned i;

	for (i = 0; i < c->nfuncs; i++) {
		struct cl_func *f = &c->funcs[i];

		f->cls = CL_NONE;
		f->consts = NULL;
		f->scope = -1;
		f->from_func = f->from_call = f->from_lock = f->from_arg = -1;
		FREE_AND_NULL(f->why);
		FREE_AND_NULL(f->at);
		f->nparts = 0;
	}
	for (i = 0; i < c->nlocks; i++) {
		struct cl_lock *l = &c->locks[i];

		l->cls = l->conflict = CL_NONE;
		l->scope = -1;
		l->foreign = false;
		l->by_func = l->by_acq = l->outer = l->by_slot = -1;
		FREE_AND_NULL(l->why);
		FREE_AND_NULL(l->at);
	}
	c->qhead = c->qtail = 0;
}

void classify_rerun(struct classify *c)
{
	const struct whitelist *w = c->wl;
	unsigned i;

	reset(c);
	for (i = 0; w && i < w->n; i++) {
		const struct wl_entry *e = &w->v[i];
		int l = lock_index(c, e->id);
		char *why;

		if (l < 0 || !e->must_spin)
			continue;
		why = xasprintf("whitelisted (%s): %s", e->cls, e->reason);
		mark_lock(c, l, CL_WHITELIST, why, e->where);
		free(why);
	}
	drain(c);
	/* the tree's own spinning locks, unless they are being audited */
	for (i = 0; i < c->nlocks && !c->audit; i++)
		if (c->locks[i].l->type == LT_RAW)
			mark_lock(c, i, CL_RAW, "declared raw_spinlock_t",
				  NULL);
	drain(c);
	/* the kernel's and the core's contexts, then the others' (owner.c) */
	for (c->own_pass = false;; c->own_pass = true) {
		for (i = 0; rules[i]; i++) {
			if (rules[i]->seed)
				seed_rule(c, i);
			drain(c);
		}
		if (c->own_pass)
			break;
	}
	c->own_pass = false;
}

void classify_rt_view(struct classify *c, struct rtoff *r)
{
	unsigned i;

	for (i = 0; i < c->nfuncs; i++)
		c->funcs[i].off_rt = rtoff_why(r, c->funcs[i].f->file);
	for (i = 0; i < c->nlocks; i++)
		c->locks[i].off_rt = rtoff_why(r, c->locks[i].l->file);
}

void classify_run(struct classify *c)
{
	classify_rerun(c);
	if (c->max_spread || c->max_call_spread)
		bound_spread(c);
}

/* Why wide call @w of @f runs in atomic context, or NULL. */
static char *wide_context(struct classify *c, struct cl_func *f,
			  const struct cl_wide *w)
{
	unsigned i;

	if (f->cls != CL_NONE)
		return xasprintf("%s() runs in %s context", f->f->name,
				 class_name(f->cls));
	if (w->irqs_off || w->preempt_off)
		return xasprintf("%s disabled",
				 w->irqs_off ? "interrupts" : "preemption");
	for (i = 0; i < w->nheld; i++)
		if (c->locks[w->held[i]].cls != CL_NONE)
			return xasprintf("%s is held",
					 c->locks[w->held[i]].l->id);
	return NULL;
}

json_t *classify_wide_calls(struct classify *c)
{
	json_t *out = json_array();
	unsigned i, j;

	for (i = 0; i < c->nfuncs; i++) {
		struct cl_func *f = &c->funcs[i];

		for (j = 0; j < f->nwide; j++) {
			char *why = wide_context(c, f, &f->wide[j]);
			char *at;

			if (!why)
				continue;
			at = xasprintf("%s:%d", f->f->file, f->wide[j].line);
			json_array_append_new(
				out, json_pack("{sssssssiss}", "at", at, "fn",
					       f->f->name, "field",
					       f->wide[j].field,
					       "implementations",
					       (int)f->wide[j].nfns, "context",
					       why));
			free(at);
			free(why);
		}
	}
	return out;
}

void classify_free(struct classify *c)
{
	struct fidx *f, *ft;
	struct lidx *l, *lt;
	struct fieldfns *ff, *fft;
	unsigned i, j;

	marks_free(c);
	for (i = 0; i < c->nfuncs; i++) {
		for (j = 0; j < c->funcs[i].ncalls; j++) {
			free(c->funcs[i].calls[j].held);
			free(c->funcs[i].calls[j].dropped);
			free(c->funcs[i].calls[j].fnargs);
			free(c->funcs[i].calls[j].passes);
		}
		for (j = 0; j < c->funcs[i].nacqs; j++) {
			free(c->funcs[i].acqs[j].held);
			free(c->funcs[i].acqs[j].dropped);
		}
		free(c->funcs[i].parts);
		for (j = 0; j < c->funcs[i].nwide; j++)
			free(c->funcs[i].wide[j].held);
		free(c->funcs[i].wide);
		free(c->funcs[i].calls);
		free(c->funcs[i].acqs);
		free(c->funcs[i].why);
		free(c->funcs[i].at);
		free(c->funcs[i].out_why);
		free(c->funcs[i].out_at);
	}
	for (i = 0; i < c->nlocks; i++) {
		free(c->locks[i].held_at);
		free(c->locks[i].slots);
		free(c->locks[i].why);
		free(c->locks[i].at);
	}
	for (i = 0; i < c->nslots; i++)
		free(c->slots[i].locks);
	free(c->slots);
	HASH_ITER(hh, c->fmap, f, ft) {
		HASH_DEL(c->fmap, f);
		free(f);
	}
	HASH_ITER(hh, c->lmap, l, lt) {
		HASH_DEL(c->lmap, l);
		free(l);
	}
	HASH_ITER(hh, c->fields, ff, fft) {
		HASH_DEL(c->fields, ff);
		free(ff->v);
		free(ff);
	}
	owner_free(c);
	json_decref(c->tp_probes);
	free(c->funcs);
	free(c->locks);
	free(c->queue);
	json_decref(c->stale);
}

/* ---- evidence ---- */

static void add_step(json_t *ev, const char *kind, const char *text,
		     const char *at)
{
	json_array_append_new(ev, json_pack("{ssssss}", "kind", kind, "text",
					    text, "at", at ? at : ""));
}

static void lock_chain(struct classify *c, unsigned lock, json_t *ev,
		       int depth, int *ptrs);

/*
 * @fn runs with @lock held by a caller and drops it later: the calls that
 * led there from the place that holds it (outermost first).
 */
static void held_by_callers(struct classify *c, unsigned fn, unsigned lock,
			    json_t *ev, int depth)
{
	const struct cl_part *p = func_part(c, fn, lock);
	struct cl_func *from;
	struct cl_call *cl;
	char *text, *at;

	if (!p || depth > 40)
		return;
	from = &c->funcs[p->from_func];
	cl = &from->calls[p->from_call];
	at = xasprintf("%s:%d", from->f->file, cl->line);
	if (!ids_have(cl->held, cl->nheld, lock)) {
		held_by_callers(c, p->from_func, lock, ev, depth + 1);
	} else {
		text = xasprintf("%s is held here", c->locks[lock].l->id);
		add_step(ev, "held", text, at);
		free(text);
	}
	text = xasprintf("%s() calls %s(), which drops %s only later",
			 from->f->name, c->funcs[fn].f->name,
			 c->locks[lock].l->id);
	add_step(ev, "call", text, at);
	free(text);
	free(at);
}

/* How a function came to run in atomic context, entry first. */
static void func_chain(struct classify *c, unsigned fn, json_t *ev, int depth,
		       int *ptrs)
{
	struct cl_func *f = &c->funcs[fn];
	struct cl_call *cl;
	char *text, *at;

	if (f->from_func < 0) {
		if (f->from_lock >= 0)
			lock_chain(c, f->from_lock, ev, depth + 1, ptrs);
		else
			add_step(ev, "entry", f->why ? f->why : "", f->at);
		return;
	}
	if (depth > 40) {
		add_step(ev, "more", "...", NULL);
		return;
	}
	cl = &c->funcs[f->from_func].calls[f->from_call];
	at = xasprintf("%s:%d", c->funcs[f->from_func].f->file, cl->line);
	if (f->from_lock >= 0) {
		lock_chain(c, f->from_lock, ev, depth + 1, ptrs);
		if (!ids_have(cl->held, cl->nheld, f->from_lock))
			held_by_callers(c, f->from_func, f->from_lock, ev, 0);
		text = xasprintf("%s is held here", c->locks[f->from_lock].l->id);
		add_step(ev, "held", text, at);
		free(text);
	} else if (c->funcs[f->from_func].cls != CL_NONE &&
		   (cl->irqs_off || cl->preempt_off) == false) {
		func_chain(c, f->from_func, ev, depth + 1, ptrs);
	} else if (cl->irqs_off || cl->preempt_off) {
		text = xasprintf("%s() has %s disabled here",
				 c->funcs[f->from_func].f->name,
				 cl->irqs_off ? "interrupts" : "preemption");
		add_step(ev, "irqs-off", text, at);
		free(text);
	} else {
		func_chain(c, f->from_func, ev, depth + 1, ptrs);
	}
	free(at);
	if (cl->via || f->from_arg >= 0)
		(*ptrs)++;
	if (f->from_arg >= 0)
		text = xasprintf("%s() calls %s(), which calls %s() through "
				 "its function pointer parameter %d",
				 c->funcs[f->from_func].f->name,
				 c->funcs[cl->callee].f->name, f->f->name,
				 f->from_arg + 1);
	else if (cl->via && !strncmp(cl->via, "P:", 2))
		text = xasprintf("%s() calls %s() through its function pointer "
				 "parameter %d",
				 c->funcs[f->from_func].f->name, f->f->name,
				 atoi(strrchr(cl->via, '#') + 1) + 1);
	else if (cl->via)
		text = xasprintf("%s() calls %s() through %s",
				 c->funcs[f->from_func].f->name, f->f->name,
				 cl->via);
	else
		text = xasprintf("%s() calls %s()",
				 c->funcs[f->from_func].f->name, f->f->name);
	at = xasprintf("%s:%d", c->funcs[f->from_func].f->file, cl->line);
	add_step(ev, cl->via || f->from_arg >= 0 ? "ptr-call" : "call", text,
		 at);
	free(text);
	free(at);
}

static void lock_chain(struct classify *c, unsigned lock, json_t *ev,
		       int depth, int *ptrs)
{
	struct cl_lock *l = &c->locks[lock];
	struct cl_acq *a;
	char *text;

	if (l->by_slot >= 0) {
		const char *slot = c->slots[l->by_slot].id;
		char *at = xstrndup(slot, strrchr(slot, ':') - slot);

		lock_chain(c, l->outer, ev, depth + 1, ptrs);
		text = xasprintf("%s (a spinlock_t *) may point to %s and to "
				 "%s: one type for both",
				 strrchr(slot, ':') + 1,
				 c->locks[l->outer].l->id, l->l->id);
		add_step(ev, "shared", text, at);
		free(text);
		free(at);
		return;
	}
	if (l->by_func < 0) {
		text = xasprintf("%s: %s", l->l->id, l->why ? l->why : "");
		add_step(ev, l->cls == CL_RAW ? "raw" : "seed", text, l->at);
		free(text);
		return;
	}
	if (depth > 8) {
		add_step(ev, "more", "...", NULL);
		return;
	}
	a = &c->funcs[l->by_func].acqs[l->by_acq];
	if (l->outer >= 0) {
		lock_chain(c, l->outer, ev, depth + 1, ptrs);
		if (!ids_have(a->held, a->nheld, l->outer))
			held_by_callers(c, l->by_func, l->outer, ev, 0);
		text = xasprintf("%s() takes %s while %s is held",
				 c->funcs[l->by_func].f->name, l->l->id,
				 c->locks[l->outer].l->id);
	} else {
		if (c->funcs[l->by_func].cls != CL_NONE &&
		    !(l->cls == CL_IRQSOFF && (a->irqs_off || a->preempt_off)))
			func_chain(c, l->by_func, ev, depth + 1, ptrs);
		text = a->irqs_off || a->preempt_off
			       ? xasprintf("%s() takes %s with %s disabled",
					   c->funcs[l->by_func].f->name,
					   l->l->id,
					   a->irqs_off ? "interrupts"
						       : "preemption")
			       : xasprintf("%s() takes %s",
					   c->funcs[l->by_func].f->name,
					   l->l->id);
	}
	add_step(ev, "acquire", text, a->at);
	free(text);
}

void classify_result(struct classify *c, unsigned lock, struct cl_result *r)
{
	struct cl_lock *l = &c->locks[lock];
	int ptrs = 0;

	memset(r, 0, sizeof(*r));
	r->id = l->l->id;
	r->off_rt = l->off_rt;
	r->l = l->l;
	r->cls = l->cls;
	r->must_spin = l->cls != CL_NONE;
	r->evidence = json_array();
	if (!r->must_spin) {
		r->confidence = l->nacqs ? "high" : "medium";
		r->spread = l->spread;
		if (l->conflict != CL_NONE) {
			r->conflict = l->conflict;
			r->conflict_evidence = json_array();
			lock_chain(c, lock, r->conflict_evidence, 0, &ptrs);
		}
		if (l->foreign) {
			char *text, *at;

			r->foreign_to = c->comp_names[owner_scope_comp(l->scope)];
			if (l->scope >= 0)
				text = xasprintf(
					"%s chose that context for its own "
					"locks; %s is declared in %s: it "
					"converts, an RT conflict to fix in %s",
					r->foreign_to, l->l->id,
					c->comp_names[l->comp], r->foreign_to);
			else
				text = xasprintf(
					"%s disabled interrupts or preemption "
					"by hand: outside the core, such a "
					"region is rewritten for PREEMPT_RT "
					"(spin_lock_irq(), a local_lock, "
					"migrate_disable(): locktypes.rst), "
					"its locks not kept spinning: %s "
					"converts, an RT conflict to fix in %s",
					r->foreign_to, l->l->id, r->foreign_to);
			at = xasprintf("%s:%d", l->l->file, l->l->line);
			add_step(r->conflict_evidence, "owner", text, at);
			free(text);
			free(at);
		}
		return;
	}
	lock_chain(c, lock, r->evidence, 0, &ptrs);
	r->root = c->locks[spin_root(c, lock)].l->id;
	if (ptrs)
		r->confidence = "low";
	else if (json_array_size(r->evidence) <= 3)
		r->confidence = "high";
	else
		r->confidence = "medium";
}

void classify_whitelist(struct classify *c, const struct whitelist *w)
{
	unsigned i;

	c->wl = w;
	c->nwhitelist = w->n;
	for (i = 0; i < w->n; i++) {
		const struct wl_entry *e = &w->v[i];
		int l = lock_index(c, e->id);

		if (l < 0)
			json_array_append_new(c->stale,
					      json_pack("{ssss}", "id", e->id,
							"where", e->where));
		else if (!e->must_spin)
			c->locks[l].forced_convert = true;
	}
}
