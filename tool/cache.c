// SPDX-License-Identifier: GPL-2.0
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hash.h"
#include "util.h"

struct hmemo {
	char *path;
	char hash[HASH_HEX];
	UT_hash_handle hh;
};

int cache_open(struct cache *c, const char *dir, const char *root)
{
	char *probe;
	int fd;

	memset(c, 0, sizeof(*c));
	c->dir = xstrdup(dir);
	c->root = root;
	c->tu_dir = xasprintf("%s/facts-v2/tu", dir);
	c->hdr_dir = xasprintf("%s/facts-v2/hdr", dir);
	c->man_dir = xasprintf("%s/facts-v2/man", dir);
	if (mkdir_p(c->tu_dir) < 0 || mkdir_p(c->hdr_dir) < 0 ||
	    mkdir_p(c->man_dir) < 0)
		return error("cache directory %s: %s", dir, strerror(errno));
	probe = xasprintf("%s/.write-test.%ld", c->dir, (long)getpid());
	fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || close(fd) < 0) {
		error("cache directory %s is not writable: %s", dir,
		      strerror(errno));
		free(probe);
		return -1;
	}
	unlink(probe);
	free(probe);
	return 0;
}

void cache_close(struct cache *c)
{
	struct hmemo *m, *tmp;

	HASH_ITER(hh, c->memo, m, tmp) {
		HASH_DEL(c->memo, m);
		free(m->path);
		free(m);
	}
	free(c->dir);
	free(c->tu_dir);
	free(c->hdr_dir);
	free(c->man_dir);
}

const char *cache_file_hash(struct cache *c, const char *path)
{
	struct hmemo *m;
	char *full;

	HASH_FIND_STR(c->memo, path, m);
	if (m)
		return m->hash;
	m = xcalloc(1, sizeof(*m));
	m->path = xstrdup(path);
	full = path[0] == '/' ? xstrdup(path)
			      : xasprintf("%s/%s", c->root, path);
	if (hash_file(full, m->hash) < 0)
		strcpy(m->hash, "missing");
	free(full);
	HASH_ADD_KEYPTR(hh, c->memo, m->path, strlen(m->path), m);
	return m->hash;
}

void cache_tu_key(const char *salt, const char *rel, const char *main_hash,
		  json_t *deps, char out[33])
{
	struct hasher h;
	const char **keys = xcalloc(json_object_size(deps) + 1, sizeof(char *));
	const char *k;
	json_t *v;
	size_t n = 0, i;

	json_object_foreach(deps, k, v)
		keys[n++] = k;
	qsort(keys, n, sizeof(char *), cmp_strp);
	hasher_init(&h);
	hasher_adds(&h, "rtlock-tu-facts");
	hasher_adds(&h, salt);
	hasher_adds(&h, rel);
	hasher_adds(&h, main_hash);
	for (i = 0; i < n; i++) {
		hasher_adds(&h, keys[i]);
		hasher_adds(&h, json_string_value(json_object_get(deps,
								  keys[i])));
	}
	hasher_final(&h, out);
	free(keys);
}

static char *sharded(const char *dir, const char *key)
{
	return xasprintf("%s/%.2s/%s.json", dir, key, key + 2);
}

char *cache_tu_path(const struct cache *c, const char *key)
{
	return sharded(c->tu_dir, key);
}

static char *man_path(const struct cache *c, const char *salt, const char *rel)
{
	char h[HASH_HEX];
	struct hasher hs;

	hasher_init(&hs);
	hasher_adds(&hs, salt);
	hasher_adds(&hs, rel);
	hasher_final(&hs, h);
	return sharded(c->man_dir, h);
}

#define CACHE_MAGIC "rtlock-cache-1 "
#define MAGIC_LEN (sizeof(CACHE_MAGIC) - 1)
#define HEAD_LEN (MAGIC_LEN + HASH_HEX)	/* the magic, the hash, '\n' */

/* @body behind its checksum line, NUL-terminated (its length in @len). */
static char *frame(const char *body, size_t n, size_t *len)
{
	char *out = xmalloc(HEAD_LEN + n + 1);

	memcpy(out, CACHE_MAGIC, MAGIC_LEN);
	hash_buf(body, n, out + MAGIC_LEN);
	out[HEAD_LEN - 1] = '\n';
	memcpy(out + HEAD_LEN, body, n);
	out[HEAD_LEN + n] = '\0';
	*len = HEAD_LEN + n;
	return out;
}

/* The body of @buf if its checksum line holds, else NULL and @why. */
static const char *unframe(const char *buf, size_t len, char *why,
			   size_t whysize)
{
	char h[HASH_HEX];

	if (len < HEAD_LEN || memcmp(buf, CACHE_MAGIC, MAGIC_LEN) ||
	    buf[HEAD_LEN - 1] != '\n') {
		snprintf(why, whysize, "no checksum line");
		return NULL;
	}
	hash_buf(buf + HEAD_LEN, len - HEAD_LEN, h);
	if (memcmp(h, buf + MAGIC_LEN, HASH_HEX - 1)) {
		snprintf(why, whysize, "checksum mismatch");
		return NULL;
	}
	return buf + HEAD_LEN;
}

char *cache_encode(json_t *j, size_t *len)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS), *out;
	size_t n;

	if (!s)
		return NULL;
	n = strlen(s);
	s[n] = '\n';	/* the body is the JSON and a newline */
	out = frame(s, n + 1, len);
	free(s);
	return out;
}

