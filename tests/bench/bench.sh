#!/usr/bin/env bash
# rtlock benchmarks on a real kernel tree (not a test: nothing here fails
# on a number).  Runs, on this machine, one after the other:
#   floor     grep -rl of the spinlock API (reading the tree)
#   cold      rtlock regen with an empty cache (scan, classify, convert,
#             branch, series)
#   warm      rtlock regen again, nothing changed (the branch's commits
#             are taken from its record)
#   rebuild   the same without the branch records: the conversion and
#             the commits made again, from the per-file caches
#   onefile   a warm regen after one C file changed: a hard-linked copy
#             of the tree is run once (onecopy: its release repository is
#             filled), then lib/ratelimit.c gets a new lock and a function
#             taking it, and the copy is run again
#   classify  rtlock classify from the warm cache
#   audit     rtlock audit --no-whitelist (precision/recall vs raw locks)
#   spatch    the peer: one plain spatch -j JOBS run of the same rules over
#             the same files (a copy of the tree)
#   nodiff    the same peer with --no-show-diff, as rtlock runs spatch:
#             without it spatch also prints each changed file's diff
#   next      with NEXT set: rtlock regen of the next release on the cache
#             the runs above filled
# and prints wall time, CPU time and peak memory of each, the seconds per
# stage of the regen runs, the ratios to the peers, the coverage of the
# scan against grep, and the audit table.
#
#   tests/bench/bench.sh KERNEL CACHE_DIR [NEXT_KERNEL]
#
# BENCH_ONLY="cold warm" runs a subset; JOBS (default: all cores).
set -euo pipefail
kernel=$1 cache=$2 next=${3:-}
top=$(cd "$(dirname "$0")/../.." && pwd)
rtlock=$top/tool/rtlock
jobs=${JOBS:-$(nproc)}
only=${BENCH_ONLY:-floor cold warm rebuild onefile classify audit spatch nodiff next}
out=$(mktemp -d /tmp/rtlock-bench-XXXXXX)
log=$out/times
printf '%-10s %10s %10s %10s\n' stage wall_s cpu_s peak_MiB > "$log"

want() { [[ " $only " == *" $1 "* ]]; }

measure() {
	local name=$1
	shift
	/usr/bin/time -f "%e %U %S %M" -o "$out/$name.time" "$@" \
		> "$out/$name.out" 2> "$out/$name.err" || true
	read -r wall user sys rss < <(tail -1 "$out/$name.time")
	printf '%-10s %10.1f %10.1f %10d\n' "$name" "$wall" \
		"$(echo "$user + $sys" | bc)" $((rss / 1024)) >> "$log"
}

wall() { awk -v s="$1" '$1 == s { print $2 }' "$log"; }

regen() {
	local name=$1 tree=$2
	measure "$name" "$rtlock" regen -q --force -j "$jobs" -C "$cache" \
		-o "$out/$name" --name "rt/bench-$name" "$tree"
	if [ -f "$out/$name/summary.json" ]; then
		printf '  %s seconds per stage: %s\n' "$name" \
			"$(jq -c '.seconds | map_values(. * 10 | round / 10)' \
				"$out/$name/summary.json")" >> "$out/stages"
	fi
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB;" \
	"tree: $kernel; jobs: $jobs; outputs: $out"
want floor && measure floor grep -rlE \
	'spin_lock|spinlock_t|spin_unlock|SPIN_LOCK' \
	--include='*.c' --include='*.h' "$kernel"
if want cold; then
	rm -rf "$cache"
	regen cold "$kernel"
fi
want warm && regen warm "$kernel"
if want rebuild; then
	rm -rf "$cache/branches"
	regen rebuild "$kernel"
fi
if want onefile; then
	copy=$out/onefile-tree
	cp -al "$kernel" "$copy"
	rm -rf "$copy/.git"
	regen onecopy "$copy"
	# a new file, not a write through the hard link into $kernel
	{ cat "$copy/lib/ratelimit.c"; cat <<'EOF'

/* added by rtlock's benchmark: a lock and a function that takes it */
static DEFINE_SPINLOCK(rtlock_bench_lock);
static unsigned long rtlock_bench_count;

static void __maybe_unused rtlock_bench_touch(void)
{
	spin_lock(&rtlock_bench_lock);
	rtlock_bench_count++;
	spin_unlock(&rtlock_bench_lock);
}
EOF
	} > "$copy/lib/ratelimit.c.new"
	mv "$copy/lib/ratelimit.c.new" "$copy/lib/ratelimit.c"
	regen onefile "$copy"
	rm -rf "$copy"
fi
want classify && measure classify "$rtlock" classify -q --no-whitelist \
	-j "$jobs" -C "$cache" -o "$out/classify" "$kernel"
want audit && measure audit "$rtlock" audit --no-whitelist -j "$jobs" \
	-C "$cache" -o "$out/audit" "$kernel"
# the same rules with nothing kept, on the same files, one run
peer() {
	local name=$1 extra=$2 files=$out/spatch-files

	mkdir -p "$out/spatch-tree"
	tar -C "$kernel" --exclude=./.git -cf - . | tar -C "$out/spatch-tree" -xf -
	: > "$out/empty"
	# one group per file, as spatch --dir does: files named together on
	# the command line are one group, transformed together (many times
	# slower, and one Timeout aborts them all)
	(cd "$kernel" && grep -rlE 'spin_lock|spinlock_t|SPIN_LOCK' \
		--include='*.c' --include='*.h' .) | sed 's/$/\n/' > "$files"
	measure "$name" sh -c "cd '$out/spatch-tree' && spatch \
		--sp-file '$top/cocci/lock_t.cocci' --no-includes \
		--include-headers --in-place --very-quiet $extra -j '$jobs' \
		-D keep_sites='$out/empty' -D keep_decls='$out/empty' -D raw=1 \
		--file-groups '$files'"
	rm -rf "$out/spatch-tree"
}
want spatch && peer spatch ""
want nodiff && peer nodiff --no-show-diff
[ -n "$next" ] && want next && regen next "$next"

cat "$log"
[ -f "$out/stages" ] && cat "$out/stages"
echo
if [ -n "$(wall warm)" ] && [ -n "$(wall cold)" ]; then
	echo "cold / warm: $(echo "scale=1; $(wall cold) / $(wall warm)" | bc)x"
fi
for p in spatch nodiff; do
	if [ -n "$(wall $p)" ] && [ -f "$out/cold/summary.json" ]; then
		echo "convert stage (cold) / $p peer: $(echo "scale=2; \
$(jq .seconds.convert "$out/cold/summary.json") / $(wall $p)" | bc)"
	fi
done
if [ -n "$(wall warm)" ] && [ "$(echo "$(wall floor) > 0" | bc)" = 1 ]; then
	echo "warm / grep floor: $(echo "scale=1; $(wall warm) / $(wall floor)" | bc)x"
fi
echo
if [ -f "$out/cold/scan.json" ]; then
	"$top/tests/bench/scan-coverage.sh" "$kernel" "$out/cold/scan.json" \
		"$out/coverage-misses.txt"
	echo
fi
[ -f "$out/audit/audit.txt" ] && cat "$out/audit/audit.txt"
echo "(outputs in $out)"
