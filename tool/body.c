// SPDX-License-Identifier: GPL-2.0
/*
 * Function bodies to IR.  The IR keeps, in program order, only what the
 * classifier needs: lock operations, interrupt/preemption control done by
 * hand, calls, and the control flow around them.  Events (JSON arrays):
 *
 *   ["lock", line, op, api, target, at]   op: acquire, release, trylock...
 *   ["ctx", line, "irq"|"preempt", +1|-1, api]
 *   ["call", line, callee, args, consts]  callee: function id, or
 *                                         "ptr:<field>" / "P:fn#n" ...
 *                                         (an rwlock_t acquisition is a
 *                                         call of its implementation,
 *                                         "_raw_read_lock" ..., no args);
 *                                         args and consts optional
 *   ["if", [then], [else], n]  n optional: the condition is parameter n
 *                              (then: nonzero); a condition naming
 *                              CONFIG_PREEMPT_RT reads as PREEMPT_RT does
 *   ["loop", [body]]  ["do", [body]]  ["forever", [body]]
 *   ["switch", [body]]  ["case"]
 *   ["ret"]  ["break"]  ["cont"]  ["goto", label]  ["label", label]
 *   ["noret"]  after a call of a function that does not return
 *              (__noreturn: do_exit(), panic(); __builtin_unreachable())
 *
 * "at" is where the API name is written ("file:line:col"), which differs
 * from the line of use when the call sits in a macro.
 */
#include <string.h>

#include "extract_int.h"

static void emit(struct xfn *f, json_t *ev)
{
	if (f->ir)
		json_array_append_new(f->ir, ev);
	else
		json_decref(ev);
}

static json_t *block_of(struct xfn *f, CXCursor c)
{
	json_t *saved = f->ir, *blk = json_array();

	if (!saved) {
		walk(f, c);
		return blk;
	}
	f->ir = blk;
	walk(f, c);
	f->ir = saved;
	return blk;
}

static unsigned use_line(struct xfn *f, CXCursor c)
{
	unsigned line = 0;

	file_loc(f->t, clang_getCursorLocation(c), &line, NULL, NULL);
	return line;
}

/* A site at a macro expansion already handled (nested calls of one API). */
static bool site_done(struct xfn *f, CXFile file, unsigned off, bool mark)
{
	unsigned i;

	for (i = 0; i < f->ndone; i++)
		if (f->done_sites[i] == off && f->done_files[i] == file)
			return true;
	if (mark) {
		if (f->ndone == f->alloc_done) {
			f->alloc_done = f->alloc_done ? 2 * f->alloc_done : 8;
			f->done_sites = xrealloc(f->done_sites,
						 f->alloc_done * sizeof(unsigned));
			f->done_files = xrealloc(f->done_files,
						 f->alloc_done * sizeof(CXFile));
		}
		f->done_sites[f->ndone] = off;
		f->done_files[f->ndone++] = file;
	}
	return false;
}

static char *callee_name(CXCursor call)
{
	CXCursor ref = clang_getCursorReferenced(call);
	CXString s;
	char *n;

	if (clang_getCursorKind(ref) != CXCursor_FunctionDecl)
		return NULL;
	s = clang_getCursorSpelling(ref);
	n = xstrdup(clang_getCString(s));
	clang_disposeString(s);
	return n;
}

/*
 * Does @call never return?  The kernel's __noreturn is a GNU attribute,
 * which clang keeps in the function's type, not as an attribute cursor.
 */
static bool calls_noreturn(CXCursor call)
{
	CXCursor ref = clang_getCursorReferenced(call);
	CXString s;
	bool noret;

	if (clang_getCursorKind(ref) != CXCursor_FunctionDecl)
		return false;
	s = clang_getTypeSpelling(clang_getCursorType(ref));
	noret = strstr(clang_getCString(s), "__attribute__((noreturn))");
	clang_disposeString(s);
	return noret;
}

/* First expression of lock-pointer type in a pre-order walk of @c. */
struct opnd_search {
	CXCursor found;
	bool ok;
};

