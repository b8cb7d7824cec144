/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The classification as data (classify.json, schema rtlock-classify-1),
 * as text for terminals and CI logs, and as a self-contained HTML page for
 * review; and the audit against a tree's own raw_spinlock_t choices.
 */
#ifndef RTLOCK_REPORT_H
#define RTLOCK_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "classify.h"
#include "scan.h"

/* The classification of every lock, with the scan's summary. */
json_t *report_json(struct scan *s, struct classify *c, json_t *inv);
/*
 * An older classify.json for --since, from a file or a buffer: NULL after
 * one error line ("path:line: ...") when it is not one.
 */
json_t *report_load_since(const char *path);
json_t *report_parse_since(const char *buf, size_t len, const char *path);
/* What changed since an older classify.json: new, removed, flipped. */
json_t *report_diff(json_t *old, json_t *cur);
void report_text(json_t *rep, FILE *out);
/* The HTML page (inline CSS and JS, no network). */
char *report_html(json_t *rep);

/* Precision and recall of must-spin against the tree's raw locks. */
json_t *audit_json(json_t *rep);
void audit_text(json_t *audit, FILE *out);

#endif
