/* SPDX-License-Identifier: GPL-2.0 */
/* End-to-end tests: run tool/rtlock on fixture trees, check its outputs. */
#ifndef RTLOCK_E2E_H
#define RTLOCK_E2E_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>

#define FIXTURE "tests/fixtures/linux-mini"
#define RTLOCK "tool/rtlock"

/* Run a shell command; returns its exit status, stderr kept in @err. */
int run(char **err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A fresh temporary directory (removed by the caller). */
char *tmpdir(void);
/* Copy a tree (cp -a). */
void copy_tree(const char *from, const char *to);
/* Hash of every file below @dir, to prove a tree was not modified. */
char *tree_digest(const char *dir);
json_t *load_json(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Lines of an EXPECTED file, without comments. */
char **expected_lines(const char *name, size_t *n);

int test_scan(void);
int test_bad_input(void);
int test_classify(void);
int test_convert(void);
int test_branch(void);

#endif
