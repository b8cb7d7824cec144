/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MINI_SEQ_H
#define _LINUX_MINI_SEQ_H

/* linux-mini: a seqcount named like another one elsewhere (fs_struct's seq) */
#include <linux/seqlock.h>
#include <linux/spinlock.h>

struct mini_seq_obj {
	seqcount_spinlock_t seq;	/* given rtc_lock: follows it */
};

void mini_seq_obj_init(struct mini_seq_obj *o);

/*
 * A lock spelt through a macro, as struct dentry's d_lock is its
 * d_lockref.lock: the seqcount tied to m_lock is tied to mini_ref::lock.
 */
struct mini_ref {
	spinlock_t lock;
	int count;
};

struct mini_dent {
	struct mini_ref m_ref;
	seqcount_spinlock_t m_seq;	/* given m_lock, kept: follows it */
};

#define m_lock m_ref.lock

void mini_dent_init(struct mini_dent *d);

/* defined in fs/mini_seq.c: retyped with its definition */
extern seqcount_spinlock_t rtc_seq;

#endif
