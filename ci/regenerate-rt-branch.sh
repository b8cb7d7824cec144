#!/usr/bin/env bash
# Regenerates the PREEMPT_RT branch of a kernel release with rtlock, checks
# it and collects what a reviewer needs.  Meant for CI (see
# ci/regenerate-rt-branch.yml and ci/github-regenerate-rt-branch.yml) but
# runs the same by hand on a Debian 12 machine, from the rtlock checkout:
#
#   RELEASE_TAG=v6.12.20 KERNEL_REPO=https://.../linux.git \
#   KERNEL_BRANCH=linux-6.12.y ci/regenerate-rt-branch.sh
#
# Steps (each is printed before it runs; the first failure stops the run
# with a non-zero exit status):
#   1. make deps, build tool/rtlock
#   2. fetch KERNEL_BRANCH and RELEASE_TAG from KERNEL_REPO into the kernel
#      clone, check the tag is on the branch, check the tag out (the
#      pristine tree)
#   3. rtlock branch CLONE --base RELEASE_TAG --name rt/RELEASE_TAG --force
#      -o OUT_DIR -C CACHE_DIR/rtlock
#   4. git worktrees of rt/RELEASE_TAG and of rt/RELEASE_TAG~1 (the
#      conversion, without the workqueue patch)
#   5. make verify KERNEL=<pristine> CONVERTED=<the conversion>
#   6. make kunit KERNEL=<converted>  (workqueue PI suite under qemu)
#   7. optionally push rt/RELEASE_TAG to RT_PUSH_URL
#
# Environment:
#   RELEASE_TAG    the release tag, e.g. v6.12.20 (required)
#   KERNEL_REPO    URL or path of the kernel git repository (required)
#   KERNEL_BRANCH  the branch the release is cut from, e.g. linux-6.12.y
#                  (required); the tag must be on it
#   CACHE_DIR      kept between runs: rtlock's facts and kbuild cache
#                  (CACHE_DIR/rtlock) (default .rtlock-cache)
#   WORK_DIR       the kernel clone, the worktree and the KUnit build
#                  (default .rtlock-work).  Keeping the clone between runs
#                  saves the fetch (a full clone of a stable tree is several
#                  GB; or set FETCH_DEPTH).  The KUnit build is not worth
#                  caching: the worktree is new each run, so every source
#                  is newer than the objects and kbuild rebuilds them all.
#   OUT_DIR        artifacts: report.html, classify.json, report.txt, summary.json, series/*.patch,
#                  kunit.log, steps.txt (default rtlock-out/ci)
#   FETCH_DEPTH    shallow fetch depth (default: full history); with a
#                  shallow fetch the tag-on-branch check is skipped
#   KUNIT_RT       1: run the KUnit suite on PREEMPT_RT as well; auto (the
#                  default): when the tree's x86 supports PREEMPT_RT; 0: no
#   JOBS           parallel jobs (default: nproc)
#   STRICT=1       fail when rtlock branch reports items to review (exit 1)
#   RT_PUSH_URL    if set, git push --force rt/RELEASE_TAG there
#   RTLOCK         the rtlock binary (default: tool/rtlock, built in step 1)
set -eu
set -o pipefail

me=regenerate-rt-branch
rtlock_dir=$(cd "$(dirname "$0")/.." && pwd)
: "${RELEASE_TAG:?set RELEASE_TAG (e.g. v6.12.20)}"
: "${KERNEL_REPO:?set KERNEL_REPO (URL or path of the kernel git repository)}"
: "${KERNEL_BRANCH:?set KERNEL_BRANCH (the branch the release is cut from)}"
CACHE_DIR=${CACHE_DIR:-.rtlock-cache}
WORK_DIR=${WORK_DIR:-.rtlock-work}
OUT_DIR=${OUT_DIR:-rtlock-out/ci}
FETCH_DEPTH=${FETCH_DEPTH:-}
KUNIT_RT=${KUNIT_RT:-auto}
JOBS=${JOBS:-$(nproc)}
STRICT=${STRICT:-0}
RT_PUSH_URL=${RT_PUSH_URL:-}
RTLOCK=${RTLOCK:-$rtlock_dir/tool/rtlock}

mkdir -p "$CACHE_DIR/rtlock" "$WORK_DIR" "$OUT_DIR"
abs() { (cd "$1" && pwd); }
CACHE_DIR=$(abs "$CACHE_DIR") WORK_DIR=$(abs "$WORK_DIR") OUT_DIR=$(abs "$OUT_DIR")
clone=$WORK_DIR/linux
converted=$WORK_DIR/rt
# the branch without its last commit (the workqueue patch, which changes
# code on purpose): what make verify compares with the pristine tree
conversion=$WORK_DIR/rt-conversion
kunit_build=$WORK_DIR/kunit
rt_branch=rt/$RELEASE_TAG
steps=$OUT_DIR/steps.txt
: >"$steps"

current=setup
# shellcheck disable=SC2317 # called by the trap
on_exit() {
	st=$?
	if [ "$st" != 0 ]; then
		echo "$me: FAILED at step '$current' (exit $st)" | tee -a "$steps" >&2
	fi
}
trap on_exit EXIT

step() {
	current=$1
	echo
	echo "==> [$(date -u +%H:%M:%S)] $1"
	echo "step: $1" >>"$steps"
}
run() {
	echo "+ $*"
	"$@"
}
# VERSION.PATCHLEVEL of a kernel tree (names make kunit's build folder).
kver() {
	sed -n 's/^\(VERSION\|PATCHLEVEL\) *= *\([0-9]*\).*/\2/p' "$1/Makefile" |
		head -2 | paste -sd.
}

