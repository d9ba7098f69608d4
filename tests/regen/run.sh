#!/bin/sh
# tests/regen/run.sh - regenerating after edits: the revision record, the
# change report, stale translations and review, dry runs, failed and
# concurrent builds, SIGKILL mid-write, watch mode and incremental make.
# Format-specific checks (Anki mod, SCORM version) live in tests/anki and
# tests/scorm; this suite uses the JSON writer, which needs no templates.
. "$(dirname "$0")/../lib.sh"
T=$(tmpdir)
W="$T/w"
mkdir "$W"
cp "$ROOT/tests/regen/bank.qb" "$W/dp.qb"
# The report names the bank and counts its questions: both from the file.
ID=$(sed -n 's/^bank: //p' "$W/dp.qb")
NQ=$(grep -cE '^[0-9]+\. ' "$W/dp.qb")
cd "$W" || exit 2
B="$QBC build --format json -o out"
qtime() { grep "^question $1 $2 " dp.lock | awk '{print $5}'; }

export SOURCE_DATE_EPOCH=1764680000
run $B dp.qb
check "first build succeeds" rc 0
check "first build: all added, new record" out_has "$ID: $NQ added, 0 changed, 0 removed (new revision record)"
check "record created next to the bank" test -f dp.lock
check "record starts with its format line" sh -c "grep -v '^#' dp.lock | head -n 1 | grep -qx 'qbc-revisions 1'"
cp dp.lock "$T/lock1"
cp "out/$ID.json" "$T/json1"

# Nothing changed: same record, same output, even with a later clock.
export SOURCE_DATE_EPOCH=1764690000
run $B dp.qb
check "rebuild reports nothing" out_has "$ID: 0 added, 0 changed, 0 removed"
check "rebuild keeps the record byte-identical" cmp -s dp.lock "$T/lock1"
check "rebuild keeps the output byte-identical" cmp -s "out/$ID.json" "$T/json1"

# check and dry runs write nothing.
sed -i 's/Which communication operation keeps the model replicas synchronized at every step?/Which communication operation keeps the replicas in sync at every step?/' dp.qb
run $QBC check dp.qb
check "check never writes the record" cmp -s dp.lock "$T/lock1"
run $B --dry-run dp.qb
check "dry run: the report" out_has "$ID: 0 added, 1 changed (gradient-allreduce), 0 removed [dry run: nothing written]"
check "dry run: record untouched" cmp -s dp.lock "$T/lock1"
check "dry run: output untouched" cmp -s "out/$ID.json" "$T/json1"

# An English edit: one question changes, its Kiswahili may be stale.
run $B dp.qb
check "edit: the report names the question" out_has "$ID: 0 added, 1 changed (gradient-allreduce), 0 removed"
check "edit: English time moves to the new epoch" test "$(qtime gradient-allreduce en)" = "2025-12-02T15:40:00Z"
check "edit: Kiswahili time stays" test "$(qtime gradient-allreduce sw)" = "2025-12-02T12:53:20Z"
check "edit: other questions keep their time" test "$(qtime replica-per-gpu en)" = "2025-12-02T12:53:20Z"
check "edit: stale warning" err_has "warning: 'sw' text of question 'gradient-allreduce' prompt may be stale: 'en' changed"
# The bank's text is freed after the checks: the quote under a later
# warning comes from reading the file again.
SW=$(( $(grep -n 'keeps the replicas in sync at every step' dp.qb | cut -d: -f1) + 1 ))
check "edit: the stale warning quotes its line" \
	err_has "$(printf '%5d | ' "$SW")$(sed -n "${SW}p" dp.qb | cut -c1-60)"
run $QBC check dp.qb
check "stale warning persists in check" err_has "'sw' text of question 'gradient-allreduce' prompt may be stale"
check "check with a stale warning exits 0" rc 0
run $QBC check --werror dp.qb
check "--werror makes it an error" rc 1
cp dp.lock "$T/lock2"
run $QBC review --lang en dp.qb
check "review of another language clears nothing" out_has "$ID: 0 translations marked as reviewed"
run $QBC review --question gradient-allreduce dp.qb
check "review marks one translation" out_has "$ID: 1 translation marked as reviewed"
run $QBC check dp.qb
check "review clears the warning" test ! -s "$T/err"
run $B dp.qb
check "review changes no question time" test "$(qtime gradient-allreduce sw)" = "2025-12-02T12:53:20Z"

