// SPDX-License-Identifier: GPL-2.0
#include "report.h"

#include "classify_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "version.h"

static void count(json_t *obj, const char *key)
{
	json_object_set_new(obj, key, json_integer(json_int(obj, key) + 1));
}

json_t *report_json(struct scan *s, struct classify *c, json_t *inv)
{
	json_t *locks = json_array(), *by_class = json_object(), *rep, *sum;
	json_t *wide, *left_out;
	unsigned i, must = 0, npinned = 0, nconflicts = 0, nspread = 0;
	unsigned nforeign = 0, noff_rt = 0;

	for (i = 0; i < c->nlocks; i++) {
		struct cl_result r;
		json_t *o;

		classify_result(c, i, &r);
		o = json_pack("{sssssssssisisssssssO}", "id", r.id, "type",
			      lock_type_name(r.l->type), "kind", r.l->kind,
			      "file", r.l->file, "line", r.l->line, "sites",
			      (int)r.l->nsites, "verdict",
			      r.must_spin ? "must-spin" : "convert", "class",
			      class_name(r.cls), "confidence", r.confidence,
			      "evidence", r.evidence);
		if (r.root)
			json_object_set_new(o, "root", json_string(r.root));
		if (r.off_rt) {
			json_object_set_new(o, "off_rt", json_string(r.off_rt));
			noff_rt++;
		}
		if (c->locks[i].pin_api) {
			json_t *pin = json_pack("{ssss}", "api",
						c->locks[i].pin_api, "at",
						c->locks[i].pin_at);

			if (c->locks[i].pin_by >= 0)
				json_object_set_new(
					pin, "by",
					json_pack("{ssss}", "lock",
						  c->locks[c->locks[i].pin_by].l->id,
						  "slot",
						  c->slots[c->locks[i].pin_slot].id));
			json_object_set_new(o, "pinned", pin);
		} else if (r.spread) {
			json_object_set_new(o, "spread", json_integer(r.spread));
			nspread++;
		} else if (c->locks[i].forced_convert) {
			json_object_set_new(o, "whitelist", json_string("convert"));
		}
		if (r.conflict_evidence) {
			json_t *cf = json_pack("{sssO}", "class",
					       class_name(r.conflict),
					       "evidence", r.conflict_evidence);

			if (r.foreign_to)
				json_object_set_new(cf, "foreign_to",
						    json_string(r.foreign_to));
			json_object_set_new(o, "conflict", cf);
			json_decref(r.conflict_evidence);
			nconflicts++;
			nforeign += r.foreign_to != NULL;
		}
		npinned += c->locks[i].pin_api != NULL;
		if (c->locks[i].nslots) {
			json_t *slots = json_array();
			unsigned j;

			for (j = 0; j < c->locks[i].nslots; j++)
				json_array_append_new(
					slots, json_string(c->slots[c->locks[i].slots[j]].id));
			json_object_set_new(o, "slots", slots);
		}
		json_array_append_new(locks, o);
		json_decref(r.evidence);
		count(by_class, class_name(r.cls));
		must += r.must_spin;
	}
	sum = json_object_get(inv, "summary");
	rep = json_pack(
		"{sssss{sssssbsbss}s{sisosisisisisisisisi}}", "schema",
		"rtlock-classify-1", "tool", RTLOCK_VERSION, "tree", "root",
		s->tree.root, "version", s->tree.version, "has_raw_spinlock",
		s->tree.has_raw, "has_rt_substitution", s->tree.has_rt_subst,
		"mode", c->audit ? "audit" : "classify", "summary", "locks",
		(int)c->nlocks, "by_class", by_class, "must_spin", must,
		"convert", c->nlocks - must, "whitelist_entries", c->nwhitelist,
		"whitelist_stale", (int)json_array_size(c->stale),
		"api_sites", (int)json_int(sum, "api_sites"), "unresolved_sites",
		(int)(json_int(sum, "api_sites") - json_int(sum, "api_sites_resolved")),
		"parse_failures", (int)json_int(sum, "failed"), "parse_errors",
		(int)json_int(sum, "with_errors"));
	json_object_set(json_object_get(rep, "summary"), "stale", c->stale);
	json_object_set_new(json_object_get(rep, "summary"), "pinned",
			    json_integer(npinned));
	json_object_set_new(json_object_get(rep, "summary"), "conflicts",
			    json_integer(nconflicts));
	json_object_set_new(json_object_get(rep, "summary"), "foreign",
			    json_integer(nforeign));
	json_object_set_new(json_object_get(rep, "summary"), "off_rt",
			    json_integer(noff_rt));
	left_out = classify_left_out(c);
	json_object_set_new(json_object_get(rep, "summary"), "spread",
			    json_pack("{sisisisi}", "max_spread",
				      (int)c->max_spread, "max_call_spread",
				      (int)c->max_call_spread, "converted",
				      (int)nspread,
				      "left_out", (int)json_array_size(left_out)));
	json_object_set_new(rep, "left_out", left_out);
	wide = classify_wide_calls(c);
	json_object_set_new(json_object_get(rep, "summary"), "wide_calls",
			    json_pack("{sisisi}", "max_fanout",
				      (int)c->max_fanout, "not_followed",
				      (int)c->wide_calls, "in_atomic_context",
				      (int)json_array_size(wide)));
	json_object_set_new(rep, "wide_calls", wide);
	json_object_set_new(rep, "locks", locks);
	return rep;
}