json_t *cache_decode(const char *buf, size_t len, char *why, size_t whysize)
{
	const char *body = unframe(buf, len, why, whysize);
	json_error_t err;
	json_t *j;

	if (!body)
		return NULL;
	j = json_loadb(body, len - (body - buf), 0, &err);
	if (!j) {
		snprintf(why, whysize, "line %d: %s", err.line, err.text);
		return NULL;
	}
	if (!json_is_object(j)) {
		json_decref(j);
		snprintf(why, whysize, "not a JSON object");
		return NULL;
	}
	return j;
}

static void corrupt(struct cache *c, const char *path, const char *why)
{
	warning("%s: corrupt cache entry ignored (%s)", path, why);
	c->corrupt++;
	unlink(path);
}

json_t *cache_read(const char *path, char *why, size_t whysize)
{
	size_t len;
	char *buf = read_file(path, &len);
	json_t *j;

	*why = '\0';
	if (!buf) {
		if (errno != ENOENT)
			snprintf(why, whysize, "%s", strerror(errno));
		return NULL;
	}
	j = cache_decode(buf, len, why, whysize);
	free(buf);
	return j;
}

json_t *cache_record(struct cache *c, const char *path, json_t *j,
		     const char *why, const char *key, const char *want)
{
	const char *got;
	char *what;

	if (!j && *why)
		corrupt(c, path, why);
	if (!j || !want)
		return j;
	got = json_string_value(json_object_get(j, key));
	if (got && !strcmp(got, want))
		return j;
	what = xasprintf("the entry of %s, not of %s", got ? got : "nothing",
			 want);
	corrupt(c, path, what);
	free(what);
	json_decref(j);
	return NULL;
}

json_t *cache_load(struct cache *c, const char *path)
{
	return cache_load_record(c, path, NULL, NULL);
}

json_t *cache_load_record(struct cache *c, const char *path, const char *key,
			  const char *want)
{
	char why[256];
	json_t *j = cache_read(path, why, sizeof(why));

	return cache_record(c, path, j, why, key, want);
}

int cache_manifest_key(struct cache *c, json_t *man, const char *rel,
		       char key[33])
{
	json_t *deps = json_object_get(man, "deps"), *v;
	const char *mk = json_string_value(json_object_get(man, "key"));
	const char *k;
	bool ok;

	if (!json_is_object(deps) || !mk || strlen(mk) != 32 ||
	    strspn(mk, "0123456789abcdef") != 32 ||
	    !json_is_string(json_object_get(man, "hash")))
		return -1;
	json_object_foreach(deps, k, v)
		if (!json_is_string(v))
			return -1;
	ok = !strcmp(cache_file_hash(c, rel),
		     json_string_value(json_object_get(man, "hash")));
	json_object_foreach(deps, k, v) {
		if (!ok)
			break;
		ok = !strcmp(cache_file_hash(c, k), json_string_value(v));
	}
	if (ok)
		strcpy(key, mk);
	return ok;
}

int cache_lookup(struct cache *c, const char *salt, const char *rel,
		 char key[33])
{
	char *mp = man_path(c, salt, rel), *fp;
	json_t *man = cache_load_record(c, mp, "tu", rel);
	int ok = 0;

	if (man) {
		ok = cache_manifest_key(c, man, rel, key);
		if (ok < 0) {
			corrupt(c, mp, "not a manifest");
			ok = 0;
		}
	}
	if (ok) {
		fp = cache_tu_path(c, key);
		ok = access(fp, F_OK) == 0;
		free(fp);
	}
	free(mp);
	json_decref(man);
	return ok;
}

static int store_json(const char *path, json_t *j)
{
	size_t len;
	char *s = cache_encode(j, &len);
	int rc, saved;

	rc = mkdir_parent(path);
	if (!rc)
		rc = write_file_replace(path, s, len);
	saved = errno;
	free(s);
	errno = saved;
	return rc;
}

int cache_store(struct cache *c, const char *salt, const char *rel,
		json_t *facts, char key[33])
{
	json_t *deps = json_object_get(facts, "deps");
	const char *h = cache_file_hash(c, rel);
	char *fp, *mp;
	json_t *man;
	int rc;

	cache_tu_key(salt, rel, h, deps, key);
	fp = cache_tu_path(c, key);
	mp = man_path(c, salt, rel);
	man = json_pack("{sssssssO}", "tu", rel, "key", key, "hash", h,
			"deps", deps);
	rc = store_json(fp, facts);
	if (!rc)
		rc = store_json(mp, man);
	json_decref(man);
	free(fp);
	free(mp);
	return rc;
}

int cache_blob_put(const char *path, const void *data, size_t len)
{
	size_t n;
	char *out = frame(data, len, &n);
	int rc = write_file_replace(path, out, n);

	free(out);
	return rc;
}

char *cache_blob_get(const char *path, size_t *len)
{
	char *data = read_file(path, len), why[64];
	const char *body;

	if (!data)
		return NULL;
	body = unframe(data, *len, why, sizeof(why));
	if (!body) {
		warning("%s: corrupt cache entry ignored (%s)", path, why);
		unlink(path);
		free(data);
		return NULL;
	}
	*len -= HEAD_LEN;
	memmove(data, body, *len);
	data[*len] = '\0';
	return data;
}
