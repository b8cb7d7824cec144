// SPDX-License-Identifier: GPL-2.0
/*
 * hardirq: code that runs in hard interrupt context even on PREEMPT_RT,
 * where interrupt handlers are force-threaded: handlers requested with
 * IRQF_NO_THREAD, IRQF_TIMER, IRQF_PERCPU or IRQF_ONESHOT (the primary
 * handler; irq_setup_forced_threading() leaves those alone), per-cpu irqs,
 * NMI handlers, chained and flow handlers, hard irq_work, IPI callbacks
 * (smp_call_function and friends), hrtimers in a _HARD mode,
 * clockevent device callbacks, the callbacks of a PMU that the perf core
 * runs from its cross-CPU calls and the PMU interrupt, and the element
 * operations of BPF maps, which BPF programs attached to kprobes,
 * tracepoints and perf events call in any context.
 */
#include <stdio.h>
#include <string.h>

#include "rules.h"

static const char *const unthreaded[] = {
	"IRQF_NO_THREAD", "IRQF_TIMER", "IRQF_PERCPU", "IRQF_ONESHOT", NULL,
};

/* The first flag of an irq request that keeps it unthreaded, or NULL. */
static const char *unthreaded_flag(json_t *req)
{
	json_t *flags = json_object_get(req, "flags");
	unsigned i;

	for (i = 0; unthreaded[i]; i++) {
		const char *one[] = { unthreaded[i], NULL };

		if (json_words_have(flags, one))
			return unthreaded[i];
	}
	return NULL;
}

static const char *const clockevent_fields[] = {
	"struct clock_event_device::event_handler",
	"struct clock_event_device::set_next_event",
	"struct clock_event_device::set_next_ktime",
	"struct clock_event_device::set_state_oneshot",
	"struct clock_event_device::set_state_periodic",
	"struct clock_event_device::set_state_shutdown",
	"struct clock_event_device::set_state_oneshot_stopped",
	"struct clock_event_device::tick_resume",
	"struct clock_event_device::broadcast",
	NULL,
};

/* called with the perf event context's raw lock held, interrupts off */
static const char *const pmu_fields[] = {
	"struct pmu::add", "struct pmu::del", "struct pmu::start",
	"struct pmu::stop", "struct pmu::read", NULL,
};

/*
 * What the map helpers of a BPF program call (bpf_map_update_elem() ...),
 * for the generic map types of kernel/bpf/ that tracing programs may use;
 * the verifier lets only networking programs (softirq) update the map
 * types of the networking code (sockmap, xskmap: may_update_sockmap()).
 */
static const char *const bpf_map_fields[] = {
	"struct bpf_map_ops::map_lookup_elem",
	"struct bpf_map_ops::map_update_elem",
	"struct bpf_map_ops::map_delete_elem",
	"struct bpf_map_ops::map_push_elem",
	"struct bpf_map_ops::map_pop_elem",
	"struct bpf_map_ops::map_peek_elem",
	NULL,
};

/*
 * Function @fn, registered by @r, runs in hard irq: by the kernel's
 * design, or by its own code's choice (@own: a handler's flags).
 */
static void entry_as(struct classify *c, json_t *r, const char *fn,
		     const char *why, bool own)
{
	char at[512], text[512];

	ref_at(r, at, sizeof(at));
	snprintf(text, sizeof(text), "%s() %s", fn, why);
	if (own)
		own_entry(c, fn, CL_HARDIRQ, text, at);
	else
		mark_entry(c, fn, CL_HARDIRQ, text, at);
}

static void entry(struct classify *c, json_t *r, const char *fn,
		  const char *why)
{
	entry_as(c, r, fn, why, false);
}

/* IRQF_TIMER and IRQF_PERCPU are the kernel's; the others a driver's. */
static bool own_flag(const char *flag)
{
	return !strcmp(flag, "IRQF_ONESHOT") ||
	       !strcmp(flag, "IRQF_NO_THREAD");
}

static bool mode_is_hard(json_t *words)
{
	size_t i;
	json_t *w;

	json_array_foreach(words, i, w)
		if (strstr(json_string_value(w), "HARD"))
			return true;
	return false;
}

/* hrtimer_init(&x->timer, clock, HRTIMER_MODE_*_HARD); x->timer.function = f */
static void hard_timer(struct classify *c, json_t *ref, void *ctx)
{
	json_t *init = ctx;
	const char *obj = json_str(ref, "obj");

	if (*obj && !strcmp(obj, json_str(init, "obj")))
		entry(c, ref, json_str(ref, "fn"),
		      "is the callback of an hrtimer in a _HARD mode");
}

