#!/bin/sh
# tests/banks/run.sh - the shipped banks (input/*.qb; today
# input/data-parallelism.qb): the only suite that reads input/.  Every other
# suite builds the small banks made for it under tests/, so an author can
# add or edit questions without breaking them; this suite checks what an
# author must keep true.  For every bank: `qbc check --werror` passes, a
# build as `make` runs it prints no warning,
# every formula renders in the player's KaTeX (tests/tools/katex-check.mjs),
# and `qbc build` writes every format (the SCORM manifests valid against the
# official XSDs and ../shared/tools/scorm-validate when present, the Anki
# collection intact), and `qbc import` of its Moodle XML, and of a GIFT
# and a CSV file written from it, gives back a bank that passes the checks
# and equals the original in every field the format carries.  The bank,
# its revision record and its media are
# copied to a temporary folder first: nothing in input/ or output/ changes.
. "$(dirname "$0")/../lib.sh"
XSDS="$ROOT/tests/scorm"
VALIDATE="$ROOT/../shared/tools/scorm-validate/scorm-validate"
snapshot() { (cd "$ROOT" && find input output -type f -exec sha256sum {} + 2>/dev/null | sort); }
before=$(snapshot)
# xsd DRIVER ZIP: the package's manifest against the XSDs, no network.
xsd() {
	unzip -p "$2" imsmanifest.xml >"$2.xml" &&
		xmllint --noout --nonet --schema "$1" "$2.xml" 2>"$2.err" ||
		{ grep -v "Skipping import" "$2.err" 2>/dev/null | sed 's/^/    /' | head -n 20; return 1; }
}
# anki_ok APKG: the collection opens, passes its integrity check, has notes.
anki_ok() {
	python3 - "$1" <<'EOP'
import sqlite3, sys, tempfile, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, tempfile.TemporaryDirectory() as t:
    assert z.testzip() is None
    c = sqlite3.connect(z.extract('collection.anki2', t))
    assert c.execute('pragma integrity_check').fetchone()[0] == 'ok'
    assert c.execute('select count(*) from notes').fetchone()[0] > 0
EOP
}
n=0
for bank in "$ROOT"/input/*.qb; do
	[ -f "$bank" ] || continue
	n=$((n + 1))
	bn=$(basename "$bank" .qb)
	W=$(tmpdir)
	cp "$bank" "$W/"
	[ -f "${bank%.qb}.lock" ] && cp "${bank%.qb}.lock" "$W/"
	[ -d "$ROOT/input/media" ] && cp -R "$ROOT/input/media" "$W/"
	if "$QBC" check --werror "$W/$bn.qb" >"$W/check.log" 2>&1; then
		pass "$bn: qbc check --werror"
	else
		fail "$bn: qbc check --werror"
		sed 's/^/    /' "$W/check.log" | head -n 40
	fi
	# What a newcomer's first `make` runs (the Makefile's bank rule): no warning.
	"$QBC" build -o "$W/out-make" --format make "$W/$bn.qb" >"$W/make.log" 2>&1
	check "$bn: a make-style build exits 0" test $? = 0
	if grep -q 'warning' "$W/make.log"; then
		fail "$bn: a make-style build prints no warning"
		sed 's/^/    /' "$W/make.log" | head -n 40
	else
		pass "$bn: a make-style build prints no warning"
	fi
	cp "${bank%.qb}.lock" "$W/" 2>/dev/null
	if "$QBC" build -o "$W/out" --format all "$W/$bn.qb" >"$W/build.log" 2>&1; then
		pass "$bn: qbc build --format all"
	else
		fail "$bn: qbc build --format all"
		sed 's/^/    /' "$W/build.log" | head -n 40
	fi
	id=$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['id'])" "$W/out/"*.json 2>/dev/null)
	check "$bn: the JSON dump is valid" test -n "$id"
	check "$bn: the Anki package is intact" anki_ok "$W/out/$id.apkg"
	check "$bn: SCORM 1.2 manifest valid (XSD)" xsd "$XSDS/scorm12-driver.xsd" "$W/out/$id.scorm12.zip"
	check "$bn: SCORM 2004 manifest valid (XSD)" xsd "$XSDS/scorm2004-driver.xsd" "$W/out/$id.scorm2004.zip"
	"$QBC" dump --json "$W/$bn.qb" >"$W/dump.json" 2>/dev/null
	check "$bn: options shuffled, and no right option the longest by far (position and length tell nothing)" \
		python3 - "$W/dump.json" <<'EOP'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
bad = []
qs = [q for q in d["questions"] if q["type"] in ("single", "multiple")]
if qs and not d["shuffle_options"]:
    bad.append("shuffle-options is off")
for q in qs:
    for lang in d["languages"]:
        wrong = max((len(c["text"][lang]) for c in q["choices"] if not c["correct"]), default=0)
        for c in q["choices"]:
            if c["correct"] and len(c["text"][lang]) > max(1.15 * wrong, wrong + 5):
                bad.append(f"{q['id']} ({lang}): right option of {len(c['text'][lang])} characters, wrong ones at most {wrong}")
for b in bad:
    print("   ", b)
sys.exit(1 if bad else 0)
EOP
	if node "$ROOT/tests/tools/katex-check.mjs" "$bn" <"$W/dump.json" >"$W/katex.log" 2>&1; then
		pass "$bn: every formula renders in the player's KaTeX"
	else
		fail "$bn: every formula renders in the player's KaTeX"
		sed 's/^/    /' "$W/katex.log" | head -n 20
	fi
	check "$bn: Moodle XML as Moodle's importer reads it" \
		python3 "$ROOT/tests/moodlexml/check_moodlexml.py" structure "$W/out/$id.moodle.xml"
	check "$bn: Moodle XML cloze gaps survive a save in Moodle's editor" \
		python3 "$ROOT/tests/moodlexml/check_moodlexml.py" editor "$W/out/$id.moodle.xml"
	# The offline HTML file: one file a phone opens, under 2 MiB (issue 27).
	size=$(wc -c <"$W/out/$id.html" 2>/dev/null || echo 0)
	echo "    $id.html: $size bytes"
	check "$bn: the offline HTML file is under 2 MiB" test "$size" -gt 0 -a "$size" -lt 2097152
	# Round trips (README, "Round trip through qbc's own Moodle XML"): qbc
	# import of its own Moodle XML, of a GIFT file (the default language)
	# and of a CSV file (every language) written from the bank's dump by
	# tests/import/write_*.py gives back a bank that passes qbc check and
	# whose dump equals the original's in every field but those the format
	# cannot carry (same_model.py lists them, each a line of the README);
	# pictures and sounds by their bytes.
	"$QBC" dump --json "$W/$bn.qb" >"$W/a.json" 2>/dev/null
	python3 "$ROOT/tests/import/write_gift.py" "$W/a.json" >"$W/$bn.gift"
	python3 "$ROOT/tests/import/write_csv.py" "$W/a.json" >"$W/$bn.csv"
	for f in moodlexml gift csv; do
		case $f in
		moodlexml) src="$W/out/$id.moodle.xml" back="$W/back" ;;
		*) src="$W/$bn.$f" back="$W" ;; # beside media/, which their texts name
		esac
		"$QBC" import --bank "$id" -o "$back/$bn-$f.qb" "$src" >"$W/import.log" 2>&1
		check "$bn: qbc import of its $f" test $? = 0
		check "$bn: the bank imported from $f passes qbc check" \
			sh -c '"$1" check "$2" >/dev/null 2>&1' _ "$QBC" "$back/$bn-$f.qb"
		"$QBC" dump --json "$back/$bn-$f.qb" >"$W/$f.json" 2>/dev/null
		check "$bn: the bank imported from $f equals the original in every field $f carries" \
			python3 "$ROOT/tests/import/same_model.py" "$W/a.json" "$W/$f.json" "$f" "$W" "$back"
	done
	# qbc translate (input/README.md, "Working with translators"): a PO and
	# an XLIFF round trip of the second language without edits leave the
	# bank byte for byte; French added from a PO whose every unit is
	# translated by one fixed rule that keeps the markup ("FR: " before the
	# default language's text) builds into every output, with French screens.
	T2=$(tmpdir)
	cp "$bank" "$T2/"
	[ -f "${bank%.qb}.lock" ] && cp "${bank%.qb}.lock" "$T2/"
	[ -d "$ROOT/input/media" ] && cp -R "$ROOT/input/media" "$T2/"
	second=$(sed -n 's/^languages: *[^ ]* *\([^ ]*\).*/\1/p' "$bank")
	for f in po xliff; do
		"$QBC" translate export --lang "$second" --format $f -o "$T2/rt.$f" "$T2/$bn.qb" >/dev/null 2>&1
		"$QBC" translate import "$T2/rt.$f" "$T2/$bn.qb" >"$T2/rt.log" 2>&1
		check "$bn: a $f round trip of '$second' without edits leaves the bank byte for byte" \
			sh -c 'test "$(cat "$1")" != "" && cmp -s "$2" "$3"' _ "$T2/rt.log" "$bank" "$T2/$bn.qb"
	done
	"$QBC" translate export --lang fr -o "$T2/fr.po" "$T2/$bn.qb" >/dev/null 2>&1
	/usr/bin/python3 - "$T2/fr.po" "$T2/fr-done.po" <<'EOP'
