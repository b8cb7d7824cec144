// SPDX-License-Identifier: GPL-2.0
#include "kbuild.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

/* Options the scan config changes from the make target's config. */
static const char *const config_edits[] = {
	/* PREEMPT_COUNT makes preempt_disable() visible in the AST */
	"-d", "PREEMPT_NONE", "-d", "PREEMPT_VOLUNTARY", "-e", "PREEMPT",
	/* the spinlock_t API as non-RT kernels have it */
	"-d", "PREEMPT_RT",
	/* instrumentation that only slows parsing */
	"-d", "KASAN", "-d", "KCSAN", "-d", "UBSAN", "-d", "GCOV_KERNEL",
	"-d", "KCOV", "-d", "GCC_PLUGINS", "-d", "DEBUG_INFO_BTF",
	"-d", "MODULE_SIG", NULL,
};

static void add_arg(struct kbuild *kb, const char *a)
{
	ALLOC_GROW(kb->args, kb->nargs, kb->alloc);
	kb->args[kb->nargs++] = xstrdup(a);
}

static const char *resource_include(void)
{
	static char path[512];
	FILE *p;

	if (path[0])
		return path;
	p = popen("clang -print-resource-dir 2>/dev/null", "r");
	if (p && fgets(path, sizeof(path) - 16, p)) {
		path[strcspn(path, "\n")] = '\0';
		strcat(path, "/include");
	}
	if (p)
		pclose(p);
	if (!path[0])
		snprintf(path, sizeof(path), "/usr/lib/llvm-14/lib/clang/14.0.6/include");
	return path;
}

static void bare_flags(struct kbuild *kb, const struct tree *t)
{
	char *p;

	add_arg(kb, "-nostdinc");
	add_arg(kb, "-isystem");
	add_arg(kb, resource_include());
	p = xasprintf("-I%s/arch/%s/include", t->root, t->arch);
	add_arg(kb, p);
	free(p);
	p = xasprintf("-I%s/include", t->root);
	add_arg(kb, p);
	free(p);
	p = xasprintf("%s/include/linux/kconfig.h", t->root);
	if (is_file(p)) {
		add_arg(kb, "-include");
		add_arg(kb, p);
	}
	free(p);
	add_arg(kb, "-D__KERNEL__");
	add_arg(kb, "-std=gnu11");
}

/*
 * @path with the tree kbuild was prepared from (@src) replaced by the tree
 * being read: one prepared output serves every tree of a version.
 */
static char *rebase(const char *path, const char *src, const char *root)
{
	size_t n = strlen(src);

	if (!strncmp(path, src, n) && (path[n] == '/' || !path[n]))
		return xasprintf("%s%s", root, path + n);
	return xstrdup(path);
}

