/* SPDX-License-Identifier: GPL-2.0 */
/* Code a PREEMPT_RT kernel does not build (rtoff.c). */
#ifndef RTLOCK_RTOFF_H
#define RTLOCK_RTOFF_H

struct rtoff;

/*
 * Read the Kconfig files below @root and the configuration @dotconfig
 * (NULL: every option set, a bare tree); NULL after one error line.
 */
struct rtoff *rtoff_open(const char *root, const char *dotconfig);
/*
 * The option depending on !PREEMPT_RT that alone builds @rel (relative to
 * the root), or NULL: built with PREEMPT_RT too.  @r may be NULL.
 */
const char *rtoff_why(struct rtoff *r, const char *rel);
void rtoff_close(struct rtoff *r);

#endif
