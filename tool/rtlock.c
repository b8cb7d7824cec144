// SPDX-License-Identifier: GPL-2.0
/*
 * rtlock: find every spinlock of a kernel tree, decide which must keep
 * spinning on PREEMPT_RT, convert the rest to lock_t and emit the branch.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "branch.h"
#include "built.h"
#include "classify.h"
#include "convert.h"
#include "extract.h"
#include "flow.h"
#include "kbuild.h"
#include "pool.h"
#include "report.h"
#include "rtoff.h"
#include "scan.h"
#include "util.h"
#include "version.h"
#include "whitelist.h"

struct common {
	struct scan_opts scan;
	const char *out_dir;
	const char *whitelist;	/* NULL: none */
	const char *since;	/* older classify.json, or NULL */
	unsigned max_fanout;	/* classify: 0 for the default */
	int max_spread;		/* classify: -1 for the default, 0: none */
	int max_call_spread;	/* the same for calls under a spinning lock */
	const char *out_tree;	/* convert: the converted copy */
	bool in_place;		/* convert: write into the tree */
	struct branch_opts branch;
	bool json;		/* branch: the summary as JSON on stdout */
	double t_classify;
};

static const char usage_text[] =
	"usage: rtlock <command> [options] KERNEL\n"
	"\n"
	"commands:\n"
	"  scan KERNEL      find every lock, lock operation, call and context\n"
	"                   (writes OUT/scan.json)\n"
	"  classify KERNEL  scan, then decide which locks must keep spinning\n"
	"                   (writes OUT/classify.json, OUT/report.html)\n"
	"  audit KERNEL     classify with raw_spinlock_t undecided, and\n"
	"                   measure the verdicts against the tree's own\n"
	"                   raw_spinlock_t choices (OUT/audit.json)\n"
	"  convert KERNEL   classify, then convert every lock that may sleep\n"
	"                   to lock_t: --tree-out DIR (a converted copy) or\n"
	"                   --in-place (a clean git checkout only)\n"
	"  branch KERNEL    classify and convert the base revision of a git\n"
	"                   checkout (or an unpacked release) and commit the\n"
	"                   RT branch: --base REV --name BRANCH [--force]\n"
	"                   (writes OUT/series/, OUT/branch.json)\n"
	"  regen KERNEL     the same as branch: the release job in one go\n"
	"                   (ends with a summary; --json prints it as JSON)\n"
	"  facts KERNEL FILE  print the lock facts of one C file (plumbing)\n"
	"  flow KERNEL FUNC...  the lock state at each event of functions\n"
	"                   (plumbing, for following an evidence chain)\n"
	"  help             this text\n"
	"  version          print the version\n"
	"\n"
	"options:\n"
	"  -o, --out DIR        where results go (default: rtlock-out)\n"
	"  -C, --cache DIR      facts cache and kbuild scratch output\n"
	"                       (default: $RTLOCK_CACHE, else ~/.cache/rtlock)\n"
	"  -j, --jobs N         parallel workers (default: all cores)\n"
	"      --timeout SEC    per-file time limit (default: 300)\n"
	"      --config CFG     kbuild config for the flags: auto (default),\n"
	"                       none (bare tree), or a make target\n"
	"      --arch ARCH      architecture folder to scan (default: x86)\n"
	"      --only DIRS      parse only the C files below these folders\n"
	"                       (comma-separated, e.g. kernel,mm,lib)\n"
	"      --no-prelude     do not share a precompiled header of the most\n"
	"                       common kernel headers between TUs (slower)\n"
	"      --whitelist DIR  reviewed verdicts (default: whitelist/ next to\n"
	"                       the tool, or $RTLOCK_WHITELIST)\n"
	"      --no-whitelist   the classifier alone\n"
	"      --since OLD.json an older classify.json: report what changed\n"
	"      --max-fanout N   do not follow indirect calls through a field\n"
	"                       more than N functions are stored into (16)\n"
	"      --max-spread N   convert, for review, a lock that a context\n"
	"                       alone would make spin, and do not follow a\n"
	"                       call made with interrupts or preemption off\n"
	"                       by hand, when that makes more than N other\n"
	"                       locks spin (32; 0: no bound)\n"
	"      --max-call-spread N  do not follow, for review, a call made\n"
	"                       with a spinning lock held that alone makes\n"
	"                       more than N locks spin (16; 0: no bound)\n"
	"      --tree-out DIR   convert: write the converted copy here\n"
	"      --in-place       convert: write into KERNEL (a clean checkout)\n"
	"      --base REV       branch: the revision to start from (HEAD)\n"
	"      --name BRANCH    branch: the branch to create\n"
	"      --force          branch: replace an existing BRANCH\n"
	"      --identity 'Name <mail>'  branch: author and Signed-off-by\n"
	"                       (default: $RTLOCK_IDENTITY, the repository's\n"
	"                       user.name/user.email, else rtlock)\n"
	"      --link URL       branch: a Link: trailer to the report\n"
	"      --patches DIR    branch: the ports of the workqueue patch,\n"
	"                       DIR/<major>.<minor>/0001-*.patch (default:\n"
	"                       patches/ of rtlock, or $RTLOCK_PATCHES)\n"
	"      --split-over N   branch: a top-level folder with more than N\n"
	"                       converted files gets a commit per subfolder\n"
	"                       (its own files in one; 250)\n"
	"      --json           branch: no progress, the summary as JSON\n"
	"  -q, --quiet          no progress line, no summary\n"
	"\n"
	"The kernel tree is only read; kbuild output goes to the cache.\n"
	"Exit status: 0 done, 1 done with items to review (files that could\n"
	"not be parsed, stale whitelist entries, seeds the spread bound left\n"
	"out), 2 usage, 3 bad input, 4 environment (missing tool,\n"
	"unwritable directory), 5 failure, 130 interrupted.\n";

