#!/bin/sh
# tests/corpus/run.sh - `qbc import` on real question files people wrote
# (tests/corpus/files, listed with their repository, commit and licence in
# SOURCES.md).  For each file:
#   count  the questions in the source, counted by count.py (its own
#          rules, not qbc's reader), equal the questions carried into the
#          .qb plus the questions a warning names as not imported (the
#          descriptions, counted apart, named or not);
#   check  `qbc check` passes on the .qb (warnings allowed);
#   build  `qbc build --format all` exits 0.
# A file that fails a step for a cause another change is fixing is listed
# in expected-failures.tsv (file, step, the change, why): the suite says
# `expected failure (...)` and passes; if the file gets through that step
# (the fix landed), the suite fails until the line is removed.
. "$(dirname "$0")/../lib.sh"
# named ERE FILE: the warnings of FILE matching ERE, each counted with the
# others of its kind that qbc import folds into it ("(and 4 more like it").
named() {
	awk -v re="$1" '$0 ~ re { n++; if (match($0, /\(and [0-9]+ more like it/)) n += substr($0, RSTART + 5) + 0 }
		END { print n + 0 }' "$2"
}
HERE="$ROOT/tests/corpus"
T=$(tmpdir)
cd "$T" || exit 2
XF="$HERE/expected-failures.tsv"

# expected FILE: "STEP<TAB>ITEM<TAB>REASON" of FILE's line in the table, or nothing
expected() { awk -F '\t' -v f="$1" '$1 == f { print $2 "\t" $3 "\t" $4; exit }' "$XF"; }

n=0
for src in $(cd "$HERE/files" && find . -type f | sed 's|^\./||' | LC_ALL=C sort); do
	n=$((n + 1))
	d="$T/$n"
	mkdir -p "$d"
	set -- $(python3 "$HERE/count.py" "$HERE/files/$src")
	nq=${1:-?} nd=${2:-0}
	step="" why=""
	# --bank: the file names are not all bank ids (dots, capitals)
	"$QBC" import --bank corpus -o "$d/bank.qb" "$HERE/files/$src" >"$d/import.out" 2>"$d/import.err"
	irc=$?
	if [ ! -f "$d/bank.qb" ] || [ "$irc" -gt 1 ]; then
		step=import why="exit $irc, no bank written: $(grep -m 1 'error:' "$d/import.err")"
	else
		# The carried questions: the .qb's question lines ("12. id" at
		# the start of a line); when the bank passes the checks, the
		# count `qbc dump --json` gives too.
		carried=$(grep -cE '^[0-9]+\. [^ ]+$' "$d/bank.qb")
		if "$QBC" dump --json "$d/bank.qb" >"$d/dump.json" 2>/dev/null; then
			carried=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["questions"]))' "$d/dump.json")
		fi
		skipped=$(named 'warning: question .* is not imported: ' "$d/import.err")
		# Descriptions (text between questions) are counted apart: named
		# as not imported today, or carried as something other than a
		# question (a passage) once the bank has them.
		desc=$(named "warning: question .* is not imported: (a text without an answer block|qbc has no question type like Moodle's 'description')" "$d/import.err")
		line="$nq in the source ($nd descriptions) -> $carried carried + $((skipped - desc)) named in warnings (and $desc descriptions)"
		if [ "$nq" != "$((carried + skipped - desc))" ] || [ "$desc" -gt "$nd" ]; then
			step=count why="$line"
		elif [ "$carried" = 0 ]; then
			line="$line: nothing carried, no bank to check"
		elif ! "$QBC" check "$d/bank.qb" >"$d/check.out" 2>"$d/check.err"; then
			step=check why="$line; $(grep -c ' error: ' "$d/check.err") errors, the first: $(grep -m 1 ' error: ' "$d/check.err" | sed 's|.*error: ||')"
		elif ! "$QBC" build --format all -o "$d/out" "$d/bank.qb" >"$d/build.out" 2>"$d/build.err"; then
			step=build why="$line; $(grep -m 1 'error' "$d/build.err")"
		fi
	fi
	xf=$(expected "$src")
	xstep=$(printf '%s' "$xf" | cut -f 1)
	if [ -z "$step" ]; then
		if [ -n "$xf" ]; then
			fail "$src: passes every step, but expected-failures.tsv says it fails at $xstep: remove its line"
		else
			pass "$src"
			case $line in
			*"no bank to check") echo "ok   $src: $line" ;;
			*) echo "ok   $src: $line; check and build --format all pass" ;;
			esac
		fi
	elif [ "$step" = "$xstep" ]; then
		pass "$src"
		echo "xfail $src: expected failure ($(printf '%s' "$xf" | cut -f 2): $(printf '%s' "$xf" | cut -f 3)) at $step: $why"
	else
		fail "$src: fails at $step${xstep:+ (expected at $xstep)}: $why"
		sed -n '1,12p' "$d/$step.err" 2>/dev/null | sed 's/^/    /'
	fi
done
check "the corpus has 25 files or more" test "$n" -ge 25
# The files are the bytes SOURCES.md names (files.sha256), and every one
# is listed there.
check "files.sha256: every file unchanged" sh -c "cd '$HERE/files' && sha256sum --quiet -c ../files.sha256"
check "files.sha256: every file listed" test "$(wc -l <"$HERE/files.sha256")" = "$n"
check "SOURCES.md: every file listed" sh -c "cd '$HERE/files' && find . -type f | sed 's|^\\./||' | while read -r f; do grep -qF \"| \\\`\$f\\\` |\" ../SOURCES.md || { echo \"not in SOURCES.md: \$f\"; exit 1; }; done"
# Every line of the table names a file of the corpus.
while IFS="$(printf '\t')" read -r f rest; do
	case $f in '#'* | '') continue ;; esac
	check "expected-failures.tsv: $f is a corpus file" test -f "$HERE/files/$f"
done <"$XF"
finish
