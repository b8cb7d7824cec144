/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The facts cache.  A TU's facts are stored under a key that hashes the
 * tool version and flags (the salt), the TU's path and the content of the
 * TU and of every file it includes.  A manifest per TU path records the
 * last key and the content hashes of its dependencies, so that the next
 * run can tell without parsing whether the facts still hold.  Entries are
 * written atomically; one that does not parse is ignored and rebuilt.
 *
 *   <dir>/facts-v1/tu/<kk>/<key>.json   facts of a TU
 *   <dir>/facts-v1/hdr/<kk>/<key>.json  facts of a header (extract.h)
 *   <dir>/facts-v1/man/<kk>/<hash>.json manifest of a TU path
 */
#ifndef RTLOCK_CACHE_H
#define RTLOCK_CACHE_H

#include <jansson.h>
#include <uthash.h>

struct hmemo;

struct cache {
	char *dir;
	char *tu_dir, *hdr_dir, *man_dir;
	const char *root;	/* tree root, for relative dependency paths */
	struct hmemo *memo;	/* path -> content hash, for this run */
	unsigned corrupt;	/* entries found unreadable and ignored */
};

/* Create the directories; -1 with one error line when not writable. */
int cache_open(struct cache *c, const char *dir, const char *root);
void cache_close(struct cache *c);
/* The content hash of a dependency path (relative or absolute), memoised. */
const char *cache_file_hash(struct cache *c, const char *path);
/* The key of facts computed now: salt, path, content of all its files. */
void cache_tu_key(const char *salt, const char *rel, const char *main_hash,
		  json_t *deps, char out[33]);
/* Facts path of @key. */
char *cache_tu_path(const struct cache *c, const char *key);
/*
 * If @rel's manifest is still valid, set @key and return true (the facts
 * file exists).
 */
int cache_lookup(struct cache *c, const char *salt, const char *rel,
		 char key[33]);
/* Store @facts (which carry "deps") for @rel; sets @key. */
int cache_store(struct cache *c, const char *salt, const char *rel,
		json_t *facts, char key[33]);
/* Read a facts file; NULL (and counted as corrupt) when unreadable. */
json_t *cache_load(struct cache *c, const char *path);

#endif
