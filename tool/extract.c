// SPDX-License-Identifier: GPL-2.0
/*
 * The libclang driver: parse one TU, walk its top-level declarations and
 * record the facts of the main file and of the headers this TU claims.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "extract_int.h"
#include "hash.h"

static const char *const fn_markers[] = {
	"noinstr",   "__irq_entry",   "notrace",	"__init",
	"__cpuidle", "__kprobes",     "__sched",	"asmlinkage",
	"__visible", "__softirq_entry", "nokprobe_inline", "__always_inline",
	"__exception_irq_entry", "__noinstr_section", "__ref",
	/* the return type of an interrupt handler (rules/irqsoff.c) */
	"irqreturn_t", NULL,
};

void kids_get(CXCursor c, struct kids *k);

static enum CXChildVisitResult kids_visit(CXCursor c, CXCursor parent,
					  CXClientData data)
{
	struct kids *k = data;

	(void)parent;
	ALLOC_GROW(k->v, k->n, k->alloc);
	k->v[k->n++] = c;
	return CXChildVisit_Continue;
}

void kids_get(CXCursor c, struct kids *k)
{
	k->n = 0;
	clang_visitChildren(c, kids_visit, k);
}

void kids_free(struct kids *k)
{
	free(k->v);
	k->v = NULL;
	k->n = k->alloc = 0;
}

/* The initialiser list of "= { ... }" or "= (struct x){ ... }". */
CXCursor init_list_of(CXCursor e)
{
	struct kids k = { 0 };

	e = strip_expr(e);
	if (clang_getCursorKind(e) == CXCursor_CompoundLiteralExpr) {
		kids_get(e, &k);
		e = k.n ? k.v[k.n - 1] : clang_getNullCursor();
		kids_free(&k);
	}
	return clang_getCursorKind(e) == CXCursor_InitListExpr
		       ? e
		       : clang_getNullCursor();
}

CXCursor strip_expr(CXCursor c)
{
	for (;;) {
		enum CXCursorKind kind = clang_getCursorKind(c);
		struct kids k = { 0 };

		if (kind != CXCursor_UnexposedExpr && kind != CXCursor_ParenExpr &&
		    kind != CXCursor_CStyleCastExpr)
			return c;
		kids_get(c, &k);
		if (!k.n || (kind == CXCursor_UnexposedExpr && k.n != 1)) {
			kids_free(&k);
			return c;
		}
		c = k.v[k.n - 1];
		kids_free(&k);
	}
}

void header_key(const char *salt, const char *rel, const char *content_hash,
		char out[33])
{
	struct hasher h;

	hasher_init(&h);
	hasher_adds(&h, "rtlock-header-facts");
	hasher_adds(&h, salt ? salt : "");
	hasher_adds(&h, rel);
	hasher_adds(&h, content_hash);
	hasher_final(&h, out);
}

char *header_facts_path(const char *hdr_dir, const char *key)
{
	return xasprintf("%s/%.2s/%s.json", hdr_dir, key, key + 2);
}

static char *hdr_path(const struct extract_opts *o, const char *key)
{
	return header_facts_path(o->hdr_dir, key);
}

/*
 * Does this TU record the facts of header @fi?  Yes when no TU has
 * (their key is the header's path and content); always, as part of the
 * TU's own facts, when it has no include guard: what it holds then
 * depends on its includer (a trace header under CREATE_TRACE_POINTS).
 */
static void claim_header(struct xtu *t, struct xfile *fi)
{
	char *p, h[HASH_HEX];

	if (!clang_isFileMultipleIncludeGuarded(t->tu, fi->file)) {
		fi->inlined = fi->record = true;
		return;
	}
	hash_buf(fi->data, fi->len, h);
	header_key(t->o->salt, fi->rel, h, fi->key);
	p = hdr_path(t->o, fi->key);
	fi->record = access(p, F_OK) != 0;
	free(p);
}

struct xfile *xfile_of(struct xtu *t, CXFile f)
{
	struct xfile *fi;
	CXString name;
	const char *rel;

