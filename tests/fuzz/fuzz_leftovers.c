// SPDX-License-Identifier: GPL-2.0
/*
 * A converted file's text: the scan for spinlock API words left outside
 * comments, strings and the kept positions (convert_leftovers).
 */
#include <jansson.h>

#include "convert.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strset keep = { 0 };
	json_t *list = json_array();
	char *text = fuzz_str(data, size);
	unsigned n;

	strset_add(&keep, "drivers/fuzz.c:2");
	n = convert_leftovers("drivers/fuzz.c", text, &keep, list);
	FUZZ_ASSERT(json_array_size(list) == (n < 200 ? n : 200));
	json_decref(list);
	strset_free(&keep);
	free(text);
	return 0;
}
