#!/bin/sh
# tests/fuzz/libfuzzer.sh - runs the reader's coverage-guided fuzz target
# (fuzz_read.c, clang's libFuzzer under ASan and UBSan) for SECONDS.
#   sh tests/fuzz/libfuzzer.sh BUILD/fuzz/fuzz_read SECONDS
# `make fuzz FUZZ_SECONDS=N` runs it; `make test` runs it for 30 s when
# clang is installed.  The seeds are every bank under tests/ and input/
# (the diagnostics cases among them); what the fuzzer finds new goes to
# build/fuzz/corpus, kept between runs, and a crashing input to
# build/fuzz/crash-<sha1> (tests/README.md: how to reproduce it).
# Prints "1 passed, 0 failed" or, after a crash, leak or timeout, the
# fuzzer's report and "0 passed, 1 failed".
set -u
bin=$1
secs=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$(cd "$(dirname "$bin")" && pwd)
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
find "$root/tests" "$root/input" -name node_modules -prune -o -name '*.qb' -type f -print |
	while read -r f; do cp "$f" "$seeds/$(echo "$f" | sha1sum | cut -c1-12).qb"; done
mkdir -p "$out/corpus"
log="$out/fuzz.log"
# -close_fd_mask=2: the diagnostics of millions of bad banks are not shown
# (the fuzzer's own report still is).
"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	-dict="$here/qb.dict" -close_fd_mask=2 -artifact_prefix="$out/" -print_final_stats=1 \
	"$out/corpus" "$seeds" >"$log" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
	grep -E '^(stat::number_of_executed_units|stat::new_units_added)' "$log"
	grep -E 'Done [0-9]+ runs' "$log" | tail -n 1
	echo "1 passed, 0 failed"
else
	tail -n 60 "$log"
	echo "fuzz: the input is the crash-/leak-/timeout- file named above; reproduce with"
	echo "  $bin <that file>"
	echo "0 passed, 1 failed"
fi
exit "$rc"