static void usage(int status)
{
	fputs(usage_text, status ? stderr : stdout);
	exit(status);
}

static const char *default_cache(void)
{
	const char *c = getenv("RTLOCK_CACHE"), *home = getenv("HOME");
	static char buf[4096];

	if (c && *c)
		return c;
	c = getenv("XDG_CACHE_HOME");
	if (c && *c)
		snprintf(buf, sizeof(buf), "%s/rtlock", c);
	else
		snprintf(buf, sizeof(buf), "%s/.cache/rtlock",
			 home && *home ? home : "/tmp");
	return buf;
}

/* whitelist/ of the rtlock checkout, or $RTLOCK_WHITELIST. */
static const char *default_whitelist(void)
{
	static char buf[4096];
	const char *env = getenv("RTLOCK_WHITELIST");

	if (env)
		return *env ? env : NULL;
	snprintf(buf, sizeof(buf), "%s/whitelist", rtlock_home());
	return is_dir(buf) ? buf : NULL;
}

/* Parse the common options; returns the index of the first operand. */
/* The whole of optarg as a number of at least @min, or a usage error. */
static long count_arg(const char *opt, long min, const char *what)
{
	char *end;
	long v = strtol(optarg, &end, 10);

	if (*end || !*optarg || v < min)
		die(EXIT_USAGE, "%s: not %s: %s", opt, what, optarg);
	return v;
}

