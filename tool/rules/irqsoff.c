// SPDX-License-Identifier: GPL-2.0
/*
 * irqs-off: locks taken, and functions called, where interrupts or
 * preemption were disabled by hand (local_irq_save, preempt_disable,
 * get_cpu ...), not by the lock's own _irq/_irqsave form, which on
 * PREEMPT_RT leaves interrupts on.  stop_machine() callbacks run with
 * interrupts off too.  Disabling them by hand is the code's own choice: it
 * decides for its own component's locks only, unless it is core code
 * (owner.c).  Where nothing can contend it makes nothing spin: see
 * runs_alone[].
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

static void irqsoff_seed(struct classify *c)
{
	size_t i;
	unsigned f, j;
	json_t *r;

	json_array_foreach(c->p->regs, i, r) {
		char at[512], why[512];

		if (strcmp(json_str(r, "role"), "stop_machine"))
			continue;
		snprintf(at, sizeof(at), "%s:%d", json_str(r, "file"),
			 (int)json_integer_value(json_object_get(r, "line")));
		snprintf(why, sizeof(why),
			 "%s() runs under %s() with interrupts off",
			 json_str(r, "fn"), json_str(r, "api"));
		mark_entry(c, json_str(r, "fn"), CL_IRQSOFF, why, at);
	}
	for (f = 0; f < c->nfuncs; f++) {
		struct cl_func *fn = &c->funcs[f];

		if (fn->f->low_level)
			continue; /* off from its entry: the arch rule's */
		if (fn->alone)
			continue;
		for (j = 0; j < fn->nacqs; j++)
			if (fn->acqs[j].irqs_off || fn->acqs[j].preempt_off)
				own_acq(c, f, j, CL_IRQSOFF);
		for (j = 0; j < fn->ncalls; j++)
			if (fn->calls[j].irqs_off || fn->calls[j].preempt_off)
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