static void clockevent(struct classify *c, json_t *ref, void *ctx)
{
	(void)ctx;
	entry(c, ref, json_str(ref, "fn"),
	      "is a clock_event_device callback (timer interrupt)");
}

/* register_nmi_handler() fills a struct nmiaction */
static void nmi_action(struct classify *c, json_t *ref, void *ctx)
{
	(void)ctx;
	entry(c, ref, json_str(ref, "fn"), "is an NMI handler (struct nmiaction)");
}

/* @ctx: why a function stored into the field runs in hard irq context */
static void field_entry(struct classify *c, json_t *ref, void *ctx)
{
	char why[512];

	snprintf(why, sizeof(why), "is stored into %s, %s",
		 json_str(ref, "field"),
		 (const char *)ctx);
	entry(c, ref, json_str(ref, "fn"), why);
}

static void bpf_map_entry(struct classify *c, json_t *ref, void *ctx)
{
	(void)ctx;
	if (!strncmp(json_str(ref, "file"), "kernel/bpf/", 11))
		field_entry(c, ref,
			    "which BPF programs attached to kprobes, "
			    "tracepoints and perf events call in any context");
}

static void irq_work_fn(struct classify *c, json_t *ref, void *ctx)
{
	(void)ctx;
	if (strstr(json_str(ref, "macro"), "HARD"))
		entry(c, ref, json_str(ref, "fn"),
		      "is a hard irq_work (IRQ_WORK_INIT_HARD)");
}

static void hardirq_seed(struct classify *c)
{
	size_t i;
	json_t *r;
	unsigned j;

	json_array_foreach(c->p->regs, i, r) {
		const char *role = json_str(r, "role"), *fn = json_str(r, "fn");
		char why[256];

		if (!strcmp(role, "irq")) {
			const char *flag = unthreaded_flag(r);

			if (flag) {
				snprintf(why, sizeof(why),
					 "is requested by %s() with %s, which "
					 "keeps it out of an irq thread",
					 json_str(r, "api"), flag);
				entry_as(c, r, fn, why, own_flag(flag));
				if (!strcmp(flag, "IRQF_ONESHOT"))
					weigh_entry(c, fn);
			}
		} else if (!strcmp(role, "percpu_irq") || !strcmp(role, "nmi") ||
			   !strcmp(role, "chained") || !strcmp(role, "flow") ||
			   !strcmp(role, "irq_work_hard") ||
			   !strcmp(role, "ipi")) {
			snprintf(why, sizeof(why), "is registered by %s() (%s)",
				 json_str(r, "api"), role);
			entry(c, r, fn, why);
			if (!strcmp(role, "ipi") && json_object_get(r, "fn2"))
				entry(c, r, json_str(r, "fn2"),
				      "is an IPI condition callback");
		} else if (!strcmp(role, "hrtimer_init") &&
			   mode_is_hard(json_object_get(r, "flags"))) {
			for_each_field_fn(c, "struct hrtimer::function",
					  hard_timer, r);
		} else if (!strcmp(role, "hrtimer") &&
			   mode_is_hard(json_object_get(r, "flags"))) {
			entry(c, r, fn, "is set up as a _HARD hrtimer callback");
		}
	}
	for (j = 0; clockevent_fields[j]; j++)
		for_each_field_fn(c, clockevent_fields[j], clockevent, NULL);
	for_each_field_fn(c, "struct nmiaction::handler", nmi_action, NULL);
	for (j = 0; pmu_fields[j]; j++)
		for_each_field_fn(c, pmu_fields[j], field_entry,
				  "which the perf core calls from its cross-CPU "
				  "calls and the PMU interrupt");
	for (j = 0; bpf_map_fields[j]; j++)
		for_each_field_fn(c, bpf_map_fields[j], bpf_map_entry, NULL);
	for_each_field_fn(c, "struct irq_work::func", irq_work_fn, NULL);
}

/*
 * irq_work_single() calls every irq_work; on PREEMPT_RT the ones not
 * set up _HARD run in the irq_work thread, and irq_work_fn() makes the
 * others entries.
 */
static const char *const dispatched[] = { "struct irq_work::func", NULL };

const struct rule rule_hardirq = {
	.name = "hardirq",
	.cls = CL_HARDIRQ,
	.help = "reachable from a hard interrupt entry that is not threaded",
	.seed = hardirq_seed,
	.dispatched = dispatched,
};
