// A field is a field even when a macro with parentheses comes right
// before its struct: record_after_define.keep_names keeps the global
// inode_hash_lock ("inode_hash_lock", a name only kept locks have
// outside structs), not the converted field of the same name.
#define FAT_HASH_BITS	8
#define FAT_HASH_SIZE	(1UL << FAT_HASH_BITS)

struct msdos_sb_info {
	unsigned long fsinfo_sector;
	spinlock_t inode_hash_lock;
};

extern spinlock_t inode_hash_lock;

/*
 * The same when the defines before it are longer than the look-back
 * window, which then starts inside one (6.12's e1000.h, struct
 * e1000_adapter's stats_lock).
 */
#define E1000_RX_DESC(R, i)		E1000_GET_DESC(R, i, e1000_rx_desc)
#define E1000_TX_DESC(R, i)		E1000_GET_DESC(R, i, e1000_tx_desc)
#define E1000_CONTEXT_DESC(R, i)	E1000_GET_DESC(R, i, e1000_context_desc)
#define E1000_GET_DESC(R, i, type)	(&(((struct type *)((R).desc))[i]))
#define E1000_RING_DESC(R, i)		E1000_GET_DESC(R, i, e1000_ring_desc)

struct e1000_adapter {
	unsigned long active_vlans[4];
	u16 mng_vlan_id;
	u32 bd_number;
	u32 rx_buffer_len;
	spinlock_t inode_hash_lock;
};
