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
	bool kbuild;		/* a real kbuild tree (not a bare fixture) */
	bool is_git;
	const char *arch;	/* architecture folder scanned: "x86" */
	const char *only;	/* comma-separated folders to keep, or NULL */

	char **tus;		/* candidate .c files, relative, sorted */
	size_t ntus;
	char **headers;		/* candidate headers, relative, sorted */
	size_t nheaders;
	size_t nwalked;		/* C files looked at */
	size_t nunreadable;
};

/*
 * Open @path as a kernel tree.  On error prints one line and returns -1:
 * not a directory, no top Makefile, no VERSION/PATCHLEVEL in it.
 */
int tree_open(struct tree *t, const char *path, const char *arch);
/* Walk the tree and fill tus/headers with the files worth parsing. */
int tree_prefilter(struct tree *t);
/* Does @data look like it holds lock code or atomic-context entries? */
bool prefilter_match(const char *data, size_t len);
void tree_release(struct tree *t);

#endif
