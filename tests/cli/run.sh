#!/bin/sh
# tests/cli/run.sh - command-line behaviour: help, version, usage errors,
# exit codes, colour, --lang, and that failed builds leave outputs alone.
. "$(dirname "$0")/../lib.sh"
BANK="$ROOT/tests/cli/bank.qb"
# What the assertions expect follows the bank: its id and its questions.
ID=$(sed -n 's/^bank: //p' "$BANK")
NQ=$(grep -cE '^[0-9]+\. ' "$BANK")
T=$(tmpdir)

# expect NAME WANT_RC COMMAND...: runs the command, keeps stdout/stderr.
expect() {
	name=$1 want=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" = "$want" ]; then pass "$name"; else fail "$name: exit $rc, expected $want"; sed 's/^/    /' "$T/err"; fi
}
has() { grep -q -- "$2" "$T/$1"; }
lines() { wc -l <"$T/$1" | tr -d ' '; }

expect "--help" 0 "$QBC" --help
check "--help lists the commands" has out "qbc build"
check "--help says where the format is" has out "input/README.md"
expect "--version" 0 "$QBC" --version
check "--version prints the version" has out "^qbc [0-9]"
expect "build --help" 0 "$QBC" build --help
check "build --help lists the formats" has out "json"
expect "check --help" 0 "$QBC" check --help

expect "no command" 2 "$QBC"
check "no command: one line and a hint" test "$(lines err)" = 2
check "no command: hint" has err "try 'qbc --help'"
expect "unknown command" 2 "$QBC" frobnicate
check "unknown command named" has err "unknown command 'frobnicate'"
expect "unknown option" 2 "$QBC" check --frob "$BANK"
check "unknown option named" has err "unknown option '--frob'"
check "unknown option hint" has err "try 'qbc check --help'"
expect "missing option argument" 2 "$QBC" build "$BANK" -o
expect "no bank" 2 "$QBC" check
expect "dump takes one bank" 2 "$QBC" dump --json "$BANK" "$BANK"
expect "unknown format" 2 "$QBC" build -o "$T/o" --format pdf "$BANK"
check "unknown format named" has err "unknown format 'pdf'"
expect "unknown --lang" 2 "$QBC" dump --json --lang fr "$BANK"
expect "missing bank file" 3 "$QBC" check "$T/nope.qb"
expect "stdout that cannot be written" 3 sh -c "'$QBC' --help >/dev/full"

# check writes nothing (GOOD: the bank with its one Moodle XML warning,
# all-or-nothing scoring of several right options, accepted)
GOOD="$T/good.qb"
sed 's/^\(   \)type: multiple$/&\n\1scoring: partial/' "$BANK" >"$GOOD"
mkdir "$T/w" && cp "$GOOD" "$T/w/b.qb"
expect "check a good bank" 0 sh -c "cd '$T/w' && '$QBC' check b.qb"
check "check writes nothing" test "$(ls "$T/w")" = "b.qb"
check "check prints no diagnostic on success" test ! -s "$T/err"
check "check says what it read: one line per bank" \
	test "$(cat "$T/out")" = "$ID: $NQ questions in en, sw: no problems"
expect "check --quiet" 0 "$QBC" check --quiet "$GOOD"
check "check --quiet prints nothing" sh -c "test ! -s '$T/out' && test ! -s '$T/err'"
expect "check --format moodlexml (a warning)" 0 "$QBC" check --format moodlexml "$BANK"
check "check counts the warnings in its line" \
	test "$(cat "$T/out")" = "$ID: $NQ questions in en, sw: 1 warning"
check "a format's warning names its format" has err "^$BANK:[0-9:]* warning: \[moodlexml\] question 'gradient-allreduce'"

# check judges the formats make writes: a bank that passed 'qbc check'
# builds with 'make' (--format make) without a new message, and the
# warnings of both are the same lines
expect "check, no --format (a Moodle XML warning)" 0 "$QBC" check "$BANK"
check "check without --format judges Moodle XML, which make writes" \
	test "$(cat "$T/out")" = "$ID: $NQ questions in en, sw: 1 warning"
