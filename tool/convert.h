/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The conversion stage: from the classification, the keep lists (the
 * positions of declarations and API calls of locks that must spin), then
 * spatch with cocci/lock_t.cocci and the textual rule for macro bodies,
 * in worker processes over batches of files, each file's result cached by
 * its content and the hash of the rules and of its keep entries.  It
 * writes into a copy of the tree (--out) or, on a clean git checkout, in
 * place; installs include/linux/lock.h for the tree's era; and checks what
 * is left: spinlock API text on converted locks, lock_t on kept ones.
 */
#ifndef RTLOCK_CONVERT_H
#define RTLOCK_CONVERT_H

#include <jansson.h>

#include "classify.h"
#include "scan.h"

struct convert_opts {
	const char *out_tree;	/* a new directory, or NULL with in_place */
	bool in_place;
	bool reuse_target;	/* out_tree is rtlock's own: rewrite files in it */
	/* out_tree holds only the files the conversion writes, copied from
	 * the source tree when first needed (the rest is the source's) */
	bool sparse_target;
	bool only_kept;		/* only the files holding kept locks */
	/* only these of the scan's files, or NULL: all (a superset of what
	 * would be chosen: the files of a wider keep list) */
	const struct strset *among;
	/* choose the files, convert nothing: *result is {"selected": [...]} */
	bool select_only;
	const char *meta_dir;	/* keep lists, logs, convert.json */
	const char *cache_dir;
	int jobs;
	double timeout;		/* per file (a run of N files: N times it) */
	int batch;		/* files per spatch run; 0: chosen by the count */
	bool quiet;
};

/* The lock implementation's files and the others it never changes. */
bool convert_leaves_alone(const char *rel);

/*
 * Returns an exit status; *result (schema in tool/SCHEMA.md) lists the
 * files whose text changed.
 */
int convert_run(const struct convert_opts *o, struct scan *s, json_t *inv,
		json_t *classification, json_t **result);

/* Names lock.h defines, read from the template (for collision checks). */
int lock_h_names(const char *template_path, char ***names, size_t *n);

#endif
