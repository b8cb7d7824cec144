// SPDX-License-Identifier: GPL-2.0
/*
 * Whose choice a context is.  Some atomic contexts are given by the
 * kernel's design: timer and per-cpu interrupts, irq_chip callbacks, the
 * scheduler, hrtimers and irq_work in a _HARD mode, IPIs, NMIs.  Others are
 * chosen by the code that enters them: a handler's IRQF_ONESHOT or
 * IRQF_NO_THREAD, interrupts or preemption disabled by hand.  Core code
 * (kernel/, mm/, lib/, arch/, include/, the driver core, the VFS and the
 * networking core) chooses for every lock it reaches: what it calls must
 * live with it.  A driver, a file system or a protocol chooses for its
 * own locks only: when its hard-irq handler wakes a wait queue, the wait
 * queue's lock does not spin on PREEMPT_RT; the handler is an RT conflict
 * to fix where it is, and the lock is listed with that conflict for
 * review.
 *
 * A component is the first two folders of a path ("net/ipv4",
 * "include/linux"), three below drivers/ and sound/, a driver's folder
 * ("drivers/usb/chipidea", "drivers/usb/gadget"); a file at the top of a
 * folder belongs to that folder.  The core's choices are seeded in a first
 * pass and closed over; the others in a second, each limited to its
 * component, so that what the core reaches is never held back by a driver
 * that came first.
 *
 * A region a driver, file system or protocol disables interrupts or
 * preemption in by hand chooses for no lock, not even its own: outside the
 * core, Documentation/locking/locktypes.rst has "local_irq_disable();
 * spin_lock(&lock);" rewritten for PREEMPT_RT (spin_lock_irq(), a
 * local_lock, migrate_disable()), not the lock kept spinning.  Its scope,
 * SCOPE_NOBODY - component, admits no lock and names the component where
 * the conflict is to be fixed.
 */
#include <string.h>
#include <uthash.h>

#include "classify_int.h"
#include "util.h"

struct comp {
	char *name;
	unsigned idx;
	UT_hash_handle hh;
};

/*
 * The length of @path's component: its first two folders, three below
 * drivers/ and sound/ (a driver's folder: "drivers/usb/chipidea"), or the
 * folders it has.
 */
static size_t comp_len(const char *path)
{
	bool driver = has_prefix(path, "drivers/") || has_prefix(path, "sound/");
	unsigned depth = driver ? 3 : 2;
	const char *end = NULL, *s;

	for (s = strchr(path, '/'); s && depth--; s = strchr(s + 1, '/'))
		end = s;
	return end ? (size_t)(end - path) : strlen(path);
}

static unsigned intern(struct classify *c, const char *path)
{
	size_t n = comp_len(path);
	struct comp *k;

	HASH_FIND(hh, c->comps, path, n, k);
	if (k)
		return k->idx;
	k = xcalloc(1, sizeof(*k));
	k->name = xstrndup(path, n);
	k->idx = c->ncomps++;
	HASH_ADD_KEYPTR(hh, c->comps, k->name, n, k);
	ALLOC_GROW(c->comp_names, c->ncomps, c->acomp_names);
	c->comp_names[k->idx] = k->name;
	return k->idx;
}

/* Does code at @path choose contexts for the whole kernel? */
static bool is_core(const char *path)
{
	static const char *const core_parts[] = {
		"drivers/base/",
		"net/core/",
		NULL,
	};
	static const char *const leaves[] = {
		"drivers/", "sound/", "net/", "fs/", NULL,
	};
	unsigned i;

	for (i = 0; core_parts[i]; i++)
		if (has_prefix(path, core_parts[i]))
			return true;
	if (has_prefix(path, "fs/") && !strchr(path + 3, '/'))
		return true; /* the VFS */
	for (i = 0; leaves[i]; i++)
		if (has_prefix(path, leaves[i]))
			return false;
	return true;
}

void owner_init(struct classify *c)
{
	unsigned i;

	for (i = 0; i < c->nfuncs; i++) {
		const char *file = c->funcs[i].f->file;

		c->funcs[i].comp = intern(c, file);
		c->funcs[i].own_scope = -1;
		if (!is_core(file))
			c->funcs[i].own_scope = (int)c->funcs[i].comp;
		c->funcs[i].scope = -1;
	}
	for (i = 0; i < c->nlocks; i++) {
		c->locks[i].comp = intern(c, c->locks[i].l->file);
		c->locks[i].scope = -1;
	}
}

void owner_free(struct classify *c)
{
	struct comp *k, *kt;

	HASH_ITER(hh, c->comps, k, kt) {
		HASH_DEL(c->comps, k);
		free(k->name);
		free(k);
	}
	free(c->comp_names);
}

bool owner_admits(const struct classify *c, unsigned lock, int scope)
{
	return scope == -1 ||
	       (scope >= 0 && c->locks[lock].comp == (unsigned)scope);
}

int owner_region_scope(const struct cl_func *f)
{
	return f->own_scope < 0 ? -1 : SCOPE_NOBODY - f->own_scope;
}

unsigned owner_scope_comp(int scope)
{
	return scope >= 0 ? (unsigned)scope : (unsigned)(SCOPE_NOBODY - scope);
}
