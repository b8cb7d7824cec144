/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flow pass: run a function's IR with an abstract state (locks that
 * may be held, interrupts or preemption disabled by hand) and report each
 * lock operation and each call with the state it happens in.  Branches
 * join by union ("may be held"), so a lock held on any path counts.
 */
#ifndef RTLOCK_FLOW_H
#define RTLOCK_FLOW_H

#include "prog.h"

struct held {
	char *target;		/* as the IR names it, after substitution */
	const char *api;	/* how it was taken */
	bool must;		/* held on every path to here */
};

struct fstate {
	bool live;
	/*
	 * no path reaches here: code after a return (or a call that does
	 * not return) and before any label, still reported, from scratch
	 */
	bool unreached;
	int irq, preempt;	/* depth of disabling done by hand */
	bool irq_on;		/* interrupts turned on here, not off since */
	bool irq_may_on;	/* the same on some path */
	bool irq_may_on_here;	/* the same, by the function's own code */
	/* after a reference count's *_dec_and_test(): the release path */
	bool last_ref;
	/*
	 * inside an if on a parameter (body.c): 1 + the parameter's index,
	 * 0 for none; the branch runs when it is nonzero (@guard_nonzero)
	 * or zero
	 */
	int guard;
	bool guard_nonzero;
	struct held *held;
	unsigned nheld, alloc;
	/*
	 * Locks the caller held that this function released on every path
	 * to here, itself or in a callee: what follows no longer runs under
	 * them.
	 */
	char **dropped;
	unsigned ndropped, adropped;
};

struct flow_event {
	struct pfunc *fn;
	json_t *ev;		/* the IR event */
	const char *kind;	/* "lock" or "call" */
	const struct fstate *st; /* state before the event */
};

/* Called for each lock and call event; return nonzero to stop. */
typedef int (*flow_cb)(const struct flow_event *e, void *ctx);

/*
 * Run @fn.  With @p, calls apply their callee's summary.  Updates fn's
 * summary (acquires/releases); returns true when it changed.
 */
bool flow_run(struct prog *p, struct pfunc *fn, flow_cb cb, void *ctx);
/* Summaries of all functions, iterated until nothing changes. */
void flow_summaries(struct prog *p);

#endif
