#!/bin/sh
# tests/rebuild/run.sh - an edit must reach the learner, and a build
# writes everything or nothing: pictures count as content (record, report,
# Anki mod, SCORM version, watch, make), --werror stops a rename, one
# failing format stops the others, two banks may not share an id, and
# review rejects ids and languages the bank does not have.  Every bank is
# made here, under a temporary folder.
. "$(dirname "$0")/../lib.sh"
T=$(tmpdir)
W="$T/w"
mkdir -p "$W/media"
cd "$W" || exit 2
# wait_for FILE TEXT: up to 10 s for TEXT to appear in FILE.
wait_for() {
	i=0
	while ! grep -qF -- "$2" "$1" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	grep -qF -- "$2" "$1"
}

# bank FILE ID: a two-question bank whose first question shows media/pic.png.
bank() {
	cat >"$1" <<EOQ
bank: $2
languages: en sw
title:
  en: Pictures
  sw: Picha

1. with-picture
   en: What does the picture show? ![a GPU](media/pic.png)
   sw: Picha inaonyesha nini? ![GPU](media/pic.png)
   * en: A GPU
     sw: GPU
   - en: A CPU
     sw: CPU
   explanation:
     en: It is a GPU.
     sw: Ni GPU.

2. plain
   en: Is this plain?
   sw: Je, hili ni la kawaida?
   * en: Yes
     sw: Ndiyo
   - en: No
     sw: Hapana
   explanation:
     en: It has no picture.
     sw: Haina picha.
EOQ
}
# A picture's bytes: PNG-like, different for each argument.
picture() { printf '\211PNG\r\n\032\nqbc test picture %s\n' "$1" >media/pic.png; }

# ---- a replaced picture is a change ----
bank pic.qb pics
picture one
export SOURCE_DATE_EPOCH=1764680000
run $QBC build --format anki,scorm12 -o out pic.qb
check "picture bank builds" rc 0
cp pic.lock "$T/lock1"
notes() { # the (guid, mod) of every note of out/pics.apkg, sorted
	rm -rf "$T/apkg" && mkdir "$T/apkg" && unzip -q -o out/pics.apkg -d "$T/apkg" &&
		sqlite3 "$T/apkg/collection.anki2" "select guid, mod from notes order by guid"
}
manifest_version() {
	unzip -p out/pics.scorm12.zip imsmanifest.xml | grep -o '<manifest[^>]*' | grep -o ' version="[^"]*"'
}
notes >"$T/notes1"
manifest_version >"$T/version1"

export SOURCE_DATE_EPOCH=1764690000
run $QBC build --format anki,scorm12 -o out pic.qb
check "unchanged picture: nothing changed" out_has "pics: 0 added, 0 changed, 0 removed"
check "unchanged picture: record unchanged" cmp -s pic.lock "$T/lock1"

picture two
run $QBC build --format anki,scorm12 -o out pic.qb
check "replaced picture: build succeeds" rc 0
check "replaced picture: the report names the question" out_has "pics: 0 added, 1 changed (with-picture), 0 removed"
check "replaced picture: the question's hash changes in the record" \
	sh -c "! grep -q '^question with-picture en ' '$T/lock1' || test \"\$(grep '^question with-picture en ' pic.lock)\" != \"\$(grep '^question with-picture en ' '$T/lock1')\""
check "replaced picture: the other question's record stays" \
	test "$(grep '^question plain ' pic.lock)" = "$(grep '^question plain ' "$T/lock1")"
notes >"$T/notes2"
check "replaced picture: its two notes get a newer mod, the others keep theirs" \
	test "$(diff "$T/notes1" "$T/notes2" | grep -c '^>')" = 2
manifest_version >"$T/version2"
check "replaced picture: the SCORM manifest version goes up" \
	sh -c "test -s '$T/version2' && ! cmp -s '$T/version1' '$T/version2'"
run $QBC build --format anki,scorm12 -o out pic.qb
check "replaced picture: the next build reports nothing" out_has "pics: 0 added, 0 changed, 0 removed"

# watch rebuilds when a picture the bank shows is saved.
$QBC watch --format json -o wout pic.qb >"$T/watch" 2>&1 &
wp=$!
check "watch: starts" wait_for "$T/watch" "watching 1 bank"
picture three
check "watch: a saved picture rebuilds the bank" wait_for "$T/watch" "pics: 0 added, 1 changed (with-picture)"
kill "$wp" 2>/dev/null
wait "$wp" 2>/dev/null

