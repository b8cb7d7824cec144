// SPDX-License-Identifier: GPL-2.0
/*
 * Names: which types are locks, the stable identity of a lock declaration
 * and the lock an expression acts on.
 *
 * Identities survive line shifts between releases: a struct field is
 * "struct rq::__lock", an external-linkage variable "global:NAME", a file
 * static "path/file.c:NAME", a function local "path/file.c:FUNC:NAME".
 * A target names what a lock operand refers to: "L:<identity>" for a lock,
 * "P:<function>#<n>" for a function's parameter, "R:<function>" for what a
 * function returns, "O:<function>#<n>" for what it stores through its
 * spinlock_t ** parameter n, "F:<identity>" for a pointer field or variable
 * that holds a lock's address, "U:<why>" when it is not known.  Alternatives are
 * joined with '|'.
 */
#include <string.h>

#include "extract_int.h"

static enum lock_type name_type(const char *n)
{
	if (!strcmp(n, "spinlock_t") || !strcmp(n, "spinlock"))
		return LT_SPIN;
	if (!strcmp(n, "raw_spinlock_t") || !strcmp(n, "raw_spinlock"))
		return LT_RAW;
	return LT_NONE;
}

enum lock_type lock_type_of(CXType t, bool *array)
{
	enum lock_type lt;
	char *n;

	if (array)
		*array = false;
	for (;;) {
		switch (t.kind) {
		case CXType_Elaborated:
			t = clang_Type_getNamedType(t);
			continue;
		case CXType_Typedef:
			n = cxstr(clang_getTypedefName(t));
			lt = name_type(n);
			free(n);
			if (lt)
				return lt;
			t = clang_getTypedefDeclUnderlyingType(
				clang_getTypeDeclaration(t));
			continue;
		case CXType_ConstantArray:
		case CXType_IncompleteArray:
		case CXType_VariableArray:
			if (array)
				*array = true;
			t = clang_getArrayElementType(t);
			continue;
		case CXType_Record:
			n = cxstr(clang_getCursorSpelling(
				clang_getTypeDeclaration(t)));
			lt = name_type(n);
			free(n);
			return lt;
		default: {
			/* typeof(type), as DEFINE_PER_CPU writes it */
			CXType c = clang_getCanonicalType(t);

			if (c.kind == t.kind)
				return LT_NONE;
			t = c;
			continue;
		}
		}
	}
}

bool is_lock_ptr_type(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_Pointer &&
	       lock_type_of(clang_getPointeeType(t), NULL) != LT_NONE;
}

/* spinlock_t **: an out-parameter for a lock pointer */
bool is_lock_ptr_ptr_type(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_Pointer &&
	       is_lock_ptr_type(clang_getPointeeType(t));
}

bool is_fn_ptr_type(CXType t)
{
	t = clang_getCanonicalType(t);
	if (t.kind != CXType_Pointer)
		return false;
	t = clang_getCanonicalType(clang_getPointeeType(t));
	return t.kind == CXType_FunctionProto ||
	       t.kind == CXType_FunctionNoProto;
}

static const char *rel_of_cursor(struct xtu *t, CXCursor c)
{
	struct xfile *fi = file_loc(t, clang_getCursorLocation(c), NULL, NULL,
				    NULL);

	return fi ? fi->rel : "?";
}

char *var_identity(struct xtu *t, CXCursor var)
{
	CXCursor parent = clang_getCursorSemanticParent(var);
	char *name = cxstr(clang_getCursorSpelling(var)), *id;
	enum CXCursorKind pk = clang_getCursorKind(parent);

	if (pk == CXCursor_FunctionDecl) {
		char *fn = cxstr(clang_getCursorSpelling(parent));

		id = xasprintf("%s:%s:%s", rel_of_cursor(t, var), fn, name);
		free(fn);
	} else if (clang_getCursorLinkage(var) == CXLinkage_External) {
		id = xasprintf("global:%s", name);
	} else {
		id = xasprintf("%s:%s", rel_of_cursor(t, var), name);
	}
	free(name);
	return id;
}

