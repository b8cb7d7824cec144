// SPDX-License-Identifier: GPL-2.0
/* The registration table, and helpers the rules share. */
#include <string.h>

#include "rules.h"

const struct rule *const rules[] = {
	&rule_nesting,	/* first: its on_spin hook closes every seeding */
	&rule_hardirq,
	&rule_irqchip,
	&rule_sched,
	&rule_arch,
	&rule_irqsoff,
	NULL,
};

bool words_have(json_t *words, const char *const *names)
{
	size_t i;
	json_t *w;
	unsigned j;

	json_array_foreach(words, i, w)
		for (j = 0; names[j]; j++)
			if (!strcmp(json_string_value(w), names[j]))
				return true;
	return false;
}
