// SPDX-License-Identifier: GPL-2.0
#include "scan.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apitab.h"
#include "extract.h"
#include "flow.h"
#include "hash.h"
#include "pool.h"
#include "progress.h"
#include "util.h"
#include "version.h"
#include "built.h"
#include "clang.h"
#include "facts-version.h"

struct job_ctx {
	struct scan *s;
	const struct scan_opts *o;
	size_t *todo;		/* indexes into s->tus */
	struct progress *pr;
	int store_errno;	/* a worker could not write to the cache */
};

/* A worker's exit code when the cache could not be written: this + errno. */
#define JOB_STORE_FAILED 16

/*
 * Facts of @file; with the prelude PCH unless @pch is NULL; @incs: the
 * -I options its Makefiles add, "\n"-separated, or NULL.
 */
static json_t *extract_with(struct scan *s, const char *file, const char *incs,
			    const char *pch, char *err, size_t errsize,
			    int *store_errno)
{
	struct tu_args a;
	struct extract_opts eo;
	json_t *facts;

	kbuild_tu_args(&a, &s->kb, &s->tree, file, incs, pch);
	eo = (struct extract_opts){ s->tree.root, a.v, a.n, s->cache.hdr_dir,
				    s->salt, 0, store_errno,
				    pch ? s->prelude.macros : NULL };
	facts = extract_tu(&eo, file, err, errsize);
	tu_args_release(&a);
	return facts;
}

static unsigned nerrors(json_t *facts)
{
	return json_int(facts, "errors");
}

/*
 * 6.1: 177 of the 245 TUs parsed again had a missing header first (another
 * architecture's, or a Makefile's include path the scan does not give), a
 * second of CPU each for nothing.
 */
bool scan_retry_without_prelude(json_t *facts)
{
	const char *first;

	if (!facts)
		return true;
	first = json_string_value(json_object_get(facts, "first_error"));
	return nerrors(facts) && !(first && has_suffix(first, "file not found"));
}

static int scan_job(size_t i, void *data)
{
	struct job_ctx *c = data;
	struct scan *s = c->s;
	struct scan_tu *tu = c->todo ? &s->tus[c->todo[i]] : NULL;
	const char *file = tu ? tu->file : s->prelude.header;
	const char *incs = tu ? tu->incs : NULL;
	const char *salt = tu ? tu->salt : s->salt;
	const char *pch = c->todo ? s->prelude.pch : NULL;
	char err[512], key[33];
	int store_errno = 0;
	json_t *facts, *alt;

	test_hold("parse", file);
	facts = extract_with(s, file, incs, pch, err, sizeof(err), &store_errno);
	/* errors under the prelude: try without, keep the better parse */
	if (pch && scan_retry_without_prelude(facts)) {
		alt = extract_with(s, file, incs, NULL, err, sizeof(err),
				   &store_errno);
		if (alt && (!facts || nerrors(alt) < nerrors(facts))) {
			json_decref(facts);
			facts = alt;
		} else {
			json_decref(alt);
		}
		if (facts)
			json_object_set_new(facts, "reparsed", json_true());
	}
	if (!facts) {
		fprintf(stderr, "rtlock: %s\n", err);
		return 3;
	}
	/* a header's facts not written: store nothing, parse it next time */
	if (store_errno)
		return JOB_STORE_FAILED + store_errno;
	if (cache_store(&s->cache, salt, file, facts, key))
		return JOB_STORE_FAILED + (errno ? errno : EIO);
	return 0;
}

static void job_done(size_t i, const struct job_result *r, void *data)
{
	struct job_ctx *c = data;
	struct scan_tu *tu;
	char buf[64];

	if (r->state == JOB_FAILED && r->code > JOB_STORE_FAILED &&
	    r->code < 250) {
		/* the cache is full or gone: no use parsing on */
		c->store_errno = r->code - JOB_STORE_FAILED;
		pool_abort();
		return;
	}
	if (!c->todo)
		return; /* the prelude */
	tu = &c->s->tus[c->todo[i]];
	if (r->state != JOB_OK) {
		tu->state = r->state == JOB_TIMEOUT   ? "timeout"
			    : r->state == JOB_CRASHED ? "crashed"
						      : "failed";
		tu->why = xstrdup(job_state_name(r, buf, sizeof(buf)));
		warning("%s: %s", tu->file, tu->why);
	}
	progress_tick(c->pr, 1);
}