/*
 * A record defined in a C file is that file's own: its tag may name another
 * record in another file (struct irq_info in drivers/xen/events and in the
 * 8250 serial core), so the file is part of its name.
 */
static char *record_name(struct xtu *t, CXCursor rec)
{
	const char *kind = clang_getCursorKind(rec) == CXCursor_UnionDecl
				   ? "union"
				   : "struct";
	const char *file = rel_of_cursor(t, rec);
	char *n = cxstr(clang_getCursorSpelling(rec)), *r;

	if (!*n) {
		/* typedef struct { ... } name_t; */
		free(n);
		n = cxstr(clang_getTypeSpelling(clang_getCursorType(rec)));
		if (!strchr(n, '(')) {
			if (!has_suffix(file, ".c"))
				return n;
			r = xasprintf("%s (in %s)", n, file);
			free(n);
			return r;
		}
		/*
		 * static struct { ... } var;: clang says where, with the
		 * absolute path and a line that moves between releases; the
		 * file alone is stable.
		 */
		r = xasprintf("%s (unnamed in %s)", kind, file);
		free(n);
		return r;
	}
	if (has_suffix(file, ".c"))
		r = xasprintf("%s %s (in %s)", kind, n, file);
	else
		r = xasprintf("%s %s", kind, n);
	free(n);
	return r;
}

char *field_identity(struct xtu *t, CXCursor field)
{
	CXCursor rec = clang_getCursorSemanticParent(field);
	char *rn, *fn, *id;

	while (clang_Cursor_isAnonymousRecordDecl(rec)) {
		CXCursor up = clang_getCursorSemanticParent(rec);

		if (clang_Cursor_isNull(up) ||
		    (clang_getCursorKind(up) != CXCursor_StructDecl &&
		     clang_getCursorKind(up) != CXCursor_UnionDecl))
			break;
		rec = up;
	}
	rn = record_name(t, rec);
	fn = cxstr(clang_getCursorSpelling(field));
	id = xasprintf("%s::%s", rn, fn);
	free(rn);
	free(fn);
	return id;
}

char *func_identity(struct xtu *t, CXCursor fn)
{
	CXCursor def = clang_getCursorDefinition(fn);
	char *name = cxstr(clang_getCursorSpelling(fn)), *id;

	if (clang_getCursorLinkage(fn) == CXLinkage_External) {
		id = xasprintf("%s", name);
	} else {
		if (!clang_Cursor_isNull(def))
			fn = def;
		id = xasprintf("%s:%s", rel_of_cursor(t, fn), name);
	}
	free(name);
	return id;
}

CXCursor strip_unary(CXCursor e)
{
	e = strip_expr(e);
	if (clang_getCursorKind(e) == CXCursor_UnaryOperator) {
		struct kids k = { 0 };

		kids_get(e, &k);
		if (k.n == 1)
			e = strip_expr(k.v[0]);
		kids_free(&k);
	}
	return e;
}

CXCursor fn_ref(CXCursor e)
{
	CXCursor r;

	e = strip_unary(e);
	if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
		return clang_getNullCursor();
	r = clang_getCursorReferenced(e);
	if (clang_getCursorKind(r) != CXCursor_FunctionDecl)
		return clang_getNullCursor();
	return r;
}

static int param_index(CXCursor fn, CXCursor parm)
{
	int i, n = clang_Cursor_getNumArguments(fn);

	for (i = 0; i < n; i++)
		if (clang_equalCursors(clang_Cursor_getArgument(fn, i), parm))
			return i;
	return -1;
}

void add_target(struct sb *out, const char *t)
{
	if (out->len)
		sb_adds(out, "|");
	sb_adds(out, t);
}

static void add_targetf(struct sb *out, const char *pfx, const char *id)
{
	if (out->len)
		sb_adds(out, "|");
	sb_adds(out, pfx);
	sb_adds(out, id);
}

