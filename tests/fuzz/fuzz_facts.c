// SPDX-License-Identifier: GPL-2.0
/*
 * Facts records as the cache holds them (one object, or an array of them:
 * a TU and its headers), through everything that reads them: the program
 * (prog_add_facts, prog_link), the flow pass and the inventory, the
 * classifier and the report.
 */
#include <jansson.h>

#include "classify.h"
#include "fuzz.h"
#include "report.h"
#include "scan.h"
#include "util.h"
#include "whitelist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *j = json_loadb((const char *)data, size, 0, NULL), *f;
	json_t *inv, *rep;
	struct whitelist wl = { 0 };
	struct classify cl;
	struct scan s;
	char *html;
	size_t i;

	if (!j)
		return 0;
	memset(&s, 0, sizeof(s));
	prog_init(&s.prog);
	if (json_is_array(j)) {
		json_array_foreach(j, i, f)
			if (json_is_object(f))
				prog_add_facts(&s.prog, f);
	} else if (json_is_object(j)) {
		prog_add_facts(&s.prog, j);
	}
	json_decref(j);
	prog_link(&s.prog);
	s.tree.root = "/fuzz/linux";
	strcpy(s.tree.version, "6.1.0");
	s.tree.arch = "x86";
	s.kb.config = (char *)"none";
	s.cache.dir = "/fuzz/cache";
	inv = scan_inventory(&s);
	FUZZ_ASSERT(inv);
	classify_init(&cl, &s.prog, size & 1, 0);
	classify_whitelist(&cl, &wl);
	classify_run(&cl);
	rep = report_json(&s, &cl, inv);
	FUZZ_ASSERT(rep);
	html = report_html(rep);
	FUZZ_ASSERT(html);
	free(html);
	json_decref(rep);
	json_decref(inv);
	classify_free(&cl);
	prog_free(&s.prog);
	return 0;
}