static void make_salt(struct scan *s, const char *prelude_hash)
{
	/* the kbuild output is NULL without kbuild: the end of the list */
	const char *const places[] = { s->tree.root, s->kb.objdir, NULL };
	struct hasher h;
	int i;

	/* the extractor's own sources: a change there invalidates facts */
	hasher_init(&h);
	hasher_adds(&h, RTLOCK_FACTS_HASH);
	hasher_adds(&h, "rtlock-facts-1");
	/*
	 * not the tree's place, nor the cache's (the flags name its kbuild
	 * output): the same files elsewhere share the facts, and a cache
	 * restored elsewhere is still warm
	 */
	for (i = 0; i < s->kb.nargs; i++)
		hasher_adds_placed(&h, s->kb.args[i], places);
	hasher_adds(&h, prelude_hash);
	hasher_final(&h, s->salt);
}

/* Are @rel's facts among the TU's own (a header without a guard)? */
static bool is_inlined(json_t *facts, const char *rel)
{
	json_t *hf;
	size_t i;

	json_array_foreach(json_object_get(facts, "inlined"), i, hf)
		if (!strcmp(json_str(hf, "file"), rel))
			return true;
	return false;
}

/*
 * The facts of the headers a TU includes that are not loaded yet, in @out
 * with their keys in @keys; -1 when one is missing (its entry was corrupt,
 * or could not be written): parsing the TU again writes it.
 */
static int header_facts(struct scan *s, json_t *facts, json_t *out,
			struct strset *keys)
{
	const char *rel;
	json_t *v;

	json_object_foreach(json_object_get(facts, "deps"), rel, v) {
		char key[33], *path;
		json_t *hf;

		if (rel[0] == '/' || !json_is_string(v) ||
		    is_lock_impl_file(rel) || is_inlined(facts, rel))
			continue;
		header_key(s->salt, rel, json_string_value(v), key);
		if (strset_has(&s->hdr_seen, key) || !strset_add(keys, key))
			continue;
		path = header_facts_path(s->cache.hdr_dir, key);
		hf = cache_load_record(&s->cache, path, "file", rel);
		free(path);
		if (!hf)
			return -1;
		json_array_append_new(out, hf);
	}
	return 0;
}

/* Merge a TU's facts and its headers' into the program. */
static void add_tu_facts(struct scan *s, json_t *f, json_t *hdrs,
			 struct strset *keys)
{
	size_t i;
	json_t *hf;

	prog_add_facts(&s->prog, f);
	json_array_foreach(json_object_get(f, "inlined"), i, hf)
		prog_add_facts(&s->prog, hf);
	json_array_foreach(hdrs, i, hf) {
		prog_add_facts(&s->prog, hf);
		s->hdr_facts++;
	}
	for (i = 0; i < keys->n; i++)
		strset_add(&s->hdr_seen, keys->v[i]);
}

/*
 * TU facts as the scan wrote them, read by cache_read() (@j, @why): the
 * schema and the file must match.
 */
static json_t *tu_facts(struct scan *s, const char *key, const char *file,
			json_t *j, const char *why)
{
	char *path = cache_tu_path(&s->cache, key);
	json_t *f = cache_record(&s->cache, path, j, why, "file", file);

	if (f && strcmp(json_string_value(json_object_get(f, "schema")) ?: "",
			"rtlock-facts-1")) {
		warning("%s: corrupt cache entry ignored (schema)", path);
		s->cache.corrupt++;
		unlink(path);
		json_decref(f);
		f = NULL;
	}
	free(path);
	return f;
}

/* cache_read() of TU entry @key: touches nothing shared. */
static json_t *read_tu(const struct scan *s, const char *key, char *why,
		       size_t whysize)
{
	char *path = cache_tu_path(&s->cache, key);
	json_t *j = cache_read(path, why, whysize);

	free(path);
	return j;
}

static json_t *load_tu_facts(struct scan *s, const char *key, const char *file)
{
	char why[256];
	json_t *j = read_tu(s, key, why, sizeof(why));

	return tu_facts(s, key, file, j, why);
}

/*
 * Threads that read and decode the TUs' facts ahead of load_facts(),
 * which adds them to the program in order: decoding is most of a warm
 * scan's loading.  They touch nothing shared but this.
 */
