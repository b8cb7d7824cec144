#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tool/verify.sh - check a lock_t conversion of a kernel tree (make verify).
#
#   typecheck    the converted objects build with DEBUG_LOCK_T_TYPECHECK=y
#                (lock_t a distinct struct: mixing it with spin_*() does not
#                compile); with --rt, also with PREEMPT_RT=y
#   equal        without the type check and without PREEMPT_RT, every
#                converted object is the same as the pristine tree's:
#                sections, relocations and symbols (see compare_objs)
#   idempotent   rtlock convert on the converted tree changes nothing
#
# With the pristine build (equal) and another build in the same run, the
# compiler warnings of the other build that the pristine one does not
# have are listed (new-warnings-NAME.txt) and count as a failure.
#
# The objects are those of the .c files the conversion changed that the
# config builds (a file #included by a built .c of its folder is checked
# through that object).  All kbuild output goes to the work directory.
#
#   tool/verify.sh [options] KERNEL
#   tool/verify.sh --compare A.o B.o
#   tool/verify.sh --new-warnings A.log TREE_A B.log TREE_B
#
# Exit status: 0 all good, 1 differences or failures, 2 bad command line,
# 3 bad input, 4 environment (kbuild or rtlock convert failed).
set -u

usage() {
	cat <<'EOF'
usage: tool/verify.sh [options] KERNEL
       tool/verify.sh --compare PRISTINE.o CONVERTED.o
       tool/verify.sh --new-warnings PRISTINE.log PRISTINE-TREE OTHER.log OTHER-TREE

KERNEL is the pristine tree.  Options:
  --converted DIR   the converted tree (default: rtlock convert KERNEL into
                    the work directory, reused while its text is unchanged)
  --config CFG      make target (x86_64_defconfig) or a .config file
  --rt              also type-check with PREEMPT_RT=y
  -j, --jobs N      make -j (default 2)
  --objs LIST       check these objects (or .c files) only, comma or space
                    separated
  --only DIRS       only changed files below these folders (kernel,mm)
  --limit N         only the first N objects (sorted by path)
  --steps LIST      typecheck,equal,idempotent (default: all three)
  --dir DIR         work directory (default $VERIFY_DIR, else
                    ~/.cache/rtlock/verify)
  --rtlock-opts S   options for both rtlock convert runs (-C, --only ...)
EOF
	exit "${1:-2}"
}

die() {
	code=$1
	shift
	echo "verify: $*" >&2
	exit "$code"
}

note() {
	echo "verify: $*" >&2
}

# ---- object comparison ----

