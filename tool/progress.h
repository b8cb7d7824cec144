/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One progress line on stderr ("parse 1234/6065  48.2/s  ETA 1m45s"),
 * redrawn at most a few times a second, only when stderr is a terminal.
 */
#ifndef RTLOCK_PROGRESS_H
#define RTLOCK_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

struct progress;

struct progress *progress_start(const char *stage, size_t total, bool quiet);
void progress_tick(struct progress *p, size_t n);
void progress_end(struct progress *p);

#endif
