#define d_lock	d_lockref.lock	/* alias */
#define x_lock a->b.c
struct dentry {
	struct lockref d_lockref;
	seqcount_spinlock_t d_seq;
};
extern seqcount_spinlock_t rtc_seq;
seqcount_spinlock_t rtc_seq = SEQCNT_SPINLOCK_ZERO(rtc_seq, &rtc_lock);
static void d_init(struct dentry *dentry)
{
	seqcount_spinlock_init(&dentry->d_seq, &dentry->d_lock);
}
