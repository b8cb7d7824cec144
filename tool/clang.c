// SPDX-License-Identifier: GPL-2.0
#include "clang.h"

#include <dlfcn.h>
#include <stdlib.h>

#include "util.h"

struct clang_api clang_api;

int clang_load(void)
{
	static int state;	/* 1 loaded, -1 failed (and reported) */
	const char *path = getenv("RTLOCK_LIBCLANG");
	void *h;

	if (state)
		return state > 0 ? 0 : -1;
	state = -1;
	if (!path || !*path)
		path = RTLOCK_LIBCLANG_PATH;
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		error("cannot load libclang (%s): apt-get install libclang1-14 "
		      "(make deps), or set RTLOCK_LIBCLANG", dlerror());
		return -1;
	}
#define X(f)                                                                   \
	if (!(*(void **)&clang_api.p_##f = dlsym(h, #f))) {                   \
		error("%s: no %s in this libclang", path, #f);                 \
		dlclose(h);                                                    \
		return -1;                                                     \
	}
	RTLOCK_CLANG_FUNCS(X)
#undef X
	state = 1;
	return 0;
}
