// SPDX-License-Identifier: GPL-2.0
/* The registration table. */
#include <string.h>

#include "rules.h"

const struct rule *const rules[] = {
	&rule_nesting,	/* first: its on_spin hook closes every seeding */
	&rule_shared,	/* so does this one */
	&rule_hardirq,
	&rule_irqchip,
	&rule_sched,
	&rule_arch,
	&rule_irqsoff,
	NULL,
};

bool rules_dispatched(const char *field)
{
	unsigned i;

	for (i = 0; rules[i]; i++)
		if (str_in(rules[i]->dispatched, field))
			return true;
	return false;
}

bool rules_alone(const char *name)
{
	unsigned i;

	for (i = 0; rules[i]; i++)
		if (str_in(rules[i]->alone, name))
			return true;
	return false;
}
