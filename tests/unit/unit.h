/* SPDX-License-Identifier: GPL-2.0 */
/* The unit test groups; each test_*.c file defines one. */
#ifndef RTLOCK_UNIT_H
#define RTLOCK_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

int test_apitab(void);
int test_util(void);
int test_pool(void);
int test_flow(void);
int test_tree(void);
int test_extract(void);
int test_readers(void);

#endif