# dump OBJ: the parts of an object file that must not change, one line
# each, prefixed by what they belong to: H (section table: name, type,
# size, flags; the symbol and string tables are compared through S),
# C:SEC (contents), R:SEC (relocations), S (symbols).
# DWARF and .comment are left out: they carry the build directory and,
# when lines moved, line numbers; nothing in them ends up in the kernel.
# .modinfo is compared as its strings (M), without "NAME.file=": that is
# KBUILD_MODFILE, the name kbuild gave the object in that build
# ("drivers/input/serio" or "drivers/input/serio/serio"), not the source.
dump() {
	readelf -SW "$1" | awk '
		/^ *\[ *[0-9]+\]/ {
			sub(/^ *\[ *[0-9]+\] */, "")
			if ($1 ~ /^(\.rela)?\.debug_|^\.comment$/ ||
			    $2 ~ /^(NULL|SYMTAB|STRTAB)$/)
				next
			# Name Type Addr Off Size ES [Flg] Lk Inf Al
			printf "H\t%s %s %s %s\n", $1, $2,
			       $1 == ".modinfo" ? "-" : $5, NF == 10 ? $7 : "-"
		}'
	objdump -s "$1" | awk '
		/^Contents of section / {
			sec = substr($0, 21)
			sub(/:$/, "", sec)
			skip = sec ~ /^\.debug_|^\.comment$|^\.modinfo$/
			next
		}
		sec != "" && !skip { print "C:" sec "\t" $0 }'
	{ readelf -p .modinfo "$1" 2>/dev/null || true; } |
		sed -n 's/^ *\[ *[0-9a-f]*\] *//p' | grep -v '^[^=]*\.file=' |
		sed 's/^/M\t/'
	objdump -r -w "$1" | awk '
		/^RELOCATION RECORDS FOR \[/ {
			sec = $0
			sub(/^RELOCATION RECORDS FOR \[/, "", sec)
			sub(/\]:$/, "", sec)
			skip = sec ~ /^\.debug_/
			next
		}
		/^OFFSET/ || NF == 0 { next }
		sec != "" && !skip { print "R:" sec "\t" $0 }' |
		sed -E 's/\.[0-9]+([+-]0x[0-9a-f]+)?$/\1/'
	# GCC numbers the local symbols it makes up (CSWTCH.12, __key.3,
	# __func__.7) with a counter of the whole TU, which moves when a
	# header declares more or fewer things: the number is dropped (here
	# and in the relocations above)
	# (and the offsets and sizes of .modinfo's symbols change with
	# "NAME.file=": the strings, M, are compared instead)
	readelf -sW "$1" | awk -v mi="$(readelf -SW "$1" | sed -n \
		's/^ *\[ *\([0-9]*\)\] \.modinfo .*/\1/p')" '
		$1 ~ /^[0-9]+:$/ {
			$1 = ""
			if ($5 == "LOCAL")
				sub(/\.[0-9]+$/, "", $8)
			if (mi != "" && $7 == mi)
				$2 = $3 = "-"
			print "S\t" $0
		}'
}

# code_sections OBJ: names of the executable sections
code_sections() {
	readelf -SW "$1" | awk '
		/^ *\[ *[0-9]+\]/ {
			sub(/^ *\[ *[0-9]+\] */, "")
			if (NF == 10 && $7 ~ /X/)
				print $1
		}'
}

# disasm OBJ SEC: "function<TAB>instruction" with addresses removed, so
# that a function that moved but did not change compares equal
disasm() {
	objdump -d -r -w --section="$2" "$1" | awk '
		/^[0-9a-f]+ <.*>:$/ {
			fn = $2
			gsub(/[<>:]/, "", fn)
			next
		}
		/^ *[0-9a-f]+:\t/ {
			l = $0
			sub(/^ *[0-9a-f]+:\t/, "", l)
			gsub(/[0-9a-f]+ </, "<", l)
			gsub(/\t[0-9a-f]+: R_/, "\tR_", l)
			print fn "\t" l
		}'
}

# compare_objs A B: prints "STATE<TAB>DETAIL"; returns 0 when the code is
# the same.  STATE is
#   identical  same sections, contents, relocations and symbols
#   lines      the same except for the contents of __bug_table, whose
#              relocations (code address, file name) are the same: only
#              the line numbers of WARN()/BUG() sites moved
#   differs    DETAIL: the first differing function, or what else differs
compare_objs() {
	t=$(mktemp -d "${TMPDIR:-/tmp}/rtlock-verify.XXXXXX")
	if cmp -s "$1" "$2"; then
		printf 'identical\t-\n'
		rm -rf "$t"
		return 0
	fi
	dump "$1" > "$t/a"
	dump "$2" > "$t/b"
	diff "$t/a" "$t/b" | sed -n 's/^[<>] //p' | cut -f1 | sort -u > "$t/keys"
	_crc=1
	if [ ! -s "$t/keys" ]; then
		printf 'identical\t-\n'
		_crc=0
	elif [ "$(cat "$t/keys")" = "C:__bug_table" ]; then
		printf 'lines\t__bug_table line numbers\n'
		_crc=0
	else
		detail=
		for sec in $(code_sections "$1"); do
			grep -qxF -e "C:$sec" -e "R:$sec" "$t/keys" || continue
			disasm "$1" "$sec" > "$t/da"
			disasm "$2" "$sec" > "$t/db"
			diff "$t/da" "$t/db" | sed -n 's/^[<>] //p' | cut -f1 > "$t/fns"
			first=$(head -n 1 "$t/fns")
			n=$(sort -u "$t/fns" | wc -l)
			detail="$sec: ${first:-?}"
			[ "$n" -gt 1 ] && detail="$detail (+$((n - 1)) more functions)"
			break
		done
		if [ -z "$detail" ]; then
			detail="data: $(sed 's/^[CR]://' "$t/keys" | sort -u |
				head -n 4 | tr '\n' ' ' | sed 's/ $//')"
		fi
		printf 'differs\t%s\n' "$detail"
	fi
	rm -rf "$t"
	return $_crc
}

# log_warnings LOG TREE: the compiler warnings of a build log, paths made
# relative to TREE, sorted, each once
log_warnings() {
	grep ': warning: ' "$1" | sed "s|$2/||g" | sort -u
}

# new_warnings A.log TREE_A B.log TREE_B: the warnings of B that A has not;
# status 1 if there is one
new_warnings() {
	log_warnings "$1" "$2" > "${TMPDIR:-/tmp}/rtlock-warn.$$"
	log_warnings "$3" "$4" | comm -13 "${TMPDIR:-/tmp}/rtlock-warn.$$" - |
		awk '{ print } END { exit NR > 0 }'
	_r=$?
	rm -f "${TMPDIR:-/tmp}/rtlock-warn.$$"
	return $_r
}

