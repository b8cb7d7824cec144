// SPDX-License-Identifier: GPL-2.0
#include "git.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define GIT_MAX_ARGS 64

static int git_vrun(const struct git *g, struct sb *out, const char *in,
		    va_list ap)
{
	char *argv[GIT_MAX_ARGS + 8], *gd = NULL, *wt = NULL, *ix = NULL;
	const char *env[16];
	struct command c = { .argv = argv, .cwd = g->cwd, .env = env, .in = in,
			     .out = out, .log = g->log };
	unsigned n = 0, e = 0, i;
	const char *a;
	int rc;

	argv[n++] = "git";
	gd = xasprintf("--git-dir=%s", g->git_dir);
	argv[n++] = gd;
	if (g->work_tree) {
		wt = xasprintf("--work-tree=%s", g->work_tree);
		argv[n++] = wt;
	}
	while ((a = va_arg(ap, const char *)) && n < GIT_MAX_ARGS)
		argv[n++] = (char *)a;
	argv[n] = NULL;
	env[e++] = "GIT_CONFIG_NOSYSTEM=1";
	env[e++] = "GIT_CONFIG_GLOBAL=/dev/null";
	env[e++] = "LC_ALL=C";
	env[e++] = "GIT_TERMINAL_PROMPT=0";
	if (g->index) {
		ix = xasprintf("GIT_INDEX_FILE=%s", g->index);
		env[e++] = ix;
	}
	for (i = 0; i < 8 && g->env[i]; i++)
		env[e++] = g->env[i];
	env[e] = NULL;
	rc = run_cmd(&c);
	free(gd);
	free(wt);
	free(ix);
	return rc;
}

int git_run(const struct git *g, struct sb *out, const char *in, ...)
{
	va_list ap;
	int rc;

	va_start(ap, in);
	rc = git_vrun(g, out, in, ap);
	va_end(ap);
	return rc;
}

char *git_read(const struct git *g, ...)
{
	struct sb out = SB_INIT;
	va_list ap;
	int rc;

	va_start(ap, g);
	rc = git_vrun(g, &out, NULL, ap);
	va_end(ap);
	if (rc) {
		sb_release(&out);
		return NULL;
	}
	while (out.len && out.buf[out.len - 1] == '\n')
		out.buf[--out.len] = '\0';
	return xstrdup(sb_str(&out));
}

char *git_last_error(const struct git *g)
{
	char *t = g->log ? read_file(g->log, NULL) : NULL, *end, *bol;

	if (!t)
		return xstrdup("git failed");
	end = t + strlen(t);
	while (end > t && end[-1] == '\n')
		*--end = '\0';
	bol = strrchr(t, '\n');
	bol = xstrdup(bol ? bol + 1 : *t ? t : "git failed");
	free(t);
	return bol;
}
