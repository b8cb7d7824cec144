// SPDX-License-Identifier: GPL-2.0
#include "flow.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

bool is_direct_callee(const char *c);

struct frun {
	struct prog *p;
	struct pfunc *fn;
	flow_cb cb;
	void *ctx;
	bool stop;
	struct fstate exit;	/* join of every return */
	struct label {
		char *name;
		struct fstate st;
	} *labels;
	unsigned nlabels, alloc_labels;
	struct strset dropped_any;	/* the caller's locks released anywhere */
	struct fstate *brk;	/* innermost break target */
	bool cont_leaves;	/* a continue may leave the innermost loop */
	bool record_callees;	/* fill fn->callees */
};

static void st_init(struct fstate *s, bool live)
{
	memset(s, 0, sizeof(*s));
	s->live = live;
}

static void st_free(struct fstate *s)
{
	unsigned i;

	for (i = 0; i < s->nheld; i++)
		free(s->held[i].target);
	free(s->held);
	for (i = 0; i < s->ndropped; i++)
		free(s->dropped[i]);
	free(s->dropped);
	memset(s, 0, sizeof(*s));
}

static bool st_has_dropped(const struct fstate *s, const char *t)
{
	unsigned i;

	for (i = 0; i < s->ndropped; i++)
		if (!strcmp(s->dropped[i], t))
			return true;
	return false;
}

static void st_drop(struct fstate *s, const char *t)
{
	if (st_has_dropped(s, t))
		return;
	ALLOC_GROW(s->dropped, s->ndropped, s->adropped);
	s->dropped[s->ndropped++] = xstrdup(t);
}

static bool st_holds(const struct fstate *s, const char *t)
{
	unsigned i;

	for (i = 0; i < s->nheld; i++)
		if (!strcmp(s->held[i].target, t))
			return true;
	return false;
}

static struct held *st_find(struct fstate *s, const char *t)
{
	unsigned i;

	for (i = 0; i < s->nheld; i++)
		if (!strcmp(s->held[i].target, t))
			return &s->held[i];
	return NULL;
}

static void st_add(struct fstate *s, const char *t, const char *api, bool must)
{
	struct held *h = st_find(s, t);

	if (h) {
		h->must |= must;
		return;
	}
	ALLOC_GROW(s->held, s->nheld, s->alloc);
	s->held[s->nheld].target = xstrdup(t);
	s->held[s->nheld].must = must;
	s->held[s->nheld++].api = api;
}

static bool st_del(struct fstate *s, const char *t)
{
	unsigned i;

	for (i = 0; i < s->nheld; i++) {
		if (strcmp(s->held[i].target, t))
			continue;
		free(s->held[i].target);
		s->held[i] = s->held[--s->nheld];
		return true;
	}
	return false;
}

static void st_copy(struct fstate *d, const struct fstate *s)
{
	unsigned i;

	st_init(d, s->live);
	d->irq = s->irq;
	d->irq_on = s->irq_on;
	d->irq_may_on = s->irq_may_on;
	d->irq_may_on_here = s->irq_may_on_here;
	d->last_ref = s->last_ref;
	d->preempt = s->preempt;
	d->guard = s->guard;
	d->guard_nonzero = s->guard_nonzero;
	d->unreached = s->unreached;
	for (i = 0; i < s->nheld; i++)
		st_add(d, s->held[i].target, s->held[i].api, s->held[i].must);
	for (i = 0; i < s->ndropped; i++)
		st_drop(d, s->dropped[i]);
}