	if (!f)
		return NULL;
	HASH_FIND_PTR(t->files, &f, fi);
	if (fi)
		return fi;
	fi = xcalloc(1, sizeof(*fi));
	fi->file = f;
	name = clang_getFileName(f);
	fi->data = fi->own_data = read_file(clang_getCString(name), &fi->len);
	if (!fi->data)
		fi->data = clang_getFileContents(t->tu, f, &fi->len);
	if (!fi->data)
		fi->data = "", fi->len = 0;
	{
		char *abs = realpath(clang_getCString(name), NULL);
		const char *p = abs ? abs : clang_getCString(name);

		rel = rel_to(t->o->root, t->rootlen, p);
		fi->in_tree = rel != NULL;
		fi->rel = xstrdup(rel ? rel : p);
		free(abs);
	}
	clang_disposeString(name);
	fi->impl = fi->in_tree && is_lock_impl_file(fi->rel);
	/* the first file is the main one, set up by extract_tu() */
	if (t->main && fi->in_tree && !fi->impl && t->o->hdr_dir)
		claim_header(t, fi);
	if (fi->record)
		fi->facts = json_pack("{ss}", "file", fi->rel);
	HASH_ADD_PTR(t->files, file, fi);
	return fi;
}

struct xfile *file_loc(struct xtu *t, CXSourceLocation loc, unsigned *line,
		       unsigned *col, unsigned *off)
{
	CXFile f = NULL;
	unsigned l = 0, c = 0, o = 0;

	clang_getFileLocation(loc, &f, &l, &c, &o);
	if (line)
		*line = l;
	if (col)
		*col = c;
	if (off)
		*off = o;
	return xfile_of(t, f);
}

const char *ident_at(struct xfile *fi, unsigned off, char *buf, size_t size)
{
	size_t n = 0;

	if (fi)
		while (off + n < fi->len && n + 1 < size &&
		       ident_char(fi->data[off + n]))
			n++;
	if (n)
		memcpy(buf, fi->data + off, n);
	buf[n] = '\0';
	return buf;
}

char *cxstr(CXString s)
{
	char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");

	clang_disposeString(s);
	return r;
}

bool is_macro_loc(struct xtu *t, CXSourceLocation loc)
{
	CXFile f = NULL;
	unsigned off = 0;

	clang_getFileLocation(loc, &f, NULL, NULL, &off);
	if (!f)
		return true;
	return !clang_equalLocations(loc,
				     clang_getLocationForOffset(t->tu, f, off));
}

json_t *facts_array(struct xfile *fi, const char *key)
{
	json_t *a;

	if (!fi->facts)
		fi->facts = json_pack("{ss}", "file", fi->rel);
	a = json_object_get(fi->facts, key);
	if (!a) {
		a = json_array();
		json_object_set_new(fi->facts, key, a);
	}
	return a;
}

struct macro_index {
	struct xfile *files;	/* read from disk, data owned */
	unsigned nfiles;
	struct xdef *defs;
};

/* Index "#define NAME" of @fi into @defs; the first definition wins. */
static void scan_defines(struct xdef **defs, struct xfile *fi)
{
	const char *p = fi->data, *end = fi->data + fi->len;

	while (p < end) {
		const char *line = p, *q, *name;
		struct xdef *d;

		p = memchr(p, '\n', end - p);
		p = p ? p + 1 : end;
		for (q = line; q < p && (*q == ' ' || *q == '\t'); q++)
			;
		if (q >= p || *q != '#')
			continue;
		for (q++; q < p && (*q == ' ' || *q == '\t'); q++)
			;
		if (p - q < 7 || strncmp(q, "define", 6) ||
		    (q[6] != ' ' && q[6] != '\t'))
			continue;
		for (q += 6; q < p && (*q == ' ' || *q == '\t'); q++)
			;
		for (name = q; q < p && ident_char(*q); q++)
			;
		if (q == name)
			continue;
		d = xcalloc(1, sizeof(*d));
		d->name = xstrndup(name, q - name);
		d->file = fi;
		d->offset = q - fi->data;
		/* the body runs to the first newline not escaped by '\' */
		while (p < end && p - 2 >= fi->data && p[-2] == '\\') {
			const char *nl = memchr(p, '\n', end - p);

			p = nl ? nl + 1 : end;
		}
		d->end = p - fi->data;
		{
			struct xdef *old;

			HASH_FIND_STR(*defs, d->name, old);
			if (old) {
				free(d->name);
				free(d);
				continue;
			}
		}
		HASH_ADD_KEYPTR(hh, *defs, d->name, strlen(d->name), d);
	}
}

