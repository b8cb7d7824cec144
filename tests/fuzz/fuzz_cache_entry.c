// SPDX-License-Identifier: GPL-2.0
/*
 * A cache entry's bytes (cache_decode: checksum line, JSON) and a TU's
 * manifest (cache_manifest_key) against an empty tree.  Dependencies that
 * would leave that tree ("/..", "..") are not followed: the tool only
 * reads what its own manifests name.
 */
#include <jansson.h>
#include <stdio.h>
#include <unistd.h>

#include "cache.h"
#include "fuzz.h"
#include "util.h"

static char root[] = "/tmp/rtlock-fuzz-XXXXXX";

static void remove_root(void)
{
	rmdir(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(root))
		abort();
	atexit(remove_root);
	return 0;
}

static bool stays_inside(json_t *man)
{
	const char *k;
	json_t *v;

	json_object_foreach(json_object_get(man, "deps"), k, v)
		if (k[0] == '/' || strstr(k, ".."))
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cache c;
	char why[256], key[33];
	json_t *j, *man;
	int rc;

	memset(&c, 0, sizeof(c));
	c.root = root;
	j = cache_decode((const char *)data, size, why, sizeof(why));
	FUZZ_ASSERT(j || why[0]);
	man = j ? j : json_loadb((const char *)data, size, 0, NULL);
	if (json_is_object(man) && stays_inside(man)) {
		rc = cache_manifest_key(&c, man, "kernel/fuzz.c", key);
		FUZZ_ASSERT(rc >= -1 && rc <= 1);
		FUZZ_ASSERT(rc != 1 || strlen(key) == 32);
	}
	if (j) {
		/* what decodes, encodes back to the same bytes */
		size_t len;
		char *again = cache_encode(j, &len);
		json_t *k = again ? cache_decode(again, len, why, sizeof(why))
				  : NULL;

		FUZZ_ASSERT(k && json_equal(j, k));
		json_decref(k);
		free(again);
	}
	json_decref(man);
	cache_close(&c);
	return 0;
}
