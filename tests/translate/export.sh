# tests/translate/export.sh - sourced by run.sh: a translator's work is
# never dropped.  An export over a file that came back and was not
# imported yet keeps its translations (msgmerge's way: fuzzy with the
# previous source where the source changed), its header and comments, or
# refuses when the bank has another translation; an option inserted,
# deleted or moved between export and import takes its translations
# with it; a half-translated new language imports what is translated and
# `qbc check` lists the rest.
_T=$T
T=$(tmpdir)
cd "$T" || exit 2
units() { $PY "$HERE/pounits.py" "$1"; }
cat >bank.qb <<'EOF'
bank: ex-test
languages: en sw
default-language: en

title:
  en: Colours
  sw: Rangi

1. sky
   en: What colour is the sky?
   sw: Anga lina rangi gani?
   * en: Blue
     sw: Samawati
     > en: Yes.
       sw: Ndiyo.
   - en: Green
     sw: Kijani
     > en: No.
       sw: Hapana.
   - en: Red
     sw: Nyekundu
     > en: No.
       sw: Hapana.
   explanation:
     en: Light scatters.
     sw: Mwanga hutawanyika.

2. grass
   en: What colour is grass?
   sw: Nyasi zina rangi gani?
   * en: Green
     sw: Kijani
   - en: Pink
     sw: Waridi
   explanation:
     en: Chlorophyll.
     sw: Klorofili.
EOF
cp bank.qb orig.qb
# Every empty msgstr of a PO file: "FR " and its msgid.
fill() {
	$PY - "$1" "$2" <<'EOF'
import sys
from translate.storage import po
store = po.pofile.parsefile(sys.argv[1])
for u in store.units:
    if not u.isheader() and not u.target:
        u.target = "FR " + u.source
open(sys.argv[2], "wb").write(bytes(store))
EOF
}

# --- export over a returned file that was not imported (PO) ---
run "$QBC" translate export --lang fr bank.qb
fill bank.fr.po returned.po
# The translator's tool sets its header fields and a comment.
sed -e 's/^"Last-Translator: .*"$/"Last-Translator: Amina Juma <amina@example.org>\\n"/' \
	-e 's/^"Language-Team: .*"$/"Language-Team: French <fr@example.org>\\n"/' \
	-e 's/^"Language: fr\\n"$/"Language: fr\\n"\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"/' \
	-e 's/^msgctxt "sky\/option 2"$/# Vert, pas vert clair.\nmsgctxt "sky\/option 2"/' \
	returned.po >bank.fr.po
cp bank.fr.po returned.po
run "$QBC" translate export --lang fr bank.qb
check "re-export: exit 0" rc 0
check "re-export: every translation kept" test "$(units bank.fr.po | grep -c '|-|FR ')" = 13
check "re-export: the report counts them" out_has "13 translations kept from the earlier bank.fr.po"
check "re-export: the same translations msgmerge keeps" sh -c \
	"msgmerge -q --previous returned.po bank.fr.po -o merged.po && $PY '$HERE/pounits.py' merged.po >m.txt && $PY '$HERE/pounits.py' bank.fr.po | diff m.txt -"
check "re-export: Last-Translator kept" grep -qF '"Last-Translator: Amina Juma <amina@example.org>\n"' bank.fr.po
check "re-export: Language-Team kept" grep -qF '"Language-Team: French <fr@example.org>\n"' bank.fr.po
check "re-export: Plural-Forms kept" grep -qF '"Plural-Forms: nplurals=2; plural=(n > 1);\n"' bank.fr.po
check "re-export: the translator's comment kept" \
	sh -c "awk -v RS= '/(^|\n)# Vert, pas vert clair\.\n/ && /\nmsgctxt \"sky\/option 2\"\n/' bank.fr.po | grep -q ."
check "re-export: msgfmt --check accepts it" msgfmt --check -o /dev/null bank.fr.po
# The source of one text changes before the next export: its translation
# stays, fuzzy, with the previous source (msgmerge --previous).
cp bank.fr.po returned.po
sed 's/^     en: Light scatters\.$/     en: Light scatters in the air./' orig.qb >bank.qb
run "$QBC" translate export --lang fr bank.qb
check "re-export, source changed: exit 0" rc 0
check "re-export, source changed: the translation stays, fuzzy" \
	sh -c "$PY '$HERE/pounits.py' bank.fr.po | grep -qxF 'sky/explanation|fuzzy|FR Light scatters.'"