#define READ_THREADS 2
#define READ_AHEAD 64

struct read_ahead {
	struct scan *s;
	struct ahead {
		json_t *j;
		char why[256];
		bool done;
	} *v;
	size_t next;		/* the next TU a thread takes */
	size_t consumed;	/* load_facts() is at this TU */
	bool stop;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t th[READ_THREADS];
	unsigned nthreads;
};

static void *read_ahead(void *arg)
{
	struct read_ahead *ra = arg;
	struct scan *s = ra->s;

	pthread_mutex_lock(&ra->lock);
	for (;;) {
		size_t i;
		struct scan_tu *tu;

		while (!ra->stop && ra->next < s->ntus &&
		       ra->next >= ra->consumed + READ_AHEAD)
			pthread_cond_wait(&ra->cond, &ra->lock);
		if (ra->stop || ra->next >= s->ntus)
			break;
		i = ra->next++;
		pthread_mutex_unlock(&ra->lock);
		tu = &s->tus[i];
		if (tu->key[0] && !tu->loaded)
			ra->v[i].j = read_tu(s, tu->key, ra->v[i].why,
					     sizeof(ra->v[i].why));
		pthread_mutex_lock(&ra->lock);
		ra->v[i].done = true;
		pthread_cond_broadcast(&ra->cond);
	}
	pthread_mutex_unlock(&ra->lock);
	return NULL;
}

static void read_ahead_start(struct read_ahead *ra, struct scan *s)
{
	memset(ra, 0, sizeof(*ra));
	ra->s = s;
	ra->v = xcalloc(s->ntus + 1, sizeof(*ra->v));
	pthread_mutex_init(&ra->lock, NULL);
	pthread_cond_init(&ra->cond, NULL);
	while (ra->nthreads < READ_THREADS &&
	       !pthread_create(&ra->th[ra->nthreads], NULL, read_ahead, ra))
		ra->nthreads++;
}

/* TU @i's facts: the threads', or read here if none could start. */
static json_t *read_ahead_get(struct read_ahead *ra, size_t i)
{
	struct scan_tu *tu = &ra->s->tus[i];
	json_t *j;

	if (!ra->nthreads)
		return load_tu_facts(ra->s, tu->key, tu->file);
	pthread_mutex_lock(&ra->lock);
	ra->consumed = i;
	pthread_cond_broadcast(&ra->cond);
	while (!ra->v[i].done)
		pthread_cond_wait(&ra->cond, &ra->lock);
	pthread_mutex_unlock(&ra->lock);
	j = ra->v[i].j;
	ra->v[i].j = NULL;
	return tu_facts(ra->s, tu->key, tu->file, j, ra->v[i].why);
}

