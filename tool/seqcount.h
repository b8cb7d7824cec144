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
	/* fields of one object: &p->seq and &p->lock, or &p->ALIAS */
	bool same_object;
	/* the field an alias goes through (&d->d_lock: d_lockref) */
	char *via;
};

/* seqcount_spinlock_t NAME: a field, a variable or a parameter */
struct seq_decl {
	char *rel;
	unsigned line;
	char *name;
	/*
	 * A field's record, named as lock identities name it ("struct ioc
	 * (in block/blk-iocost.c)"); NULL for anything else, and for a
	 * typedef'd anonymous record.
	 */
	char *record;
};

/*
 * #define NAME a.b.LAST (or a->LAST): a lock field spelt through a macro,
 * as struct dentry's d_lock is its d_lockref.lock.
 */
struct seq_alias {
	char *name, *last;
	char *first;	/* the first field, when there are two: a.LAST */
};

/* A field of a record type in a record that holds a seqcount. */
struct seq_field {
	char *record, *name;
	char *type;	/* "struct NAME" */
};

struct seqcounts {
	struct seq_alias *aliases;
	size_t naliases, alloc_aliases;
	struct seq_use *uses;
	size_t nuses, alloc_uses;
	struct seq_decl *decls;
	size_t ndecls, alloc_decls;
	struct seq_field *fields;
	size_t nfields, alloc_fields;
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
/* The type of @record's field @name when it is a record ("struct T"). */
const char *seqcounts_field_type(const struct seqcounts *sc,
				 const char *record, const char *name);
void seqcounts_free(struct seqcounts *sc);

#endif