check "re-export, source changed: the previous source" \
	sh -c "grep -B1 -x 'msgctxt \"sky/explanation\"' bank.fr.po | grep -qxF '#| msgid \"Light scatters.\"'"
check "re-export, source changed: the others kept" test "$(units bank.fr.po | grep -c '|-|FR ')" = 12
cp orig.qb bank.qb
# A file whose translation differs from the bank's: writing over it would
# lose the translator's, so the export refuses, located, and says what
# to do; importing first keeps it.
run "$QBC" translate export --lang sw bank.qb
$PY "$HERE/setpo.py" bank.sw.po sw.po "sky/option 3" "Nyekundu sana"
cp sw.po bank.sw.po
run "$QBC" translate export --lang sw bank.qb
check "conflict: exit 1" rc 1
check "conflict: located in the file" err_has "bank.sw.po:$(grep -n '^msgctxt "sky/option 3"$' sw.po | cut -d: -f1):1: error: the translation of 'sky/option 3' here is not the bank's"
check "conflict: says what to do" err_has "import the file first to keep it, or move the file away (or export with -o) to keep the bank's"
check "conflict: the file is left as it was" cmp -s bank.sw.po sw.po
run "$QBC" translate import bank.sw.po bank.qb
run "$QBC" translate export --lang sw bank.qb
check "conflict: after the import the export writes" rc 0
check "conflict: the translation is the bank's" grep -qx '     sw: Nyekundu sana' bank.qb
cp orig.qb bank.qb
rm -f bank.sw.po

# --- the same for XLIFF ---
run "$QBC" translate export --lang fr --format xliff bank.qb
$PY "$HERE/fillxlf.py" bank.fr.xlf returned.xlf "FR "
cp returned.xlf bank.fr.xlf
run "$QBC" translate export --lang fr --format xliff bank.qb
check "XLIFF re-export: exit 0" rc 0
check "XLIFF re-export: every translation kept" test "$(grep -c '<target>FR ' bank.fr.xlf)" = 13
check "XLIFF re-export: translated" test "$(grep -c 'state="translated"' bank.fr.xlf)" = 13
check "XLIFF re-export: valid against the schema" xsd_valid bank.fr.xlf
sed 's/^     en: Light scatters\.$/     en: Light scatters in the air./' orig.qb >bank.qb
run "$QBC" translate export --lang fr --format xliff bank.qb
check "XLIFF re-export, source changed: the translation stays, initial" sh -c \
	"grep -A12 'name=\"sky/explanation\"' bank.fr.xlf | grep -qF '<segment state=\"initial\">'"
check "XLIFF re-export, source changed: the previous source" sh -c \
	"grep -A12 'name=\"sky/explanation\"' bank.fr.xlf | grep -qF 'appliesTo=\"source\">Light scatters.</note>'"
check "XLIFF re-export, source changed: its target kept" sh -c \
	"grep -A12 'name=\"sky/explanation\"' bank.fr.xlf | grep -qF '<target>FR Light scatters.</target>'"
cp orig.qb bank.qb
rm -f bank.fr.xlf bank.fr.po

# --- an earlier file as tools save it: a PO in Latin-1, of fr_FR, a
# message without its msgctxt; an XLIFF without its placeholders' data ---
run "$QBC" translate export --lang fr bank.qb
fill bank.fr.po returned.po
e=$(printf '\351')
iconv -f UTF-8 -t ISO-8859-1 returned.po | LC_ALL=C sed -e 's/charset=UTF-8/charset=ISO-8859-1/' \
	-e 's/^"Language: fr\\n"$/"Language: fr_FR\\n"/' -e "s/^msgstr \"FR Blue\"\$/msgstr \"Bleu ${e}t${e}\"/" \
	-e "s/^msgctxt \"sky\/option 2\"\$/# V${e}rifi${e}\nmsgctxt \"sky\/option 2\"/" \
	-e '/^msgctxt "title"$/d' >bank.fr.po
check "Latin-1 re-export: the file is Latin-1" sh -c "! iconv -f UTF-8 -t UTF-8 bank.fr.po >/dev/null 2>&1"
run "$QBC" translate export --lang fr bank.qb
check "Latin-1 re-export: exit 0" rc 0
check "Latin-1 re-export: every translation kept" out_has "13 translations kept from the earlier bank.fr.po"
check "Latin-1 re-export: written in UTF-8" grep -qF '"Content-Type: text/plain; charset=UTF-8\n"' bank.fr.po
check "Latin-1 re-export: a translation converted" \
	sh -c "$PY '$HERE/pounits.py' bank.fr.po | grep -qxF 'sky/option 1|-|Bleu été'"