json_t *report_parse_since(const char *buf, size_t len, const char *path)
{
	json_error_t err;
	json_t *j = json_loadb(buf, len, 0, &err), *l;
	size_t i;

	if (!j) {
		error("%s:%d: %s", path, err.line, err.text);
		return NULL;
	}
	if (!json_is_object(j) ||
	    strcmp(json_str(j, "schema"), "rtlock-classify-1") ||
	    !json_is_array(json_object_get(j, "locks")))
		goto bad;
	json_array_foreach(json_object_get(j, "locks"), i, l)
		if (!json_is_string(json_object_get(l, "id")) ||
		    !json_is_string(json_object_get(l, "verdict")))
			goto bad;
	return j;
bad:
	error("%s: not a classify.json (schema rtlock-classify-1, locks with "
	      "id and verdict)", path);
	json_decref(j);
	return NULL;
}

json_t *report_load_since(const char *path)
{
	size_t len;
	char *buf = read_file(path, &len);
	json_t *j;

	if (!buf) {
		error("%s: %s", path, strerror(errno));
		return NULL;
	}
	j = report_parse_since(buf, len, path);
	free(buf);
	return j;
}

json_t *report_diff(json_t *old, json_t *cur)
{
	json_t *added = json_array(), *removed = json_array();
	json_t *flipped = json_array(), *o, *n, *seen = json_object();
	size_t i;

	json_array_foreach(json_object_get(old, "locks"), i, o)
		json_object_set(seen, json_str(o, "id"), o);
	json_array_foreach(json_object_get(cur, "locks"), i, n) {
		o = json_object_get(seen, json_str(n, "id"));
		if (!o)
			json_array_append_new(added, json_string(json_str(n, "id")));
		else if (strcmp(json_str(o, "verdict"), json_str(n, "verdict")))
			json_array_append_new(
				flipped,
				json_pack("{ssssss}", "id", json_str(n, "id"),
					  "from", json_str(o, "verdict"), "to",
					  json_str(n, "verdict")));
		if (o)
			json_object_del(seen, json_str(n, "id"));
	}
	{
		const char *k;
		json_t *v;

		json_object_foreach(seen, k, v)
			json_array_append_new(removed, json_string(k));
	}
	json_decref(seen);
	return json_pack("{sssososo}", "since",
			 json_str(json_object_get(old, "tree"), "version"), "added",
			 added, "removed", removed, "flipped", flipped);
}

