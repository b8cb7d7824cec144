/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RT branch: from a base revision of a kernel repository, a series of
 * commits made with git fast-import from a private copy of the tree (the
 * user's checkout, index and HEAD are never touched):
 *
 *   1. locking: Add lock_t (lock.h, lock_types.h, the typecheck option)
 *   2. the mechanical conversion of every spinlock_t, one commit per
 *      top-level directory (per second-level one for the big ones)
 *   3. the locks kept spinning, one commit per class, with their evidence
 *   4. the workqueue priority queueing and inheritance patch for the
 *      tree's version (patches/<major>.<minor>/)
 *
 * Dates come from the base commit and the identity from the options, so
 * the same inputs give the same commits.  The series is also written as
 * git format-patch writes it, with rtlock's cover letter (series.c).
 */
#ifndef RTLOCK_BRANCH_H
#define RTLOCK_BRANCH_H

#include <jansson.h>

#include "fastimport.h"
#include "git.h"
#include "scan.h"

struct branch_opts {
	const char *kernel;	/* a git checkout, or an unpacked release */
	const char *base;	/* revision; NULL: HEAD (the release) */
	const char *name;	/* the branch to create */
	bool force;		/* replace an existing branch */
	const char *identity;	/* "Name <mail>", or NULL */
	const char *link;	/* Link: trailer (the report), or NULL */
	const char *patches;	/* <major>.<minor>/0001-*.patch below it */
	/* a top-level folder with more converted files than this gets a
	 * commit per second-level folder; 0: GROUP_MAX_FILES */
	unsigned split_over;
	const char *out_dir;
	const char *cache_dir;
	int jobs;
	double timeout;
	bool quiet;
};

struct branch {
	const struct branch_opts *o;
	struct git g;
	char *out, *cache;	/* absolute */
	char *git_dir, *log, *index, *work, *conv;
	char *release_dir;	/* an unpacked release's objects, in the cache */
	char *base, *old;	/* commits */
	char *tree_dir;		/* the base revision's files, to scan */
	char *patch;		/* the workqueue patch for this version */
	char version[64];	/* the base revision's Linux version */
	char *name, *mail;	/* identity */
	long long base_time;
	unsigned ncommits;
	char *head;		/* ":MARK" until the stream is written */
	json_t *commits;
	struct fastimport fi;	/* the commits, as one fast-import stream */
	/* for the summary */
	double t_prepare;	/* a repository for a release, the base's files */
	double t_convert, t_keep, t_git;
	int convert_failed, leftovers, converted_files;
	int keep_failed;	/* files a keep stage could not convert */
	bool reused;		/* the commits of an earlier build (record.h) */
	int patches_reused;	/* from CACHE/patches; -1: series not made */
};

/*
 * Check the inputs (repository, base, branch name, a workqueue port for
 * the version) and materialise the base revision; b->tree_dir is then the
 * tree to scan.  Returns an exit status.
 */
int branch_prepare(struct branch *b, const struct branch_opts *o);

/* Convert, commit, update the branch, write the series: an exit status. */
int branch_build(struct branch *b, struct scan *s, json_t *inv, json_t *rep);

void branch_release(struct branch *b);

#endif
