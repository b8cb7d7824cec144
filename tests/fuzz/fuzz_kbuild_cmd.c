// SPDX-License-Identifier: GPL-2.0
/* kbuild's kernel/.bounds.s.cmd: the flags rtlock takes from it. */
#include "fuzz.h"
#include "kbuild.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kbuild kb;
	char *cmd = fuzz_str(data, size);
	int i;

	memset(&kb, 0, sizeof(kb));
	kb.objdir = xstrdup("/fuzz/kbuild");
	kbuild_parse_cmd(&kb, cmd, "/fuzz/src", "/fuzz/linux");
	for (i = 0; i < kb.nargs; i++)
		FUZZ_ASSERT(kb.args[i] && kb.args[i][0]);
	kbuild_release(&kb);
	free(cmd);
	return 0;
}