static int parse_common(int argc, char **argv, struct common *c)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "cache", required_argument, NULL, 'C' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 't' },
		{ "config", required_argument, NULL, 'c' },
		{ "arch", required_argument, NULL, 'a' },
		{ "only", required_argument, NULL, 'O' },
		{ "no-prelude", no_argument, NULL, 'P' },
		{ "whitelist", required_argument, NULL, 'W' },
		{ "no-whitelist", no_argument, NULL, 'N' },
		{ "since", required_argument, NULL, 'S' },
		{ "max-fanout", required_argument, NULL, 'M' },
		{ "max-spread", required_argument, NULL, 'D' },
		{ "max-call-spread", required_argument, NULL, 'E' },
		{ "tree-out", required_argument, NULL, 'T' },
		{ "in-place", no_argument, NULL, 'I' },
		{ "base", required_argument, NULL, 'B' },
		{ "name", required_argument, NULL, 'n' },
		{ "force", no_argument, NULL, 'f' },
		{ "identity", required_argument, NULL, 'i' },
		{ "link", required_argument, NULL, 'L' },
		{ "patches", required_argument, NULL, 'p' },
		{ "split-over", required_argument, NULL, 'G' },
		{ "json", no_argument, NULL, 'J' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	char *end;

	memset(c, 0, sizeof(*c));
	c->out_dir = path_from_cwd("rtlock-out");
	c->scan.cache_dir = default_cache();
	c->scan.config = "auto";
	c->scan.arch = "x86";
	c->scan.jobs = sysconf(_SC_NPROCESSORS_ONLN);
	c->scan.timeout = 300;
	c->whitelist = default_whitelist();
	c->max_spread = -1;
	c->max_call_spread = -1;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:C:j:qh", opts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			/* absolute: spatch runs in the tree it converts */
			c->out_dir = path_from_cwd(optarg);
			break;
		case 'C':
			/* absolute: the facts' keys hold kbuild paths under it */
			c->scan.cache_dir = path_from_cwd(optarg);
			break;
		case 'j':
			c->scan.jobs = count_arg("-j", 1, "a positive number");
			break;
		case 't':
			c->scan.timeout = strtod(optarg, &end);
			if (*end || c->scan.timeout < 0)
				die(EXIT_USAGE, "--timeout: not a number: %s",
				    optarg);
			break;
		case 'c':
			c->scan.config = optarg;
			break;
		case 'a':
			c->scan.arch = optarg;
			break;
		case 'O':
			c->scan.only = optarg;
			break;
		case 'P':
			c->scan.no_prelude = true;
			break;
		case 'W':
			c->whitelist = optarg;
			break;
		case 'N':
			c->whitelist = NULL;
			break;
		case 'S':
			c->since = optarg;
			break;
		case 'M':
			c->max_fanout = count_arg("--max-fanout", 1,
						  "a positive number");
			break;
		case 'D':
			c->max_spread = count_arg("--max-spread", 0,
						  "a number of locks");
			break;
		case 'E':
			c->max_call_spread = count_arg("--max-call-spread", 0,
						       "a number of locks");
			break;
		case 'T':
			c->out_tree = path_from_cwd(optarg);
			break;
		case 'I':
			c->in_place = true;
			break;
		case 'B':
			c->branch.base = optarg;
			break;
		case 'n':
			c->branch.name = optarg;
			break;
		case 'f':
			c->branch.force = true;
			break;
		case 'i':
			c->branch.identity = optarg;
			break;
		case 'L':
			c->branch.link = optarg;
			break;
		case 'p':
			c->branch.patches = optarg;
			break;
		case 'G':
			c->branch.split_over = count_arg("--split-over", 1,
							 "a number of files");
			break;
		case 'J':
			c->json = true;
			c->scan.quiet = true;
			break;
		case 'q':
			c->scan.quiet = true;
			break;
		case 'h':
			usage(EXIT_OK);
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	{
		/* results name these paths in JSON, which is UTF-8 */
		const char *paths[] = { c->out_dir, c->scan.cache_dir,
					c->whitelist, c->since, c->out_tree };
		unsigned i;

		for (i = 0; i < ARRAY_SIZE(paths); i++)
			if (paths[i] && !utf8_valid(paths[i]))
				die(EXIT_USAGE, "%s: the path is not valid UTF-8",
				    utf8_escape(paths[i]));
	}
	return optind;
}

