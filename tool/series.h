/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The patches of a series, one file per commit, as git format-patch
 * writes them, each made once for the same commit content (series.c).
 */
#ifndef RTLOCK_SERIES_H
#define RTLOCK_SERIES_H

#include "git.h"

struct series_stats {
	unsigned patches;	/* commits in the range */
	unsigned reused;	/* patches copied from the cache */
};

/*
 * Write into @dir (which exists) the patch of every commit of @base..@head
 * in @g's repository, numbered [PATCH n/N], reusing what
 * @cache/patches holds.  Returns 0, or -1 with the error reported.
 */
int series_patches(const struct git *g, const char *base, const char *head,
		   const char *dir, const char *cache, struct series_stats *st);

#endif
