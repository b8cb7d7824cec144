cmd_kernel/bounds.s := gcc -nostdinc -I/abs/include -include
