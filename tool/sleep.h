/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What sleeps on PREEMPT_RT, by name, for the classifier (outside the
 * extractor's sources: changing it leaves the facts as they are).
 */
#ifndef RTLOCK_SLEEP_H
#define RTLOCK_SLEEP_H

#include <stdbool.h>

/*
 * A call a correct tree never makes where a task cannot sleep on
 * PREEMPT_RT: a primitive that sleeps (mutex_lock(), msleep(),
 * might_sleep()'s __might_sleep() ...) or an rwlock_t acquisition.
 * @callee is a call's function id, by name even where the tree defines it
 * (schedule()); a static function's "file:name" counts by its name when
 * the tree does not define it (@defined false) or defines it in include/
 * (mmap_read_lock()).
 */
bool is_sleeping_call(const char *callee, bool defined);

#endif