# make rebuilds a bank when a picture under input/ changes.
M="$T/repo"
mkdir -p "$M/input/media" "$M/output" "$M/build"
cp -R "$ROOT/Makefile" "$ROOT/compiler" "$ROOT/templates" "$M/" 2>/dev/null
cp -R "$ROOT/build/obj" "$ROOT/build/qbc" "$ROOT/build/.deps-ok" "$M/build/" 2>/dev/null
touch "$M/build/obj"/* "$M/build/qbc"
bank "$M/input/pic.qb" pics
(cd "$M/input" && picture one)
make -C "$M" >"$T/make1" 2>&1
check "make: builds the bank" grep -q "qbc build -o output .*input/pic.qb" "$T/make1"
make -C "$M" >"$T/make2" 2>&1
check "make: then has nothing to do" grep -q "Nothing to be done" "$T/make2"
sleep 1
(cd "$M/input" && picture two)
make -C "$M" >"$T/make3" 2>&1
check "make: a changed picture rebuilds the bank" grep -q "1 changed (with-picture)" "$T/make3"
# The formats qbc's help marks 'm', as the registry says.
# A format written once per language names the bank's two (en sw).
want=$("$QBC" build --help | sed -n 's|^  .m [a-z0-9]* .*written as DIR/<bank-id>||p' |
	sed 's/^/pics/' | awk '/<lang>/ { for (l = 1; l <= 2; l++) { x = $0; sub(/<lang>/, l == 1 ? "en" : "sw", x); print x }; next } 1' |
	sort | tr '\n' ' ')
check "make: builds the registry's make formats ($want)" \
	sh -c "test -n '$want' && test \"\$(ls '$M/output' | sort | tr '\n' ' ')\" = '$want'"

# ---- --werror and a rename ----
bank ren.qb renames
run $QBC build --format json -o rout ren.qb
cp ren.lock "$T/renlock"
cp rout/renames.json "$T/renjson"
sed -i 's/^2\. plain$/2. plain-renamed/' ren.qb
line=$(grep -n '^2\. plain-renamed$' ren.qb | cut -d: -f1)
run $QBC build --werror --format json -o rout ren.qb
check "rename under --werror: exit 1" rc 1
check "rename under --werror: an error" err_has "error: question id 'plain-renamed' is new while 'plain' was removed"
check "rename under --werror: record untouched" cmp -s ren.lock "$T/renlock"
check "rename under --werror: output untouched" cmp -s rout/renames.json "$T/renjson"
run $QBC check ren.qb
check "check reports the rename: exit 0" rc 0
check "check reports the rename as a warning at the new id" err_has "ren.qb:$line:4: warning: question id 'plain-renamed' is new"
run $QBC check --werror ren.qb
check "check --werror fails on the rename" rc 1
run $QBC build --format json -o rout ren.qb
check "rename without --werror: built, with the warning" sh -c "test \"\$(cat '$T/rc')\" = 0 && grep -q 'progress on the old id does not carry over' '$T/err'"

# ---- --werror is honest: every format's warnings run before anything is written ----
# mbank FILE KIND: a bank with the one Moodle XML warning KIND.
mbank() {
	{
		printf 'bank: mw-%s\nlanguages: en sw\ntitle:\n  en: W\n  sw: W\n\n1. q\n' "$2"
		case $2 in
		pinned) printf '   shuffle: yes\n   en: Which?\n   sw: Ipi?\n   * en: This\n     sw: Hii\n   - en: That\n     sw: Ile\n   -! en: None of these\n      sw: Hakuna\n' ;;
		multiple) printf '   type: multiple\n   scoring: all-or-nothing\n   en: Pick two.\n   sw: Chagua mbili.\n   * en: a\n     sw: a\n   * en: b\n     sw: b\n   - en: c\n     sw: c\n' ;;
		matching) printf '   type: matching\n   scoring: all-or-nothing\n   en: Match.\n   sw: Linganisha.\n   * en: one => 1\n     sw: moja => 1\n   * en: two => 2\n     sw: mbili => 2\n' ;;
		cloze) printf '   type: cloze\n   scoring: all-or-nothing\n   en: Water {{evaporates}} and {{condenses}}.\n   sw: Maji {{huvukiza}} na {{hugandamana}}.\n' ;;
		esac
		printf '   explanation:\n     en: Because.\n     sw: Kwa sababu.\n'
	} >"$1"
}
for kind in pinned multiple matching cloze; do
	mbank "mw-$kind.qb" "$kind"
	run $QBC check --format moodlexml "mw-$kind.qb"
	check "Moodle XML $kind warning: check reports it" sh -c "test \"\$(cat '$T/rc')\" = 0 && grep -q 'warning: .*Moodle' '$T/err'"
	run $QBC check --werror --format make "mw-$kind.qb"
	check "Moodle XML $kind warning: check --werror exits 1" rc 1
	check "Moodle XML $kind warning: check --werror says error:" err_has "error:"
	run $QBC build --werror --format make -o "mwout-$kind" "mw-$kind.qb"
	check "Moodle XML $kind warning: build --werror exits 1" rc 1
	check "Moodle XML $kind warning: build --werror writes nothing" \
		sh -c "test -z \"\$(ls -A 'mwout-$kind')\" && test ! -e 'mw-$kind.lock'"
	run $QBC build --format make -o "mwout-$kind" "mw-$kind.qb"
	check "Moodle XML $kind warning: without --werror the bank builds" \
		sh -c "test \"\$(cat '$T/rc')\" = 0 && test -f 'mwout-$kind/mw-$kind.moodle.xml'"
done
# A rebuild (the record there) reports the record's warnings, then the
# formats' rules, and stops at the first step with an error: under
# --werror it writes nothing, whichever step stopped it.
# (before FILE PATTERN1 PATTERN2: PATTERN1's first line is before PATTERN2's.)
before() {
	a=$(grep -n -- "$2" "$1" | head -1 | cut -d: -f1)
	b=$(grep -n -- "$3" "$1" | head -1 | cut -d: -f1)
	test -n "$a" && test -n "$b" && test "$a" -lt "$b"
}
sed -i 's/en: Pick two\./en: Pick two of them./' mw-multiple.qb
cp mw-multiple.lock "$T/mwlock"
cp mwout-multiple/mw-multiple.moodle.xml "$T/mwxml"
run $QBC build --werror --format make -o mwout-multiple mw-multiple.qb
check "rebuild --werror, stale: exit 1 at the stale translation" \
	sh -c "test \"\$(cat '$T/rc')\" = 1 && grep -q 'error: .*may be stale' '$T/err' && ! grep -q 'Moodle' '$T/err'"
check "rebuild --werror, stale: record untouched" cmp -s mw-multiple.lock "$T/mwlock"
check "rebuild --werror, stale: output untouched" cmp -s mwout-multiple/mw-multiple.moodle.xml "$T/mwxml"
run $QBC build --format make -o mwout-multiple mw-multiple.qb
check "rebuild: built" sh -c "test \"\$(cat '$T/rc')\" = 0 && ! cmp -s mwout-multiple/mw-multiple.moodle.xml '$T/mwxml'"
check "rebuild: the stale translation, then the Moodle XML rule" \
	before "$T/err" "warning: .*may be stale" "warning: .*Moodle"
run $QBC review mw-multiple.qb
check "rebuild: the translation reviewed" rc 0
cp mw-multiple.lock "$T/mwlock"
cp mwout-multiple/mw-multiple.moodle.xml "$T/mwxml"
run $QBC build --werror --format make -o mwout-multiple mw-multiple.qb
check "rebuild --werror, the early work's rule: exit 1" rc 1
check "rebuild --werror, the early work's rule: an error, nothing stale" \
	sh -c "grep -q 'error: .*Moodle' '$T/err' && ! grep -q 'stale' '$T/err'"
check "rebuild --werror, the early work's rule: record untouched" cmp -s mw-multiple.lock "$T/mwlock"
check "rebuild --werror, the early work's rule: output untouched" \
	sh -c "cmp -s mwout-multiple/mw-multiple.moodle.xml '$T/mwxml' && test -z \"\$(ls -A mwout-multiple | grep -v '^mw-multiple\\.')\""
# The label catalogues' warning (a language without user-interface labels)
# is check's too, and stops a build under --werror before anything is written.
sed 's/^languages: en sw$/languages: en de/; s/^\( *\)sw:/\1de:/' "mw-pinned.qb" >labels.qb
run $QBC check labels.qb
check "labels: check warns about a language without labels" \
	sh -c "test \"\$(cat '$T/rc')\" = 0 && grep -q \"warning: .*user-interface labels for\" '$T/err'"
run $QBC check --werror labels.qb
check "labels: check --werror exits 1" rc 1
run $QBC build --werror --format anki -o lout labels.qb
check "labels: build --werror writes nothing" sh -c "test \"\$(cat '$T/rc')\" = 1 && test ! -e lout/mw-pinned.apkg"
# A format's errors are check's too (a SCORM package has option ids a..z).
python3 - many.qb <<'EOP'
import sys
with open(sys.argv[1], 'w') as f:
    f.write('bank: many\nlanguages: en\ntitle:\n  en: Many\n\n1. q\n   en: Which?\n   * en: o0\n')
    for i in range(1, 27):
        f.write(f'   - en: o{i}\n')
    f.write('   explanation:\n     en: o0.\n')
EOP
run $QBC check --format scorm12 many.qb
check "SCORM's option limit: check reports it" sh -c "test \"\$(cat '$T/rc')\" = 1 && grep -q 'a SCORM package allows at most 26' '$T/err'"
run $QBC check --format anki many.qb
check "SCORM's option limit: not a rule of Anki" rc 0

# ---- all or nothing across formats ----
python3 - big.qb <<'EOP'
import sys
with open(sys.argv[1], 'w') as f:
    f.write('bank: big\nlanguages: en sw\ntitle:\n  en: Big\n  sw: Kubwa\n')
    for i in range(600):
        f.write(f'{i+1}. question-with-a-rather-long-identifier-{i:04d}\n   en: Question {i}\n'
                f'   sw: Swali {i}\n   * en: Right\n     sw: Sahihi\n   - en: Wrong\n     sw: Kosa\n'
                f'   explanation:\n     en: Because.\n     sw: Kwa sababu.\n')
EOP
run $QBC build -o bout big.qb
check "too big for SCORM 1.2: exit 1" rc 1
check "too big for SCORM 1.2: says so" err_has "too big for SCORM 1.2"
check "too big: no Anki package either" test ! -e bout/big.apkg
check "too big: no revision record" test ! -e big.lock
check "too big: the message names the format and what to do" err_has "because its scorm12 output failed: fix what it reports above, or leave scorm12 out of --format"
check "too big: no staging folder left" test -z "$(ls -A bout)"
run $QBC build --format anki,scorm2004 -o bout big.qb
check "without scorm12 the bank builds" sh -c "test \"\$(cat '$T/rc')\" = 0 && test -f bout/big.apkg && test -f bout/big.scorm2004.zip && test -f big.lock"
check "after a success no staging folder is left" test "$(ls -A bout | wc -l)" = 2
mkdir bout/.qbc-staging-big && echo half >bout/.qbc-staging-big/big.apkg.tmp
run $QBC build --format anki -o bout big.qb
check "a staging folder left by a killed build is removed by the next" \
	sh -c "test \"\$(cat '$T/rc')\" = 0 && test ! -e bout/.qbc-staging-big"

# ---- two banks with one id ----
bank one.qb same-id
bank two.qb same-id
run $QBC build --format json -o dout one.qb two.qb
check "same bank id: exit 1" rc 1
check "same bank id: located at the second bank: line, naming the first file" \
	err_has "two.qb:1:7: error: bank id 'same-id' is also the id of 'one.qb'"
check "same bank id: the second bank is not written over the first" \
	sh -c "test ! -e two.lock"
run $QBC check one.qb two.qb
check "same bank id: check reports it too" err_has "two.qb:1:7: error: bank id 'same-id'"

# ---- review: unknown ids and languages are usage errors ----
run $QBC review --question nope pic.qb
check "review --question nope: exit 2" rc 2
check "review --question nope: says so" err_has "has no question 'nope'"
run $QBC review --lang de pic.qb
check "review --lang de: exit 2" rc 2
check "review --lang de: says so" err_has "has no language 'de'"
run $QBC review --question plain --lang sw pic.qb
check "review of a known id and language works" rc 0
# ---- three languages: a stale warning names only the language that changed ----
cat >tri.qb <<'EOQ'
bank: tri
languages: en fr sw
title:
  en: Three languages
  fr: Trois langues
  sw: Lugha tatu

1. colour
   en: What colour is the sky on a clear day?
   fr: De quelle couleur est le ciel par beau temps ?
   sw: Anga lina rangi gani siku isiyo na mawingu?
   * en: Blue
     fr: Bleu
     sw: Buluu
   - en: Green
     fr: Vert
     sw: Kijani
   explanation:
     en: Air scatters blue light more than red light.
     fr: L'air diffuse davantage la lumière bleue que la rouge.
     sw: Hewa hutawanya mwanga wa buluu zaidi kuliko mwekundu.
EOQ
run $QBC build --format json -o tout tri.qb
check "three languages: first build" rc 0
sed -i 's/What colour is the sky on a clear day?/What colour is a clear sky?/' tri.qb
run $QBC build --format json -o tout tri.qb
check "three languages: the build names 'en' for fr" err_has "'fr' text of question 'colour' prompt may be stale: 'en' changed"
run $QBC check tri.qb
check "three languages: after the build, check still names only 'en' for fr" \
	err_has "'fr' text of question 'colour' prompt may be stale: 'en' changed"
check "three languages: after the build, check still names only 'en' for sw" \
	err_has "'sw' text of question 'colour' prompt may be stale: 'en' changed"
check "three languages: the record keeps one short hash per other language" \
	grep -qE '^text colour prompt fr [0-9a-f]{16} en:[0-9a-f]{8},sw:[0-9a-f]{8}$' tri.lock
run $QBC review --lang fr tri.qb
run $QBC check tri.qb
check "three languages: reviewing fr clears its warning only" \
	sh -c "! grep -qF \"'fr' text\" '$T/err' && grep -qF \"'sw' text\" '$T/err'"


# ---- each output's line says what learners keep after a rebuild ----
bank prog.qb prog
run $QBC build --format all -o pout prog.qb
check "progress: a first build" rc 0
check "progress: a first build says nothing of learners' progress" \
	sh -c "test \"\$(grep -c '^  wrote ' '$T/out')\" = 11 && ! grep -q '^  wrote .*: ' '$T/out'"
run $QBC build --format all -o pout prog.qb
check "progress: a rebuild that changed nothing says nothing either" \
	sh -c "test \"\$(grep -c '^  wrote ' '$T/out')\" = 11 && ! grep -q '^  wrote .*: ' '$T/out'"
sed -i 's/en: Is this plain?/en: Is this one plain?/; s/sw: Je, hili ni la kawaida?/sw: Je, hili moja ni la kawaida?/' prog.qb
cat >>prog.qb <<'EOQ'

3. added
   en: Is this new?
   sw: Je, hili ni jipya?
   * en: Yes
     sw: Ndiyo
   - en: No
     sw: Hapana
   explanation:
     en: It was added.
     sw: Liliongezwa.
EOQ
run $QBC build --format all -o pout prog.qb
check "progress: the edit builds" rc 0
check "progress: Anki: re-import keeps reviews, with the counts" \
	out_has "  wrote pout/prog.apkg: import it over the old deck: learners keep their reviews (questions updated: 1, new: 1)"
check "progress: SCORM 1.2: the same activity keeps attempts" \
	out_has "  wrote pout/prog.scorm12.zip: upload it as the package of the same Moodle activity: learners keep their attempts and grades"
check "progress: SCORM 2004: the same" \
	out_has "  wrote pout/prog.scorm2004.zip: upload it as the package of the same Moodle activity: learners keep their attempts and grades"
check "progress: Moodle XML: import once, into the new revision's category" \
	out_has "  wrote pout/prog.moodle.xml: import it once: its questions go to a new category, 'revision 2', beside the earlier ones"
check "progress: the category is the one the file names" \
	grep -q 'revision 2 (' pout/prog.moodle.xml
check "progress: HTML: answers to unchanged questions kept" \
	out_has "  wrote pout/prog.html: give learners the new file: their answers to unchanged questions are kept"
check "progress: QTI and JSON: no claim" \
	sh -c "for l in en sw; do grep -qx \"  wrote pout/prog.\$l.qti.zip\" '$T/out' && grep -qx \"  wrote pout/prog.\$l.qti3.zip\" '$T/out' || exit 1; done; grep -qx '  wrote pout/prog.json' '$T/out'"
check "progress: one line per output (QTI: one per language; the spreadsheet too)" test "$(grep -c '^  wrote ' "$T/out")" = 11
run $QBC build --dry-run --format all -o pout prog.qb
check "progress: a dry run writes no line" sh -c "! grep -q 'wrote' '$T/out'"

finish
