#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fault-injection tests: bad inputs, missing tools, killed workers, signals
# at each stage, full disks, corrupt cache entries.  Every case checks
#  (a) one clear line on stderr per problem, with file:line when there is one,
#  (b) the exit status README documents (0 ok, 1 review, 2 usage, 3 bad
#      input, 4 environment, 5 failure, 130 interrupted),
#  (c) that the kernel tree it read is byte for byte what it was.
#
#   tests/faults/run.sh [CASE...]      (from anywhere; "make test" runs all)
#
# Prints PASS, FAIL (with the reason) or SKIP (with the reason) per case and
# exits 1 when a case failed.  Runs on the fixture tree with two workers.
# Stages are reached deterministically with RTLOCK_TEST_HOLD (tool/pool.h):
# the tool stops there, says so on stderr, and waits for a signal.

set -u
cd "$(dirname "$0")/../.." || exit 2
TOP=$PWD
RTLOCK=$TOP/tool/rtlock
FIXTURE=$TOP/tests/fixtures/linux-mini
WORK=$(mktemp -d /tmp/rtlock-faults-XXXXXX) || exit 2
chmod 755 "$WORK"	# the unreadable-file case runs the tool as nobody
JOBS=2
export LC_ALL=C
unset RTLOCK_TEST_HOLD RTLOCK_SPATCH RTLOCK_CACHE RTLOCK_WHITELIST

# ---- helpers (a case runs in a subshell; fail/skip end it) ----

fail()
{
	echo "$*"
	exit 1
}

skip()
{
	echo "$*"
	exit 77
}

# Hash of every name, type, mode, size, mtime, link target and content below
# a directory: the proof that a tree was only read.
digest()
{
	(
		cd "$1" || exit 1
		find . -printf '%p %y %m %s %T@ %l\n' | sort
		find . -type f -exec sha256sum {} + 2>&1 | sort
	) | sha256sum | cut -d' ' -f1
}

unchanged()
{
	[ "$(digest "$1")" = "$2" ] || fail "$1 was modified"
}

# rt ARGS...: run rtlock; stdout in $C/out, stderr in $C/err, status in $rc
rt()
{
	rc=0
	"$RTLOCK" "$@" >"$C/out" 2>"$C/err" || rc=$?
}

# bg ARGS...: rtlock in the background ($pid); finish waits for it ($rc).
# With GROUP=1 it leads a process group of its own, as a job in a terminal
# does, so that a signal can go to it and all its children at once.
bg()
{
	if [ -n "${GROUP:-}" ]; then
		setsid "$RTLOCK" "$@" >"$C/out" 2>"$C/err" &
	else
		"$RTLOCK" "$@" >"$C/out" 2>"$C/err" &
	fi
	pid=$!
}

finish()
{
	rc=0
	wait "$pid" || rc=$?
}

want_rc()
{
	[ "$rc" -eq "$1" ] ||
		fail "exit status $rc, expected $1; stderr: $(head -c 800 "$C/err")"
}

# stderr without the test hook's notices
errlines()
{
	grep -v '^rtlock: test: ' "$C/err"
}

# exactly one line on stderr, matching the extended regex $1
one_line()
{
	n=$(errlines | wc -l)
	[ "$n" -eq 1 ] || fail "$n lines on stderr, expected 1: $(head -c 800 "$C/err")"
	errlines | grep -Eq -- "$1" || fail "stderr lacks /$1/: $(cat "$C/err")"
}

# exactly $1 lines on stderr, each matching $2
n_lines()
{
	n=$(errlines | wc -l)
	[ "$n" -eq "$1" ] || fail "$n lines on stderr, expected $1: $(head -c 800 "$C/err")"
	m=$(errlines | grep -Ec -- "$2")
	[ "$m" -eq "$1" ] || fail "stderr lines not all /$2/: $(cat "$C/err")"
}

no_stderr()
{
	[ ! -s "$C/err" ] || fail "unexpected stderr: $(head -c 800 "$C/err")"
}

# until stderr has a line matching $1 (60 s at most: a sanitizer build on a
# busy machine takes more than 10 s to reach a branch's first commit)
wait_err()
{
	i=0
	until grep -Eq -- "$1" "$C/err" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 2400 ] || { kill -9 "$pid"; fail "timeout waiting for /$1/"; }
		kill -0 "$pid" 2>/dev/null ||
			fail "rtlock ended before /$1/: $(cat "$C/err")"
		sleep 0.025
	done
}

wait_file()
{
	i=0
	until [ -e "$1" ]; do
		i=$((i + 1))
		[ $i -lt 2400 ] || { kill -9 "$pid"; fail "timeout waiting for $1"; }
		sleep 0.025
	done
}

