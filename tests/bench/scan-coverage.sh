#!/usr/bin/env bash
# Completeness of a scan against a plain grep of the same tree.
#
#   tests/bench/scan-coverage.sh KERNEL OUT/scan.json [MISSES [SLICE]]
#
# Declarations: every line a grep finds declaring a spinlock_t or
# raw_spinlock_t object (fields, variables, DEFINE_SPINLOCK,
# DEFINE_PER_CPU), outside other architectures' arch/ folders, tools/,
# Documentation/ and the lock implementation itself, minus extern
# declarations and pointers; a line counts as found when the scan lists
# a lock declared there.  Call sites: the share of API sites the scan
# resolved to a lock identity.  Prints both; misses go to MISSES.  With
# SLICE (kernel,mm: a scan made with --only), only the declarations in
# those folders count.  Files the configuration does not build (not_built
# in scan.json) do not count.
set -euo pipefail
kernel=$1 scan=$2 misses=${3:-/dev/null} slice=${4:-}
# grep -E pattern of the slice's folders, or anything
in_slice='.'
[ -z "$slice" ] || in_slice="^($(echo "$slice" | sed 's|/*,|/\||g; s|/*$|/|'))"

arch=$(jq -r '.tree.arch' "$scan")

found=$(mktemp) greps=$(mktemp)
trap 'rm -f "$found" "$greps"' EXIT

jq -r '.locks[] | (.decls // [(.file + ":" + (.line|tostring))])[]' "$scan" |
	sort -u > "$found"

(cd "$kernel" && grep -rnE --include='*.c' --include='*.h' \
	'(^|[^A-Za-z0-9_])((raw_)?spinlock_t[[:space:]]+[A-Za-z_]|DEFINE_(RAW_)?SPINLOCK\(|DEFINE_PER_CPU[A-Z_]*\([[:space:]]*(raw_)?spinlock_t)' . ) |
	sed 's|^\./||' |
	grep -vE '^(tools|Documentation)/' |
	grep -vE "^arch/" | cat > "$greps.all" || true
(cd "$kernel" && grep -rnE --include='*.c' --include='*.h' \
	'(^|[^A-Za-z0-9_])((raw_)?spinlock_t[[:space:]]+[A-Za-z_]|DEFINE_(RAW_)?SPINLOCK\(|DEFINE_PER_CPU[A-Z_]*\([[:space:]]*(raw_)?spinlock_t)' "arch/$arch" ) >> "$greps.all" || true
grep -vE '^(include/linux/spinlock|include/linux/rwlock|kernel/locking/spinlock)' "$greps.all" |
	grep -vE ':[0-9]+:[[:space:]]*(extern|typedef|#[[:space:]]*define)[[:space:]]' |
	grep -vE ':[0-9]+:[[:space:]]*(\*|//)' |
	grep -vE 'spinlock_t[[:space:]]+\*' |
	grep -E "$in_slice" |
	cut -d: -f1,2 | sort -u |
	# files the configuration does not build are not covered (scan.json)
	grep -v -F -f <(jq -r '.not_built[]?.file | . + ":"' "$scan"; echo '//none//') \
	> "$greps"
rm -f "$greps.all"

total=$(wc -l < "$greps")
hit=$(comm -12 "$greps" "$found" | wc -l)
comm -23 "$greps" "$found" > "$misses"
printf 'declarations: %d of %d grep hits found (%.1f%%)\n' "$hit" "$total" \
	"$(echo "100 * $hit / $total" | bc -l)"
jq -r '.summary | "API call sites: \(.api_sites_resolved) of \(.api_sites) resolved (\(100 * .api_sites_resolved / .api_sites * 10 | floor / 10)%)"' "$scan"
