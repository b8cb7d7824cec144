// SPDX-License-Identifier: GPL-2.0
/*
 * A tree file's text: the seqcounts tied to a lock, their declarations
 * with the records they are fields of, and the field aliases
 * (seqcounts_scan), then what convert.c asks of them.
 */
#include "seqcount.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seqcounts sc = { 0 };
	char *text = fuzz_str(data, size);
	size_t n, i;

	n = seqcounts_scan(&sc, "drivers/fuzz.c", text);
	FUZZ_ASSERT(n == sc.nuses + sc.ndecls);
	n += seqcounts_scan(&sc, "include/linux/fuzz.h", text);
	FUZZ_ASSERT(n == sc.nuses + sc.ndecls);
	seqcounts_resolve_aliases(&sc);
	for (i = 0; i < sc.nuses; i++) {
		const struct seq_use *u = &sc.uses[i];

		FUZZ_ASSERT(u->seq && *u->seq && u->lock && *u->lock);
		FUZZ_ASSERT(!u->via || u->same_object);
	}
	for (i = 0; i < sc.ndecls; i++)
		if (sc.decls[i].record)
			seqcounts_field_type(&sc, sc.decls[i].record, "lock");
	seqcounts_free(&sc);
	free(text);
	return 0;
}
