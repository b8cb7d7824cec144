// SPDX-License-Identifier: GPL-2.0
#include "prelude.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hash.h"
#include "util.h"

/* Included, directly or not, by most kernel TUs. */
static const char *const common[] = {
	"linux/kernel.h", "linux/module.h", "linux/slab.h", "linux/spinlock.h",
	"linux/sched.h",  "linux/mm.h",	    "linux/fs.h",   "linux/interrupt.h",
	"linux/device.h", NULL,
};

static const char *clang_binary(void)
{
	static char found[4096];
	const char *c = find_in_path("clang-14");

	if (!c)
		c = find_in_path("clang");
	if (!c)
		return NULL;
	snprintf(found, sizeof(found), "%s", c);
	return found;
}

/*
 * Hash the prelude's text and every file the -MF dependency list names,
 * and index the #defines of those files.
 */
static void read_deps(struct prelude *p, struct cache *c, const char *depfile,
		      const char *text, const char *root)
{
	char *deps = read_file(depfile, NULL), *tok, *save = NULL;
	const char **files = NULL;
	unsigned nfiles = 0, alloc = 0;
	struct hasher h;

	hasher_init(&h);
	hasher_adds(&h, text);
	for (tok = deps ? strtok_r(deps, " \t\n\\", &save) : NULL; tok;
	     tok = strtok_r(NULL, " \t\n\\", &save)) {
		if (has_suffix(tok, ":"))
			continue;
		hasher_adds_rooted(&h, tok, root);
		hasher_adds(&h, cache_file_hash(c, tok));
		ALLOC_GROW(files, nfiles, alloc);
		files[nfiles++] = tok;
	}
	hasher_final(&h, p->hash);
	p->macros = macro_index_read(root, files, nfiles);
	free(files);
	free(deps);
}

int prelude_build(struct prelude *p, const struct tree *t,
		  const struct kbuild *kb, struct cache *c, const char *dir)
{
	struct sb text = SB_INIT;
	const char *cc = clang_binary();
	char **argv, *dep, *log, *tmp;
	int i, n = 0, rc;

	memset(p, 0, sizeof(*p));
	if (!cc) {
		warning("no clang binary: parsing without the prelude (slower)");
		return -1;
	}
	for (i = 0; common[i]; i++) {
		char *path = xasprintf("%s/include/%s", t->root, common[i]);

		if (is_file(path))
			sb_addf(&text, "#include <%s>\n", common[i]);
		free(path);
	}
	if (!text.len)
		return -1;
	p->header = xasprintf("%s/prelude.h", dir);
	p->pch = xasprintf("%s/prelude.pch", dir);
	dep = xasprintf("%s/prelude.d", dir);
	log = xasprintf("%s/prelude.log", dir);
	tmp = xasprintf("%s/prelude.pch.tmp", dir);
	if (mkdir_p(dir) < 0 ||
	    write_file_atomic(p->header, text.buf, text.len) < 0) {
		warning("%s: %s: parsing without the prelude", dir,
			strerror(errno));
		rc = -1;
		goto out;
	}
	argv = xcalloc(kb->nargs + 20, sizeof(char *));
	argv[n++] = (char *)cc;
	argv[n++] = "-x";
	argv[n++] = "c-header";
	argv[n++] = "-w";
	for (i = 0; i < kb->nargs; i++)
		argv[n++] = kb->args[i];
	argv[n++] = "-DKBUILD_MODNAME=\"rtlock\"";
	argv[n++] = "-DKBUILD_BASENAME=\"rtlock\"";
	argv[n++] = "-DKBUILD_MODFILE=\"rtlock\"";
	argv[n++] = "-MD";
	argv[n++] = "-MF";
	argv[n++] = dep;
	argv[n++] = p->header;
	argv[n++] = "-o";
	argv[n++] = tmp;
	unlink(log);
	rc = run_command(argv, NULL, log);
	free(argv);
	if (rc || rename(tmp, p->pch) < 0) {
		warning("prelude PCH failed (see %s): parsing without it", log);
		unlink(tmp);
		rc = -1;
		goto out;
	}
	read_deps(p, c, dep, text.buf, t->root);
	rc = 0;
out:
	if (rc)
		prelude_release(p);
	sb_release(&text);
	free(dep);
	free(log);
	free(tmp);
	return rc;
}

void prelude_release(struct prelude *p)
{
	free(p->header);
	free(p->pch);
	macro_index_free(p->macros);
	memset(p, 0, sizeof(*p));
}
