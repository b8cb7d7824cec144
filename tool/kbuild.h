/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compile flags for libclang.  On a real kernel tree, kbuild is run once in
 * a scratch directory of the cache (make O=<cache>/kbuild-... <config>
 * prepare: the tree itself is never written) and the flags are taken from
 * the command kbuild used for kernel/bounds.c.  On a bare tree (the test
 * fixtures) the kernel's standard include layout is used.
 */
#ifndef RTLOCK_KBUILD_H
#define RTLOCK_KBUILD_H

#include "tree.h"

struct kbuild {
	char *objdir;		/* scratch kbuild output, or NULL */
	char **args;		/* clang arguments common to every TU */
	int nargs, alloc;
	char *config;		/* "allyesconfig+preempt" / "none" */
};

/*
 * Set up flags for @t.  @cache is the cache directory; kbuild output goes
 * below it.  @config: "auto", "none", or a make target such as
 * "x86_64_defconfig".  Returns -1 after printing one error line.
 */
int kbuild_setup(struct kbuild *kb, const struct tree *t, const char *cache,
		 const char *config, bool verbose);
/*
 * The flags of a kbuild .cmd file's text ("savedcmd_... := gcc ..."),
 * appended to kb->args; relative paths are taken from kb->objdir, and
 * absolute ones into @src, the tree kbuild was prepared from, are moved
 * to @root, the tree read.
 */
void kbuild_parse_cmd(struct kbuild *kb, char *cmd, const char *src,
		      const char *root);
/*
 * The clang arguments of @rel, in a->v[0 .. a->n): "-include-pch @pch"
 * unless @pch is NULL, the common ones, its directory and module names,
 * then @incs (the -I options its Makefiles add, "\n"-separated, or NULL)
 * after the tree's own, as kbuild puts ccflags-y.  a->v points into @kb
 * and @pch: release @a before them.
 */
struct tu_args {
	const char **v;
	int n;
	char *dir, *incs;	/* owned */
};
void kbuild_tu_args(struct tu_args *a, const struct kbuild *kb,
		    const struct tree *t, const char *rel, const char *incs,
		    const char *pch);
void tu_args_release(struct tu_args *a);
void kbuild_release(struct kbuild *kb);

#endif
