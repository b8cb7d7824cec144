#!/usr/bin/env bash
# rtlock benchmarks on a real kernel tree (not a test: nothing here fails
# on a number).  Runs, on this machine, one after the other:
#   floor     git grep / grep -rl of the spinlock API (reading the tree)
#   cold      rtlock scan with an empty cache
#   warm      rtlock scan again, nothing changed
#   classify  rtlock classify from the warm cache
#   audit     rtlock audit --no-whitelist (precision/recall vs raw locks)
# and prints wall time, CPU time and peak memory of each, the coverage
# figures of the scan against grep, and the audit table.
#
#   tests/bench/bench.sh KERNEL CACHE_DIR
set -euo pipefail
kernel=$1 cache=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
rtlock=$top/tool/rtlock
out=$(mktemp -d /tmp/rtlock-bench-XXXXXX)
log=$out/times
printf '%-10s %10s %10s %10s\n' stage wall_s cpu_s peak_MiB > "$log"

measure() {
	local name=$1
	shift
	/usr/bin/time -f "%e %U %S %M" -o "$out/$name.time" "$@" \
		> "$out/$name.out" 2> "$out/$name.err" || true
	read -r wall user sys rss < "$out/$name.time"
	printf '%-10s %10.1f %10.1f %10d\n' "$name" "$wall" \
		"$(echo "$user + $sys" | bc)" $((rss / 1024)) >> "$log"
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; tree: $kernel"
measure floor grep -rlE 'spin_lock|spinlock_t|spin_unlock|SPIN_LOCK' \
	--include='*.c' --include='*.h' "$kernel"
rm -rf "$cache"
measure cold "$rtlock" scan -q -C "$cache" -o "$out/cold" "$kernel"
measure warm "$rtlock" scan -q -C "$cache" -o "$out/warm" "$kernel"
measure classify "$rtlock" classify -q --no-whitelist -C "$cache" \
	-o "$out/classify" "$kernel"
measure audit "$rtlock" audit --no-whitelist -C "$cache" -o "$out/audit" \
	"$kernel"
cat "$log"
echo
"$top/tests/bench/scan-coverage.sh" "$kernel" "$out/warm/scan.json" \
	"$out/coverage-misses.txt"
echo
sed -n '/^audit:/,$p' "$out/audit.out"
echo "(outputs in $out)"
