// SPDX-License-Identifier: GPL-2.0
/*
 * The record of a built branch.  Its commits are a function of the base
 * commit (the tree), the verdicts, the scan's settings, the identity and
 * the options, and rtlock itself (its program, rules, templates and the
 * workqueue patch): hashed, they are the record's key.  A run with the
 * same key whose repository already holds the recorded head skips the
 * conversion and the commits and only moves the branch there.
 */
#include "record.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"

/* by bytes, not by the locale's collation: the same key everywhere */
static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* The files below @dir, by name, into @h. */
static void hash_dir_files(struct hasher *h, const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, by_name), i;

	for (i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", dir, ents[i]->d_name);
		char sum[HASH_HEX];

		if (is_file(path) && hash_file(path, sum) == 0) {
			hasher_adds(h, ents[i]->d_name);
			hasher_adds(h, sum);
		}
		free(path);
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

static void hash_file_into(struct hasher *h, const char *path)
{
	char sum[HASH_HEX];

	hasher_adds(h, hash_file(path, sum) == 0 ? sum : "missing");
}

void record_key(struct branch *b, struct scan *s, json_t *rep,
		char key[HASH_HEX])
{
	char *verdicts = json_dumps(rep, JSON_SORT_KEYS | JSON_COMPACT);
	char *dir, split[32];
	struct hasher h;

	hasher_init(&h);
	hasher_adds(&h, "rtlock-branch-record-1");
	hash_file_into(&h, "/proc/self/exe");
	dir = xasprintf("%s/cocci", rtlock_home());
	hash_dir_files(&h, dir);
	free(dir);
	dir = xasprintf("%s/tool/templates", rtlock_home());
	hash_dir_files(&h, dir);
	free(dir);
	hash_file_into(&h, b->patch);
	hasher_adds(&h, b->base);
	hasher_adds(&h, b->name);
	hasher_adds(&h, b->mail);
	hasher_adds(&h, b->o->link ? b->o->link : "");
	snprintf(split, sizeof(split), "%u", b->o->split_over);
	hasher_adds(&h, split);
	hasher_add(&h, s->salt, sizeof(s->salt));
	hasher_adds(&h, s->tree.arch);
	hasher_adds(&h, s->tree.only ? s->tree.only : "");
	hasher_adds(&h, verdicts ? verdicts : "");
	hasher_final(&h, key);
	free(verdicts);
}

static char *record_path(struct branch *b, const char *key)
{
	return xasprintf("%s/branches/%s.json", b->cache, key);
}

int record_reuse(struct branch *b, const char *key)
{
	char *path = record_path(b, key), *rev = NULL, *sha;
	json_t *r = is_file(path) ? json_load_file(path, 0, NULL) : NULL;
	json_t *commits = json_object_get(r, "commits");
	const char *head = json_str(r, "head");
	int ok = 0;

	if (!r || strcmp(json_str(r, "schema"), "rtlock-branch-record-1") ||
	    !json_is_array(commits) || !*head)
		goto out;
	/* the objects are in this repository (a new OUT of a release has
	 * the release's packs, the branch's among them) */
	rev = xasprintf("%s^{commit}", head);
	sha = git_read(&b->g, "rev-parse", "--verify", "-q", rev, NULL);
	ok = sha && !strcmp(sha, head);
	free(sha);
	if (!ok)
		goto out;
	json_decref(b->commits);
	b->commits = json_incref(commits);
	b->ncommits = json_array_size(commits);
	free(b->head);
	b->head = xstrdup(head);
	b->converted_files = json_integer_value(
		json_object_get(r, "converted_files"));
	b->leftovers = json_int(r, "leftovers");
	b->reused = true;
out:
	json_decref(r);
	free(rev);
	free(path);
	return ok;
}

void record_save(struct branch *b, const char *key)
{
	char *path = record_path(b, key), *text;
	json_t *r = json_pack("{sssssOsisi}", "schema", "rtlock-branch-record-1",
			      "head", b->head, "commits", b->commits,
			      "converted_files", b->converted_files,
			      "leftovers", b->leftovers);

	text = json_dumps(r, JSON_INDENT(1) | JSON_SORT_KEYS);
	/* without it, the next run only builds again */
	if (text && mkdir_parent(path) == 0)
		write_file_atomic(path, text, strlen(text));
	free(text);
	json_decref(r);
	free(path);
}
