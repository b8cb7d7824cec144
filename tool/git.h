/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running git on a repository rtlock does not own: always with an explicit
 * --git-dir, a private index (GIT_INDEX_FILE) and a private work tree, so
 * that the user's HEAD, index and checkout are never read or written.
 * The system and global git configuration are ignored, so that the
 * objects written depend only on the inputs.
 */
#ifndef RTLOCK_GIT_H
#define RTLOCK_GIT_H

#include "util.h"

struct git {
	const char *git_dir;	/* --git-dir */
	const char *work_tree;	/* --work-tree, or NULL */
	const char *index;	/* GIT_INDEX_FILE, or NULL */
	const char *cwd;	/* run there (git apply: the work tree) */
	const char *log;	/* git's stderr is appended here */
	const char *env[8];	/* extra "NAME=value" (identity, dates) */
};

/*
 * Run git @args... (NULL-terminated) with stdin from @in (NULL: none) and
 * stdout captured in @out (NULL: to the log).  Returns git's exit status.
 */
int git_run(const struct git *g, struct sb *out, const char *in, ...)
	__attribute__((sentinel));

/* git's stdout, trailing newline dropped, or NULL when git failed. */
char *git_read(const struct git *g, ...) __attribute__((sentinel));

/* The last line git wrote to the log: what to tell the user. */
char *git_last_error(const struct git *g);

#endif
