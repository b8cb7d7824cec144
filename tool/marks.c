// SPDX-License-Identifier: GPL-2.0
/*
 * What the rules' seeds mark: entry points (the kernel's design, or a
 * component's own choice), acquisitions and calls made with interrupts or
 * preemption off by hand, entries the spread bound may weigh.
 *
 * A seed reads only the facts, never a verdict, so it marks the same
 * things on every run.  The spread bound classifies again after each seed
 * it leaves out, dozens of times on a whole tree, and the seeds walk every
 * function and registration each time: each rule's marks are recorded on
 * its first run and replayed after that.  What a mark does still depends
 * on the run (the pass, what is already decided, what was left out): a
 * replay applies each mark as the first run did, not its outcome.
 */
#include <string.h>

#include "classify_int.h"
#include "rules/rules.h"
#include "util.h"

enum mark_kind { MARK_ENTRY, MARK_OWN_ENTRY, MARK_LOCAL_ENTRY, MARK_OWN_ACQ,
		 MARK_OWN_CALL, MARK_WEIGH };

struct mark {
	enum mark_kind kind;
	enum lclass cls;
	unsigned fn, idx;	/* idx: the acquisition or call */
	char *why, *at;		/* entries only */
};

struct marks {
	struct mark *v;
	unsigned n, a;
	bool recorded;
};

/* Does this pass seed the contexts @fn chooses (built with PREEMPT_RT)? */
static bool own_turn(const struct classify *c, unsigned fn)
{
	return c->own_pass == (c->funcs[fn].own_scope >= 0) &&
	       !c->funcs[fn].off_rt;
}

static void apply(struct classify *c, const struct mark *m)
{
	struct cl_func *f = &c->funcs[m->fn];

	switch (m->kind) {
	case MARK_ENTRY:
		/* given by the kernel's design: the first pass's */
		if (!c->own_pass)
			entry_in(c, m->fn, m->cls, m->why, m->at, -1);
		break;
	case MARK_OWN_ENTRY:
		if (own_turn(c, m->fn))
			entry_in(c, m->fn, m->cls, m->why, m->at, f->own_scope);
		break;
	case MARK_LOCAL_ENTRY:
		/* a component's choice, in the component pass */
		if (c->own_pass && !f->off_rt)
			entry_in(c, m->fn, m->cls, m->why, m->at, (int)f->comp);
		break;
	case MARK_OWN_ACQ:
		if (own_turn(c, m->fn))
			spin_in(c, f->acqs[m->idx].lock, m->cls, m->fn, m->idx,
				-1, owner_region_scope(f));
		break;
	case MARK_OWN_CALL:
		/* unless the spread bound left it out */
		if (own_turn(c, m->fn) && !f->calls[m->idx].left_out)
			enqueue_in(c, f->calls[m->idx].callee, m->cls, m->fn,
				   m->idx, -1, owner_region_scope(f));
		break;
	case MARK_WEIGH:
		f->weighable = true;
		break;
	}
}

/* Apply a mark, and keep a copy of it if a seed is being recorded. */
static void mark(struct classify *c, enum mark_kind kind, enum lclass cls,
		 unsigned fn, unsigned idx, const char *why, const char *at)
{
	struct mark m = { kind, cls, fn, idx, (char *)why, (char *)at };
	struct marks *r = c->recording;

	apply(c, &m);	/* entry_in() copies what it keeps */
	if (!r)
		return;
	if (why) {
		m.why = xstrdup(why);
		m.at = xstrdup(at ? at : "");
	}
	ALLOC_GROW(r->v, r->n, r->a);
	r->v[r->n++] = m;
}

void mark_entry(struct classify *c, const char *id, enum lclass cls,
		const char *why, const char *at)
{
	int fn = func_index(c, id);

	if (fn >= 0)
		mark(c, MARK_ENTRY, cls, fn, 0, why, at);
}

void own_entry(struct classify *c, const char *id, enum lclass cls,
	       const char *why, const char *at)
{
	int fn = func_index(c, id);

	if (fn >= 0)
		mark(c, MARK_OWN_ENTRY, cls, fn, 0, why, at);
}

void local_entry(struct classify *c, const char *id, enum lclass cls,
		 const char *why, const char *at)
{
	int fn = func_index(c, id);

	if (fn >= 0)
		mark(c, MARK_LOCAL_ENTRY, cls, fn, 0, why, at);
}

void own_acq(struct classify *c, unsigned fn, unsigned acq, enum lclass cls)
{
	mark(c, MARK_OWN_ACQ, cls, fn, acq, NULL, NULL);
}

void own_call(struct classify *c, unsigned fn, unsigned call, enum lclass cls)
{
	mark(c, MARK_OWN_CALL, cls, fn, call, NULL, NULL);
}

void weigh_entry(struct classify *c, const char *id)
{
	int fn = func_index(c, id);

	if (fn >= 0)
		mark(c, MARK_WEIGH, CL_NONE, fn, 0, NULL, NULL);
}

void seed_rule(struct classify *c, unsigned rule)
{
	struct marks *r;
	unsigned i;

	if (!c->marks) {
		for (i = 0; rules[i]; i++)
			;
		c->marks = xcalloc(i, sizeof(*c->marks));
	}
	r = &c->marks[rule];
	if (r->recorded) {
		for (i = 0; i < r->n; i++)
			apply(c, &r->v[i]);
		return;
	}
	c->recording = r;
	rules[rule]->seed(c);
	c->recording = NULL;
	r->recorded = true;
}

void marks_free(struct classify *c)
{
	unsigned i, j;

	for (i = 0; c->marks && rules[i]; i++) {
		for (j = 0; j < c->marks[i].n; j++) {
			free(c->marks[i].v[j].why);
			free(c->marks[i].v[j].at);
		}
		free(c->marks[i].v);
	}
	FREE_AND_NULL(c->marks);
}