static void incl_visit(CXFile f, CXSourceLocation *stack, unsigned len,
		       CXClientData data)
{
	(void)stack;
	(void)len;
	xfile_of(data, f);
}

const struct xdef *find_macro(struct xtu *t, const char *name)
{
	struct xdef *d;

	if (!t->defs_loaded) {
		struct xfile *fi, *tmp;

		t->defs_loaded = true;
		clang_getInclusions(t->tu, incl_visit, t);
		HASH_ITER(hh, t->files, fi, tmp)
			scan_defines(&t->defs, fi);
	}
	HASH_FIND_STR(t->defs, name, d);
	if (!d && t->o->pch_macros)
		HASH_FIND_STR(t->o->pch_macros->defs, name, d);
	return d;
}

struct macro_index *macro_index_read(const char *root,
				     const char *const *files, unsigned n)
{
	struct macro_index *mi = xcalloc(1, sizeof(*mi));
	unsigned i;

	mi->files = xcalloc(n + 1, sizeof(*mi->files));
	for (i = 0; i < n; i++) {
		struct xfile *fi = &mi->files[mi->nfiles];
		const char *rel;
		size_t len;
		char *data;

		if (!has_suffix(files[i], ".h") ||
		    !(data = read_file(files[i], &len)))
			continue;
		fi->data = data;
		fi->len = len;
		rel = rel_to(root, strlen(root), files[i]);
		fi->in_tree = rel != NULL;
		fi->rel = xstrdup(rel ? rel : files[i]);
		scan_defines(&mi->defs, fi);
		mi->nfiles++;
	}
	return mi;
}

void macro_index_free(struct macro_index *mi)
{
	struct xdef *d, *dt;
	unsigned i;

	if (!mi)
		return;
	HASH_ITER(hh, mi->defs, d, dt) {
		HASH_DEL(mi->defs, d);
		free(d->name);
		free(d);
	}
	for (i = 0; i < mi->nfiles; i++) {
		free((char *)mi->files[i].data);
		free(mi->files[i].rel);
	}
	free(mi->files);
	free(mi);
}

void offset_linecol(const struct xfile *fi, size_t off, unsigned *line,
		    unsigned *col)
{
	const char *q;

	*line = 1;
	*col = 1;
	for (q = fi->data; q < fi->data + off; q++) {
		if (*q == '\n')
			++*line, *col = 1;
		else
			++*col;
	}
}

bool macro_word_pos(const struct xdef *d, const char *word, unsigned *line,
		    unsigned *col)
{
	const char *data = d->file->data, *end = data + d->end, *p;
	size_t n = strlen(word);

	for (p = data + d->offset; (p = memmem(p, end - p, word, n)); p += n) {
		if (p + n < end && ident_char(p[n]))
			continue;
		if (p > data && ident_char(p[-1]))
			continue;
		offset_linecol(d->file, p - data, line, col);
		return true;
	}
	return false;
}

