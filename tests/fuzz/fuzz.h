/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libFuzzer targets for the parsers rtlock owns (make fuzz).  Each target
 * feeds one input to one reader, then to what consumes its result, as the
 * tool would.  Run with -close_fd_mask=2: the readers report bad input on
 * stderr, which is expected and only slows the run.
 */
#ifndef RTLOCK_FUZZ_H
#define RTLOCK_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a C string (the readers take text up to a NUL). */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* A result the tool would write must exist: else it is a bug. */
#define FUZZ_ASSERT(x)                                                        \
	do {                                                                  \
		if (!(x))                                                     \
			__builtin_trap();                                     \
	} while (0)

#endif