# process $1 ended (or is a zombie waiting for init): 2 s at most
gone()
{
	i=0
	while kill -0 "$1" 2>/dev/null; do
		[ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" != Z ] || return 0
		i=$((i + 1))
		[ $i -lt 40 ] || return 1
		sleep 0.05
	done
}

# no temporary or partial file in an output directory
clean_out()
{
	[ -d "$1" ] || return 0
	t=$(find "$1" -name '*.tmp*' | head -3)
	[ -z "$t" ] || fail "temporary files left in $1: $t"
	for j in $(find "$1" -name '*.json'); do
		jq -e . "$j" >/dev/null 2>&1 || fail "$j is not whole JSON"
	done
}

# a JSON result modulo timings and what depends on the cache's history
norm()
{
	jq -S 'del(.summary.seconds, .summary.parsed, .summary.cached,
		   .cache.dir, .seconds, .from_cache, .spatch_runs, .target)' "$1"
}

same_json()
{
	norm "$1" >"$C/a.json" && norm "$2" >"$C/b.json" ||
		fail "cannot read $1 or $2"
	cmp -s "$C/a.json" "$C/b.json" ||
		fail "$1 differs from $2: $(diff "$C/a.json" "$C/b.json" | head -20)"
}

tree_copy()
{
	cp -a "$FIXTURE" "$1" || fail "cannot copy the fixture"
}

# The uninterrupted results, computed once for every case that compares.
baseline()
{
	B=$WORK/baseline
	[ -e "$B/done" ] && return 0
	mkdir -p "$B"
	"$RTLOCK" convert -q -j$JOBS --no-whitelist -C "$B/cache" -o "$B/o" \
		--tree-out "$B/tree" "$FIXTURE" >"$B/log" 2>&1 ||
		fail "baseline convert failed: $(cat "$B/log")"
	touch "$B/done"
}

# tus[] entry of a file in a scan.json: "state why"
tu_of()
{
	jq -r --arg f "$2" '.tus[] | select(.file == $f) | "\(.state) \(.why)"' "$1"
}

# a file of deterministic binary garbage
garbage()
{
	python3 -c 'import random, sys
random.seed(int(sys.argv[1]))
sys.stdout.buffer.write(bytes(random.randrange(256) for _ in range(int(sys.argv[2]))))' "$@"
}

# ---- inputs ----

case_not_a_tree()
{
	mkdir "$C/t" && echo hello >"$C/t/README"
	d=$(digest "$C/t")
	rt scan -q -C "$C/cache" -o "$C/o" "$C/t"
	want_rc 3
	one_line "^rtlock: error: .*/t: not a kernel tree"
	unchanged "$C/t" "$d"
	[ ! -e "$C/o" ] || fail "output written"
	rt scan -q -C "$C/cache" -o "$C/o" "$C/nonexistent"
	want_rc 3
	one_line "^rtlock: error: .*/nonexistent: not a directory"
}

case_empty_dir()
{
	mkdir "$C/t"
	d=$(digest "$C/t")
	rt classify -q -C "$C/cache" -o "$C/o" "$C/t"
	want_rc 3
	one_line "^rtlock: error: .*/t: not a kernel tree"
	unchanged "$C/t" "$d"
}

case_makefile_without_version()
{
	tree_copy "$C/t"
	printf 'all:\n\t@true\n' >"$C/t/Makefile"
	d=$(digest "$C/t")
	rt scan -q -C "$C/cache" -o "$C/o" "$C/t"
	want_rc 3
	one_line "^rtlock: error: .*/t/Makefile:1: not a kernel Makefile"
	unchanged "$C/t" "$d"
	# binary garbage, and VERSION hidden behind a NUL byte
	garbage 1 3000 >"$C/t/Makefile"
	rt scan -q -C "$C/cache" -o "$C/o" "$C/t"
	want_rc 3
	one_line "^rtlock: error: .*/t/Makefile:1: not a kernel Makefile"
	printf 'PATCHLEVEL = 1\n\000VERSION = 6\n' >"$C/t/Makefile"
	rt scan -q -C "$C/cache" -o "$C/o" "$C/t"
	want_rc 3
	one_line "^rtlock: error: .*/t/Makefile:1: not a kernel Makefile"
	[ ! -e "$C/o" ] || fail "output written"
}