# Same second again: a second edit must still get a strictly newer time.
sed -i 's/keeps the replicas in sync at every step?/keeps the replicas in sync after every step?/' dp.qb
run $B dp.qb
check "second edit at the same epoch gets +1 s" test "$(qtime gradient-allreduce en)" = "2025-12-02T15:40:01Z"

# Add, remove, rename.
cat >>dp.qb <<'EOQ'

9. new-question
   en: Is this new?
   sw: Je, hili ni jipya?
   * en: Yes
     sw: Ndiyo
   - en: No
     sw: Hapana
   explanation:
     en: It was added last.
     sw: Liliongezwa mwisho.
EOQ
run $B dp.qb
check "add: reported" out_has "$ID: 1 added (new-question), 0 changed, 0 removed"
python3 - dp.qb <<'EOP'
import re, sys
p = sys.argv[1]
s = open(p, encoding='utf-8').read()
start = s.index('3. memory-limit')
end = s.index('4. nccl-algorithm')
open(p, 'w', encoding='utf-8').write(s[:start] + s[end:])
EOP
run $B dp.qb
check "remove: reported" out_has "$ID: 0 added, 0 changed, 1 removed (memory-limit)"
check "remove: says what it means" out_has "removed questions stay in learners' Anki collections"
check "remove: record forgets the question" sh -c "! grep -q ' memory-limit ' dp.lock"
sed -i 's/^9\. new-question$/9. brand-new-question/' dp.qb
run $B dp.qb
check "rename: reported as remove plus add" out_has "$ID: 1 added (brand-new-question), 0 changed, 1 removed (new-question)"
check "rename: warns that progress does not carry over" err_has "progress on the old id does not carry over"

# A changed bank id changes every GUID and identifier: warn.
sed -i "s/^bank: $ID\$/bank: $ID-2/" dp.qb
run $B dp.qb
check "bank id change: warning" err_has "the bank id changed from '$ID' to '$ID-2'"
check "bank id change: recorded" grep -qx "bank $ID-2" dp.lock
sed -i "s/^bank: $ID-2\$/bank: $ID/" dp.qb
run $B dp.qb
rm -f "out/$ID-2.json"

# A broken bank or a broken record: nothing written, exit 1.
cp dp.lock "$T/lock3"
cp "out/$ID.json" "$T/json3"
cp dp.qb "$T/good.qb"
sed -i 's/^   \* en: Yes$/   - en: Yes/' dp.qb
run $B dp.qb
check "broken bank: exit 1" rc 1
check "broken bank: record untouched" cmp -s dp.lock "$T/lock3"
check "broken bank: output untouched" cmp -s "out/$ID.json" "$T/json3"
cp "$T/good.qb" dp.qb
printf 'qbc-revisions 1\nrevision x y\n' >"$T/bad.lock"
cp "$T/bad.lock" dp.lock
run $B dp.qb
check "malformed record: exit 1" rc 1
check "malformed record: file:line diagnostic" err_has "dp.lock:2:1: error: malformed line in the revision record"
cp "$T/lock3" dp.lock

# A full disk (simulated with a file-size limit): exit 3, nothing broken.
sed -i 's/Is this new?/Is this really new?/' dp.qb
sh -c "trap '' XFSZ; ulimit -f 1; exec $B dp.qb" >"$T/out" 2>"$T/err"
check "full disk: exit 3" test $? = 3
check "full disk: clear error" err_has "cannot write"
check "full disk: record untouched" cmp -s dp.lock "$T/lock3"
check "full disk: output untouched" cmp -s "out/$ID.json" "$T/json3"
check "full disk: no temporary files left" sh -c "! ls -a out | grep -q tmp"
cp "$T/good.qb" dp.qb

