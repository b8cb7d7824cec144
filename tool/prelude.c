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

/*
 * Then by many of them, by subsystem: on 300 random TUs of 6.1's
 * allyesconfig scan, clang with these as well took 54 s instead of 127 s,
 * with no TU gaining an error.  None may declare a name that drivers use
 * for their own things, or those TUs are parsed twice (left out for that:
 * linux/ethtool.h and what includes it, linux/phy.h and net/cfg80211.h,
 * for i915's PORT_NONE; scsi/scsi_host.h and linux/libata.h, for the
 * enumerators QUEUED and NOP; rdma/ib_verbs.h).  A tree where one of them
 * does not compile gets the common ones only.
 */
static const char *const more[] = {
	"linux/io.h", "linux/of.h", "linux/property.h", "linux/seq_file.h",
	"linux/delay.h", "linux/kthread.h", "linux/dma-mapping.h",
	"linux/irqdomain.h", "linux/cgroup.h", "linux/platform_device.h",
	"linux/highmem.h", "linux/debugfs.h", "linux/bio.h",
	"linux/memcontrol.h", "linux/pagemap.h", "linux/pci.h",
	"linux/netdevice.h", "linux/uaccess.h", "linux/blkdev.h", "net/sock.h",
	"linux/etherdevice.h", "linux/rtnetlink.h", "linux/usb.h",
	"linux/i2c.h", "linux/regmap.h", "linux/clk.h", "linux/pm_runtime.h",
	"linux/firmware.h", "linux/miscdevice.h", "linux/cdev.h",
	"linux/bpf.h", "linux/perf_event.h", "linux/swap.h",
	"linux/gpio/consumer.h", "linux/vmalloc.h", "linux/string_helpers.h",
	"linux/ctype.h", "linux/scatterlist.h", "linux/cpu.h",
	"linux/ptrace.h", "linux/compat.h", "linux/kprobes.h",
	"linux/ftrace.h", "linux/acpi.h", "linux/spi/spi.h", "linux/input.h",
	"linux/tty.h", "linux/mmc/host.h", "linux/regulator/consumer.h",
	"linux/dmaengine.h", "linux/if_vlan.h", "net/ip.h", "net/tcp.h",
	"net/netlink.h", "net/genetlink.h", "crypto/hash.h",
	"crypto/skcipher.h", "linux/buffer_head.h", "linux/hugetlb.h",
	"linux/security.h", "linux/mount.h", "linux/namei.h", "linux/virtio.h",
	"linux/power_supply.h", "linux/iio/iio.h", "media/v4l2-device.h",
	"sound/core.h", "drm/drm_device.h", "drm/drm_print.h", "drm/drm_drv.h",
	"drm/drm_file.h", "drm/drm_gem.h", "drm/drm_crtc.h",
	"drm/drm_atomic.h",
	NULL,
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
		      const char *text, const char *root, const char *objdir)
{
	char *deps = read_file(depfile, NULL), *tok, *save = NULL;
	/* the tree's root and the kbuild output, not their places */
	const char *const places[] = { root, objdir, NULL };
	const char **files = NULL;
	unsigned nfiles = 0, alloc = 0;
	struct hasher h;

	hasher_init(&h);
	hasher_adds(&h, text);
	for (tok = deps ? strtok_r(deps, " \t\n\\", &save) : NULL; tok;
	     tok = strtok_r(NULL, " \t\n\\", &save)) {
		/* its text is hashed; its path is the tree's prelude folder */
		if (has_suffix(tok, ":") || !strcmp(tok, p->header))
			continue;
		hasher_adds_placed(&h, tok, places);
		hasher_adds(&h, cache_file_hash(c, tok));
		ALLOC_GROW(files, nfiles, alloc);
		files[nfiles++] = tok;
	}
	hasher_final(&h, p->hash);
	p->macros = macro_index_read(root, files, nfiles);
	free(files);
	free(deps);
}

static void add_headers(struct sb *text, const struct tree *t,
			const char *const *list)
{
	for (; *list; list++) {
		char *path = xasprintf("%s/include/%s", t->root, *list);

		if (is_file(path))
			sb_addf(text, "#include <%s>\n", *list);
		free(path);
	}
}

/* Compile @text as p->header into p->pch (through @tmp); 0 when done. */
static int compile_pch(struct prelude *p, const struct kbuild *kb,
		       const char *cc, const char *text, const char *dep,
		       const char *log, const char *tmp)
{
	char **argv;
	int i, n = 0, rc;

	if (write_file_atomic(p->header, text, strlen(text)) < 0)
		return -1;
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
	argv[n++] = (char *)dep;
	argv[n++] = p->header;
	argv[n++] = "-o";
	argv[n++] = (char *)tmp;
	unlink(log);
	rc = run_command(argv, NULL, log);
	free(argv);
	if (!rc && rename(tmp, p->pch) < 0)
		rc = -1;
	if (rc)
		unlink(tmp);
	return rc;
}

int prelude_build(struct prelude *p, const struct tree *t,
		  const struct kbuild *kb, struct cache *c, const char *dir)
{
	struct sb text = SB_INIT;
	const char *cc = clang_binary();
	char *dep, *log, *tmp;
	size_t ncommon;
	int rc;

	memset(p, 0, sizeof(*p));
	if (!cc) {
		warning("no clang binary: parsing without the prelude (slower)");
		return -1;
	}
	add_headers(&text, t, common);
	if (!text.len)
		return -1;
	ncommon = text.len;
	add_headers(&text, t, more);
	p->header = xasprintf("%s/prelude.h", dir);
	p->pch = xasprintf("%s/prelude.pch", dir);
	dep = xasprintf("%s/prelude.d", dir);
	log = xasprintf("%s/prelude.log", dir);
	tmp = xasprintf("%s/prelude.pch.tmp", dir);
	if (mkdir_p(dir) < 0) {
		warning("%s: %s: parsing without the prelude", dir,
			strerror(errno));
		rc = -1;
		goto out;
	}
	rc = compile_pch(p, kb, cc, sb_str(&text), dep, log, tmp);
	if (rc && text.len > ncommon) {
		text.len = ncommon;
		text.buf[ncommon] = '\0';
		rc = compile_pch(p, kb, cc, text.buf, dep, log, tmp);
	}
	if (rc) {
		warning("prelude PCH failed (see %s): parsing without it", log);
		goto out;
	}
	read_deps(p, c, dep, text.buf, t->root, kb->objdir);
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
