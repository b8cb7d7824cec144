// SPDX-License-Identifier: GPL-2.0
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char *msg;

	/* one line, whole: a path near PATH_MAX does not cut it short */
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	fprintf(stderr, "rtlock: %s%s\n", prefix, msg ? msg : fmt);
	free(msg);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	exit(status);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die(EXIT_FAIL, "out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die(EXIT_FAIL, "out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die(EXIT_FAIL, "out of memory (%zu bytes)", n);
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		die(EXIT_FAIL, "out of memory");
	va_end(ap);
	return p;
}

static void sb_grow(struct sb *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->alloc)
		return;
	sb->alloc = (sb->len + extra + 1) * 3 / 2 + 64;
	sb->buf = xrealloc(sb->buf, sb->alloc);
}

void sb_add(struct sb *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct sb *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_addf(struct sb *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	sb_grow(sb, n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, n + 1, fmt, ap);
	va_end(ap);
	sb->len += n;
}

void sb_reset(struct sb *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void sb_release(struct sb *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

const char *sb_str(struct sb *sb)
{
	return sb->buf ? sb->buf : "";
}

char *read_file(const char *path, size_t *lenp)
{
	struct stat st;
	size_t len = 0, alloc;
	char *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			errno = EISDIR;
		close(fd);
		return NULL;
	}
	alloc = st.st_size + 1;
	buf = xmalloc(alloc);
	for (;;) {
		ssize_t n;

		if (len + 1 >= alloc) {
			alloc *= 2;
			buf = xrealloc(buf, alloc);
		}
		n = read(fd, buf + len, alloc - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			close(fd);
			return NULL;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

static int write_file(const char *path, const void *data, size_t len,
		      bool sync)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd, saved;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		goto fail;
	if (write_all(fd, data, len) < 0 || (sync && fsync(fd) < 0)) {
		saved = errno;
		close(fd);
		errno = saved;
		goto fail;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0)
		goto fail;
	free(tmp);
	return 0;
fail:
	saved = errno;
	unlink(tmp);
	free(tmp);
	errno = saved;
	return -1;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	return write_file(path, data, len, true);
}

int write_file_replace(const char *path, const void *data, size_t len)
{
	return write_file(path, data, len, false);
}

int mkdir_p(const char *path)
{
	char *p = xstrdup(path), *s;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST) {
		free(p);
		return -1;
	}
	free(p);
	if (!is_dir(path)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

int remove_tree(const char *path)
{
	if (!is_dir(path))
		return unlink(path) < 0 && errno != ENOENT ? -1 : 0;
	return nftw(path, rm_entry, 32, FTW_DEPTH | FTW_PHYS);
}

int mkdir_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int rc;

	if (!slash || slash == path)
		return 0;
	dir = xstrndup(path, slash - path);
	rc = mkdir_p(dir);
	free(dir);
	return rc;
}

int copy_file(const char *from, const char *to)
{
	size_t len;
	char *data = read_file(from, &len);
	int rc = -1;

	if (data && mkdir_parent(to) == 0)
		rc = write_file_replace(to, data, len);
	free(data);
	return rc;
}

static bool has_any_suffix(const char *name, const char *const *suffixes)
{
	for (; suffixes && *suffixes; suffixes++)
		if (has_suffix(name, *suffixes))
			return true;
	return !suffixes;
}

int copy_dir(const char *from, const char *to, bool link_ok,
	     const char *const *suffixes)
{
	DIR *d = opendir(from);
	struct dirent *de;
	int rc = d && mkdir_p(to) == 0 ? 0 : -1;

	while (!rc && (de = readdir(d))) {
		char *f, *t;

		if (!has_any_suffix(de->d_name, suffixes))
			continue;
		f = xasprintf("%s/%s", from, de->d_name);
		t = xasprintf("%s/%s", to, de->d_name);
		if (is_file(f) && access(t, F_OK) &&
		    (!link_ok || link(f, t) < 0) && copy_file(f, t) < 0)
			rc = -1;
		free(f);
		free(t);
	}
	if (d && closedir(d) < 0)
		rc = -1;
	return rc;
}

bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

char *abs_path(const char *path)
{
	return realpath(path, NULL);
}

char *path_from_cwd(const char *path)
{
	char *cwd, *p;

	if (path[0] == '/' || !(cwd = getcwd(NULL, 0)))
		return xstrdup(path);
	p = xasprintf("%s/%s", cwd, path);
	free(cwd);
	return p;
}

const char *rel_to(const char *root, size_t rootlen, const char *path)
{
	if (strncmp(path, root, rootlen) || path[rootlen] != '/')
		return NULL;
	return path + rootlen + 1;
}

const char *json_str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

json_int_t json_int(json_t *o, const char *k)
{
	return json_integer_value(json_object_get(o, k));
}

const char *id_name(const char *id)
{
	const char *p = strrchr(id, ':');

	return p ? p + 1 : id;
}

bool str_in(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

bool json_words_have(json_t *words, const char *const *names)
{
	size_t i;
	json_t *w;

	json_array_foreach(words, i, w)
		if (json_is_string(w) && str_in(names, json_string_value(w)))
			return true;
	return false;
}

bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !memcmp(s + n - m, suffix, m);
}

int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Length of the UTF-8 sequence at @s (RFC 3629), 0 when invalid. */
static size_t utf8_seq(const unsigned char *s)
{
	size_t n, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

bool utf8_valid(const char *s)
{
	size_t n;

	for (; *s; s += n)
		if (!(n = utf8_seq((const unsigned char *)s)))
			return false;
	return true;
}

char *utf8_escape(const char *s)
{
	struct sb sb = SB_INIT;
	size_t n;

	sb_adds(&sb, "");
	for (; *s; s += n) {
		n = utf8_seq((const unsigned char *)s);
		if (n) {
			sb_add(&sb, s, n);
		} else {
			sb_addf(&sb, "\\x%02x", (unsigned char)*s);
			n = 1;
		}
	}
	return sb.buf;
}

double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

long peak_rss_kib(void)
{
	struct rusage self, kids;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	return self.ru_maxrss > kids.ru_maxrss ? self.ru_maxrss
					       : kids.ru_maxrss;
}

static void child_setup(const struct command *c, int out_fd, pid_t parent)
{
	const char *const *e;
	int fd;

	/*
	 * rtlock killed (before its handlers are installed, or by SIGKILL):
	 * the command ends too, not go on writing into the cache (a git
	 * reading a release into its repository) beside the next run.
	 */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(128 + SIGTERM);
	if (c->log) {
		fd = open(c->log, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
	}
	if (out_fd >= 0) {
		dup2(out_fd, 1);
		close(out_fd);
	}
	if (c->in || c->out) {
		fd = open(c->in ? c->in : "/dev/null", O_RDONLY);
		if (fd < 0)
			_exit(126);
		dup2(fd, 0);
		close(fd);
	}
	for (e = c->env; e && *e; e++)
		putenv((char *)*e);
	if (c->cwd && chdir(c->cwd) < 0)
		_exit(126);
}

int run_cmd(const struct command *c)
{
	int pipefd[2] = { -1, -1 }, st;
	pid_t pid, parent = getpid();

	fflush(NULL);
	if (c->out && pipe(pipefd) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (c->out)
			close(pipefd[0]);
		child_setup(c, pipefd[1], parent);
		execvp(c->argv[0], c->argv);
		fprintf(stderr, "%s: %s\n", c->argv[0], strerror(errno));
		_exit(127);
	}
	if (c->out) {
		char buf[65536];
		ssize_t n;

		close(pipefd[1]);
		while ((n = read(pipefd[0], buf, sizeof(buf))) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				break;
			sb_add(c->out, buf, n);
		}
		close(pipefd[0]);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	/* the log says how it ended, for whoever is sent to read it */
	if (c->log && (WIFSIGNALED(st) || WEXITSTATUS(st))) {
		FILE *f = fopen(c->log, "a");

		if (f) {
			if (WIFSIGNALED(st))
				fprintf(f, "rtlock: %s: killed by signal %d "
					   "(%s)\n", c->argv[0], WTERMSIG(st),
					strsignal(WTERMSIG(st)));
			else
				fprintf(f, "rtlock: %s: exit status %d\n",
					c->argv[0], WEXITSTATUS(st));
			fclose(f);
		}
	}
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

int run_command(char *const argv[], const char *cwd, const char *log)
{
	struct command c = { .argv = argv, .cwd = cwd, .log = log };

	return run_cmd(&c);
}

const char *rtlock_home(void)
{
	static char buf[4096];
	ssize_t n;
	char *slash;

	if (buf[0])
		return buf;
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return strcpy(buf, ".");
	buf[n] = '\0';
	/* .../tool/rtlock -> ... */
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	slash = strrchr(buf, '/');
	if (slash && !strcmp(slash, "/tool"))
		*slash = '\0';
	return buf;
}

const char *find_in_path(const char *name)
{
	static char found[4096];
	const char *path = getenv("PATH");
	char *dirs, *d, *save = NULL;

	if (strchr(name, '/'))
		return access(name, X_OK) ? NULL : name;
	dirs = xstrdup(path ? path : "/usr/bin:/bin");
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(found, sizeof(found), "%s/%s", d, name);
		if (access(found, X_OK) == 0) {
			free(dirs);
			return found;
		}
	}
	free(dirs);
	return NULL;
}

int write_text(const char *dir, const char *name, const char *s)
{
	char *path = xasprintf("%s/%s", dir, name);
	int rc = 0;

	if (mkdir_p(dir) < 0 || write_file_atomic(path, s, strlen(s)) < 0) {
		error("cannot write %s: %m", path);
		rc = -1;
	}
	free(path);
	return rc;
}

int write_json(const char *dir, const char *name, json_t *j)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *s = j ? json_dumps(j, JSON_INDENT(1) | JSON_SORT_KEYS) : NULL;
	int rc = 0;

	if (!s) {
		error("%s: internal error: the result could not be built", path);
		rc = -1;
	} else if (mkdir_p(dir) < 0 ||
		   write_file_atomic(path, s, strlen(s)) < 0) {
		error("cannot write %s: %m", path);
		rc = -1;
	}
	free(s);
	free(path);
	return rc;
}

bool next_word(const char *text, size_t len, size_t *i, size_t *n)
{
	for (; *i < len; ++*i) {
		if (!ident_char(text[*i]) || (*i && ident_char(text[*i - 1])))
			continue;
		for (*n = 0; *i + *n < len && ident_char(text[*i + *n]); ++*n)
			;
		return true;
	}
	return false;
}

/* Copy of t with comments, string and character literals blanked. */
char *mask_c(const char *t)
{
	char *m = xstrdup(t), *p;

	for (p = m; *p; p++) {
		if (p[0] == '/' && p[1] == '*') {
			for (*p++ = ' ', *p++ = ' '; *p && !(p[0] == '*' && p[1] == '/'); p++)
				if (*p != '\n')
					*p = ' ';
			if (!*p)
				break;
			p[0] = p[1] = ' ';
			p++;
		} else if (p[0] == '/' && p[1] == '/') {
			for (; *p && *p != '\n'; p++)
				*p = ' ';
			if (!*p)
				break;
		} else if (*p == '"' || *p == '\'') {
			char q = *p;

			for (*p++ = ' '; *p && *p != q && *p != '\n'; p++) {
				if (*p == '\\' && p[1]) {
					*p++ = ' ';
					if (*p == '\n')
						continue;
				}
				*p = ' ';
			}
			if (!*p)
				break;
			if (*p == q)
				*p = ' ';
		}
	}
	return m;
}
