// SPDX-License-Identifier: GPL-2.0
#include "convert.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uthash.h>

#include "apitab.h"
#include "cache.h"
#include "hash.h"
#include "leftover.h"
#include "pool.h"
#include "progress.h"
#include "seqcount.h"
#include "util.h"
#include "version.h"

struct cfile {
	char *rel;
	char key[HASH_HEX];
	bool cached, failed, changed;
	bool done;		/* its batch ran through */
	char *why;
};

struct conv {
	const struct convert_opts *o;
	struct scan *s;
	const char *target;	/* the tree being written */
	char *sites_path, *decls_path, *names_path, *logs;
	/* keep.sites, keep.decls, keep.names: built, then written once */
	struct sb sites, decls, names;
	struct strset keep_lines; /* "file:line" of every keep entry */
	struct strset impl;	/* names whose definitions are the API */
	struct name *keep_names;  /* names only kept locks have */
	struct name *file_keep;	  /* "file:NAME": kept at every call there */
	struct seqcounts seq;	  /* seqcounts tied to a lock */
	json_t *lock_of;	  /* lock identity -> its classification */
	uint64_t *kept_words;	  /* a bit per hash of keep_names, '.' dropped */
	struct cfile *files;
	size_t nfiles;
	size_t *todo;		/* batches of indexes into files */
	size_t ntodo, batch;
	bool raw;
	char rules[HASH_HEX];
	char *cocci, *text_rule;
	char *spatch;		/* $RTLOCK_SPATCH, else spatch from PATH */
	unsigned leftovers;
	json_t *leftover_list;
	unsigned no_names;	/* scanned files with nothing to convert */
};

/* ---- keep lists ---- */

/*
 * Every file is read for the kept names it writes, once a stage: a word
 * whose hash has no bit in kept_words is none of them, without a look-up
 * in the set (perf of a warm regen: the look-ups were a tenth of it).
 */
#define KEPT_WORD_BITS (1u << 16)

static unsigned word_hash(const char *w, size_t n)
{
	uint32_t h = 2166136261u;	/* FNV-1a, folded to 16 bits */

	while (n--)
		h = (h ^ (unsigned char)*w++) * 16777619u;
	return (h ^ h >> 16) & (KEPT_WORD_BITS - 1);
}

static bool maybe_kept(const uint64_t *bits, const char *w, size_t n)
{
	unsigned b = word_hash(w, n);

	return bits && bits[b / 64] >> (b % 64) & 1;
}

static void add_kept_word(uint64_t *bits, const char *w, size_t n)
{
	unsigned b = word_hash(w, n);

	bits[b / 64] |= 1ull << (b % 64);
}

/* A set of names. */
struct name {
	char *s;
	UT_hash_handle hh;
};

static struct name *name_find(struct name *set, const char *s, size_t n)
{
	struct name *e;

	HASH_FIND(hh, set, s, n, e);
	return e;
}

static void name_add(struct name **set, const char *s)
{
	struct name *e;

	if (name_find(*set, s, strlen(s)))
		return;
	e = xcalloc(1, sizeof(*e));
	e->s = xstrdup(s);
	HASH_ADD_KEYPTR(hh, *set, e->s, strlen(e->s), e);
}

static void name_del(struct name **set, struct name *e)
{
	HASH_DEL(*set, e);
	free(e->s);
	free(e);
}

static void names_free(struct name **set)
{
	struct name *e, *tmp;

	HASH_ITER(hh, *set, e, tmp)
		name_del(set, e);
}

static int cmp_name(struct name *a, struct name *b)
{
	return strcmp(a->s, b->s);
}

static void keep_line(struct conv *cv, const char *pos)
{
	char *fl = xstrdup(pos), *c = strchr(fl, ':');

	/* "file:line[:col]" -> "file:line" */
	if (c && (c = strchr(c + 1, ':')))
		*c = '\0';
	strset_add(&cv->keep_lines, fl);
	free(fl);
}

/* Drop from @set the names in @other. */
static void names_minus(struct name **set, struct name *other)
{
	struct name *e, *tmp;

	HASH_ITER(hh, *set, e, tmp)
		if (name_find(other, e->s, strlen(e->s)))
			name_del(set, e);
}

static bool is_field_lock(json_t *l)
{
	const char *kind = json_str(l, "kind");

	return !strcmp(kind, "field") || !strcmp(kind, "pointee");
}

/*
 * A kept parameter slot: "FUNC()#N" for parameter N of the function FUNC
 * (its identity: "file:name" for a static one), which keeps every
 * declaration of that parameter, seen or not: the !CONFIG_LOCKDEP
 * netdev_set_xmit_lockdep_class() stub next to the one the scan read, a
 * prototype in a header.
 */
static void kept_params(struct name **kept, struct prog *p,
			struct pptr *slot)
{
	const char *c1 = strchr(slot->id, ':');
	int line = c1 ? atoi(c1 + 1) : 0;
	size_t i;

	for (i = 0; i < slot->to.n; i++) {
		const char *flow = slot->to.v[i], *hash = strrchr(flow, '#');
		char *fid, *entry;
		struct pfunc *f;

		if ((strncmp(flow, "P:", 2) && strncmp(flow, "O:", 2)) || !hash)
			continue;
		fid = xstrndup(flow + 2, hash - flow - 2);
		f = prog_func(p, fid);
		/*
		 * the slot is that parameter (written at the function), not a
		 * local or another function's parameter it was copied into
		 * (double_lock_irq()'s l1 after swap())
		 */
		if (f && f->file && c1 && !strncmp(slot->id, f->file, c1 - slot->id) &&
		    !f->file[c1 - slot->id] && line >= f->line && line <= f->line + 8) {
			entry = xasprintf("%s()%s", fid, hash);
			name_add(kept, entry);
			free(entry);
		}
		free(fid);
	}
}

/*
 * The names that only locks kept spinning have: a use or a declaration
 * the scan did not see, under an #ifdef its configuration leaves out, is
 * kept by its name.  Written to keep.names:
 *
 *   ".NAME"  a field only kept locks have: an API call on &x->NAME or
 *            x.NAME (the !CONFIG_MEMCG folio_lruvec_lock() takes
 *            &pgdat->__lruvec.lru_lock), whatever variables are called;
 *   "FUNC()#N"  parameter N of function FUNC (kept_params());
 *   "NAME"   a name (of a lock but a local, or of a spinlock_t *
 *            declaration) only kept ones have, fields or not: a
 *            declaration of it, and an API call on NAME, &NAME or
 *            NAME(...).  A spinlock_t * declaration the scan saw and no
 *            kept lock flows into blocks its name (shadow_lru_isolate()'s
 *            parameter lru_lock); a converted field does not (it is
 *            never written bare: the kept global rtc_lock and struct
 *            moxart_rtc's converted field rtc_lock).
 */
static struct name *kept_only_names(json_t *rep, struct prog *p)
{
	struct name *kept = NULL, *other = NULL, *fields = NULL,
		    *other_fields = NULL, *kept_slots = NULL, *e, *tmp;
	struct pptr *slot, *stmp;
	json_t *l, *s;
	size_t i, j;