grep ': warning: ' "$T/err" >"$T/check-warnings"
mkdir "$T/m" && cp "$BANK" "$T/m/b.qb"
expect "build --format make (a Moodle XML warning)" 0 "$QBC" build -o "$T/m/out" --format make "$T/m/b.qb"
grep ': warning: ' "$T/err" | sed "s|$T/m/b.qb|$BANK|" >"$T/make-warnings"
check "check and make report the same warnings" cmp -s "$T/check-warnings" "$T/make-warnings"
check "... and there is one" test "$(wc -l <"$T/make-warnings")" = 1
mkdir "$T/g" && cp "$GOOD" "$T/g/b.qb"
expect "build --format make of a bank check passed" 0 "$QBC" build -o "$T/g/out" --format make "$T/g/b.qb"
check "make of a bank check passed prints no diagnostic" test ! -s "$T/err"
expect "check --help" 0 "$QBC" check --help
check "check --help: its default formats are make's" has out "default: the ones marked m"
printf 'bank: x\n' >"$T/bad0.qb"
expect "check of a bank with errors" 1 "$QBC" check "$T/bad0.qb"
check "no line for a bank that was not checked" test ! -s "$T/out"

# --max-errors caps the errors shown, as clang's -ferror-limit, and says how many more
python3 - "$T/dups.qb" <<'EOP'
import sys
with open(sys.argv[1], 'w') as f:
    f.write('bank: dups\nlanguages: en\ntitle:\n  en: Dups\n\n')
    for i in range(70):
        f.write(f'{i + 1}. same\n   en: Q?\n   * en: Yes\n   - en: No\n   explanation:\n     en: Yes.\n\n')
EOP
expect "69 duplicate ids" 1 "$QBC" check "$T/dups.qb"
check "at most 50 errors shown by default" test "$(grep -c ': error:' "$T/err")" = 50
check "their notes only with them" test "$(grep -c ': note:' "$T/err")" = 50
check "the count is of every error" has err "^69 errors generated"
check "the last line says how many more" \
	test "$(tail -n 1 "$T/err")" = "qbc: 19 more errors were not shown after the first 50; '--max-errors 0' shows them all"
expect "--max-errors 3" 1 "$QBC" check --max-errors 3 "$T/dups.qb"
check "--max-errors 3 shows 3" test "$(grep -c ': error:' "$T/err")" = 3
check "--max-errors 3: 66 more" has err "qbc: 66 more errors were not shown after the first 3"
expect "--max-errors 0" 1 "$QBC" check --max-errors 0 "$T/dups.qb"
check "--max-errors 0 shows all" test "$(grep -c ': error:' "$T/err")" = 69
check "--max-errors 0: no line about more" sh -c "! grep -q 'more error' '$T/err'"
expect "--max-errors in build" 1 "$QBC" build --max-errors 1 -o "$T/dout" "$T/dups.qb"
check "build honours --max-errors" test "$(grep -c ': error:' "$T/err")" = 1
expect "--max-errors x" 2 "$QBC" check --max-errors x "$T/dups.qb"
check "--max-errors x: says so" has err "not a number of errors"

# dump: valid, deterministic JSON; --lang limits the languages
expect "dump --json" 0 "$QBC" dump --json "$BANK"
cp "$T/out" "$T/dump1"
check "dump is valid JSON with $NQ questions" python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['id']==sys.argv[2] and len(d['questions'])==int(sys.argv[3])" "$T/dump1" "$ID" "$NQ"
"$QBC" dump --json "$BANK" >"$T/dump2" 2>/dev/null
check "dump is deterministic" cmp -s "$T/dump1" "$T/dump2"
expect "dump --lang sw" 0 "$QBC" dump --json --lang sw "$BANK"
check "--lang sw keeps only sw" python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['languages']==['sw'] and all(list(q['prompt'])==['sw'] for q in d['questions'])" "$T/out"

# several banks: every problem of every bank, one exit code
printf 'bank: x\n' >"$T/bad.qb"
expect "check good + bad" 1 "$QBC" check "$BANK" "$T/bad.qb"
check "the bad bank is reported" has err "bad.qb:1:1: error"

