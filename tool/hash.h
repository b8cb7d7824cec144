/* SPDX-License-Identifier: GPL-2.0 */
/* Content hashes (XXH3, 128 bits) as 32 hex digits, for cache keys. */
#ifndef RTLOCK_HASH_H
#define RTLOCK_HASH_H

#include <stddef.h>
#include <xxhash.h>

#define HASH_HEX 33

struct hasher {
	XXH3_state_t *st;
};

void hasher_init(struct hasher *h);
void hasher_add(struct hasher *h, const void *data, size_t len);
/* Adds a string and its terminating NUL, so that "ab"+"c" != "a"+"bc". */
void hasher_adds(struct hasher *h, const char *s);
/*
 * hasher_adds() with every occurrence of @places[i] (NULL-terminated)
 * spelt "@PLACEi@": what a key says of the tree or the cache, not where
 * they are.
 */
void hasher_adds_placed(struct hasher *h, const char *s,
			const char *const *places);
void hasher_final(struct hasher *h, char out[HASH_HEX]);
void hash_buf(const void *data, size_t len, char out[HASH_HEX]);
/* Hash of a file's content; -1 when it cannot be read. */
int hash_file(const char *path, char out[HASH_HEX]);

#endif