	json_array_foreach(json_object_get(rep, "locks"), i, l) {
		bool spins = !strcmp(json_str(l, "verdict"), "must-spin");
		const char *name = id_name(json_str(l, "id"));

		if (strcmp(json_str(l, "type"), "spinlock_t"))
			continue;
		if (strcmp(json_str(l, "kind"), "local") &&
		    (spins || !is_field_lock(l)))
			name_add(spins ? &kept : &other, name);
		if (is_field_lock(l))
			name_add(spins ? &fields : &other_fields, name);
		json_array_foreach(json_object_get(l, "slots"), j, s) {
			name_add(spins ? &kept : &other,
				 id_name(json_string_value(s)));
			if (spins)
				name_add(&kept_slots, json_string_value(s));
		}
	}
	HASH_ITER(hh, p->slots, slot, stmp) {
		if (!name_find(kept_slots, slot->id, strlen(slot->id))) {
			name_add(&other, id_name(slot->id));
			continue;
		}
		kept_params(&kept, p, slot);
	}
	names_minus(&kept, other);
	names_minus(&fields, other_fields);
	HASH_ITER(hh, fields, e, tmp) {
		char *dot = xasprintf(".%s", e->s);

		name_add(&kept, dot);
		free(dot);
	}
	names_free(&kept_slots);
	names_free(&other);
	names_free(&other_fields);
	names_free(&fields);
	HASH_SORT(kept, cmp_name);
	return kept;
}

/*
 * Per file, the lock names of API calls the scan saw there, each with
 * bit 1 if a kept lock has the name at some call, bit 2 if a converted
 * one has: "FILE:NAME" or "FILE:.NAME" (a field) -> bits.
 */
static void note_site_names(json_t *by_file, json_t *kind_of, json_t *must,
			    json_t *site)
{
	json_t *id;
	size_t i;

	json_array_foreach(json_object_get(site, "locks"), i, id) {
		const char *lock = json_string_value(id);
		json_t *l = json_object_get(kind_of, lock);
		char *key = xasprintf("%s:%s%s", json_str(site, "file"),
				      l && is_field_lock(l) ? "." : "",
				      id_name(lock));
		json_int_t bits = json_integer_value(json_object_get(by_file, key));

		bits |= json_object_get(must, lock) ? 1 : 2;
		json_object_set_new(by_file, key, json_integer(bits));
		free(key);
	}
}

/*
 * The same for the declarations of lock @l (@inv_l: its entry in the
 * scan, with every declaration): a header that declares only kept locks
 * of a name keeps the initialisers of that name it holds in macros the
 * scan did not expand (srcutree.h's __SRCU_STRUCT_INIT() under !MODULE).
 */
static void note_decl_names(json_t *by_file, json_t *l, json_t *inv_l,
			    bool kept)
{
	json_t *decls = json_object_get(inv_l, "decls");
	const char *dot = is_field_lock(l) ? "." : "";
	size_t i;

	if (!strcmp(json_str(l, "kind"), "local") ||
	    !strcmp(json_str(l, "kind"), "pointee") ||
	    strcmp(json_str(l, "type"), "spinlock_t"))
		return;
	for (i = 0; i < (decls ? json_array_size(decls) : 1); i++) {
		const char *pos = decls ? json_string_value(json_array_get(decls, i))
					: json_str(l, "file");
		size_t flen = decls ? (size_t)(strrchr(pos, ':') - pos) : strlen(pos);
		char *key = xasprintf("%.*s:%s%s", (int)flen, pos, dot,
				      id_name(json_str(l, "id")));
		json_int_t bits = json_integer_value(json_object_get(by_file, key));

		json_object_set_new(by_file, key, json_integer(bits | (kept ? 1 : 2)));
		free(key);
	}
}

/*
 * The per-file entries of keep.names: a lock name that, in this file,
 * only kept locks have at the calls and declarations the scan saw.  A call
 * there on the same name that the scan did not see (under an #ifdef its
 * configuration leaves out: the !CONFIG_MEMCG folio_lruvec_lock() next to
 * the unlock_page_lruvec() it saw) keeps spinning too, even when locks
 * elsewhere in the tree that are converted have that name.  Names kept
 * everywhere (cv->keep_names) are not repeated; the entries also go to
 * cv->file_keep.
 */
static void file_names(struct conv *cv, struct sb *names, json_t *by_file)
{
	const char **keys = xcalloc(json_object_size(by_file) + 1,
				    sizeof(*keys));
	const char *key;
	json_t *v;
	size_t n = 0, i;

	json_object_foreach(by_file, key, v) {
		const char *name = strrchr(key, ':') + 1;

		if (json_integer_value(v) == 1 &&
		    !name_find(cv->keep_names, name, strlen(name)))
			keys[n++] = key;
	}
	qsort(keys, n, sizeof(*keys), cmp_strp);
	for (i = 0; i < n; i++) {
		sb_addf(names, "%s\n", keys[i]);
		name_add(&cv->file_keep, keys[i]);
	}
	free(keys);
}

static void build_keep_lists(struct conv *cv, json_t *inv, json_t *rep)
{
	json_t *must = json_object(), *decls_of = json_object(), *l, *s, *d;
	json_t *by_file = json_object();
	struct sb *sites = &cv->sites, *decls = &cv->decls, *names = &cv->names;
	struct strset seen = { 0 };
	struct name *e, *tmp;
	size_t i, j;

	cv->keep_names = kept_only_names(rep, &cv->s->prog);
	cv->lock_of = json_object();
	cv->kept_words = xcalloc(KEPT_WORD_BITS / 64, sizeof(uint64_t));
	HASH_ITER(hh, cv->keep_names, e, tmp) {
		const char *w = e->s + (e->s[0] == '.');

		add_kept_word(cv->kept_words, w, strlen(w));
		sb_addf(names, "%s\n", e->s);
	}

	json_array_foreach(json_object_get(inv, "locks"), i, l)
		json_object_set(decls_of, json_str(l, "id"), l);
	json_array_foreach(json_object_get(rep, "locks"), i, l) {
		bool spins = !strcmp(json_str(l, "verdict"), "must-spin");

		json_object_set(cv->lock_of, json_str(l, "id"), l);
		note_decl_names(by_file, l,
				json_object_get(decls_of, json_str(l, "id")), spins);
		if (!spins || strcmp(json_str(l, "type"), "spinlock_t"))
			continue;
		json_object_set(must, json_str(l, "id"), json_true());
		/* the spinlock_t * declarations that may hold it */
		json_array_foreach(json_object_get(l, "slots"), j, s) {
			sb_addf(decls, "%s\n", json_string_value(s));
			keep_line(cv, json_string_value(s));
		}
		if (!strcmp(json_str(l, "kind"), "pointee"))
			continue;
		/* every declaration of the lock keeps spinlock_t */
		d = json_object_get(json_object_get(decls_of, json_str(l, "id")),
				    "decls");
		if (d) {
			json_array_foreach(d, j, s) {
				sb_addf(decls, "%s:%s\n", json_string_value(s),
					id_name(json_str(l, "id")));
				keep_line(cv, json_string_value(s));
			}
		} else {
			char *pos = xasprintf("%s:%d", json_str(l, "file"),
					      (int)json_integer_value(
						      json_object_get(l, "line")));

			sb_addf(decls, "%s:%s\n", pos, id_name(json_str(l, "id")));
			keep_line(cv, pos);
			free(pos);
		}
	}
	json_array_foreach(json_object_get(inv, "sites"), i, s) {
		const char *at = json_str(s, "at");
		json_t *id;
		bool keep = false;

		note_site_names(by_file, cv->lock_of, must, s);
		json_array_foreach(json_object_get(s, "locks"), j, id)
			keep |= json_object_get(must, json_string_value(id)) != NULL;
		if (!keep || !strset_add(&seen, at))
			continue;
		sb_addf(sites, "%s\n", at);
		keep_line(cv, at);
	}
	file_names(cv, names, by_file);
	strset_free(&seen);
	json_decref(must);
	json_decref(decls_of);
	json_decref(by_file);
}

