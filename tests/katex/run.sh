#!/bin/sh
# tests/katex/run.sh - every formula of every test bank renders in the
# KaTeX the SCORM player ships (Debian's libjs-katex), checked with
# tests/tools/katex-check.mjs on `qbc dump --json` of each bank under
# tests/ (the shipped banks in input/ are tests/banks' part).  A bank
# `qbc dump` refuses is a diagnostics fixture and has nothing to render.
# browser/types/types.qb keeps one formula KaTeX rejects on purpose (the
# player must show its error): it must be reported, and nothing else.
. "$(dirname "$0")/../lib.sh"
HERE="$ROOT/tests/katex"
KC="node $ROOT/tests/tools/katex-check.mjs"
T=$(tmpdir)
cd "$ROOT" || exit 2

n=0
for bank in $(find tests -name '*.qb' -not -path '*/node_modules/*' | sort); do
	case "$bank" in tests/katex/*) continue ;; esac # the helper's own, below
	"$QBC" dump --json "$bank" >"$T/dump.json" 2>/dev/null || continue
	n=$((n + 1))
	if [ "$bank" = tests/browser/types/types.qb ]; then
		$KC "$bank" <"$T/dump.json" >"$T/out" 2>&1
		check "$bank: only the malformed formula kept on purpose is reported" \
			test "$(grep -c '^tests/browser/types/types.qb: question multi ([a-z]*, explanation_html): \$a^b^c\$: KaTeX parse error: Double superscript' "$T/out")" = 2
		check "$bank: and nothing else" grep -qx '6 formulas, 2 failed' "$T/out"
	elif $KC "$bank" <"$T/dump.json" >"$T/out" 2>&1; then
		pass "$bank: every formula renders"
	else
		fail "$bank: a formula KaTeX rejects"
		sed 's/^/    /' "$T/out" | head -n 20
	fi
done
check "found the test banks" test "$n" -gt 20

# The helper itself: a formula Debian's KaTeX 0.16 rejects ('\,^\circ',
# a superscript on a spacing command) is reported with the question, the
# language and the message; '{}^\circ' renders; display math too.
$QBC dump --json "$HERE/degree.qb" >"$T/degree.json" 2>/dev/null
$KC degree <"$T/degree.json" >"$T/out" 2>&1
check "helper: exits 1 on a formula KaTeX rejects" test $? = 1
check "helper: names the question, language and message" grep -qF \
	"degree: question bad-degree (sw, prompt_html): \$c = 4.18\\ \\mathrm{kJ/(kg\\,^\\circ C)}\$: KaTeX parse error: Got group of unknown type: 'internal'" "$T/out"
check "helper: inline math not in display mode (\\tag is refused there)" grep -qF \
	"degree: question display-only (en, explanation_html): \$\\tag{1} x\$: KaTeX parse error: \\tag works only in display equations" "$T/out"
check "helper: '{}^\\circ' and a display formula render" test "$(grep -c 'good-degree\|display-only (.., prompt' "$T/out")" = 0
check "helper: counts formulas and failures" grep -qx '8 formulas, 4 failed' "$T/out"
echo '{' | $KC broken >/dev/null 2>&1
check "helper: input that is not a dump exits 2" test $? = 2
finish
