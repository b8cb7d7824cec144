/* SPDX-License-Identifier: GPL-2.0 */
/* The classifier's graph, shared by the engine and the rules. */
#ifndef RTLOCK_CLASSIFY_INT_H
#define RTLOCK_CLASSIFY_INT_H

#include "classify.h"

/* A call, with the state it is made in. */
struct cl_call {
	unsigned callee;
	int line;
	const char *via;	/* the field of an indirect call, or NULL */
	bool irqs_off, preempt_off;
	bool irqs_may_on;	/* turned on by hand before, on some path */
	bool last_ref;		/* on a reference count's release path */
	int guard;		/* in an if on a parameter: flow.h */
	bool guard_nonzero;
	json_t *consts;		/* the constants it passes (the IR's), or NULL */
	unsigned *held;		/* lock indexes that may be held */
	unsigned nheld;
	unsigned *dropped;	/* the caller's locks released before it */
	unsigned ndropped;
	/*
	 * made with a spinning lock held and left out by the spread bound:
	 * following it would have made @spread more locks spin (spread.c)
	 */
	bool left_out, spread_tried;
	unsigned spread;
	/*
	 * A direct call's function arguments: function @fn as argument
	 * @idx; and the caller's own parameter @param passed on as @idx
	 */
	struct cl_fnarg {
		unsigned idx, fn;
	} *fnargs;
	unsigned nfnargs;
	struct cl_pass {
		unsigned idx, param;
	} *passes;
	unsigned npasses;
};

/* An acquisition of a lock (lock, trylock, condlock). */
struct cl_acq {
	unsigned lock;
	int line;
	const char *at;		/* where the API name is written */
	const char *api;
	bool irqs_off, preempt_off, irqs_may_on;
	unsigned *held;
	unsigned nheld;
	unsigned *dropped;
	unsigned ndropped;
	int guard;		/* in an if on a parameter: flow.h */
	bool guard_nonzero;
};

/* An indirect call through a field too wide to follow. */
struct cl_wide {
	const char *field;
	unsigned nfns;
	int line;
	bool irqs_off, preempt_off;
	unsigned *held;
	unsigned nheld;
};

struct cl_func {
	struct pfunc *f;
	struct cl_wide *wide;
	unsigned nwide, awide;
	struct cl_call *calls;
	unsigned ncalls, acalls;
	struct cl_acq *acqs;
	unsigned nacqs, aacqs;
	bool sleeps;		/* sleeps or takes an rwlock_t outright */
	bool alone;		/* runs alone: no context enters it (rules.h) */
	/*
	 * the constant arguments of the call that brought its context, NULL
	 * when any value may come: its calls and acquisitions in the branch
	 * of an if on a parameter that they rule out are not followed
	 */
	json_t *consts;
	bool drops;		/* releases a lock its caller holds */
	/* entered with a lock held that it drops: the part before the drop
	 * runs under it (nesting.c); the first call that led there */
	struct cl_part {
		unsigned lock, from_func, from_call;
	} *parts;
	unsigned nparts, aparts;
	/*
	 * the parameters it calls through, itself or by passing them on to
	 * a callee that does (bit n: parameter n)
	 */
	unsigned long long calls_params;
	/* the atomic context that reached it first, and from where */
	enum lclass cls;
	int from_func, from_call, from_lock;
	/*
	 * >= 0: call from_call passed it as this argument to a callee that
	 * calls it through that parameter
	 */
	int from_arg;
	/*
	 * the component that context holds for (owner.c), -1: everywhere,
	 * <= SCOPE_NOBODY: nowhere; its file's component; and the scope of
	 * the contexts it chooses itself: -1 for core code, else its
	 * component
	 */
	int scope;
	unsigned comp;
	int own_scope;
	/* the option depending on !PREEMPT_RT that alone builds it (rtoff.c) */
	const char *off_rt;
	char *why, *at;		/* for an entry */
	/*
	 * an entry left out by the spread bound: it would have made
	 * @spread locks spin (spread.c), and why it was an entry
	 */
	bool left_out, spread_tried;
	bool weighable;		/* an entry the bound may leave out */
	unsigned spread;
	char *out_why, *out_at;
};

/* Where a lock is held: at an acquisition or at a call. */
struct cl_held {
	unsigned func, idx;
	bool is_call;
};

/*
 * A declaration of type spinlock_t * (prog.h's slots) and the locks it
 * may hold: they have one type in the converted tree.
 */
struct cl_slot {
	const char *id;		/* "file:line:name" */
	unsigned *locks;
	unsigned nlocks;
};