/* Is ".NAME" in the kept names? */
static bool kept_member(struct conv *cv, const char *name, size_t n)
{
	char buf[256];

	if (n + 1 >= sizeof(buf))
		return false;
	buf[0] = '.';
	memcpy(buf + 1, name, n);
	return name_find(cv->keep_names, buf, n + 1) != NULL;
}

/* Would the rules keep a lock written NAME (a field's with @member) in @rel? */
static bool kept_by_name(struct conv *cv, const char *rel, const char *name,
			 bool member)
{
	char *scoped;
	bool kept;

	if (member ? kept_member(cv, name, strlen(name))
		   : name_find(cv->keep_names, name, strlen(name)) != NULL)
		return true;
	scoped = xasprintf("%s:%s%s", rel, member ? "." : "", name);
	kept = name_find(cv->file_keep, scoped, strlen(scoped));
	free(scoped);
	return kept;
}

/* The classification of lock @rec::@field, NULL when there is none. */
static json_t *field_lock(struct conv *cv, const char *rec, const char *field)
{
	char *id = xasprintf("%s::%s", rec, field);
	json_t *l = json_object_get(cv->lock_of, id);

	free(id);
	return l;
}

/*
 * Is the lock @u ties the seqcount of @d to kept?  When both are fields of
 * one object and @d is a field, the lock is its record's field of that
 * name, by identity (6.12's struct ioc::lock in block/blk-iocost.c, where
 * other records' locks named "lock" convert), or through an alias the
 * field of the record the alias goes through (&dentry->d_lock:
 * struct lockref::lock, d_lockref's); else by name.
 */
static bool seq_lock_kept(struct conv *cv, const struct seq_use *u,
			  const struct seq_decl *d)
{
	const char *rec = u->same_object ? d->record : NULL;
	json_t *l = NULL;

	if (rec && u->via) {
		/* a record type is a C file's own when it defines it */
		char *in_c;

		rec = seqcounts_field_type(&cv->seq, rec, u->via);
		in_c = rec && has_suffix(d->rel, ".c")
			       ? xasprintf("%s (in %s)", rec, d->rel)
			       : NULL;
		if (in_c)
			l = field_lock(cv, in_c, u->lock);
		free(in_c);
	}
	if (rec && !l)
		l = field_lock(cv, rec, u->lock);
	if (l)
		return !strcmp(json_str(l, "verdict"), "must-spin");
	return kept_by_name(cv, u->rel, u->lock, u->lock_member);
}

/* Write the keep lists the rules read (OUT/keep.sites, ...). */
static int write_keep_lists(struct conv *cv)
{
	cv->sites_path = xasprintf("%s/keep.sites", cv->o->meta_dir);
	cv->decls_path = xasprintf("%s/keep.decls", cv->o->meta_dir);
	cv->names_path = xasprintf("%s/keep.names", cv->o->meta_dir);
	if (write_file_atomic(cv->sites_path, sb_str(&cv->sites), cv->sites.len) < 0 ||
	    write_file_atomic(cv->decls_path, sb_str(&cv->decls), cv->decls.len) < 0 ||
	    write_file_atomic(cv->names_path, sb_str(&cv->names), cv->names.len) < 0)
		return error("%s: %s", cv->o->meta_dir, strerror(errno));
	return 0;
}

/*
 * How near a seqcount's use in @use is to a declaration in @decl: 0 the
 * same file, 1 the same file name stem (fs/fs_struct.c and
 * include/linux/fs_struct.h), 2 the same folder, 3 elsewhere.
 */
static int nearness(const char *use, const char *decl)
{
	const char *su = strrchr(use, '/'), *sd = strrchr(decl, '/');
	size_t du = su ? (size_t)(su - use) : 0, dd = sd ? (size_t)(sd - decl) : 0;
	size_t nu, nd;

	if (!strcmp(use, decl))
		return 0;
	su = su ? su + 1 : use;
	sd = sd ? sd + 1 : decl;
	nu = strcspn(su, ".");
	nd = strcspn(sd, ".");
	if (nu == nd && !strncmp(su, sd, nu))
		return 1;
	return du == dd && !strncmp(use, decl, du) ? 2 : 3;
}

/*
 * Does use @u belong to declaration @d?  Seqcounts are known by name only
 * (6.12's "seq" is struct fs_struct's, eventpoll's and the bridge
 * querier's): a use of a field belongs to the nearest declarations of its
 * name, one of a variable to all (nf_conntrack_generation's definition
 * and its extern declaration in a header).
 */
static bool use_of(const struct seqcounts *sc, const struct seq_use *u,
		   const struct seq_decl *d)
{
	int best = 3, n;
	size_t i;

	if (strcmp(u->seq, d->name))
		return false;
	/* a variable: its definition and every extern declaration */
	if (!u->seq_member)
		return true;
	for (i = 0; i < sc->ndecls; i++) {
		if (strcmp(u->seq, sc->decls[i].name))
			continue;
		n = nearness(u->rel, sc->decls[i].rel);
		best = n < best ? n : best;
	}
	return nearness(u->rel, d->rel) == best;
}

/* Does @u belong to declarations, all of them kept? */
static bool use_kept(const struct seqcounts *sc, const struct seq_use *u,
		     const bool *decl_kept)
{
	bool any = false;
	size_t i;

	for (i = 0; i < sc->ndecls; i++) {
		if (!use_of(sc, u, &sc->decls[i]))
			continue;
		if (!decl_kept[i])
			return false;
		any = true;
	}
	return any;
}

/* Un-keep the declarations @u belongs to; were there any kept? */
static bool unkeep_decls(const struct seqcounts *sc, const struct seq_use *u,
			 bool *decl_kept)
{
	bool changed = false;
	size_t i;

	for (i = 0; i < sc->ndecls; i++) {
		if (decl_kept[i] && use_of(sc, u, &sc->decls[i])) {
			decl_kept[i] = false;
			changed = true;
		}
	}
	return changed;
}

/*
 * A seqcount given only kept locks follows them: its seqcount_spinlock_init()
 * or SEQCNT_SPINLOCK_ZERO() goes to keep.sites (the raw form) and its
 * seqcount_spinlock_t declaration to keep.decls (seqcount_raw_spinlock_t).
 * A declaration whose uses mix kept and converted locks stays as it is,
 * with a warning, and so do its uses: the lockdep and PREEMPT_RT builds
 * will say where.
 */
