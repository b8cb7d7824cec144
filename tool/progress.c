// SPDX-License-Identifier: GPL-2.0
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util.h"

struct progress {
	const char *stage;
	size_t total, done;
	double start, last;
	bool on;
};

struct progress *progress_start(const char *stage, size_t total, bool quiet)
{
	struct progress *p = xcalloc(1, sizeof(*p));

	p->stage = stage;
	p->total = total;
	p->start = now_sec();
	p->on = !quiet && total && isatty(2);
	return p;
}

static void draw(struct progress *p)
{
	double el = now_sec() - p->start, rate = el > 0 ? p->done / el : 0;
	double eta = rate > 0 ? (p->total - p->done) / rate : 0;

	fprintf(stderr, "\r%s %zu/%zu  %.1f/s  ETA %dm%02ds   ", p->stage,
		p->done, p->total, rate, (int)eta / 60, (int)eta % 60);
	fflush(stderr);
}

void progress_tick(struct progress *p, size_t n)
{
	double t;

	p->done += n;
	if (!p->on)
		return;
	t = now_sec();
	if (t - p->last < 0.2 && p->done < p->total)
		return;
	p->last = t;
	draw(p);
}

void progress_end(struct progress *p)
{
	if (p->on) {
		draw(p);
		fputc('\n', stderr);
	}
	free(p);
}