/* d = d joined with s (may-hold union, deepest disabling). */
static void st_join(struct fstate *d, const struct fstate *s)
{
	unsigned i;

	if (!s->live)
		return;
	if (!d->live) {
		st_free(d);
		st_copy(d, s);
		return;
	}
	if (s->irq > d->irq)
		d->irq = s->irq;
	d->irq_on &= s->irq_on;
	d->irq_may_on |= s->irq_may_on;
	d->irq_may_on_here |= s->irq_may_on_here;
	d->last_ref &= s->last_ref;
	d->unreached &= s->unreached;
	if (s->preempt > d->preempt)
		d->preempt = s->preempt;
	if (d->guard != s->guard || d->guard_nonzero != s->guard_nonzero)
		d->guard = 0;
	/* held on one side only: may be held, no longer must */
	for (i = 0; i < d->nheld; i++)
		if (!st_holds(s, d->held[i].target))
			d->held[i].must = false;
	for (i = 0; i < s->nheld; i++) {
		struct held *h = st_find(d, s->held[i].target);

		if (h)
			h->must &= s->held[i].must;
		else
			st_add(d, s->held[i].target, s->held[i].api, false);
	}
	/* dropped on both sides only */
	for (i = 0; i < d->ndropped;) {
		if (st_has_dropped(s, d->dropped[i])) {
			i++;
			continue;
		}
		free(d->dropped[i]);
		d->dropped[i] = d->dropped[--d->ndropped];
	}
}

static void run_block(struct frun *r, json_t *blk, struct fstate *st);

static void report(struct frun *r, json_t *ev, const char *kind,
		   struct fstate *st)
{
	struct flow_event e = { r->fn, ev, kind, st };

	if (r->cb && !r->stop && r->cb(&e, r->ctx))
		r->stop = true;
}

/* A callee's summary target in the caller's terms: P:callee#n -> arg n. */
static const char *subst(const char *t, const char *callee, json_t *args)
{
	size_t n = strlen(callee);

	if (!strncmp(t, "P:", 2) && !strncmp(t + 2, callee, n) &&
	    t[2 + n] == '#') {
		json_t *a = json_array_get(args, atoi(t + 3 + n));

		return json_is_string(a) ? json_string_value(a) : NULL;
	}
	return t;
}

/* Do two targets name a common lock (after resolution)? */
static bool same_lock(struct prog *p, const char *a, const char *b)
{
	struct strset la = { 0 }, lb = { 0 };
	bool same = false;
	unsigned i;

	prog_resolve(p, a, &la);
	if (la.n)
		prog_resolve(p, b, &lb);
	for (i = 0; i < la.n && !same; i++)
		same = strset_has(&lb, la.v[i]);
	strset_free(&la);
	strset_free(&lb);
	return same;
}

/*
 * Release @t: the held entry of that name, else one that names the same
 * lock another way (spin_lock(&x->lock) ... spin_unlock(ptl)).
 */
static bool release_held(struct frun *r, struct fstate *st, const char *t)
{
	unsigned i;

	if (st_del(st, t))
		return true;
	for (i = 0; r->p && i < st->nheld; i++)
		if (same_lock(r->p, t, st->held[i].target))
			return st_del(st, st->held[i].target);
	return false;
}

/*
 * A release of a lock this function did not take: the caller's.  A target
 * that names nothing (an unassigned local) cannot be the caller's lock.
 */
static void drop_inherited(struct frun *r, struct fstate *st, const char *t)
{
	if (strncmp(t, "U:", 2)) {
		st_drop(st, t);
		strset_add(&r->dropped_any, t);
	}
}

/*
 * A callee released @t on some paths only: a lock held here on every path
 * is held after the call on some paths, no longer on all of them
 * (clk_enable_unlock(), which only counts down when the lock is taken
 * recursively).  One held here on some paths only was taken under the
 * condition the callee releases it under, and is released: the pair
 * rcu_nocb_lock_irqsave()/rcu_nocb_unlock_irqrestore() takes and drops
 * ->nocb_lock only for an offloaded CPU, and nothing after it runs under
 * the lock.  A lock not held here is the caller's, released on some paths.
 */
static void may_release(struct frun *r, struct fstate *st, const char *t)
{
	unsigned i = 0, n = st->nheld;

	while (i < st->nheld) {
		struct held *h = &st->held[i];

		if (strcmp(h->target, t) &&
		    !(r->p && same_lock(r->p, t, h->target))) {
			i++;
		} else if (h->must) {
			h->must = false;
			i++;
		} else {
			st_del(st, h->target);
		}
	}
	/*
	 * not held here: the caller's, which this function too releases on
	 * some paths (rdp_offload_toggle() through rcu_nocb_unlock_irqrestore())
	 */
	if (n == st->nheld && !st_holds(st, t) && strncmp(t, "U:", 2))
		strset_add(&r->dropped_any, t);
}