static void keep_seqcounts(struct conv *cv)
{
	const struct seqcounts *sc = &cv->seq;
	bool *decl_kept = xcalloc(sc->ndecls + 1, sizeof(bool)), changed;
	size_t i, j;

	for (i = 0; i < sc->ndecls; i++) {
		const struct seq_decl *d = &sc->decls[i];
		unsigned kept = 0, other = 0;

		for (j = 0; j < sc->nuses; j++) {
			const struct seq_use *u = &sc->uses[j];

			if (!use_of(sc, u, d))
				continue;
			if (seq_lock_kept(cv, u, d))
				kept++;
			else
				other++;
		}
		if (kept && other)
			warning("%s:%u: seqcount %s is given kept and converted "
				"locks: left seqcount_spinlock_t", d->rel, d->line,
				d->name);
		decl_kept[i] = kept && !other;
	}
	/* a use and all its declarations keep spinning together, or none */
	do {
		changed = false;
		for (j = 0; j < sc->nuses; j++)
			if (!use_kept(sc, &sc->uses[j], decl_kept))
				changed |= unkeep_decls(sc, &sc->uses[j],
							decl_kept);
	} while (changed);
	for (i = 0; i < sc->ndecls; i++) {
		const struct seq_decl *d = &sc->decls[i];
		char *at;

		if (!decl_kept[i])
			continue;
		at = xasprintf("%s:%u:%s", d->rel, d->line, d->name);
		sb_addf(&cv->decls, "%s\n", at);
		keep_line(cv, at);
		free(at);
	}
	for (j = 0; j < sc->nuses; j++) {
		const struct seq_use *u = &sc->uses[j];
		char *at;

		if (!use_kept(sc, u, decl_kept))
			continue;
		at = xasprintf("%s:%u:%u", u->rel, u->line, u->col);
		sb_addf(&cv->sites, "%s\n", at);
		keep_line(cv, at);
		free(at);
	}
	free(decl_kept);
}

/* ---- the target tree ---- */

static int git_clean(const char *tree, const char *meta)
{
	char *log = xasprintf("%s/git-status.log", meta), *out;
	char *argv[] = { "git", "-C", (char *)tree, "status", "--porcelain",
			 "--untracked-files=no", NULL };
	int rc;

	unlink(log);
	rc = run_command(argv, NULL, log);
	out = read_file(log, NULL);
	if (rc)
		rc = error("%s: --in-place needs a git checkout (git status "
			   "failed)", tree);
	else if (out && *out)
		rc = error("%s: the checkout has uncommitted changes; commit or "
			   "stash them, or use --out", tree);
	free(out);
	free(log);
	return rc;
}

static int copy_tree(const char *from, const char *to)
{
	char *argv[] = { "sh", "-c",
			 "mkdir -p \"$2\" && tar -C \"$1\" --exclude=./.git "
			 "-cf - . | tar -C \"$2\" -xf -",
			 "sh", (char *)from, (char *)to, NULL };

	if (run_command(argv, NULL, NULL))
		return error("copying %s to %s failed", from, to);
	return 0;
}

/* ---- per-file cache ---- */

static void rules_hash(struct conv *cv)
{
	struct hasher h;
	char a[HASH_HEX], b[HASH_HEX];

	if (hash_file(cv->cocci, a) < 0)
		strcpy(a, "missing");
	if (hash_file(cv->text_rule, b) < 0)
		strcpy(b, "missing");
	hasher_init(&h);
	hasher_adds(&h, "rtlock-convert-1");
	hasher_adds(&h, a);
	hasher_adds(&h, b);
	hasher_adds(&h, cv->raw ? "raw" : "");
	hasher_final(&h, cv->rules);
}

/* The kept names written in @text, in order, into @h. */
static void hash_kept_names(struct conv *cv, struct hasher *h,
			    const char *text, size_t len)
{
	size_t i = 0, n;

	while (i < len) {
		if (!ident_char(text[i])) {
			i++;
			continue;
		}
		for (n = 0; i + n < len && ident_char(text[i + n]); n++)
			;
		if (!maybe_kept(cv->kept_words, text + i, n)) {
			i += n;
			continue;
		}
		if (name_find(cv->keep_names, text + i, n) ||
		    (i && text[i - 1] == '.' &&
		     name_find(cv->keep_names, text + i - 1, n + 1)) ||
		    (i > 1 && text[i - 1] == '>' && text[i - 2] == '-' &&
		     kept_member(cv, text + i, n)))
			hasher_add(h, text + i, n + 1); /* and what follows */
		i += n;
	}
}

/*
 * The lines of a keep list, by the file they name (the text before the
 * first ':'), in list order: a file's key finds its entries without
 * searching the whole list (strstr() of every list for every file).
 */
struct entries {
	char *file;
	const char **v;		/* line starts */
	size_t n, alloc;
	UT_hash_handle hh;
};

static struct entries *index_entries(const char *list)
{
	struct entries *ix = NULL, *e;
	const char *p;

	for (p = list; p && *p; p += strcspn(p, "\n"), p += *p == '\n') {
		size_t k = strcspn(p, ":\n");

		if (p[k] != ':')
			continue;
		HASH_FIND(hh, ix, p, k, e);
		if (!e) {
			e = xcalloc(1, sizeof(*e));
			e->file = xstrndup(p, k);
			HASH_ADD_KEYPTR(hh, ix, e->file, k, e);
		}
		ALLOC_GROW(e->v, e->n, e->alloc);
		e->v[e->n++] = p;
	}
	return ix;
}

static void free_entries(struct entries **ix)
{
	struct entries *e, *tmp;

	HASH_ITER(hh, *ix, e, tmp) {
		HASH_DEL(*ix, e);
		free(e->file);
		free(e->v);
		free(e);
	}
}

/*
 * Key: rules, path, content, the keep entries of this file (sites,
 * declarations, names kept in this file only) and the kept names it uses.
 */
static void file_key(struct conv *cv, struct cfile *f, struct entries *const ix[3])
{
	struct hasher h;
	char content[HASH_HEX], *path = xasprintf("%s/%s", cv->s->tree.root,
						  f->rel), *text;
	struct entries *e;
	size_t len, j;
	unsigned i;

	text = read_file(path, &len);
	if (text)
		hash_buf(text, len, content);
	else
		strcpy(content, "missing");
	hasher_init(&h);
	hasher_adds(&h, cv->rules);
	hasher_adds(&h, f->rel);
	hasher_adds(&h, content);
	for (i = 0; i < 3; i++) {
		HASH_FIND_STR(ix[i], f->rel, e);
		for (j = 0; e && j < e->n; j++)
			hasher_add(&h, e->v[j], strcspn(e->v[j], "\n"));
	}
	if (text)
		hash_kept_names(cv, &h, text, len);
	hasher_final(&h, f->key);
	free(text);
	free(path);
}

static char *cached_path(struct conv *cv, const char *key)
{
	return xasprintf("%s/convert-v2/%.2s/%s", cv->o->cache_dir, key,
			 key + 2);
}

/*
 * A converted file in the cache (cache_blob_put()); one that does not
 * check out is reported, dropped and converted again.
 */
static int cache_put(const char *from, const char *cp)
{
	size_t len;
	char *data = read_file(from, &len);
	int rc;

	if (!data)
		return -1;
	rc = cache_blob_put(cp, data, len);
	free(data);
	return rc;
}

static bool cache_get(const char *cp, const char *to)
{
	size_t len;
	char *data = cache_blob_get(cp, &len);
	bool ok = data && write_file_replace(to, data, len) == 0;

	free(data);
	return ok;
}

/* ---- spatch jobs ---- */

