// SPDX-License-Identifier: GPL-2.0
#include "hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void hasher_init(struct hasher *h)
{
	h->st = XXH3_createState();
	if (!h->st)
		die(EXIT_FAIL, "out of memory");
	XXH3_128bits_reset(h->st);
}

void hasher_add(struct hasher *h, const void *data, size_t len)
{
	XXH3_128bits_update(h->st, data, len);
}

void hasher_adds(struct hasher *h, const char *s)
{
	XXH3_128bits_update(h->st, s, strlen(s) + 1);
}

static void to_hex(XXH128_hash_t v, char out[HASH_HEX])
{
	snprintf(out, HASH_HEX, "%016llx%016llx", (unsigned long long)v.high64,
		 (unsigned long long)v.low64);
}

void hasher_final(struct hasher *h, char out[HASH_HEX])
{
	to_hex(XXH3_128bits_digest(h->st), out);
	XXH3_freeState(h->st);
	h->st = NULL;
}

void hash_buf(const void *data, size_t len, char out[HASH_HEX])
{
	to_hex(XXH3_128bits(data, len), out);
}

int hash_file(const char *path, char out[HASH_HEX])
{
	size_t len;
	char *buf = read_file(path, &len);

	if (!buf)
		return -1;
	hash_buf(buf, len, out);
	free(buf);
	return 0;
}

void hasher_adds_placed(struct hasher *h, const char *s,
			const char *const *places)
{
	for (;;) {
		const char *at = NULL;
		size_t len = 0;
		unsigned i, which = 0;
		char token[16];

		/* the first place named in @s; of two there, the longer */
		for (i = 0; places[i]; i++) {
			size_t n = strlen(places[i]);
			const char *p = n ? strstr(s, places[i]) : NULL;

			if (p && (!at || p < at || (p == at && n > len)))
				at = p, len = n, which = i;
		}
		if (!at)
			break;
		hasher_add(h, s, at - s);
		snprintf(token, sizeof(token), "@PLACE%u@", which);
		hasher_adds(h, token);
		s = at + len;
	}
	hasher_adds(h, s);
}