# Parallel builds of the same bank: valid record and output, no leftovers.
sed -i 's/Is this new?/Is this new, really?/' dp.qb
pids=""
for i in 1 2 3 4 5 6; do
	$B dp.qb >"$T/par.$i" 2>&1 &
	pids="$pids $!"
done
okp=0
for p in $pids; do wait "$p" && okp=$((okp + 1)); done
check "parallel builds all succeed" test "$okp" = 6
check "parallel: exactly one reports the change" test "$(cat "$T"/par.* | grep -c '1 changed (brand-new-question)')" = 1
check "parallel: output is valid JSON" python3 -c "import json, sys; json.load(open(sys.argv[1]))" "out/$ID.json"
run $QBC check dp.qb
check "parallel: record is valid" rc 0
check "parallel: no temporary files left" sh -c "! ls -a . out | grep -q '\.tmp$'"

# SIGKILL mid-write: the previous output and record stay valid.
python3 - "$T/big.qb" <<'EOP'
import sys
with open(sys.argv[1], 'w') as f:
    f.write('bank: big\nlanguages: en sw\ntitle:\n  en: Big\n  sw: Kubwa\n')
    for i in range(3000):
        f.write(f'{i+1}. q{i}\n   en: Question {i} ' + 'text ' * 40 + f'\n   sw: Swali {i}\n'
                f'   * en: Right {i}\n     sw: Sahihi {i}\n   - en: Wrong {i}\n     sw: Kosa {i}\n'
                f'   explanation:\n     en: Because {i}.\n     sw: Kwa sababu {i}.\n')
EOP
cp "$T/big.qb" big.qb
$B big.qb >/dev/null 2>&1
cp big.lock "$T/biglock"
cp out/big.json "$T/bigjson"
killed=0
for delay in 0.02 0.05 0.1 0.2 0.3; do
	sed -i "s/^\(   en: Question 1 \)/\1x/" big.qb
	$B big.qb >/dev/null 2>&1 &
	p=$!
	sleep "$delay"
	kill -KILL "$p" 2>/dev/null && killed=$((killed + 1))
	wait "$p" 2>/dev/null
	python3 -c "import json; json.load(open('out/big.json'))" || { fail "SIGKILL after ${delay}s: output invalid"; continue; }
	"$QBC" check --format json big.qb >/dev/null 2>&1 || { fail "SIGKILL after ${delay}s: record invalid"; continue; }
	pass "SIGKILL after ${delay}s leaves valid files"
done
check "at least one build was killed mid-way" test "$killed" -gt 0

