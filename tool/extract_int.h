/* SPDX-License-Identifier: GPL-2.0 */
/* Internal interface between the parts of the libclang extractor. */
#ifndef RTLOCK_EXTRACT_INT_H
#define RTLOCK_EXTRACT_INT_H

#include <clang-c/Index.h>
#include <jansson.h>
#include <stdbool.h>
#include <uthash.h>

#include "apitab.h"
#include "extract.h"
#include "util.h"

/* One file of the TU as the extractor sees it. */
struct xfile {
	CXFile file;
	/*
	 * Contents: read from the file (own_data), as libclang read it
	 * unless it changed in between; libclang's copy only when it cannot
	 * be read.  Not clang_getFileContents() first: for a header inside
	 * the prelude PCH, that took 1-2 ms a file, 35 % of a typical TU's
	 * scan.
	 */
	const char *data;
	char *own_data;
	size_t len;
	char *rel;		/* relative to the root, or absolute */
	bool in_tree;
	bool is_main;
	bool impl;		/* implements the lock API: not a user */
	bool record;		/* facts of this file are recorded */
	bool inlined;		/* no include guard: facts in the TU's */
	json_t *facts;		/* {"file", "locks", "funcs", ...} */
	char key[33];		/* header facts key */
	UT_hash_handle hh;
};

/* A macro definition found by name, for API calls inside user macros. */
struct xdef {
	char *name;
	struct xfile *file;
	size_t offset;		/* of the macro body */
	size_t end;
	UT_hash_handle hh;
};

struct xtu {
	const struct extract_opts *o;
	CXTranslationUnit tu;
	struct xfile *files;
	struct xfile *main;
	struct xdef *defs;
	bool defs_loaded;
	size_t rootlen;
};

/* A local variable holding a lock pointer, and what it may point to. */
struct xlocal {
	CXCursor decl;
	struct sb targets;
	/* fields and variables it is stored into: its slot's type only */
	struct sb stored;
};

/* The function (or global initialiser) being walked. */
struct xfn {
	struct xtu *t;
	struct xfile *fi;
	CXCursor cur;		/* FunctionDecl, or a VarDecl for initialisers */
	const char *id;		/* NULL for initialisers */
	json_t *ir;		/* current block, NULL: no IR */
	struct xlocal *locals;
	unsigned nlocals, alloc_locals;
	unsigned nevents;	/* lock and context events */
	unsigned *done_sites;	/* consumed macro expansion offsets */
	CXFile *done_files;
	unsigned ndone, alloc_done;
	struct sb ret;		/* targets of returned lock pointers */
	/* what is stored through its spinlock_t ** parameters */
	struct xout {
		int param;
		struct sb targets;
	} *outs;
	unsigned nouts, alloc_outs;
	/* lock guards in scope, innermost last (body.c) */
	struct xguard {
		char *target, *at;
		const char *unlock;
	} *guards;
	unsigned nguards, alloc_guards;
	char init_macro[64];	/* the macro an initialiser comes from */
};

/* extract.c */
struct xfile *xfile_of(struct xtu *t, CXFile f);
/* File, line, column and offset of @loc in a file (macro args: spelling). */
struct xfile *file_loc(struct xtu *t, CXSourceLocation loc, unsigned *line,
		       unsigned *col, unsigned *off);
/* The identifier that starts at @off in @fi, copied into @buf. */
const char *ident_at(struct xfile *fi, unsigned off, char *buf, size_t size);
bool is_macro_loc(struct xtu *t, CXSourceLocation loc);
const struct xdef *find_macro(struct xtu *t, const char *name);
/* A copy of @s, which is disposed of. */
char *cxstr(CXString s);
/* Line and column (1-based) of offset @off of @fi. */
void offset_linecol(const struct xfile *fi, size_t off, unsigned *line,
		    unsigned *col);
/* Line and column where @word is first written in @d's body. */
bool macro_word_pos(const struct xdef *d, const char *word, unsigned *line,
		    unsigned *col);
json_t *facts_array(struct xfile *fi, const char *key);

/* Children of a cursor, in order. */
struct kids {
	CXCursor *v;
	unsigned n, alloc;
};
void kids_get(CXCursor c, struct kids *k);
void kids_free(struct kids *k);
CXCursor strip_expr(CXCursor c);
CXCursor init_list_of(CXCursor e);

/* Record a variable: a lock, an ops table, a lock pointer. */
void record_var(struct xtu *t, struct xfile *fi, CXCursor c);

/* resolve.c */
enum lock_type lock_type_of(CXType t, bool *array);
bool is_lock_ptr_type(CXType t);
bool is_lock_ptr_ptr_type(CXType t);
bool is_fn_ptr_type(CXType t);
char *var_identity(struct xtu *t, CXCursor var);
char *field_identity(struct xtu *t, CXCursor field);
char *func_identity(struct xtu *t, CXCursor fn);
/* Append target alternative @t to @out ("a|b"). */
void add_target(struct sb *out, const char *t);
/* Lock target of an expression: "L:id", "P:fn#n", "R:fn", "F:id", "U:why". */
void lock_target(struct xfn *f, CXCursor e, struct sb *out);
/* Identity of any lvalue (timers, ops objects), or NULL. */
char *lvalue_identity(struct xfn *f, CXCursor e);
/* The function an expression names ("fa", "&fa"), or a null cursor. */
CXCursor fn_ref(CXCursor e);
/* @e without casts and parentheses, and through one '&' or '*'. */
CXCursor strip_unary(CXCursor e);
/* 0 or NULL: ignored where a lock pointer is stored or returned. */
bool is_null_const(CXCursor e);
/* Local pointer-to-lock variables of a function body. */
void collect_locals(struct xfn *f, CXCursor body);

/* slots.c: declarations holding a lock's address */
void record_func_slots(struct xtu *t, struct xfile *fi, CXCursor fn);
void record_local_slots(struct xfn *f);
/* A pointer field or variable of type spinlock_t * (others are ignored). */
void record_ptr_slot(struct xtu *t, struct xfile *fi, CXCursor decl);
/*
 * The lock pointer parameters of the function pointer type of @decl (a
 * field, variable or parameter called through), given what a call passes
 * (@args, call_args()'s array): a typedef's parameters are slots too.
 */
void record_fnptr_slots(struct xfn *f, CXCursor decl, json_t *args);

/* body.c */
void walk(struct xfn *f, CXCursor c);
void walk_init(struct xfn *f, CXCursor list, const char *obj);

#endif