static void read_ahead_end(struct read_ahead *ra)
{
	size_t i;

	pthread_mutex_lock(&ra->lock);
	ra->stop = true;
	pthread_cond_broadcast(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
	for (i = 0; i < ra->nthreads; i++)
		pthread_join(ra->th[i], NULL);
	for (i = 0; i < ra->s->ntus; i++)
		json_decref(ra->v[i].j);
	free(ra->v);
	pthread_mutex_destroy(&ra->lock);
	pthread_cond_destroy(&ra->cond);
}

/*
 * Load every TU's facts into the program.  A TU whose cached entry turns
 * out unreadable, or one of whose headers' facts is missing, is dropped and
 * its index returned in @redo, to be parsed again (when @redo is NULL, the
 * second time, a missing header is done without).
 */
static size_t load_facts(struct scan *s, size_t *redo)
{
	struct read_ahead ra;
	size_t i, nredo = 0;

	if (s->prelude_key[0]) {
		json_t *f = load_tu_facts(s, s->prelude_key, NULL);
		json_t *hdrs = json_array();
		struct strset keys = { 0 };

		if (f) {
			header_facts(s, f, hdrs, &keys);
			add_tu_facts(s, f, hdrs, &keys);
		}
		json_decref(f);
		json_decref(hdrs);
		strset_free(&keys);
		s->prelude_key[0] = '\0';
	}

	read_ahead_start(&ra, s);
	for (i = 0; i < s->ntus; i++) {
		struct scan_tu *tu = &s->tus[i];
		struct strset keys = { 0 };
		json_t *f, *fe, *hdrs;

		if (!tu->key[0] || tu->loaded)
			continue;
		f = read_ahead_get(&ra, i);
		hdrs = json_array();
		if (!f || (header_facts(s, f, hdrs, &keys) < 0 && redo)) {
			json_decref(f);
			json_decref(hdrs);
			strset_free(&keys);
			tu->key[0] = '\0';
			if (redo) {
				redo[nredo++] = i;
			} else {
				tu->state = "failed";
				tu->why = xstrdup("its cache entry is unreadable "
						  "right after the parse");
				warning("%s: %s", tu->file, tu->why);
				s->failed++;
			}
			continue;
		}
		tu->loaded = true;
		s->reparsed += json_is_true(json_object_get(f, "reparsed"));
		tu->errors = json_int(f, "errors");
		fe = json_object_get(f, "first_error");
		if (tu->errors) {
			tu->state = "errors";
			tu->why = xstrdup(json_string_value(fe) ?: "");
			s->with_errors++;
		}
		add_tu_facts(s, f, hdrs, &keys);
		json_decref(f);
		json_decref(hdrs);
		strset_free(&keys);
	}
	read_ahead_end(&ra);
	return nredo;
}

static int cache_full(const struct scan *s, int err)
{
	error("cache directory %s: cannot store facts: %s", s->cache.dir,
	      strerror(err));
	return EXIT_ENV;
}

/*
 * Parse the TUs listed in @todo in worker processes: 0, or EXIT_INTR when
 * interrupted, EXIT_ENV when the cache could not be written (reported).
 */
static int parse_tus(const struct scan_opts *o, struct scan *s, size_t *todo,
		     size_t ntodo)
{
	struct job_ctx jc = { s, o, todo, NULL, 0 };
	struct job_result *res = xcalloc(ntodo + 1, sizeof(*res));
	struct pool_opts po = { o->jobs, o->timeout, job_done, &jc };
	size_t i;
	int rc;

	jc.pr = progress_start("parse", ntodo, o->quiet);
	rc = pool_run(&po, ntodo, scan_job, &jc, res);
	progress_end(jc.pr);
	if (rc) {
		free(res);
		return pool_interrupted() ? EXIT_INTR : cache_full(s, jc.store_errno);
	}
	for (i = 0; i < ntodo; i++) {
		struct scan_tu *tu = &s->tus[todo[i]];

		if (res[i].state != JOB_OK) {
			s->failed++;
			continue;
		}
		s->parsed++;
		if (!cache_lookup(&s->cache, tu->salt, tu->file, tu->key)) {
			tu->state = "failed";
			tu->why = xstrdup("facts were not found in the cache "
					  "after the parse");
			warning("%s: %s", tu->file, tu->why);
			s->failed++;
			s->parsed--;
		}
	}
	free(res);
	return 0;
}

/*
 * The prelude PCH and the facts of its headers (parsed once, in a worker
 * like any TU).  Without it, every TU is parsed from scratch.
 */
static void setup_prelude(const struct scan_opts *o, struct scan *s)
{
	struct job_ctx jc = { s, o, NULL, NULL, 0 };
	struct pool_opts po = { 1, o->timeout, job_done, &jc };
	struct job_result res = { 0 };
	char *dir;

	make_salt(s, "");
	if (o->no_prelude || !s->kb.objdir)
		return;
	/* the PCH names the tree's headers: one per tree */
	{
		char where[HASH_HEX];

		hash_buf(s->tree.root, strlen(s->tree.root), where);
		dir = xasprintf("%s/prelude-%s-%.8s", s->cache.dir, s->salt,
				where);
	}
	if (prelude_build(&s->prelude, &s->tree, &s->kb, &s->cache, dir) < 0) {
		free(dir);
		return;
	}
	free(dir);
	make_salt(s, s->prelude.hash);
	if (cache_lookup(&s->cache, s->salt, s->prelude.header,
			 s->prelude_key))
		return;
	if (pool_run(&po, 1, scan_job, &jc, &res) == 0 &&
	    res.state == JOB_OK &&
	    cache_lookup(&s->cache, s->salt, s->prelude.header, s->prelude_key))
		return;
	warning("the prelude headers could not be parsed: without prelude");
	prelude_release(&s->prelude);
	make_salt(s, "");
}

int scan_interrupted(void)
{
	if (!pool_interrupted())
		return 0;
	error("interrupted: the facts parsed so far are cached, the next run "
	      "goes on from there");
	return EXIT_INTR;
}

/*
 * The TUs to parse: those the configuration builds (with kbuild; a bare
 * tree has no configuration), the others listed in s->not_built.  The
 * conversion still gets every file of the tree.
 */
/* List @rel in s->not_built when @b says the configuration leaves it out. */
static bool left_out(struct scan *s, struct built *b, const char *rel)
{
	const char *option = b ? built_why(b, rel) : NULL;

	if (option)
		json_array_append_new(s->not_built,
				      json_pack("{ssss}", "file", rel,
						"option", option));
	return option != NULL;
}

/*
 * The -I options @tu's Makefiles add (i915's subdir-ccflags-y for its
 * gt/ and display/ files), and the salt of its facts: the scan's, mixed
 * with those options when there are some.
 */
static void tu_salt(struct scan *s, struct built *b, struct scan_tu *tu)
{
	const char *const places[] = { s->tree.root, s->kb.objdir, NULL };
	struct sb incs = SB_INIT;
	struct hasher h;

	memcpy(tu->salt, s->salt, sizeof(tu->salt));
	if (b)
		built_include_opts(b, tu->file, &incs);
	if (!incs.len)
		return;
	tu->incs = incs.buf;	/* the buffer is @tu's now */
	hasher_init(&h);
	hasher_adds(&h, s->salt);
	hasher_adds(&h, "incs-last");
	hasher_adds_placed(&h, tu->incs, places);
	hasher_final(&h, tu->salt);
}

static int select_built(struct scan *s)
{
	struct built *b = NULL;
	char *dotconfig;
	size_t i;

	s->not_built = json_array();
	s->tus = xcalloc(s->tree.ntus + 1, sizeof(*s->tus));
	if (s->kb.objdir) {
		dotconfig = xasprintf("%s/.config", s->kb.objdir);
		b = built_open(s->tree.root, dotconfig);
		free(dotconfig);
		if (!b)
			return -1;
	}
	for (i = 0; i < s->tree.ntus; i++) {
		struct scan_tu *tu = &s->tus[s->ntus];

		if (left_out(s, b, s->tree.tus[i]))
			continue;
		tu->file = s->tree.tus[i];
		tu->state = "ok";
		tu_salt(s, b, tu);
		s->ntus++;
	}
	for (i = 0; b && i < s->tree.nheaders; i++)
		left_out(s, b, s->tree.headers[i]);
	built_close(b);
	return 0;
}

int scan_run(const struct scan_opts *o, struct scan *s)
{
	size_t i, ntodo = 0, *todo;
	double t0 = now_sec();
	int rc;

	memset(s, 0, sizeof(*s));
	prog_init(&s->prog);
	/* from here on, SIGINT/SIGTERM end the run at the next stage */
	pool_catch_signals();
	if (tree_open(&s->tree, o->kernel, o->arch) < 0)
		return EXIT_INPUT;
	s->prog.raw_dec_and_lock = s->tree.has_raw_dec_and_lock;
	if (clang_load() < 0)
		return EXIT_ENV;
	s->tree.only = o->only;
	if (cache_open(&s->cache, o->cache_dir, s->tree.root) < 0)
		return EXIT_ENV;
	tree_prefilter(&s->tree);
	s->t_prefilter = now_sec() - t0;
	if (scan_interrupted())
		return EXIT_INTR;
	if (!s->tree.ntus) {
		error("%s: no C file uses the spinlock API", o->kernel);
		return EXIT_INPUT;
	}
	if (kbuild_setup(&s->kb, &s->tree, o->cache_dir, o->config,
			 !o->quiet) < 0)
		return scan_interrupted() ?: EXIT_ENV;
	setup_prelude(o, s);
	if (scan_interrupted())
		return EXIT_INTR;

	t0 = now_sec();
	if (select_built(s) < 0)
		return EXIT_ENV;
	todo = xcalloc(s->ntus + 1, sizeof(size_t));
	for (i = 0; i < s->ntus; i++) {
		if (cache_lookup(&s->cache, s->tus[i].salt, s->tus[i].file,
				 s->tus[i].key)) {
			s->tus[i].cached = true;
			s->cached++;
		} else {
			todo[ntodo++] = i;
		}
	}
	rc = parse_tus(o, s, todo, ntodo);
	if (rc)
		goto out;
	s->t_parse = now_sec() - t0;

	t0 = now_sec();
	ntodo = load_facts(s, todo);
	if (ntodo) {
		/* corrupt cache entries: parse those TUs again */
		for (i = 0; i < ntodo; i++)
			if (s->tus[todo[i]].cached) {
				s->tus[todo[i]].cached = false;
				s->cached--;
			} else {
				s->parsed--;
			}
		rc = parse_tus(o, s, todo, ntodo);
		if (rc)
			goto out;
		load_facts(s, NULL);
	}
	prog_link(&s->prog);
	s->t_link = now_sec() - t0;
	if (s->failed == s->ntus && s->ntus) {
		rc = error("no TU could be parsed: is libclang working? "
			   "(see the first failure above)");
		rc = EXIT_FAIL;
	}
out:
	free(todo);
	if (rc == EXIT_INTR)
		return scan_interrupted();
	return rc;
}

/* ---- inventory ---- */

struct site_ctx {
	struct scan *s;
	json_t *sites, *unresolved;
	struct strset positions, resolved_pos;
	unsigned spin_sites, spin_resolved;
};

static json_t *strset_json(const struct strset *ss)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; i < ss->n; i++)
		json_array_append_new(a, json_string(ss->v[i]));
	return a;
}