/* Words before a function's name: noinstr, __irq_entry, ... */
static json_t *fn_attrs(struct xtu *t, CXCursor c, char **macro)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXSourceLocation start = clang_getRangeStart(r);
	unsigned b, e, i;
	struct xfile *fb = file_loc(t, start, NULL, NULL, &b);
	struct xfile *fe = file_loc(t, clang_getCursorLocation(c), NULL, NULL, &e);
	json_t *attrs = json_array();
	char word[64];

	*macro = NULL;
	if (is_macro_loc(t, start)) {
		ident_at(fb, b, word, sizeof(word));
		if (*word)
			*macro = xstrdup(word);
	}
	if (!fb || fb != fe || e <= b || e - b > 400)
		return attrs;
	while (b < e) {
		ident_at(fb, b, word, sizeof(word));
		if (!*word) {
			b++;
			continue;
		}
		for (i = 0; fn_markers[i]; i++)
			if (!strcmp(word, fn_markers[i]))
				json_array_append_new(attrs, json_string(word));
		b += strlen(word);
	}
	return attrs;
}

/* Does a label follow event @i of block @ir (a goto may reach there)? */
static bool label_after(json_t *ir, size_t i)
{
	json_t *ev;

	for (i++; (ev = json_array_get(ir, i)); i++)
		if (!strcmp(json_string_value(json_array_get(ev, 0)), "label"))
			return true;
	return false;
}

/*
 * Keep only the calls of a function that has no lock or context event, and
 * the ifs on a parameter around them; none after a return or a call that
 * does not return, unless a label follows.
 */
static void flatten_calls(json_t *ir, json_t *out)
{
	size_t i;
	json_t *ev;

	json_array_foreach(ir, i, ev) {
		const char *op = json_string_value(json_array_get(ev, 0));
		size_t j;
		json_t *sub;

		if ((!strcmp(op, "ret") || !strcmp(op, "noret")) &&
		    !label_after(ir, i))
			break;
		if (!strcmp(op, "call")) {
			json_array_append(out, ev);
			continue;
		}
		/* an if on a parameter keeps its branches (body.c) */
		if (!strcmp(op, "if") && json_array_size(ev) == 4) {
			json_t *a = json_array(), *b = json_array();

			flatten_calls(json_array_get(ev, 1), a);
			flatten_calls(json_array_get(ev, 2), b);
			if (json_array_size(a) || json_array_size(b))
				json_array_append_new(out, json_pack("[sooO]", "if", a, b,
								     json_array_get(ev, 3)));
			else
				json_decref(a), json_decref(b);
			continue;
		}
		json_array_foreach(ev, j, sub)
			if (json_is_array(sub))
				flatten_calls(sub, out);
	}
}

/* {"n": targets}: what the function stores through parameter n */
static json_t *outs_json(const struct xfn *f)
{
	json_t *o = json_object();
	char key[16];
	unsigned i;

	for (i = 0; i < f->nouts; i++) {
		snprintf(key, sizeof(key), "%d", f->outs[i].param);
		json_object_set_new(o, key, json_string(f->outs[i].targets.buf));
	}
	return o;
}