void report_text(json_t *rep, FILE *out)
{
	json_t *sum = json_object_get(rep, "summary"), *v, *diff;
	const char *k;
	size_t i;

	fprintf(out, "classify: linux %s, %d locks: %d must spin, %d convert\n",
		json_str(json_object_get(rep, "tree"), "version"),
		(int)json_int(sum, "locks"), (int)json_int(sum, "must_spin"),
		(int)json_int(sum, "convert"));
	fprintf(out, "  by class:");
	json_object_foreach(json_object_get(sum, "by_class"), k, v)
		fprintf(out, " %s %d", k, (int)json_integer_value(v));
	fprintf(out, "\n  whitelist: %d entries, %d stale; unresolved API sites: "
		     "%d; files not parsed: %d\n",
		(int)json_int(sum, "whitelist_entries"),
		(int)json_int(sum, "whitelist_stale"),
		(int)json_int(sum, "unresolved_sites"),
		(int)json_int(sum, "parse_failures"));
	v = json_object_get(sum, "wide_calls");
	if (v)
		fprintf(out, "  indirect calls not followed (a field with more "
			     "than %d functions): %d, %d of them in atomic "
			     "context (wide_calls in classify.json)\n",
			(int)json_int(v, "max_fanout"), (int)json_int(v, "not_followed"),
			(int)json_int(v, "in_atomic_context"));
	fprintf(out, "  pinned (used with a helper that has no spinning "
		     "form): %d; converted against a context that says spin "
		     "(conflict in classify.json, review): %d, %d of them "
		     "because code outside the core chose that context: "
		     "another component's, or a region with interrupts off "
		     "by hand (an RT conflict to fix there: foreign_to)\n",
		(int)json_int(sum, "pinned"), (int)json_int(sum, "conflicts"),
		(int)json_int(sum, "foreign"));
	fprintf(out, "  not built with PREEMPT_RT (declared where only an "
		     "option depending on !PREEMPT_RT builds): %d locks "
		     "(off_rt in classify.json)\n",
		(int)json_int(sum, "off_rt"));
	v = json_object_get(sum, "spread");
	if (v && (json_int(v, "max_spread") || json_int(v, "max_call_spread")))
		fprintf(out, "  spread bound %d, %d for calls (review): %d "
			     "locks converted (spread in classify.json), %d "
			     "entry points and calls left out (left_out)\n",
			(int)json_int(v, "max_spread"), (int)json_int(v, "max_call_spread"),
			(int)json_int(v, "converted"), (int)json_int(v, "left_out"));
	json_array_foreach(json_object_get(rep, "left_out"), i, v)
		fprintf(out, "  left out: %s %s: would make %d locks spin\n",
			json_str(v, "at"), json_str(v, "why"),
			(int)json_int(v, "spread"));
	json_array_foreach(json_object_get(sum, "stale"), i, v)
		fprintf(out, "  stale whitelist entry %s: %s\n", json_str(v, "where"),
			json_str(v, "id"));
	diff = json_object_get(rep, "since");
	if (diff)
		fprintf(out, "  since %s: %d new, %d removed, %d flipped\n",
			json_str(diff, "since"),
			(int)json_array_size(json_object_get(diff, "added")),
			(int)json_array_size(json_object_get(diff, "removed")),
			(int)json_array_size(json_object_get(diff, "flipped")));
}

/* ---- audit ---- */

struct tally {
	int tp, fp, fn, tn;
};

static void tally_add(json_t *obj, const char *key, int which)
{
	json_t *t = json_object_get(obj, key);

	if (!t) {
		t = json_pack("{sisisisi}", "tp", 0, "fp", 0, "fn", 0, "tn", 0);
		json_object_set_new(obj, key, t);
	}
	count(t, which == 0 ? "tp" : which == 1 ? "fp" : which == 2 ? "fn"
								     : "tn");
}

static void rates(json_t *t)
{
	double tp = json_int(t, "tp"), fp = json_int(t, "fp"), fn = json_int(t, "fn");

	json_object_set_new(t, "precision",
			    tp + fp ? json_real(tp / (tp + fp)) : json_null());
	json_object_set_new(t, "recall",
			    tp + fn ? json_real(tp / (tp + fn)) : json_null());
}