# Every format: two builds with nothing changed are byte-identical, even
# with a later clock; a killed build leaves valid packages.
ALL="$QBC build --format anki,scorm12,scorm2004 -o all"
cp "$T/good.qb" pk.qb
SOURCE_DATE_EPOCH=1764700000 $ALL pk.qb >/dev/null 2>&1
mkdir -p "$T/all1" && cp all/* "$T/all1/"
SOURCE_DATE_EPOCH=1764800000 $ALL pk.qb >"$T/out" 2>&1
for f in "$ID.apkg" "$ID.scorm12.zip" "$ID.scorm2004.zip"; do
	check "byte-identical rebuild: $f" cmp -s "all/$f" "$T/all1/$f"
done
valid_pkgs() {
	python3 - "$1" <<'EOP'
import sqlite3, sys, tempfile, zipfile, os
d = sys.argv[1]
with zipfile.ZipFile(os.path.join(d, 'big.apkg')) as z:
    assert z.testzip() is None
    with tempfile.TemporaryDirectory() as t:
        p = z.extract('collection.anki2', t)
        c = sqlite3.connect(p)
        assert c.execute('pragma integrity_check').fetchone()[0] == 'ok'
        assert c.execute('select count(*) from notes').fetchone()[0] == 6000
with zipfile.ZipFile(os.path.join(d, 'big.scorm2004.zip')) as z:
    assert z.testzip() is None and 'imsmanifest.xml' in z.namelist()
EOP
}
cp "$T/big.qb" big.qb
SOURCE_DATE_EPOCH=1764700000 $QBC build --format anki,scorm12,scorm2004 -o bigall big.qb >"$T/out" 2>"$T/err"
check "a format that fails stops the others" test ! -e bigall/big.scorm2004.zip
check "scorm12 refuses a bank whose saved state can exceed 4096 characters" err_has "4096"
SOURCE_DATE_EPOCH=1764700000 $QBC build --format anki,scorm2004 -o bigall big.qb >"$T/out" 2>"$T/err"
check "big packages are valid" valid_pkgs bigall
for delay in 0.05 0.2 0.5; do
	sed -i "s/^\(   en: Question 2 \)/\1y/" big.qb
	$QBC build --format anki,scorm2004 -o bigall big.qb >/dev/null 2>&1 &
	p=$!
	sleep "$delay"
	kill -KILL "$p" 2>/dev/null
	wait "$p" 2>/dev/null
	check "SIGKILL after ${delay}s: packages still valid" valid_pkgs bigall
done

# Missing templates: a clear error, exit 3, nothing written.
cp "$T/good.qb" nt.qb
QBC_TEMPLATES="$T/no-templates" $QBC build --format anki -o nt nt.qb >"$T/out" 2>"$T/err"
check "missing templates: exit 3" test $? = 3
check "missing templates: clear error" err_has "cannot read template"
check "missing templates: no package" test ! -e "nt/$ID.apkg"
check "missing templates: no record" test ! -e nt.lock

# Watch mode: a save triggers a rebuild and a report.
cp "$T/good.qb" watch.qb
$QBC watch --format json -o wout watch.qb >"$T/watch" 2>&1 &
wp=$!
i=0
while ! grep -q "watching 1 bank" "$T/watch" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "watch: starts with a build" grep -q "$NQ added" "$T/watch"
sed -i 's/Is this new?/Is this new at all?/' watch.qb
i=0
while ! grep -q "1 changed (brand-new-question)" "$T/watch" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "watch: rebuilds on save" grep -q "1 changed (brand-new-question)" "$T/watch"
check "watch: output written" test -f "wout/$ID.json"
kill "$wp" 2>/dev/null
wait "$wp" 2>/dev/null

# ---- stale warnings settle: a translation brought up to date settles it,
# and never makes its source stale, whether or not a build came between ----
# sbank FILE LANGS: a one-question bank in LANGS (fr first: the source).
sbank() {
	{
		printf 'bank: settle\nlanguages: %s\ntitle:\n' "$2"
		for l in $2; do printf '  %s: Optics %s\n' "$l" "$l"; done
		printf '\n1. prism\n'
		for l in $2; do printf '   %s: What does a prism do? (%s)\n' "$l" "$l"; done
		printf '   * fr: Elle la décompose\n'
		for l in $2; do [ "$l" = fr ] || printf '     %s: It splits it (%s)\n' "$l" "$l"; done
		printf '   - fr: Elle l’absorbe\n'
		for l in $2; do [ "$l" = fr ] || printf '     %s: It absorbs it (%s)\n' "$l" "$l"; done
		printf '   explanation:\n'
		for l in $2; do printf '     %s: Dispersion (%s).\n' "$l" "$l"; done
	} >"$1"
}
edit() { sed -i "s/What does a prism do? ($2)/What does a glass prism do? ($2)/" "$1"; }
S=$(tmpdir)
cd "$S" || exit 2
for langs in "fr ar" "fr ar en"; do
	n=$(echo "$langs" | wc -w)
	# Edit fr, build, update ar, build (the author's loop: edit, make).
	sbank s.qb "$langs"
	rm -f s.lock
	run $B s.qb
	edit s.qb fr
	run $B s.qb
	check "$n languages: the fr edit stales ar" err_has "'ar' text of question 'prism' prompt may be stale: 'fr' changed"
	edit s.qb ar
	run $B s.qb
	check "$n languages, built between: updating ar settles it" sh -c "! grep -qF \"'ar' text\" '$T/err'"
	check "$n languages, built between: fr does not become stale" sh -c "! grep -qF \"'fr' text\" '$T/err'"
	run $QBC check s.qb
	check "$n languages, built between: check agrees" sh -c "! grep -qE \"'(fr|ar)' text\" '$T/err'"
	if [ "$n" = 3 ]; then
		check "3 languages, built between: en is still stale for fr only" \
			err_has "'en' text of question 'prism' prompt may be stale: 'fr' changed"
		run $QBC review s.qb
		check "3 languages: review marks the one stale translation" \
			out_has "settle: 1 translation marked as reviewed:"
		check "3 languages: review says which" out_has "  question 'prism' prompt (en)"
	else
		check "2 languages, built between: no stale warning at all" sh -c "! grep -q 'may be stale' '$T/err'"
		run $QBC review s.qb
		check "2 languages: review has nothing to mark" out_has "settle: 0 translations marked as reviewed"
	fi
	# The same edits without a build between.
	sbank s.qb "$langs"
	rm -f s.lock
	run $B s.qb
	edit s.qb fr
	edit s.qb ar
	run $B s.qb
	check "$n languages, no build between: neither fr nor ar is stale" sh -c "! grep -qE \"'(fr|ar)' text\" '$T/err'"
	run $B s.qb
	check "$n languages, no build between: and stays so" sh -c "! grep -qE \"'(fr|ar)' text\" '$T/err'"
	[ "$n" = 3 ] && check "3 languages, no build between: en is stale for fr and ar" \
		err_has "'en' text of question 'prism' prompt may be stale: 'fr', 'ar' changed"
done

# A language added (by hand, in place, as qbc translate import does) stales
# none of the texts it is translated from, in that build or the next, for
# a bank of two languages growing to three and of three growing to four;
# an edit of the source afterwards stales every translation again.
for langs in "fr ar" "fr ar he"; do
	sbank s.qb "$langs"
	rm -f s.lock
	run $B s.qb
	sed -i -e "s/^languages: .*/& en/" -e "/^  fr: Optics fr/a\\  en: Optics en" \
		-e "/^   fr: What does a prism do/a\\   en: What does a prism do? (en)" \
		-e "/^   [*] fr:/a\\     en: It splits it (en)" -e "/^   - fr:/a\\     en: It absorbs it (en)" \
		-e "/^     fr: Dispersion/a\\     en: Dispersion (en)." s.qb
	run $B s.qb
	n=$(echo "$langs en" | wc -w)
	check "$n languages, en added: no text is stale" sh -c "rc() { test \"\$(cat '$T/rc')\" = 0; }; rc && ! grep -q 'may be stale' '$T/err'"
	run $B s.qb
	check "$n languages, en added: nor in the next build" sh -c "! grep -q 'may be stale' '$T/err'"
	edit s.qb fr
	run $B s.qb
	check "$n languages, en added, then fr edited: en is stale" \
		err_has "'en' text of question 'prism' prompt may be stale: 'fr' changed"
	check "$n languages, en added, then fr edited: ar is stale" \
		err_has "'ar' text of question 'prism' prompt may be stale: 'fr' changed"
done

# Incremental make: a second make does no work and says so.
M="$T/repo"
mkdir -p "$M/input" "$M/output"
cp -R "$ROOT/Makefile" "$ROOT/compiler" "$ROOT/templates" "$M/" 2>/dev/null
cp "$ROOT/tests/regen/bank.qb" "$M/input/$ID.qb"
mkdir -p "$M/build" && cp -R "$ROOT/build/obj" "$ROOT/build/qbc" "$ROOT/build/.deps-ok" "$M/build/" 2>/dev/null
touch "$M/build/obj"/* "$M/build/qbc"
make -C "$M" >"$T/make1" 2>&1
check "make: first run builds the bank" grep -q "qbc build -o output .*input/$ID.qb" "$T/make1"
make -C "$M" >"$T/make2" 2>&1
check "make: second run has nothing to do" grep -q "Nothing to be done" "$T/make2"
check "make: second run builds nothing" sh -c "! grep -q 'qbc build' '$T/make2'"
touch "$M/input/$ID.qb"
make -C "$M" >"$T/make3" 2>&1
check "make: a touched bank is rebuilt" grep -q "qbc build -o output .*input/$ID.qb" "$T/make3"
finish