/* Code after a return: reported from scratch, as unreached. */
static void revive(struct fstate *st)
{
	st_init(st, true);
	st->unreached = true;
}

static void do_lock(struct frun *r, json_t *ev, struct fstate *st)
{
	const char *op = json_string_value(json_array_get(ev, 2));
	const char *api = json_string_value(json_array_get(ev, 3));
	const char *t = json_string_value(json_array_get(ev, 4));

	if (!st->live)
		revive(st);
	report(r, ev, "lock", st);
	if (!op || !t)
		return;
	if (!strcmp(op, "acquire") || !strcmp(op, "trylock") ||
	    !strcmp(op, "condlock"))
		st_add(st, t, api, true);
	else if (!strcmp(op, "release") && !release_held(r, st, t))
		drop_inherited(r, st, t);
}

/* refcount_dec_and_test() & co: what follows frees the last reference */
static bool is_count_drop(const char *callee)
{
	const char *name = id_name(callee);

	return has_suffix(name, "_dec_and_test") ||
	       has_suffix(name, "_sub_and_test");
}

static void do_call(struct frun *r, json_t *ev, struct fstate *st)
{
	const char *callee = json_string_value(json_array_get(ev, 2));
	json_t *args = json_array_get(ev, 3);
	struct pfunc *f;
	unsigned i;

	if (!st->live)
		revive(st);
	report(r, ev, "call", st);
	if (callee && is_count_drop(callee))
		st->last_ref = true;
	if (!r->p || !callee || !is_direct_callee(callee) ||
	    !(f = prog_func(r->p, callee)) || f == r->fn)
		return;
	if (r->record_callees && (!r->fn->ncallees ||
				  r->fn->callees[r->fn->ncallees - 1] != f)) {
		ALLOC_GROW(r->fn->callees, r->fn->ncallees, r->fn->alloc_callees);
		r->fn->callees[r->fn->ncallees++] = f;
	}
	for (i = 0; i < f->releases.n; i++) {
		const char *t = subst(f->releases.v[i], callee, args);

		if (t && !release_held(r, st, t))
			drop_inherited(r, st, t);
	}
	for (i = 0; i < f->may_release.n; i++) {
		const char *t = subst(f->may_release.v[i], callee, args);

		if (t)
			may_release(r, st, t);
	}
	for (i = 0; i < f->acquires.n; i++) {
		const char *t = subst(f->acquires.v[i], callee, args);

		if (t)
			st_add(st, t, f->name, true);
	}
	if (f->irqs_on && f->low_level) {
		/*
		 * entry code that turns interrupts on for its caller
		 * (syscall_enter_from_user_mode_prepare()); elsewhere the IR
		 * may have lost the condition around a local_irq_enable()
		 */
		st->irq = 0;
		st->irq_on = st->irq_may_on = true;
	}
	/*
	 * an exception handler's cond_local_irq_enable(): what follows may
	 * run with interrupts on, out of its entry's context (a callee's
	 * own conditional enable only: one deeper down is on its own path)
	 */
	if (f->irqs_may_on)
		st->irq_may_on = true;
}

static struct label *label_of(struct frun *r, const char *name)
{
	unsigned i;

	for (i = 0; i < r->nlabels; i++)
		if (!strcmp(r->labels[i].name, name))
			return &r->labels[i];
	ALLOC_GROW(r->labels, r->nlabels, r->alloc_labels);
	r->labels[r->nlabels].name = xstrdup(name);
	st_init(&r->labels[r->nlabels].st, false);
	return &r->labels[r->nlabels++];
}

/* The label a goto or label event names; NULL for one without a name. */
static struct label *label_at(struct frun *r, json_t *ev)
{
	const char *name = json_string_value(json_array_get(ev, 1));

	return name ? label_of(r, name) : NULL;
}

static void kill_state(struct fstate *st)
{
	st_free(st);
	st_init(st, false);
}

static void run_event(struct frun *r, json_t *ev, struct fstate *st);

/* if/loop/switch: sub-blocks run on copies and join back. */
static void do_struct(struct frun *r, const char *op, json_t *ev,
		      struct fstate *st)
{
	struct fstate a, b, brk, *saved = r->brk;
	bool saved_cont = r->cont_leaves;
	json_t *e;
	size_t i;

