#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run each libFuzzer target for SECONDS on a scratch copy of its seed
# corpus (tests/fuzz/corpus/NAME/, which stays as it is).
#
#   tests/fuzz/run.sh SECONDS tests/fuzz/bin/fuzz_NAME...   ("make fuzz")
#
# A crash leaves its input in tests/fuzz/crashes/ and fails the run; to
# replay one: tests/fuzz/bin/fuzz_NAME tests/fuzz/crashes/NAME-crash-...
set -u
cd "$(dirname "$0")/../.." || exit 2
secs=$1
shift
work=$(mktemp -d /tmp/rtlock-fuzz-XXXXXX) || exit 2
trap 'rm -rf "$work"' EXIT
mkdir -p tests/fuzz/crashes
failed=0
for bin in "$@"; do
	name=${bin##*/fuzz_}
	mkdir -p "$work/$name"
	rc=0
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -close_fd_mask=2 -print_final_stats=1 \
		-artifact_prefix="tests/fuzz/crashes/$name-" \
		"$work/$name" "tests/fuzz/corpus/$name" >"$work/$name.log" 2>&1 ||
		rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log")
	if [ $rc -eq 0 ]; then
		echo "fuzz $name: ok, ${runs:-?} runs in $secs s"
	else
		echo "fuzz $name: FAILED (exit $rc)"
		grep -E 'ERROR|SUMMARY|Test unit written|#[0-9]+ 0x' "$work/$name.log" | head -20
		failed=1
	fi
done
exit $failed