static int batch_job(size_t b, void *data)
{
	struct conv *cv = data;
	size_t first = b * cv->batch, i, n = 0;
	char **argv = xcalloc(cv->batch + 24, sizeof(char *));
	char **targv = xcalloc(cv->batch + 24, sizeof(char *));
	char *log = xasprintf("%s/batch-%zu.log", cv->logs, b);
	char *dsites = xasprintf("keep_sites=%s", cv->sites_path);
	char *ddecls = xasprintf("keep_decls=%s", cv->decls_path);
	char *dnames = xasprintf("keep_names=%s", cv->names_path);
	char *gpath = xasprintf("%s/batch-%zu.groups", cv->logs, b);
	/* the tree the raw names of its era are looked up in */
	char *dtree = xasprintf("tree=%s", cv->s->tree.root);
	struct sb groups = SB_INIT;
	int rc, t = 0;

	argv[n++] = cv->spatch;
	argv[n++] = "--sp-file";
	argv[n++] = cv->cocci;
	argv[n++] = "--no-includes";
	argv[n++] = "--include-headers";
	argv[n++] = "--max-width";
	argv[n++] = "200";
	argv[n++] = "--very-quiet";
	argv[n++] = "--in-place";
	/*
	 * No diff of each changed file on stdout (which only went to the
	 * log): on 334 files of 6.1, spatch -j 2 took 12.8 s instead of
	 * 21.2 s, the same files written.
	 */
	argv[n++] = "--no-show-diff";
	argv[n++] = "-D";
	argv[n++] = dsites;
	argv[n++] = "-D";
	argv[n++] = ddecls;
	argv[n++] = "-D";
	argv[n++] = dnames;
	if (cv->raw) {
		argv[n++] = "-D";
		argv[n++] = "raw=1";
	}
	argv[n++] = "-D";
	argv[n++] = dtree;
	targv[t++] = "python3";
	targv[t++] = cv->text_rule;
	targv[t++] = "--keep-sites";
	targv[t++] = cv->sites_path;
	targv[t++] = "--keep-decls";
	targv[t++] = cv->decls_path;
	targv[t++] = "--keep-names";
	targv[t++] = cv->names_path;
	if (cv->raw)
		targv[t++] = "--raw";
	targv[t++] = "--tree";
	targv[t++] = cv->s->tree.root;
	targv[t++] = "--orig-root";
	targv[t++] = cv->s->tree.root;
	targv[t++] = "--in-place";
	/*
	 * Files named on spatch's command line are one group, transformed
	 * together: several times slower than a group per file.
	 */
	for (i = first; i < first + cv->batch && i < cv->ntodo; i++) {
		sb_addf(&groups, "%s\n\n", cv->files[cv->todo[i]].rel);
		targv[t++] = cv->files[cv->todo[i]].rel;
	}
	argv[n++] = "--file-groups";
	argv[n++] = gpath;
	rc = write_file_atomic(gpath, sb_str(&groups), groups.len) < 0 ? -1 :
	     run_command(argv, cv->target, log);
	if (!rc)
		rc = run_command(targv, cv->target, log);
	unlink(gpath);
	free(gpath);
	free(dtree);
	sb_release(&groups);
	return rc ? 3 : 0;
}

static void batch_done(size_t b, const struct job_result *r, void *data)
{
	struct conv *cv = data;
	size_t i;
	char buf[64];

	for (i = b * cv->batch; i < (b + 1) * cv->batch && i < cv->ntodo; i++) {
		struct cfile *f = &cv->files[cv->todo[i]];

		if (r->state == JOB_OK) {
			f->done = true;
			continue;
		}
		f->failed = true;
		free(f->why);
		f->why = xasprintf("%s, see %s/batch-%zu.log",
				   job_state_name(r, buf, sizeof(buf)),
				   cv->logs, b);
	}
}

/* In a sparse target: @rel copied from the source, unless already there. */
static void in_target(struct conv *cv, const char *rel)
{
	char *from = xasprintf("%s/%s", cv->s->tree.root, rel);
	char *to = xasprintf("%s/%s", cv->target, rel);

	if (cv->o->sparse_target && access(to, F_OK))
		copy_file(from, to);
	free(from);
	free(to);
}

/* Restore a file spatch may have half-written: nothing stays half done. */
static void restore(struct conv *cv, struct cfile *f)
{
	char *from = xasprintf("%s/%s", cv->s->tree.root, f->rel);
	char *to = xasprintf("%s/%s", cv->target, f->rel);

	if (strcmp(from, to))
		copy_file(from, to);
	free(from);
	free(to);
}

static int run_batches(struct conv *cv, size_t batch, double timeout)
{
	struct pool_opts po = { cv->o->jobs, timeout, batch_done, cv };
	size_t nb = (cv->ntodo + batch - 1) / batch;
	struct job_result *res = xcalloc(nb + 1, sizeof(*res));
	int rc;

	cv->batch = batch;
	rc = pool_run(&po, nb, batch_job, cv, res);
	free(res);
	return rc;
}

/* Cache what converted: the next run, interrupted or not, starts there. */
static void cache_converted(struct conv *cv)
{
	size_t i;

	for (i = 0; i < cv->ntodo; i++) {
		struct cfile *f = &cv->files[cv->todo[i]];
		char *cp, *from;

		if (f->failed || !f->done)
			continue;
		cp = cached_path(cv, f->key);
		from = xasprintf("%s/%s", cv->target, f->rel);
		if (mkdir_parent(cp) < 0 || cache_put(from, cp) < 0)
			warning("%s: not cached (%s)", f->rel, strerror(errno));
		free(from);
		free(cp);
	}
}

/*
 * Files per spatch run: each run costs a second of start-up (reading the
 * rules, starting Python), so on a whole tree about 16 runs a worker, at
 * least 20 and at most 100 files each (6.1: 7,719 files, 100 a run).
 */
static size_t batch_size(const struct conv *cv)
{
	size_t n;

	if (cv->o->batch > 0)
		return cv->o->batch;
	n = cv->ntodo / ((size_t)(cv->o->jobs > 0 ? cv->o->jobs : 1) * 16);
	return n < 20 ? 20 : n > 100 ? 100 : n;
}

static int convert_files(struct conv *cv)
{
	struct entries *ix[] = { index_entries(sb_str(&cv->sites)),
				 index_entries(sb_str(&cv->decls)),
				 index_entries(sb_str(&cv->names)) };
	size_t i, nfail = 0, *retry, batch;
	int rc = 0;

	cv->todo = xcalloc(cv->nfiles + 1, sizeof(size_t));
	for (i = 0; i < cv->nfiles; i++) {
		struct cfile *f = &cv->files[i];
		char *cp;

		file_key(cv, f, ix);
		cp = cached_path(cv, f->key);
		if (is_file(cp)) {
			char *to = xasprintf("%s/%s", cv->target, f->rel);

			if (cv->o->sparse_target)
				mkdir_parent(to);
			f->cached = cache_get(cp, to);
			free(to);
		}
		if (!f->cached) {
			if (cv->o->reuse_target || cv->o->sparse_target)
				restore(cv, f);
			cv->todo[cv->ntodo++] = i;
		}
		free(cp);
	}
	for (i = 0; i < ARRAY_SIZE(ix); i++)
		free_entries(&ix[i]);
	batch = batch_size(cv);
	if (cv->ntodo && run_batches(cv, batch, cv->o->timeout * batch) < 0) {
		cache_converted(cv);
		return -1;
	}
	/* files of a failed batch: once more, alone, to isolate the culprit */
	retry = xcalloc(cv->ntodo + 1, sizeof(size_t));
	for (i = 0; i < cv->ntodo; i++)
		if (cv->files[cv->todo[i]].failed) {
			restore(cv, &cv->files[cv->todo[i]]);
			cv->files[cv->todo[i]].failed = false;
			retry[nfail++] = cv->todo[i];
		}
	if (nfail) {
		size_t *saved = cv->todo, savedn = cv->ntodo;

		cv->todo = retry;
		cv->ntodo = nfail;
		rc = run_batches(cv, 1, cv->o->timeout);
		cv->todo = saved;
		cv->ntodo = savedn;
		for (i = 0; i < nfail; i++)
			if (cv->files[retry[i]].failed)
				restore(cv, &cv->files[retry[i]]);
	}
	free(retry);
	cache_converted(cv);
	return rc;
}

