#!/bin/sh
# make bench (not a test suite): see bench.py.
#   BENCH_SIZES="1000 10000 100000"  the bank sizes (default 1000 10000)
#   BENCH_RUNS=3                     runs per figure; the median is shown
#   BENCH_STAT=best                  show the fastest run instead
#   BENCH_LANGS="100 300 1000 3000"  the languages series' sizes
#   BENCH_SERIES="real synthetic params languages translate moodlexml"  which series to run
# Usage: bench.sh QBC FLOOR
exec python3 "$(dirname "$0")/bench.py" "$1" "$2" ${BENCH_SIZES:-1000 10000}