static int cmd_scan(int argc, char **argv)
{
	struct common c;
	struct scan s;
	json_t *inv;
	int i = parse_common(argc, argv, &c), rc;

	if (argc - i != 1)
		usage(EXIT_USAGE);
	c.scan.kernel = argv[i];
	rc = scan_run(&c.scan, &s);
	if (rc) {
		scan_release(&s);
		return rc;
	}
	inv = scan_inventory(&s);
	rc = scan_interrupted();
	if (!rc && write_json(c.out_dir, "scan.json", inv) < 0)
		rc = EXIT_ENV;
	else if (!rc && !c.scan.quiet)
		scan_print_summary(&s, inv, stdout);
	if (!rc && scan_review(&s))
		rc = EXIT_REVIEW;
	json_decref(inv);
	scan_release(&s);
	return rc;
}

/* rtlock facts FILE [--root DIR] [--config none|...]: plumbing. */
static int cmd_facts(int argc, char **argv)
{
	struct common c;
	struct tree t;
	struct kbuild kb;
	struct extract_opts eo;
	struct tu_args a;
	struct sb incs = SB_INIT;
	char err[512], *file;
	json_t *f;
	int i = parse_common(argc, argv, &c);

	if (argc - i != 2)
		die(EXIT_USAGE, "usage: rtlock facts [--config CFG] KERNEL FILE");
	if (tree_open(&t, argv[i], c.scan.arch) < 0)
		return EXIT_INPUT;
	if (clang_load() < 0 ||
	    kbuild_setup(&kb, &t, c.scan.cache_dir, c.scan.config, false) < 0)
		return EXIT_ENV;
	file = argv[i + 1];
	if (kb.objdir) {
		/* the -I options of its Makefiles, as the scan gives them */
		char *dotconfig = xasprintf("%s/.config", kb.objdir);
		struct built *b = built_open(t.root, dotconfig);

		if (b)
			built_include_opts(b, file, &incs);
		built_close(b);
		free(dotconfig);
	}
	kbuild_tu_args(&a, &kb, &t, file, incs.buf, NULL);
	sb_release(&incs);
	eo = (struct extract_opts){ t.root, a.v, a.n, NULL, "", 0, NULL,
				    NULL };
	f = extract_tu(&eo, file, err, sizeof(err));
	tu_args_release(&a);
	if (!f)
		die(EXIT_INPUT, "%s", err);
	json_dumpf(f, stdout, JSON_INDENT(1) | JSON_SORT_KEYS);
	putchar('\n');
	json_decref(f);
	return EXIT_OK;
}

static int classify_stage(struct common *cp, bool audit,
			  int (*then)(struct common *c, struct scan *s,
				      json_t *inv, json_t *rep));

/* The text summary (what a terminal shows), as report.txt holds it. */
static char *report_string(struct scan *s, json_t *inv, json_t *rep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return xstrdup("");
	scan_print_summary(s, inv, f);
	report_text(rep, f);
	fclose(f);
	return buf;
}

/* scan, then classify (audit: with raw_spinlock_t undecided). */
static int classify_cmd(int argc, char **argv, bool audit)
{
	struct common c;
	int i = parse_common(argc, argv, &c);

	if (argc - i != 1)
		usage(EXIT_USAGE);
	c.scan.kernel = argv[i];
	return classify_stage(&c, audit, NULL);
}

/*
 * scan and classify, writing OUT/scan.json, classify.json, report.html;
 * with @then, also run the next stage on the results.
 */
