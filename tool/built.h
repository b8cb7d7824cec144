/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which C files the configuration builds, read from the tree's Makefiles
 * and the .config kbuild wrote: a file listed in its folder's Makefile only
 * as obj-$(CONFIG_X) += file.o (or foo-$(CONFIG_X) += file.o) with X unset,
 * or below a folder listed only that way, is not built.  What a Makefile
 * does not say plainly (no mention, ifeq blocks, variables) counts as
 * built: the filter only removes files the configuration certainly leaves
 * out, such as another architecture's drivers.
 */
#ifndef RTLOCK_BUILT_H
#define RTLOCK_BUILT_H

#include <stdbool.h>

#include "util.h"

struct built;

/*
 * NULL after one error line when @dotconfig cannot be read; a NULL
 * @dotconfig sets every option.
 */
struct built *built_open(const char *root, const char *dotconfig);
/* Take option @opt as unset (before the first question). */
void built_unset(struct built *b, const char *opt);
/*
 * Does the configuration build @rel (relative to the root)?  For a header,
 * whether its folder is built.
 */
bool built_has(struct built *b, const char *rel);
/* The option that leaves @rel out; NULL when the configuration builds it. */
const char *built_why(struct built *b, const char *rel);
/*
 * Append to @out the -I, -D and -U options the Makefiles give the C file
 * @rel, one "-I/abs/dir\n" or "-DNAME\n" each (a -D with a quote is left
 * out): the ccflags-y (and ccflags-$(CONFIG_X) of a set
 * option, EXTRA_CFLAGS) of the folder whose Makefile builds it (the
 * i915 Makefile builds gt/intel_ring.o), and the subdir-ccflags-y of that
 * folder and every folder above it.  $(srctree), $(src), $(obj) and the
 * Makefile's own variables are expanded; an option using anything else
 * is left out.
 */
void built_include_opts(struct built *b, const char *rel, struct sb *out);
void built_close(struct built *b);

#endif