static int cmp_root(const void *a, const void *b)
{
	json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	int d = (int)(json_int(y, "fp") - json_int(x, "fp"));

	if (!d)
		d = (int)(json_int(y, "tp") - json_int(x, "tp"));
	return d ? d : strcmp(json_str(x, "root"), json_str(y, "root"));
}

/*
 * The must-spin verdicts by the lock their evidence chains start from,
 * most false positives first: where a wrong verdict spreads from.
 */
static json_t *by_root(json_t *roots)
{
	size_t n = json_object_size(roots), i = 0;
	json_t **v = xcalloc(n + 1, sizeof(*v)), *t, *out = json_array();
	const char *k;

	json_object_foreach(roots, k, t) {
		v[i] = json_pack("{sssIsI}", "root", k, "tp", json_int(t, "tp"),
				 "fp", json_int(t, "fp"));
		i++;
	}
	qsort(v, n, sizeof(*v), cmp_root);
	for (i = 0; i < n; i++)
		json_array_append_new(out, v[i]);
	free(v);
	return out;
}

json_t *audit_json(json_t *rep)
{
	json_t *all = json_object(), *by_class = json_object();
	json_t *by_dir = json_object(), *missed = json_array();
	json_t *extra = json_array(), *roots = json_object(), *l, *t;
	const char *k;
	size_t i;
	int off_rt = 0;

	json_array_foreach(json_object_get(rep, "locks"), i, l) {
		bool raw = !strcmp(json_str(l, "type"), "raw_spinlock_t");
		bool spin = !strcmp(json_str(l, "verdict"), "must-spin");
		int which = raw ? (spin ? 0 : 2) : (spin ? 1 : 3);
		char dir[128];

		/* moot where PREEMPT_RT does not build the code */
		if (json_object_get(l, "off_rt")) {
			off_rt++;
			continue;
		}
		snprintf(dir, sizeof(dir), "%.*s",
			 (int)strcspn(json_str(l, "file"), "/"), json_str(l, "file"));
		tally_add(all, "all", which);
		tally_add(by_dir, dir, which);
		if (spin) {
			tally_add(by_class, json_str(l, "class"), which);
			if (json_object_get(l, "root"))
				tally_add(roots, json_str(l, "root"), which);
		}
		if (which == 2)
			json_array_append_new(
				missed, json_pack("{sssssi}", "id", json_str(l, "id"),
						  "file", json_str(l, "file"),
						  "line", (int)json_int(l, "line")));
		else if (which == 1)
			json_array_append_new(
				extra,
				json_pack("{sssssisssO}", "id", json_str(l, "id"),
					  "file", json_str(l, "file"), "line",
					  (int)json_int(l, "line"), "class",
					  json_str(l, "class"), "evidence",
					  json_object_get(l, "evidence")));
	}
	t = json_incref(json_object_get(all, "all"));
	json_decref(all);
	if (!t)
		t = json_pack("{sisisisi}", "tp", 0, "fp", 0, "fn", 0, "tn", 0);
	rates(t);
	json_object_foreach(by_class, k, l)
		rates(l);
	json_object_foreach(by_dir, k, l)
		rates(l);
	t = json_pack("{sssosososososo}", "schema", "rtlock-audit-1",
		      "tree", json_incref(json_object_get(rep, "tree")),
		      "overall", t, "by_class", by_class, "by_dir", by_dir,
		      "raw_but_convert", missed, "spin_but_must_spin", extra);
	json_object_set_new(t, "by_root", by_root(roots));
	json_object_set_new(t, "off_rt", json_integer(off_rt));
	json_decref(roots);
	return t;
}

