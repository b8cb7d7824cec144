/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RTLOCK_SEQCOUNT_H
#define RTLOCK_SEQCOUNT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Seqcounts associated with a spinlock: with lockdep and on PREEMPT_RT a
 * seqcount_spinlock_t holds a spinlock_t *, so one given a lock that is
 * kept spinning (a raw_spinlock_t) must become a seqcount_raw_spinlock_t.
 * The association is only in the text: without lockdep the lock argument
 * of seqcount_spinlock_init() expands to nothing the scan could see.
 */

/* seqcount_spinlock_init(SEQ, LOCK) or SEQCNT_SPINLOCK_ZERO(SEQ, LOCK) */
struct seq_use {
	char *rel;
	unsigned line, col;	/* of the macro's name, 1-based */
	char *seq, *lock;	/* the last names of the arguments */
	bool seq_member, lock_member;	/* written after '.' or "->" */
};

/* seqcount_spinlock_t NAME: a field, a variable or a parameter */
struct seq_decl {
	char *rel;
	unsigned line;
	char *name;
};

/*
 * #define NAME a.b.LAST (or a->LAST): a lock field spelt through a macro,
 * as struct dentry's d_lock is its d_lockref.lock.
 */
struct seq_alias {
	char *name, *last;
};

struct seqcounts {
	struct seq_alias *aliases;
	size_t naliases, alloc_aliases;
	struct seq_use *uses;
	size_t nuses, alloc_uses;
	struct seq_decl *decls;
	size_t ndecls, alloc_decls;
};

/*
 * Add the uses and declarations in @text (the file @rel) to @sc: how many.
 * The aliases of lock fields it defines are added too, not counted.
 */
size_t seqcounts_scan(struct seqcounts *sc, const char *rel, const char *text);
/*
 * Once every file is scanned: a use whose lock is an alias (the same one
 * wherever it is defined) is given the field the alias names.
 */
void seqcounts_resolve_aliases(struct seqcounts *sc);
void seqcounts_free(struct seqcounts *sc);

#endif