import sys
from translate.storage import po
store = po.pofile.parsefile(sys.argv[1])
for u in store.units:
    if not u.isheader():
        u.target = "FR: " + u.source
with open(sys.argv[2], "wb") as f:
    f.write(bytes(store))
EOP
	"$QBC" translate import "$T2/fr-done.po" "$T2/$bn.qb" >"$T2/fr.log" 2>&1
	check "$bn: French imported from a PO file" grep -q "^languages: .* fr$" "$T2/$bn.qb"
	"$QBC" build -o "$T2/out" --format all "$T2/$bn.qb" >"$T2/frbuild.log" 2>&1
	check "$bn: with French, qbc build --format all" test $? = 0
	check "$bn: adding French stales none of the texts it is translated from" \
		sh -c '! grep -q "may be stale" "$1"' _ "$T2/frbuild.log"
	check "$bn: with French, the SCORM player has French screens" \
		sh -c 'unzip -p "$1" data.js | grep -qF "Vérifier la réponse"' _ "$T2/out/$id.scorm12.zip"
	check "$bn: with French, the offline HTML file has French screens and texts" \
		sh -c 'grep -qF "Vérifier la réponse" "$1" && grep -qF "FR: " "$1"' _ "$T2/out/$id.html"
	check "$bn: with French, the Anki package has a French deck" \
		sh -c 'unzip -p "$1" collection.anki2 >"$2" && sqlite3 "$2" "select decks from col" | grep -qE "::Fran(ç|\\\\u00[Ee]7)ais"' \
		_ "$T2/out/$id.apkg" "$T2/c.db"
	check "$bn: with French, the QTI package has French items" \
		sh -c 'unzip -l "$1" | grep -q "item-.*-fr\.xml"' _ "$T2/out/$id.fr.qti.zip"
	if [ -x "$VALIDATE" ]; then
		for v in scorm12 scorm2004; do
			check "$bn: scorm-validate $v" sh -c '"$1" "$2" >/dev/null 2>&1' - "$VALIDATE" "$W/out/$id.$v.zip"
		done
	fi
