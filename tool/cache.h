/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The facts cache.  A TU's facts are stored under a key that hashes the
 * tool version and flags (the salt), the TU's path and the content of the
 * TU and of every file it includes.  A manifest per TU path records the
 * last key and the content hashes of its dependencies, so that the next
 * run can tell without parsing whether the facts still hold.  Entries are
 * written atomically, as a checksum line and the JSON (cache_encode()); one
 * whose checksum, JSON or owner does not match is reported, dropped and
 * rebuilt: nothing read from the cache is trusted unchecked.
 *
 *   <dir>/facts-v2/tu/<kk>/<key>.json   facts of a TU
 *   <dir>/facts-v2/hdr/<kk>/<key>.json  facts of a header (extract.h)
 *   <dir>/facts-v2/man/<kk>/<hash>.json manifest of a TU path
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
/*
 * Read an entry: NULL when missing, or when it is unreadable, fails its
 * checksum or is not a JSON object (then reported on stderr, counted in
 * @corrupt and removed).
 */
json_t *cache_load(struct cache *c, const char *path);
/* The same, and the entry's @key must be the string @want (NULL: any). */
json_t *cache_load_record(struct cache *c, const char *path, const char *key,
			  const char *want);
/*
 * cache_load_record() in two steps, for threads that read ahead:
 * cache_read() touches nothing shared (NULL: @why says why, empty when the
 * entry is missing); cache_record() does the rest in the thread that owns
 * @c, with what cache_read() returned (it takes @j).
 */
json_t *cache_read(const char *path, char *why, size_t whysize);
json_t *cache_record(struct cache *c, const char *path, json_t *j,
		     const char *why, const char *key, const char *want);
/*
 * A cache entry's bytes: "rtlock-cache-1 <hash of the rest>\n", the JSON
 * and a newline (a new string, its length in @len; NULL if @j cannot be
 * written).  cache_decode() checks and parses them: NULL with the reason in
 * @why when they do not hold a JSON object under a matching checksum.
 */
char *cache_encode(json_t *j, size_t *len);
json_t *cache_decode(const char *buf, size_t len, char *why, size_t whysize);
/*
 * A manifest's key when its TU and every dependency still have the
 * recorded content: 1 (@key set), 0 when something changed, -1 when it is
 * not a manifest.
 */
int cache_manifest_key(struct cache *c, json_t *man, const char *rel,
		       char key[33]);

/*
 * A cache entry of raw data (a converted file, a patch): a checksum line,
 * "rtlock-cache-1 HASH", then the data; written without an fsync
 * (write_file_replace()): a crash may lose one, never leave one that
 * passes its checksum.
 */
int cache_blob_put(const char *path, const void *data, size_t len);
/*
 * The data of entry @path, NUL-terminated, its length in @len; NULL when
 * there is none, or when it is corrupt (then said and removed).
 */
char *cache_blob_get(const char *path, size_t *len);

#endif