if [ "${1:-}" = "--new-warnings" ]; then
	[ $# -eq 5 ] || usage
	for f in "$2" "$4"; do
		[ -f "$f" ] || die 3 "$f: no such file"
	done
	new_warnings "$2" "$3" "$4" "$5"
	exit $?
fi

if [ "${1:-}" = "--compare" ]; then
	[ $# -eq 3 ] || usage
	for f in "$2" "$3"; do
		[ -f "$f" ] || die 3 "$f: no such file"
	done
	compare_objs "$2" "$3"
	exit $?
fi

# ---- command line ----

converted=
config=x86_64_defconfig
rt=0
jobs=2
objs=
only=
limit=
steps=typecheck,equal,idempotent
workdir=${VERIFY_DIR:-${HOME:-/tmp}/.cache/rtlock/verify}
rtlock_opts=
kernel=

need() {
	[ $# -ge 2 ] || { echo "verify: $1 needs a value" >&2; usage; }
}

while [ $# -gt 0 ]; do
	case $1 in
	--converted) need "$@"; converted=$2; shift ;;
	--converted=*) converted=${1#*=} ;;
	--config) need "$@"; config=$2; shift ;;
	--config=*) config=${1#*=} ;;
	--rt) rt=1 ;;
	-j|--jobs) need "$@"; jobs=$2; shift ;;
	--jobs=*) jobs=${1#*=} ;;
	-j[0-9]*) jobs=${1#-j} ;;
	--objs) need "$@"; objs=$2; shift ;;
	--objs=*) objs=${1#*=} ;;
	--only) need "$@"; only=$2; shift ;;
	--only=*) only=${1#*=} ;;
	--limit) need "$@"; limit=$2; shift ;;
	--limit=*) limit=${1#*=} ;;
	--steps) need "$@"; steps=$2; shift ;;
	--steps=*) steps=${1#*=} ;;
	--dir) need "$@"; workdir=$2; shift ;;
	--dir=*) workdir=${1#*=} ;;
	--rtlock-opts) need "$@"; rtlock_opts=$2; shift ;;
	--rtlock-opts=*) rtlock_opts=${1#*=} ;;
	-h|--help) usage 0 ;;
	-*) echo "verify: unknown option $1" >&2; usage ;;
	*) [ -z "$kernel" ] || usage; kernel=$1 ;;
	esac
	shift
done
[ -n "$kernel" ] || usage
case $jobs in ''|*[!0-9]*|0) die 2 "--jobs: not a positive number: $jobs" ;; esac
case $limit in *[!0-9]*) die 2 "--limit: not a number: $limit" ;; esac
do_tc=0 do_eq=0 do_idem=0
for s in $(echo "$steps" | tr ',' ' '); do
	case $s in
	typecheck) do_tc=1 ;;
	equal) do_eq=1 ;;
	idempotent) do_idem=1 ;;
	*) die 2 "--steps: unknown step '$s' (typecheck, equal, idempotent)" ;;
	esac
done
[ $((do_tc + do_eq + do_idem)) -gt 0 ] || die 2 "--steps: nothing to do"

# the caller's make must not leak into kbuild (make verify KERNEL=... would
# pass KERNEL, CONFIG ... down as variable overrides)
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES GNUMAKEFLAGS

top=$(cd "$(dirname "$0")/.." && pwd -P)
rtlock=$top/tool/rtlock
for tool in readelf objdump jq diff cksum; do
	command -v "$tool" > /dev/null 2>&1 || die 4 "$tool not found (make deps)"
done

[ -d "$kernel" ] || die 3 "$kernel: not a directory"
kernel=$(cd "$kernel" && pwd -P)
[ -f "$kernel/Makefile" ] || die 3 "$kernel: not a kernel tree (no Makefile)"
kbuild=0
[ -f "$kernel/scripts/Makefile.build" ] && kbuild=1
if [ $kbuild = 0 ] && [ $((do_tc + do_eq)) -gt 0 ]; then
	die 3 "$kernel: no kbuild (scripts/Makefile.build): only --steps idempotent can run here"
fi
if [ -n "$converted" ]; then
	[ -d "$converted" ] || die 3 "$converted: not a directory"
	converted=$(cd "$converted" && pwd -P)
	[ "$converted" != "$kernel" ] || die 3 "--converted is KERNEL itself"
fi
if [ -f "$config" ]; then
	config=$(cd "$(dirname "$config")" && pwd -P)/$(basename "$config")
fi

mkdir -p "$workdir" || die 4 "$workdir: cannot create"
workdir=$(cd "$workdir" && pwd -P)
tag=$(basename "$kernel")-$(printf '%s\n%s\n%s\n' "$kernel" "$converted" \
	"$config" | cksum | cut -d' ' -f1)
W=$workdir/$tag
mkdir -p "$W/logs" || die 4 "$W: cannot create"
start=$(date +%s)
note "work directory $W"

# ---- the converted tree ----

