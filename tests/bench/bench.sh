#!/bin/sh
# make bench (not a test suite): see bench.py.
#   BENCH_SIZES="1000 10000 100000"  the bank sizes (default 1000 10000)
#   BENCH_RUNS=3                     runs per figure; the best is shown
# Usage: bench.sh QBC FLOOR
exec python3 "$(dirname "$0")/bench.py" "$1" "$2" ${BENCH_SIZES:-1000 10000}
