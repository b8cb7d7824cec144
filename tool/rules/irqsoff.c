// SPDX-License-Identifier: GPL-2.0
/*
 * irqs-off: locks taken, and functions called, where interrupts or
 * preemption were disabled by hand (local_irq_save, preempt_disable,
 * get_cpu ...), not by the lock's own _irq/_irqsave form, which on
 * PREEMPT_RT leaves interrupts on.  stop_machine() callbacks run with
 * interrupts off too.  Disabling them by hand is the code's own choice:
 * core code's decides for every lock it reaches, a driver's, a file
 * system's or a protocol's for none (owner.c).  Where nothing can contend
 * it makes nothing spin: see runs_alone[].  Nor does preemption disabled
 * only until the task schedules itself (sched_hint()), nor an interrupt
 * handler called by hand (by_hand_handler()).
 *
 * A tracepoint's probes (register_trace_NAME()'s, and TRACE_EVENT's
 * trace_event_raw_event_NAME()) run with preemption disabled: __DO_TRACE()
 * wraps their calls in preempt_disable_notrace(), wherever trace_NAME()
 * fires.  The kernel's design, not the probe's choice (mark_entry()).
 */
#include <stdio.h>
#include <string.h>

#include "rules.h"

/*
 * Code that runs with nothing to contend with: start_kernel() runs on the
 * boot CPU alone, before the scheduler, until it turns interrupts on (a
 * sleeping lock is free there, and __might_sleep() checks nothing before
 * SYSTEM_SCHEDULING); panic() and kdb's output run with every other CPU
 * stopped, and machine_real_restart() hands the machine back to the BIOS:
 * for a system that does not go on.  Interrupts off there is no
 * reason for a lock to spin, and no context propagates into them (a hard
 * interrupt that panics).  Not kgdb_cpu_enter(): it is what stops the
 * others, under dbg_master_lock.
 */
static const char *const runs_alone[] = {
	"start_kernel", "panic", "vkdb_printf", "machine_real_restart", NULL,
};

/*
 * The same for the atomic transfers of I2C: __i2c_transfer() calls them
 * only in i2c_in_atomic_xfer_mode(), once the system has left
 * SYSTEM_RUNNING (reboot, power-off) with interrupts off.
 */
static const char *const shutdown_only[] = {
	"struct i2c_algorithm::master_xfer_atomic",
	"struct i2c_algorithm::smbus_xfer_atomic", NULL,
};

/* The leaf events of a body's IR, in source order (body.c's format). */
static void leaf_events(json_t *blk, json_t *out)
{
	size_t i, j;
	json_t *ev, *part;

	json_array_foreach(blk, i, ev) {
		const char *op = json_string_value(json_array_get(ev, 0));

		if (!op)
			continue;
		if (!strcmp(op, "call") || !strcmp(op, "lock") ||
		    !strcmp(op, "ctx")) {
			json_array_append(out, ev);
			continue;
		}
		for (j = 1; j < json_array_size(ev); j++) {
			part = json_array_get(ev, j);
			if (json_is_array(part) &&
			    json_is_array(json_array_get(part, 0)))
				leaf_events(part, out);
		}
	}
}

static const char *const enable_no_resched[] = {
	"preempt_enable_no_resched", "sched_preempt_enable_no_resched", NULL,
};

static const char *const schedule_fns[] = {
	"schedule", "freezable_schedule", NULL,
};

/* Is @ev a call of schedule()?  (The callee may be "file:name".) */
static bool calls_schedule(json_t *ev)
{
	const char *op = json_string_value(json_array_get(ev, 0));
	const char *callee = json_string_value(json_array_get(ev, 2));

	return op && !strcmp(op, "call") && callee &&
	       str_in(schedule_fns, id_name(callee));
}

/*
 * Does @fn disable preemption only until it schedules itself, every
 * region ending in "preempt_enable_no_resched(); schedule();"?  That is a
 * hint to the scheduler (do not preempt a task about to sleep anyway,
 * ptrace_stop()), not a context its code needs: PREEMPT_RT kernels drop
 * such regions, and they make no lock spin.
 */