echo "$me: release $RELEASE_TAG of $KERNEL_REPO ($KERNEL_BRANCH) -> branch $rt_branch"
echo "$me: cache $CACHE_DIR, work $WORK_DIR, out $OUT_DIR, jobs $JOBS"

step "1. dependencies and tool/rtlock"
run make -C "$rtlock_dir" deps
if [ "$RTLOCK" = "$rtlock_dir/tool/rtlock" ]; then
	run make -C "$rtlock_dir" -j"$JOBS" tool/rtlock
fi

step "2. fetch $RELEASE_TAG and $KERNEL_BRANCH"
if [ ! -d "$clone/.git" ]; then
	run git init -q "$clone"
	run git -C "$clone" remote add origin "$KERNEL_REPO"
else
	run git -C "$clone" remote set-url origin "$KERNEL_REPO"
fi
depth=()
[ -z "$FETCH_DEPTH" ] || depth=(--depth "$FETCH_DEPTH")
run git -C "$clone" fetch --no-tags --force "${depth[@]}" origin \
	"+refs/heads/$KERNEL_BRANCH:refs/remotes/origin/$KERNEL_BRANCH" \
	"+refs/tags/$RELEASE_TAG:refs/tags/$RELEASE_TAG"
if [ "$(git -C "$clone" rev-parse --is-shallow-repository)" = true ]; then
	echo "$me: shallow clone: not checking that $RELEASE_TAG is on $KERNEL_BRANCH"
else
	run git -C "$clone" merge-base --is-ancestor "$RELEASE_TAG^{commit}" \
		"refs/remotes/origin/$KERNEL_BRANCH" ||
		{ echo "$me: $RELEASE_TAG is not on $KERNEL_BRANCH" >&2; exit 3; }
fi
# The clone's own checkout is the pristine tree; the converted tree is a
# worktree of the new branch (removed first: they hold the old one).
for wt in "$converted" "$conversion"; do
	[ -e "$wt" ] || continue
	run git -C "$clone" worktree remove --force "$wt" || run rm -rf "$wt"
done
run git -C "$clone" worktree prune
run git -C "$clone" checkout -q --force --detach "$RELEASE_TAG^{commit}"
run git -C "$clone" clean -q -f -d -x

step "3. rtlock branch"
set +e
run "$RTLOCK" branch "$clone" --base "$RELEASE_TAG" --name "$rt_branch" \
	--force -o "$OUT_DIR" -C "$CACHE_DIR/rtlock"
st=$?
set -e
review=0
case $st in
0) ;;
1)
	review=1
	echo "$me: rtlock branch: done, with items to review (see $OUT_DIR/report.txt)" | tee -a "$steps"
	;;
*) exit "$st" ;;
esac
for f in report.html classify.json report.txt summary.json; do
	[ -f "$OUT_DIR/$f" ] || { echo "$me: rtlock branch wrote no $OUT_DIR/$f" >&2; exit 1; }
done
ls "$OUT_DIR"/series/*.patch >/dev/null ||
	{ echo "$me: rtlock branch wrote no $OUT_DIR/series/*.patch" >&2; exit 1; }
run git -C "$clone" diff --quiet HEAD ||
	{ echo "$me: rtlock branch changed the pristine checkout" >&2; exit 1; }

step "4. worktree of $rt_branch"
run git -C "$clone" worktree add -q --detach "$converted" "$rt_branch"
run git -C "$clone" worktree add -q --detach "$conversion" "$rt_branch~1"
run git -C "$clone" log --oneline "$RELEASE_TAG..$rt_branch"

step "5. make verify"
run make -C "$rtlock_dir" verify KERNEL="$clone" CONVERTED="$conversion"

step "6. make kunit"
ver=$(kver "$converted")
kunit_rc=0
run make -C "$rtlock_dir" kunit KERNEL="$converted" JOBS="$JOBS" \
	KUNIT_BUILD="$kunit_build" || kunit_rc=$?
cp "$kunit_build/$ver/kunit.log" "$OUT_DIR/kunit.log" 2>/dev/null || true
[ "$kunit_rc" = 0 ] || exit "$kunit_rc"
if [ "$KUNIT_RT" = auto ]; then
	KUNIT_RT=0
	if grep -q 'select ARCH_SUPPORTS_RT' "$converted/arch/x86/Kconfig"; then
		KUNIT_RT=1
	fi
fi
if [ "$KUNIT_RT" = 1 ]; then
	step "6b. make kunit RT=1"
	run make -C "$rtlock_dir" kunit KERNEL="$converted" JOBS="$JOBS" RT=1 \
		KUNIT_BUILD="$kunit_build" || kunit_rc=$?
	cp "$kunit_build/$ver-rt/kunit.log" "$OUT_DIR/kunit-rt.log" 2>/dev/null || true
	[ "$kunit_rc" = 0 ] || exit "$kunit_rc"
fi

if [ -n "$RT_PUSH_URL" ]; then
	step "7. push $rt_branch"
	run git -C "$clone" push --force "$RT_PUSH_URL" "refs/heads/$rt_branch:refs/heads/$rt_branch"
fi

current=finished
echo
echo "$me: $rt_branch regenerated, verified and tested; artifacts in $OUT_DIR" | tee -a "$steps"
if [ "$review" = 1 ]; then
	echo "$me: rtlock branch reported items to review: see $OUT_DIR/report.txt" | tee -a "$steps"
	[ "$STRICT" != 1 ] || exit 1
fi
exit 0
