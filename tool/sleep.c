// SPDX-License-Identifier: GPL-2.0
#include "sleep.h"

#include <string.h>

#include "apitab.h"

static const char *const sleepers[] = {
	"__might_sleep", "__might_resched", "mutex_lock", "mutex_lock_nested",
	"mutex_lock_interruptible", "mutex_lock_killable", "down",
	"down_interruptible", "down_killable", "down_read", "down_write",
	"msleep", "msleep_interruptible", "ssleep", "usleep_range_state",
	"schedule", "schedule_timeout", "__cond_resched", "wait_for_completion",
	"wait_for_completion_timeout", "wait_for_completion_interruptible",
	"synchronize_rcu", "synchronize_srcu", "flush_work", "kthread_stop",
	"rt_mutex_lock",
};

bool is_sleeping_call(const char *callee, bool defined)
{
	const char *name = strrchr(callee, ':');
	unsigned i;

	if (name && !defined)
		callee = name + 1;
	if (is_rwlock_acquire(callee))
		return true;
	for (i = 0; i < sizeof(sleepers) / sizeof(sleepers[0]); i++)
		if (!strcmp(callee, sleepers[i]))
			return true;
	return false;
}
