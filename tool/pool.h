/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Run jobs in worker processes, @jobs at a time: one fork per job, so that
 * a crash or a hang in one job (libclang on a bad TU, spatch on a file) is
 * isolated, reported, and the run goes on.  A job that runs longer than
 * the timeout is killed, with the processes it started.  SIGINT/SIGTERM
 * stop the pool: running jobs are killed and pool_run() returns -1 with
 * pool_interrupted() set.
 */
#ifndef RTLOCK_POOL_H
#define RTLOCK_POOL_H

#include <stdbool.h>
#include <stddef.h>

enum job_state { JOB_PENDING, JOB_OK, JOB_FAILED, JOB_CRASHED, JOB_TIMEOUT };

struct job_result {
	enum job_state state;
	int code;		/* exit code (FAILED) or signal (CRASHED) */
	double seconds;
};

struct pool_opts {
	int jobs;		/* parallel workers, >= 1 */
	double timeout;		/* seconds per job, 0: none */
	/* called in the parent after each job, may be NULL */
	void (*done)(size_t job, const struct job_result *r, void *ctx);
	void *ctx;
};

/* In the child: do job @i and return its exit code (0: success). */
typedef int (*job_fn)(size_t i, void *ctx);

int pool_run(const struct pool_opts *o, size_t njobs, job_fn fn, void *ctx,
	     struct job_result *results);
/* From a done callback: stop the run, kill the jobs; pool_run() returns -1. */
void pool_abort(void);
bool pool_interrupted(void);
/* Install the SIGINT/SIGTERM handlers (idempotent). */
void pool_catch_signals(void);
const char *job_state_name(const struct job_result *r, char *buf, size_t n);

/*
 * Fault tests reach a stage for sure: with RTLOCK_TEST_HOLD=POINT (or
 * POINT:ARG), say "rtlock: test: holding at ... (pid N)" on stderr and wait
 * there for a signal (60 s at most).  Points: "parse:FILE" (the worker
 * parsing FILE), "classify" (after the scan).  "hang:POINT" waits there
 * whatever the signals, as a stage that does not check for them would.
 */
void test_hold(const char *point, const char *arg);

#endif