static bool sched_hint(const struct cl_func *fn)
{
	json_t *evs = json_array(), *ev;
	bool hint = false;
	size_t i;

	leaf_events(fn->f->ir, evs);
	json_array_foreach(evs, i, ev) {
		const char *op = json_string_value(json_array_get(ev, 0));
		const char *kind = json_string_value(json_array_get(ev, 2));

		if (strcmp(op, "ctx") || !kind || strcmp(kind, "preempt") ||
		    json_integer_value(json_array_get(ev, 3)) >= 0)
			continue;
		hint = str_in(enable_no_resched,
			      json_string_value(json_array_get(ev, 4))) &&
		       calls_schedule(json_array_get(evs, i + 1));
		if (!hint)
			break;
	}
	json_decref(evs);
	return hint;
}

/* Did @fn disable interrupts or preemption by hand, and not as a hint? */
static bool off_by_hand(bool irqs_off, bool preempt_off, int *hint,
			const struct cl_func *fn)
{
	if (irqs_off)
		return true;
	if (!preempt_off)
		return false;
	if (*hint < 0)
		*hint = sched_hint(fn);
	return !*hint;
}

/*
 * Is call @cl, with interrupts off, a driver's interrupt handler (a
 * function returning irqreturn_t) called by hand, from a poll or watchdog
 * path that stands in for a lost interrupt?  On PREEMPT_RT the handler
 * runs in its irq thread, and its locks sleep there: the region that
 * imitates the interrupt is what needs changing, not the locks.
 */
static bool by_hand_handler(const struct classify *c, const struct cl_call *cl)
{
	static const char *const irqreturn[] = { "irqreturn_t", NULL };

	return cl->irqs_off &&
	       json_words_have(c->funcs[cl->callee].f->attrs, irqreturn);
}

static void tracepoint_probes(struct classify *c)
{
	size_t i;
	json_t *r;

	json_array_foreach(c->tp_probes, i, r) {
		char at[512], why[512];

		ref_at(r, at, sizeof(at));
		snprintf(why, sizeof(why),
			 "%s() is a probe of %s, called with preemption "
			 "disabled (__DO_TRACE)",
			 json_str(r, "fn"), json_str(r, "field"));
		mark_entry(c, json_str(r, "fn"), CL_IRQSOFF, why, at);
	}
}

static void irqsoff_seed(struct classify *c)
{
	size_t i;
	unsigned f, j;
	json_t *r;

	tracepoint_probes(c);

	json_array_foreach(c->p->regs, i, r) {
		char at[512], why[512];

		if (strcmp(json_str(r, "role"), "stop_machine"))
			continue;
		ref_at(r, at, sizeof(at));
		snprintf(why, sizeof(why),
			 "%s() runs under %s() with interrupts off",
			 json_str(r, "fn"), json_str(r, "api"));
		mark_entry(c, json_str(r, "fn"), CL_IRQSOFF, why, at);
	}
	for (f = 0; f < c->nfuncs; f++) {
		struct cl_func *fn = &c->funcs[f];
		int hint = -1;

		if (fn->f->low_level)
			continue; /* off from its entry: the arch rule's */
		if (fn->alone)
			continue;
		for (j = 0; j < fn->nacqs; j++)
			if (off_by_hand(fn->acqs[j].irqs_off,
					fn->acqs[j].preempt_off, &hint, fn))
				own_acq(c, f, j, CL_IRQSOFF);
		for (j = 0; j < fn->ncalls; j++)
			if (off_by_hand(fn->calls[j].irqs_off,
					fn->calls[j].preempt_off, &hint, fn) &&
			    !by_hand_handler(c, &fn->calls[j]))
				own_call(c, f, j, CL_IRQSOFF);
	}
}

const struct rule rule_irqsoff = {
	.name = "irqs-off",
	.alone = runs_alone,
	.dispatched = shutdown_only,
	.cls = CL_IRQSOFF,
	.help = "interrupts or preemption disabled by hand",
	.seed = irqsoff_seed,
};