static int site_cb(const struct flow_event *e, void *data)
{
	struct site_ctx *c = data;
	const char *at = json_string_value(json_array_get(e->ev, 5));
	const char *api = json_string_value(json_array_get(e->ev, 3));
	const char *tgt = json_string_value(json_array_get(e->ev, 4));
	struct strset ids = { 0 }, held = { 0 };
	bool ok;
	unsigned i;
	json_t *site;

	if (strcmp(e->kind, "lock") || !at || !api || !tgt)
		return 0;
	ok = prog_resolve(&c->s->prog, tgt, &ids);
	for (i = 0; i < e->st->nheld; i++)
		prog_resolve(&c->s->prog, e->st->held[i].target, &held);
	site = json_pack("{sssssssssisossso}", "at", at, "api", api, "op",
			 json_string_value(json_array_get(e->ev, 2)), "func",
			 e->fn->id, "line",
			 (int)json_integer_value(json_array_get(e->ev, 1)),
			 "locks", strset_json(&ids), "target", tgt, "held",
			 strset_json(&held));
	if (e->st->irq)
		json_object_set_new(site, "irqs_off", json_true());
	if (e->st->preempt)
		json_object_set_new(site, "preempt_off", json_true());
	json_object_set_new(site, "file", json_string(e->fn->file));
	json_array_append_new(c->sites, site);
	if (strset_add(&c->positions, at)) {
		c->spin_sites++;
		if (ok) {
			c->spin_resolved++;
			strset_add(&c->resolved_pos, at);
		} else {
			json_array_append_new(
				c->unresolved,
				json_pack("{ssssssss}", "at", at, "api", api,
					  "func", e->fn->id, "target", tgt));
		}
	}
	for (i = 0; i < ids.n; i++) {
		struct plock *l = prog_lock(&c->s->prog, ids.v[i]);

		/* a lock reached only through a pointer: allocated */
		if (!l)
			l = prog_add_lock(&c->s->prog, ids.v[i],
					  strncmp(api, "raw_", 4) ? LT_SPIN
								  : LT_RAW,
					  "pointee", e->fn->file,
					  json_integer_value(
						  json_array_get(e->ev, 1)));
		l->nsites++;
	}
	strset_free(&ids);
	strset_free(&held);
	return 0;
}

