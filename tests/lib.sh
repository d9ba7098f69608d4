# tests/lib.sh - sourced by every shell suite.  A suite calls check/pass/
# fail for each case and `finish` at the end; run.sh adds up the counts.
# QBC is the binary under test (the normal or the sanitizer build).
set -u
: "${QBC:?QBC must name the qbc binary}"
SUITE=$(basename "$(cd "$(dirname "$0")" && pwd)")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export NO_COLOR=1 SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-1764680000}"
# qbc speaks English in the tests, whatever the translator running them
# speaks (tests/i18n sets the language itself).
unset LANGUAGE LC_ALL
export LC_MESSAGES=C
npass=0
nfail=0
pass() { npass=$((npass + 1)); [ -n "${VERBOSE:-}" ] && echo "ok   $*"; return 0; }
fail() { nfail=$((nfail + 1)); echo "FAIL $*"; return 0; }
# check NAME COMMAND...: passes when the command exits 0.
check() { name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }
# A fresh temporary folder, removed at exit.
TMPROOT=$(mktemp -d "${TMPDIR:-/tmp}/qbc-test.XXXXXX")
trap 'rm -rf "$TMPROOT"' EXIT
tmpdir() { mktemp -d "$TMPROOT/t.XXXXXX"; }
# run CMD...: runs CMD with its output in $T/out, errors in $T/err and
# exit code in $T/rc (T: the suite's temporary folder); rc, out_has and
# err_has test them.
run() { "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
rc() { test "$(cat "$T/rc")" = "$1"; }
out_has() { grep -qF -- "$1" "$T/out"; }
err_has() { grep -qF -- "$1" "$T/err"; }
# golden NAME ACTUAL EXPECTED: passes when the file ACTUAL equals the
# reviewed file EXPECTED, and prints the diff when not.  With UPDATE=1 the
# expected file is rewritten from ACTUAL first (read the diff in git before
# committing).  Every golden comparison of every suite goes through here.
golden() {
	if [ -n "${UPDATE:-}" ] && ! cmp -s "$2" "$3" 2>/dev/null; then
		mkdir -p "$(dirname "$3")" && cp "$2" "$3" && echo "updated ${3#"$ROOT"/}"
	fi
	if diff -u "$3" "$2" >"$2.diff" 2>&1; then
		pass "$1"
	else
		fail "$1: differs from ${3#"$ROOT"/} (UPDATE=1 rewrites it)"
		sed 's/^/    /' "$2.diff" | head -n 60
	fi
}
finish() {
	echo "$SUITE: $npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}
