// SPDX-License-Identifier: GPL-2.0
/* The top Makefile of a tree: its version (tree_parse_makefile). */
#include "fuzz.h"
#include "tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tree t;
	char *mk = fuzz_str(data, size);

	memset(&t, 0, sizeof(t));
	if (tree_parse_makefile(&t, mk, "Makefile") == 0)
		FUZZ_ASSERT(t.ver[0] && memchr(t.version, 0, sizeof(t.version)));
	free(mk);
	return 0;
}