static void record_function(struct xtu *t, struct xfile *fi, CXCursor c)
{
	struct xfn f = { 0 };
	struct kids k = { 0 };
	unsigned line;
	char *macro, *id;
	json_t *fn, *attrs;
	CXString name;

	kids_get(c, &k);
	if (!k.n || clang_getCursorKind(k.v[k.n - 1]) != CXCursor_CompoundStmt)
		goto out;
	f.t = t;
	f.fi = fi;
	f.cur = c;
	f.id = id = func_identity(t, c);
	collect_locals(&f, k.v[k.n - 1]);
	record_local_slots(&f);
	f.ir = json_array();
	walk(&f, k.v[k.n - 1]);
	if (!f.nevents) {
		json_t *calls = json_array();

		flatten_calls(f.ir, calls);
		json_decref(f.ir);
		f.ir = calls;
	}
	if (!fi->is_main && !json_array_size(f.ir) && !f.ret.len && !f.nouts) {
		json_decref(f.ir);
		goto done;
	}
	file_loc(t, clang_getCursorLocation(c), &line, NULL, NULL);
	name = clang_getCursorSpelling(c);
	attrs = fn_attrs(t, c, &macro);
	fn = json_pack("{sssssiso}", "id", id, "name", clang_getCString(name),
		       "line", line, "ir", f.ir);
	clang_disposeString(name);
	if (clang_getCursorLinkage(c) != CXLinkage_External)
		json_object_set_new(fn, "static", json_true());
	if (json_array_size(attrs))
		json_object_set(fn, "attrs", attrs);
	json_decref(attrs);
	if (macro)
		json_object_set_new(fn, "macro", json_string(macro));
	free(macro);
	if (f.ret.len)
		json_object_set_new(fn, "ret", json_string(f.ret.buf));
	if (f.nouts)
		json_object_set_new(fn, "outs", outs_json(&f));
	json_array_append_new(facts_array(fi, "funcs"), fn);
done:
	for (line = 0; line < f.nlocals; line++) {
		sb_release(&f.locals[line].targets);
		sb_release(&f.locals[line].stored);
	}
	free(f.locals);
	for (line = 0; line < f.nouts; line++)
		sb_release(&f.outs[line].targets);
	free(f.outs);
	free(f.done_sites);
	free(f.done_files);
	/* guards_end() emptied the stack; a walk cut short may not have */
	while (f.nguards--) {
		free(f.guards[f.nguards].target);
		free(f.guards[f.nguards].at);
	}
	free(f.guards);
	sb_release(&f.ret);
	free(id);
out:
	kids_free(&k);
}

static void record_lock(struct xtu *t, struct xfile *fi, CXCursor c,
			enum lock_type lt, bool array, const char *kind,
			char *id)
{
	unsigned line, b, e;
	struct xfile *fb = file_loc(t, clang_getRangeStart(clang_getCursorExtent(c)),
				    NULL, NULL, &b);
	json_t *l;

	file_loc(t, clang_getCursorLocation(c), &line, NULL, &e);
	l = json_pack("{sssssssi}", "id", id, "type", lock_type_name(lt),
		      "kind", kind, "line", line);
	if (array)
		json_object_set_new(l, "array", json_true());
	if (fb == fi && e > b && e - b < 200) {
		const char *s = fi->data + b, *end = fi->data + e;

		if (memmem(s, end - s, "PER_CPU", 7))
			json_object_set_new(l, "kind", json_string("percpu"));
		if (memmem(s, end - s, "DEFINE_SPINLOCK", 15) ||
		    memmem(s, end - s, "DEFINE_RAW_SPINLOCK", 19))
			json_object_set_new(l, "def", json_true());
	}
	json_array_append_new(facts_array(fi, "locks"), l);
	free(id);
}

/* The fields of spinlock_t itself are not locks of their own. */
static bool inside_lock_type(CXCursor rec)
{
	while (clang_Cursor_isAnonymousRecordDecl(rec))
		rec = clang_getCursorSemanticParent(rec);
	return lock_type_of(clang_getCursorType(rec), NULL) != LT_NONE;
}

static void record_record(struct xtu *t, struct xfile *fi, CXCursor rec)
{
	struct kids k = { 0 };
	unsigned i;

	kids_get(rec, &k);
	for (i = 0; i < k.n; i++) {
		enum CXCursorKind kind = clang_getCursorKind(k.v[i]);
		enum lock_type lt;
		bool array;

		if (kind == CXCursor_StructDecl || kind == CXCursor_UnionDecl) {
			record_record(t, fi, k.v[i]);
			continue;
		}
		if (kind != CXCursor_FieldDecl)
			continue;
		lt = lock_type_of(clang_getCursorType(k.v[i]), &array);
		if (lt && !inside_lock_type(rec))
			record_lock(t, fi, k.v[i], lt, array, "field",
				    field_identity(t, k.v[i]));
		record_ptr_slot(t, fi, k.v[i]);
	}
	kids_free(&k);
}

