// SPDX-License-Identifier: GPL-2.0
/*
 * sched: the scheduler core runs its class callbacks (struct sched_class)
 * with the runqueue lock held and interrupts off; the tick
 * (scheduler_tick) runs in the timer interrupt.  Locks the scheduler takes
 * under rq->lock are caught by the nesting closure once rq->__lock spins;
 * this rule names the callbacks themselves, so that a tree where rq->lock
 * is being audited still sees them.  So are the cpufreq hooks given to
 * cpufreq_add_update_util_hook(): the scheduler calls them from its enqueue
 * and tick paths with the runqueue lock held.
 */
#include <stdio.h>
#include <string.h>

#include "rules.h"

static void class_fn(struct classify *c, json_t *ref, void *ctx)
{
	char at[512], why[512];

	(void)ctx;
	ref_at(ref, at, sizeof(at));
	snprintf(why, sizeof(why),
		 "%s() is %s of %s (runs with the runqueue lock held)",
		 json_str(ref, "fn"), json_str(ref, "field"), json_str(ref, "obj"));
	mark_entry(c, json_str(ref, "fn"), CL_SCHED, why, at);
}

/* @ref passes a hook, or (@ctx) a variable @ref stored the hook into */
static void update_util_hook(struct classify *c, json_t *ref, void *ctx)
{
	json_t *arg = ctx ? ctx : ref;
	char at[512], stored[512], via[768] = "", why[1024];

	ref_at(arg, at, sizeof(at));
	if (ctx)
		snprintf(via, sizeof(via), " through %s (stored at %s)",
			 json_str(arg, "var"), ref_at(ref, stored, sizeof(stored)));
	snprintf(why, sizeof(why),
		 "%s() is given to cpufreq_add_update_util_hook()%s (the "
		 "scheduler calls it with the runqueue lock held)",
		 json_str(ref, "fn"), via);
	mark_entry(c, json_str(ref, "fn"), CL_SCHED, why, at);
}

static bool is_hook_arg(json_t *ref)
{
	return !strcmp(json_str(ref, "how"), "arg") &&
	       !strcmp(json_str(ref, "callee"), "cpufreq_add_update_util_hook");
}

static void sched_seed(struct classify *c)
{
	struct strset fields = { 0 };
	size_t i;
	json_t *r;
	unsigned j;

	json_array_foreach(c->p->fnrefs, i, r) {
		if (!strncmp(json_str(r, "field"), "struct sched_class::", 20))
			strset_add(&fields, json_str(r, "field"));
		else if (is_hook_arg(r) && json_object_get(r, "var"))
			for_each_field_fn(c, json_str(r, "var"),
					  update_util_hook, r);
		else if (is_hook_arg(r))
			update_util_hook(c, r, NULL);
	}
	for (j = 0; j < fields.n; j++)
		for_each_field_fn(c, fields.v[j], class_fn, NULL);
	strset_free(&fields);
	mark_entry(c, "scheduler_tick", CL_SCHED,
		   "scheduler_tick() runs from the timer interrupt", NULL);
	mark_entry(c, "__schedule", CL_SCHED,
		   "__schedule() runs with interrupts and preemption off",
		   NULL);
}

const struct rule rule_sched = {
	.name = "sched",
	.cls = CL_SCHED,
	.help = "scheduler class callbacks and the scheduler core",
	.seed = sched_seed,
};