static int classify_stage(struct common *cp, bool audit,
			  int (*then)(struct common *c, struct scan *s,
				      json_t *inv, json_t *rep))
{
	struct common c = *cp;
	struct scan s;
	struct classify cl;
	struct whitelist wl = { 0 };
	json_t *inv, *rep, *a = NULL, *old = NULL;
	char *html, *text, *dotconfig;
	struct rtoff *rtoff;
	double t0;
	int rc;

	if (c.whitelist && whitelist_load(&wl, c.whitelist) < 0)
		return EXIT_INPUT;
	if (c.since && !(old = report_load_since(c.since))) {
		whitelist_free(&wl);
		return EXIT_INPUT;
	}
	rc = scan_run(&c.scan, &s);
	test_hold("classify", NULL);
	if (!rc)
		rc = scan_interrupted();
	if (rc) {
		scan_release(&s);
		whitelist_free(&wl);
		json_decref(old);
		return rc;
	}
	inv = scan_inventory(&s);
	t0 = now_sec();
	dotconfig = s.kb.objdir ? xasprintf("%s/.config", s.kb.objdir) : NULL;
	rtoff = rtoff_open(s.tree.root, dotconfig);
	free(dotconfig);
	classify_init(&cl, &s.prog, audit, c.max_fanout);
	classify_rt_view(&cl, rtoff);
	if (c.max_spread >= 0)
		cl.max_spread = c.max_spread;
	if (c.max_call_spread >= 0)
		cl.max_call_spread = c.max_call_spread;
	cl.interrupted = scan_interrupted;
	classify_whitelist(&cl, &wl);
	classify_run(&cl);
	rep = report_json(&s, &cl, inv);
	c.t_classify = now_sec() - t0;
	if (old)
		json_object_set_new(rep, "since", report_diff(old, rep));
	json_decref(old);
	if ((rc = scan_interrupted()))
		goto out;
	html = report_html(rep);
	text = report_string(&s, inv, rep);
	if (write_json(c.out_dir, "scan.json", inv) < 0 ||
	    write_json(c.out_dir, audit ? "audit-classify.json" : "classify.json",
		       rep) < 0 ||
	    write_text(c.out_dir, audit ? "audit.html" : "report.html", html) < 0 ||
	    write_text(c.out_dir, audit ? "audit-report.txt" : "report.txt",
		       text) < 0)
		rc = EXIT_ENV;
	free(html);
	free(text);
	if (audit && !rc) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		a = audit_json(rep);
		if (f) {
			audit_text(a, f);
			fclose(f);
		}
		if (write_json(c.out_dir, "audit.json", a) < 0 ||
		    write_text(c.out_dir, "audit.txt", buf ? buf : "") < 0)
			rc = EXIT_ENV;
		free(buf);
	}
	if (!rc && !c.scan.quiet) {
		scan_print_summary(&s, inv, stdout);
		report_text(rep, stdout);
		if (a)
			audit_text(a, stdout);
	}
	if (!rc && (scan_review(&s) || json_array_size(cl.stale) || cl.bounded))
		rc = EXIT_REVIEW;
	if (then && (rc == EXIT_OK || rc == EXIT_REVIEW)) {
		int next = then(&c, &s, inv, rep);

		rc = next ? next : rc;
	}
out:
	/*
	 * Every command ends here, and exit() gives the memory back at once:
	 * freeing the program, the facts and the reports block by block took
	 * seconds on a full tree.
	 */
	whitelist_free(&wl);
	return rc;
}

/* rtlock convert KERNEL (--out DIR | --in-place) */
static int convert_next(struct common *c, struct scan *s, json_t *inv,
			json_t *rep)
{
	struct convert_opts o = {
		.out_tree = c->out_tree, .in_place = c->in_place,
		.meta_dir = c->out_dir, .cache_dir = c->scan.cache_dir,
		.jobs = c->scan.jobs, .timeout = c->scan.timeout,
		.batch = 0, .quiet = c->scan.quiet,
	};
	json_t *res = NULL;
	int rc = convert_run(&o, s, inv, rep, &res);

	if (res) {
		if (write_json(c->out_dir, "convert.json", res) < 0)
			rc = EXIT_ENV;
		else if (!c->scan.quiet)
			printf("convert: %d files, %d from cache, %d failed, %d "
			       "lines with spinlock API left on converted "
			       "locks; tree: %s\n",
			       (int)json_int(res, "files"),
			       (int)json_int(res, "from_cache"),
			       (int)json_array_size(json_object_get(res, "failed")),
			       (int)json_int(res, "leftovers"),
			       json_string_value(json_object_get(res, "target")));
		json_decref(res);
	}
	return rc;
}

static int cmd_convert(int argc, char **argv)
{
	struct common c;
	int i = parse_common(argc, argv, &c);

	if (argc - i != 1)
		usage(EXIT_USAGE);
	if (!!c.out_tree == c.in_place)
		die(EXIT_USAGE, "convert: give exactly one of --tree-out DIR "
				"and --in-place");
	c.scan.kernel = argv[i];
	return classify_stage(&c, false, convert_next);
}