# colour only on a terminal, never with NO_COLOR or when piped
check "no colour when piped" sh -c "! grep -q \"$(printf '\033')\" '$T/err'"
if command -v script >/dev/null 2>&1; then
	env -u NO_COLOR TERM=xterm script -qec "'$QBC' check '$T/bad.qb'" /dev/null >"$T/tty" 2>&1
	check "colour on a terminal" grep -q "$(printf '\033')\[" "$T/tty"
	NO_COLOR=1 TERM=xterm script -qec "'$QBC' check '$T/bad.qb'" /dev/null >"$T/tty" 2>&1
	check "NO_COLOR turns colour off" sh -c "! grep -q \"$(printf '\033')\" '$T/tty'"
fi

# a failed build leaves the earlier output untouched and writes nothing new
mkdir "$T/b" && cp "$BANK" "$T/b/b.qb"
expect "build json" 0 "$QBC" build -o "$T/b/out" --format json "$T/b/b.qb"
cp "$T/b/out/$ID.json" "$T/before.json"
sed -i 's/^\(   \)\* en: A full copy/\1- en: A full copy/' "$T/b/b.qb"
expect "build a broken bank" 1 "$QBC" build -o "$T/b/out" --format json "$T/b/b.qb"
check "earlier output untouched" cmp -s "$T/b/out/$ID.json" "$T/before.json"
check "no temporary files left" test "$(ls -A "$T/b/out")" = "$ID.json"

# --format all is every format in the registry; --format make the ones make builds
expect "build --help" 0 "$QBC" build --help
for f in anki scorm12 scorm2004 html csv json all make; do
	check "build --help lists format $f" grep -q "^  .. *$f " "$T/out"
done
mkdir "$T/f" && cp "$BANK" "$T/f/b.qb"
id=$(sed -n 's/^bank: *//p' "$BANK")
expect "build --format all" 0 "$QBC" build -o "$T/f/all" --format all "$T/f/b.qb"
# QTI: one package per language (<id>.<lang>.qti.zip)
qti=$(for l in $(sed -n 's/^languages: *//p' "$BANK"); do echo "$id.$l.qti.zip"; done)
qti3=$(echo "$qti" | sed 's/qti\.zip$/qti3.zip/')
sorted() { printf '%s\n' "$@" | sort | tr '\n' ' '; }
check "--format all writes every format" test "$(ls "$T/f/all" | sort | tr '\n' ' ')" = "$(sorted $id.apkg $id.csv $id.html $id.json $id.moodle.xml $qti $qti3 $id.scorm12.zip $id.scorm2004.zip)"
expect "build --format make" 0 "$QBC" build -o "$T/f/make" --format make "$T/f/b.qb"
check "--format make writes what make builds" test "$(ls "$T/f/make" | sort | tr '\n' ' ')" = "$(sorted $id.apkg $id.html $id.moodle.xml $qti $id.scorm12.zip $id.scorm2004.zip)"

# a 10 MB line: the quote is a window around the caret, not the line
python3 - "$T/long.qb" <<'EOP'
import sys
words = 'word ' * 2000000
open(sys.argv[1], 'w').write('bank: long\nlanguages: en sw\ntitle:\n  en: ' + words + '![x](nope.png) ' + words + '\n  sw: Ndefu\n')
EOP
expect "a 10 MB line" 1 "$QBC" check "$T/long.qb"
check "a 10 MB line gives little stderr" test "$(wc -c <"$T/err")" -lt 4000
check "the cut is shown" grep -q '^    4 | \.\.\..*\.\.\.$' "$T/err"

# 'error:' always means exit 1 and nothing written: a bad SOURCE_DATE_EPOCH under --werror
mkdir "$T/sde" && cp "$BANK" "$T/sde/b.qb"
expect "bad SOURCE_DATE_EPOCH under --werror" 1 env SOURCE_DATE_EPOCH=abc "$QBC" build --werror -o "$T/sde/out" --format json "$T/sde/b.qb"
check "bad SOURCE_DATE_EPOCH under --werror: an error" has err "error: SOURCE_DATE_EPOCH='abc'"
check "bad SOURCE_DATE_EPOCH under --werror: nothing written" sh -c "test ! -e '$T/sde/out/$ID.json' && test ! -e '$T/sde/b.lock'"

# an output folder that cannot be created: exit 3
: >"$T/file"
expect "unwritable output folder" 3 "$QBC" build -o "$T/file/sub" --format json "$BANK"
check "says which folder" has err "cannot create output folder"
finish
