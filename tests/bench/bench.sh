#!/bin/sh
# make bench (not a test suite): see bench.py.  BENCH_SIZES="100 1000" overrides the sizes.
exec python3 "$(dirname "$0")/bench.py" "$1" ${BENCH_SIZES:-100 1000 5000}