struct cl_lock {
	struct plock *l;
	enum lclass cls;	/* CL_NONE: converts */
	int by_func, by_acq;	/* the acquisition that made it spin */
	int outer;		/* nested: the spinning lock held, or -1 */
	int by_slot;		/* shared: the slot it shares with outer */
	unsigned *slots;	/* the slots that may hold it */
	unsigned nslots, aslots;
	char *why, *at;		/* seeded: raw, whitelist */
	/* a reviewer said it may sleep, or it is pinned (below) */
	bool forced_convert;
	/* converted by the spread bound: the other locks it would have
	 * made spin; spread_tried: it has been a candidate (spread.c) */
	unsigned spread;
	bool spread_tried;
	enum lclass conflict;	/* forced, but this context says spin */
	/*
	 * the component of its declaration; the scope of the context that
	 * made it spin, or of the one left out because the lock is not its
	 * to decide (foreign: converts, with that context as its conflict)
	 */
	unsigned comp;
	int scope;
	bool foreign;
	const char *off_rt;	/* declared in code PREEMPT_RT does not build */
	/*
	 * used with a helper that has no spinning form, first at pin_at, or
	 * sharing slot pin_slot with lock pin_by, which is (-1: neither)
	 */
	const char *pin_api, *pin_at;
	int pin_by, pin_slot;
	struct cl_held *held_at;
	unsigned nheld_at, aheld_at;
	unsigned nacqs;
};

/*
 * Enqueue @func in context @cls, reached by call @from_call of @from_func
 * (made with @from_lock held, or -1): the context's scope is the lock's,
 * else the caller's.
 */
void enqueue_func(struct classify *c, unsigned func, enum lclass cls,
		  int from_func, int from_call, int from_lock);
/* The same, and lock spinning, in an explicit @scope (owner.c). */
void enqueue_in(struct classify *c, unsigned func, enum lclass cls,
		int from_func, int from_call, int from_lock, int scope);
void spin_in(struct classify *c, unsigned lock, enum lclass cls, int func,
	     int acq, int outer, int scope);
void entry_in(struct classify *c, unsigned fn, enum lclass cls,
	      const char *why, const char *at, int scope);
/*
 * The functions call @call of @func passes to a callee that calls them
 * through its parameters run where the call does (from @lock held, or
 * -1): enqueue them.
 */
void enqueue_passed(struct classify *c, unsigned func, unsigned call,
		    enum lclass cls, int lock);
/*
 * Lock @lock spins because of acquisition @acq of @func (or @outer), in
 * that function's (or lock's) scope.
 */
void spin_lock_from(struct classify *c, unsigned lock, enum lclass cls,
		    int func, int acq, int outer);
/* The locks that share a slot with spinning lock @outer spin too. */
void spin_shared_with(struct classify *c, unsigned outer);
void drain(struct classify *c);
/*
 * Run rules[@rule]'s seed: its marks recorded the first time, replayed
 * after that (marks.c).
 */
void seed_rule(struct classify *c, unsigned rule);
void marks_free(struct classify *c);
/* Forget the verdicts and run the whitelist, the raw locks and the rules. */
void classify_rerun(struct classify *c);
/*
 * The lock at the start of spinning @lock's evidence chain: the one a
 * context made spin, whose nesting (or shared declarations) led on to
 * @lock; @lock itself when a context takes it.
 */
int spin_root(const struct classify *c, unsigned lock);
/* owner.c: the components of functions and locks */
void owner_init(struct classify *c);
void owner_free(struct classify *c);
/* May a context of @scope make @lock spin? */
bool owner_admits(const struct classify *c, unsigned lock, int scope);
/*
 * A scope at or below SCOPE_NOBODY admits no lock: that of a region a
 * component outside the core disables interrupts or preemption in by hand.
 */
#define SCOPE_NOBODY (-2)
/* The scope of a region @f disables interrupts or preemption in by hand. */
int owner_region_scope(const struct cl_func *f);
/* The component a scope (>= 0, or <= SCOPE_NOBODY) is chosen by. */
unsigned owner_scope_comp(int scope);

/* Leave out the seeds that alone would make more than max_spread locks spin. */
void bound_spread(struct classify *c);
/*
 * Does the closure follow call @cl, in context or under a lock?  Not a
 * release path (after the count dropped to zero: code frees under a lock
 * what it knows is not the last reference), nor a call the spread bound
 * left out.
 */
static inline bool call_followed(const struct cl_call *cl)
{
	return !cl->last_ref && !cl->left_out;
}
/* Is lock index @x among the @n of @v (a held or dropped list)? */
bool ids_have(const unsigned *v, unsigned n, unsigned x);
/* How @fn came to run with @lock held that it later drops, or NULL. */
const struct cl_part *func_part(struct classify *c, unsigned fn,
				unsigned lock);

#endif