static int cmp_at(const void *a, const void *b)
{
	return strcmp(json_str(*(json_t *const *)a, "at"),
		      json_str(*(json_t *const *)b, "at"));
}

/*
 * __SPIN_LOCK_UNLOCKED() in static initialisers: sites outside functions,
 * by position (the facts come in the order files were read, which depends
 * on what the cache held).
 */
static void static_sites(struct site_ctx *c)
{
	size_t i, n = json_array_size(c->s->prog.statics);
	json_t **v = xcalloc(n + 1, sizeof(*v)), *one;

	json_array_foreach(c->s->prog.statics, i, one)
		v[i] = one;
	qsort(v, n, sizeof(*v), cmp_at);
	for (i = 0; i < n; i++) {
		json_t *st = v[i];
		const char *at = json_string_value(json_object_get(st, "at"));
		const char *lock = json_string_value(json_object_get(st, "lock"));
		struct plock *l = prog_lock(&c->s->prog, lock);
		char *tgt;

		if (!at || !lock || !strset_add(&c->positions, at))
			continue;
		tgt = xasprintf("L:%s", lock);
		json_array_append_new(
			c->sites,
			json_pack("{sOsssssOs[s]sss[]sO}", "at",
				  json_object_get(st, "at"), "api",
				  json_string_value(json_object_get(st, "api")),
				  "op", "static", "func",
				  json_object_get(st, "obj"), "locks", lock,
				  "target", tgt, "held", "file",
				  json_object_get(st, "file")));
		free(tgt);
		c->spin_sites++;
		c->spin_resolved++;
		if (l)
			l->nsites++;
	}
	free(v);
}

