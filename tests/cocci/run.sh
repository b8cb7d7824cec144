#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Golden tests of the lock_t conversion (cocci/lock_t.cocci and its textual
# fallback rule cocci/lock_t_text.py), in the manner of Coccinelle's own
# test suite: for every CASE.res, CASE.c (or CASE.h) is copied into a
# scratch tree root, converted, and compared with CASE.res.
#
# Per-case options, all optional, paths in them relative to the case's
# directory (the scratch tree root):
#   CASE.keep_sites   passed as -D keep_sites= / --keep-sites
#   CASE.keep_decls   passed as -D keep_decls= / --keep-decls
#   CASE.keep_names   passed as -D keep_names= / --keep-names
#   CASE.opts         words: "raw" (-D raw=1 / --raw)
#   CASE.path         the file's path in the tree (default: its name)
#   CASE.tree/        files of the tree the rules read (-D tree= / --tree:
#                     the raw names only some eras have)
#   CASE.stderr       the expected "lock_t: warning:" lines (sort -u)
# Each case is also run a second time on its own .res ("idempotent:CASE"):
# nothing may change.
#
# Usage: tests/cocci/run.sh [CASE...]      (default: every case)
# Environment: SPATCH (default spatch), KEEP=1 keeps the scratch directory.
# The last line of output is "N passed, N failed"; exit status 1 if any
# test failed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cocci=$top/cocci/lock_t.cocci
text=$top/cocci/lock_t_text.py
spatch=${SPATCH:-spatch}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lock_t-tests.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
	echo "scratch: $tmp"
else
	trap 'rm -rf "$tmp"' EXIT
fi

pass=0
fail=0

# convert DIR FILE: run both rules on DIR/FILE (cwd = DIR = tree root):
# spatch, then the textual rule for what spatch did not rewrite (#define
# bodies, unparsed code), against a copy of the input in DIR/orig.
convert() {
	rm -rf "$1/orig"
	mkdir -p "$1/orig/$(dirname "$2")"
	cp "$1/$2" "$1/orig/$2"
	(
		cd "$1" || exit 1
		"$spatch" --sp-file "$cocci" --no-includes --include-headers \
			--max-width 200 --very-quiet --in-place "${sopts[@]}" \
			"$2" >/dev/null || exit 1
		python3 "$text" "${dopts[@]}" --orig-root orig --in-place "$2" \
			|| exit 1
	) 2> "$1/stderr.all"
	local rc=$?
	grep '^lock_t: warning:' "$1/stderr.all" | sort -u > "$1/stderr"
	if grep -qv -e '^lock_t: warning:' -e 'should spinlock_t be a metavariable' \
			-e '^init_defs_builtins:' "$1/stderr.all"; then
		sed 's/^/    stderr: /' "$1/stderr.all"
	fi
	return $rc
}

ok() { pass=$((pass + 1)); echo "PASS $1"; }
ko() { fail=$((fail + 1)); echo "FAIL $1"; }

if [ $# -gt 0 ]; then
	cases=("$@")
else
	cases=()
	for res in "$here"/*.res; do
		cases+=("$(basename "$res" .res)")
	done
fi

for case in "${cases[@]}"; do
	src=$here/$case.c
	[ -f "$src" ] || src=$here/$case.h
	if [ ! -f "$src" ] || [ ! -f "$here/$case.res" ]; then
		ko "$case (no $case.c/.h or $case.res)"
		continue
	fi
	name=$(basename "$src")
	[ -f "$here/$case.path" ] && name=$(cat "$here/$case.path")
	work=$tmp/$case
	mkdir -p "$work/$(dirname "$name")"
	sopts=()
	dopts=()
	if [ -f "$here/$case.keep_sites" ]; then
		cp "$here/$case.keep_sites" "$work/"
		sopts+=(-D "keep_sites=$case.keep_sites")
		dopts+=(--keep-sites "$case.keep_sites")
	fi
	if [ -f "$here/$case.keep_decls" ]; then
		cp "$here/$case.keep_decls" "$work/"
		sopts+=(-D "keep_decls=$case.keep_decls")
		dopts+=(--keep-decls "$case.keep_decls")
	fi
	if [ -f "$here/$case.keep_names" ]; then
		cp "$here/$case.keep_names" "$work/"
		sopts+=(-D "keep_names=$case.keep_names")
		dopts+=(--keep-names "$case.keep_names")
	fi
	if [ -d "$here/$case.tree" ]; then
		cp -r "$here/$case.tree/." "$work/"
		sopts+=(-D "tree=$work")
		dopts+=(--tree "$work")
	fi
	if [ -f "$here/$case.opts" ] && grep -qw raw "$here/$case.opts"; then
		sopts+=(-D raw=1)
		dopts+=(--raw)
	fi

	# 1. conversion
	cp "$src" "$work/$name"
	if ! convert "$work" "$name"; then
		ko "$case (conversion failed)"
	elif ! diff -u "$here/$case.res" "$work/$name" > "$work/diff"; then
		ko "$case"
		sed 's/^/    /' "$work/diff"
	elif [ -f "$here/$case.stderr" ] &&
	     ! diff -u "$here/$case.stderr" "$work/stderr" > "$work/diff"; then
		ko "$case (warnings differ)"
		sed 's/^/    /' "$work/diff"
	else
		ok "$case"
	fi

	# 2. idempotence: the expected result converts to itself
	cp "$here/$case.res" "$work/$name"
	if ! convert "$work" "$name"; then
		ko "idempotent:$case (conversion failed)"
	elif ! diff -u "$here/$case.res" "$work/$name" > "$work/diff"; then
		ko "idempotent:$case"
		sed 's/^/    /' "$work/diff"
	else
		ok "idempotent:$case"
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
