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

/* Is @s in @list (NULL-terminated, or NULL)? */
static bool in_list(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

bool rules_dispatched(const char *field)
{
	unsigned i;

	for (i = 0; rules[i]; i++)
		if (in_list(rules[i]->dispatched, field))
			return true;
	return false;
}

bool rules_alone(const char *name)
{
	unsigned i;

	for (i = 0; rules[i]; i++)
		if (in_list(rules[i]->alone, name))
			return true;
	return false;
}
