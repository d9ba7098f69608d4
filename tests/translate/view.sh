#!/bin/sh
# tests/translate/view.sh - what the translator sees (sourced by run.sh
# before its `finish`; also runs alone): a cloze gap's answers are text to
# translate in PO and XLIFF (only its braces and marks are placeholders),
# the import keeps each gap's structure (kind, right choice, number of
# choices) and locates a broken gap in the translator's file, a French
# cloze built in every format is answered in French; the notes say what to
# keep (formulas, code, link targets, pictures), what a sound speaks, what
# a typed answer's feedback and a matching distractor are; a picture's
# '![' is a placeholder; the glossary shows the target language's terms.
if [ -z "${HERE:-}" ]; then
	. "$(dirname "$0")/../lib.sh"
	HERE="$ROOT/tests/translate"
	VIEW_ALONE=1
fi
VIEW_PREV_T=${T:-}
T=$(tmpdir)
cd "$T" || exit 2
PY=/usr/bin/python3
. "$HERE/xsd.sh"

mkdir -p media
printf 'GIF89a' >media/cell.gif
printf 'ID3' >media/hello.mp3
cat >bank.qb <<'EOF'
bank: view-test
languages: en sw
default-language: en

title:
  en: The water cycle
  sw: Mzunguko wa maji

1. cycle
   type: cloze
   en: Water {{evaporates|evaporate}}; the vapour {{=condenses ~melts ~freezes}} into clouds.
   sw: Maji {{huvukiza|yanavukiza}}; mvuke {{=hugandamana ~huyeyuka ~huganda}} kuwa mawingu.
   explanation:
     en: Evaporation, then condensation.
     sw: Uvukizi, kisha kugandamana.

