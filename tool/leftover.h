/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RTLOCK_LEFTOVER_H
#define RTLOCK_LEFTOVER_H

#include <jansson.h>

#include "prog.h"

/* Leftovers listed in full; the count goes on. */
#define LEFTOVER_LIST_MAX 200

/*
 * Lines of @text (the converted file @rel) that still call the spinlock
 * API or name spinlock_t, outside comments and strings, members (a field
 * "spin_lock"), labels and declared names, and outside the definitions
 * of the names in @impl (lock.h builds on them), and are not in @keep
 * ("file:line"): their number; the first LEFTOVER_LIST_MAX go to @list
 * as {at, word}.
 */
unsigned leftover_lines(const char *rel, const char *text, const struct strset *keep,
			const struct strset *impl, json_t *list);

/*
 * The quoted names of the Python block "@block = ... {" in the rules' text
 * @t, up to its closing "}" line: its keys (@keys_only: "NAME": ...) or
 * every member; comments skipped.
 */
void cocci_block_names(const char *t, const char *block, bool keys_only,
		       struct strset *out);

/*
 * The names whose definitions implement the API, read from the
 * conversion's rules (@cocci_path: the keys of LOCK_T_MAP and the IMPL
 * set), so that both sides use one list.  0, or -1 with the error said.
 */
int leftover_impl_names(const char *cocci_path, struct strset *impl);

#endif