static int cmp_func(const void *a, const void *b)
{
	return strcmp((*(struct pfunc *const *)a)->id,
		      (*(struct pfunc *const *)b)->id);
}

static int cmp_lock(const void *a, const void *b)
{
	return strcmp((*(struct plock *const *)a)->id,
		      (*(struct plock *const *)b)->id);
}

static json_t *locks_json(struct scan *s, json_t *counts)
{
	struct plock *l, *tmp, **v;
	size_t n = HASH_COUNT(s->prog.locks), i = 0;
	json_t *a = json_array();
	unsigned nspin = 0, nraw = 0;

	v = xcalloc(n + 1, sizeof(*v));
	HASH_ITER(hh, s->prog.locks, l, tmp)
		v[i++] = l;
	qsort(v, n, sizeof(*v), cmp_lock);
	for (i = 0; i < n; i++) {
		json_t *o;
		json_int_t k;

		l = v[i];
		o = json_pack("{sssssssssisi}", "id", l->id, "type",
			      lock_type_name(l->type), "kind", l->kind, "file",
			      l->file, "line", l->line, "sites", l->nsites);
		if (l->array)
			json_object_set_new(o, "array", json_true());
		if (l->decls.n > 1)
			json_object_set_new(o, "decls", strset_json(&l->decls));
		json_array_append_new(a, o);
		k = json_integer_value(json_object_get(counts, l->kind));
		json_object_set_new(counts, l->kind, json_integer(k + 1));
		if (l->type == LT_RAW)
			nraw++;
		else
			nspin++;
	}
	json_object_set_new(counts, "spinlock_t", json_integer(nspin));
	json_object_set_new(counts, "raw_spinlock_t", json_integer(nraw));
	free(v);
	return a;
}

json_t *scan_inventory(struct scan *s)
{
	struct site_ctx c = { .s = s, .sites = json_array(),
				.unresolved = json_array() };
	struct pfunc *f, *tmp, **fv;
	size_t nf = HASH_COUNT(s->prog.funcs), i = 0;
	json_t *inv, *tus = json_array(), *kinds = json_object(), *locks;
	json_t *skipped = json_array();

	fv = xcalloc(nf + 1, sizeof(*fv));
	HASH_ITER(hh, s->prog.funcs, f, tmp)
		fv[i++] = f;
	qsort(fv, nf, sizeof(*fv), cmp_func);
	for (i = 0; i < nf; i++)
		flow_run(&s->prog, fv[i], site_cb, &c);
	free(fv);
	static_sites(&c);
	locks = locks_json(s, kinds);
	for (i = 0; i < s->ntus; i++) {
		struct scan_tu *tu = &s->tus[i];
		json_t *o = json_pack("{ssss}", "file", tu->file, "state",
				      tu->state);

		if (tu->key[0])
			json_object_set_new(o, "key", json_string(tu->key));
		if (tu->why)
			json_object_set_new(o, "why", json_string(tu->why));
		json_array_append_new(tus, o);
	}
	for (i = 0; i < s->tree.nskipped; i++)
		json_array_append_new(skipped,
				      json_pack("{ssss}", "path",
						s->tree.skipped[i].path, "why",
						s->tree.skipped[i].why));
	inv = json_pack(
		"{sss{sssssbsbsssbss}s{sssssiso}sososososo}", "schema",
		"rtlock-scan-1", "tree", "root", s->tree.root, "version",
		s->tree.version, "has_raw_spinlock", s->tree.has_raw,
		"has_rt_substitution", s->tree.has_rt_subst, "arch",
		s->tree.arch, "kbuild", s->tree.kbuild, "config", s->kb.config,
		"cache", "dir", s->cache.dir, "salt", s->salt, "header_facts",
		s->hdr_facts, "tool", json_string(RTLOCK_VERSION), "tus", tus,
		"locks", locks, "sites", c.sites, "unresolved", c.unresolved,
		"summary",
		json_pack("{sisisisisisisisisisisisosisisf}", "files_walked",
			  (int)s->tree.nwalked, "skipped", (int)s->tree.nskipped,
			  "tus", (int)s->ntus,
			  "headers_matched", (int)s->tree.nheaders, "parsed",
			  s->parsed, "cached", s->cached, "with_errors",
			  s->with_errors, "reparsed", s->reparsed, "failed",
			  s->failed, "api_sites",
			  c.spin_sites, "api_sites_resolved", c.spin_resolved,
			  "locks", kinds, "functions", (int)nf, "uses",
			  (int)json_array_size(c.sites), "seconds",
			  s->t_prefilter + s->t_parse + s->t_link));
	if (inv) {
		json_object_set_new(inv, "skipped", skipped);
		json_object_set(inv, "not_built", s->not_built);
		json_object_set_new(json_object_get(inv, "summary"),
				    "not_built",
				    json_integer(json_array_size(s->not_built)));
	} else {
		json_decref(skipped);
	}
	strset_free(&c.positions);
	strset_free(&c.resolved_pos);
	return inv;
}

