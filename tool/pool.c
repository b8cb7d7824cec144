// SPDX-License-Identifier: GPL-2.0
#include "pool.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

static volatile sig_atomic_t stop_signal;
static bool aborted;

/*
 * The first SIGINT/SIGTERM asks the run to stop at the next check, with
 * its cleanup; a second one ends it at once, as the default action would
 * (a user whose ctrl-C did not seem to work, a supervisor that waited).
 */
static void on_signal(int sig)
{
	if (stop_signal) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	stop_signal = sig;
}

void pool_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

bool pool_interrupted(void)
{
	return stop_signal != 0;
}

void pool_abort(void)
{
	aborted = true;
}

void test_hold(const char *point, const char *arg)
{
	const char *want = getenv("RTLOCK_TEST_HOLD");
	size_t n = strlen(point);
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	bool hang = want && !strncmp(want, "hang:", 5);
	double t0;

	if (hang)
		want += 5;
	if (!want || strncmp(want, point, n) ||
	    (arg ? want[n] != ':' || strcmp(want + n + 1, arg) : want[n] != 0))
		return;
	fprintf(stderr, "rtlock: test: holding at %s (pid %ld)\n", want,
		(long)getpid());
	for (t0 = now_sec(); (hang || !stop_signal) && now_sec() - t0 < 60;)
		nanosleep(&ts, NULL);
}

struct running {
	pid_t pid;
	size_t job;
	double start;
};

static pid_t start_job(size_t i, job_fn fn, void *ctx)
{
	pid_t pid = fork();

	/*
	 * Each worker leads its own process group, so that a kill reaches
	 * what it started too (spatch under a batch); set on both sides of
	 * the fork so that no kill comes before it.
	 */
	if (pid > 0)
		setpgid(pid, pid);
	if (pid)
		return pid;
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* default dispositions: a crash must kill the worker, not be caught */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGABRT, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	fflush(NULL);
	_exit(fn(i, ctx));
}

static void finish(const struct pool_opts *o, struct running *r, int status,
		   bool timed_out, struct job_result *res)
{
	struct job_result *jr = &res[r->job];

	jr->seconds = now_sec() - r->start;
	if (timed_out) {
		jr->state = JOB_TIMEOUT;
	} else if (WIFSIGNALED(status)) {
		jr->state = JOB_CRASHED;
		jr->code = WTERMSIG(status);
	} else if (WEXITSTATUS(status)) {
		jr->state = JOB_FAILED;
		jr->code = WEXITSTATUS(status);
	} else {
		jr->state = JOB_OK;
	}
	if (o->done)
		o->done(r->job, jr, o->ctx);
	r->pid = 0;
}

int pool_run(const struct pool_opts *o, size_t njobs, job_fn fn, void *ctx,
	     struct job_result *res)
{
	int nw = o->jobs > 0 ? o->jobs : 1, i, nrun = 0;
	struct running *run = xcalloc(nw, sizeof(*run));
	bool *killed = xcalloc(nw, sizeof(bool));
	size_t next = 0;

	fflush(NULL);
	aborted = false;
	while ((next < njobs || nrun) && !stop_signal && !aborted) {
		bool reaped = false;
		pid_t pid;
		int st;

		for (i = 0; i < nw && next < njobs; i++) {
			if (run[i].pid)
				continue;
			run[i].job = next++;
			run[i].start = now_sec();
			run[i].pid = start_job(run[i].job, fn, ctx);
			killed[i] = false;
			if (run[i].pid < 0) {
				run[i].pid = 0;
				res[run[i].job].state = JOB_FAILED;
				res[run[i].job].code = 126;
				continue;
			}
			nrun++;
		}
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
			for (i = 0; i < nw; i++)
				if (run[i].pid == pid)
					break;
			if (i == nw)
				continue; /* not ours */
			finish(o, &run[i], st, killed[i], res);
			nrun--;
			reaped = true;
		}
		for (i = 0; o->timeout > 0 && i < nw; i++)
			if (run[i].pid && !killed[i] &&
			    now_sec() - run[i].start > o->timeout) {
				kill(-run[i].pid, SIGKILL);
				killed[i] = true;
			}
		if (!reaped) {
			struct timespec ts = { 0, 3 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	}
	if (stop_signal || aborted) {
		for (i = 0; i < nw; i++)
			if (run[i].pid)
				kill(-run[i].pid, SIGKILL);
		for (i = 0; i < nw; i++)
			if (run[i].pid)
				waitpid(run[i].pid, NULL, 0);
	}
	free(run);
	free(killed);
	return stop_signal || aborted ? -1 : 0;
}

const char *job_state_name(const struct job_result *r, char *buf, size_t n)
{
	switch (r->state) {
	case JOB_OK:
		return "ok";
	case JOB_FAILED:
		snprintf(buf, n, "failed (exit %d)", r->code);
		return buf;
	case JOB_CRASHED:
		snprintf(buf, n, "crashed (%s)", strsignal(r->code));
		return buf;
	case JOB_TIMEOUT:
		snprintf(buf, n, "timeout after %.*f s",
			 r->seconds < 10 ? 1 : 0, r->seconds);
		return buf;
	default:
		return "not run";
	}
}
