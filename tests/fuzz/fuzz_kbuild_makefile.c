// SPDX-License-Identifier: GPL-2.0
/*
 * A folder's Makefile as built.c reads it: obj- mentions, ccflags-y,
 * subdir-ccflags-y, variables and their expansion (built_has,
 * built_include_opts).  The input is written to ROOT/d/Makefile.
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
	/* every option is one absolute -I folder on its own line */
	FUZZ_ASSERT(!out.len || (!strncmp(sb_str(&out), "-I/", 3) &&
				 out.buf[out.len - 1] == '\n'));
	sb_release(&out);
	built_close(b);
	return 0;
}
