/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel source tree: its version, the lock API era it belongs to, and
 * the files that can hold spinlock code (a fast text prefilter).  Nothing
 * here writes into the tree.
 */
#ifndef RTLOCK_TREE_H
#define RTLOCK_TREE_H

#include <stdbool.h>
#include <stddef.h>

struct tree {
	char *root;		/* absolute, canonical */
	char version[64];	/* "6.1.0", with EXTRAVERSION */
	int ver[3];
	bool has_raw;		/* raw_spinlock_t is a distinct spinning type */
	bool has_rt_subst;	/* PREEMPT_RT substitutes spinlock_t */
	bool has_raw_dec_and_lock; /* atomic_dec_and_raw_lock() */
	bool kbuild;		/* a real kbuild tree (not a bare fixture) */
	bool is_git;
	const char *arch;	/* architecture folder scanned: "x86" */
	const char *only;	/* comma-separated folders to keep, or NULL */

	char **tus;		/* candidate .c files, relative, sorted */
	size_t ntus;
	char **headers;		/* candidate headers, relative, sorted */
	size_t nheaders;
	size_t nwalked;		/* C files looked at */
	/*
	 * Files and folders that could not be read or named (unreadable, a
	 * path beyond PATH_MAX, a name that is not UTF-8): each was reported
	 * with one warning.  @path is relative, invalid bytes spelled \xNN.
	 */
	struct tree_skip {
		char *path, *why;
	} *skipped;
	size_t nskipped, askipped;
};

/*
 * Open @path as a kernel tree.  On error prints one line and returns -1:
 * not a directory, a path that is not UTF-8, no top Makefile, no
 * VERSION/PATCHLEVEL in it.
 */
int tree_open(struct tree *t, const char *path, const char *arch);
/* Version from the top Makefile's text @mk; -1 after one error line. */
int tree_parse_makefile(struct tree *t, const char *mk, const char *mkpath);
/*
 * Walk the tree and fill tus/headers with the files worth parsing; stops
 * early when SIGINT/SIGTERM arrived (pool_interrupted()).
 */
int tree_prefilter(struct tree *t);
/*
 * With --only, is header @rel one the slice uses: inside the slice, or in
 * include/ or arch/ARCH/include/?  Always true without --only.
 */
bool tree_header_in_slice(const struct tree *t, const char *rel);
/* Does @data look like it holds lock code or atomic-context entries? */
bool prefilter_match(const char *data, size_t len);
void tree_release(struct tree *t);

#endif
