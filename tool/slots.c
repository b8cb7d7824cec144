// SPDX-License-Identifier: GPL-2.0
/*
 * Slots: the declarations that hold a lock's address (a parameter, a
 * function's return type, a local, a field or a variable of type
 * spinlock_t *, and a spinlock_t ** parameter a callee stores one through).  A lock kept spinning makes every slot it flows into
 * keep the spinning type, and every other lock in such a slot with it, or
 * the converted tree does not compile; the classifier and the conversion
 * read the "slots" facts for that:
 *
 *   {name, at: "file:line", flows?}
 *
 * "at" is where the declared name is written (in a macro's body for a
 * declaration a macro makes, unless its type is inferred: then where the
 * macro is used), "flows" the target of what it holds.
 */
#include <string.h>

#include "extract_int.h"

/* A type written typeof(...) or __auto_type: its initialiser's. */
static bool is_inferred_type(CXType ty)
{
	CXString s;
	bool inferred = ty.kind == CXType_Auto;

	if (!inferred && ty.kind == CXType_Unexposed) {
		s = clang_getTypeSpelling(ty);
		inferred = has_prefix(clang_getCString(s), "typeof") ||
			   has_prefix(clang_getCString(s), "__typeof");
		clang_disposeString(s);
	}
	return inferred;
}

static void record_slot(struct xtu *t, struct xfile *fi, CXCursor decl,
			const char *flows)
{
	CXString s = clang_getCursorSpelling(decl);
	const char *name = clang_getCString(s);
	CXSourceLocation loc = clang_getCursorLocation(decl);
	struct xfile *at;
	const struct xdef *d;
	unsigned line, off, col;
	char macro[64];
	json_t *o;

	at = file_loc(t, loc, &line, NULL, &off);
	if (!at || !*name)
		goto out;
	/*
	 * a declaration a macro makes is one for all its expansions, unless
	 * its type is inferred (swap()'s typeof(a) __tmp): then each
	 * expansion's is its own, where the macro is used
	 */
	if (is_macro_loc(t, loc) && !is_inferred_type(clang_getCursorType(decl))) {
		/* declared in the body of the macro expanded here */
		ident_at(at, off, macro, sizeof(macro));
		if (!(d = find_macro(t, macro)) ||
		    !macro_word_pos(d, name, &line, &col))
			goto out;
		at = d->file;
	}
	o = json_pack("{ssso}", "name", name, "at",
		      json_sprintf("%s:%u", at->rel, line));
	if (flows && *flows)
		json_object_set_new(o, "flows", json_string(flows));
	json_array_append_new(facts_array(fi, "slots"), o);
out:
	clang_disposeString(s);
}

void record_func_slots(struct xtu *t, struct xfile *fi, CXCursor fn)
{
	int i, n = clang_Cursor_getNumArguments(fn);
	char *id = NULL, *flows;

	for (i = 0; i < n; i++) {
		CXCursor p = clang_Cursor_getArgument(fn, i);
		CXType ty = clang_getCursorType(p);
		const char *kind = is_lock_ptr_type(ty) ? "P"
				   : is_lock_ptr_ptr_type(ty) ? "O"
							      : NULL;

		if (!kind)
			continue;
		if (!id)
			id = func_identity(t, fn);
		flows = xasprintf("%s:%s#%d", kind, id, i);
		record_slot(t, fi, p, flows);
		free(flows);
	}
	if (is_lock_ptr_type(clang_getResultType(clang_getCursorType(fn)))) {
		if (!id)
			id = func_identity(t, fn);
		flows = xasprintf("R:%s", id);
		record_slot(t, fi, fn, flows);
		free(flows);
	}
	free(id);
}

void record_local_slots(struct xfn *f)
{
	unsigned i;

	for (i = 0; i < f->nlocals; i++) {
		struct sb flows = SB_INIT;

		if (f->locals[i].targets.len)
			add_target(&flows, f->locals[i].targets.buf);
		if (f->locals[i].stored.len)
			add_target(&flows, f->locals[i].stored.buf);
		record_slot(f->t, f->fi, f->locals[i].decl, flows.buf);
		sb_release(&flows);
	}
}

void record_ptr_slot(struct xtu *t, struct xfile *fi, CXCursor decl)
{
	char *id, *flows;

	if (!is_lock_ptr_type(clang_getCursorType(decl)))
		return;
	id = clang_getCursorKind(decl) == CXCursor_FieldDecl
		     ? field_identity(t, decl)
		     : var_identity(t, decl);
	flows = xasprintf("F:%s", id);
	record_slot(t, fi, decl, flows);
	free(flows);
	free(id);
}

struct parms {
	CXCursor v[32];
	unsigned n;
};

static enum CXChildVisitResult parm_visit(CXCursor c, CXCursor parent,
					  CXClientData data)
{
	struct parms *p = data;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_ParmDecl &&
	    p->n < sizeof(p->v) / sizeof(p->v[0]))
		p->v[p->n++] = c;
	return CXChildVisit_Continue;
}

/*
 * The parameters a function pointer's type declares: a typedef's
 * (list_lru_walk_cb's "spinlock_t *lock", through typedefs of typedefs),
 * else those of the field's, variable's or parameter's own declarator.
 */
static void fnptr_parms(CXCursor decl, struct parms *p)
{
	CXType ty = clang_getCursorType(decl);
	unsigned depth;

	p->n = 0;
	for (depth = 0; depth < 8; depth++) {
		CXCursor td;

		if (ty.kind == CXType_Elaborated)
			ty = clang_Type_getNamedType(ty);
		if (ty.kind != CXType_Typedef)
			break;
		td = clang_getTypeDeclaration(ty);
		clang_visitChildren(td, parm_visit, p);
		if (p->n)
			return;
		ty = clang_getTypedefDeclUnderlyingType(td);
	}
	clang_visitChildren(decl, parm_visit, p);
}

void record_fnptr_slots(struct xfn *f, CXCursor decl, json_t *args)
{
	struct parms p;
	unsigned i;

	switch (clang_getCursorKind(decl)) {
	case CXCursor_FieldDecl:
	case CXCursor_VarDecl:
	case CXCursor_ParmDecl:
		break;
	default:
		return;
	}
	fnptr_parms(decl, &p);
	for (i = 0; i < p.n && i < json_array_size(args); i++) {
		const char *to = json_string_value(json_array_get(args, i));

		if (to && is_lock_ptr_type(clang_getCursorType(p.v[i])))
			record_slot(f->t, f->fi, p.v[i], to);
	}
}