	if (!strcmp(op, "if")) {
		int guard = st->guard;
		bool nonzero = st->guard_nonzero;
		json_t *param = json_array_get(ev, 3);

		st_copy(&a, st);
		st_copy(&b, st);
		/* an if on a parameter (the innermost one counts) */
		if (json_is_integer(param)) {
			a.guard = b.guard = json_integer_value(param) + 1;
			a.guard_nonzero = true;
			b.guard_nonzero = false;
		}
		run_block(r, json_array_get(ev, 1), &a);
		run_block(r, json_array_get(ev, 2), &b);
		st_free(st);
		st_copy(st, &a);
		st_join(st, &b);
		/* past an if that returns on one side, that side's guard */
		if (a.live == b.live) {
			st->guard = guard;
			st->guard_nonzero = nonzero;
		}
		st_free(&a);
		st_free(&b);
		return;
	}
	/* loop (0+ times), do (1+), forever (left by break) and switch */
	st_init(&brk, false);
	st_copy(&a, st);
	st_copy(&b, st);
	if (!strcmp(op, "switch"))
		a.live = false; /* only a "case" enters the body */
	r->brk = &brk;
	if (strcmp(op, "switch"))
		r->cont_leaves = strcmp(op, "forever") != 0;
	json_array_foreach(json_array_get(ev, 1), i, e) {
		const char *o = json_string_value(json_array_get(e, 0));

		if (o && !strcmp(o, "case"))
			st_join(&a, &b);
		else
			run_event(r, e, &a);
	}
	r->brk = saved;
	r->cont_leaves = saved_cont;
	if (!strcmp(op, "do")) {
		/* the body ran at least once: its state, not the entry's */
		st_free(st);
		st_copy(st, &a);
	} else if (!strcmp(op, "forever")) {
		/* only a break leaves it */
		kill_state(st);
	} else {
		st_join(st, &a);
	}
	st_join(st, &brk);
	st_free(&a);
	st_free(&b);
	st_free(&brk);
}

static void run_event(struct frun *r, json_t *ev, struct fstate *st)
{
	const char *op = json_string_value(json_array_get(ev, 0));
	struct label *l;

	if (!op || r->stop)
		return;
	if (!strcmp(op, "lock")) {
		do_lock(r, ev, st);
	} else if (!strcmp(op, "call")) {
		do_call(r, ev, st);
	} else if (!strcmp(op, "ctx")) {
		const char *k = json_string_value(json_array_get(ev, 2));
		const char *api = json_string_value(json_array_get(ev, 4));
		bool irq = k && !strcmp(k, "irq");
		bool on = irq && api && has_suffix(api, "irq_enable");
		int *depth = irq ? &st->irq : &st->preempt;

		*depth += json_integer_value(json_array_get(ev, 3));
		/* local_irq_enable() turns interrupts on, however deep */
		if (*depth < 0 || on)
			*depth = 0;
		if (irq) {
			st->irq_on = on || (st->irq_on && !*depth);
			/* a restore leaves it as the matching save found it */
			if (on || *depth > 0)
				st->irq_may_on = st->irq_may_on_here = on;
		}
	} else if (!strcmp(op, "if") || !strcmp(op, "loop") ||
		   !strcmp(op, "do") || !strcmp(op, "forever") ||
		   !strcmp(op, "switch")) {
		do_struct(r, op, ev, st);
	} else if (!strcmp(op, "noret")) {
		kill_state(st);	/* nothing after it runs, nor returns */
	} else if (!strcmp(op, "ret")) {
		st_join(&r->exit, st);
		kill_state(st);
	} else if (!strcmp(op, "goto") && (l = label_at(r, ev))) {
		st_join(&l->st, st);
		kill_state(st);
	} else if (!strcmp(op, "label") && (l = label_at(r, ev))) {
		st_join(st, &l->st);
	} else if (!strcmp(op, "break") || !strcmp(op, "cont")) {
		/* a continue of a forever loop goes round again */
		if (r->brk && (op[0] == 'b' || r->cont_leaves))
			st_join(r->brk, st);
		kill_state(st);
	}
}

static void run_block(struct frun *r, json_t *blk, struct fstate *st)
{
	size_t i;
	json_t *ev;

	json_array_foreach(blk, i, ev)
		run_event(r, ev, st);
}