/* ---- lock.h ---- */

static char *fill_template(const char *path, const char *era,
			   const char *version)
{
	char *t = read_file(path, NULL), *p;
	struct sb sb = SB_INIT;
	static const char *const keys[] = { "@LOCK_T_ERA@", "@KERNELVERSION@",
					    "@RTLOCK_VERSION@" };
	const char *vals[] = { era, version, RTLOCK_VERSION };
	unsigned i;

	if (!t)
		return NULL;
	for (p = t; *p;) {
		for (i = 0; i < 3; i++)
			if (!strncmp(p, keys[i], strlen(keys[i])))
				break;
		if (i < 3) {
			sb_adds(&sb, vals[i]);
			p += strlen(keys[i]);
		} else {
			sb_add(&sb, p++, 1);
		}
	}
	free(t);
	return sb.buf;
}

/* #include <linux/@inc> before the include guard's #endif of @file. */
static int add_include(const char *file, const char *inc)
{
	char *t = read_file(file, NULL), *end, *line, *out;
	int rc;

	if (!t)
		return error("%s: %s", file, strerror(errno));
	line = xasprintf("#include <linux/%s>", inc);
	if (strstr(t, line)) {
		free(line);
		free(t);
		return 0;
	}
	end = strstr(t, "#endif");
	while (end && strstr(end + 1, "#endif"))
		end = strstr(end + 1, "#endif");
	if (!end) {
		free(line);
		free(t);
		return error("%s: no include guard to insert into", file);
	}
	out = xasprintf("%.*s%s\n\n%s", (int)(end - t), t, line, end);
	rc = write_file_atomic(file, out, strlen(out));
	free(out);
	free(line);
	free(t);
	return rc;
}

static int add_kconfig(const char *kconfig, const char *snippet)
{
	char *k = read_file(kconfig, NULL), *s = read_file(snippet, NULL);
	char *at, *next, *out;
	struct sb body = SB_INIT;
	const char *p;
	int rc = 0;

	if (!k || !s) {
		rc = error("%s: %s", k ? snippet : kconfig, strerror(errno));
		goto out;
	}
	if (strstr(k, "DEBUG_LOCK_T_TYPECHECK"))
		goto out;
	for (p = s; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0))
		if (*p != '#')
			sb_add(&body, p, strcspn(p, "\n")), sb_adds(&body, "\n");
	at = strstr(k, "config DEBUG_SPINLOCK\n");
	next = at ? strstr(at + 1, "\nconfig ") : NULL;
	if (!next) {
		rc = error("%s: no DEBUG_SPINLOCK entry to add the option after",
			   kconfig);
		goto out;
	}
	next++;
	out = xasprintf("%.*s%s\n%s", (int)(next - k), k, sb_str(&body), next);
	rc = write_file_atomic(kconfig, out, strlen(out));
	free(out);
out:
	sb_release(&body);
	free(k);
	free(s);
	return rc;
}

static int install_lock_h(struct conv *cv)
{
	const struct tree *t = &cv->s->tree;
	const char *era = t->has_rt_subst ? "RT_SUBST" : t->has_raw ? "RAW"
								     : "OLD";
	const char *names[] = { "lock.h", "lock_types.h" };
	char *tpl, *text, *dst, *f;
	unsigned i;
	int rc = 0;

	in_target(cv, "include/linux/spinlock_types.h");
	in_target(cv, "include/linux/spinlock.h");
	in_target(cv, "lib/Kconfig.debug");
	for (i = 0; i < 2 && !rc; i++) {
		tpl = xasprintf("%s/tool/templates/%s.in", rtlock_home(),
				names[i]);
		text = fill_template(tpl, era, t->version);
		dst = xasprintf("%s/include/linux/%s", cv->target, names[i]);
		if (!text || write_file_atomic(dst, text, strlen(text)) < 0)
			rc = error("%s: %s", text ? dst : tpl, strerror(errno));
		free(tpl);
		free(text);
		free(dst);
	}
	f = xasprintf("%s/include/linux/spinlock_types.h", cv->target);
	if (!rc)
		rc = add_include(f, "lock_types.h");
	free(f);
	f = xasprintf("%s/include/linux/spinlock.h", cv->target);
	if (!rc)
		rc = add_include(f, "lock.h");
	free(f);
	if (!rc) {
		char *k = xasprintf("%s/lib/Kconfig.debug", cv->target);
		char *s = xasprintf("%s/tool/templates/Kconfig.lock_t",
				    rtlock_home());

		rc = add_kconfig(k, s);
		free(k);
		free(s);
	}
	return rc;
}

/* ---- names and leftovers ---- */

int lock_h_names(const char *template_path, char ***names, size_t *n)
{
	char *t = read_file(template_path, NULL), *p;
	size_t alloc = 0;

	*names = NULL;
	*n = 0;
	if (!t)
		return error("%s: %s", template_path, strerror(errno));
	/* "#define NAME" and "static inline ... NAME(" */
	for (p = t; (p = strstr(p, "#define ")); p++) {
		char *q = p + 8, *e;

		while (*q == ' ' || *q == '\t')
			q++;
		for (e = q; ident_char(*e); e++)
			;
		if (e == q || !strncmp(q, "_LINUX_", 7) || !strncmp(q, "__", 2))
			continue;
		ALLOC_GROW(*names, *n, alloc);
		(*names)[(*n)++] = xstrndup(q, e - q);
	}
	free(t);
	return 0;
}

/* Lines left with spinlock API words (tool/leftover.c). */
static void check_file(struct conv *cv, struct cfile *f)
{
	char *path = xasprintf("%s/%s", cv->target, f->rel);
	char *t = read_file(path, NULL);

	if (t)
		cv->leftovers += leftover_lines(f->rel, t, &cv->keep_lines, &cv->impl,
						cv->leftover_list);
	free(t);
	free(path);
}

/* ---- driver ---- */

/*
 * Files never converted: the lock implementation (the EXCLUDE_FILES of
 * cocci/lock_t.cocci: seqlock_t and local_lock_t keep their spinlock_t)
 * and the user-space ABI headers.
 */