convert_rc=
if [ -z "$converted" ]; then
	[ -x "$rtlock" ] || die 4 "$rtlock: not built (make)"
	note "rtlock convert $kernel"
	rm -rf "$W/converted.new" "$W/convert"
	# shellcheck disable=SC2086
	"$rtlock" convert -q $rtlock_opts -o "$W/convert" \
		--tree-out "$W/converted.new" "$kernel" > "$W/logs/convert.log" 2>&1
	convert_rc=$?
	case $convert_rc in
	0) ;;
	1) note "rtlock convert: items to review (see $W/convert/convert.json)" ;;
	*) die 4 "rtlock convert failed ($convert_rc): see $W/logs/convert.log" ;;
	esac
	# keep the old copy (and its timestamps: kbuild then rebuilds nothing)
	# when the conversion gave the same text
	if [ -d "$W/converted" ] &&
	   diff -rq "$W/converted" "$W/converted.new" > /dev/null 2>&1; then
		rm -rf "$W/converted.new"
	else
		rm -rf "$W/converted"
		mv "$W/converted.new" "$W/converted"
	fi
	converted=$W/converted
fi

# ---- what changed ----

note "comparing the trees"
diff -rq -x .git "$kernel" "$converted" > "$W/changed.raw" 2>&1
[ $? -le 1 ] || die 4 "diff -r $kernel $converted failed: see $W/changed.raw"
# "Files K/x and C/x differ", "Only in C/dir: name"
awk -v k="$kernel/" -v c="$converted" '
	/^Files / { f = $2; print substr(f, length(k) + 1); next }
	/^Only in / {
		d = $3
		sub(/:$/, "", d)
		if (index(d, c) == 1) {
			d = substr(d, length(c) + 2)
			print (d == "" ? "" : d "/") $4 "\t(new)"
		} else {
			print substr(d, length(k) + 1) "/" $4 "\t(removed)"
		}
	}' "$W/changed.raw" | sort > "$W/changed.txt"
n_changed=$(wc -l < "$W/changed.txt")
n_changed_c=$(grep -c '\.c$' "$W/changed.txt")
n_changed_h=$(grep -c '\.h$' "$W/changed.txt")
note "$n_changed files differ: $n_changed_c .c, $n_changed_h .h"