/* Search inside a complex expression for the one lock lvalue it names. */
struct lvsearch {
	struct xfn *f;
	char *found;
	bool ambiguous;
	CXCursor ptr;		/* a lock pointer lvalue seen on the way */
	bool has_ptr;
};

static enum CXChildVisitResult lv_visit(CXCursor c, CXCursor parent,
					CXClientData data)
{
	struct lvsearch *s = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor ref;
	char *id = NULL;

	(void)parent;
	if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr)
		return CXChildVisit_Recurse;
	if (!s->has_ptr && is_lock_ptr_type(clang_getCursorType(c))) {
		s->ptr = c;
		s->has_ptr = true;
	}
	if (!lock_type_of(clang_getCursorType(c), NULL))
		return CXChildVisit_Recurse;
	ref = clang_getCursorReferenced(c);
	if (clang_getCursorKind(ref) == CXCursor_VarDecl)
		id = var_identity(s->f->t, ref);
	else if (clang_getCursorKind(ref) == CXCursor_FieldDecl)
		id = field_identity(s->f->t, ref);
	if (!id)
		return CXChildVisit_Continue;
	if (!s->found)
		s->found = id;
	else if (strcmp(s->found, id))
		s->ambiguous = true, free(id);
	else
		free(id);
	return CXChildVisit_Continue;
}

static bool is_lock_internal_field(CXCursor field)
{
	CXCursor rec = clang_getCursorSemanticParent(field);

	while (clang_Cursor_isAnonymousRecordDecl(rec))
		rec = clang_getCursorSemanticParent(rec);
	return lock_type_of(clang_getCursorType(rec), NULL) != LT_NONE;
}

static void lvalue_target(struct xfn *f, CXCursor e, struct sb *out);

static void ptr_var_target(struct xfn *f, CXCursor var, struct sb *out)
{
	unsigned i;
	char *id;

	for (i = 0; i < f->nlocals; i++) {
		if (clang_equalCursors(f->locals[i].decl, var)) {
			if (f->locals[i].targets.len)
				add_target(out, f->locals[i].targets.buf);
			else
				add_target(out, "U:unassigned-local");
			return;
		}
	}
	id = var_identity(f->t, var);
	add_targetf(out, "F:", id);
	free(id);
}

/* The index of @e's parameter when it names a spinlock_t ** one, else -1. */
static int out_param(struct xfn *f, CXCursor e)
{
	CXCursor ref = clang_getCursorReferenced(e);

	if (!f->id || clang_getCursorKind(e) != CXCursor_DeclRefExpr ||
	    clang_getCursorKind(ref) != CXCursor_ParmDecl ||
	    !is_lock_ptr_ptr_type(clang_getCursorType(ref)))
		return -1;
	return param_index(f->cur, ref);
}

