/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The whitelist: locks a reviewer decided, keyed by the scan's stable
 * identity (never a line number), each with a mandatory reason.  Files
 * whitelist/NAME.txt, one entry a line, '#' starts a comment:
 *
 *   must-spin CLASS IDENTITY : REASON
 *   convert IDENTITY : REASON
 *
 * CLASS is one of hardirq, irqchip, sched, arch, irqs-off, nested (a
 * context the classifier cannot prove) or latency, hardware.  A convert
 * entry overrides a classifier verdict that a reviewer found false.
 */
#ifndef RTLOCK_WHITELIST_H
#define RTLOCK_WHITELIST_H

#include <stdbool.h>

struct wl_entry {
	char *id;
	bool must_spin;
	char *cls;		/* must-spin only */
	char *reason;
	char *where;		/* file:line */
};

struct whitelist {
	struct wl_entry *v;
	unsigned n, alloc;
};

/* Parse one file; -1 after printing "file:line: problem". */
int whitelist_parse(struct whitelist *w, const char *path, const char *text);
/* Load every *.txt of @dir (or the file @dir), sorted. */
int whitelist_load(struct whitelist *w, const char *dir);
void whitelist_free(struct whitelist *w);

#endif