# C files that are not C: reported with file:line, the run goes on.
case_invalid_c_files()
{
	tree_copy "$C/t"
	j=$C/t/drivers/junk
	mkdir "$j"
	head -c 300 "$FIXTURE/kernel/irqs_off.c" >"$j/truncated.c"
	{ echo 'spin_lock(&x);'; garbage 2 4096; } >"$j/garbage.c"
	printf 'spin_lock(&x);\000\000 int a;\000\n' >"$j/nul.c"
	{
		printf 'static DEFINE_SPINLOCK(big_lock); int big[] = {'
		yes '1,' | head -n 5000000 | tr -d '\n'
		echo '1 };'
	} >"$j/oneline.c"
	[ "$(wc -c <"$j/oneline.c")" -gt 10000000 ] || fail "oneline.c too short"
	d=$(digest "$C/t")
	rt scan -q -j$JOBS -C "$C/cache" -o "$C/o" "$C/t"
	want_rc 0
	no_stderr
	unchanged "$C/t" "$d"
	for f in truncated garbage nul oneline; do
		s=$(tu_of "$C/o/scan.json" "drivers/junk/$f.c")
		echo "$s" | grep -Eq "^errors .*drivers/junk/$f\\.c:[0-9]+(:[0-9]+)?: error: " ||
			fail "drivers/junk/$f.c: '$s'"
	done
	# what the other files hold is all there
	baseline
	jq -r '.locks[].id' "$WORK/baseline/o/scan.json" >"$C/want"
	jq -r '.locks[].id' "$C/o/scan.json" >"$C/got"
	missing=$(sort "$C/want" | comm -23 - "$(sort "$C/got" >"$C/got.s"; echo "$C/got.s")")
	[ -z "$missing" ] || fail "locks lost: $missing"
}

# File names that are not UTF-8 cannot be named in JSON: skipped, reported.
case_non_utf8_file_name()
{
	tree_copy "$C/t"
	bad=$(printf 'drivers/caf\351')
	mkdir "$C/t/$bad"
	cp "$FIXTURE/lib/obj_hash.c" "$C/t/$bad/x$(printf '\377').c"
	cp "$FIXTURE/lib/obj_hash.c" "$C/t/$bad/fine.h"
	d=$(digest "$C/t")
	rt scan -q -j$JOBS -C "$C/cache" -o "$C/o" "$C/t"
	want_rc 1
	n_lines 2 '^rtlock: warning: drivers/caf\\xe9/(x\\xff\.c|fine\.h): file name is not valid UTF-8 \(skipped\)$'
	unchanged "$C/t" "$d"
	[ "$(jq -r '.skipped[].path' "$C/o/scan.json" | sort | tr '\n' ' ')" = \
	  'drivers/caf\xe9/fine.h drivers/caf\xe9/x\xff.c ' ] ||
		fail "skipped: $(jq -c .skipped "$C/o/scan.json")"
	[ "$(jq .summary.skipped "$C/o/scan.json")" = 2 ] ||
		fail "summary.skipped: $(jq .summary.skipped "$C/o/scan.json")"
}

case_non_utf8_kernel_path()
{
	t=$C/$(printf 'linux-\377')
	tree_copy "$t"
	d=$(digest "$t")
	rt scan -q -j$JOBS -C "$C/cache" -o "$C/o" "$t"
	want_rc 3
	one_line '^rtlock: error: .*/linux-\\xff: the path is not valid UTF-8'
	unchanged "$t" "$d"
	[ ! -e "$C/o" ] || fail "output written"
}

case_non_utf8_cache_path()
{
	d=$(digest "$FIXTURE")
	rt scan -q -j$JOBS -C "$C/$(printf 'cache-\377')" -o "$C/o" "$FIXTURE"
	want_rc 2
	one_line '^rtlock: error: .*/cache-\\xff: the path is not valid UTF-8$'
	unchanged "$FIXTURE" "$d"
	[ ! -e "$C/o" ] || fail "output written"
}