2. look
   en: Look at ![A cell](media/cell.gif), hear ![Hello](media/hello.mp3), read [the notes](https://example.org/n) on $E = mc^2$ and `x`.
   sw: Tazama ![Seli](media/cell.gif), sikia ![Habari](media/hello.mp3), soma [maelezo](https://example.org/n) kuhusu $E = mc^2$ na `x`.
   * en: Yes
     sw: Ndiyo
   - en: No
     sw: Hapana
   explanation:
     en: The mitochondrion makes energy.
     sw: Mitokondria hutengeneza nishati.

3. typed
   type: short-answer
   en: Name the cell's power plant.
   sw: Taja kituo cha nishati cha seli.
   * en: mitochondrion
     sw: mitokondria
     > en: Right.
       sw: Sahihi.
   explanation:
     en: It makes energy.
     sw: Hutengeneza nishati.

4. pairs
   type: matching
   en: Match each part with its job.
   sw: Linganisha kila sehemu na kazi yake.
   - en: Nucleus => holds DNA
     sw: Kiini => kina DNA
   - en: Mitochondrion => makes energy
     sw: Mitokondria => hutengeneza nishati
   - en: => digests food
     sw: => humeng'enya chakula
   explanation:
     en: Each part has one job.
     sw: Kila sehemu ina kazi moja.
EOF
cat >glossary.md <<'EOF'
| English | Kiswahili | Notes |
|---|---|---|
| mitochondrion | mitokondria | |
EOF
check "view setup: the bank checks" "$QBC" check -q bank.qb
cp bank.qb orig.qb

# ------------------------------------------------ the notes, in PO
run "$QBC" translate export --lang fr bank.qb
check "view notes: export exit 0" rc 0
po_note() { # KEY TEXT: the notes of the unit KEY have a line TEXT
	awk -v k="msgctxt \"$1\"" '/^#\. /{n = n $0 "\n"; next} $0 == k {printf "%s", n; exit} /^$/{n = ""}' bank.fr.po |
		grep -qxF -- "#. $2"
}
check "view notes: a cloze prompt's answers are translated, in French" \
	po_note cycle/prompt "Cloze gaps: keep {{ }} and the marks in them ('|' between accepted answers, '=' before the right choice, '~' before a wrong one); translate the answers, which learners type or choose in French"
check "view notes: formulas, code, link targets and pictures are kept" \
	po_note look/prompt "Keep as they are: the formulas (\$…\$, \\(…\\)); the code; the link targets, (…) after the [link text] you translate; and the pictures, ![description](file): translate the description; the file may be a picture of the language's own"
check "view notes: a sound says which language it speaks" \
	po_note look/prompt "The sound, ![description](file), speaks English: translate the description, and give a recording in French as the file if there is one"
check "view notes: a text without markup has no such line" \
	sh -c "! grep -A3 '^#. Option 1 of 2' bank.fr.po | grep -q 'Keep as they are'"
check "view notes: a typed answer's feedback is for an accepted answer" \
	po_note "typed/answer 1/feedback" "Feedback shown when the learner types accepted answer 1"
check "view notes: a typed answer is what learners type in the target language" \
	po_note "typed/answer 1" "Accepted answer 1: what a learner types in French to be right (plain text)"
check "view notes: no typed answer is chosen" sh -c "! grep -q 'chooses answer' bank.fr.po"
check "view notes: a matching distractor is called one" \
	po_note "pairs/pair 3/right" "A distractor: a right side that matches no left side (pair 3 of 3)"
check "view notes: a pair is still a pair" po_note "pairs/pair 1/right" "Pair 1 of 3, right side"
msgfmt --check -o /dev/null bank.fr.po 2>msgfmt.err
check "view: msgfmt --check accepts the PO file" test $? = 0

# ------------------------------------------------ the glossary's target column
check "view glossary: no Kiswahili term for a French translator" \
	sh -c "! grep -q 'Glossary: .*Kiswahili' bank.fr.po"
run "$QBC" translate export --lang sw -o sw.po bank.qb
check "view glossary: the Kiswahili term for a Kiswahili translator" \
	grep -qx '#. Glossary: mitochondrion (Kiswahili: mitokondria)' sw.po
cat >glossary.md <<'EOF'
# Terms

| Kiswahili | Français | English | Notes |
|---|---|---|---|
| mitokondria | mitochondrie | mitochondrion | |
| kiini | | nucleus | no French term yet |
EOF
run "$QBC" translate export --lang fr -o gl.po bank.qb
check "view glossary: the target language's column, whatever its place" \
	grep -qx '#. Glossary: mitochondrion (Français: mitochondrie)' gl.po
check "view glossary: the term found in the source language's column" \
	test "$(grep -c '^#. Glossary: mitochondrion' gl.po)" = 3
check "view glossary: a row without a term in the language says nothing" \
	sh -c "! grep -q 'Glossary: nucleus' gl.po"
run "$QBC" translate export --lang sw -o gl-sw.po bank.qb
check "view glossary: the same table for another language" \
	grep -qx '#. Glossary: mitochondrion (Kiswahili: mitokondria)' gl-sw.po
rm glossary.md

# ------------------------------------------------ XLIFF: gaps and pictures
run "$QBC" translate export --lang fr --format xliff -o fr.xlf bank.qb
check "view xliff: export exit 0" rc 0
check "view xliff: the file validates" xsd_valid fr.xlf
check "view xliff: a gap's answers are text of the source" \
	grep -qF 'Water <ph id="p1" dataRef="d1" type="other" subType="qbc:gap"/>evaporates<ph id="p2" dataRef="d2" type="other" subType="qbc:gap"/>evaporate<ph' fr.xlf
check "view xliff: a choice gap's choices are text" \
	grep -qF 'subType="qbc:gap"/>condenses<ph id="p5" dataRef="d5" type="other" subType="qbc:gap"/>melts<ph' fr.xlf
check "view xliff: the braces and marks are the placeholders' data" \
	sh -c "grep -qx '    <data id=\"d4\">{{=</data>' fr.xlf && grep -qx '    <data id=\"d5\"> ~</data>' fr.xlf && grep -qx '    <data id=\"d2\">|</data>' fr.xlf"
check "view xliff: no answer is locked in a placeholder" sh -c "! grep -q '<data id=\"d[0-9]*\">[^<]*condenses' fr.xlf"
check "view xliff: a picture's '![' is a placeholder, its description text" \
	grep -qF 'Look at <ph id="p1" dataRef="d1" type="other" subType="qbc:media"/>A cell<ph id="p2" dataRef="d2" type="other" subType="qbc:media"/>' fr.xlf
check "view xliff: a link's '[' too" \
	grep -qF 'subType="qbc:link"/>the notes<ph' fr.xlf

# A translator's tool fills the targets: text translated, placeholders kept.
cat >fill.py <<'EOF'
import copy, sys
import xml.etree.ElementTree as ET
NS = "urn:oasis:names:tc:xliff:document:2.0"
ET.register_namespace("", NS)
fr = {
    "The water cycle": "Le cycle de l’eau",
    "Water ": "L’eau ", "evaporates": "s’évapore", "evaporate": "évapore",
    "; the vapour ": " ; la vapeur ", "condenses": "se condense", "melts": "fond",
    "freezes": "gèle", " into clouds.": " en nuages.",
    "Evaporation, then condensation.": "L’évaporation, puis la condensation.",
    "Look at ": "Regardez ", "A cell": "Une cellule", ", hear ": ", écoutez ",
    "Hello": "Bonjour", ", read ": ", lisez ", "the notes": "les notes",
    " on ": " sur ", " and ": " et ", ".": ".", "Yes": "Oui", "No": "Non",
    "The mitochondrion makes energy.": "La mitochondrie produit l’énergie.",
    "Name the cell's power plant.": "Nommez la centrale de la cellule.",
    "mitochondrion": "mitochondrie", "Right.": "Juste.", "It makes energy.": "Elle produit l’énergie.",
    "Match each part with its job.": "Associez chaque partie à son rôle.",
    "Nucleus": "Noyau", "holds DNA": "contient l’ADN", "Mitochondrion": "Mitochondrie",
    "makes energy": "produit l’énergie", "digests food": "digère la nourriture",
    "Each part has one job.": "Chaque partie a un rôle.",
}
tree = ET.parse(sys.argv[1])
for seg in tree.iter("{%s}segment" % NS):
    src = seg.find("{%s}source" % NS)
    old = seg.find("{%s}target" % NS)
    if old is not None:
        seg.remove(old)
    trg = copy.deepcopy(src)
    trg.tag = "{%s}target" % NS
    for e in trg.iter():
        if e.text:
            e.text = fr[e.text]
        if e is not trg and e.tail:
            e.tail = fr[e.tail]
    seg.append(trg)
    seg.set("state", "translated")
tree.write(sys.argv[2], encoding="UTF-8", xml_declaration=True)
EOF
$PY fill.py fr.xlf fr-done.xlf 2>fill.err
check "view xliff: the translator's tool fills every unit" test -s fr-done.xlf
check "view xliff: the filled file validates" xsd_valid fr-done.xlf
run "$QBC" translate import fr-done.xlf bank.qb
check "view xliff: import exit 0" rc 0
check "view xliff: the French cloze has French answers" \
	grep -qxF '   fr: L’eau {{s’évapore|évapore}} ; la vapeur {{=se condense ~fond ~gèle}} en nuages.' bank.qb
check "view xliff: the French picture has a French description" \
	grep -qF 'fr: Regardez ![Une cellule](media/cell.gif), écoutez ![Bonjour](media/hello.mp3), lisez [les notes](https://example.org/n) sur $E = mc^2$ et `x`.' bank.qb
cp bank.qb withfr.qb
run "$QBC" build -o built --format all bank.qb
check "view french: builds into every output" rc 0
run "$QBC" dump --json bank.qb
check "view french: the JSON's French gap accepts the French answer" \
	jq -e '.questions[0].gaps.fr | .[0].answers[0] == "s’évapore" and .[1].answers[.[1].right] == "se condense"' "$T/out" >/dev/null
check "view french: SCORM 1.2's data has the French answers" \
	sh -c "unzip -p built/view-test.scorm12.zip data.js | grep -qF 'se condense'"
check "view french: SCORM 2004's data has the French answers" \
	sh -c "unzip -p built/view-test.scorm2004.zip data.js | grep -qF 's’évapore'"
check "view french: Anki's French cloze note has the French answer" \
	sh -c "unzip -p built/view-test.apkg collection.anki2 >c.db && sqlite3 c.db 'select flds from notes' | grep -F 'se condense' | grep -qF 's’évapore'"
check "view french: the Moodle XML has the French answers" \
	grep -qF 'se condense' built/view-test.moodle.xml
check "view french: QTI 2.1's French item expects the French answer" \
	sh -c "unzip -p built/view-test.fr.qti.zip item-cycle-fr.xml | grep -qF '<correctResponse><value>s’évapore</value></correctResponse>'"
check "view french: QTI 3.0's French item offers the French choice" \
	sh -c "unzip -p built/view-test.fr.qti3.zip item-cycle-fr.xml | grep -qF '>se condense</qti-inline-choice>'"
check "view french: the HTML page has the French answer" grep -qF 's’évapore' built/view-test.html

# ------------------------------------------------ the gaps' structure on import
# A bank already in French, so that one unit can be imported alone.
mkdir gaps && cd gaps || exit 2
cat >bank.qb <<'EOF'
bank: view-gaps
languages: en fr
default-language: en

title:
  en: The water cycle
  fr: Le cycle de l’eau

1. cycle
   type: cloze
   en: Water {{evaporates|evaporate}}; the vapour {{=condenses ~melts ~freezes}} into clouds.
   fr: L’eau {{s’évapore|évapore}} ; la vapeur {{=se condense ~fond ~gèle}} en nuages.
   explanation:
     en: Evaporation, then condensation.
     fr: L’évaporation, puis la condensation.
EOF
check "view gaps: the French bank checks" "$QBC" check -q bank.qb
cp bank.qb withfr.qb
run "$QBC" translate export --lang fr -o fr.po bank.qb
line=$(grep -n '^msgctxt "cycle/prompt"$' fr.po | cut -d: -f1)
gap_case() { # NAME TRANSLATION MESSAGE: an import of TRANSLATION fails with MESSAGE
	cp withfr.qb bank.qb
	$PY "$HERE/setpo.py" fr.po case.po "cycle/prompt" "$2"
	run "$QBC" translate import case.po bank.qb
	check "view gaps: $1: exit 1" rc 1
	check "view gaps: $1: said where, in the translator's file" \
		err_has "case.po:$line:1: error: translation of 'cycle/prompt': $3"
	check "view gaps: $1: nothing written" cmp -s bank.qb withfr.qb
}
gap_case "the right choice dropped" \
	"L’eau {{s’évapore}} ; la vapeur {{~se condense ~fond ~gèle}} en nuages." \
	"gap 2 of the translation has no right choice: keep the '=' before the right one"
gap_case "a choice dropped" \
	"L’eau {{s’évapore}} ; la vapeur {{=se condense ~fond}} en nuages." \
	"gap 2 of the translation has 2 choices, the source 3: translate each choice and keep its '=' or '~'"
gap_case "two right choices" \
	"L’eau {{s’évapore}} ; la vapeur {{=se condense =fond ~gèle}} en nuages." \
	"gap 2 of the translation marks 2 choices right ('='), the source 1"
gap_case "the gaps swapped" \
	"La vapeur {{=se condense ~fond ~gèle}} en nuages ; l’eau {{s’évapore}}." \
	"gap 1 is a typed gap ('{{answer|other}}') in the source and a choice gap in the translation: an answer does not start with '=' or '~'"
gap_case "a choice gap made typed" \
	"L’eau {{s’évapore}} ; la vapeur {{se condense}} en nuages." \
	"gap 2 is a choice gap ('{{=right ~wrong}}') in the source and a typed gap in the translation: keep its '=' and '~' marks"
gap_case "an empty answer" \
	"L’eau {{s’évapore|}} ; la vapeur {{=se condense ~fond ~gèle}} en nuages." \
	"gap 1 of the translation has an empty answer"
gap_case "a gap dropped" \
	"L’eau s’évapore ; la vapeur {{=se condense ~fond ~gèle}} en nuages." \
	"the translation has 1 cloze gap, the source 2: keep each {{…}} gap and translate the answers inside it"
gap_case "a gap not closed" \
	"L’eau {{s’évapore}} ; la vapeur {{=se condense ~fond ~gèle en nuages." \
	"a '{{' of the translation has no '}}': keep each gap's braces as they are"
# Fewer or more accepted spellings of a typed gap are the translator's.
$PY "$HERE/setpo.py" fr.po ok.po "cycle/prompt" \
	"L’eau {{s’évapore|évapore|s'évapore}} ; la vapeur {{=se condense ~fond ~gèle}} en nuages."
run "$QBC" translate import ok.po bank.qb
check "view gaps: other accepted spellings: exit 0" rc 0
check "view gaps: other accepted spellings: written" \
	grep -qxF "   fr: L’eau {{s’évapore|évapore|s'évapore}} ; la vapeur {{=se condense ~fond ~gèle}} en nuages." bank.qb
run "$QBC" dump --json bank.qb
check "view gaps: the PO's French spellings are the French gap's answers" \
	jq -e '.questions[0].gaps.fr[0].answers == ["s’évapore", "évapore", "s'"'"'évapore"]' "$T/out" >/dev/null
# In XLIFF, a broken gap is located at the unit's target.
cd "$T" || exit 2
cp orig.qb bank.qb
$PY - fr-done.xlf broken.xlf <<'EOF'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
i = s.index("<target>L’eau")
j = s.index('<ph id="p4"', i)
k = s.index("/>", j) + 2
open(sys.argv[2], "w", encoding="utf-8").write(s[:j] + s[k:])
EOF
xline=$(grep -n '<target>L’eau' broken.xlf | cut -d: -f1)
run "$QBC" translate import broken.xlf bank.qb
check "view gaps, xliff: a gap's '{{=' removed: exit 1" rc 1
check "view gaps, xliff: located in the XLIFF file" \
	err_has "broken.xlf:$xline:1: error: translation of 'cycle/prompt': the translation has 1 cloze gap, the source 2"
check "view gaps, xliff: nothing written" cmp -s bank.qb orig.qb

[ -n "${VIEW_KEEP:-}" ] && cp -r "$T" /tmp/vw-keep
cd "$ROOT" || exit 2
T=$VIEW_PREV_T
if [ -n "${VIEW_ALONE:-}" ]; then
	finish
fi
