// SPDX-License-Identifier: GPL-2.0
/* whitelist/NAME.txt: whitelist_parse(), then the JSON classify makes of it. */
#include <jansson.h>

#include "fuzz.h"
#include "util.h"
#include "whitelist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct whitelist w = { 0 };
	char *text = fuzz_str(data, size);
	unsigned i;

	if (whitelist_parse(&w, "fuzz.txt", text) == 0) {
		for (i = 0; i < w.n; i++) {
			/* as classify_whitelist() and the report use them */
			json_t *o = json_pack("{ssss}", "id", w.v[i].id,
					      "where", w.v[i].where);
			char *why = xasprintf("whitelisted (%s): %s",
					      w.v[i].cls ? w.v[i].cls : "",
					      w.v[i].reason);

			FUZZ_ASSERT(o);
			FUZZ_ASSERT(*w.v[i].id && *w.v[i].reason);
			FUZZ_ASSERT(!w.v[i].must_spin || w.v[i].cls);
			json_decref(o);
			o = json_string(why);
			FUZZ_ASSERT(o);
			json_decref(o);
			free(why);
		}
	}
	whitelist_free(&w);
	free(text);
	return 0;
}