# in_only PATH: is PATH below one of --only's folders?
in_only() {
	[ -z "$only" ] && return 0
	for d in $(echo "$only" | tr ',' ' '); do
		d=${d%/}
		case $1 in "$d"/*) return 0 ;; esac
	done
	return 1
}

# ---- which objects the config builds ----

# kmake TREE O [ARGS]: kbuild with its output in O
kmake() {
	_tree=$1 _o=$2
	shift 2
	make -C "$_tree" O="$_o" "$@" < /dev/null
}

# configure TREE O KIND: .config for KIND (plain: no type check, no
# PREEMPT_RT; typecheck; typecheck-rt)
configure() {
	_tree=$1 _o=$2 _kind=$3 _log=$W/logs/config-$(basename "$2").log
	mkdir -p "$_o"
	if [ -f "$config" ]; then
		cp "$config" "$_o/.config"
	else
		kmake "$_tree" "$_o" "$config" > "$_log" 2>&1 ||
			die 4 "make $config failed in $_o: see $_log"
	fi
	_sc="$_tree/scripts/config --file $_o/.config"
	case $_kind in
	plain)
		$_sc -d DEBUG_LOCK_T_TYPECHECK -d PREEMPT_RT ;;
	typecheck)
		$_sc -e DEBUG_KERNEL -e DEBUG_LOCK_T_TYPECHECK -d PREEMPT_RT ;;
	typecheck-rt)
		$_sc -e DEBUG_KERNEL -e DEBUG_LOCK_T_TYPECHECK -e EXPERT \
			-d PREEMPT_NONE -d PREEMPT_VOLUNTARY -d PREEMPT \
			-e PREEMPT_RT ;;
	esac
	kmake "$_tree" "$_o" olddefconfig >> "$_log" 2>&1 ||
		die 4 "make olddefconfig failed in $_o: see $_log"
	case $_kind in
	typecheck*)
		grep -qx 'CONFIG_DEBUG_LOCK_T_TYPECHECK=y' "$_o/.config" ||
			die 3 "$_tree: DEBUG_LOCK_T_TYPECHECK cannot be enabled (not converted by rtlock? DEBUG_KERNEL off in $config?)" ;;
	esac
	case $_kind in
	*-rt)
		grep -qx 'CONFIG_PREEMPT_RT=y' "$_o/.config" ||
			die 3 "$_tree: PREEMPT_RT cannot be enabled with $config (x86 supports it from 6.12)" ;;
	*)
		! grep -qx 'CONFIG_PREEMPT_RT=y' "$_o/.config" ||
			die 3 "$config: PREEMPT_RT stays enabled" ;;
	esac
}

# objlist TREE KIND DIR LIST: the objects $config (of KIND, see configure)
# builds, into LIST, from a dry run of vmlinux and modules in DIR, an
# output directory where nothing else is ever built
objlist() {
	_t=$1 _k=$2 _o=$3
	configure "$_t" "$_o" "$_k"
	_sum=$(cksum < "$_o/.config" | cut -d' ' -f1)
	if [ ! -s "$_o/objs.$_sum" ]; then
		note "listing the objects $config builds ($_k)"
		kmake "$_t" "$_o" -j"$jobs" prepare > "$W/logs/objlist-$_k.log" 2>&1 ||
			die 4 "make prepare failed in $_o: see $W/logs/objlist-$_k.log"
		kmake "$_t" "$_o" -n -k vmlinux modules 2> /dev/null |
			grep -o ' -o [^ ;]*\.o ' | sed 's/^ -o //; s/ $//' |
			sort -u > "$_o/objs.tmp"
		[ -s "$_o/objs.tmp" ] ||
			die 4 "no object found in the dry run of $config in $_o"
		mv "$_o/objs.tmp" "$_o/objs.$_sum"
	fi
	cp "$_o/objs.$_sum" "$4"
}

# select_objects: $W/objects.tsv "object<TAB>source" and the skip counts
select_objects() {
	: > "$W/objects.tmp"
	: > "$W/skipped.txt"
	if [ -n "$objs" ]; then
		for o in $(echo "$objs" | tr ',' ' '); do
			printf '%s\n' "${o%.[co]}.c"
		done
	else
		sed -n 's/\.c$/.c/p' "$W/changed.txt"
	fi > "$W/sources.txt"
	while read -r src; do
		in_only "$src" || continue
		obj=${src%.c}.o
		if grep -qxF "$obj" "$W/objs-in-config.txt"; then
			printf '%s\t%s\n' "$obj" "$src" >> "$W/objects.tmp"
			continue
		fi
		# kernel/sched/build_policy.c includes rt.c, deadline.c ...
		dir=$(dirname "$src")
		inc=$(grep -lF "#include \"$(basename "$src")\"" \
			"$converted/$dir"/*.c 2> /dev/null | while read -r f; do
				o=$dir/$(basename "${f%.c}").o
				grep -qxF "$o" "$W/objs-in-config.txt" && echo "$o"
			done | head -n 1)
		if [ -n "$inc" ]; then
			printf '%s\t%s\n' "$inc" "$src" >> "$W/objects.tmp"
		else
			echo "$src" >> "$W/skipped.txt"
		fi
	done < "$W/sources.txt"
	# one line per object (sources joined), sorted, then --limit
	sort "$W/objects.tmp" | awk -F'\t' '
		$1 == o { s = s "," $2; next }
		o != "" { print o "\t" s }
		{ o = $1; s = $2 }
		END { if (o != "") print o "\t" s }' > "$W/objects.all"
	if [ -n "$limit" ]; then
		head -n "$limit" "$W/objects.all"
	else
		cat "$W/objects.all"
	fi > "$W/objects.tsv"
	rm -f "$W/objects.tmp"
}

# first_error LOG TREE: the first compiler error in LOG, paths made
# relative to TREE
first_error() {
	{ grep -m 1 ': error: ' "$1" || grep -m 1 -i 'error' "$1" ||
		echo "see $1"; } | sed "s|$2/||g" | tr '\t' ' '
}

# build TREE O NAME: build the selected objects in O; per object, "ok" or
# "fail<TAB>first error line" in $W/built-NAME.tsv.  When kbuild's
# prepare fails (asm-offsets.c includes most of include/linux), no object
# can build: every one is "fail" with prepare's error.
build() {
	_tree=$1 _o=$2 _name=$3 _built=${4:-}
	# the objects this config builds (all, without a list): a driver
	# that depends on !PREEMPT_RT is not built with it
	if [ -n "$_built" ]; then
		cut -f1 "$W/objects.tsv" | grep -vxF -f "$_built" |
			sed 's/$/\tnotbuilt\tnot built by this configuration/' \
			> "$W/notbuilt-$_name.tsv"
		cut -f1 "$W/objects.tsv" | grep -xF -f "$_built" > "$W/build-$_name.list"
	else
		: > "$W/notbuilt-$_name.tsv"
		cut -f1 "$W/objects.tsv" > "$W/build-$_name.list"
	fi
	note "building $(wc -l < "$W/build-$_name.list") objects ($_name)"
	rm -rf "$W/logs/$_name"
	mkdir -p "$W/logs/$_name"
	: > "$W/warnings-$_name.txt"
	if ! kmake "$_tree" "$_o" -j"$jobs" prepare > "$W/logs/$_name-prepare.log" 2>&1; then
		_err=$(first_error "$W/logs/$_name-prepare.log" "$_tree")
		note "$_name: kbuild prepare failed: $_err"
		echo "$_err" > "$W/prepare-failed-$_name"
		while read -r obj; do
			printf '%s\tfail\tprepare: %s\n' "$obj" "$_err"
		done < "$W/build-$_name.list" > "$W/built-$_name.tsv"
		cat "$W/notbuilt-$_name.tsv" >> "$W/built-$_name.tsv"
		return
	fi
	rm -f "$W/prepare-failed-$_name"
	# compiled again, so that the log has every warning of every object
	(cd "$_o" && xargs rm -f < "$W/build-$_name.list")
	# shellcheck disable=SC2046
	kmake "$_tree" "$_o" -k -j"$jobs" $(cat "$W/build-$_name.list") \
		> "$W/logs/$_name.log" 2>&1
	log_warnings "$W/logs/$_name.log" "$_tree" > "$W/warnings-$_name.txt"
	while read -r obj; do
		# kbuild deletes the target of a failed command
		if [ -f "$_o/$obj" ]; then
			printf '%s\tok\t-\n' "$obj"
			continue
		fi
		# again alone, for a log of its own
		_log=$W/logs/$_name/$(echo "$obj" | tr '/' '_').log
		kmake "$_tree" "$_o" "$obj" > "$_log" 2>&1
		if [ -f "$_o/$obj" ]; then
			printf '%s\tok\t-\n' "$obj"
			continue
		fi
		printf '%s\tfail\t%s\n' "$obj" "$(first_error "$_log" "$_tree")"
	done < "$W/build-$_name.list" > "$W/built-$_name.tsv"
	cat "$W/notbuilt-$_name.tsv" >> "$W/built-$_name.tsv"
}

# col FILE OBJ N: field N of OBJ's line in FILE
col() {
	awk -F'\t' -v o="$2" -v n="$3" '$1 == o { print $n; exit }' "$1"
}

rc=0
t_tc='' t_eq='' t_idem=''
if [ $((do_tc + do_eq)) -gt 0 ]; then
	objlist "$kernel" plain "$W/objlist" "$W/objs-in-config.txt"
	select_objects
	n_obj=$(wc -l < "$W/objects.tsv")
	n_all=$(wc -l < "$W/objects.all")
	n_skip=$(wc -l < "$W/skipped.txt")
	note "$n_all objects to check ($n_skip changed .c files not built by $config)${limit:+, the first $n_obj}"
else
	: > "$W/objects.tsv"
	: > "$W/skipped.txt"
	n_obj=0 n_all=0 n_skip=0
fi

if [ $do_tc = 1 ] && [ "$n_obj" -gt 0 ]; then
	s=$(date +%s)
	configure "$converted" "$W/build-typecheck" typecheck
	build "$converted" "$W/build-typecheck" typecheck
	if [ $rt = 1 ]; then
		objlist "$converted" typecheck-rt "$W/objlist-rt" \
			"$W/objs-in-config-rt.txt"
		configure "$converted" "$W/build-typecheck-rt" typecheck-rt
		build "$converted" "$W/build-typecheck-rt" typecheck-rt \
			"$W/objs-in-config-rt.txt"
	fi
	t_tc=$(($(date +%s) - s))
fi

if [ $do_eq = 1 ] && [ "$n_obj" -gt 0 ]; then
	s=$(date +%s)
	configure "$kernel" "$W/build-pristine" plain
	configure "$converted" "$W/build-converted" plain
	# the same options, apart from the one the conversion adds
	grep '^CONFIG_' "$W/build-pristine/.config" > "$W/config-pristine"
	grep '^CONFIG_' "$W/build-converted/.config" > "$W/config-converted"
	cmp -s "$W/config-pristine" "$W/config-converted" ||
		die 3 "the pristine and converted trees give different configs from $config: diff $W/config-pristine $W/config-converted"
	build "$kernel" "$W/build-pristine" pristine
	build "$converted" "$W/build-converted" converted
	cut -f1 "$W/objects.tsv" | while read -r obj; do
		a=$(col "$W/built-pristine.tsv" "$obj" 2)
		b=$(col "$W/built-converted.tsv" "$obj" 2)
		if [ "$a" != ok ]; then
			printf '%s\tfailed\tpristine: %s\n' "$obj" \
				"$(col "$W/built-pristine.tsv" "$obj" 3)"
		elif [ "$b" != ok ]; then
			printf '%s\tfailed\t%s\n' "$obj" \
				"$(col "$W/built-converted.tsv" "$obj" 3)"
		else
			printf '%s\t' "$obj"
			compare_objs "$W/build-pristine/$obj" \
				"$W/build-converted/$obj"
		fi
	done > "$W/equal.tsv"
	t_eq=$(($(date +%s) - s))
fi

# ---- warnings the pristine build does not have ----

: > "$W/new-warnings.tsv"
rm -f "$W"/new-warnings-*.txt
if [ $do_eq = 1 ] && [ "$n_obj" -gt 0 ]; then
	for name in typecheck typecheck-rt converted; do
		[ -f "$W/warnings-$name.txt" ] || continue
		comm -13 "$W/warnings-pristine.txt" "$W/warnings-$name.txt" \
			> "$W/new-warnings-$name.txt"
		printf '%s\t%s\n' "$name" "$(wc -l < "$W/new-warnings-$name.txt")" \
			>> "$W/new-warnings.tsv"
	done
fi
new_warn=$(awk -F'\t' '{ n += $2 } END { print n + 0 }' "$W/new-warnings.tsv")

# ---- idempotence ----

idem_state=skipped
: > "$W/idempotence.txt"
if [ $do_idem = 1 ]; then
	[ -x "$rtlock" ] || die 4 "$rtlock: not built (make)"
	s=$(date +%s)
	note "rtlock convert $converted (idempotence)"
	rm -rf "$W/idem" "$W/idem-meta"
	# shellcheck disable=SC2086
	"$rtlock" convert -q $rtlock_opts -o "$W/idem-meta" \
		--tree-out "$W/idem" "$converted" > "$W/logs/idempotence.log" 2>&1
	r=$?
	if [ $r -gt 1 ]; then
		idem_state=failed
		note "rtlock convert of the converted tree failed ($r): see $W/logs/idempotence.log"
		: > "$W/idempotence.txt"
	else
		diff -rq -x .git "$converted" "$W/idem" > "$W/idempotence.txt" 2>&1
		if [ -s "$W/idempotence.txt" ]; then
			idem_state=differs
			diff -ru -x .git "$converted" "$W/idem" > "$W/idempotence.diff" 2>&1
		else
			idem_state=same
			rm -f "$W/idempotence.diff"
		fi
	fi
	rm -rf "$W/idem"
	t_idem=$(($(date +%s) - s))
fi

# ---- results ----

# object, sources, typecheck, error, typecheck-rt, error, code, detail;
# "-" for nothing (read and awk would merge empty tab-separated fields)
cut -f1,2 "$W/objects.tsv" | while IFS="$(printf '\t')" read -r obj src; do
	tc=- tce=- tr=- tre=- eq=- eqd=-
	if [ $do_tc = 1 ]; then
		tc=$(col "$W/built-typecheck.tsv" "$obj" 2)
		tce=$(col "$W/built-typecheck.tsv" "$obj" 3)
		if [ $rt = 1 ]; then
			tr=$(col "$W/built-typecheck-rt.tsv" "$obj" 2)
			tre=$(col "$W/built-typecheck-rt.tsv" "$obj" 3)
		fi
	fi
	if [ $do_eq = 1 ]; then
		eq=$(col "$W/equal.tsv" "$obj" 2)
		eqd=$(col "$W/equal.tsv" "$obj" 3)
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$obj" "$src" "${tc:--}" \
		"${tce:--}" "${tr:--}" "${tre:--}" "${eq:--}" "${eqd:--}"
done > "$W/results.tsv"

count() { # count FIELD VALUE
	awk -F'\t' -v f="$1" -v v="$2" '$f == v { n++ } END { print n + 0 }' \
		"$W/results.tsv"
}
tc_ok=$(count 3 ok) tc_fail=$(count 3 fail)
rt_ok=$(count 5 ok) rt_fail=$(count 5 fail) rt_nb=$(count 5 notbuilt)
eq_id=$(count 7 identical) eq_lines=$(count 7 lines)
eq_diff=$(count 7 differs) eq_fail=$(count 7 failed)
[ $((tc_fail + rt_fail + eq_diff + eq_fail + new_warn)) -eq 0 ] || rc=1
case $idem_state in differs|failed) rc=1 ;; esac
secs=$(($(date +%s) - start))

{
	[ -s "$W/results.tsv" ] && awk -F'\t' -v rt=$rt '
		function cell(s) { return s == "" ? "-" : s }
		BEGIN {
			printf "%-44s %-10s", "object", "typecheck"
			if (rt) printf " %-10s", "tc+rt"
			printf " %-10s %s\n", "non-RT", "detail"
		}
		{
			printf "%-44s %-10s", $1, $3
			if (rt) printf " %-10s", $5
			d = ""
			if ($4 != "-") d = $4
			if ($6 != "-") d = d (d == "" ? "" : "; ") "rt: " $6
			if ($8 != "-") d = d (d == "" ? "" : "; ") $8
			printf " %-10s %s\n", $7, substr(d, 1, 160)
		}' "$W/results.tsv"
	[ -s "$W/results.tsv" ] && echo
	echo "tree:       $kernel -> $converted"
	echo "changed:    $n_changed files ($n_changed_c .c, $n_changed_h .h)"
	[ $((do_tc + do_eq)) -gt 0 ] &&
		echo "objects:    $n_obj checked of $n_all built by $config;" \
			"$n_skip changed .c not built"
	[ $do_tc = 1 ] &&
		echo "typecheck:  $tc_ok ok, $tc_fail failed$([ $rt = 1 ] &&
			echo "; with PREEMPT_RT: $rt_ok ok, $rt_fail failed, $rt_nb not built by its configuration")"
	for f in "$W"/prepare-failed-*; do
		[ -f "$f" ] || continue
		echo "            ${f##*/prepare-failed-}: kbuild prepare failed: $(cat "$f")"
	done
	[ $do_eq = 1 ] &&
		echo "non-RT:     $eq_id identical, $eq_lines only line numbers," \
			"$eq_diff differ, $eq_fail failed to build"
	if [ $do_eq = 1 ] && [ "$n_obj" -gt 0 ]; then
		echo "warnings:   $(wc -l < "$W/warnings-pristine.txt") in the pristine build;" \
			"new in the others: $(awk -F'\t' '{ printf "%s%s %s", s, $1, $2; s = ", " }' \
			"$W/new-warnings.tsv")"
		for f in "$W"/new-warnings-*.txt; do
			[ -s "$f" ] && sed -n '1,5s/^/            /p' "$f"
		done
	elif [ $do_tc = 1 ]; then
		echo "warnings:   not compared (the equal step builds the pristine tree)"
	fi
	echo "idempotent: $idem_state$([ -s "$W/idempotence.txt" ] &&
		echo " ($(wc -l < "$W/idempotence.txt") files, see $W/idempotence.diff)")"
	echo "time:       ${secs}s; details in $W"
} > "$W/summary.txt"
cat "$W/summary.txt"