static void rate_line(FILE *out, const char *name, json_t *t)
{
	json_t *p = json_object_get(t, "precision"), *r = json_object_get(t, "recall");

	fprintf(out, "  %-12s %5d %5d %5d  ", name, (int)json_int(t, "tp"),
		(int)json_int(t, "fp"), (int)json_int(t, "fn"));
	if (json_is_real(p))
		fprintf(out, "%9.2f", json_real_value(p));
	else
		fprintf(out, "%9s", "-");
	if (json_is_real(r))
		fprintf(out, "%8.2f\n", json_real_value(r));
	else
		fprintf(out, "%8s\n", "-");
}

void audit_text(json_t *a, FILE *out)
{
	const char *k;
	json_t *t;
	size_t i;

	fprintf(out, "audit: must-spin verdicts against the tree's own "
		     "raw_spinlock_t (linux %s)\n",
		json_str(json_object_get(a, "tree"), "version"));
	fprintf(out, "  %-12s %5s %5s %5s  %9s %7s\n", "", "TP", "FP", "FN",
		"precision", "recall");
	rate_line(out, "overall", json_object_get(a, "overall"));
	fprintf(out, "  by class of the verdict:\n");
	json_object_foreach(json_object_get(a, "by_class"), k, t)
		rate_line(out, k, t);
	fprintf(out, "  by top-level folder:\n");
	json_object_foreach(json_object_get(a, "by_dir"), k, t)
		rate_line(out, k, t);
	fprintf(out, "  where the chains of the most false positives start "
		     "(by_root in audit.json):\n");
	json_array_foreach(json_object_get(a, "by_root"), i, t) {
		if (i == 10 || !json_int(t, "fp"))
			break;
		fprintf(out, "  %5d FP %4d TP  %s\n", (int)json_int(t, "fp"),
			(int)json_int(t, "tp"), json_str(t, "root"));
	}
	fprintf(out, "  %d raw locks the classifier would convert, %d spinlock_t "
		     "it says must spin (lists in audit.json)\n",
		(int)json_array_size(json_object_get(a, "raw_but_convert")),
		(int)json_array_size(json_object_get(a, "spin_but_must_spin")));
	fprintf(out, "  %d locks left out: declared in code a PREEMPT_RT "
		     "kernel does not build (Kconfig: depends on "
		     "!PREEMPT_RT; off_rt in the classification)\n",
		(int)json_int(a, "off_rt"));
}

/* ---- HTML ---- */

static void html_escape(struct sb *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			sb_adds(sb, "&lt;");
			break;
		case '>':
			sb_adds(sb, "&gt;");
			break;
		case '&':
			sb_adds(sb, "&amp;");
			break;
		case '"':
			sb_adds(sb, "&quot;");
			break;
		default:
			sb_add(sb, s, 1);
		}
	}
}

/* JSON inside <script>: "</" must not close the element. */
static void script_json(struct sb *sb, json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT), *p;

	for (p = s; *p; p++) {
		if (p[0] == '<' && p[1] == '/')
			sb_adds(sb, "<\\/"), p++;
		else
			sb_add(sb, p, 1);
	}
	free(s);
}

static const char html_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	"<title>rtlock classification</title>\n<style>\n"
	"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}\n"
	"table{border-collapse:collapse;margin:.5em 0}\n"
	"th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;"
	"vertical-align:top}\n"
	"th{background:#eee;cursor:pointer;user-select:none}\n"
	"td.n{text-align:right}\n"
	".must-spin{color:#a00;font-weight:600}.convert{color:#070}\n"
	"ol.ev{margin:0;padding-left:1.4em;font-size:12px}\n"
	"code{font-size:12px}\n#filter{width:30em;padding:4px}\n"
	"</style></head><body>\n";

