#!/usr/bin/env bash
# Runs the workqueue PI KUnit suite (suite "workqueue_pi", see
# patches/README.md) of a kernel tree that carries the patch, under qemu
# (x86_64, software emulation), with the tree's own kunit.py.
#
#   tests/kunit/run.sh [--rt] [--jobs N] [--build-dir DIR] [--timeout SEC]
#                      KERNEL [-- KUNIT_PY_ARGS...]
#
# The kunitconfig is patches/<VERSION.PATCHLEVEL>/kunitconfig, picked by the
# version in KERNEL's top Makefile.  --rt adds CONFIG_EXPERT=y and
# CONFIG_PREEMPT_RT=y to a copy of it (the tree's x86 must support
# PREEMPT_RT: 6.12 does, Debian's 6.1 does not).  KERNEL is only read: the
# kernel is configured and built in --build-dir (kbuild O=), default
# $RTLOCK_CACHE/kunit, else ~/.cache/rtlock/kunit, one sub-folder per version
# (and -rt); the log of the last run is BUILD/kunit.log.
#
# Exit status: 0 every test passed; 1 the build, the boot or a test failed;
# 2 bad command line; 3 bad input (not a kernel tree, no port for its
# version, the suite is missing, unclean source tree, --rt unsupported);
# 4 environment (qemu, python3 or the compiler missing).
set -euo pipefail

me=rtlock-kunit
top=$(cd "$(dirname "$0")/../.." && pwd)
die() { local st=$1; shift; echo "$me: error: $*" >&2; exit "$st"; }
usage() {
	sed -n '/^#   tests/,/KUNIT_PY_ARGS/p' "$0" | sed 's/^# //' >&2
	exit 2
}

rt=0 jobs=$(nproc) build_base='' timeout=''
while [ $# -gt 0 ]; do
	case $1 in
	--rt) rt=1 ;;
	-j | --jobs) [ $# -ge 2 ] || usage; jobs=$2; shift ;;
	--build-dir) [ $# -ge 2 ] || usage; build_base=$2; shift ;;
	--timeout) [ $# -ge 2 ] || usage; timeout=$2; shift ;;
	-h | --help) usage ;;
	--) break ;;
	-*) echo "$me: unknown option $1" >&2; usage ;;
	*) [ -z "${kernel:-}" ] || usage; kernel=$1 ;;
	esac
	shift
done
[ "${1:-}" = -- ] && shift
[ -n "${kernel:-}" ] || usage
case $jobs in '' | *[!0-9]* | 0) die 2 "--jobs wants a positive number" ;; esac

# ---- the tree ----
[ -d "$kernel" ] || die 3 "$kernel: no such directory"
kernel=$(cd "$kernel" && pwd)
if [ ! -f "$kernel/Makefile" ] || [ ! -f "$kernel/Kconfig" ]; then
	die 3 "$kernel: not a kernel tree (no top Makefile/Kconfig)"
fi
mkvar() { sed -n "s/^$1[[:space:]]*=[[:space:]]*\([0-9]*\).*/\1/p" "$kernel/Makefile" | head -1; }
major=$(mkvar VERSION) minor=$(mkvar PATCHLEVEL) sub=$(mkvar SUBLEVEL)
if [ -z "$major" ] || [ -z "$minor" ]; then
	die 3 "$kernel: no VERSION/PATCHLEVEL in its top Makefile"
fi
ver=$major.$minor
ports=$(cd "$top/patches" && for f in */kunitconfig; do echo "${f%/kunitconfig}"; done | sort -V | tr '\n' ' ')
kunitconfig=$top/patches/$ver/kunitconfig
[ -f "$kunitconfig" ] ||
	die 3 "Linux $ver.${sub:-0} has no workqueue PI port; ports exist for: ${ports% }"
kunit_py=$kernel/tools/testing/kunit/kunit.py
[ -f "$kunit_py" ] || die 3 "$kernel: no tools/testing/kunit/kunit.py"

