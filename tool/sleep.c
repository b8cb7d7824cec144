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
	"rt_mutex_lock", "rt_mutex_lock_nested", "rt_mutex_lock_interruptible",
	"rt_mutex_lock_killable", "mutex_lock_interruptible_nested",
	"mutex_lock_killable_nested", "mutex_lock_io_nested",
	"_mutex_lock_nest_lock", "down_read_nested", "down_write_nested",
	"_down_write_nest_lock", "down_read_killable", "down_write_killable",
	"down_timeout", "wait_for_completion_killable", "wait_for_completion_io",
	"percpu_down_write",
	/* the kernel headers' inline wrappers of a sleeping lock */
	"mmap_read_lock", "mmap_write_lock", "mmap_write_lock_nested",
	"mmap_read_lock_killable", "mmap_write_lock_killable", "i_mmap_lock_write",
	"i_mmap_lock_read", "inode_lock", "inode_lock_shared", "inode_lock_nested",
};

bool is_sleeping_call(const char *callee, bool defined)
{
	const char *name = strrchr(callee, ':');
	unsigned i;

	/* a tree's own function counts by name only in the API's headers */
	if (name && (!defined || !strncmp(callee, "include/", 8)))
		callee = name + 1;
	if (is_rwlock_acquire(callee))
		return true;
	for (i = 0; i < sizeof(sleepers) / sizeof(sleepers[0]); i++)
		if (!strcmp(callee, sleepers[i]))
			return true;
	return false;
}
