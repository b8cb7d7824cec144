// SPDX-License-Identifier: GPL-2.0
/*
 * --since OLD.json: report_parse_since(), then the diff against a current
 * classification and the text and HTML reports that show it.
 */
#include <jansson.h>
#include <stdio.h>

#include "fuzz.h"
#include "report.h"
#include "util.h"

static const char current[] =
	"{\"schema\": \"rtlock-classify-1\", \"tool\": \"rtlock\","
	" \"tree\": {\"root\": \"/linux\", \"version\": \"6.12.0\"},"
	" \"mode\": \"classify\", \"summary\": {\"locks\": 3, \"must_spin\": 1,"
	" \"convert\": 2, \"by_class\": {\"hardirq\": 1, \"sleepable\": 2},"
	" \"stale\": []}, \"locks\": ["
	" {\"id\": \"global:a_lock\", \"verdict\": \"must-spin\","
	"  \"class\": \"hardirq\", \"evidence\": []},"
	" {\"id\": \"struct rq::__lock\", \"verdict\": \"convert\","
	"  \"class\": \"sleepable\", \"evidence\": []},"
	" {\"id\": \"kernel/x.c:b_lock\", \"verdict\": \"convert\","
	"  \"class\": \"sleepable\", \"evidence\": []}]}";
static json_t *cur;
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	cur = json_loads(current, 0, NULL);
	devnull = fopen("/dev/null", "w");
	if (!cur || !devnull)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *old = report_parse_since((const char *)data, size, "old.json");
	json_t *rep;
	char *html;

	if (!old)
		return 0;
	rep = json_deep_copy(cur);
	json_object_set_new(rep, "since", report_diff(old, rep));
	FUZZ_ASSERT(json_object_get(rep, "since"));
	report_text(rep, devnull);
	html = report_html(rep);
	FUZZ_ASSERT(html);
	free(html);
	json_decref(rep);
	json_decref(old);
	return 0;
}
