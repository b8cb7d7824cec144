#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of tool/verify.sh (make verify) that need no kernel build: the
# command line, the object comparison on small objects made here, and the
# idempotence step on the fixture tree (which has no kbuild).
#
# Usage: tests/verify/run.sh      Environment: KEEP=1 keeps the scratch
# directory.  The last line is "N passed, N failed"; exit status 1 if a
# test failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
verify=$top/tool/verify.sh
fixture=$top/tests/fixtures/linux-mini
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rtlock-verify-tests.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
	echo "scratch: $tmp"
else
	trap 'rm -rf "$tmp"' EXIT
fi

pass=0
fail=0

ok() {
	pass=$((pass + 1))
	echo "ok: $1"
}

ko() {
	fail=$((fail + 1))
	echo "FAIL: $1"
	[ -f "$tmp/err" ] && sed 's/^/    /' "$tmp/err" | tail -n 5
}

# expect NAME STATUS PATTERN CMD...: CMD exits with STATUS and its output
# (stdout and stderr) matches the grep -E PATTERN
expect() {
	name=$1 want=$2 pat=$3
	shift 3
	"$@" > "$tmp/err" 2>&1
	got=$?
	if [ "$got" != "$want" ]; then
		echo "    exit status $got, expected $want" >> "$tmp/err"
		ko "$name"
	elif ! grep -qE -e "$pat" "$tmp/err"; then
		echo "    no match for: $pat" >> "$tmp/err"
		ko "$name"
	else
		ok "$name"
	fi
}

# ---- command line ----

expect usage 2 'usage:' "$verify"
expect unknown-option 2 'unknown option --frob' "$verify" --frob "$fixture"
expect two-trees 2 'usage:' "$verify" "$fixture" "$fixture"
expect bad-step 2 "unknown step 'build'" "$verify" --steps build "$fixture"
expect bad-jobs 2 'not a positive number' "$verify" -j 0 "$fixture"
expect bad-limit 2 'not a number' "$verify" --limit x "$fixture"
expect no-value 2 '--converted needs a value' "$verify" "$fixture" --converted
expect no-tree 3 'not a directory' "$verify" "$tmp/none"
expect not-kernel 3 'not a kernel tree' "$verify" "$tmp"
expect no-kbuild 3 'only --steps idempotent' "$verify" --dir "$tmp/w" "$fixture"
expect converted-is-kernel 3 'is KERNEL itself' "$verify" --steps idempotent \
	--dir "$tmp/w" --converted "$fixture" "$fixture"

# ---- object comparison ----

# A WARN()-like site: a __bug_table entry with the code address, the
# file name and __LINE__, as the kernel's _BUG_FLAGS() writes it.
cat > "$tmp/v1.c" <<'EOF'
#define SITE() asm volatile("1:\n\t.pushsection __bug_table,\"aw\"\n\t"     \
			    ".long 1b - .\n\t.long %c0 - .\n\t.short %c1\n\t" \
			    ".short 0\n\t.popsection" :: "i" (__FILE__),      \
			    "i" (__LINE__))
int d = 1;

int f(int x)
{
	SITE();
	return x + 1;
}

int h(int x)
{
	return x * 3;
}
EOF
mkdir -p "$tmp/lines" "$tmp/code" "$tmp/data" "$tmp/same"
cp "$tmp/v1.c" "$tmp/same/v1.c"
# lines moved: two more at the top
{ printf '\n\n'; cat "$tmp/v1.c"; } > "$tmp/lines/v1.c"
sed 's/x \* 3/x * 5/' "$tmp/v1.c" > "$tmp/code/v1.c"
sed 's/d = 1/d = 2/' "$tmp/v1.c" > "$tmp/data/v1.c"
built=1
for d in "" same lines code data; do
	(cd "$tmp/$d" && ${CC:-cc} -O2 -fno-pie -c v1.c -o v1.o) ||
		built=0
done
if [ $built = 1 ]; then
	expect compare-identical 0 '^identical' \
		"$verify" --compare "$tmp/v1.o" "$tmp/same/v1.o"
	expect compare-lines 0 '^lines	__bug_table' \
		"$verify" --compare "$tmp/v1.o" "$tmp/lines/v1.o"
	expect compare-code 1 '^differs	\.text: h$' \
		"$verify" --compare "$tmp/v1.o" "$tmp/code/v1.o"
	expect compare-data 1 '^differs	data: \.data$' \
		"$verify" --compare "$tmp/v1.o" "$tmp/data/v1.o"
	# the comment section (compiler version) does not count
	objcopy --remove-section .comment "$tmp/v1.o" "$tmp/nocomment.o"
	expect compare-comment 0 '^identical' \
		"$verify" --compare "$tmp/v1.o" "$tmp/nocomment.o"