/* rtlock branch KERNEL --base REV --name BRANCH */
static struct branch *the_branch;

/* What a CI log shows at the end: counts, review items, time, memory. */
static json_t *run_summary(struct common *c, struct scan *s, json_t *rep,
			   struct branch *b, int rc)
{
	json_t *sum = json_object_get(rep, "summary");
	double scan = s->t_prefilter + s->t_parse + s->t_link;

	return json_pack(
		"{sssisOsisisisis{sisisisisisisi}s{sfsfsfsfsfsf}sisssO}",
		"schema", "rtlock-summary-1", "exit", rc, "locks_by_class",
		json_object_get(sum, "by_class"), "must_spin",
		(int)json_int(sum, "must_spin"),
		"converted_locks",
		(int)json_int(sum, "convert"),
		"converted_files", b->converted_files, "commits",
		(int)b->ncommits, "review", "whitelist_entries",
		(int)json_int(sum, "whitelist_entries"),
		"whitelist_stale",
		(int)json_int(sum, "whitelist_stale"),
		"parse_failures",
		(int)json_int(sum, "parse_failures"),
		"unresolved_sites",
		(int)json_int(sum, "unresolved_sites"),
		"spatch_failures", b->convert_failed, "leftovers", b->leftovers,
		"spread_bound",
		(int)(json_integer_value(json_object_get(
			      json_object_get(sum, "spread"), "converted")) +
		      json_integer_value(json_object_get(
			      json_object_get(sum, "spread"), "left_out"))),
		"seconds", "prepare", b->t_prepare, "scan", scan, "classify",
		c->t_classify, "convert",
		b->t_convert, "keep", b->t_keep, "git", b->t_git,
		"peak_rss_mib", (int)(peak_rss_kib() / 1024), "head",
		b->head ? b->head : "", "branch", json_string(b->o->name));
}

static void print_summary(json_t *j, FILE *f)
{
	json_t *r = json_object_get(j, "review"), *t = json_object_get(j, "seconds");
	json_t *v;
	const char *k;

	fprintf(f, "summary: %d locks converted, %d kept spinning; %d files "
		   "converted in %d commits\n  by class:",
		(int)json_int(j, "converted_locks"),
		(int)json_int(j, "must_spin"),
		(int)json_int(j, "converted_files"),
		(int)json_int(j, "commits"));
	json_object_foreach(json_object_get(j, "locks_by_class"), k, v)
		fprintf(f, " %s %d", k, (int)json_integer_value(v));
	fprintf(f, "\n  review:");
	json_object_foreach(r, k, v)
		fprintf(f, " %s %d", k, (int)json_integer_value(v));
	fprintf(f, "\n  seconds:");
	json_object_foreach(t, k, v)
		fprintf(f, " %s %.1f", k, json_real_value(v));
	fprintf(f, "; peak memory %d MiB\n",
		(int)json_int(j, "peak_rss_mib"));
}

static int branch_next(struct common *c, struct scan *s, json_t *inv,
		       json_t *rep)
{
	int rc = branch_build(the_branch, s, inv, rep);
	json_t *sum = run_summary(c, s, rep, the_branch, rc);

	if (write_json(c->out_dir, "summary.json", sum) < 0 && !rc)
		rc = EXIT_ENV;
	if (c->json) {
		json_dumpf(sum, stdout, JSON_INDENT(1) | JSON_SORT_KEYS);
		putchar('\n');
	} else if (!c->scan.quiet) {
		print_summary(sum, stdout);
	}
	json_decref(sum);
	return rc;
}

