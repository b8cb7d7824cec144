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
