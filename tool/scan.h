/* SPDX-License-Identifier: GPL-2.0 */
/* The scan stage: tree -> facts of every TU (cached) -> linked program. */
#ifndef RTLOCK_SCAN_H
#define RTLOCK_SCAN_H

#include <stdbool.h>

#include "cache.h"
#include "kbuild.h"
#include "prelude.h"
#include "prog.h"
#include "tree.h"

struct scan_opts {
	const char *kernel;
	const char *cache_dir;
	const char *config;	/* kbuild config: auto, none, a make target */
	const char *arch;
	const char *only;	/* comma-separated folders, or NULL: all */
	int jobs;
	double timeout;
	bool quiet;
	bool no_prelude;	/* parse every TU from scratch */
};

struct scan_tu {
	char *file;
	char *incs;		/* -I options of its Makefiles, "\n"-separated */
	char salt[33];		/* the scan's, with @incs when there are some */
	char key[33];
	const char *state;	/* ok, errors, failed, crashed, timeout */
	char *why;		/* first error or failure */
	unsigned errors;
	bool cached;
	bool loaded;
};

struct scan {
	struct tree tree;
	struct kbuild kb;
	struct cache cache;
	struct prelude prelude;	/* pch NULL when not used */
	char prelude_key[33];	/* facts of the prelude's own parse */
	char salt[33];
	struct scan_tu *tus;
	size_t ntus;
	struct prog prog;
	struct strset hdr_seen;	/* keys of the header facts loaded */
	unsigned parsed, cached, with_errors, reparsed, failed, hdr_facts;
	json_t *not_built;	/* [{file, option}]: the config leaves them out */
	double t_prefilter, t_parse, t_link;
};

/*
 * Run the scan; returns an exit status (util.h) and prints errors.  It
 * catches SIGINT/SIGTERM: a stage after it checks scan_interrupted().
 */
int scan_run(const struct scan_opts *o, struct scan *s);
/* EXIT_INTR after one error line when a signal came, else 0. */
int scan_interrupted(void);
/*
 * Are the facts of a parse under the prelude bad enough to parse again
 * without it?  When it failed, or has errors unless the first is a missing
 * header (the include paths are the same without the prelude).
 */
bool scan_retry_without_prelude(json_t *facts);
/* Items a reviewer should look at: files not parsed, or skipped. */
static inline bool scan_review(const struct scan *s)
{
	return s->failed || s->tree.nskipped;
}
void scan_release(struct scan *s);
/* Inventory: the scan's JSON (schema "rtlock-scan-1", tool/SCHEMA.md). */
json_t *scan_inventory(struct scan *s);
void scan_print_summary(struct scan *s, json_t *inv, FILE *out);

#endif