void lock_target(struct xfn *f, CXCursor e, struct sb *out)
{
	struct kids k = { 0 };
	CXCursor ref;
	char *id;
	int i;

	e = strip_expr(e);
	kids_get(e, &k);
	switch (clang_getCursorKind(e)) {
	case CXCursor_UnaryOperator:
		if (k.n == 1 && lock_type_of(clang_getCursorType(k.v[0]), NULL)) {
			lvalue_target(f, k.v[0], out); /* &lock */
			goto done;
		}
		/* *lockp: what this function stores through the parameter */
		if (k.n == 1 && (i = out_param(f, strip_expr(k.v[0]))) >= 0) {
			sb_addf(out, "%sO:%s#%d", out->len ? "|" : "", f->id, i);
			goto done;
		}
		break;
	case CXCursor_DeclRefExpr:
		ref = clang_getCursorReferenced(e);
		if (clang_getCursorKind(ref) == CXCursor_ParmDecl && f->id) {
			i = param_index(f->cur, ref);
			sb_addf(out, "%sP:%s#%d", out->len ? "|" : "", f->id, i);
			goto done;
		}
		if (clang_getCursorKind(ref) == CXCursor_VarDecl) {
			if (lock_type_of(clang_getCursorType(ref), NULL))
				lvalue_target(f, e, out); /* array decays */
			else
				ptr_var_target(f, ref, out);
			goto done;
		}
		break;
	case CXCursor_MemberRefExpr:
		ref = clang_getCursorReferenced(e);
		if (lock_type_of(clang_getCursorType(ref), NULL)) {
			lvalue_target(f, e, out);
		} else {
			id = field_identity(f->t, ref);
			add_targetf(out, "F:", id);
			free(id);
		}
		goto done;
	case CXCursor_CallExpr:
		ref = clang_getCursorReferenced(e);
		if (clang_getCursorKind(ref) == CXCursor_FunctionDecl) {
			id = func_identity(f->t, ref);
			/* spinlock_check(lock) and friends pass the lock on */
			if (strstr(id, "spinlock_check") && k.n == 2) {
				free(id);
				lock_target(f, k.v[1], out);
				goto done;
			}
			add_targetf(out, "R:", id);
			free(id);
			goto done;
		}
		break;
	case CXCursor_ConditionalOperator:
		if (k.n >= 2) {
			lock_target(f, k.v[k.n - 2], out);
			lock_target(f, k.v[k.n - 1], out);
			goto done;
		}
		break;
	case CXCursor_BinaryOperator:
		/* locks + hash: pointer arithmetic on an array of locks */
		for (i = 0; i < (int)k.n; i++) {
			CXType ty = clang_getCursorType(k.v[i]);

			if (is_lock_ptr_type(ty) || lock_type_of(ty, NULL)) {
				lock_target(f, k.v[i], out);
				goto done;
			}
		}
		break;
	default:
		break;
	}
	lvalue_target(f, e, out);
done:
	kids_free(&k);
}

/* Target of an lvalue of lock type (or a pointer expression we gave up on). */
static void lvalue_target(struct xfn *f, CXCursor e, struct sb *out)
{
	struct kids k = { 0 };
	struct lvsearch s = { f, NULL, false, clang_getNullCursor(), false };
	CXCursor ref;
	char *id;

	e = strip_expr(e);
	kids_get(e, &k);
	switch (clang_getCursorKind(e)) {
	case CXCursor_DeclRefExpr:
		ref = clang_getCursorReferenced(e);
		if (clang_getCursorKind(ref) == CXCursor_VarDecl) {
			id = var_identity(f->t, ref);
			add_targetf(out, "L:", id);
			free(id);
			goto done;
		}
		break;
	case CXCursor_MemberRefExpr:
		ref = clang_getCursorReferenced(e);
		if (k.n == 1 && is_lock_internal_field(ref)) {
			/* &lock->rlock: the spinlock_t that wraps it */
			if (is_lock_ptr_type(clang_getCursorType(k.v[0])))
				lock_target(f, k.v[0], out);
			else
				lvalue_target(f, k.v[0], out);
			goto done;
		}
		id = field_identity(f->t, ref);
		add_targetf(out, "L:", id);
		free(id);
		goto done;
	case CXCursor_ArraySubscriptExpr:
		if (k.n == 2) {
			if (is_lock_ptr_type(clang_getCursorType(k.v[0])) &&
			    !lock_type_of(clang_getCursorType(
						  strip_expr(k.v[0])),
					  NULL))
				lock_target(f, k.v[0], out);
			else
				lvalue_target(f, k.v[0], out);
			goto done;
		}
		break;
	case CXCursor_UnaryOperator:
		/* *ptr */
		if (k.n == 1 && is_lock_ptr_type(clang_getCursorType(k.v[0]))) {
			lock_target(f, k.v[0], out);
			goto done;
		}
		break;
	default:
		break;
	}
	/* per_cpu(), this_cpu_ptr(), container_of(): find the lock inside */
	clang_visitChildren(e, lv_visit, &s);
	if (s.found && !s.ambiguous) {
		add_targetf(out, "L:", s.found);
	} else if (!s.found && s.has_ptr) {
		/* READ_ONCE(q->lock_ptr): the pointer it reads */
		lock_target(f, s.ptr, out);
	} else {
		CXString ks = clang_getCursorKindSpelling(clang_getCursorKind(e));

		sb_addf(out, "%sU:%s", out->len ? "|" : "",
			s.ambiguous ? "ambiguous" : clang_getCString(ks));
		clang_disposeString(ks);
	}
	free(s.found);
done:
	kids_free(&k);
}

