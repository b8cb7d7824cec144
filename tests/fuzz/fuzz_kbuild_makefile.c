// SPDX-License-Identifier: GPL-2.0
/*
 * A folder's Makefile as built.c reads it: obj- mentions, ccflags-y,
 * subdir-ccflags-y, variables and their expansion (built_has,
 * built_include_opts: -I, -D and -U options).  The input is written to ROOT/d/Makefile.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "built.h"

static char root[64], makefile[96], config[96];

static void put(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
}

static void cleanup(void)
{
	char d[80];

	unlink(makefile);
	unlink(config);
	snprintf(d, sizeof(d), "%s/d", root);
	rmdir(d);
	rmdir(root);
}

/* every option is on its own line: an absolute -I folder, a -D or a -U */
static bool options_well_formed(struct sb *out)
{
	const char *line = sb_str(out), *end = line + out->len;

	if (out->len && end[-1] != '\n')
		return false;
	for (; line < end; line = strchr(line, '\n') + 1)
		if (strncmp(line, "-I/", 3) && strncmp(line, "-D", 2) &&
		    strncmp(line, "-U", 2))
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct built *b;
	struct sb out = SB_INIT;

	if (!root[0]) {
		snprintf(root, sizeof(root), "/tmp/rtlock-fuzz-mk-%d", (int)getpid());
		snprintf(config, sizeof(config), "%s/.config", root);
		mkdir(root, 0700);
		snprintf(makefile, sizeof(makefile), "%s/d", root);
		mkdir(makefile, 0700);
		snprintf(makefile, sizeof(makefile), "%s/d/Makefile", root);
		put(config, (const uint8_t *)"CONFIG_A=y\n", 11);
		atexit(cleanup);
	}
	put(makefile, data, size);
	b = built_open(root, config);
	FUZZ_ASSERT(b);
	(void)built_has(b, "d/x.c");
	(void)built_why(b, "d/sub/y.c");
	built_include_opts(b, "d/sub/y.c", &out);
	built_include_opts(b, "d/x.c", &out);
	FUZZ_ASSERT(options_well_formed(&out));
	sb_release(&out);
	built_close(b);
	return 0;
}
