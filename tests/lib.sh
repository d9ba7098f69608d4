# tests/lib.sh - sourced by every shell suite.  A suite calls check/pass/
# fail for each case and `finish` at the end; run.sh adds up the counts.
# QBC is the binary under test (the normal or the sanitizer build).
set -u
: "${QBC:?QBC must name the qbc binary}"
SUITE=$(basename "$(cd "$(dirname "$0")" && pwd)")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export NO_COLOR=1 SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-1764680000}"
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
finish() {
	echo "$SUITE: $npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}
