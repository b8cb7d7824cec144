/* SPDX-License-Identifier: GPL-2.0 */
// Code in the arguments of a macro invoked at file scope (a trace
// event's TP_fast_assign) is converted: a call there is not the
// definition of the API function it names.  A static definition whose
// name carries an attribute is converted by the name before it.
TRACE_EVENT(qgroup_meta_convert,

	TP_PROTO(struct btrfs_root *root, s64 diff),

	TP_ARGS(root, diff),

	TP_fast_assign_btrfs(root->fs_info,
		__entry->refroot	= root->root_key.objectid;
		spin_lock(&root->qgroup_meta_rsv_lock);
		__entry->diff		= -(s64)root->qgroup_meta_rsv_pertrans;
		spin_unlock(&root->qgroup_meta_rsv_lock);
	),

	TP_printk_btrfs("refroot=%llu diff=%lld", __entry->refroot, __entry->diff)
);

static DEFINE_SPINLOCK(ps_spinlock __attribute__((unused)));