static const char html_script[] =
	"<script>\n"
	"const rep = JSON.parse(document.getElementById('data').textContent);\n"
	"const tbody = document.querySelector('#locks tbody');\n"
	"let rows = rep.locks, key = 'id', asc = true;\n"
	"function esc(s){return String(s).replace(/[&<>\"]/g,"
	"c=>({'&':'&amp;','<':'&lt;','>':'&gt;','\"':'&quot;'}[c]));}\n"
	"function chain(ev){return '<ol class=\"ev\">' + ev.map(s => '<li>' +"
	" esc(s.text) + (s.at ? ' <code>' + esc(s.at) + '</code>' : '') +"
	" '</li>').join('') + '</ol>';}\n"
	"function notes(l){return (l.pinned ? '<p>pinned: ' + (l.pinned.by ?"
	" 'shares <code>' + esc(l.pinned.by.slot) + '</code> with ' +"
	" esc(l.pinned.by.lock) + ', which is ' : '') + 'handed to ' +"
	" esc(l.pinned.api) + '() at <code>' + esc(l.pinned.at) + '</code>, "
	"which has no spinning form</p>' : '') + (l.spread ? '<p>converted: "
	"keeping it spinning would make ' + l.spread + ' more locks spin</p>'"
	" : '') + (l.off_rt ? '<p>not built with PREEMPT_RT: CONFIG_' +"
	" esc(l.off_rt) + ' depends on !PREEMPT_RT</p>' : '') +"
	" (l.conflict ? '<p>conflict (review): ' + esc(l.conflict.class) +"
	" (l.conflict.foreign_to ? ', chosen by ' +"
	" esc(l.conflict.foreign_to) + ', to fix there' : '') + '</p>' +"
	" chain(l.conflict.evidence) : '');}\n"
	"function render(){\n"
	" const f = document.getElementById('filter').value.toLowerCase();\n"
	" const v = document.getElementById('verdict').value;\n"
	" const shown = rows.filter(l => (!v || l.verdict === v) &&\n"
	"  (!f || (l.id + ' ' + l.class + ' ' + l.file).toLowerCase()"
	".includes(f)));\n"
	" shown.sort((a,b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0)"
	" * (asc ? 1 : -1));\n"
	" tbody.innerHTML = shown.map(l => '<tr><td><code>' + esc(l.id) +"
	" '</code></td><td>' + esc(l.type) + '</td><td class=\"' + l.verdict +"
	" '\">' + l.verdict + '</td><td>' + esc(l.class) + '</td><td>' +"
	" esc(l.confidence) + '</td><td><a href=\"' + esc(rep.tree.root + '/' +"
	" l.file) + '\">' + esc(l.file + ':' + l.line) + '</a></td><td"
	" class=\"n\">' + l.sites + '</td><td>' + chain(l.evidence) +"
	" notes(l) + '</td></tr>').join('');\n"
	" document.getElementById('count').textContent = shown.length + ' of ' +"
	" rows.length + ' locks';\n"
	"}\n"
	"document.querySelectorAll('#locks th').forEach(th => th.onclick = () =>"
	" { asc = key === th.dataset.k ? !asc : true; key = th.dataset.k;"
	" render(); });\n"
	"const h = new URLSearchParams(location.hash.slice(1));\n"
	"if (h.get('filter')) document.getElementById('filter').value ="
	" h.get('filter');\n"
	"if (h.get('verdict')) document.getElementById('verdict').value ="
	" h.get('verdict');\n"
	"document.getElementById('filter').oninput = render;\n"
	"document.getElementById('verdict').onchange = render;\n"
	"render();\n"
	"</script>\n";

