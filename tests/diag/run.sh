#!/bin/sh
# tests/diag/run.sh - the diagnostics corpus.  Each <case>.qb holds one
# kind of mistake; `qbc check [<case>.args] <case>.qb` must print exactly
# <case>.stderr and exit with <case>.exit (1 when absent).
#   UPDATE=1 sh tests/diag/run.sh   rewrites the .stderr files (review the diff!)
#   CASE=dup-id sh tests/diag/run.sh runs one case
. "$(dirname "$0")/../lib.sh"
cd "$ROOT/tests/diag" || exit 2
for f in *.qb missing-file; do
	name=${f%.qb}
	[ -z "${CASE:-}" ] || [ "$CASE" = "$name" ] || continue
	args=$(cat "$name.args" 2>/dev/null)
	want_rc=$(cat "$name.exit" 2>/dev/null || echo 1)
	file=$f
	[ "$name" = missing-file ] && file=does-not-exist.qb
	out=$(mktemp "$TMPROOT/out.XXXXXX")
	# shellcheck disable=SC2086
	"$QBC" check $args "$file" 2>"$out" >/dev/null
	rc=$?
	if [ "$rc" = "$want_rc" ]; then
		pass "$name: exit $rc"
	else
		fail "$name: exit $rc, expected $want_rc"
		sed 's/^/    /' "$out"
	fi
	golden "$name" "$out" "$ROOT/tests/diag/$name.stderr"
done
finish
