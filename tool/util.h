/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by every module: error reporting, allocation that
 * cannot fail silently, a growable string buffer and file I/O that never
 * leaves a half-written file behind.
 */
#ifndef RTLOCK_UTIL_H
#define RTLOCK_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* Exit statuses, documented in README ("Exit status"). */
enum rtlock_exit {
	EXIT_OK = 0,		/* done, nothing to review */
	EXIT_REVIEW = 1,	/* done, with items a reviewer should look at */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_INPUT = 3,		/* bad input: not a kernel tree, bad whitelist... */
	EXIT_ENV = 4,		/* missing tool or library, unwritable directory */
	EXIT_FAIL = 5,		/* the run failed (internal error, all TUs failed) */
	EXIT_INTR = 130,	/* interrupted by SIGINT/SIGTERM */
};

/* Print "rtlock: <msg>" on stderr and return -1, git style. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "rtlock: <msg>" on stderr and exit with @status. */
void die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define ALLOC_GROW(p, nr, alloc)                                              \
	do {                                                                  \
		if ((nr) >= (alloc)) {                                        \
			(alloc) = (alloc) ? 2 * (alloc) : 16;                 \
			(p) = xrealloc((p), (alloc) * sizeof(*(p)));          \
		}                                                             \
	} while (0)

#define FREE_AND_NULL(p)                                                      \
	do {                                                                  \
		free(p);                                                      \
		(p) = NULL;                                                   \
	} while (0)

struct sb {
	char *buf;
	size_t len, alloc;
};
#define SB_INIT { NULL, 0, 0 }
void sb_add(struct sb *sb, const char *s, size_t n);
void sb_adds(struct sb *sb, const char *s);
void sb_addf(struct sb *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_reset(struct sb *sb);
void sb_release(struct sb *sb);
/* The buffer, NUL terminated (never NULL). */
const char *sb_str(struct sb *sb);

/* Read a whole file; returns NULL and sets errno on failure. */
char *read_file(const char *path, size_t *len);
/*
 * Write @len bytes to @path atomically: a temporary file in the same
 * directory, fsync'd and renamed over @path.  On failure nothing is left.
 */
int write_file_atomic(const char *path, const void *data, size_t len);
/*
 * The same without the fsync: for what a crash may lose (scratch copies,
 * cache entries that carry their own checksum); thousands of fsyncs cost
 * more than the writes.
 */
int write_file_replace(const char *path, const void *data, size_t len);
int mkdir_p(const char *path);
/* mkdir_p() of the directory @path is in (none for a bare name). */
int mkdir_parent(const char *path);
/*
 * Copy the file @from to @to (write_file_replace), making @to's directory
 * first; 0, or -1 with errno.
 */
int copy_file(const char *from, const char *to);
/*
 * The regular files of the directory @from that @to lacks (only those
 * ending in one of @suffixes, a NULL-terminated list, when it is not
 * NULL), into @to, made first: hard links when @link (copies across file
 * systems), else copies.  0, or -1 with errno.
 */
int copy_dir(const char *from, const char *to, bool link,
	     const char *const *suffixes);
/* DIR/NAME written atomically (DIR made first); one error line on failure. */
int write_text(const char *dir, const char *name, const char *s);
int write_json(const char *dir, const char *name, json_t *j); /* indented, sorted */
int remove_tree(const char *path);
bool is_dir(const char *path);
bool is_file(const char *path);
/* Absolute, canonical path (realpath) or NULL. */
char *abs_path(const char *path);
/* @path made absolute against the working directory; need not exist */
char *path_from_cwd(const char *path);
/* Path of @path relative to @root when inside it, else NULL. */
const char *rel_to(const char *root, size_t rootlen, const char *path);
bool has_suffix(const char *s, const char *suffix);
/* a letter, digit or underscore (inline: the text scans call it a byte) */
static inline bool ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}
/*
 * The next identifier of @text (@len bytes) at or after *@i: true with
 * *@i at its start and *@n its length, false at the end.
 */
bool next_word(const char *text, size_t len, size_t *i, size_t *n);
/* A copy of C text @t with comments, string and character literals blanked. */
char *mask_c(const char *t);
/* the string member @k of object @o, "" when there is none */
const char *json_str(json_t *o, const char *k);
/* the integer member @k of @o, 0 when there is none */
json_int_t json_int(json_t *o, const char *k);
/* The name in an identity ("file:name", "struct s::field"): past its last ':' */
const char *id_name(const char *id);
/* Is @s among the NULL-ended @list (which may be NULL)? */
bool str_in(const char *const *list, const char *s);
/* Is one of the strings of array @words among the NULL-ended @names? */
bool json_words_have(json_t *words, const char *const *names);
bool has_prefix(const char *s, const char *prefix);
/* qsort/bsearch order of an array of strings */
int cmp_strp(const void *a, const void *b);
/*
 * JSON strings are UTF-8: a path or a text that is not cannot be named in
 * rtlock's results.  utf8_escape() spells each invalid byte \xNN, for
 * messages (a new string).
 */
bool utf8_valid(const char *s);
char *utf8_escape(const char *s);

/*
 * Run @argv (PATH is searched) in @cwd (NULL: here), stdout and stderr
 * appended to @log (NULL: inherited).  Returns the exit status, 128+signal
 * when killed, -1 when it could not start.
 */
int run_command(char *const argv[], const char *cwd, const char *log);

/* run_command() with more plumbing: extra environment, stdin, stdout. */
struct command {
	char *const *argv;
	const char *cwd;	/* NULL: here */
	const char *const *env;	/* "NAME=value" added, NULL-terminated */
	const char *in;		/* stdin from this file (NULL: /dev/null) */
	struct sb *out;		/* stdout captured here (NULL: to @log) */
	const char *log;	/* stderr appended (NULL: inherited) */
};
int run_cmd(const struct command *c);
/* Full path of an executable found in PATH, or NULL (static buffer). */
const char *find_in_path(const char *name);
/* The rtlock checkout the running binary belongs to (tool/rtlock -> .). */
const char *rtlock_home(void);

/* Monotonic time in seconds. */
double now_sec(void);
/* Peak resident set size of this process and its waited-for children, KiB. */
long peak_rss_kib(void);

#endif
