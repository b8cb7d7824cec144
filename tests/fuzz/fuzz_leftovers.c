// SPDX-License-Identifier: GPL-2.0
/*
 * A converted file's text: the scan for spinlock API words left outside
 * comments, strings and the kept positions (leftover_lines).
 */
#include <jansson.h>

#include "leftover.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strset keep = { 0 }, impl = { 0 };
	json_t *list = json_array();
	char *text = fuzz_str(data, size);
	unsigned n;

	strset_add(&keep, "drivers/fuzz.c:2");
	strset_add(&impl, "spin_needbreak");
	strset_add(&impl, "kfifo_in_spinlocked");
	n = leftover_lines("drivers/fuzz.c", text, &keep, &impl, list);
	FUZZ_ASSERT(json_array_size(list) ==
		    (n < LEFTOVER_LIST_MAX ? n : LEFTOVER_LIST_MAX));
	json_decref(list);
	strset_free(&keep);
	strset_free(&impl);
	free(text);
	return 0;
}
