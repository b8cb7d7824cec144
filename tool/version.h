/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RTLOCK_VERSION_H
#define RTLOCK_VERSION_H
#define RTLOCK_VERSION "rtlock 0.1"
#endif
