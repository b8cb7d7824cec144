/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Classification rules, one file a context class, registered in rules.c
 * (like sparse's checks): adding a rule is adding a file and a line.
 *
 * seed() marks the functions that run in the rule's context, or the
 * acquisitions made in it; on_spin() is called each time a lock becomes a
 * spinning lock (the nesting closure).  The engine (classify.c) does the
 * propagation along the call graph.
 *
 * dispatched names the function pointer fields whose callbacks the rule's
 * seed() sorts itself: a dispatcher calls each of them in a context that
 * depends on how it was set up (irq_work_single() runs every irq_work, but
 * only the _HARD ones in hard interrupt context on PREEMPT_RT), so the
 * engine does not follow calls through them.
 *
 * alone names the functions that run with nothing to contend with (every
 * other CPU stopped, or before there is any): no context propagates into
 * them, and their own atomic regions make no lock spin.
 */
#ifndef RTLOCK_RULES_H
#define RTLOCK_RULES_H

#include <stdio.h>

#include "../classify_int.h"
#include "../util.h"

struct rule {
	const char *name;
	enum lclass cls;
	const char *help;
	void (*seed)(struct classify *c);
	void (*on_spin)(struct classify *c, unsigned lock);
	const char *const *dispatched;	/* NULL-terminated, or NULL */
	const char *const *alone;	/* NULL-terminated, or NULL */
};

/* "file:line" of fnref or registration @r, in @buf (@size bytes). */
static inline const char *ref_at(json_t *r, char *buf, size_t size)
{
	snprintf(buf, size, "%s:%d", json_str(r, "file"),
		 (int)json_int(r, "line"));
	return buf;
}

/* Is @field one of a rule's dispatched fields? */
bool rules_dispatched(const char *field);
/* Is the function named @name one of a rule's alone functions? */
bool rules_alone(const char *name);

extern const struct rule rule_hardirq, rule_irqchip, rule_sched, rule_arch,
	rule_irqsoff, rule_nesting, rule_shared;

/* In the order they run: the first context that reaches a lock names it. */
extern const struct rule *const rules[];

#endif