done
check "input/ holds at least one bank" test "$n" -gt 0
check "input/ and output/ untouched" test "$(snapshot)" = "$before"
# The spreadsheet template teachers copy (input/README.md) imports into a
# bank of every type in both languages that passes qbc check.
W=$(tmpdir)
"$QBC" import --bank template -o "$W/template.qb" "$ROOT/input/templates/questions.csv" >"$W/out" 2>&1
check "templates/questions.csv: qbc import" test $? = 0
check "templates/questions.csv: every type, both languages" grep -qF \
	"7 questions (1 single, 1 multiple, 1 true-false, 1 short-answer, 1 numeric, 1 matching, 1 cloze), languages en sw" "$W/out"
check "templates/questions.csv: its exam settings (pass mark, shuffles) carried" \
	sh -c 'grep -qx "pass-mark: 70%" "$1" && grep -qx "shuffle-options: yes" "$1"' _ "$W/template.qb"
check "templates/questions.csv: the bank passes qbc check --werror for build's default formats" \
	sh -c '"$1" check --werror --format anki,scorm12 "$2" >/dev/null 2>&1' _ "$QBC" "$W/template.qb"
# A CSV file has no scoring column: make's Moodle XML says that Moodle
# gives partial credit where the bank says all-or-nothing, and names it.
"$QBC" check "$W/template.qb" >/dev/null 2>"$W/err"
check "templates/questions.csv: check's only warnings are Moodle XML's, so named" \
	sh -c '! grep ": warning: " "$1" | grep -v ": warning: \[moodlexml\] question .* is scored all-or-nothing" && grep -q "warning: \[moodlexml\]" "$1"' _ "$W/err"
finish