check "Latin-1 re-export: the message without msgctxt placed" \
	sh -c "$PY '$HERE/pounits.py' bank.fr.po | grep -qxF 'title|-|FR Colours'"
check "Latin-1 re-export: the comment converted" grep -qx '# Vérifié' bank.fr.po
check "Latin-1 re-export: the language is fr" grep -qF '"Language: fr\n"' bank.fr.po
rm -f bank.fr.po
sed 's/^   en: What colour is the sky?$/   en: What colour is the sky ($\\lambda$)?/' orig.qb >bank.qb
run "$QBC" translate export --lang fr --format xliff bank.qb
# A tool that drops <originalData> and dataRef, its target the source's.
$PY - bank.fr.xlf returned.xlf <<'EOF'
import copy, sys
import xml.etree.ElementTree as ET
NS = "urn:oasis:names:tc:xliff:document:2.0"
ET.register_namespace("", NS)
tree = ET.parse(sys.argv[1])
for unit in tree.iter(f"{{{NS}}}unit"):
    for od in unit.findall(f"{{{NS}}}originalData"):
        unit.remove(od)
    for seg in unit.iter(f"{{{NS}}}segment"):
        src = seg.find(f"{{{NS}}}source")
        for old in seg.findall(f"{{{NS}}}target"):
            seg.remove(old)
        trg = copy.deepcopy(src)
        trg.tag = f"{{{NS}}}target"
        trg.text = "FR " + (trg.text or "")
        seg.append(trg)
        seg.set("state", "translated")
        for ph in seg.iter(f"{{{NS}}}ph"):
            ph.attrib.pop("dataRef", None)
tree.write(sys.argv[2], encoding="UTF-8", xml_declaration=True)
EOF
cp returned.xlf bank.fr.xlf
check "XLIFF without data: the tool's file has none" sh -c "! grep -q originalData bank.fr.xlf"
run "$QBC" translate export --lang fr --format xliff bank.qb
check "XLIFF without data, re-export: exit 0" rc 0
check "XLIFF without data, re-export: every translation kept" out_has "13 translations kept"
check "XLIFF without data, re-export: none made stale" out_has "(13 translated, 0 stale, 0 untranslated)"
check "XLIFF without data, re-export: the formula's data back" grep -qF '<data id="d1">$\lambda$</data>' bank.fr.xlf
run "$QBC" translate import bank.fr.xlf bank.qb
check "XLIFF without data, re-export: it imports" rc 0
check "XLIFF without data, re-export: the formula in place" grep -qxF '   fr: FR What colour is the sky ($\lambda$)?' bank.qb
cp orig.qb bank.qb
rm -f bank.fr.xlf bank.fr.po bank.lock

# --- options inserted, deleted, reordered between export and import ---
# The translator's Kiswahili: each "No." feedback its own.
run "$QBC" translate export --lang sw bank.qb
$PY "$HERE/setpo.py" bank.sw.po sw.po "sky/option 2" "Kijani kibichi" \
	"sky/option 2/feedback" "Hapana (kijani)." "sky/option 3" "Nyekundu kali" \
	"sky/option 3/feedback" "Hapana (nyekundu)."
# Which sw text follows the en line $1 (the option's text or feedback).
sw_after() { grep -A1 -xF -- "$1" bank.qb | sed -n 2p; }
# Inserted: "Yellow" before "Green".
sed '/^   - en: Green$/i\
   - en: Yellow\
     sw: Manjano\
     > en: No.\
       sw: Hapana.' orig.qb >bank.qb