static int summary_int(json_t *sum, const char *k)
{
	return json_integer_value(json_object_get(sum, k));
}

void scan_print_summary(struct scan *s, json_t *inv, FILE *out)
{
	json_t *sum = json_object_get(inv, "summary");
	json_t *kinds = json_object_get(sum, "locks");
	int sites = summary_int(sum, "api_sites");
	int res = summary_int(sum, "api_sites_resolved");
	const char *k;
	json_t *v;

	fprintf(out, "tree:   linux %s (%s), raw_spinlock_t: %s, "
		     "PREEMPT_RT substitution: %s, config: %s\n",
		s->tree.version, s->tree.arch, s->tree.has_raw ? "yes" : "no",
		s->tree.has_rt_subst ? "yes" : "no", s->kb.config);
	fprintf(out, "files:  %zu C files walked, %zu TUs and %zu headers "
		     "match the prefilter, %zu skipped, %zu files not built "
		     "by the configuration (not covered)\n",
		s->tree.nwalked, s->tree.ntus, s->tree.nheaders,
		s->tree.nskipped, json_array_size(s->not_built));
	fprintf(out, "TUs:    %u parsed, %u from cache, %u with errors, "
		     "%u failed; %u parsed again without the prelude\n",
		s->parsed, s->cached, s->with_errors, s->failed, s->reparsed);
	fprintf(out, "locks:  %d spinlock_t, %d raw_spinlock_t (",
		summary_int(kinds, "spinlock_t"),
		summary_int(kinds, "raw_spinlock_t"));
	{
		bool first = true;

		json_object_foreach(kinds, k, v) {
			if (strstr(k, "spinlock"))
				continue;
			fprintf(out, "%s%s %d", first ? "" : ", ", k,
				(int)json_integer_value(v));
			first = false;
		}
	}
	fprintf(out, ")\n");
	fprintf(out, "calls:  %d API call sites, %d resolved to a lock "
		     "(%.1f%%), %d unresolved\n",
		sites, res, sites ? 100.0 * res / sites : 100.0, sites - res);
	fprintf(out, "time:   %.1f s (prefilter %.1f, parse %.1f, link %.1f), "
		     "peak memory %ld MiB\n",
		s->t_prefilter + s->t_parse + s->t_link, s->t_prefilter,
		s->t_parse, s->t_link, peak_rss_kib() / 1024);
}

void scan_release(struct scan *s)
{
	size_t i;

	for (i = 0; i < s->ntus; i++) {
		free(s->tus[i].why);
		free(s->tus[i].incs);
	}
	free(s->tus);
	json_decref(s->not_built);
	strset_free(&s->hdr_seen);
	prog_free(&s->prog);
	cache_close(&s->cache);
	prelude_release(&s->prelude);
	kbuild_release(&s->kb);
	tree_release(&s->tree);
}