char *lvalue_identity(struct xfn *f, CXCursor e)
{
	CXCursor ref;
	char *id = NULL;

	e = strip_unary(e);
	ref = clang_getCursorReferenced(e);
	if (clang_getCursorKind(e) == CXCursor_MemberRefExpr)
		id = field_identity(f->t, ref);
	else if (clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
		 clang_getCursorKind(ref) == CXCursor_VarDecl)
		id = var_identity(f->t, ref);
	return id;
}

bool is_null_const(CXCursor e)
{
	return clang_getCursorKind(strip_expr(e)) == CXCursor_IntegerLiteral;
}

static struct xlocal *local_of(struct xfn *f, CXCursor var)
{
	struct xlocal *l;
	unsigned i;

	for (i = 0; i < f->nlocals; i++)
		if (clang_equalCursors(f->locals[i].decl, var))
			return &f->locals[i];
	ALLOC_GROW(f->locals, f->nlocals, f->alloc_locals);
	l = &f->locals[f->nlocals++];
	l->decl = var;
	memset(&l->targets, 0, sizeof(l->targets));
	memset(&l->stored, 0, sizeof(l->stored));
	return l;
}

static void local_add(struct sb *set, const char *target)
{
	if (!strstr(set->buf ? set->buf : "", target))
		add_target(set, target);
}

/* Record what a local lock pointer may point to. */
static void local_assign(struct xfn *f, CXCursor var, CXCursor val)
{
	struct xlocal *l = local_of(f, var);

	if (!clang_Cursor_isNull(val) && !is_null_const(val)) {
		struct sb t = SB_INIT;

		lock_target(f, val, &t);
		local_add(&l->targets, t.buf);
		sb_release(&t);
	}
}

static bool is_local_var(CXCursor ref)
{
	return clang_getCursorKind(ref) == CXCursor_VarDecl &&
	       clang_getCursorKind(clang_getCursorSemanticParent(ref)) ==
		       CXCursor_FunctionDecl;
}

/*
 * "x->locks = p": the local p must have the field's type, whatever p was
 * given (inet_ehash_locks_alloc()'s kvmalloc_array() of locks).  For its
 * slot only: what p points to stays what was stored into it.
 */
static void local_stored(struct xfn *f, CXCursor lhs, CXCursor val)
{
	CXCursor local = clang_getCursorReferenced(val);
	char *id, *t;

	/* a field or a global: local_visit() took "local = ..." already */
	if (clang_getCursorKind(val) != CXCursor_DeclRefExpr ||
	    !is_local_var(local) ||
	    clang_getCursorKind(lhs) == CXCursor_UnaryOperator ||
	    !(id = lvalue_identity(f, lhs)))
		return;
	t = xasprintf("F:%s", id);
	local_add(&local_of(f, local)->stored, t);
	free(t);
	free(id);
}

static void out_add(struct xfn *f, int param, const char *target)
{
	unsigned i;

	for (i = 0; i < f->nouts && f->outs[i].param != param; i++)
		;
	if (i == f->nouts) {
		ALLOC_GROW(f->outs, f->nouts, f->alloc_outs);
		f->outs[f->nouts].param = param;
		memset(&f->outs[f->nouts++].targets, 0, sizeof(struct sb));
	}
	local_add(&f->outs[i].targets, target);
}