/* *old = *new (consumed); true when the sets differ. */
static bool replace_set(struct strset *old, struct strset *new)
{
	bool same = old->n == new->n;
	unsigned i;

	for (i = 0; same && i < new->n; i++)
		same = strset_has(old, new->v[i]);
	strset_free(old);
	*old = *new;
	return !same;
}

static bool run_fn(struct prog *p, struct pfunc *fn, flow_cb cb, void *ctx,
		   bool record_callees)
{
	struct strset acquires = { 0 }, releases = { 0 }, some = { 0 };
	struct frun r = { .p = p, .fn = fn, .cb = cb, .ctx = ctx,
			  .record_callees = record_callees };
	struct fstate st;
	bool changed = false, irqs_on, irqs_may_on;
	unsigned i;

	st_init(&st, true);
	st.irq = fn->low_level; /* entry code starts with interrupts off */
	st_init(&r.exit, false);
	run_block(&r, fn->ir, &st);
	st_join(&r.exit, &st);
	/*
	 * The summary is recomputed, not grown: a callee's release learnt in
	 * a later round undoes what an earlier round concluded (that its
	 * caller returns holding the lock).  A wrapper returns holding a lock
	 * on every path; an unlock wrapper releases its caller's lock on
	 * every path (one that does so on some paths only, like the callers
	 * of lock_timer_base(), would leak the release up through every
	 * caller); one that releases on some paths only leaves its caller's
	 * lock "may be held" (may_release).
	 */
	for (i = 0; i < r.exit.nheld; i++)
		if (r.exit.held[i].must)
			strset_add(&acquires, r.exit.held[i].target);
	for (i = 0; r.exit.live && i < r.exit.ndropped; i++)
		strset_add(&releases, r.exit.dropped[i]);
	/* dropped somewhere, and neither dropped on every path nor retaken */
	for (i = 0; i < r.dropped_any.n; i++)
		if (!strset_has(&releases, r.dropped_any.v[i]) &&
		    !st_holds(&r.exit, r.dropped_any.v[i]))
			strset_add(&some, r.dropped_any.v[i]);
	irqs_on = r.exit.live && r.exit.irq_on;
	irqs_may_on = r.exit.live && r.exit.irq_may_on_here;
	changed = (fn->irqs_on != irqs_on) |
		  (fn->irqs_may_on != irqs_may_on) |
		  replace_set(&fn->acquires, &acquires) |
		  replace_set(&fn->releases, &releases) |
		  replace_set(&fn->may_release, &some);
	fn->irqs_on = irqs_on;
	fn->irqs_may_on = irqs_may_on;
	strset_free(&r.dropped_any);
	st_free(&st);
	st_free(&r.exit);
	for (i = 0; i < r.nlabels; i++) {
		free(r.labels[i].name);
		st_free(&r.labels[i].st);
	}
	free(r.labels);
	return changed;
}

bool flow_run(struct prog *p, struct pfunc *fn, flow_cb cb, void *ctx)
{
	return run_fn(p, fn, cb, ctx, false);
}

/* Has a callee's summary changed since @f's was computed? */
static bool stale(const struct pfunc *f)
{
	unsigned i;

	for (i = 0; i < f->ncallees; i++)
		if (f->callees[i]->changed_at > f->ran_at)
			return true;
	return false;
}

/*
 * Rounds over every function in hash order until no summary changes (at
 * most 8).  A summary depends only on the function's IR and its callees'
 * summaries, so after the first round a function none of whose callees
 * changed since it ran would compute the same again: it is skipped, with
 * the same result as running it.
 */
void flow_summaries(struct prog *p)
{
	struct pfunc *f, *tmp;
	unsigned long clock = 0;
	bool changed = true;
	int round;

	for (round = 0; changed && round < 8; round++) {
		changed = false;
		HASH_ITER(hh, p->funcs, f, tmp) {
			if (round && !stale(f))
				continue;
			if (!round)
				f->ncallees = 0;
			f->ran_at = ++clock;
			if (run_fn(p, f, NULL, NULL, !round)) {
				f->changed_at = ++clock;
				changed = true;
			}
		}
	}
}