/* Keep the preprocessor and language flags of a kbuild gcc command. */
static void harvest(struct kbuild *kb, char *cmd, const char *src,
		    const char *root)
{
	char *tok, *save = NULL;
	bool want_next = false;

	add_arg(kb, "-isystem");
	add_arg(kb, resource_include());
	for (tok = strtok_r(cmd, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (want_next) {
			char *abs = tok[0] == '/' ? rebase(tok, src, root)
				 : xasprintf("%s/%s", kb->objdir, tok);

			add_arg(kb, abs);
			free(abs);
			want_next = false;
			continue;
		}
		if (!strcmp(tok, "-include") || !strcmp(tok, "-isystem")) {
			add_arg(kb, tok);
			want_next = true;
		} else if (!strncmp(tok, "-I", 2) && tok[2]) {
			char *abs, *r = rebase(tok + 2, src, root);

			abs = tok[2] == '/' ? xasprintf("-I%s", r)
					    : xasprintf("-I%s/%s", kb->objdir,
							tok + 2);
			free(r);

			add_arg(kb, abs);
			free(abs);
		} else if ((!strncmp(tok, "-D", 2) &&
			    !strstr(tok, "KBUILD_")) ||
			   !strncmp(tok, "-std=", 5) ||
			   !strcmp(tok, "-nostdinc") || !strcmp(tok, "-m64")) {
			add_arg(kb, tok);
		}
	}
}

static char *source_path(struct kbuild *kb)
{
	return xasprintf("%s/rtlock-source", kb->objdir);
}

/* Which tree the output was prepared from. */
static int write_source(struct kbuild *kb, const char *root)
{
	char *p = source_path(kb);
	int rc = write_file_atomic(p, root, strlen(root));

	if (rc < 0)
		error("%s: %s", p, strerror(errno));
	free(p);
	return rc;
}

static int prepare(struct kbuild *kb, const struct tree *t, const char *config,
		   bool verbose)
{
	char *log = xasprintf("%s/kbuild.log", kb->objdir);
	char *o = xasprintf("O=%s", kb->objdir);
	char *cfg = xasprintf("%s/.config", kb->objdir);
	char *sc = xasprintf("%s/scripts/config", t->root);
	const char *arch = !strcmp(t->arch, "x86") ? "ARCH=x86_64" : "";
	char *mk1[] = { "make", "-s", "-C", t->root, o, (char *)arch,
			(char *)config, NULL };
	char *mk2[] = { "make", "-s", "-C", t->root, o, (char *)arch,
			"olddefconfig", "prepare", "-j2", NULL };
	char *edit[64] = { sc, "--file", cfg };
	int i, rc = -1;

	if (!*arch)
		mk1[5] = mk2[5] = "V=0";
	for (i = 0; config_edits[i] && i < 58; i++)
		edit[3 + i] = (char *)config_edits[i];
	if (verbose)
		fprintf(stderr, "rtlock: kbuild %s prepare in %s\n", config,
			kb->objdir);
	if (run_command(mk1, NULL, log) || run_command(edit, NULL, log) ||
	    run_command(mk2, NULL, log))
		error("kbuild '%s prepare' failed in %s: see %s", config,
		      kb->objdir, log);
	else
		rc = write_source(kb, t->root);
	free(log);
	free(o);
	free(cfg);
	free(sc);
	return rc;
}

int kbuild_setup(struct kbuild *kb, const struct tree *t, const char *cache,
		 const char *config, bool verbose)
{
	char *cmdfile, *cmd;

	memset(kb, 0, sizeof(*kb));
	if (!strcmp(config, "auto"))
		config = t->kbuild ? "allyesconfig" : "none";
	kb->config = xstrdup(config);
	if (!strcmp(config, "none")) {
		bare_flags(kb, t);
		return 0;
	}
	if (!t->kbuild)
		return error("%s: no kbuild here (scripts/Makefile.build); use "
			     "--config=none", t->root);
	kb->objdir = xasprintf("%s/kbuild-%s-%s-%s", cache, t->version,
			       t->arch, config);
	if (mkdir_p(kb->objdir) < 0)
		return error("%s: %s", kb->objdir, strerror(errno));
	cmdfile = xasprintf("%s/kernel/.bounds.s.cmd", kb->objdir);
	if (!is_file(cmdfile) && prepare(kb, t, config, verbose) < 0) {
		free(cmdfile);
		return -1;
	}
	cmd = read_file(cmdfile, NULL);
	if (!cmd) {
		error("%s: %s (kbuild did not compile kernel/bounds.c)",
		      cmdfile, strerror(errno));
		free(cmdfile);
		return -1;
	}
	{
		char *sp = source_path(kb), *src = read_file(sp, NULL);

		kbuild_parse_cmd(kb, cmd, src ? src : t->root, t->root);
		free(src);
		free(sp);
	}
	free(cmd);
	free(cmdfile);
	return 0;
}

void kbuild_parse_cmd(struct kbuild *kb, char *cmd, const char *src,
		      const char *root)
{
	cmd[strcspn(cmd, "\n")] = '\0';
	harvest(kb, strchr(cmd, '=') ? strchr(cmd, '=') + 1 : cmd, src, root);
}

void kbuild_tu_args(struct tu_args *a, const struct kbuild *kb,
		    const struct tree *t, const char *rel, const char *incs,
		    const char *pch)
{
	const char *slash = strrchr(rel, '/');
	char *tok, *save = NULL;
	int i;

	memset(a, 0, sizeof(*a));
	a->incs = xstrdup(incs ? incs : "");
	a->v = xcalloc(kb->nargs + 8 + strlen(a->incs) / 3, sizeof(*a->v));
	if (pch) {
		a->v[a->n++] = "-include-pch";
		a->v[a->n++] = pch;
	}
	for (i = 0; i < kb->nargs; i++)
		a->v[a->n++] = kb->args[i];
	a->dir = xasprintf("-I%s/%.*s", t->root,
			   slash ? (int)(slash - rel) : 0, rel);
	a->v[a->n++] = a->dir;
	/* the same for every TU, so that a prelude PCH stays valid */
	a->v[a->n++] = "-DKBUILD_MODNAME=\"rtlock\"";
	a->v[a->n++] = "-DKBUILD_BASENAME=\"rtlock\"";
	a->v[a->n++] = "-DKBUILD_MODFILE=\"rtlock\"";
	/* the facts count errors only: no warning is worth its time (4 %) */
	a->v[a->n++] = "-w";
	for (tok = strtok_r(a->incs, "\n", &save); tok;
	     tok = strtok_r(NULL, "\n", &save))
		a->v[a->n++] = tok;
}

void tu_args_release(struct tu_args *a)
{
	free(a->v);
	free(a->dir);
	free(a->incs);
	memset(a, 0, sizeof(*a));
}

void kbuild_release(struct kbuild *kb)
{
	int i;

	for (i = 0; i < kb->nargs; i++)
		free(kb->args[i]);
	free(kb->args);
	free(kb->objdir);
	free(kb->config);
	memset(kb, 0, sizeof(*kb));
}