char *report_html(json_t *rep)
{
	struct sb sb = SB_INIT;
	json_t *sum = json_object_get(rep, "summary"), *v, *diff;
	const char *k;
	size_t i;

	sb_adds(&sb, html_head);
	sb_adds(&sb, "<h1>rtlock: spinlock classification of linux ");
	html_escape(&sb, json_str(json_object_get(rep, "tree"), "version"));
	sb_adds(&sb, "</h1>\n<table id=\"summary\"><tr><th>locks</th><th>must "
		     "spin</th><th>convert</th><th>whitelist entries</th>"
		     "<th>stale entries</th><th>unresolved API sites</th>"
		     "<th>files not parsed</th><th>files with errors</th>"
		     "<th>wide indirect calls in atomic context</th>"
		     "<th>pinned</th><th>conflicts</th>"
		     "<th>not built with PREEMPT_RT</th></tr>\n");
	sb_addf(&sb, "<tr><td class=\"n\">%d</td><td class=\"n\">%d</td><td "
		     "class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">"
		     "%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td>"
		     "<td class=\"n\">%d</td><td class=\"n\">%d</td>"
		     "<td class=\"n\">%d</td><td class=\"n\">%d</td>"
		     "<td class=\"n\">%d</td></tr></table>\n",
		(int)json_int(sum, "locks"), (int)json_int(sum, "must_spin"),
		(int)json_int(sum, "convert"), (int)json_int(sum, "whitelist_entries"),
		(int)json_int(sum, "whitelist_stale"),
		(int)json_int(sum, "unresolved_sites"),
		(int)json_int(sum, "parse_failures"), (int)json_int(sum, "parse_errors"),
		(int)json_int(json_object_get(sum, "wide_calls"),
			  "in_atomic_context"),
		(int)json_int(sum, "pinned"), (int)json_int(sum, "conflicts"),
		(int)json_int(sum, "off_rt"));
	sb_adds(&sb, "<table id=\"classes\"><tr><th>class</th><th>locks</th></tr>\n");
	json_object_foreach(json_object_get(sum, "by_class"), k, v) {
		sb_adds(&sb, "<tr><td>");
		html_escape(&sb, k);
		sb_addf(&sb, "</td><td class=\"n\">%d</td></tr>\n",
			(int)json_integer_value(v));
	}
	sb_adds(&sb, "</table>\n");
	json_array_foreach(json_object_get(sum, "stale"), i, v) {
		sb_adds(&sb, "<p>Stale whitelist entry ");
		html_escape(&sb, json_str(v, "where"));
		sb_adds(&sb, ": <code>");
		html_escape(&sb, json_str(v, "id"));
		sb_adds(&sb, "</code></p>\n");
	}
	diff = json_object_get(rep, "since");
	if (diff) {
		sb_adds(&sb, "<h2>Since ");
		html_escape(&sb, json_str(diff, "since"));
		sb_addf(&sb, "</h2><p>%d new locks, %d removed, %d verdicts "
			     "flipped</p>\n<ul>",
			(int)json_array_size(json_object_get(diff, "added")),
			(int)json_array_size(json_object_get(diff, "removed")),
			(int)json_array_size(json_object_get(diff, "flipped")));
		json_array_foreach(json_object_get(diff, "flipped"), i, v) {
			sb_adds(&sb, "<li><code>");
			html_escape(&sb, json_str(v, "id"));
			sb_adds(&sb, "</code>: ");
			html_escape(&sb, json_str(v, "from"));
			sb_adds(&sb, " &rarr; ");
			html_escape(&sb, json_str(v, "to"));
			sb_adds(&sb, "</li>");
		}
		sb_adds(&sb, "</ul>\n");
	}
	sb_adds(&sb, "<p><input id=\"filter\" placeholder=\"filter by lock, class "
		     "or file\"> <select id=\"verdict\"><option value=\"\">all"
		     "</option><option>must-spin</option><option>convert"
		     "</option></select> <span id=\"count\"></span></p>\n"
		     "<table id=\"locks\"><thead><tr><th data-k=\"id\">lock</th>"
		     "<th data-k=\"type\">type</th><th data-k=\"verdict\">verdict"
		     "</th><th data-k=\"class\">class</th><th data-k="
		     "\"confidence\">confidence</th><th data-k=\"file\">declared"
		     "</th><th data-k=\"sites\">sites</th><th>evidence</th></tr>"
		     "</thead><tbody></tbody></table>\n"
		     "<script type=\"application/json\" id=\"data\">");
	script_json(&sb, rep);
	sb_adds(&sb, "</script>\n");
	sb_adds(&sb, html_script);
	sb_adds(&sb, "</body></html>\n");
	return sb.buf;
}