bool convert_leaves_alone(const char *rel)
{
	static const char *const prefixes[] = {
		"kernel/locking/", "lib/bucket_locks.c",
		/* seqlock.h; 6.12 also seqlock_types.h, seqlock_api.h */
		"include/linux/seqlock",
		"include/linux/local_lock", "include/uapi/",
		"arch/x86/include/uapi/",
	};
	unsigned i;

	if (is_lock_impl_file(rel))
		return true;
	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (has_prefix(rel, prefixes[i]))
			return true;
	return false;
}

/* The files a keep entry names ("file:line"). */
static void keep_files(struct conv *cv, struct strset *files)
{
	size_t i;

	for (i = 0; i < cv->keep_lines.n; i++) {
		const char *fl = cv->keep_lines.v[i];
		char *file = xstrndup(fl, strrchr(fl, ':') - fl);

		strset_add(files, file);
		free(file);
	}
}

/*
 * The files to convert.  Those in kernel/locking/ that do not implement
 * the spinlock API are still given to spatch when a keep entry names a
 * position there: a kept lock's type changes under the code that takes
 * it (percpu-rwsem.c and a wait queue's lock).  seqlock.h stays out
 * whole: seqlock_t keeps its spinlock_t.
 */
static void collect_files(struct conv *cv)
{
	const struct tree *t = &cv->s->tree;
	size_t i, n = t->ntus + t->nheaders;
	struct strset kept = { 0 };

	keep_files(cv, &kept);
	cv->files = xcalloc(n + 1, sizeof(*cv->files));
	for (i = 0; i < n; i++) {
		const char *rel = i < t->ntus ? t->tus[i]
					      : t->headers[i - t->ntus];

		if (convert_leaves_alone(rel) &&
		    !(has_prefix(rel, "kernel/locking/") &&
		      !is_lock_impl_file(rel) && strset_has(&kept, rel)))
			continue;
		if (i >= t->ntus && !tree_header_in_slice(t, rel))
			continue;
		if (cv->o->among && !strset_has(cv->o->among, rel))
			continue;
		cv->files[cv->nfiles++].rel = xstrdup(rel);
	}
	strset_free(&kept);
}

/*
 * The names lock.h defines, which no file of the tree may use already
 * (select_files() looks for them), into @set; none when the tree has
 * rtlock's lock.h, whose names its converted files use.  -1: no template.
 */
static int lock_h_name_set(struct conv *cv, struct name **set)
{
	char *tpl = xasprintf("%s/tool/templates/lock.h.in", rtlock_home());
	char *ours = xasprintf("%s/include/linux/lock.h", cv->s->tree.root);
	char *text = read_file(ours, NULL), **names = NULL;
	size_t n = 0, j;
	int rc = 0;

	*set = NULL;
	if (!(text && strstr(text, "Generated by " RTLOCK_VERSION)))
		rc = lock_h_names(tpl, &names, &n);
	for (j = 0; j < n; j++) {
		name_add(set, names[j]);
		free(names[j]);
	}
	free(names);
	free(text);
	free(ours);
	free(tpl);
	return rc;
}

/* Does file @rel use a name of @set?  Said, once. */
static bool uses_lock_h_name(struct name *set, const char *rel,
			     const char *text, size_t len)
{
	size_t i, n;

	for (i = 0; set && next_word(text, len, &i, &n); i += n) {
		if (!name_find(set, text + i, n))
			continue;
		error("%s: already uses '%.*s', a name lock.h defines: rename "
		      "it in the tree or in tool/templates first",
		      rel, (int)n, text + i);
		return true;
	}
	return false;
}

/* The names lock_t.cocci converts: the keys of its LOCK_T_MAP. */
static struct name *cocci_names(const char *cocci)
{
	char *t = read_file(cocci, NULL);
	struct strset keys = { 0 };
	struct name *set = NULL;
	unsigned i;

	if (t)
		cocci_block_names(t, "LOCK_T_MAP", true, &keys);
	for (i = 0; i < keys.n; i++)
		name_add(&set, keys.v[i]);
	strset_free(&keys);
	free(t);
	return set;
}

/*
 * Does @text hold a name the rules convert: a LOCK_T_MAP key, or a word
 * starting with "spinlock" (spinlock_t, the guard classes)?  raw_spin_*
 * and raw_spinlock_t are none of these.
 */
static bool has_cocci_name(struct name *names, const char *text, size_t len)
{
	size_t i, n;

	for (i = 0; next_word(text, len, &i, &n); i += n)
		if ((n >= 8 && !memcmp(text + i, "spinlock", 8)) ||
		    name_find(names, text + i, n))
			return true;
	return false;
}

/* Does @text hold a word of @names (".NAME" entries as NAME)? */
static bool has_kept_name(struct conv *cv, const char *text, size_t len)
{
	struct name *names = cv->keep_names;
	char dotted[128];
	size_t i, n;

	for (i = 0; next_word(text, len, &i, &n); i += n) {
		if (!maybe_kept(cv->kept_words, text + i, n))
			continue;
		if (name_find(names, text + i, n))
			return true;
		if (n + 1 < sizeof(dotted)) {
			dotted[0] = '.';
			memcpy(dotted + 1, text + i, n);
			if (name_find(names, dotted, n + 1))
				return true;
		}
	}
	return false;
}

/*
 * Drop the files with nothing to do, reading each once: those holding no
 * name the rules convert (the scan's prefilter also takes files for their
 * contexts, request_irq, local_irq_save ..., and for raw locks); with
 * @only_kept, also those no keep entry names ("file:line") that hold no
 * name only kept locks have, which the rules keep wherever it is written
 * (arch/x86/include/asm/pgtable.h's "extern spinlock_t pgd_lock;", a
 * declaration the scan does not record).  On the same read, a file that
 * uses a name of @taken (lock.h's) is an error: -1.
 */
static int select_files(struct conv *cv, bool only_kept, struct name *taken)
{
	struct name *names = cocci_names(cv->cocci); /* NULL: all, as before */
	struct strset kept = { 0 };
	size_t i, n = 0, len;
	int rc = 0;

	if (only_kept)
		keep_files(cv, &kept);
	for (i = 0; i < cv->nfiles; i++) {
		const char *rel = cv->files[i].rel;
		char *path = xasprintf("%s/%s", cv->s->tree.root, rel);
		char *text = read_file(path, &len);
		/* a seqcount may follow a kept lock: decided once all are read */
		bool seq = text && cv->raw && seqcounts_scan(&cv->seq, rel, text);
		bool keep = !text || !only_kept || strset_has(&kept, rel) ||
			    (cv->keep_names && has_kept_name(cv, text, len));

		if (!rc && text && uses_lock_h_name(taken, rel, text, len))
			rc = -1;
		if (seq || (keep && (!text || !names ||
				     has_cocci_name(names, text, len)))) {
			cv->files[n++] = cv->files[i];
		} else {
			cv->no_names += keep;
			free(cv->files[i].rel);
		}
		free(text);
		free(path);
	}
	cv->nfiles = n;
	strset_free(&kept);
	names_free(&names);
	return rc;
}

/* Did the conversion change the text of @f? */
static bool file_changed(struct conv *cv, struct cfile *f)
{
	char *a = xasprintf("%s/%s", cv->s->tree.root, f->rel);
	char *b = xasprintf("%s/%s", cv->target, f->rel);
	size_t la, lb;
	char *ta = read_file(a, &la), *tb = read_file(b, &lb);
	bool changed = !ta || !tb || la != lb || memcmp(ta, tb, la);

	free(ta);
	free(tb);
	free(a);
	free(b);
	return changed;
}