static int cmd_branch(int argc, char **argv)
{
	struct common c;
	struct branch b;
	int i = parse_common(argc, argv, &c), rc;
	double t0;

	if (argc - i != 1)
		usage(EXIT_USAGE);
	if (!c.branch.name)
		die(EXIT_USAGE, "branch: --name BRANCH is required");
	c.branch.kernel = argv[i];
	if (!c.branch.patches) {
		const char *env = getenv("RTLOCK_PATCHES");

		c.branch.patches = env && *env ? env :
			xasprintf("%s/patches", rtlock_home());
	}
	c.branch.out_dir = c.out_dir;
	c.branch.cache_dir = c.scan.cache_dir;
	c.branch.jobs = c.scan.jobs;
	c.branch.timeout = c.scan.timeout;
	c.branch.quiet = c.scan.quiet;
	t0 = now_sec();
	rc = branch_prepare(&b, &c.branch);
	b.t_prepare = now_sec() - t0;
	if (!rc) {
		c.scan.kernel = b.tree_dir;
		the_branch = &b;
		rc = classify_stage(&c, false, branch_next);
	}
	branch_release(&b);
	return rc;
}

static int cmd_classify(int argc, char **argv)
{
	return classify_cmd(argc, argv, false);
}

static int cmd_audit(int argc, char **argv)
{
	return classify_cmd(argc, argv, true);
}

/* Print one flow event with the state it happens in. */
static int print_flow_event(const struct flow_event *e, void *ctx)
{
	unsigned i;

	(void)ctx;
	printf("  %5d %-4s %-28s held:", (int)json_integer_value(
						 json_array_get(e->ev, 1)),
	       e->kind,
	       json_string_value(json_array_get(e->ev, 2)) ?: "?");
	for (i = 0; i < e->st->nheld; i++)
		printf(" %s%s", e->st->held[i].target,
		       e->st->held[i].must ? "" : "(may)");
	for (i = 0; i < e->st->ndropped; i++)
		printf("%s%s", i ? " " : "  dropped: ", e->st->dropped[i]);
	if (e->st->irq || e->st->preempt)
		printf("  irqs-off %d preempt-off %d", e->st->irq,
		       e->st->preempt);
	putchar('\n');
	return 0;
}

static void print_set(const char *what, const struct strset *s)
{
	unsigned i;

	printf("  %s:", what);
	for (i = 0; i < s->n; i++)
		printf(" %s", s->v[i]);
	putchar('\n');
}

/*
 * rtlock flow KERNEL FUNC...: plumbing for reviewing a chain: each event of
 * the functions (by id, e.g. kernel/umh.c:call_usermodehelper_exec_sync or
 * kernel_wait) with the locks held there and the function's summary.
 */
static int cmd_flow(int argc, char **argv)
{
	struct common c;
	struct scan s;
	int i = parse_common(argc, argv, &c), rc;

	if (argc - i < 2)
		die(EXIT_USAGE, "usage: rtlock flow [options] KERNEL FUNC...");
	c.scan.kernel = argv[i];
	c.scan.quiet = true;
	rc = scan_run(&c.scan, &s);
	for (i++; !rc && i < argc; i++) {
		struct pfunc *f = prog_func(&s.prog, argv[i]);

		if (!f) {
			error("%s: no such function in the scan", argv[i]);
			rc = EXIT_INPUT;
			break;
		}
		printf("%s (%s:%d)\n", f->id, f->file, f->line);
		print_set("acquires on return", &f->acquires);
		print_set("releases its caller's", &f->releases);
		flow_run(&s.prog, f, print_flow_event, NULL);
	}
	scan_release(&s);
	return rc;
}

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
} cmds[] = {
	{ "scan", cmd_scan },
	{ "classify", cmd_classify },
	{ "audit", cmd_audit },
	{ "convert", cmd_convert },
	{ "branch", cmd_branch },
	{ "regen", cmd_branch },
	{ "facts", cmd_facts },
	{ "flow", cmd_flow },
};

int main(int argc, char **argv)
{
	unsigned i;

	if (argc < 2)
		usage(EXIT_USAGE);
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h"))
		usage(EXIT_OK);
	if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
		puts(RTLOCK_VERSION);
		return EXIT_OK;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	error("'%s' is not an rtlock command; see 'rtlock help'", argv[1]);
	return EXIT_USAGE;
}
