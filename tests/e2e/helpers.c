// SPDX-License-Identifier: GPL-2.0
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "e2e.h"
#include "hash.h"
#include "util.h"

int run(char **err, const char *fmt, ...)
{
	char *cmd, *full, errfile[] = "/tmp/rtlock-e2e-err-XXXXXX";
	va_list ap;
	int st, fd = mkstemp(errfile);

	va_start(ap, fmt);
	if (vasprintf(&cmd, fmt, ap) < 0)
		abort();
	va_end(ap);
	close(fd);
	full = xasprintf("%s 2>%s", cmd, errfile);
	st = system(full);
	if (err)
		*err = read_file(errfile, NULL);
	unlink(errfile);
	free(full);
	free(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

char *tmpdir(void)
{
	char *d = xstrdup("/tmp/rtlock-e2e-XXXXXX");

	if (!mkdtemp(d))
		abort();
	return d;
}

void copy_tree(const char *from, const char *to)
{
	assert_int_equal(run(NULL, "cp -a '%s' '%s'", from, to), 0);
}

static struct sb *digest_sb;

static int digest_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	char h[HASH_HEX];

	(void)ftw;
	if (type != FTW_F)
		return 0;
	if (hash_file(path, h) < 0)
		strcpy(h, "unreadable");
	sb_addf(digest_sb, "%s %s %o %ld\n", path, h, st->st_mode,
		(long)st->st_mtime);
	return 0;
}

char *tree_digest(const char *dir)
{
	struct sb sb = SB_INIT;
	char h[HASH_HEX];

	digest_sb = &sb;
	nftw(dir, digest_one, 32, FTW_PHYS);
	hash_buf(sb.buf ? sb.buf : "", sb.len, h);
	sb_release(&sb);
	return xstrdup(h);
}

json_t *load_json(const char *fmt, ...)
{
	va_list ap;
	char *path;
	json_error_t err;
	json_t *j;

	va_start(ap, fmt);
	if (vasprintf(&path, fmt, ap) < 0)
		abort();
	va_end(ap);
	j = json_load_file(path, 0, &err);
	if (!j)
		fail_msg("%s: %s", path, err.text);
	free(path);
	return j;
}

char **expected_lines(const char *name, size_t *n)
{
	char *path = xasprintf("%s/EXPECTED/%s", FIXTURE, name);
	char *data = read_file(path, NULL), *line, *save = NULL;
	char **v = NULL;
	size_t alloc = 0;

	assert_non_null(data);
	*n = 0;
	for (line = strtok_r(data, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!*line || *line == '#')
			continue;
		ALLOC_GROW(v, *n, alloc);
		v[(*n)++] = xstrdup(line);
	}
	free(data);
	free(path);
	return v;
}