# The suite is there if every option of the kunitconfig is defined by the
# tree's Kconfig files.
syms=$(sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p' "$kunitconfig")
defined=$(cd "$kernel" && find . -name 'Kconfig*' -not -path './Documentation/*' -print0 |
	xargs -0 sed -n 's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/\2/p' | sort -u)
for s in $syms; do
	grep -qx "$s" <<<"$defined" ||
		die 3 "$kernel does not carry the workqueue PI KUnit suite (CONFIG_$s is not defined in its Kconfig files); give a checkout of the RT branch"
done
[ -f "$kernel/kernel/workqueue_pi_kunit.c" ] ||
	die 3 "$kernel does not carry the workqueue PI KUnit suite (no kernel/workqueue_pi_kunit.c)"

# kbuild refuses O= builds of a tree that was configured in place.
if [ -e "$kernel/.config" ] || [ -d "$kernel/include/config" ]; then
	die 3 "$kernel is not clean (.config or include/config in it): kbuild cannot build it with O=; run 'make mrproper' there or use a clean checkout"
fi
if [ "$rt" = 1 ] && ! grep -q 'select ARCH_SUPPORTS_RT' "$kernel/arch/x86/Kconfig"; then
	die 3 "--rt: x86 does not support PREEMPT_RT in Linux $ver.${sub:-0} (no 'select ARCH_SUPPORTS_RT' in arch/x86/Kconfig)"
fi

# ---- the environment ----
for t in python3 qemu-system-x86_64 make gcc flex bison bc; do
	command -v "$t" >/dev/null ||
		die 4 "$t not found (make deps installs it: qemu-system-x86, python3, gcc, make, flex, bison, bc)"
done

# ---- build folder and kunitconfig ----
if [ -z "$build_base" ]; then
	build_base=${RTLOCK_CACHE:-${HOME:?}/.cache/rtlock}/kunit
fi
label="Linux $ver.${sub:-0}" suffix=''
if [ "$rt" = 1 ]; then label="$label PREEMPT_RT" suffix=-rt; fi
build=$build_base/$ver$suffix
mkdir -p "$build" || die 4 "cannot create $build"
build=$(cd "$build" && pwd)
case $build/ in "$kernel"/*) die 2 "--build-dir must be outside $kernel" ;; esac
cfg=$build/rtlock.kunitconfig
{
	cat "$kunitconfig"
	if [ "$rt" = 1 ]; then
		echo CONFIG_EXPERT=y
		echo CONFIG_PREEMPT_RT=y
	fi
} >"$cfg.tmp"
mv "$cfg.tmp" "$cfg"

# kunit.py imports its modules from the tree: no __pycache__ there.
export PYTHONDONTWRITEBYTECODE=1
cmd=(python3 "$kunit_py" run --arch=x86_64 "--kunitconfig=$cfg"
	"--build_dir=$build" "--jobs=$jobs")
[ -z "$timeout" ] || cmd+=("--timeout=$timeout")
cmd+=("$@")

echo "$me: $label, kunitconfig patches/$ver/kunitconfig, build in $build"
echo "$me: ${cmd[*]}"
log=$build/kunit.log
set +e
"${cmd[@]}" 2>&1 | tee "$log"
st=${PIPESTATUS[0]}
set -e

# kunit.py prints "Testing complete. Ran N tests: passed: N[, failed: ...]".
summary=$(grep -o 'Testing complete\. Ran .*' "$log" | tail -1 || true)
ran=$(sed -n 's/.*Ran \([0-9]*\) tests.*/\1/p' <<<"$summary")
passed=$(sed -n 's/.*passed: \([0-9]*\).*/\1/p' <<<"$summary")
if [ "$st" = 0 ] && [ -n "$ran" ] && [ "$ran" -gt 0 ] && [ "$ran" = "$passed" ] &&
	grep -q '\[PASSED\] workqueue_pi ' "$log"; then
	echo "$me: PASS: $label: ${summary#Testing complete. }"
	exit 0
fi
why="kunit.py exit $st, ${summary:-no test results}"
grep -q '\[PASSED\] workqueue_pi ' "$log" || why="$why, suite workqueue_pi did not pass"
echo "$me: FAIL: $label: $why; log: $log" >&2
exit 1
