// SPDX-License-Identifier: GPL-2.0
/*
 * irqchip: irq_chip callbacks run under the irq descriptor's raw lock with
 * interrupts off; irq_domain activation runs under it too.  The bus lock
 * pair (irq_bus_lock/irq_bus_sync_unlock) is the exception: it exists so
 * that slow-bus chips can sleep, and it runs in process context, as do the
 * resource callbacks and the domain's alloc/map/translate.
 */
#include <stdio.h>
#include <string.h>

#include "rules.h"

static const char *const sleepable_fields[] = {
	"irq_bus_lock", "irq_bus_sync_unlock", "irq_request_resources",
	"irq_release_resources", "irq_print_chip", "irq_get_irqchip_state",
	"irq_pm_shutdown", NULL,
};

static void chip_fn(struct classify *c, json_t *ref, void *ctx)
{
	const char *field = ctx;
	char at[512], why[512];

	ref_at(ref, at, sizeof(at));
	snprintf(why, sizeof(why), "%s() is %s of %s", json_str(ref, "fn"), field,
		 *json_str(ref, "obj") ? json_str(ref, "obj") : "an irq_chip");
	mark_entry(c, json_str(ref, "fn"), CL_IRQCHIP, why, at);
}

/* Every field of struct irq_chip that functions are stored into. */
static void irqchip_seed(struct classify *c)
{
	struct strset fields = { 0 };
	size_t i;
	json_t *r;
	unsigned j;

	json_array_foreach(c->p->fnrefs, i, r) {
		const char *f = json_str(r, "field");
		bool skip = false;

		if (strncmp(f, "struct irq_chip::", 17) &&
		    strcmp(f, "struct irq_domain_ops::activate") &&
		    strcmp(f, "struct irq_domain_ops::deactivate"))
			continue;
		for (j = 0; sleepable_fields[j]; j++)
			skip |= !strcmp(f + 17, sleepable_fields[j]);
		if (!skip)
			strset_add(&fields, f);
	}
	for (j = 0; j < fields.n; j++)
		for_each_field_fn(c, fields.v[j], chip_fn, fields.v[j]);
	strset_free(&fields);
}

const struct rule rule_irqchip = {
	.name = "irqchip",
	.cls = CL_IRQCHIP,
	.help = "irq_chip and irq_domain activation callbacks",
	.seed = irqchip_seed,
};