/* "*ptlp = ptl" through a spinlock_t ** parameter */
static void out_store(struct xfn *f, CXCursor lhs, CXCursor val)
{
	struct kids k = { 0 };
	struct sb t = SB_INIT;
	int n;

	kids_get(lhs, &k);
	if (clang_getCursorKind(lhs) == CXCursor_UnaryOperator && k.n == 1 &&
	    (n = out_param(f, strip_expr(k.v[0]))) >= 0 && !is_null_const(val)) {
		lock_target(f, val, &t);
		out_add(f, n, t.buf);
		sb_release(&t);
	}
	kids_free(&k);
}

/*
 * A call that is handed &local (a spinlock_t *) or a spinlock_t **
 * parameter as argument n: the callee stores the lock pointer there
 * (pte_offset_map_lock(mm, pmd, addr, &ptl)), "O:callee#n".
 */
static void out_call(struct xfn *f, CXCursor call)
{
	CXCursor fn = clang_getCursorReferenced(call);
	struct kids k = { 0 };
	char *id = NULL, *t;
	unsigned i;
	int n;

	if (clang_getCursorKind(fn) != CXCursor_FunctionDecl)
		return;
	kids_get(call, &k);
	for (i = 1; i < k.n; i++) {
		CXCursor a = strip_expr(k.v[i]), var = clang_getNullCursor();
		struct kids u = { 0 };

		if (!is_lock_ptr_ptr_type(clang_getCursorType(a)))
			continue;
		if (!id)
			id = func_identity(f->t, fn);
		t = xasprintf("O:%s#%u", id, i - 1);
		kids_get(a, &u);
		/* &local */
		if (clang_getCursorKind(a) == CXCursor_UnaryOperator && u.n == 1)
			var = clang_getCursorReferenced(strip_expr(u.v[0]));
		if ((n = out_param(f, a)) >= 0)
			out_add(f, n, t);
		else if (is_local_var(var))
			local_add(&local_of(f, var)->targets, t);
		kids_free(&u);
		free(t);
	}
	free(id);
	kids_free(&k);
}

static enum CXChildVisitResult local_visit(CXCursor c, CXCursor parent,
					   CXClientData data)
{
	struct xfn *f = data;
	struct kids k = { 0 };
	enum CXCursorKind kind = clang_getCursorKind(c);

	(void)parent;
	if (kind == CXCursor_VarDecl &&
	    is_lock_ptr_type(clang_getCursorType(c))) {
		kids_get(c, &k);
		/* children: type refs, then the initialiser if any */
		if (k.n && clang_isExpression(clang_getCursorKind(k.v[k.n - 1])))
			local_assign(f, c, k.v[k.n - 1]);
		else
			local_assign(f, c, clang_getNullCursor());
		kids_free(&k);
	} else if (kind == CXCursor_BinaryOperator &&
		   is_lock_ptr_type(clang_getCursorType(c))) {
		kids_get(c, &k);
		if (k.n == 2) {
			CXCursor lhs = strip_expr(k.v[0]);
			CXCursor ref = clang_getCursorReferenced(lhs);

			if (clang_getCursorKind(lhs) == CXCursor_DeclRefExpr &&
			    is_local_var(ref))
				local_assign(f, ref, k.v[1]);
			else if (clang_getCursorKind(lhs) ==
				 CXCursor_UnaryOperator)
				out_store(f, lhs, strip_expr(k.v[1]));
			else
				local_stored(f, lhs, strip_expr(k.v[1]));
		}
		kids_free(&k);
	} else if (kind == CXCursor_CallExpr) {
		out_call(f, c);
	}
	return CXChildVisit_Recurse;
}

void collect_locals(struct xfn *f, CXCursor body)
{
	/* Two passes, so that "p = q" sees what q was given later. */
	clang_visitChildren(body, local_visit, f);
	if (f->nlocals)
		clang_visitChildren(body, local_visit, f);
}
