/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A series of commits written as one git fast-import stream, then run
 * through one git fast-import process: no index to read and write back
 * per commit.  A staged file is compared with its last committed content
 * (at first, the base tree's), so only changed files become blobs and a
 * commit that changes nothing is not written.  The objects are those that
 * git commit-tree would write for the same trees, messages and dates.
 *
 *	fi_open(); { fi_stage()...; fi_commit(); }...; fi_run();
 *	fi_sha(mark)...; fi_release();
 */
#ifndef RTLOCK_FASTIMPORT_H
#define RTLOCK_FASTIMPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "git.h"
#include "util.h"

struct fi_file;

struct fastimport {
	FILE *stream;
	char *path, *marks_path;
	char *work_tree;	/* staged files are read here */
	char *base_tree;	/* the parent of the first commit, checked out */
	struct fi_file *files;	/* path -> last committed content */
	struct sb changes;	/* "M ..."/"D ..." lines of the next commit */
	unsigned next_mark;
	char **shas;		/* by mark, after fi_run() */
};

/* The stream goes to @path (its marks next to it). 0, or -1 and errno. */
int fi_open(struct fastimport *fi, const char *path, const char *work_tree,
	    const char *base_tree);

/* Stage @rel (relative to the work tree; deleted when missing there). */
int fi_stage(struct fastimport *fi, const char *rel);

/* Does the next commit change anything? */
bool fi_changed(const struct fastimport *fi);

/*
 * A commit of the staged changes on ref @ref, parent @parent (a SHA, or
 * ":N" for an earlier mark), "Name <mail>" identities, dated @t +0000.
 * Returns its mark, 0 on a write error.
 */
unsigned fi_commit(struct fastimport *fi, const char *ref, const char *parent,
		   const char *author, const char *committer, long long t,
		   const char *msg);

/*
 * Run git fast-import on the stream: 0, git's exit status, or -1 and
 * errno when the stream could not be written whole.
 */
int fi_run(struct fastimport *fi, const struct git *g);

/* The object name of @mark, after fi_run(); NULL if unknown. */
const char *fi_sha(const struct fastimport *fi, unsigned mark);

/* Frees everything and removes the stream and marks files. */
void fi_release(struct fastimport *fi);

#endif
