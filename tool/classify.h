/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The classifier: which locks must keep spinning on PREEMPT_RT.
 *
 * A lock may become a sleeping lock_t unless it is taken where a task
 * cannot sleep.  The rules (tool/rules/, one file a class) seed functions
 * that run in such a context (hard-irq handlers, irq_chip callbacks, the
 * scheduler's class callbacks, low-level arch code) and acquisitions made
 * with interrupts or preemption disabled by hand.  The engine propagates
 * atomic context along the call graph (direct calls and calls through
 * ops-table fields) and closes over nesting: a lock taken while a spinning
 * lock is held spins too, and so does everything called under it.  Each
 * function and lock is marked once, by the first context that reaches it,
 * with the evidence that got there, so the closure is linear in the size
 * of the call graph.  A function that sleeps outright (mutex_lock,
 * might_sleep ...) or takes an rwlock_t (a sleeping lock on PREEMPT_RT)
 * stops the propagation: a correct kernel never calls it in atomic context.
 */
#ifndef RTLOCK_CLASSIFY_H
#define RTLOCK_CLASSIFY_H

#include <jansson.h>
#include <stdbool.h>

#include "prog.h"

enum lclass {
	CL_NONE = 0,
	CL_RAW,		/* declared raw_spinlock_t (not in audit mode) */
	CL_WHITELIST,	/* a reviewer decided */
	CL_HARDIRQ,
	CL_IRQCHIP,
	CL_SCHED,
	CL_ARCH,
	CL_IRQSOFF,
	CL_NESTED,
	CL_SHARED,	/* held by one declaration with a spinning lock */
	CL_NCLASSES,
};
const char *class_name(enum lclass c);
enum lclass class_by_name(const char *name);

/* One step of an evidence chain. */
struct step {
	const char *kind;	/* entry, call, ptr-call, held, acquire, ... */
	char *text;		/* what happened, for a reviewer */
	char *at;		/* file:line */
};

struct cl_func;
struct cl_lock;
struct comp;
struct rtoff;
struct fieldfns;
struct cl_slot;
struct whitelist;

struct classify {
	struct prog *p;
	bool audit;		/* raw_spinlock_t counts as undecided */
	struct cl_func *funcs;
	unsigned nfuncs;
	struct cl_lock *locks;
	unsigned nlocks;
	struct fidx *fmap;	/* function id -> index */
	struct lidx *lmap;	/* lock id -> index */
	struct fieldfns *fields; /* field or variable -> functions in it */
	json_t *tp_probes;	/* a tracepoint's probes: {fn, field, file, line} */
	struct cl_slot *slots;	/* declarations holding lock addresses */
	unsigned nslots;
	unsigned *queue;	/* functions to visit */
	unsigned qhead, qtail;
	json_t *stale;		/* whitelist entries matching no lock */
	unsigned nwhitelist;
	unsigned ptr_edges, sleepy;
	/*
	 * An indirect call through a field more than max_fanout functions
	 * are stored into is not followed (a generic interface: notifier,
	 * work item, file operations): which implementation a call reaches
	 * depends on the object, and following them all would make most of
	 * the kernel reachable from any such call.  Those made in atomic
	 * context are listed for review (classify_wide_calls()).
	 */
	unsigned max_fanout;
	unsigned wide_calls;	/* such calls, in any context */
	/*
	 * The spread bound (spread.c): a lock a context takes, a weighable
	 * entry (weigh_entry()), or a call made where interrupts or
	 * preemption were disabled by hand, that alone would make more than
	 * max_spread locks spin is not taken at its word: the lock converts
	 * with the context as its conflict, the entry or call is left out;
	 * all are for review.  0: no bound.
	 */
	unsigned max_spread;
	/*
	 * The same for a call made with a spinning lock held: one that alone
	 * would make more than max_call_spread locks spin is not followed
	 * (a driver calling clk_enable() under its timer's lock).  0: none.
	 */
	unsigned max_call_spread;
	unsigned bounded;	/* seeds the bound converted or left out */
	/* non-zero when the user asked to stop (the bound's reruns check) */
	int (*interrupted)(void);
	const struct whitelist *wl;
	/*
	 * Components (owner.c): the first pass seeds the contexts given by
	 * the kernel's design and those core code chooses, the second
	 * (own_pass) those other code chooses, for its own locks only.
	 */
	struct comp *comps;
	const char **comp_names;
	unsigned ncomps, acomp_names;
	bool own_pass;
	/* each rule's seed's marks, and the one being recorded (marks.c) */
	struct marks *marks, *recording;
};

#define CL_MAX_FANOUT 16
#define CL_MAX_SPREAD 32
#define CL_MAX_CALL_SPREAD 16

/* Build the graph from a linked program; @max_fanout 0: the default. */
void classify_init(struct classify *c, struct prog *p, bool audit,
		   unsigned max_fanout);
/*
 * Apply a whitelist (parsed by whitelist.c; kept until classify_free());
 * entries may force either way.
 */
void classify_whitelist(struct classify *c, const struct whitelist *w);
/*
 * Leave out the code a PREEMPT_RT kernel does not build (rtoff.h): it is
 * never in context, and its locks are out of the audit.  @r must outlive
 * the results.
 */
void classify_rt_view(struct classify *c, struct rtoff *r);
/* Run every rule and the closure, then apply max_spread. */
void classify_run(struct classify *c);
void classify_free(struct classify *c);
/*
 * What the spread bound left out, for review: entry points, and calls made
 * under a spinning lock or where interrupts or preemption were disabled by
 * hand, each {fn, why, at, spread}.
 */
json_t *classify_left_out(struct classify *c);
/*
 * After classify_run(): the indirect calls through wide fields made in
 * atomic context, [{at, field, implementations, context}], sorted.
 */
json_t *classify_wide_calls(struct classify *c);

/* ---- for the rules ---- */

/*
 * Function @id runs in context @cls (an entry point the kernel's design
 * gives: a timer interrupt, an irq_chip callback ...): @why, @at.
 */
void mark_entry(struct classify *c, const char *id, enum lclass cls,
		const char *why, const char *at);
/*
 * The spread bound may leave entry @id out: an entry a driver's own choice
 * puts in an atomic context that the kernel expects to stay small (the
 * primary handler of a threaded irq, kept in hard irq only by IRQF_ONESHOT,
 * should do no more than wake its thread).
 */
void weigh_entry(struct classify *c, const char *id);
/*
 * Contexts chosen by the code that enters them (owner.c): function @id,
 * entered in @cls by its own code's choice (a handler's IRQF_ flag);
 * acquisition @acq and call @call of @fn, made with interrupts or
 * preemption disabled by hand.  They hold everywhere when @fn is core
 * code, else for the locks of its own component only.
 */
void own_entry(struct classify *c, const char *id, enum lclass cls,
	       const char *why, const char *at);
/*
 * Function @id, entered in @cls by its own code's choice, even where it is
 * core code: it holds for the locks of its own component only (an
 * exception handler that keeps interrupts off, rules/arch.c).
 */
void local_entry(struct classify *c, const char *id, enum lclass cls,
		 const char *why, const char *at);
void own_acq(struct classify *c, unsigned fn, unsigned acq, enum lclass cls);
void own_call(struct classify *c, unsigned fn, unsigned call,
	      enum lclass cls);
/* Lock @lock must spin: @cls, with a one-step evidence. */
void mark_lock(struct classify *c, unsigned lock, enum lclass cls,
	       const char *why, const char *at);
/* Every function stored into @field ("struct irq_chip::irq_mask"). */
void for_each_field_fn(struct classify *c, const char *field,
		       void (*fn)(struct classify *c, json_t *ref, void *ctx),
		       void *ctx);
int func_index(struct classify *c, const char *id);

/* ---- results ---- */
struct cl_result {
	const char *id;
	const struct plock *l;
	bool must_spin;
	enum lclass cls;
	const char *confidence;	/* high, medium, low */
	json_t *evidence;	/* array of steps, new reference */
	/* forced to convert, but a context says it must spin: which, why */
	enum lclass conflict;
	json_t *conflict_evidence; /* new reference, or NULL */
	/* the conflict's context was chosen by code of another component */
	const char *foreign_to;
	const char *off_rt;	/* declared where PREEMPT_RT does not build */
	unsigned spread;	/* converted by max_spread: it would have
				 * made this many more locks spin */
	const char *root;	/* must spin: spin_root()'s identity */
};
void classify_result(struct classify *c, unsigned lock, struct cl_result *r);

#endif
