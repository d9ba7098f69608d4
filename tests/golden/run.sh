#!/bin/sh
# tests/golden/run.sh - bank -> JSON dump, compared with expected.json.
# A case folder holds input.qb (read from inside the folder, with its media).
#   UPDATE=1 rewrites expected.json (review the diff!);  CASE=name runs one.
. "$(dirname "$0")/../lib.sh"
for dir in "$ROOT"/tests/golden/*/; do
	name=$(basename "$dir")
	[ -z "${CASE:-}" ] || [ "$CASE" = "$name" ] || continue
	out="$TMPROOT/$name.json"
	(cd "$dir" && "$QBC" dump --json input.qb) >"$out" 2>"$out.err"
	rc=$?
	if [ "$rc" != 0 ]; then
		fail "$name: qbc dump exited $rc"
		sed 's/^/    /' "$out.err"
	elif [ -s "$out.err" ]; then
		fail "$name: unexpected diagnostics"
		sed 's/^/    /' "$out.err"
	else
		golden "$name" "$out" "${dir}expected.json"
	fi
done
finish