# A file just short of PATH_MAX is parsed; one beyond is reported.
case_long_paths()
{
	tree_copy "$C/t"
	p=$C/t/drivers
	seg=dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd
	while [ $((${#p} + ${#seg} + 1 + 12)) -lt 4095 ]; do
		p=$p/$seg
	done
	# and a last folder up to 4094 bytes for the file's path
	p=$p/$(printf '%s' "$seg$seg" | head -c $((4094 - 12 - 1 - ${#p})))
	mkdir -p "$p" || fail "mkdir $p"
	printf '#include <linux/spinlock.h>\nstatic DEFINE_SPINLOCK(long_lock);\nvoid lf(void)\n{\n\tspin_lock(&long_lock);\n\tspin_unlock(&long_lock);\n}\n' >"$p/long_lock.c"
	[ ${#p} -gt 4000 ] || fail "path only ${#p} long"
	d=$(digest "$C/t")
	rt scan -q -j$JOBS -C "$C/cache" -o "$C/o" "$C/t"
	want_rc 0
	no_stderr
	jq -e '.locks[] | select(.id | endswith("long_lock.c:long_lock"))' \
		"$C/o/scan.json" >/dev/null || fail "long_lock not found"
	# beyond PATH_MAX (built with relative steps)
	python3 -c 'import os, shutil, sys
os.chdir(sys.argv[1])
for i in range(3):
	os.mkdir(sys.argv[2])
	os.chdir(sys.argv[2])
shutil.copy(sys.argv[3], "deep.c")' "$p" "$seg" "$FIXTURE/lib/obj_hash.c" ||
		fail "cannot build the deep path"
	d=$(digest "$C/t")
	rt scan -q -j$JOBS -C "$C/cache" -o "$C/o" "$C/t"
	want_rc 1
	one_line '^rtlock: warning: drivers/d+(/d+)*: File name too long \(skipped\)$'
	unchanged "$C/t" "$d"
	jq -e '.skipped | length == 1' "$C/o/scan.json" >/dev/null ||
		fail "skipped: $(jq -c .skipped "$C/o/scan.json" | head -c 300)"
}

# Symlinks are not followed: loops cost nothing; an include through a loop
# is the including file's error.
case_symlink_loop()
{
	tree_copy "$C/t"
	(
		cd "$C/t/drivers" && ln -s . self && ln -s a.c b.c &&
			ln -s b.c a.c && ln -s ../drivers up && mkdir inc &&
			ln -s loop.h inc/loop.h &&
			printf '#include "inc/loop.h"\nstatic DEFINE_SPINLOCK(sl_lock);\n' >incloop.c
	) || fail "cannot make the links"
	d=$(digest "$C/t")
	rt scan -q -j$JOBS -C "$C/cache" -o "$C/o" "$C/t"
	want_rc 0
	no_stderr
	unchanged "$C/t" "$d"
	s=$(tu_of "$C/o/scan.json" drivers/incloop.c)
	echo "$s" | grep -q "^errors .*drivers/incloop.c:1:.*symbolic links" ||
		fail "drivers/incloop.c: '$s'"
}

# A file or folder the tool may not read: one warning each, review status.
# root reads anything: run the tool as nobody then.
case_unreadable()
{
	tree_copy "$C/t"
	chmod 755 "$C"
	mkdir "$C/t/drivers/closed"
	cp "$FIXTURE/lib/obj_hash.c" "$C/t/drivers/closed/x.c"
	chmod 000 "$C/t/kernel/irqs_off.c" "$C/t/drivers/closed"
	mkdir "$C/cache" "$C/o"
	as=
	if [ "$(id -u)" = 0 ]; then
		command -v setpriv >/dev/null ||
			skip "running as root and no setpriv to drop privileges"
		as="setpriv --reuid=65534 --regid=65534 --clear-groups"
		chown 65534 "$C/cache" "$C/o"
		$as test -r "$RTLOCK" -a -x "$RTLOCK" ||
			skip "nobody cannot run $RTLOCK"
	fi
	d=$(digest "$C/t")
	rc=0
	$as "$RTLOCK" scan -q -j$JOBS --no-whitelist -C "$C/cache" -o "$C/o" \
		"$C/t" >"$C/out" 2>"$C/err" || rc=$?
	want_rc 1
	n_lines 2 '^rtlock: warning: (kernel/irqs_off\.c|drivers/closed): Permission denied \(skipped\)$'
	unchanged "$C/t" "$d"
	[ "$(jq -r '.skipped[].path' "$C/o/scan.json" | tr '\n' ' ')" = \
	  'drivers/closed kernel/irqs_off.c ' ] ||
		fail "skipped: $(jq -c .skipped "$C/o/scan.json")"
	chmod 755 "$C/t/drivers/closed"
	chmod 644 "$C/t/kernel/irqs_off.c"
}

case_whitelist_errors()
{
	d=$(digest "$FIXTURE")
	w=$C/wl.txt
	while IFS='|' read -r text msg; do
		printf "$text" >"$w"
		rt classify -q --whitelist "$w" -C "$C/cache" -o "$C/o" "$FIXTURE"
		want_rc 3
		one_line "^rtlock: error: $C/$msg"
	done <<'EOF'
garbage line\n|wl.txt:1: expected 'must-spin CLASS IDENTITY : REASON'
# ok\nmust-spin hardirq global:x : a\nmust-spin sched global:x : b\n|wl.txt:3: global:x is already listed at .*wl.txt:2$
must-spin bogus global:x : a\n|wl.txt:1: unknown reason 'bogus' [(]one of
must-spin : x\n|wl.txt:1: the class is missing
must-spin hardirq : x\n|wl.txt:1: the lock identity is missing
convert global:x :\n|wl.txt:1: the reason is missing
convert global:x : caf\351\n|wl.txt:1: not valid UTF-8$
convert global:x : a\000b\n|wl.txt: not a text file [(]NUL byte[)]
EOF
	rt classify -q --whitelist "$C/none" -C "$C/cache" -o "$C/o" "$FIXTURE"
	want_rc 3
	one_line "^rtlock: error: whitelist $C/none: No such file or directory"
	unchanged "$FIXTURE" "$d"
	[ ! -e "$C/o" ] || fail "output written"
}

# Entries that match no lock: review status, each listed with file:line.
case_whitelist_stale()
{
	d=$(digest "$FIXTURE")
	printf 'must-spin latency global:no_such_lock : gone\n# c\nconvert kernel/irqs_off.c:nope : gone too\nconvert kernel/irqs_off.c:irqsoff_save_lock : fine\n' >"$C/wl.txt"
	rt classify -j$JOBS --whitelist "$C/wl.txt" -C "$C/cache" -o "$C/o" "$FIXTURE"
	want_rc 1
	no_stderr
	unchanged "$FIXTURE" "$d"
	grep -q "stale whitelist entry $C/wl.txt:1: global:no_such_lock$" "$C/out" &&
		grep -q "stale whitelist entry $C/wl.txt:3: kernel/irqs_off.c:nope$" "$C/out" ||
		fail "stale entries not listed: $(cat "$C/out")"
	jq -e '.summary.whitelist_stale == 2 and (.summary.stale | length) == 2' \
		"$C/o/classify.json" >/dev/null ||
		fail "classify.json: $(jq -c .summary "$C/o/classify.json")"
}

# --since takes an older classify.json: anything else stops the run at
# once, before the scan.
case_since_not_a_classification()
{
	d=$(digest "$FIXTURE")
	printf '{"schema": "rtlock-classify-1",\n "locks": [}\n' >"$C/old.json"
	rt classify -q --since "$C/old.json" -C "$C/cache" -o "$C/o" "$FIXTURE"
	want_rc 3
	one_line "^rtlock: error: $C/old.json:2: "
	printf '{"schema": "rtlock-scan-1", "locks": []}' >"$C/old.json"
	rt classify -q --since "$C/old.json" -C "$C/cache" -o "$C/o" "$FIXTURE"
	want_rc 3
	one_line "^rtlock: error: $C/old.json: not a classify.json"
	garbage 3 2000 >"$C/old.json"
	rt classify -q --since "$C/old.json" -C "$C/cache" -o "$C/o" "$FIXTURE"
	want_rc 3
	one_line "^rtlock: error: $C/old.json:[0-9]+: "
	[ ! -e "$C/cache" ] && [ ! -e "$C/o" ] || fail "the scan ran"
	unchanged "$FIXTURE" "$d"
}

# ---- faults ----

case_spatch_missing()
{
	d=$(digest "$FIXTURE")
	RTLOCK_SPATCH=/nonexistent/spatch \
		rt convert -q -j$JOBS --no-whitelist -C "$C/cache" -o "$C/o" \
		--tree-out "$C/tree" "$FIXTURE"
	want_rc 4
	one_line '^rtlock: error: spatch \(Coccinelle\) not found'
	[ ! -e "$C/tree" ] || fail "tree written"
	# not in PATH either
	mkdir "$C/bin"
	for p in python3 sh tar mkdir git; do
		ln -s "$(command -v $p)" "$C/bin/$p" || fail "no $p"
	done
	PATH=$C/bin rt convert -q -j$JOBS --no-whitelist -C "$C/cache" \
		-o "$C/o" --tree-out "$C/tree" "$FIXTURE"
	want_rc 4
	one_line '^rtlock: error: spatch \(Coccinelle\) not found'
	[ ! -e "$C/tree" ] || fail "tree written"
	unchanged "$FIXTURE" "$d"
}

# libclang is loaded when a scan starts: a missing one, or a library that
# is not libclang, is one error line and exit 4, before any cache is made.
case_libclang_missing()
{
	d=$(digest "$FIXTURE")
	RTLOCK_LIBCLANG=/nonexistent/libclang.so.1 \
		rt classify -q --no-whitelist -C "$C/cache" -o "$C/o" "$FIXTURE"
	want_rc 4
	one_line '^rtlock: error: cannot load libclang \(/nonexistent/libclang.so.1: '
	[ ! -e "$C/cache" ] && [ ! -e "$C/o" ] || fail "cache or output made"
	lib=$(ldconfig -p | awk '/libjansson.so.4 / { print $NF; exit }')
	[ -n "$lib" ] || fail "no libjansson to pose as libclang"
	RTLOCK_LIBCLANG=$lib rt scan -q -C "$C/cache" -o "$C/o" "$FIXTURE"
	want_rc 4
	one_line "^rtlock: error: $lib: no clang_[a-zA-Z_]* in this libclang\$"
	unchanged "$FIXTURE" "$d"
}

# kill -9 a worker mid-scan: its TU is reported, the run goes on.
case_worker_killed()
{
	d=$(digest "$FIXTURE")
	RTLOCK_TEST_HOLD=parse:kernel/irqs_off.c \
		bg scan -q -j$JOBS -C "$C/cache" -o "$C/o" "$FIXTURE"
	wait_err '^rtlock: test: holding at parse:kernel/irqs_off.c'
	w=$(sed -n 's/^rtlock: test: holding at parse:kernel\/irqs_off.c (pid \([0-9]*\))$/\1/p' "$C/err")
	[ -n "$w" ] && [ "$w" != "$pid" ] || fail "no worker pid: $(cat "$C/err")"
	kill -9 "$w"
	finish
	want_rc 1
	one_line '^rtlock: warning: kernel/irqs_off.c: crashed \(Killed\)$'
	unchanged "$FIXTURE" "$d"
	[ "$(tu_of "$C/o/scan.json" kernel/irqs_off.c)" = "crashed crashed (Killed)" ] ||
		fail "kernel/irqs_off.c: $(tu_of "$C/o/scan.json" kernel/irqs_off.c)"
	[ "$(jq '[.tus[] | select(.state != "ok")] | length' "$C/o/scan.json")" = 1 ] ||
		fail "other TUs failed: $(jq -c '.tus' "$C/o/scan.json")"
	# the next run parses it and gives the uninterrupted result
	rt scan -q -j$JOBS -C "$C/cache" -o "$C/o2" "$FIXTURE"
	want_rc 0
	baseline
	same_json "$WORK/baseline/o/scan.json" "$C/o2/scan.json"
}

# SIG at STAGE: exit 130, nothing half written, and the next run goes on
# from the cache to the uninterrupted result.
interrupt()
{
	sig=$1
	stage=$2
	baseline
	B=$WORK/baseline
	d=$(digest "$FIXTURE")
	out=$C/o
	case $stage in
	scan)
		# while a worker parses a TU late in the list
		RTLOCK_TEST_HOLD=parse:kernel/irqs_off.c \
			bg classify -q -j$JOBS --no-whitelist -C "$C/cache" \
			-o "$out" "$FIXTURE"
		wait_err '^rtlock: test: holding at parse:'
		w=$(sed -n 's/^rtlock: test: .*(pid \([0-9]*\))$/\1/p' "$C/err")
		;;
	classify)
		RTLOCK_TEST_HOLD=classify \
			bg classify -q -j$JOBS --no-whitelist -C "$C/cache" \
			-o "$out" "$FIXTURE"
		wait_err '^rtlock: test: holding at classify'
		;;
	convert)
		# spatch hangs on a file of the second batch; one worker:
		# the first batch is done by then
		cat >"$C/spatch" <<-EOF
		#!/bin/sh
		case "\$* \$(cat \$(printf '%s\n' "\$@" | grep '[.]groups\$') \
			</dev/null 2>/dev/null)" in *include/linux/wait.h*)
			echo \$\$ >"$C/hung"; exec sleep 300;;
		esac
		exec spatch "\$@"
		EOF
		chmod +x "$C/spatch"
		RTLOCK_SPATCH=$C/spatch bg convert -q -j1 --no-whitelist \
			-C "$C/cache" -o "$out" --tree-out "$C/tree" "$FIXTURE"
		wait_file "$C/hung"
		sleep 0.1
		w=$(cat "$C/hung")
		;;
	esac
	if [ -n "${GROUP:-}" ]; then
		kill -"$sig" -"$pid"	# ctrl-C in a terminal: every process
	else
		kill -"$sig" "$pid"
	fi
	finish
	want_rc 130
	one_line '^rtlock: error: interrupted: .*the next run goes on from there$'
	unchanged "$FIXTURE" "$d"
	clean_out "$out"
	# what comes before the stage is whole; nothing of the stage is out
	case $stage in
	convert) half="convert.json" ;;
	*) half="scan.json classify.json report.html" ;;
	esac
	for f in $half; do
		[ ! -e "$out/$f" ] || fail "$out/$f written by an interrupted run"
	done
	[ -z "${w:-}" ] || gone "$w" || fail "process $w outlived rtlock"
	[ ! -e "$C/tree" ] || fail "a half-converted $C/tree is left"
	# the next run
	if [ "$stage" = convert ]; then
		rt convert -q -j$JOBS --no-whitelist -C "$C/cache" -o "$out" \
			--tree-out "$C/tree" "$FIXTURE"
		want_rc 0
		same_json "$B/o/convert.json" "$out/convert.json"
		diff -r "$B/tree" "$C/tree" >"$C/diff" ||
			fail "converted tree differs: $(head -20 "$C/diff")"
		[ "$(jq .from_cache "$out/convert.json")" -gt 0 ] ||
			fail "nothing converted before the signal was cached"
	else
		rt classify -q -j$JOBS --no-whitelist -C "$C/cache" -o "$out" \
			"$FIXTURE"
		want_rc 0
		[ "$(jq .summary.cached "$out/scan.json")" -gt 0 ] ||
			fail "nothing parsed before the signal was cached"
	fi
	no_stderr
	same_json "$B/o/scan.json" "$out/scan.json"
	same_json "$B/o/classify.json" "$out/classify.json"
	unchanged "$FIXTURE" "$d"
}

case_sigint_scan() { interrupt INT scan; }
case_sigterm_scan() { interrupt TERM scan; }
case_sigint_classify() { interrupt INT classify; }
case_sigterm_classify() { interrupt TERM classify; }
case_sigint_convert() { interrupt INT convert; }
case_sigterm_convert() { interrupt TERM convert; }
case_sigint_group_scan() { GROUP=1 interrupt INT scan; }
case_sigint_group_convert() { GROUP=1 interrupt INT convert; }

# A stage that does not check for signals (a hang): the first SIGTERM
# does not end the run, the second ends it at once, by the signal; the
# tree it read is unchanged and no result of the stage is written.
case_second_signal()
{
	d=$(digest "$FIXTURE")
	RTLOCK_TEST_HOLD=hang:classify \
		bg classify -q -j$JOBS --no-whitelist -C "$C/cache" \
		-o "$C/o" "$FIXTURE"
	wait_err '^rtlock: test: holding at classify'
	kill -TERM "$pid"
	sleep 0.5
	kill -0 "$pid" 2>/dev/null || fail "the first SIGTERM ended a hung run"
	kill -TERM "$pid"
	finish
	want_rc 143
	unchanged "$FIXTURE" "$d"
	[ ! -e "$C/o/classify.json" ] || fail "classify.json written"
}

# SIGTERM before the stages catch signals, while a release is read into
# the cache's repository: the git it runs ends with rtlock, not writing on
# into the cache beside the next run.
case_sigterm_prepare()
{
	d=$(digest "$FIXTURE")
	real=$(command -v git)
	mkdir -p "$C/bin"
	cat >"$C/bin/git" <<-EOF
	#!/bin/sh
	case "\$*" in *" add -A -f ."*) echo \$\$ >"$C/hung"; exec sleep 300;; esac
	exec "$real" "\$@"
	EOF
	chmod +x "$C/bin/git"
	saved=$PATH
	PATH=$C/bin:$PATH
	bg regen -q -j$JOBS -C "$C/cache" -o "$C/o" --name rt "$FIXTURE"
	PATH=$saved
	wait_file "$C/hung"
	w=$(cat "$C/hung")
	kill -TERM "$pid"
	finish
	want_rc 143
	gone "$w" || fail "git $w outlived rtlock"
	unchanged "$FIXTURE" "$d"
}

# A signal while the branch's commits are made: exit 130, no branch, the
# checkout as it was; the next run makes the branch.
interrupt_branch()
{
	sig=$1
	repo=$C/repo
	cp -r "$FIXTURE" "$repo"
	git -C "$repo" init -q && git -C "$repo" add -A &&
		git -C "$repo" -c user.name=t -c user.email=t@t commit -qm base ||
		fail "no fixture repository"
	state() { git -C "$repo" rev-parse HEAD; git -C "$repo" status \
		--porcelain; git -C "$repo" for-each-ref; }
	before=$(state)
	RTLOCK_TEST_HOLD='commit:locking: Add lock_t, the lock that may sleep on PREEMPT_RT' \
		bg branch -q -j$JOBS -C "$C/cache" -o "$C/o" \
		--patches "$TOP/tests/fixtures/patches" --name rt "$repo"
	wait_err '^rtlock: test: holding at commit:'
	kill -"$sig" "$pid"
	finish
	want_rc 130
	one_line '^rtlock: error: interrupted: '
	[ "$(state)" = "$before" ] || fail "checkout or branches changed"
	rt branch -q -j$JOBS -C "$C/cache" -o "$C/o" \
		--patches "$TOP/tests/fixtures/patches" --name rt "$repo"
	want_rc 0
	git -C "$repo" rev-parse -q --verify rt >/dev/null ||
		fail "the next run made no branch"
}
case_sigint_branch() { interrupt_branch INT; }
case_sigterm_branch() { interrupt_branch TERM; }

# a 64 KiB tmpfs at $1, filled up when $2 is "full"
small_fs()
{
	[ "$(id -u)" = 0 ] || skip "not root: cannot mount a small tmpfs"
	mkdir -p "$1"
	mount -t tmpfs -o size=64k rtlock-test "$1" 2>"$C/mount.err" ||
		skip "cannot mount a tmpfs: $(cat "$C/mount.err")"
	echo "$1" >>"$WORK/mounts"
	if [ "${2:-}" = full ]; then
		dd if=/dev/zero of="$1/filler" bs=4k 2>/dev/null
		[ "$(df --output=avail "$1" | tail -1)" -eq 0 ] || fail "$1 not full"
	fi
}

case_cache_disk_full()
{
	small_fs "$C/fs"
	d=$(digest "$FIXTURE")
	rt classify -q -j$JOBS --no-whitelist -C "$C/fs/cache" -o "$C/o" "$FIXTURE"
	want_rc 4
	one_line "^rtlock: error: cache directory $C/fs/cache: .*No space left on device"
	unchanged "$FIXTURE" "$d"
	[ ! -e "$C/o" ] || fail "output written"
}

case_output_disk_full()
{
	small_fs "$C/fs" full
	baseline
	d=$(digest "$FIXTURE")
	rt classify -q -j$JOBS --no-whitelist -C "$WORK/baseline/cache" \
		-o "$C/fs/o" "$FIXTURE"
	want_rc 4
	one_line "^rtlock: error: cannot write $C/fs/o/scan.json: No space left on device$"
	unchanged "$FIXTURE" "$d"
	clean_out "$C/fs/o"
	[ -z "$(ls -A "$C/fs/o" 2>/dev/null)" ] || fail "left in $C/fs/o: $(ls -A "$C/fs/o")"
}

# Cache entries damaged on disk in ways that still parse as JSON: each is
# found, reported once, rebuilt; the result is the uninterrupted one.
# (tests/e2e covers an entry that is not JSON at all.)
case_corrupt_cache_entries()
{
	baseline
	B=$WORK/baseline
	cp -a "$B/cache" "$C/cache"
	f=$C/cache/facts-v2
	d=$(digest "$FIXTURE")
	# a lock renamed inside a TU's facts, one byte
	t=$(grep -l 'obj_hash_locks' "$f"/tu/*/*.json | head -1)
	[ -n "$t" ] || fail "no TU facts with obj_hash_locks in $f/tu"
	sed -i 's/obj_hash_locks/obj_hash_lockz/' "$t"
	# another TU's facts under this key
	set -- $(ls "$f"/tu/*/*.json | grep -v "$t")
	cp "$1" "$2"
	# a manifest of the right JSON but the wrong shape, of a third TU
	for m in "$f"/man/*/*.json; do
		k=$(tail -n +2 "$m" | jq -r .key)
		k=$f/tu/$(echo "$k" | cut -c1-2)/$(echo "$k" | cut -c3-).json
		[ "$k" != "$t" ] && [ "$k" != "$2" ] && break
	done
	echo '{"key": 42, "deps": []}' >"$m"
	# a header's facts cut short, and again with the checksum kept
	h=$(ls "$f"/hdr/*/*.json | head -1)
	head -c 20 "$h" >"$h.x" && mv "$h.x" "$h"
	# a converted file in the conversion cache
	v=$(ls "$C"/cache/convert-v2/*/* | head -1)
	printf '\n/* oops */' >>"$v"
	rt convert -q -j$JOBS --no-whitelist -C "$C/cache" -o "$C/o" \
		--tree-out "$C/tree" "$FIXTURE"
	want_rc 0
	n_lines 5 '^rtlock: warning: .*: corrupt cache entry ignored \('
	unchanged "$FIXTURE" "$d"
	same_json "$B/o/scan.json" "$C/o/scan.json"
	same_json "$B/o/classify.json" "$C/o/classify.json"
	same_json "$B/o/convert.json" "$C/o/convert.json"
	diff -r "$B/tree" "$C/tree" >"$C/diff" ||
		fail "converted tree differs: $(head -20 "$C/diff")"
	# all rebuilt: a second run finds nothing to complain about
	rt convert -q -j$JOBS --no-whitelist -C "$C/cache" -o "$C/o2" \
		--tree-out "$C/tree2" "$FIXTURE"
	want_rc 0
	no_stderr
	jq -e '.summary.parsed == 0' "$C/o2/scan.json" >/dev/null ||
		fail "parsed again: $(jq -c .summary "$C/o2/scan.json")"
	jq -e '.spatch_runs == 0' "$C/o2/convert.json" >/dev/null ||
		fail "converted again: $(jq -c 'del(.leftover_lines)' "$C/o2/convert.json")"
}

# ---- driver ----

ALL="not_a_tree empty_dir makefile_without_version invalid_c_files
non_utf8_file_name non_utf8_kernel_path non_utf8_cache_path long_paths
symlink_loop unreadable whitelist_errors whitelist_stale
since_not_a_classification spatch_missing libclang_missing
worker_killed sigint_scan sigterm_scan sigint_classify sigterm_classify
sigint_convert sigterm_convert sigint_group_scan sigint_group_convert
sigint_branch sigterm_branch second_signal cache_disk_full output_disk_full
corrupt_cache_entries"

cleanup()
{
	if [ -e "$WORK/mounts" ]; then
		while read -r m; do
			umount "$m" 2>/dev/null
		done <"$WORK/mounts"
	fi
	chmod -R u+rwx "$WORK" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ -x "$RTLOCK" ] || { echo "tests/faults: build tool/rtlock first" >&2; exit 2; }
npass=0
nfail=0
nskip=0
for name in ${*:-$ALL}; do
	C=$WORK/$name
	mkdir -p "$C"
	(case_"$name") >"$C/log" 2>&1
	st=$?
	case $st in
	0)
		echo "PASS $name"
		npass=$((npass + 1))
		;;
	77)
		echo "SKIP $name: $(tail -1 "$C/log")"
		nskip=$((nskip + 1))
		;;
	*)
		echo "FAIL $name: $(tail -1 "$C/log")"
		head -n -1 "$C/log" | sed 's/^/    /' | head -20
		nfail=$((nfail + 1))
		;;
	esac
done
echo "faults: $npass passed, $nfail failed, $nskip skipped"
[ $nfail -eq 0 ]
