// SPDX-License-Identifier: GPL-2.0
#include "fastimport.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uthash.h>

#include "hash.h"

struct fi_file {
	char *path;
	bool exists;
	char hash[HASH_HEX];	/* of the content, when it exists */
	/*
	 * The work tree file as last read: a file staged again with the
	 * same inode, size and modification time is not read again (the
	 * conversion writes a file by renaming a new one over it).
	 */
	bool read;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	UT_hash_handle hh;
};

int fi_open(struct fastimport *fi, const char *path, const char *work_tree,
	    const char *base_tree)
{
	memset(fi, 0, sizeof(*fi));
	fi->path = xstrdup(path);
	fi->marks_path = xasprintf("%s.marks", path);
	fi->work_tree = xstrdup(work_tree);
	fi->base_tree = xstrdup(base_tree);
	fi->next_mark = 1;
	fi->stream = fopen(path, "w");
	return fi->stream ? 0 : -1;
}

/* The path as fast-import reads it: C-quoted when it has to be. */
static void add_path(struct sb *sb, const char *p)
{
	const char *c;

	if (!p[strcspn(p, "\"\\\n\t")] && *p != '"') {
		sb_adds(sb, p);
		return;
	}
	sb_adds(sb, "\"");
	for (c = p; *c; c++) {
		if (*c == '"' || *c == '\\')
			sb_addf(sb, "\\%c", *c);
		else if (*c == '\n')
			sb_adds(sb, "\\n");
		else if (*c == '\t')
			sb_adds(sb, "\\t");
		else
			sb_add(sb, c, 1);
	}
	sb_adds(sb, "\"");
}

/* The file's last committed state: the base tree's until staged. */
static struct fi_file *last_state(struct fastimport *fi, const char *rel)
{
	struct fi_file *f;
	char *base;

	HASH_FIND_STR(fi->files, rel, f);
	if (f)
		return f;
	f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(rel);
	base = xasprintf("%s/%s", fi->base_tree, rel);
	f->exists = hash_file(base, f->hash) == 0;
	free(base);
	HASH_ADD_KEYPTR(hh, fi->files, f->path, strlen(f->path), f);
	return f;
}

int fi_stage(struct fastimport *fi, const char *rel)
{
	struct fi_file *f = last_state(fi, rel);
	char *path = xasprintf("%s/%s", fi->work_tree, rel), *text, hash[HASH_HEX];
	struct stat st;
	size_t len;
	int rc = 0;

	if (lstat(path, &st) < 0) {
		if (errno != ENOENT) {
			rc = -1;
		} else if (f->exists) {
			f->exists = false;
			sb_adds(&fi->changes, "D ");
			add_path(&fi->changes, rel);
			sb_adds(&fi->changes, "\n");
		}
		free(path);
		return rc;
	}
	if (f->read && f->exists && st.st_ino == f->ino && st.st_size == f->size &&
	    st.st_mtim.tv_sec == f->mtime.tv_sec &&
	    st.st_mtim.tv_nsec == f->mtime.tv_nsec) {
		free(path);
		return 0;
	}
	text = read_file(path, &len);
	free(path);
	if (!text)
		return -1;
	f->read = true;
	f->ino = st.st_ino;
	f->size = st.st_size;
	f->mtime = st.st_mtim;
	hash_buf(text, len, hash);
	if (!f->exists || strcmp(hash, f->hash)) {
		f->exists = true;
		strcpy(f->hash, hash);
		fprintf(fi->stream, "blob\nmark :%u\ndata %zu\n", fi->next_mark, len);
		fwrite(text, 1, len, fi->stream);
		sb_addf(&fi->changes, "M %s :%u ", st.st_mode & S_IXUSR ?
			"100755" : "100644", fi->next_mark++);
		add_path(&fi->changes, rel);
		sb_adds(&fi->changes, "\n");
		rc = fputc('\n', fi->stream) == EOF ? -1 : 0;
	}
	free(text);
	return rc;
}

bool fi_changed(const struct fastimport *fi)
{
	return fi->changes.len > 0;
}

unsigned fi_commit(struct fastimport *fi, const char *ref, const char *parent,
		   const char *author, const char *committer, long long t,
		   const char *msg)
{
	unsigned mark = fi->next_mark++;

	fprintf(fi->stream, "commit %s\nmark :%u\n", ref, mark);
	fprintf(fi->stream, "author %s %lld +0000\ncommitter %s %lld +0000\n",
		author, t, committer, t);
	fprintf(fi->stream, "data %zu\n%s\nfrom %s\n", strlen(msg), msg, parent);
	fwrite(sb_str(&fi->changes), 1, fi->changes.len, fi->stream);
	sb_reset(&fi->changes);
	return fputc('\n', fi->stream) == EOF ? 0 : mark;
}

/* ":N SHA" lines into fi->shas. */
static int read_marks(struct fastimport *fi)
{
	char *text = read_file(fi->marks_path, NULL), *p, *eol;
	unsigned long mark;

	if (!text)
		return -1;
	fi->shas = xcalloc(fi->next_mark, sizeof(char *));
	for (p = text; *p == ':'; p = eol + 1) {
		mark = strtoul(p + 1, &p, 10);
		eol = strchr(p, '\n');
		if (!eol || *p != ' ')
			break;
		if (mark < fi->next_mark && !fi->shas[mark])
			fi->shas[mark] = xstrndup(p + 1, eol - p - 1);
	}
	free(text);
	return 0;
}

int fi_run(struct fastimport *fi, const struct git *g)
{
	char *marks = xasprintf("--export-marks=%s", fi->marks_path);
	int rc, err;

	err = fputs("done\n", fi->stream) == EOF || ferror(fi->stream) ? EIO : 0;
	if (fclose(fi->stream) != 0)
		err = errno;
	fi->stream = NULL;
	if (err) {
		free(marks);
		errno = err;
		return -1;
	}
	rc = git_run(g, NULL, fi->path, "fast-import", "--quiet", "--done", "--force",
		     "--date-format=raw", marks, NULL);
	free(marks);
	if (!rc && read_marks(fi) < 0)
		rc = 1;		/* no marks: as if git had failed */
	return rc;
}

const char *fi_sha(const struct fastimport *fi, unsigned mark)
{
	return fi->shas && mark < fi->next_mark ? fi->shas[mark] : NULL;
}

void fi_release(struct fastimport *fi)
{
	struct fi_file *f, *tmp;
	unsigned i;

	if (fi->stream)
		fclose(fi->stream);
	if (fi->path)
		unlink(fi->path);
	if (fi->marks_path)
		unlink(fi->marks_path);
	HASH_ITER(hh, fi->files, f, tmp) {
		HASH_DEL(fi->files, f);
		free(f->path);
		free(f);
	}
	for (i = 0; fi->shas && i < fi->next_mark; i++)
		free(fi->shas[i]);
	free(fi->shas);
	free(fi->path);
	free(fi->marks_path);
	free(fi->work_tree);
	free(fi->base_tree);
	sb_release(&fi->changes);
	memset(fi, 0, sizeof(*fi));
}