for f in "$W"/prepare-failed-*; do
	[ -f "$f" ] && printf '%s\t%s\n' "${f##*/prepare-failed-}" "$(cat "$f")"
done > "$W/prepare-failed.tsv"
jq -S -n --rawfile res "$W/results.tsv" --rawfile skipped "$W/skipped.txt" \
	--rawfile prep "$W/prepare-failed.tsv" \
	--rawfile idem "$W/idempotence.txt" \
	--rawfile neww "$W/new-warnings.tsv" \
	--arg kernel "$kernel" --arg converted "$converted" \
	--arg config "$config" --argjson rt "$rt" --arg steps "$steps" \
	--argjson changed "$n_changed" --argjson changed_c "$n_changed_c" \
	--argjson changed_h "$n_changed_h" --argjson all "$n_all" \
	--argjson checked "$n_obj" --arg idem_state "$idem_state" \
	--arg convert_rc "$convert_rc" --argjson secs "$secs" \
	--arg t_tc "$t_tc" --arg t_eq "$t_eq" --arg t_idem "$t_idem" \
	--argjson rc "$rc" '
	def lines($s): $s | split("\n") | map(select(. != ""));
	def opt($k; $v): if $v == "" or $v == "-" then {} else {($k): $v} end;
	def num($s): if $s == "" then null else ($s | tonumber) end;
	(lines($res) | map(split("\t") |
		{object: .[0], sources: (.[1] | split(","))}
		+ opt("typecheck"; .[2]) + opt("typecheck_error"; .[3])
		+ opt("typecheck_rt"; .[4]) + opt("typecheck_rt_error"; .[5])
		+ opt("code"; .[6]) + opt("code_detail"; .[7]))) as $r |
	def n($k; $v): [$r[] | select(.[$k] == $v)] | length;
	{
		schema: "rtlock-verify-1",
		kernel: $kernel, converted: $converted, config: $config,
		preempt_rt: ($rt == 1), steps: ($steps | split(",")),
		converted_by_verify: ($convert_rc != ""),
		changed: {files: $changed, c: $changed_c, h: $changed_h},
		objects: {in_config: $all, checked: $checked,
			  not_built: lines($skipped)},
		prepare_failed: (lines($prep) | map(split("\t") | {(.[0]): .[1]}) | add // {}),
		typecheck: {ok: n("typecheck"; "ok"),
			    failed: n("typecheck"; "fail"),
			    rt_ok: n("typecheck_rt"; "ok"),
			    rt_failed: n("typecheck_rt"; "fail"),
			    rt_not_built: n("typecheck_rt"; "notbuilt")},
		code: {identical: n("code"; "identical"),
		       lines: n("code"; "lines"),
		       differs: n("code"; "differs"),
		       failed: n("code"; "failed")},
		new_warnings: (lines($neww) | map(split("\t") | {(.[0]): (.[1] | tonumber)}) | add // {}),
		idempotent: {state: $idem_state,
			     files: (lines($idem) | .[:100])},
		seconds: {total: $secs, typecheck: num($t_tc),
			  equal: num($t_eq), idempotent: num($t_idem)},
		status: $rc,
		results: $r
	}' > "$W/verify.json.tmp" || die 4 "could not write $W/verify.json"
mv "$W/verify.json.tmp" "$W/verify.json"
echo "summary: $W/summary.txt, $W/verify.json"
exit $rc