static enum CXChildVisitResult opnd_visit(CXCursor c, CXCursor parent,
					  CXClientData data)
{
	struct opnd_search *s = data;

	(void)parent;
	if (clang_isExpression(clang_getCursorKind(c)) &&
	    is_lock_ptr_type(clang_getCursorType(c))) {
		s->found = c;
		s->ok = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/*
 * The lock an API call acts on: the first argument of lock-pointer type,
 * or one found inside the arguments (assert_spin_locked(l) expands to
 * arch_spin_is_locked(&(l)->rlock.raw_lock)).
 */
static bool lock_operand(CXCursor call, CXCursor *out)
{
	struct kids k = { 0 };
	struct opnd_search s = { clang_getNullCursor(), false };
	unsigned i;

	kids_get(call, &k);
	for (i = 1; i < k.n && !s.ok; i++) {
		if (is_lock_ptr_type(clang_getCursorType(k.v[i]))) {
			s.found = k.v[i];
			s.ok = true;
		}
	}
	for (i = 1; i < k.n && !s.ok; i++)
		clang_visitChildren(k.v[i], opnd_visit, &s);
	kids_free(&k);
	*out = s.found;
	return s.ok;
}

/* The next identifier in [p, end) that is not inside a longer one. */
static const char *next_ident(const char *start, const char *p,
			      const char *end, size_t *n)
{
	for (; p < end; p++) {
		if (!ident_char(*p) || (p > start && ident_char(p[-1])))
			continue;
		for (*n = 0; p + *n < end && ident_char(p[*n]); ++*n)
			;
		return p;
	}
	return NULL;
}

/*
 * The first macro, @name itself or one of the macros its body uses (to
 * depth 4), whose body @found() says holds what is looked for.
 */
static const struct xdef *
macro_search(struct xtu *t, const char *name,
	     bool (*found)(const struct xdef *d, void *ctx), void *ctx,
	     int depth)
{
	const struct xdef *d = find_macro(t, name), *in;
	const char *data, *p, *end;
	char word[128];
	size_t n;

	if (!d || depth > 4)
		return NULL;
	if (found(d, ctx))
		return d;
	data = d->file->data;
	end = data + d->end;
	for (p = data + d->offset; (p = next_ident(data, p, end, &n)); p += n) {
		if (n >= sizeof(word))
			continue;
		snprintf(word, sizeof(word), "%.*s", (int)n, p);
		if (strcmp(word, name) &&
		    (in = macro_search(t, word, found, ctx, depth + 1)))
			return in;
	}
	return NULL;
}

/* An API name in a macro's body, and where. */
struct api_pos {
	const char *api;
	unsigned line, col;
};

static bool body_has_api(const struct xdef *d, void *ctx)
{
	struct api_pos *a = ctx;

	return macro_word_pos(d, a->api, &a->line, &a->col);
}

/* Where the API name is written: in the file, or in a user macro's body. */
static json_t *site_at(struct xfn *f, struct xfile *fi, unsigned line,
		       unsigned col, const char *written, const char *api)
{
	struct api_pos a = { api, 0, 0 };
	const struct xdef *d;

	/* pcpu_spin_unlock_irqrestore() -> pcpu_spin_unlock() -> spin_unlock() */
	if (strcmp(written, api) &&
	    (d = macro_search(f->t, written, body_has_api, &a, 0)))
		return json_sprintf("%s:%u:%u", d->file->rel, a.line, a.col);
	return json_sprintf("%s:%u:%u", fi->rel, line, col);
}

/* spinlock_check(l), &l->rlock, or an expression of type spinlock_t * */
static bool operand_is_spinlock(CXCursor e)
{
	struct kids k = { 0 };
	CXCursor ref;
	bool r = false;

	e = strip_expr(e);
	kids_get(e, &k);
	ref = clang_getCursorReferenced(e);
	if (clang_getCursorKind(e) == CXCursor_CallExpr &&
	    clang_getCursorKind(ref) == CXCursor_FunctionDecl) {
		CXString n = clang_getCursorSpelling(ref);

		r = !strcmp(clang_getCString(n), "spinlock_check");
		clang_disposeString(n);
	} else if (clang_getCursorKind(e) == CXCursor_UnaryOperator && k.n == 1 &&
		   clang_getCursorKind(strip_expr(k.v[0])) ==
			   CXCursor_MemberRefExpr) {
		struct kids m = { 0 };

		kids_get(strip_expr(k.v[0]), &m);
		r = m.n == 1 && lock_type_of(clang_getPointeeType(
						     clang_getCursorType(m.v[0])),
					     NULL) == LT_SPIN;
		kids_free(&m);
	} else {
		r = lock_type_of(clang_getPointeeType(clang_getCursorType(e)),
				 NULL) == LT_SPIN;
	}
	kids_free(&k);
	return r;
}

/* @g: a guard's acquisition, whose target and place it keeps */
static bool emit_lock(struct xfn *f, CXCursor call, const struct lock_api *api,
		      const char *written, struct xfile *fi, unsigned line,
		      unsigned col, struct xguard *g)
{
	CXCursor opnd;
	struct sb tgt = SB_INIT;
	char buf[64];
	const char *name;
	json_t *at;
	bool spin;

	if (!lock_operand(call, &opnd))
		return false;
	lock_target(f, opnd, &tgt);
	/* raw_spin_* on &lock->rlock of a spinlock_t is a spin_* call */
	spin = !(api->flags & LAPI_RAW) || operand_is_spinlock(opnd);
	name = lock_api_find(written) ? written
				      : lock_api_public_name(api, spin, buf,
							     sizeof(buf));
	if (!(api->flags & LAPI_INTERNAL) && lock_api_find(written))
		name = written;
	at = site_at(f, fi, line, col, written, name);
	if (g) {
		g->target = xstrdup(tgt.buf);
		g->at = xstrdup(json_string_value(at));
	}
	emit(f, json_pack("[sissso]", "lock", line, lock_op_name(api->op),
			  name, tgt.buf, at));
	f->nevents++;
	sb_release(&tgt);
	return true;
}

/*
 * guard(spinlock)(&l), scoped_guard(spinlock, &l) { }: the constructor
 * call takes the lock; walk() releases it where the scope ends and
 * before a return from inside it.
 */
static void walk_guard(struct xfn *f, CXCursor call,
		       const struct lock_guard *lg, struct xfile *fi,
		       unsigned line, unsigned col)
{
	struct xguard g = { NULL, NULL, lg->unlock };

	if (!emit_lock(f, call, lock_api_find(lg->lock), lg->lock, fi, line,
		       col, &g))
		return;
	ALLOC_GROW(f->guards, f->nguards, f->alloc_guards);
	f->guards[f->nguards++] = g;
}

static void emit_guard_release(struct xfn *f, const struct xguard *g,
			       unsigned line)
{
	emit(f, json_pack("[sissss]", "lock", line, "release", g->unlock,
			  g->target, g->at));
	f->nevents++;
}

/* The scope of the guards from @depth on ends at @c's end. */
static void guards_end(struct xfn *f, unsigned depth, CXCursor c)
{
	unsigned line = 0;

	file_loc(f->t, clang_getRangeEnd(clang_getCursorExtent(c)), &line,
		 NULL, NULL);
	while (f->nguards > depth) {
		struct xguard *g = &f->guards[--f->nguards];

		emit_guard_release(f, g, line);
		free(g->target);
		free(g->at);
	}
}

/* Is @e (casts and parentheses aside) a use of a declaration of @kind? */
static bool refers_to(CXCursor e, enum CXCursorKind kind)
{
	e = strip_expr(e);
	return clang_getCursorKind(e) == CXCursor_DeclRefExpr &&
	       clang_getCursorKind(clang_getCursorReferenced(e)) == kind;
}

/*
 * The arguments of a call that say where a lock or a function goes: lock
 * targets for spinlock_t * arguments, "fn:ID" for a function, "P:f#n" for
 * a function pointer parameter passed on; null for the others.
 */
static json_t *call_args(struct xfn *f, struct kids *k)
{
	json_t *args = json_array();
	bool any = false;
	unsigned i;

	for (i = 1; i < k->n; i++) {
		CXType ty = clang_getCursorType(k->v[i]);
		CXCursor fn = fn_ref(k->v[i]);

		if (is_lock_ptr_type(ty)) {
			struct sb t = SB_INIT;

			lock_target(f, k->v[i], &t);
			json_array_append_new(args, json_string(t.buf));
			sb_release(&t);
			any = true;
		} else if (!clang_Cursor_isNull(fn)) {
			char *id = func_identity(f->t, fn);

			json_array_append_new(args, json_sprintf("fn:%s", id));
			free(id);
			any = true;
		} else if (is_fn_ptr_type(ty) && refers_to(k->v[i], CXCursor_ParmDecl)) {
			/* a function pointer parameter passed on: "P:f#n" */
			struct sb t = SB_INIT;

			lock_target(f, k->v[i], &t);
			json_array_append_new(args, json_string(t.buf));
			sb_release(&t);
			any = true;
		} else {
			json_array_append_new(args, json_null());
		}
	}
	if (!any) {
		json_decref(args);
		return NULL;
	}
	return args;
}

/*
 * The integer constants a call passes (true, 0, an enumerator ...): the
 * value for each such argument, null for the others; NULL when none.
 */
static json_t *call_consts(struct kids *k)
{
	json_t *consts = json_array();
	bool any = false;
	unsigned i;

	for (i = 1; i < k->n; i++) {
		CXCursor e = strip_expr(k->v[i]);
		enum CXCursorKind kind = clang_getCursorKind(e);
		CXEvalResult r = NULL;

		if (kind == CXCursor_IntegerLiteral ||
		    kind == CXCursor_CXXBoolLiteralExpr ||
		    (kind == CXCursor_DeclRefExpr &&
		     clang_getCursorKind(clang_getCursorReferenced(e)) ==
			     CXCursor_EnumConstantDecl))
			r = clang_Cursor_Evaluate(e);
		if (r && clang_EvalResult_getKind(r) == CXEval_Int) {
			json_array_append_new(consts,
					      json_integer(clang_EvalResult_getAsLongLong(r)));
			any = true;
		} else {
			json_array_append_new(consts, json_null());
		}
		if (r)
			clang_EvalResult_dispose(r);
	}
	if (!any) {
		json_decref(consts);
		return NULL;
	}
	return consts;
}

/* Flags written in an argument: IRQF_SHARED | IRQF_NO_THREAD -> names. */
static json_t *arg_words(struct xfn *f, CXCursor arg)
{
	CXSourceRange r = clang_getCursorExtent(arg);
	unsigned b, e;
	struct xfile *fb = file_loc(f->t, clang_getRangeStart(r), NULL, NULL, &b);
	struct xfile *fe = file_loc(f->t, clang_getRangeEnd(r), NULL, NULL, &e);
	json_t *words = json_array();
	const char *p, *end;

	if (!fb || fb != fe || e < b || e - b > 512)
		return words;
	for (p = fb->data + b, end = fb->data + e; p < end;) {
		const char *s = p;

		while (p < end && (*p == '_' || (*p >= 'A' && *p <= 'Z') ||
				   (*p >= 'a' && *p <= 'z') ||
				   (*p >= '0' && *p <= '9')))
			p++;
		if (p > s)
			json_array_append_new(words, json_stringn(s, p - s));
		else
			p++;
	}
	return words;
}

static json_t *fn_or_target(struct xfn *f, CXCursor arg)
{
	CXCursor fn = fn_ref(arg);
	CXCursor e = strip_expr(arg);
	char *id;
	json_t *r;

	if (!clang_Cursor_isNull(fn)) {
		id = func_identity(f->t, fn);
		r = json_string(id);
		free(id);
		return r;
	}
	if (refers_to(e, CXCursor_ParmDecl)) {
		struct sb t = SB_INIT;

		lock_target(f, e, &t);
		r = json_string(t.buf);
		sb_release(&t);
		return r;
	}
	return json_null();
}

static void emit_reg(struct xfn *f, const struct reg_api *reg, struct kids *k,
		     unsigned line)
{
	json_t *r = json_pack("{sssssi}", "api", reg->name, "role", reg->role,
			      "line", line);
	unsigned nargs = k->n - 1;

	if (reg->fn_arg >= 0 && (unsigned)reg->fn_arg < nargs)
		json_object_set_new(r, "fn",
				    fn_or_target(f, k->v[1 + reg->fn_arg]));
	if (reg->fn2_arg >= 0 && (unsigned)reg->fn2_arg < nargs)
		json_object_set_new(r, "fn2",
				    fn_or_target(f, k->v[1 + reg->fn2_arg]));
	if (reg->flags_arg >= 0 && (unsigned)reg->flags_arg < nargs)
		json_object_set_new(r, "flags",
				    arg_words(f, k->v[1 + reg->flags_arg]));
	if (reg->obj_arg >= 0 && (unsigned)reg->obj_arg < nargs) {
		char *obj = lvalue_identity(f, k->v[1 + reg->obj_arg]);

		if (obj)
			json_object_set_new(r, "obj", json_string(obj));
		free(obj);
	}
	if (f->id)
		json_object_set_new(r, "in", json_string(f->id));
	json_array_append_new(facts_array(f->fi, "regs"), r);
}

/* The expression a call calls: "fp" of "(*fp)(args)" too. */
static CXCursor callee_expr(struct kids *k)
{
	return k->n ? strip_unary(k->v[0]) : clang_getNullCursor();
}

/* The callee as the IR names it: a function id, "ptr:<field>", a target. */
static json_t *callee_of(struct xfn *f, struct kids *k)
{
	CXCursor c = callee_expr(k);
	CXCursor ref, fn = fn_ref(c);
	char *id;
	json_t *r;

	if (!clang_Cursor_isNull(fn)) {
		id = func_identity(f->t, fn);
		r = json_string(id);
		free(id);
		return r;
	}
	ref = clang_getCursorReferenced(c);
	switch (clang_getCursorKind(c)) {
	case CXCursor_MemberRefExpr:
		id = field_identity(f->t, ref);
		r = json_sprintf("ptr:%s", id);
		free(id);
		return r;
	case CXCursor_DeclRefExpr:
		if (clang_getCursorKind(ref) == CXCursor_ParmDecl)
			return fn_or_target(f, c);
		if (clang_getCursorKind(ref) == CXCursor_VarDecl) {
			id = var_identity(f->t, ref);
			r = json_sprintf("var:%s", id);
			free(id);
			return r;
		}
		break;
	default:
		break;
	}
	return json_string("U:indirect");
}

static bool callee_is_impl(struct xfn *f, CXCursor call)
{
	CXCursor ref = clang_getCursorReferenced(call);
	struct xfile *df = file_loc(f->t, clang_getCursorLocation(ref), NULL,
				    NULL, NULL);

	return !df || df->impl || !df->in_tree;
}

static void walk_call(struct xfn *f, CXCursor c)
{
	struct kids k = { 0 };
	unsigned line, col, off, i;
	struct xfile *fi;
	char written[128], *callee;
	const struct lock_api *api;
	const struct ctx_api *ctx;
	const struct reg_api *reg;
	const struct lock_guard *guard;
	bool by_written;
	json_t *args, *consts, *ev;

	kids_get(c, &k);
	for (i = 1; i < k.n; i++)
		walk(f, k.v[i]);
	fi = file_loc(f->t, clang_getCursorLocation(c), &line, &col, &off);
	ident_at(fi, off, written, sizeof(written));
	callee = callee_name(c);
	api = lock_api_find(written);
	ctx = ctx_api_find(written);
	reg = reg_api_find(written);
	by_written = api || ctx;
	if (!by_written && callee) {
		api = lock_api_find(callee);
		ctx = ctx_api_find(callee);
	}
	if (!reg && callee)
		reg = reg_api_find(callee);
	if (reg && fi && !site_done(f, fi->file, off | 0x80000000u, true))
		emit_reg(f, reg, &k, line);
	if ((api || ctx) && fi) {
		if (by_written && site_done(f, fi->file, off, false))
			goto out;
		if (api) {
			/* the outer call of a macro may not carry the lock */
			if (emit_lock(f, c, api, written, fi, line, col, NULL) &&
			    by_written)
				site_done(f, fi->file, off, true);
			/* cond_resched_lock() -> __cond_resched_lock(): a
			 * function of the tree behind an API macro */
			if (by_written && callee && !lock_api_find(callee) &&
			    !callee_is_impl(f, c))
				goto call;
		} else {
			if (by_written)
				site_done(f, fi->file, off, true);
			emit(f, json_pack("[sisis]", "ctx", line,
					  ctx->kind == CTX_IRQ ? "irq"
							       : "preempt",
					  ctx->delta, by_written ? written
								 : callee));
			f->nevents++;
		}
		goto out;
	}
	if (callee && fi && (guard = lock_guard_find(callee))) {
		walk_guard(f, c, guard, fi, line, col);
		goto out;
	}
	if (callee && is_rwlock_acquire(callee)) {
		emit(f, json_pack("[sis]", "call", line, callee));
		goto out;
	}
	if (callee && callee_is_impl(f, c)) {
		/* lock implementation internals, or a builtin */
		if (calls_noreturn(c))
			emit(f, json_pack("[s]", "noret"));
		goto out;
	}
call:
	ev = json_pack("[sio]", "call", line, callee_of(f, &k));
	args = call_args(f, &k);
	if (args) {
		CXCursor through = callee_expr(&k);

		if (clang_Cursor_isNull(fn_ref(through)))
			record_fnptr_slots(f, clang_getCursorReferenced(through),
					   args);
	}
	consts = call_consts(&k);
	if (args || consts)
		json_array_append_new(ev, args ? args : json_null());
	if (consts)
		json_array_append_new(ev, consts);
	emit(f, ev);
	if (calls_noreturn(c))
		emit(f, json_pack("[s]", "noret"));
	/*
	 * functions passed as arguments, and function pointer variables
	 * ("var": what is stored into them is passed)
	 */
	for (i = 1; i < k.n; i++) {
		CXCursor fn = fn_ref(k.v[i]), e = strip_expr(k.v[i]);
		const char *key = "fn";
		char *id;

		if (!clang_Cursor_isNull(fn)) {
			id = func_identity(f->t, fn);
		} else if (refers_to(e, CXCursor_VarDecl) &&
			   is_fn_ptr_type(clang_getCursorType(e))) {
			id = var_identity(f->t, clang_getCursorReferenced(e));
			key = "var";
		} else {
			continue;
		}
		json_array_append_new(facts_array(f->fi, "fnrefs"),
				      json_pack("{sssssssisiss}", key, id, "how",
						"arg", "callee",
						callee ? callee : "?", "idx",
						i - 1, "line", line, "in",
						f->id ? f->id : "?"));
		free(id);
	}
out:
	free(callee);
	kids_free(&k);
}

/*
 * "*(lock) = __RAW_SPIN_LOCK_UNLOCKED(lock)": an init macro that makes no
 * call (raw_spin_lock_init, spin_lock_init without lockdep).
 */
static bool walk_lock_store(struct xfn *f, CXCursor c, struct kids *k)
{
	unsigned line, col, off;
	struct xfile *fi;
	char written[128];
	const struct lock_api *api;
	struct sb tgt = SB_INIT;

	if (!lock_type_of(clang_getCursorType(k->v[0]), NULL))
		return false;
	fi = file_loc(f->t, clang_getCursorLocation(c), &line, &col, &off);
	api = lock_api_find(ident_at(fi, off, written, sizeof(written)));
	if (!fi || !api || site_done(f, fi->file, off, false))
		return true;
	site_done(f, fi->file, off, true);
	lock_target(f, k->v[0], &tgt);
	emit(f, json_pack("[sissso]", "lock", line, lock_op_name(api->op),
			  written, tgt.buf,
			  json_sprintf("%s:%u:%u", fi->rel, line, col)));
	f->nevents++;
	sb_release(&tgt);
	return true;
}

/* x->fn = handler;  x->lockp = &y->lock;  p = &lock (locals: resolve.c) */
static void walk_assign(struct xfn *f, CXCursor c, struct kids *k)
{
	CXCursor lhs = strip_expr(k->v[0]), fn;
	CXCursor ref = clang_getCursorReferenced(lhs);
	CXType ty = clang_getCursorType(c);
	char *lid = NULL, *obj = NULL;
	unsigned line = use_line(f, c);

	if (clang_getCursorKind(lhs) == CXCursor_MemberRefExpr) {
		struct kids b = { 0 };

		lid = field_identity(f->t, ref);
		kids_get(lhs, &b);
		if (b.n == 1)
			obj = lvalue_identity(f, b.v[0]);
		kids_free(&b);
	} else if (clang_getCursorKind(lhs) == CXCursor_DeclRefExpr &&
		   clang_getCursorKind(ref) == CXCursor_VarDecl &&
		   (clang_getCursorKind(clang_getCursorSemanticParent(ref)) !=
			    CXCursor_FunctionDecl ||
		    is_fn_ptr_type(ty))) {
		/* not a local holding a lock's address: resolve.c's locals */
		lid = var_identity(f->t, ref);
	}
	if (!lid)
		return;
	fn = fn_ref(k->v[1]);
	if (!clang_Cursor_isNull(fn)) {
		char *id = func_identity(f->t, fn);
		json_t *r = json_pack("{sssssssi}", "fn", id, "how", "assign",
				      "field", lid, "line", line);

		if (obj)
			json_object_set_new(r, "obj", json_string(obj));
		if (f->id)
			json_object_set_new(r, "in", json_string(f->id));
		json_array_append_new(facts_array(f->fi, "fnrefs"), r);
		free(id);
	} else if (is_lock_ptr_type(ty)) {
		struct sb t = SB_INIT;

		lock_target(f, k->v[1], &t);
		json_array_append_new(facts_array(f->fi, "ptrs"),
				      json_pack("{sssssi}", "id", lid, "to",
						t.buf, "line", line));
		sb_release(&t);
	}
	free(lid);
	free(obj);
}

/* Designated or positional initialisers of a struct: ops tables. */
struct fields {
	CXCursor *v;
	unsigned n, alloc;
};

static enum CXVisitorResult field_visit(CXCursor c, CXClientData data)
{
	struct fields *fl = data;

	ALLOC_GROW(fl->v, fl->n, fl->alloc);
	fl->v[fl->n++] = c;
	return CXVisit_Continue;
}

/* A static lock initialiser in a macro's body: the one of a field. */
struct init_pos {
	const char *field;
	const char *at;		/* the API name in the body, or NULL */
};

/* Is the text before @p in @d's body ".FIELD =" (blanks allowed)? */
static bool after_designator(const struct xdef *d, const char *p,
			     const char *field)
{
	const char *start = d->file->data + d->offset;
	size_t n = strlen(field);

	while (p > start && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '='))
		p--;
	return (size_t)(p - start) > n && p[-(ptrdiff_t)n - 1] == '.' &&
	       !memcmp(p - n, field, n);
}

/*
 * __SPIN_LOCK_UNLOCKED or __RAW_SPIN_LOCK_UNLOCKED in @d's body: the one
 * after ".FIELD =" if there are several.
 */
static bool body_has_init(const struct xdef *d, void *ctx)
{
	static const char *const apis[] = { "__SPIN_LOCK_UNLOCKED",
					     "__RAW_SPIN_LOCK_UNLOCKED", NULL };
	struct init_pos *ip = ctx;
	const char *data = d->file->data, *p = data + d->offset;
	const char *end = data + d->end;
	size_t len;
	unsigned i;

	ip->at = NULL;
	for (; (p = next_ident(data, p, end, &len)); p += len)
		for (i = 0; apis[i]; i++)
			if (len == strlen(apis[i]) && !memcmp(p, apis[i], len) &&
			    (!ip->at || after_designator(d, p, ip->field)))
				ip->at = p;
	return ip->at != NULL;
}

/* .lock = __SPIN_LOCK_UNLOCKED(x.lock) in a static initialiser */
static void static_init(struct xfn *f, CXCursor field, CXCursor val,
			const char *obj)
{
	unsigned line, col, off;
	struct xfile *fi = file_loc(f->t, clang_getCursorLocation(val), &line,
				    &col, &off);
	char written[128], *id, *at;
	const struct lock_api *api;

	api = lock_api_find(ident_at(fi, off, written, sizeof(written)));
	if (fi && !api && written[0]) {
		/*
		 * a macro that expands to the initialiser: DECLARE_WAIT_QUEUE_HEAD()
		 * -> __WAIT_QUEUE_HEAD_INITIALIZER() -> __SPIN_LOCK_UNLOCKED()
		 */
		CXString fs = clang_getCursorSpelling(field);
		struct init_pos ip = { clang_getCString(fs), NULL };
		const struct xdef *d =
			macro_search(f->t, written, body_has_init, &ip, 0);

		fi = d ? d->file : NULL;
		if (d) {
			snprintf(written, sizeof(written), "%.*s",
				 (int)strcspn(ip.at, "( \t"), ip.at);
			offset_linecol(d->file, ip.at - d->file->data, &line,
				       &col);
		}
		clang_disposeString(fs);
		api = lock_api_find(written);
	}
	if (!fi || !api)
		return;
	id = field_identity(f->t, field);
	at = xasprintf("%s:%u:%u", fi->rel, line, col);
	json_array_append_new(facts_array(f->fi, "statics"),
			      json_pack("{sssssssssi}", "api", written, "lock",
					id, "obj", obj ? obj : "?", "at", at,
					"line", line));
	free(at);
	free(id);
}

static void init_value(struct xfn *f, CXCursor field, CXCursor val,
		       const char *obj)
{
	CXCursor fn = fn_ref(val);
	char *lid;
	unsigned line = use_line(f, val);

	val = strip_expr(val);
	if (clang_getCursorKind(val) == CXCursor_InitListExpr) {
		walk_init(f, val, obj);
		return;
	}
	if (clang_Cursor_isNull(field))
		return;
	if (lock_type_of(clang_getCursorType(field), NULL)) {
		static_init(f, field, val, obj);
		return;
	}
	if (!clang_Cursor_isNull(fn)) {
		char *id = func_identity(f->t, fn);

		json_t *r;

		lid = field_identity(f->t, field);
		r = json_pack("{sssssssssi}", "fn", id, "how", "init", "field",
			      lid, "obj", obj ? obj : "?", "line", line);
		/* IRQ_WORK_INIT_HARD(fn): the macro says what kind */
		if (f->init_macro[0])
			json_object_set_new(r, "macro",
					    json_string(f->init_macro));
		json_array_append_new(facts_array(f->fi, "fnrefs"), r);
		free(id);
		free(lid);
	} else if (is_lock_ptr_type(clang_getCursorType(field))) {
		struct sb t = SB_INIT;

		lid = field_identity(f->t, field);
		lock_target(f, val, &t);
		json_array_append_new(facts_array(f->fi, "ptrs"),
				      json_pack("{sssssi}", "id", lid, "to",
						t.buf, "line", line));
		sb_release(&t);
		free(lid);
	} else {
		walk(f, val);
	}
}

void walk_init(struct xfn *f, CXCursor list, const char *obj)
{
	struct kids k = { 0 };
	struct fields fl = { 0 };
	CXType ty = clang_getCanonicalType(clang_getCursorType(list));
	unsigned i, pos = 0;

	char saved[sizeof(f->init_macro)];
	CXSourceLocation loc = clang_getCursorLocation(list);

	memcpy(saved, f->init_macro, sizeof(saved));
	if (is_macro_loc(f->t, loc)) {
		unsigned off;
		struct xfile *fi = file_loc(f->t, loc, NULL, NULL, &off);

		ident_at(fi, off, f->init_macro, sizeof(f->init_macro));
	}
	if (ty.kind == CXType_Record)
		clang_Type_visitFields(ty, field_visit, &fl);
	kids_get(list, &k);
	for (i = 0; i < k.n; i++) {
		CXCursor e = k.v[i], field = clang_getNullCursor();
		struct kids d = { 0 };

		kids_get(e, &d);
		if (clang_getCursorKind(e) == CXCursor_UnexposedExpr &&
		    d.n >= 2 &&
		    clang_getCursorKind(d.v[0]) == CXCursor_MemberRef) {
			/* .a.b = value: the last designator names the field */
			unsigned j;

			for (j = 0; j + 1 < d.n; j++)
				if (clang_getCursorKind(d.v[j]) ==
				    CXCursor_MemberRef)
					field = clang_getCursorReferenced(
						d.v[j]);
			init_value(f, field, d.v[d.n - 1], obj);
			for (j = 0; j < fl.n; j++)
				if (clang_equalCursors(fl.v[j], field))
					pos = j + 1;
		} else if (clang_getCursorKind(e) == CXCursor_UnexposedExpr &&
			   d.n >= 2) {
			/* [idx] = value in an array */
			init_value(f, clang_getNullCursor(), d.v[d.n - 1], obj);
		} else {
			if (pos < fl.n)
				field = fl.v[pos];
			pos++;
			init_value(f, field, e, obj);
		}
		kids_free(&d);
	}
	memcpy(f->init_macro, saved, sizeof(saved));
	free(fl.v);
	kids_free(&k);
}

static void walk_kids(struct xfn *f, struct kids *k, unsigned from,
		      unsigned to)
{
	unsigned i;

	for (i = from; i < to && i < k->n; i++)
		walk(f, k->v[i]);
}

/* A type's canonical spelling without its qualifiers, as _Generic compares. */
static char *unqualified(CXType t)
{
	char *s = cxstr(clang_getTypeSpelling(clang_getCanonicalType(t)));
	char *p = s;

	for (;;) {
		if (!strncmp(p, "const ", 6))
			p += 6;
		else if (!strncmp(p, "volatile ", 9))
			p += 9;
		else
			break;
	}
	memmove(s, p, strlen(p) + 1);
	return s;
}

/*
 * The association of _Generic(x, T1: __f1((void *)p), T2: __f2(...), ...)
 * that x's type selects, read from the callees' first parameters, as
 * seqlock.h's __seqprop() writes it (one call for every lock type, one of
 * them made); a null cursor when not exactly one association is a call
 * whose first parameter points to x's type.  libclang does not say which
 * association was selected, nor show the association types.
 */
static CXCursor generic_selected(struct kids *k)
{
	CXCursor sel = clang_getNullCursor(), fn;
	char *want, *have;
	unsigned i, matches = 0;
	CXType t;

	if (k->n < 3)
		return sel;
	want = unqualified(clang_getCursorType(k->v[0]));
	for (i = 1; i < k->n; i++) {
		if (clang_getCursorKind(k->v[i]) != CXCursor_CallExpr)
			continue;
		fn = clang_getCursorReferenced(k->v[i]);
		if (clang_getCursorKind(fn) != CXCursor_FunctionDecl ||
		    clang_Cursor_getNumArguments(fn) < 1)
			continue;
		t = clang_getCursorType(clang_Cursor_getArgument(fn, 0));
		if (t.kind != CXType_Pointer)
			continue;
		have = unqualified(clang_getPointeeType(t));
		if (!strcmp(want, have))
			sel = k->v[i], matches++;
		free(have);
	}
	free(want);
	return matches == 1 ? sel : clang_getNullCursor();
}

static char *label_name(CXCursor c)
{
	CXString s = clang_getCursorSpelling(c);
	char *n = xstrdup(clang_getCString(s));

	clang_disposeString(s);
	return n;
}

static void walk_branch(struct xfn *f, const char *kind, CXCursor a, CXCursor b)
{
	json_t *ba = clang_Cursor_isNull(a) ? json_array() : block_of(f, a);
	json_t *bb = clang_Cursor_isNull(b) ? json_array() : block_of(f, b);

	if (!json_array_size(ba) && !json_array_size(bb)) {
		json_decref(ba);
		json_decref(bb);
		return;
	}
	if (!strcmp(kind, "if"))
		emit(f, json_pack("[soo]", kind, ba, bb));
	else
		emit(f, json_pack("[so]", kind, ba)), json_decref(bb);
}

/* The index of the parameter of @f that @e (casts aside) reads, or -1. */
static int param_read(struct xfn *f, CXCursor e)
{
	CXCursor d;
	int i, n;

	if (!refers_to(e, CXCursor_ParmDecl) ||
	    clang_getCursorKind(f->cur) != CXCursor_FunctionDecl)
		return -1;
	d = clang_getCursorReferenced(strip_expr(e));
	n = clang_Cursor_getNumArguments(f->cur);
	for (i = 0; i < n; i++)
		if (clang_equalCursors(clang_Cursor_getArgument(f->cur, i), d))
			return i;
	return -1;
}

/*
 * A condition that reads an integer parameter, `if (fast)` or `if (!fast)`
 * (written so, not in a macro): the parameter's index, with *neg set for
 * the negation; else -1.  The classifier prunes the branch a caller's
 * constant argument rules out: amd_pstate_update_freq(policy, f, true)
 * does not run its `if (!fast_switch)` transition.
 */
static int param_guard(struct xfn *f, CXCursor cond, bool *neg)
{
	CXSourceLocation loc = clang_getCursorLocation(cond);
	CXType ty = clang_getCanonicalType(clang_getCursorType(cond));
	struct kids k = { 0 };
	unsigned off;
	struct xfile *fi;
	int n = -1;

	if (is_macro_loc(f->t, loc) ||
	    !(fi = file_loc(f->t, loc, NULL, NULL, &off)) || off >= fi->len)
		return -1;
	cond = strip_expr(cond);
	*neg = clang_getCursorKind(cond) == CXCursor_UnaryOperator;
	if (*neg) {
		if (fi->data[off] != '!')
			return -1;
		kids_get(cond, &k);
		if (k.n == 1)
			n = param_read(f, k.v[0]);
		kids_free(&k);
	} else if (ty.kind >= CXType_Bool && ty.kind <= CXType_LongLong) {
		n = param_read(f, cond);
	}
	return n;
}

/* An if whose condition is a parameter: ["if", [nonzero], [zero], n]. */
static bool walk_param_if(struct xfn *f, CXCursor cond, CXCursor yes,
			  CXCursor no)
{
	bool neg;
	int n = param_guard(f, cond, &neg);
	json_t *ba, *bb;

	if (n < 0)
		return false;
	ba = clang_Cursor_isNull(yes) ? json_array() : block_of(f, yes);
	bb = clang_Cursor_isNull(no) ? json_array() : block_of(f, no);
	if (!json_array_size(ba) && !json_array_size(bb)) {
		json_decref(ba);
		json_decref(bb);
		return true;
	}
	emit(f, json_pack("[sooi]", "if", neg ? bb : ba, neg ? ba : bb, n));
	return true;
}

/*
 * for (;;) and while (1): the loop is left only by break (or return, goto),
 * never by its condition.  Read from the text, which says it plainly.
 */
static bool loop_is_forever(struct xfn *f, CXCursor c)
{
	static const char *const forms[] = { "for(;;)", "while(1)",
					     "while(true)", NULL };
	unsigned off, i, n = 0;
	struct xfile *fi = file_loc(f->t, clang_getCursorLocation(c), NULL,
				    NULL, &off);
	char head[16];

	if (!fi || is_macro_loc(f->t, clang_getCursorLocation(c)))
		return false;
	for (i = off; i < fi->len && n < sizeof(head) - 1; i++) {
		if (fi->data[i] == ' ' || fi->data[i] == '\t' ||
		    fi->data[i] == '\n')
			continue;
		head[n++] = fi->data[i];
		if (fi->data[i] == ')')
			break;
	}
	head[n] = '\0';
	for (i = 0; forms[i]; i++)
		if (!strcmp(head, forms[i]))
			return true;
	return false;
}

/*
 * 1 or 0 when @cond is an integer constant expression, else -1.  What
 * the configuration turns off is dead code the compiler drops:
 * `if (!IS_ENABLED(CONFIG_PREEMPT_RT)) return seq;` leaves seqlock.h's
 * PREEMPT_RT-only acquisition unreachable.  __builtin_constant_p() of a
 * variable is not constant here, so both of its branches stay.
 */
static int const_truth(CXCursor cond)
{
	CXEvalResult r = clang_Cursor_Evaluate(cond);
	int truth = -1;

	if (r) {
		if (clang_EvalResult_getKind(r) == CXEval_Int)
			truth = clang_EvalResult_getAsLongLong(r) != 0;
		clang_EvalResult_dispose(r);
	}
	return truth;
}

/*
 * The truth PREEMPT_RT gives a condition whose text names
 * CONFIG_PREEMPT_RT: 1 or 0 for IS_ENABLED() of it and
 * its negation, -1 (both branches) for anything else that names it; -2
 * when it does not name it.  The verdicts are for PREEMPT_RT, whatever
 * configuration was parsed: irq_work_tick() runs the lazy irq_work list
 * only if (!IS_ENABLED(CONFIG_PREEMPT_RT)).
 */
static int rt_truth(struct xfn *f, CXCursor cond)
{
	static const char *const on[] = {
		"IS_ENABLED(CONFIG_PREEMPT_RT)", "IS_BUILTIN(CONFIG_PREEMPT_RT)",
	};
	CXSourceLocation start = clang_getRangeStart(clang_getCursorExtent(cond));
	unsigned b, n = 0, i;
	struct xfile *fb = file_loc(f->t, start, NULL, NULL, &b);
	char text[128];
	int depth = 0;

	if (!fb)
		return -2;
	/*
	 * the text where it is written (a macro's invocation), up to the if's
	 * ")" or the ?:'s "?"
	 */
	for (i = b; i < fb->len; i++) {
		char ch = fb->data[i];

		depth += (ch == '(') - (ch == ')');
		if (depth < 0 || (!depth && (ch == '?' || ch == ';')))
			break;
		if (ch == ' ' || ch == '\t' || ch == '\n')
			continue;
		if (n == sizeof(text) - 1)
			break;
		text[n++] = ch;
	}
	text[n] = '\0';
	if (n == sizeof(text) - 1)
		return strstr(text, "CONFIG_PREEMPT_RT") ? -1 : -2;
	if (!strstr(text, "CONFIG_PREEMPT_RT"))
		return -2;
	for (i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
		if (!strcmp(text, on[i]))
			return 1;
		if (text[0] == '!' && !strcmp(text + 1, on[i]))
			return 0;
	}
	return -1;
}

/* if and ?: whose condition is constant: only the branch taken. */
static bool walk_const_branch(struct xfn *f, struct kids *k, CXCursor yes,
			      CXCursor no)
{
	int truth = rt_truth(f, k->v[0]);

	if (truth == -2)
		truth = const_truth(k->v[0]);

	if (truth < 0)
		return false;
	if (truth && !clang_Cursor_isNull(yes))
		walk(f, yes);
	else if (!truth && !clang_Cursor_isNull(no))
		walk(f, no);
	return true;
}

void walk(struct xfn *f, CXCursor c)
{
	struct kids k = { 0 };
	CXCursor null = clang_getNullCursor();
	unsigned n_guard;
	char *n;

	kids_get(c, &k);
	switch (clang_getCursorKind(c)) {
	case CXCursor_CallExpr:
		kids_free(&k);
		walk_call(f, c);
		return;
	case CXCursor_IfStmt:
		/* cond, then [, else] */
		if (k.n >= 2) {
			CXCursor no = k.n > 2 ? k.v[2] : null;

			walk(f, k.v[0]);
			if (!walk_const_branch(f, &k, k.v[1], no) &&
			    !walk_param_if(f, k.v[0], k.v[1], no))
				walk_branch(f, "if", k.v[1], no);
		}
		break;
	case CXCursor_ConditionalOperator:
		if (k.n >= 2) {
			CXCursor yes = k.n == 3 ? k.v[1] : null;

			walk(f, k.v[0]);
			if (!walk_const_branch(f, &k, yes, k.v[k.n - 1]) &&
			    !walk_param_if(f, k.v[0], yes, k.v[k.n - 1]))
				walk_branch(f, "if", yes, k.v[k.n - 1]);
		}
		break;
	case CXCursor_WhileStmt:
	case CXCursor_ForStmt:
		/*
		 * The parts before the body (for's init, condition and step,
		 * while's condition; absent ones are not among the kids) run
		 * once before it: while (!raw_spin_trylock(&l)) cpu_relax();
		 * A guard for's init declares (scoped_guard()) is held in it.
		 */
		if (k.n) {
			unsigned depth = f->nguards;

			walk_kids(f, &k, 0, k.n - 1);
			walk_branch(f, loop_is_forever(f, c) ? "forever" : "loop",
				    k.v[k.n - 1], null);
			guards_end(f, depth, c);
		}
		break;
	case CXCursor_CompoundStmt: {
		unsigned depth = f->nguards;

		walk_kids(f, &k, 0, k.n);
		guards_end(f, depth, c);
		break;
	}
	case CXCursor_DoStmt:
		/* runs at least once: do { lock } while (0) in macros */
		if (k.n) {
			walk_branch(f, "do", k.v[0], null);
			walk_kids(f, &k, 1, k.n);
		}
		break;
	case CXCursor_SwitchStmt:
		if (k.n) {
			walk_kids(f, &k, 0, k.n - 1);
			walk_branch(f, "switch", k.v[k.n - 1], null);
		}
		break;
	case CXCursor_GenericSelectionExpr: {
		CXCursor sel = generic_selected(&k);

		if (clang_Cursor_isNull(sel))
			walk_kids(f, &k, 1, k.n);
		else
			walk(f, sel);
		break;
	}
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
		emit(f, json_pack("[s]", "case"));
		if (k.n)
			walk(f, k.v[k.n - 1]);
		break;
	case CXCursor_LabelStmt:
		n = label_name(c);
		emit(f, json_pack("[ss]", "label", n));
		free(n);
		walk_kids(f, &k, 0, k.n);
		break;
	case CXCursor_GotoStmt:
		n = label_name(clang_getCursorReferenced(c));
		emit(f, json_pack("[ss]", "goto", n));
		free(n);
		break;
	case CXCursor_ReturnStmt:
		walk_kids(f, &k, 0, k.n);
		if (k.n && is_lock_ptr_type(clang_getCursorType(k.v[0])) &&
		    !is_null_const(k.v[0]))
			lock_target(f, k.v[0], &f->ret);
		for (n_guard = f->nguards; n_guard--;)
			emit_guard_release(f, &f->guards[n_guard], use_line(f, c));
		emit(f, json_pack("[s]", "ret"));
		break;
	case CXCursor_BreakStmt:
		emit(f, json_pack("[s]", "break"));
		break;
	case CXCursor_ContinueStmt:
		emit(f, json_pack("[s]", "cont"));
		break;
	case CXCursor_BinaryOperator:
		walk_kids(f, &k, 0, k.n);
		if (k.n == 2 && !walk_lock_store(f, c, &k))
			walk_assign(f, c, &k);
		break;
	case CXCursor_VarDecl:
		if (lock_type_of(clang_getCursorType(c), NULL) && f->id)
			record_var(f->t, f->fi, c); /* a local lock */
		if (k.n && !clang_Cursor_isNull(init_list_of(k.v[k.n - 1]))) {
			char *obj = var_identity(f->t, c);

			walk_init(f, init_list_of(k.v[k.n - 1]), obj);
			free(obj);
		} else {
			walk_kids(f, &k, 0, k.n);
		}
		break;
	case CXCursor_InitListExpr:
		walk_init(f, c, NULL);
		break;
	case CXCursor_TypeRef:
	case CXCursor_DeclRefExpr:
	case CXCursor_IntegerLiteral:
	case CXCursor_StringLiteral:
		break;
	default:
		walk_kids(f, &k, 0, k.n);
		break;
	}
	kids_free(&k);
}