else
	ko "compare: cannot compile the test objects"
fi
# warnings: those of the other build the pristine build has not, paths
# relative to each tree, each once
mkdir -p "$tmp/w"
cat > "$tmp/w/pristine.log" <<EOF
  CC      fs/a.o
/src/p/fs/a.c:3:5: warning: unused variable 'x' [-Wunused-variable]
/src/p/fs/a.c:3:5: warning: unused variable 'x' [-Wunused-variable]
EOF
cat > "$tmp/w/same.log" <<EOF
  CC      fs/a.o
/src/c/fs/a.c:3:5: warning: unused variable 'x' [-Wunused-variable]
EOF
cat > "$tmp/w/new.log" <<EOF
/src/c/fs/a.c:3:5: warning: unused variable 'x' [-Wunused-variable]
/src/c/fs/b.c:9:2: warning: passing argument 1 of 'f' from incompatible pointer type [-Wincompatible-pointer-types]
/src/c/fs/b.c:9:2: warning: passing argument 1 of 'f' from incompatible pointer type [-Wincompatible-pointer-types]
EOF
if ! "$verify" --new-warnings "$tmp/w/pristine.log" /src/p "$tmp/w/same.log" \
	/src/c > "$tmp/err" 2>&1 || [ -s "$tmp/err" ]; then
	ko warnings-same
else
	ok warnings-same
fi
if "$verify" --new-warnings "$tmp/w/pristine.log" /src/p "$tmp/w/new.log" \
	/src/c > "$tmp/err" 2>&1; then
	ko "warnings-new: exit status 0"
elif [ "$(cat "$tmp/err")" != "fs/b.c:9:2: warning: passing argument 1 of 'f' from incompatible pointer type [-Wincompatible-pointer-types]" ]; then
	ko "warnings-new: $(head -c 300 "$tmp/err")"
else
	ok warnings-new
fi
# .modinfo: the strings count, but for KBUILD_MODFILE's "NAME.file="
modinfo() {
	mkdir -p "$tmp/mi/$1" &&
	printf '%s\n' '__attribute__((section(".modinfo"), used))' \
		"static const char file[] = \"serio.file=$2\";" \
		'__attribute__((section(".modinfo"), used))' \
		"static const char lic[] = \"serio.license=$3\";" \
		'int g(int x) { return x; }' > "$tmp/mi/$1/m.c" &&
	(cd "$tmp/mi/$1" && ${CC:-cc} -O2 -c m.c -o m.o)
}
if modinfo a drivers/input/serio GPL &&
   modinfo b drivers/input/serio/serio GPL &&
   modinfo c drivers/input/serio 'GPL v2'; then
	expect compare-modfile 0 '^identical' \
		"$verify" --compare "$tmp/mi/a/m.o" "$tmp/mi/b/m.o"
	expect compare-modinfo 1 '^differs	data: M$' \
		"$verify" --compare "$tmp/mi/a/m.o" "$tmp/mi/c/m.o"
else
	ko "compare: cannot compile the test objects"
fi
expect compare-missing 3 'no such file' "$verify" --compare "$tmp/v1.o" \
	"$tmp/none.o"

# ---- idempotence on the fixture ----

w=$tmp/w
opts="-C $tmp/cache --no-whitelist"
expect idempotent 0 '^idempotent: same' "$verify" --steps idempotent \
	--dir "$w" --rtlock-opts "$opts" "$fixture"
json=$(find "$w" -maxdepth 2 -name verify.json | head -n 1)
if [ -n "$json" ] &&
   jq -e '.schema == "rtlock-verify-1" and .idempotent.state == "same" and
	  .converted_by_verify and .changed.c > 0 and .status == 0' \
	"$json" > "$tmp/err" 2>&1; then
	ok verify.json
else
	ko verify.json
fi
# a second run keeps the converted copy: the conversion gave the same text
conv=$(dirname "$json")/converted
touch -d '2001-01-01' "$conv/Makefile"
expect rerun 0 '^idempotent: same' "$verify" --steps idempotent \
	--dir "$w" --rtlock-opts "$opts" "$fixture"
if [ "$(find "$conv/Makefile" -mtime +1000)" ]; then
	ok rerun-keeps-tree
else
	ko rerun-keeps-tree
fi
# a call put back to spin_lock() is converted again: not idempotent
cp -a "$conv" "$tmp/tampered"
sed -i 's/acquire_lock_t(&arch_process_lock)/spin_lock(\&arch_process_lock)/' \
	"$tmp/tampered/arch/x86/kernel/irq.c"
expect not-idempotent 1 '^idempotent: differs \(1 files' "$verify" \
	--steps idempotent --dir "$w" --rtlock-opts "$opts" \
	--converted "$tmp/tampered" "$fixture"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