void record_var(struct xtu *t, struct xfile *fi, CXCursor c)
{
	struct kids k = { 0 };
	bool array;
	enum lock_type lt = lock_type_of(clang_getCursorType(c), &array);

	/* tentative definitions ("static spinlock_t x;") count, externs not */
	if (lt && clang_Cursor_getStorageClass(c) != CX_SC_Extern)
		record_lock(t, fi, c, lt, array,
			    clang_getCursorSemanticParent(c).kind ==
					    CXCursor_FunctionDecl
				    ? "local"
			    : clang_getCursorLinkage(c) == CXLinkage_External
				    ? "global"
				    : "static",
			    var_identity(t, c));
	kids_get(c, &k);
	if (k.n && clang_isExpression(clang_getCursorKind(k.v[k.n - 1]))) {
		struct xfn f = { 0 };
		char *obj = var_identity(t, c);

		f.t = t;
		f.fi = fi;
		f.cur = c;
		CXCursor list = init_list_of(k.v[k.n - 1]);

		if (!clang_Cursor_isNull(list))
			walk_init(&f, list, obj);
		else if (is_lock_ptr_type(clang_getCursorType(c))) {
			struct sb tg = SB_INIT;
			unsigned line;

			file_loc(t, clang_getCursorLocation(c), &line, NULL,
				 NULL);
			lock_target(&f, k.v[k.n - 1], &tg);
			json_array_append_new(facts_array(fi, "ptrs"),
					      json_pack("{sssssi}", "id", obj,
							"to", tg.buf, "line",
							line));
			sb_release(&tg);
		}
		free(obj);
		free(f.locals);
	}
	kids_free(&k);
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent,
					 CXClientData data)
{
	struct xtu *t = data;
	struct xfile *fi;
	enum CXCursorKind kind = clang_getCursorKind(c);

	(void)parent;
	/* "typedef struct {...} t;" shows the struct at top level too */
	if (kind != CXCursor_FunctionDecl && kind != CXCursor_VarDecl &&
	    kind != CXCursor_StructDecl && kind != CXCursor_UnionDecl)
		return CXChildVisit_Continue;
	fi = file_loc(t, clang_getCursorLocation(c), NULL, NULL, NULL);
	if (!fi || !fi->record)
		return CXChildVisit_Continue;
	switch (kind) {
	case CXCursor_FunctionDecl:
		record_func_slots(t, fi, c);
		if (clang_isCursorDefinition(c))
			record_function(t, fi, c);
		break;
	case CXCursor_VarDecl:
		record_ptr_slot(t, fi, c);
		record_var(t, fi, c);
		break;
	default:
		if (clang_isCursorDefinition(c))
			record_record(t, fi, c);
		break;
	}
	return CXChildVisit_Continue;
}

static json_t *diagnostics(CXTranslationUnit tu, unsigned *nerr)
{
	unsigned i, n = clang_getNumDiagnostics(tu);
	json_t *first = NULL;

	*nerr = 0;
	for (i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);

		if (sev >= CXDiagnostic_Error) {
			if (!first) {
				CXString s = clang_formatDiagnostic(
					d, CXDiagnostic_DisplaySourceLocation);

				first = json_string(clang_getCString(s));
				clang_disposeString(s);
			}
			(*nerr)++;
		}
		clang_disposeDiagnostic(d);
	}
	return first;
}

/*
 * Header facts are created once: the first writer wins, others drop.  A
 * write that fails for another reason (a full disk) is reported in
 * @store_errno: the TU's facts are then not stored either, so that the
 * next run parses it again and writes the header's facts.
 */
static void write_header_facts(const struct extract_opts *o, struct xfile *fi)
{
	char *path = hdr_path(o, fi->key), *tmp, *s;
	size_t n;
	int fd, err = 0;

	if (mkdir_parent(path) < 0)
		err = errno;
	json_object_set_new(fi->facts, "schema",
			    json_string("rtlock-facts-1"));
	s = cache_encode(fi->facts, &n);
	tmp = xasprintf("%s.%ld.tmp", path, (long)getpid());
	fd = err || !s ? -1 : open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		if (write(fd, s, n) != (ssize_t)n || fsync(fd))
			err = errno ? errno : EIO;
		if (close(fd) && !err)
			err = errno;
		/* losing the race: another TU claimed it */
		if (!err && link(tmp, path) && errno != EEXIST)
			err = errno;
		unlink(tmp);
	} else if (!err) {
		err = s ? errno : EINVAL;
	}
	if (err && o->store_errno)
		*o->store_errno = err;
	free(tmp);
	free(s);
	free(path);
}