static json_t *result_json(struct conv *cv, double secs)
{
	json_t *failed = json_array(), *changed = json_array();
	size_t i, cached = 0;

	for (i = 0; i < cv->nfiles; i++) {
		if (!cv->files[i].failed && strcmp(cv->target, cv->s->tree.root) &&
		    file_changed(cv, &cv->files[i]))
			json_array_append_new(changed,
					      json_string(cv->files[i].rel));
		if (cv->files[i].failed)
			json_array_append_new(
				failed, json_pack("{ssss}", "file",
						  cv->files[i].rel, "why",
						  cv->files[i].why ?: "?"));
		cached += cv->files[i].cached;
	}
	return json_pack("{sssssisisisisosisOsfso}", "schema", "rtlock-convert-1",
			 "target", cv->target, "files", (int)cv->nfiles,
			 "no_names", (int)cv->no_names,
			 "from_cache", (int)cached, "spatch_runs",
			 (int)cv->ntodo, "failed", failed, "leftovers",
			 cv->leftovers, "leftover_lines", cv->leftover_list,
			 "seconds", secs, "changed_files", changed);
}

/*
 * Interrupted: nothing half converted stays.  The copy is removed; a
 * checkout converted in place (clean when we began) is checked out again;
 * in a tree of rtlock's own that is reused, the files whose batch did not
 * run through get their original text back.
 */
static void undo_target(struct conv *cv)
{
	char *argv[] = { "git", "-C", (char *)cv->target, "checkout", "-q",
			 "--", ".", NULL };
	size_t i;

	if (cv->o->in_place) {
		if (run_command(argv, NULL, NULL))
			warning("%s: 'git checkout .' failed: the checkout is "
				"half converted", cv->target);
	} else if (cv->o->reuse_target) {
		for (i = 0; i < cv->ntodo; i++)
			if (!cv->files[cv->todo[i]].done)
				restore(cv, &cv->files[cv->todo[i]]);
	} else if (remove_tree(cv->target) < 0) {
		warning("%s: %s: remove the half-converted copy",
			cv->target, strerror(errno));
	}
}

int convert_run(const struct convert_opts *o, struct scan *s, json_t *inv,
		json_t *classification, json_t **result)
{
	struct conv cv = { .o = o, .s = s };
	struct name *taken;	/* lock.h's names, no file may use them */
	bool bad_names;
	double t0 = now_sec();
	size_t i;
	int rc = EXIT_OK;

	cv.raw = s->tree.has_raw;
	cv.cocci = xasprintf("%s/cocci/lock_t.cocci", rtlock_home());
	cv.text_rule = xasprintf("%s/cocci/lock_t_text.py", rtlock_home());
	cv.leftover_list = json_array();
	cv.logs = xasprintf("%s/logs", o->meta_dir);
	{
		const char *sp = getenv("RTLOCK_SPATCH");

		sp = find_in_path(sp && *sp ? sp : "spatch");
		if (!sp) {
			error("spatch (Coccinelle) not found: apt-get install "
			      "coccinelle, or set RTLOCK_SPATCH");
			rc = EXIT_ENV;
			goto out;
		}
		cv.spatch = xstrdup(sp);
	}
	if (!find_in_path("python3")) {
		error("python3 not found (Coccinelle's scripting needs it)");
		rc = EXIT_ENV;
		goto out;
	}
	if (!is_file(cv.cocci)) {
		error("%s: missing (is rtlock installed whole?)", cv.cocci);
		rc = EXIT_ENV;
		goto out;
	}
	if (leftover_impl_names(cv.cocci, &cv.impl) < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	if (mkdir_p(cv.logs) < 0) {
		error("%s: %s", cv.logs, strerror(errno));
		rc = EXIT_ENV;
		goto out;
	}
	build_keep_lists(&cv, inv, classification);
	collect_files(&cv);
	taken = NULL;
	bad_names = (!o->reuse_target && lock_h_name_set(&cv, &taken) < 0) ||
		    select_files(&cv, o->only_kept, taken) < 0;
	names_free(&taken);
	if (bad_names) {
		rc = EXIT_INPUT;
		goto out;
	}
	if (o->select_only) {
		json_t *sel = json_array();

		for (i = 0; i < cv.nfiles; i++)
			json_array_append_new(sel, json_string(cv.files[i].rel));
		*result = json_pack("{so}", "selected", sel);
		goto out;
	}
	seqcounts_resolve_aliases(&cv.seq);
	keep_seqcounts(&cv);
	if (write_keep_lists(&cv) < 0) {
		rc = EXIT_ENV;
		goto out;
	}
	if (o->in_place) {
		if (git_clean(s->tree.root, o->meta_dir) < 0) {
			rc = EXIT_INPUT;
			goto out;
		}
		cv.target = s->tree.root;
	} else if (o->reuse_target) {
		cv.target = o->out_tree;
	} else {
		if (!access(o->out_tree, F_OK)) {
			error("%s already exists: give a new directory", o->out_tree);
			rc = EXIT_INPUT;
			goto out;
		}
		cv.target = o->out_tree;
		if (o->sparse_target) {
			if (mkdir_p(o->out_tree) < 0) {
				error("%s: %s", o->out_tree, strerror(errno));
				rc = EXIT_ENV;
				goto out;
			}
		} else if (copy_tree(s->tree.root, o->out_tree) < 0) {
			rc = EXIT_ENV;
			if (pool_interrupted()) {
				undo_target(&cv);
				error("interrupted: nothing was converted yet");
				rc = EXIT_INTR;
			}
			goto out;
		}
	}
	rules_hash(&cv);
	if (convert_files(&cv) < 0) {
		undo_target(&cv);
		error("interrupted: converted files are cached, the next run "
		      "goes on from there");
		rc = EXIT_INTR;
		goto out;
	}
	if (install_lock_h(&cv) < 0) {
		rc = EXIT_FAIL;
		goto out;
	}
	for (i = 0; i < cv.nfiles; i++)
		if (!cv.files[i].failed)
			check_file(&cv, &cv.files[i]);
		else
			warning("%s: not converted: %s", cv.files[i].rel,
				cv.files[i].why ?: "?");
	*result = result_json(&cv, now_sec() - t0);
	if (json_array_size(json_object_get(*result, "failed")) || cv.leftovers)
		rc = EXIT_REVIEW;
out:
	for (i = 0; i < cv.nfiles; i++) {
		free(cv.files[i].rel);
		free(cv.files[i].why);
	}
	free(cv.files);
	free(cv.todo);
	free(cv.cocci);
	free(cv.text_rule);
	free(cv.spatch);
	free(cv.sites_path);
	free(cv.decls_path);
	free(cv.names_path);
	sb_release(&cv.sites);
	sb_release(&cv.decls);
	sb_release(&cv.names);
	names_free(&cv.keep_names);
	names_free(&cv.file_keep);
	seqcounts_free(&cv.seq);
	json_decref(cv.lock_of);
	free(cv.kept_words);
	free(cv.logs);
	strset_free(&cv.keep_lines);
	strset_free(&cv.impl);
	json_decref(cv.leftover_list);
	return rc;
}
