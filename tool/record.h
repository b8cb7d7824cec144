/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record of a built branch (CACHE/branches/KEY.json): the commits one
 * set of inputs gave, so that a run with the same inputs moves the branch
 * to them instead of converting and committing again.
 */
#ifndef RTLOCK_RECORD_H
#define RTLOCK_RECORD_H

#include "branch.h"
#include "hash.h"

/* The hash of everything the commits depend on. */
void record_key(struct branch *b, struct scan *s, json_t *rep,
		char key[HASH_HEX]);

/*
 * Take the commits recorded under @key when the repository has them:
 * b->head, b->commits and the counts are set, and 1 returned; else 0.
 */
int record_reuse(struct branch *b, const char *key);

/* Record b's commits under @key (best effort: a lost record costs time). */
void record_save(struct branch *b, const char *key);

#endif
