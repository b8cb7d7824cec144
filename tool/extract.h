/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock facts of one translation unit, read with libclang.
 *
 * extract_tu() parses one file and returns its facts as JSON (the schema is
 * documented in tool/SCHEMA.md, "facts"): the locks it declares, the
 * functions it defines with their lock/interrupt/call events in program
 * order (a small structured IR), the function pointers it stores into ops
 * tables and the callbacks it registers.  Facts of the headers it includes
 * are written once per header content into @hdr_dir ("claimed" by the first
 * TU that sees a header), so that common headers are not recorded thousands
 * of times.
 */
#ifndef RTLOCK_EXTRACT_H
#define RTLOCK_EXTRACT_H

#include <jansson.h>

/*
 * The #defines of the headers a PCH holds (@files, the PCH's -MF
 * dependency list; headers are read, other files skipped): libclang does
 * not list those headers among a TU's files, so a macro they define is
 * looked up here (DECLARE_WAIT_QUEUE_HEAD() ->
 * __WAIT_QUEUE_HEAD_INITIALIZER()).
 */
struct macro_index;
struct macro_index *macro_index_read(const char *root,
				     const char *const *files, unsigned n);
void macro_index_free(struct macro_index *mi);

struct extract_opts {
	const char *root;	/* absolute path of the tree, no trailing / */
	const char *const *args; /* clang arguments (flags) */
	int nargs;
	const char *hdr_dir;	/* header facts go here; NULL: not recorded */
	const char *salt;	/* mixed into header keys (tool, flags) */
	int keep_pch_decls;	/* record declarations from a PCH (prelude) */
	int *store_errno;	/* set when header facts could not be written */
	const struct macro_index *pch_macros; /* with -include-pch, or NULL */
};

/*
 * Parse @path (absolute or relative to the root) and return its facts, or
 * NULL with a message in @err when libclang could not parse it at all.
 */
json_t *extract_tu(const struct extract_opts *o, const char *path,
		   char *err, size_t errsize);

/* Key of a header's facts: a hash of @salt, its path and content hash. */
void header_key(const char *salt, const char *rel, const char *content_hash,
		char out[33]);
/* Where the facts of a header with key @key are stored below @hdr_dir. */
char *header_facts_path(const char *hdr_dir, const char *key);

#endif