run "$QBC" translate import sw.po bank.qb
check "option inserted: exit 0" rc 0
check "option inserted: Green's text on Green" test "$(sw_after '   - en: Green')" = '     sw: Kijani kibichi'
check "option inserted: Green's feedback on Green" test "$(grep -A5 -xF '   - en: Green' bank.qb | sed -n 4p)" = '       sw: Hapana (kijani).'
check "option inserted: Red's feedback on Red" test "$(grep -A3 -xF '   - en: Red' bank.qb | sed -n 4p)" = '       sw: Hapana (nyekundu).'
check "option inserted: the new option untouched" test "$(grep -A3 -xF '   - en: Yellow' bank.qb | sed -n 4p)" = '       sw: Hapana.'
# Deleted: "Green".
sed '/^   - en: Green$/,/^       sw: Hapana\.$/d' orig.qb >bank.qb
run "$QBC" translate import sw.po bank.qb
check "option deleted: exit 0" rc 0
check "option deleted: Red's text on Red" test "$(sw_after '   - en: Red')" = '     sw: Nyekundu kali'
check "option deleted: Red's feedback on Red" test "$(grep -A3 -xF '   - en: Red' bank.qb | sed -n 4p)" = '       sw: Hapana (nyekundu).'
check "option deleted: Green's units reported, not written" err_has "skipped 'sky/option 2/feedback'"
check "option deleted: Green's feedback nowhere" sh -c "! grep -qF 'Hapana (kijani)' bank.qb"
# Reordered: "Red" before "Green".
awk '/^   - en: Green$/{g=1} g&&n<4{buf=buf $0 "\n"; n++; next} /^   - en: Red$/{r=1} r&&m<4{printf "%s", $0 "\n"; m++; if(m==4) printf "%s", buf; next} {print}' orig.qb >bank.qb
check "option reordered: the bank has Red first" test "$(grep -n -e '- en: Red' -e '- en: Green' bank.qb | head -1 | cut -d: -f2-)" = '   - en: Red'
run "$QBC" translate import sw.po bank.qb
check "option reordered: exit 0" rc 0
check "option reordered: Green's text on Green" test "$(sw_after '   - en: Green')" = '     sw: Kijani kibichi'
check "option reordered: Green's feedback on Green" test "$(grep -A3 -xF '   - en: Green' bank.qb | sed -n 4p)" = '       sw: Hapana (kijani).'
check "option reordered: Red's feedback on Red" test "$(grep -A3 -xF '   - en: Red' bank.qb | sed -n 4p)" = '       sw: Hapana (nyekundu).'
# The export over the file follows the move as well.
awk '/^   - en: Green$/{g=1} g&&n<4{buf=buf $0 "\n"; n++; next} /^   - en: Red$/{r=1} r&&m<4{printf "%s", $0 "\n"; m++; if(m==4) printf "%s", buf; next} {print}' orig.qb >bank.qb
run "$QBC" translate export --lang fr bank.qb
fill bank.fr.po returned.po
$PY "$HERE/setpo.py" returned.po bank.fr.po "sky/option 2/feedback" "Non (rouge)." \
	"sky/option 3/feedback" "Non (vert)."
cp orig.qb bank.qb
run "$QBC" translate export --lang fr bank.qb
check "option reordered, re-export: exit 0" rc 0
check "option reordered, re-export: Green's translation on Green" \
	sh -c "$PY '$HERE/pounits.py' bank.fr.po | grep -qxF 'sky/option 2/feedback|-|Non (vert).'"
check "option reordered, re-export: Red's translation on Red" \
	sh -c "$PY '$HERE/pounits.py' bank.fr.po | grep -qxF 'sky/option 3/feedback|-|Non (rouge).'"
cp orig.qb bank.qb
rm -f bank.fr.po bank.sw.po

# --- a half-translated new language ---
run "$QBC" translate export --lang fr bank.qb
fill bank.fr.po full.po
# The translator did the first question only (not the title).
$PY - full.po half.po <<'EOF'
import sys
from translate.storage import po
store = po.pofile.parsefile(sys.argv[1])
for u in store.units:
    if not u.isheader() and not u.getcontext().startswith("sky/"):
        u.target = ""
open(sys.argv[2], "wb").write(bytes(store))
EOF
run "$QBC" translate import half.po bank.qb
check "half a new language: exit 0" rc 0
check "half a new language: the translated texts imported" out_has "8 added, 0 changed, 0 unchanged, 0 skipped"
check "half a new language: the rest counted" out_has "5 untranslated"
check "half a new language: the language added" grep -qx 'languages: en sw fr' bank.qb
check "half a new language: the report says what is left" out_has "5 texts still have no 'fr' translation: qbc check lists them"
check "half a new language: a French line written" grep -qx '     fr: FR Blue' bank.qb
run "$QBC" check bank.qb
check "half a new language: check fails" rc 1
check "half a new language: check lists a text left" err_has "error: the prompt of question 'grass' has no French"
check "half a new language: check counts them" err_has "is missing from 5 of the bank's texts; 'qbc translate export --lang fr bank.qb' writes them"
run "$QBC" translate export --lang fr bank.qb
fill bank.fr.po rest.po
run "$QBC" translate import rest.po bank.qb
check "half a new language: the rest imports" out_has "5 added, 0 changed, 8 unchanged"
run "$QBC" check bank.qb
check "half a new language: then the bank checks" rc 0

T=$_T
cd "$T" || exit 2
