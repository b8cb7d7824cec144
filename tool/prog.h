/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The whole program as the facts describe it: every lock, every function
 * with its IR, the pointer assignments, the function pointers stored in
 * ops tables and the registrations.  prog_link() resolves symbolic lock
 * targets ("P:fn#n", "R:fn", "F:ptr") to lock identities through the call
 * sites, returns and assignments of the whole tree, and computes each
 * function's summary (locks it returns holding, or releases for its
 * caller), so that the flow pass sees through lock wrappers.
 */
#ifndef RTLOCK_PROG_H
#define RTLOCK_PROG_H

#include <jansson.h>
#include <stdbool.h>
#include <uthash.h>

#include "apitab.h"

/*
 * A set of strings in insertion order (v[0..n-1]).  Most sets here are
 * short and scanned linearly; one that grows past STRSET_LINEAR members
 * gets a hash index, so that a set of thousands costs no more per lookup.
 */
#define STRSET_LINEAR 16
struct strset {
	char **v;
	unsigned n, alloc;
	struct strset_ix *ix;	/* NULL while n <= STRSET_LINEAR */
};
bool strset_add(struct strset *s, const char *str); /* true if new */
bool strset_has(const struct strset *s, const char *str);
void strset_free(struct strset *s);

struct plock {
	char *id;
	enum lock_type type;
	char *kind;
	char *file;
	int line;
	bool array, def;
	unsigned ndecls;
	struct strset decls;	/* every "file:line" declaring it */
	unsigned nsites;
	UT_hash_handle hh;
};

struct pfunc {
	char *id, *name, *file;
	int line;
	bool is_static;
	json_t *attrs;		/* array of strings, may be NULL */
	/* in a low-level section (noinstr, __irq_entry, __cpuidle): entered
	 * with interrupts off */
	bool low_level;
	/* summary: returns with interrupts turned on, on every path; on
	 * some path (cond_local_irq_enable()) */
	bool irqs_on, irqs_may_on;
	char *macro;
	char *ret;		/* targets of returned lock pointers */
	json_t *outs;		/* {"n": targets stored through param n} */
	json_t *ir;
	/* summary: targets held at exit / released without being taken */
	struct strset acquires, releases;
	/* caller's locks it releases on some paths only (a refcounted unlock) */
	struct strset may_release;
	/* callers' argument targets per parameter, for P: resolution */
	struct strset *param_args;
	unsigned nparams;
	/* flow_summaries(): the direct callees, and when the summary last
	 * changed and was last computed (in summaries computed) */
	struct pfunc **callees;
	unsigned ncallees, alloc_callees;
	unsigned long changed_at, ran_at;
	UT_hash_handle hh;
};

/*
 * Pointer variables/fields that hold lock addresses (id: their identity),
 * and slots: every declaration of type spinlock_t * (id: "file:line:name",
 * where the name is written; to: the targets it holds).
 */
struct pptr {
	char *id;
	struct strset to;
	UT_hash_handle hh;
};

struct prog {
	struct plock *locks;
	struct pfunc *funcs;
	struct pptr *ptrs;
	struct pptr *slots;
	json_t *fnrefs;		/* array of fnref objects (with "file") */
	json_t *regs;		/* array of registration objects */
	json_t *statics;
	/* resolution memo: target -> resolved set */
	struct rmemo *memo;
	unsigned nfiles;
	/* the tree has atomic_dec_and_raw_lock() (set by the scan) */
	bool raw_dec_and_lock;
};

void prog_init(struct prog *p);
void prog_free(struct prog *p);
/* Merge the facts of one file (a TU or a header). */
void prog_add_facts(struct prog *p, json_t *facts);
struct pfunc *prog_func(struct prog *p, const char *id);
struct plock *prog_lock(struct prog *p, const char *id);
/* The lock @id, created with these attributes if it is new. */
struct plock *prog_add_lock(struct prog *p, const char *id,
			    enum lock_type type, const char *kind,
			    const char *file, int line);
/* Link: collect call arguments, compute summaries. */
void prog_link(struct prog *p);
/*
 * Lock identities a target may denote ("L:a|P:f#0" ...), added to @out.
 * Returns false when some alternative stays unresolved.
 */
bool prog_resolve(struct prog *p, const char *target, struct strset *out);
/*
 * The functions a call through "P:f#n" (a function pointer parameter) may
 * reach: those callers pass there, directly or through their own
 * parameters (memoised: valid until prog_free()); NULL for a parameter
 * more than PROG_MAX_FNS functions are passed to (a generic interface:
 * call_rcu()'s callback).
 */
#define PROG_MAX_FNS 256
const struct strset *prog_resolve_fns(struct prog *p, const char *target);

#endif