static void dep_visit(CXFile f, CXSourceLocation *stack, unsigned len,
		      CXClientData data)
{
	struct xtu *t = data;
	struct xfile *fi = xfile_of(t, f);
	json_t *deps = json_object_get(t->main->facts, "deps");
	char h[HASH_HEX];

	(void)stack;
	(void)len;
	if (fi == t->main || json_object_get(deps, fi->rel))
		return;
	hash_buf(fi->data, fi->len, h);
	json_object_set_new(deps, fi->rel, json_string(h));
}

static void free_tu(struct xtu *t)
{
	struct xfile *fi, *tmp;
	struct xdef *d, *dt;

	HASH_ITER(hh, t->files, fi, tmp) {
		HASH_DEL(t->files, fi);
		json_decref(fi->facts);
		free(fi->own_data);
		free(fi->rel);
		free(fi);
	}
	HASH_ITER(hh, t->defs, d, dt) {
		HASH_DEL(t->defs, d);
		free(d->name);
		free(d);
	}
}

json_t *extract_tu(const struct extract_opts *o, const char *path, char *err,
		   size_t errsize)
{
	struct xtu t = { 0 };
	CXIndex idx = clang_createIndex(!o->keep_pch_decls, 0);
	unsigned opts = CXTranslationUnit_KeepGoing, nerr;
	enum CXErrorCode rc;
	struct xfile *fi, *tmp;
	json_t *out, *first, *claimed, *inlined;
	char *full = path[0] == '/' ? xstrdup(path)
				    : xasprintf("%s/%s", o->root, path);

	t.o = o;
	t.rootlen = strlen(o->root);
	rc = clang_parseTranslationUnit2(idx, full, o->args, o->nargs, NULL, 0,
					 opts, &t.tu);
	if (rc != CXError_Success) {
		snprintf(err, errsize, "libclang could not parse %s (error %d)",
			 path, (int)rc);
		clang_disposeIndex(idx);
		free(full);
		return NULL;
	}
	t.main = xfile_of(&t, clang_getFile(t.tu, full));
	if (!t.main) {
		snprintf(err, errsize, "%s: not found by libclang", path);
		clang_disposeTranslationUnit(t.tu);
		clang_disposeIndex(idx);
		free(full);
		return NULL;
	}
	t.main->is_main = true;
	t.main->record = !t.main->impl;
	t.main->facts = json_pack("{sss{}}", "file", t.main->rel, "deps");
	clang_visitChildren(clang_getTranslationUnitCursor(t.tu), top_visit, &t);
	clang_getInclusions(t.tu, dep_visit, &t);

	first = diagnostics(t.tu, &nerr);
	out = t.main->facts;
	t.main->facts = NULL;
	json_object_set_new(out, "schema", json_string("rtlock-facts-1"));
	json_object_set_new(out, "errors", json_integer(nerr));
	if (first)
		json_object_set_new(out, "first_error", first);
	claimed = json_array();
	inlined = json_array();
	HASH_ITER(hh, t.files, fi, tmp) {
		if (fi->is_main || !fi->record || !fi->facts)
			continue;
		if (fi->inlined) {
			json_array_append(inlined, fi->facts);
			continue;
		}
		write_header_facts(o, fi);
		json_array_append_new(claimed, json_string(fi->rel));
	}
	json_object_set_new(out, "claimed", claimed);
	json_object_set_new(out, "inlined", inlined);
	free_tu(&t);
	clang_disposeTranslationUnit(t.tu);
	clang_disposeIndex(idx);
	free(full);
	return out;
}
