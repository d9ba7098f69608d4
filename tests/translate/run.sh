#!/bin/sh
# tests/translate/run.sh - `qbc translate`: the PO and XLIFF files it writes
# (read by gettext's msgfmt and msgcat, the Translate Toolkit's pofilter and
# XLIFF reader, and xmllint against the OASIS XLIFF 2.0 core schema shipped
# here), and imports into the bank in place: a round trip without edits
# changes no byte, an edit changes exactly its lines, broken markup and
# texts changed since the export are reported and written nowhere, fuzzy
# units stay stale, and a new language imported whole builds everywhere.
. "$(dirname "$0")/../lib.sh"
HERE="$ROOT/tests/translate"
T=$(tmpdir)
cd "$T" || exit 2
err_lacks() { ! grep -qF -- "$1" "$T/err"; }
# The Debian python3, which has the Translate Toolkit's modules.
PY=/usr/bin/python3
. "$HERE/xsd.sh"

# A bank with every kind of text: comments, continuation lines, fenced
# code, a formula, a link, a picture, pairs, typed answers, cloze gaps.
mkdir -p media
printf 'GIF89a' >media/cell.gif
cat >bank.qb <<'EOF'
# A small bank for the translation tests.
bank: tr-test
languages: en sw
default-language: en

title:
  en: Cells and energy
  sw: Seli na nishati

1. cell-parts
   # The organelle question.
   en: Which part of the cell makes energy?\
       ![A cell](media/cell.gif)
   sw: Sehemu gani ya seli hutengeneza nishati?\
       ![Seli](media/cell.gif)
   * en: The mitochondrion
     sw: Mitokondria
     > en: Right: it makes ATP.
       sw: Sahihi: hutengeneza ATP.
   - en: The nucleus
     sw: Kiini
     > en: No: the nucleus holds the DNA.
       sw: Hapana: kiini kina DNA.
   explanation:
     en: Mitochondria turn food into energy ([more](https://example.org/mito)).
     sw: Mitokondria hugeuza chakula kuwa nishati ([zaidi](https://example.org/mito)).

2. energy-formula
   en: What does $E = mc^2$ say?
   sw: $E = mc^2$ inasema nini?
   * en: Mass is energy
     sw: Uzito ni nishati
   - en: Energy is light
     sw: Nishati ni mwanga
   explanation:
     en: Mass and energy are one.\
         | m | E |\
         |---|---|\
         | 1 kg | 9e16 J |
     sw: Uzito na nishati ni kitu kimoja.\
         | m | E |\
         |---|---|\
         | kg 1 | J 9e16 |

3. code-print
   en: What does this print?\
       ```python
       print(1 + 1)

       print(2)
       ```
   sw: Hii inachapisha nini?\
       ```python
       print(1 + 1)

       print(2)
       ```
   * en: 2
     sw: 2
   - en: 11
     sw: 11
   explanation:
     en: Python adds the numbers.
     sw: Python hujumlisha namba.

4. pairs
   type: matching
   en: Match each part with its job.
   sw: Linganisha kila sehemu na kazi yake.
   - en: Nucleus => holds DNA
     sw: Kiini => kina DNA
   - en: Mitochondrion => makes energy
     sw: Mitokondria => hutengeneza nishati
   explanation:
     en: Each part has one job.
     sw: Kila sehemu ina kazi moja.

5. typed
   type: short-answer
   en: Name the cell's power plant.
   sw: Taja kituo cha nishati cha seli.
   * en: mitochondrion
     sw: mitokondria
   explanation:
     en: The mitochondrion makes energy.
     sw: Mitokondria hutengeneza nishati.

6. gaps
   type: cloze
   en: The {{nucleus}} holds the DNA.
   sw: {{Kiini}} kina DNA.
   explanation:
     en: DNA is in the nucleus.
     sw: DNA iko ndani ya kiini.
EOF
cat >glossary.md <<'EOF'
# Glossary

| English | Kiswahili | Notes |
|---|---|---|
| mitochondrion | mitokondria | |
EOF
check "setup: the test bank checks" "$QBC" check -q bank.qb
cp bank.qb orig.qb

# ---------------------------------------------------------------- export
run "$QBC" translate export --lang sw bank.qb
check "export: exit 0" rc 0
check "export: the report counts the texts" out_has "bank.qb: 26 texts to translate into sw (26 translated, 0 stale, 0 untranslated) written to bank.sw.po"
check "export: the default file name" test -f bank.sw.po
check "export: one message per text, keyed by where it lives" \
	test "$(grep -c '^msgctxt ' bank.sw.po)" = 26
check "export: the key of an option's feedback" grep -qx 'msgctxt "cell-parts/option 2/feedback"' bank.sw.po
check "export: the key of a pair's right side" grep -qx 'msgctxt "pairs/pair 2/right"' bank.sw.po
check "export: the key of a typed answer" grep -qx 'msgctxt "typed/answer 1"' bank.sw.po
check "export: the question's prompt and type as context" \
	grep -qx '#. Question 1 (single): Which part of the cell makes energy?…' bank.sw.po
check "export: where the text appears" grep -qx '#. Feedback shown when the learner chooses option 2' bank.sw.po
check "export: the glossary's terms in the text" \
	grep -qx '#. Glossary: mitochondrion (Kiswahili: mitokondria)' bank.sw.po
check "export: the bank line of the source" grep -qx '#: bank.qb:16' bank.sw.po
check "export: the target is the language's text" grep -qx 'msgstr "Mitokondria"' bank.sw.po
check "export: the continued text as written (a hard break)" grep -qxF '"What does this print?\n"' bank.sw.po
check "export: the PO names its language" grep -qx '"Language: sw\\n"' bank.sw.po
msgfmt --check -o /dev/null bank.sw.po 2>msgfmt.err
check "msgfmt --check accepts the PO file" test $? = 0
check "msgfmt --check reports no error" sh -c '! grep -q error msgfmt.err'
msgcat bank.sw.po >msgcat.po
check "msgcat round-trips the PO file unchanged" cmp -s msgcat.po bank.sw.po
run "$QBC" translate export --lang fr bank.qb
check "export fr: every text untranslated" out_has "26 texts to translate into fr (0 translated, 0 stale, 26 untranslated)"
check "export fr: empty targets" test "$(grep -c '^msgstr ""$' bank.fr.po)" = 27
msgfmt --check -o /dev/null bank.fr.po 2>/dev/null
check "msgfmt --check accepts the untranslated PO file" test $? = 0
run "$QBC" translate export --lang en bank.qb
check "export: the default language is refused" rc 2
run "$QBC" translate export bank.qb
check "export: --lang is needed" rc 2

# pofilter: the checks that look at what a program could break (escapes,
# line breaks, white space at the ends, XML tags, printf formats): none fires on
# a file whose translations were written by people into the bank.
pofilter -t escapes -t newlines -t startwhitespace -t endwhitespace -t xmltags -t printf --progress=none bank.sw.po -o pofilter.po 2>pofilter.err
check "pofilter runs" test $? = 0
# (pofilter writes no file when it finds nothing.)
check "pofilter finds nothing in the PO file qbc wrote" sh -c "! grep -qs '^msgctxt' pofilter.po"
# ... and it does find a broken translation (the test can fail).
sed 's/^msgstr "Mitokondria"$/msgstr "Mitokondria\\n"/' bank.sw.po >broken.po
pofilter -t newlines --progress=none broken.po -o pofilter2.po 2>/dev/null
check "pofilter finds a broken line break" test "$(grep -c '^msgctxt' pofilter2.po)" -ge 1

# ---------------------------------------------------------------- import
run "$QBC" translate import bank.sw.po bank.qb
check "round trip without edits: exit 0" rc 0
check "round trip without edits: the bank is byte-identical" cmp -s bank.qb orig.qb
check "round trip without edits: the report" out_has "bank.qb: sw from bank.sw.po: 0 added, 0 changed, 26 unchanged, 0 skipped"
cp msgcat.po via-msgcat.po
run "$QBC" translate import via-msgcat.po bank.qb
check "round trip through msgcat: the bank is byte-identical" cmp -s bank.qb orig.qb

# A sed that translates some units anew, and a translator's tool (the
# Translate Toolkit's PO storage) for a text with fenced code: exactly
# their lines change.
sed -e '/^msgctxt "cell-parts\/option 1"$/,/^msgstr/ s/^msgstr .*/msgstr "Kitengenezi cha nishati"/' \
    -e '/^msgctxt "pairs\/pair 1\/right"$/,/^msgstr/ s/^msgstr .*/msgstr "huhifadhi DNA"/' \
    bank.sw.po >sed.po
$PY "$HERE/setpo.py" sed.po edited.po "code-print/prompt" \
	'Programu hii inachapisha nini?\n```python\nprint(1 + 1)\n\nprint(2)\n```' \
	"energy-formula/explanation" \
	'Uzito na nishati ni kimoja.\n\n| m | E |\n|---|---|\n| kg 1 | J 9e16 |'
run "$QBC" translate import edited.po bank.qb
check "sed edit: exit 0" rc 0
check "sed edit: the report" out_has "0 added, 4 changed, 22 unchanged, 0 skipped"
diff orig.qb bank.qb >edit.diff
cat >edit.expected <<'EOF'
17c17
<      sw: Mitokondria
---
>      sw: Kitengenezi cha nishati
40c40
<      sw: Uzito na nishati ni kitu kimoja.\
---
>      sw: Uzito na nishati ni kimoja.\
52c52
<    sw: Hii inachapisha nini?\
---
>    sw: Programu hii inachapisha nini?\
71c71
<      sw: Kiini => kina DNA
---
>      sw: Kiini => huhifadhi DNA
EOF
check "sed edit: exactly the translated lines change" cmp -s edit.diff edit.expected
check "sed edit: the bank still checks" "$QBC" check -q bank.qb
cp orig.qb bank.qb

# msgmerge: the translations of an old file merged into a new export.
sed -e '/^msgctxt "energy-formula\/option 2"$/,/^msgstr/ s/^msgstr .*/msgstr "Nishati ni nuru"/' bank.sw.po >old.po
msgmerge -q --no-fuzzy-matching old.po bank.sw.po -o merged.po 2>/dev/null
run "$QBC" translate import merged.po bank.qb
check "msgmerge: exit 0" rc 0
diff orig.qb bank.qb >merge.diff
printf '34c34\n<      sw: Nishati ni mwanga\n---\n>      sw: Nishati ni nuru\n' >merge.expected
check "msgmerge: exactly the merged line changes" cmp -s merge.diff merge.expected
cp orig.qb bank.qb

# Broken markup: a located error in the PO file, and nothing written.
sed -e '/^msgctxt "energy-formula\/prompt"$/,/^msgstr/ s/^msgstr .*/msgstr "E = mc2 inasema nini?"/' \
    -e '/^msgctxt "gaps\/prompt"$/,/^msgstr/ s/^msgstr .*/msgstr "Kiini kina DNA."/' \
    -e '/^msgctxt "cell-parts\/option 2"$/,/^msgstr/ s/^msgstr .*/msgstr "Kiini kipya"/' \
    bank.sw.po >markup0.po
$PY "$HERE/setpo.py" markup0.po markup.po "cell-parts/explanation" \
	'Mitokondria hugeuza chakula kuwa nishati ([zaidi](https://example.org/other)).'
line=$(grep -n '^msgctxt "energy-formula/prompt"$' markup.po | cut -d: -f1)
line2=$(grep -n '^msgctxt "cell-parts/explanation"$' markup.po | cut -d: -f1)
line3=$(grep -n '^msgctxt "gaps/prompt"$' markup.po | cut -d: -f1)
run "$QBC" translate import markup.po bank.qb
check "broken markup: exit 1" rc 1
check "broken markup: a lost formula, located in the PO file" \
	err_has "markup.po:$line:1: error: translation of 'energy-formula/prompt': the translation lacks '\$E = mc^2\$' of the source"
check "broken markup: a changed link target, located" \
	err_has "markup.po:$line2:1: error: translation of 'cell-parts/explanation': the translation lacks '](https://example.org/mito)' of the source"
check "broken markup: a lost cloze gap, located" \
	err_has "markup.po:$line3:1: error: translation of 'gaps/prompt': the translation has 0 cloze gaps, the source 1: keep each {{…}} gap and translate the answers inside it"
check "broken markup: nothing written, even the good unit" cmp -s bank.qb orig.qb
check "broken markup: said so" err_has "bank.qb: note: nothing was written"

# The bank changed after the export: that unit is skipped with a warning.
sed -e '/^msgctxt "cell-parts\/option 2"$/,/^msgstr/ s/^msgstr .*/msgstr "Kiini cha seli"/' \
    -e '/^msgctxt "energy-formula\/option 2"$/,/^msgstr/ s/^msgstr .*/msgstr "Nishati ni nuru"/' \
    bank.sw.po >late.po
sed 's/^   - en: The nucleus$/   - en: The cell nucleus/' orig.qb >bank.qb
cp bank.qb changed.qb
line=$(grep -n '^msgctxt "cell-parts/option 2"$' late.po | cut -d: -f1)
run "$QBC" translate import late.po bank.qb
check "source changed since the export: exit 0" rc 0
check "source changed since the export: a warning naming the unit" \
	err_has "late.po:$line:1: warning: skipped 'cell-parts/option 2': its 'en' text changed in the bank since the file was made; export again"
check "source changed since the export: the report says why" \
	out_has "1 changed, 24 unchanged, 1 skipped (1 changed in the bank since the export, 0 unknown)"
diff changed.qb bank.qb >late.diff
printf '34c34\n<      sw: Nishati ni mwanga\n---\n>      sw: Nishati ni nuru\n' >late.expected
check "source changed since the export: only the other unit is written" cmp -s late.diff late.expected
cp orig.qb bank.qb

# A PO file gettext cannot read: its own located message, nothing written.
printf 'msgid "x"\nmsgstr "y\n' >bad.po
run "$QBC" translate import bad.po bank.qb
check "malformed PO: exit 1" rc 1
check "malformed PO: gettext's message, located" err_has "bad.po:3:1: error: end-of-line within string"
check "malformed PO: nothing written" cmp -s bank.qb orig.qb
# A unit the bank does not have: skipped, named.
sed 's/^msgctxt "title"$/msgctxt "no-such-question\/prompt"/' bank.sw.po >unknown.po
run "$QBC" translate import unknown.po bank.qb
check "unknown unit: skipped with a warning" err_has "warning: skipped 'no-such-question/prompt': the bank has no such text"
check "unknown unit: counted" out_has "1 skipped (0 changed in the bank since the export, 1 unknown)"
check "unknown unit: the bank unchanged" cmp -s bank.qb orig.qb

# A translation in decomposed Unicode (as some editors save it) with a
# space at its end: written as the reader keeps texts, NFC and trimmed.
nfd=$(printf 'Mitokondria ye\314\201 ')
sed "/^msgctxt \"cell-parts\/option 1\"\$/,/^msgstr/ s/^msgstr .*/msgstr \"$nfd\"/" bank.sw.po >nfd.po
run "$QBC" translate import nfd.po bank.qb
check "NFD translation: imported" rc 0
check "NFD translation: written in NFC, trimmed" grep -qx "$(printf '     sw: Mitokondria y\303\251')" bank.qb
cp orig.qb bank.qb
# A PO file whose bytes are not the UTF-8 its header says: refused,
# nothing written (a file in the charset it names is converted: readers.sh).
sed -e 's/^msgstr "Mitokondria"$/msgstr "Mitokondria \xe9"/' bank.sw.po >latin1.po
run "$QBC" translate import latin1.po bank.qb
check "not UTF-8: exit 1" rc 1
check "not UTF-8: gettext says where" err_has "error: invalid multibyte sequence"
check "not UTF-8: nothing written" cmp -s bank.qb orig.qb

# ---------------------------------------------------------------- stale
# A built bank whose English option changes: its Kiswahili is stale, so
# fuzzy in the PO file; a fuzzy import keeps it stale, a plain one (or
# --reviewed) makes it current.
mkdir -p st && cp orig.qb st/bank.qb && cp -r media st/ && cd st || exit 2
"$QBC" build -o out --format json bank.qb >/dev/null 2>&1
sed -i 's/^   - en: Energy is light$/   - en: Energy is only light/' bank.qb
"$QBC" build -o out --format json bank.qb >/dev/null 2>&1
run "$QBC" translate export --lang sw bank.qb
check "stale: counted" out_has "(25 translated, 1 stale, 0 untranslated)"
check "stale: the unit is fuzzy" sh -c "grep -B1 -x 'msgctxt \"energy-formula/option 2\"' bank.sw.po | grep -qx '#, fuzzy'"
check "stale: one fuzzy unit only" test "$(grep -c '^#, fuzzy' bank.sw.po)" = 1
msgfmt --check -o /dev/null bank.sw.po 2>/dev/null
check "stale: msgfmt --check accepts the fuzzy unit" test $? = 0
cp bank.qb before.qb
cp bank.lock before.lock
sed '/^msgctxt "energy-formula\/option 2"$/,/^msgstr/ s/^msgstr .*/msgstr "Nishati ni mwanga tu"/' bank.sw.po >fuzzy.po
run "$QBC" translate import fuzzy.po bank.qb
check "fuzzy import: written" sh -c "grep -qx '     sw: Nishati ni mwanga tu' bank.qb"
check "fuzzy import: reported as left stale" out_has "revision record: 0 marked current, 1 left stale (fuzzy)"
run "$QBC" check bank.qb
check "fuzzy import: the translation stays stale" err_has "'sw' text of question 'energy-formula' option 2 may be stale"
cp before.qb bank.qb
cp before.lock bank.lock
# ... and a current translation changed too: its English does not
# become stale (as it would after a hand edit of the Kiswahili).
sed -e '/^#, fuzzy$/d' \
    -e '/^msgctxt "cell-parts\/option 1"$/,/^msgstr/ s/^msgstr .*/msgstr "Mitokondria ya seli"/' \
    fuzzy.po >plain.po
run "$QBC" translate import plain.po bank.qb
check "plain import: reported as current" out_has "revision record: 2 marked current, 0 left stale (fuzzy)"
run "$QBC" check bank.qb
check "plain import: no longer stale, and nothing else stale" err_lacks "may be stale"
cp before.qb bank.qb
cp before.lock bank.lock
run "$QBC" translate import --reviewed fuzzy.po bank.qb
check "--reviewed import: marked current, every imported translation reviewed" out_has "revision record: 26 marked current (reviewed), 0 left stale (fuzzy)"
run "$QBC" check bank.qb
check "--reviewed import: no longer stale" err_lacks "may be stale"
check "--reviewed import: the record marks them reviewed" test "$(grep -c '^text .* sw [0-9a-f]* [0-9a-f]* reviewed$' bank.lock)" = 26
run "$QBC" translate export --lang sw --format xliff -o rv.xlf bank.qb
check "--reviewed import: XLIFF says reviewed" test "$(grep -c '<segment state="reviewed">' rv.xlf)" = 26
check "reviewed: the XLIFF validates" xsd_valid rv.xlf
run "$QBC" translate export --lang sw -o rv.po bank.qb
check "reviewed: PO says it in a note" test "$(grep -cx '#. reviewed' rv.po)" = 26
msgfmt --check -o /dev/null rv.po 2>/dev/null
check "reviewed: msgfmt --check accepts it" test $? = 0
"$QBC" build -o out --format json bank.qb >/dev/null 2>&1
check "reviewed: a build keeps the marks" test "$(grep -c ' reviewed$' bank.lock)" = 26
# A new edit of the source: its translation is stale again (initial),
# and an edit of a translation takes its mark away.
sed -i -e 's/^   \* en: Mass is energy$/   * en: Mass is a form of energy/' \
       -e 's/^     sw: Kiini$/     sw: Kiini cha seli/' bank.qb
"$QBC" build -o out --format json bank.qb >/dev/null 2>&1
# (rv.xlf, not the bank's Kiswahili any more, would be kept: export.sh)
rm rv.xlf
run "$QBC" translate export --lang sw --format xliff -o rv.xlf bank.qb
check "reviewed, then the source edited: initial again" sh -c "grep -A8 'name=\"energy-formula/option 1\"' rv.xlf | grep -qF '<segment state=\"initial\">'"
check "reviewed, then the translation edited: translated, not reviewed" sh -c "grep -A8 'name=\"cell-parts/option 2\"' rv.xlf | grep -qF '<segment state=\"translated\">'"
check "reviewed, then edited: the others stay reviewed" test "$(grep -c '<segment state="reviewed">' rv.xlf)" = 24
check "reviewed, then edited: the XLIFF validates" xsd_valid rv.xlf
check "reviewed, then edited: the edited texts lose their mark" test "$(grep -c ' reviewed$' bank.lock)" = 24
cp bank.lock edited.lock
cp bank.qb edited.qb
# qbc review marks what it makes current.
run "$QBC" review bank.qb
check "review: the two stale translations" out_has "2 translations marked as reviewed"
run "$QBC" translate export --lang sw --format xliff -o rv.xlf bank.qb
check "review: XLIFF says reviewed" sh -c "grep -A8 'name=\"energy-formula/option 1\"' rv.xlf | grep -qF '<segment state=\"reviewed\">'"
check "review: the XLIFF validates" xsd_valid rv.xlf
# ... and so does translate import --reviewed, from the stale export.
cp edited.lock bank.lock
run "$QBC" translate export --lang sw --format xliff -o st.xlf bank.qb
run "$QBC" translate import --reviewed st.xlf bank.qb
check "import --reviewed: the record changed" out_has "marked current (reviewed)"
run "$QBC" translate export --lang sw --format xliff -o rv.xlf bank.qb
check "import --reviewed: XLIFF says reviewed" sh -c "grep -A8 'name=\"energy-formula/option 1\"' rv.xlf | grep -qF '<segment state=\"reviewed\">'"
check "import --reviewed: every unit reviewed" test "$(grep -c '<segment state="reviewed">' rv.xlf)" = 26
check "import --reviewed: the XLIFF validates" xsd_valid rv.xlf
cd "$T" || exit 2

# ---------------------------------------------------------------- previous source
# Exported again over the translator's earlier file after an English text
# changed (and a build saw it): as msgmerge --previous does, the unit shows
# the earlier file's source as its previous msgid and is fuzzy; every
# other unit stays as it was.  In XLIFF the previous source is a note.
mkdir -p pv && cp orig.qb pv/bank.qb && cp -r media pv/ && cd pv || exit 2
"$QBC" build -o out --format json bank.qb >/dev/null 2>&1
"$QBC" translate export --lang sw bank.qb >/dev/null 2>&1
"$QBC" translate export --lang sw --format xliff bank.qb >/dev/null 2>&1
"$QBC" translate export --lang fr bank.qb >/dev/null 2>&1
cp bank.sw.po old.sw.po
# The French translator's work, not imported yet.
sed -i '/^msgctxt "energy-formula\/option 2"$/,/^msgstr/ s/^msgstr .*/msgstr "L’énergie est de la lumière"/' bank.fr.po
sed -i 's/^   - en: Energy is light$/   - en: Energy is only light/' bank.qb
"$QBC" build -o out --format json bank.qb >/dev/null 2>&1
run "$QBC" translate export --lang sw bank.qb
check "previous: exit 0" rc 0
check "previous: counted stale" out_has "(25 translated, 1 stale, 0 untranslated)"
check "previous: the old source is the previous msgid, the unit fuzzy" sh -c "grep -B3 -x 'msgctxt \"energy-formula/option 2\"' bank.sw.po | tr '\n' '|' | grep -qF '#, fuzzy|#| msgid \"Energy is light\"|'"
check "previous: the new source is the msgid" sh -c "grep -A1 -x 'msgctxt \"energy-formula/option 2\"' bank.sw.po | grep -qxF 'msgid \"Energy is only light\"'"
check "previous: one previous msgid only" test "$(grep -c '^#| msgid' bank.sw.po)" = 1
msgfmt --check -o /dev/null bank.sw.po 2>msgfmt.err
check "previous: msgfmt --check accepts it" test $? = 0
msgcat bank.sw.po -o pv.cat.po 2>/dev/null
check "previous: msgcat round-trips it unchanged" cmp -s bank.sw.po pv.cat.po
diff old.sw.po bank.sw.po >pv.diff
# The changed unit's lines only: its flags, previous msgid and msgid.
grep -c '^[<>]' pv.diff >pv.count
check "previous: the other units are unchanged" sh -c "! grep '^[<>]' pv.diff | grep -v -e '^> #, fuzzy\$' -e '^> #| msgid \"Energy is light\"\$' -e '^< msgid \"Energy is light\"\$' -e '^> msgid \"Energy is only light\"\$'"
check "previous: four lines differ" test "$(cat pv.count)" = 4
run "$QBC" translate export --lang fr bank.qb
check "previous, untranslated in the bank: the earlier file's translation kept, fuzzy" sh -c "grep -A4 -B3 -x 'msgctxt \"energy-formula/option 2\"' bank.fr.po | tr '\n' '|' | grep -qF '#, fuzzy|#| msgid \"Energy is light\"|msgctxt \"energy-formula/option 2\"|msgid \"Energy is only light\"|msgstr \"L’énergie est de la lumière\"'"
msgfmt --check -o /dev/null bank.fr.po 2>/dev/null
check "previous, fr: msgfmt --check accepts it" test $? = 0
run "$QBC" translate export --lang sw --format xliff bank.qb
check "previous, xliff: a previous-source note" grep -qF '<note category="previous-source" appliesTo="source">Energy is light</note>' bank.sw.xlf
check "previous, xliff: one" test "$(grep -c 'previous-source' bank.sw.xlf)" = 1
check "previous, xliff: the schema validates it" xsd_valid bank.sw.xlf
check "previous, xliff: the unit is initial" sh -c "grep -A8 'name=\"energy-formula/option 2\"' bank.sw.xlf | grep -qF '<segment state=\"initial\">'"
# Over a file of another language: it gives neither sources nor targets.
cp old.sw.po other.po
run "$QBC" translate export --lang fr -o other.po bank.qb
check "previous, another language's file: no previous msgid" test "$(grep -c '^#| msgid' other.po)" = 0
check "previous, another language's file: none of its translations" sh -c "! grep -q 'Nishati' other.po"
# Exported to a new file: no previous source (the record keeps none).
run "$QBC" translate export --lang sw -o new.sw.po bank.qb
check "previous: none without an earlier file" test "$(grep -c '^#| msgid' new.sw.po)" = 0
cd "$T" || exit 2

# ---------------------------------------------------------------- XLIFF
run "$QBC" translate export --lang sw --format xliff bank.qb
check "xliff: exit 0" rc 0
check "xliff: default name" test -f bank.sw.xlf
check "xliff: the OASIS XLIFF 2.0 core schema validates it" xsd_valid bank.sw.xlf
check "xliff: a formula is a placeholder" grep -qF '<ph id="p1" dataRef="d1" type="other" subType="qbc:math"/>' bank.sw.xlf
check "xliff: its text is in the unit's original data" grep -qF '<data id="d1">$E = mc^2$</data>' bank.sw.xlf
check "xliff: states" grep -qF '<segment state="translated">' bank.sw.xlf
$PY -c "
import sys
from translate.storage import xliff
xliff.xlifffile.parsefile(sys.argv[1])
" bank.sw.xlf 2>xlf.err
check "xliff: the Translate Toolkit's XLIFF reader opens it" test $? = 0
# The Translate Toolkit (3.8) reads XLIFF 1.2 only: it opens qbc's 2.0
# file without error (above), and its own po2xliff turns qbc's PO file
# into an XLIFF 1.2 file whose units are every text, targets intact.
po2xliff --progress=none bank.sw.po tt.xlf 2>/dev/null
$PY - tt.xlf <<'EOF' >tt.out
import sys
from translate.storage import xliff
units = [u for u in xliff.xlifffile.parsefile(sys.argv[1]).units if not u.isheader()]
print(len(units))
print(units[1].target)
EOF
check "po2xliff: every unit of qbc's PO file" test "$(head -1 tt.out)" = 26
check "po2xliff: a continued text's target intact" grep -qxF '![Seli](media/cell.gif)' tt.out
run "$QBC" translate export --lang fr -o fr.xlf bank.qb
check "xliff (by -o's name): the untranslated file validates" xsd_valid fr.xlf
check "xliff: untranslated units are initial" test "$(grep -c '<segment state="initial">' fr.xlf)" = 26
run "$QBC" translate import bank.sw.xlf bank.qb
check "xliff round trip without edits: the bank is byte-identical" cmp -s bank.qb orig.qb
sed 's|<target>Hapana: kiini kina DNA.</target>|<target>Hapana: kiini hubeba DNA.</target>|' bank.sw.xlf >edited.xlf
run "$QBC" translate import edited.xlf bank.qb
diff orig.qb bank.qb >xlf.diff
printf '23c23\n<        sw: Hapana: kiini kina DNA.\n---\n>        sw: Hapana: kiini hubeba DNA.\n' >xlf.expected
check "xliff edit: exactly the translated line changes" cmp -s xlf.diff xlf.expected
cp orig.qb bank.qb
# A unit given twice: located, nothing written.
$PY - bank.sw.xlf >twice.xlf <<'EOF'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
a = s.index('  <unit id="u2"')
b = s.index('  <unit id="u3"')
sys.stdout.write(s[:b] + s[a:b].replace('id="u2"', 'id="u2b"') + s[b:])
EOF
run "$QBC" translate import twice.xlf bank.qb
check "xliff: a unit twice is an error" err_has "error: a second unit 'cell-parts/prompt'; the first is on line"
check "xliff: a unit twice writes nothing" cmp -s bank.qb orig.qb
# A target that drops its formula placeholder: located, nothing written.
$PY - bank.sw.xlf >noph.xlf <<'EOF'
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
s = s.replace('<target><ph id="p1" dataRef="d1" type="other" subType="qbc:math"/> inasema nini?</target>',
              '<target>E inasema nini?</target>')
sys.stdout.write(s)
EOF
line=$(grep -n '<target>E inasema nini?</target>' noph.xlf | cut -d: -f1)
run "$QBC" translate import noph.xlf bank.qb
check "xliff: a lost placeholder is a located error" \
	err_has "noph.xlf:$line:1: error: translation of 'energy-formula/prompt': the translation lacks '\$E = mc^2\$'"
check "xliff: a lost placeholder writes nothing" cmp -s bank.qb orig.qb

# ---------------------------------------------------------------- a new language
# French for the whole bank from a fixed table, imported, built everywhere.
"$QBC" translate export --lang fr bank.qb >/dev/null
$PY - bank.fr.po >fr.po <<'EOF'
import sys
from translate.storage import po
fr = {
 "Cells and energy": "Cellules et énergie",
 "Which part of the cell makes energy?\\\n![A cell](media/cell.gif)": "Quelle partie de la cellule produit l’énergie ?\\\n![Une cellule](media/cell.gif)",
 "The mitochondrion": "La mitochondrie",
 "Right: it makes ATP.": "Oui : elle produit l’ATP.",
 "The nucleus": "Le noyau",
 "No: the nucleus holds the DNA.": "Non : le noyau contient l’ADN.",
 "Mitochondria turn food into energy ([more](https://example.org/mito)).": "Les mitochondries changent la nourriture en énergie ([plus](https://example.org/mito)).",
 "What does $E = mc^2$ say?": "Que dit $E = mc^2$ ?",
 "Mass is energy": "La masse est de l’énergie",
 "Energy is light": "L’énergie est de la lumière",
 "Mass and energy are one.\n\n| m | E |\n|---|---|\n| 1 kg | 9e16 J |": "Masse et énergie ne font qu’un.\n\n| m | E |\n|---|---|\n| 1 kg | 9e16 J |",
 "What does this print?\n```python\nprint(1 + 1)\n\nprint(2)\n```": "Qu’affiche ce programme ?\n```python\nprint(1 + 1)\n\nprint(2)\n```",
 "2": "2",
 "11": "11",
 "Python adds the numbers.": "Python additionne les nombres.",
 "Match each part with its job.": "Associez chaque partie à son rôle.",
 "Nucleus": "Noyau",
 "holds DNA": "contient l’ADN",
 "Mitochondrion": "Mitochondrie",
 "makes energy": "produit l’énergie",
 "Each part has one job.": "Chaque partie a un rôle.",
 "Name the cell's power plant.": "Nommez la centrale énergétique de la cellule.",
 "mitochondrion": "mitochondrie",
 "The mitochondrion makes energy.": "La mitochondrie produit l’énergie.",
 "The {{nucleus}} holds the DNA.": "Le {{noyau}} contient l’ADN.",
 "DNA is in the nucleus.": "L’ADN est dans le noyau.",
}
store = po.pofile.parsefile(sys.argv[1])
for u in store.units:
    if u.isheader():
        continue
    u.target = fr[u.source]
sys.stdout.buffer.write(bytes(store))
EOF
check "french: the table covers every unit" test -s fr.po
run "$QBC" translate import fr.po bank.qb
check "french: exit 0" rc 0
check "french: every text added" out_has "26 added, 0 changed, 0 unchanged, 0 skipped"
check "french: the language is added" grep -qx 'languages: en sw fr' bank.qb
check "french: the report says so" out_has "'fr' added to the bank's languages"
check "french: a new line after the last language of an option" \
	sh -c "grep -A1 -x '     sw: Mitokondria' bank.qb | grep -qx '     fr: La mitochondrie'"
check "french: fenced code carried as written" \
	sh -c "grep -A5 -x '   fr: Qu’affiche ce programme ?\\\\' bank.qb | tail -1 | grep -qx '       \`\`\`'"
check "french: an empty line of code stays empty" \
	sh -c "grep -A3 -x '   fr: Qu’affiche ce programme ?\\\\' bank.qb | tail -1 | grep -qx ''"
check "french: only lines are added (no line of the bank changes but languages:)" \
	test "$(diff orig.qb bank.qb | grep -c '^<')" = 1
run "$QBC" build -o built --format all bank.qb
check "french: builds into every output" rc 0
check "french: the Moodle XML has the French text" grep -qF 'La mitochondrie' built/tr-test.moodle.xml
check "french: the SCORM 1.2 package has the French text" sh -c "unzip -p built/tr-test.scorm12.zip data.js | grep -qF 'La mitochondrie'"
check "french: the SCORM 2004 package has the French text" sh -c "unzip -p built/tr-test.scorm2004.zip data.js | grep -qF 'La mitochondrie'"
check "french: the Anki package has the French text" sh -c "unzip -p built/tr-test.apkg collection.anki2 >c.db && sqlite3 c.db 'select flds from notes' | grep -qF 'La mitochondrie'"
check "french: the JSON has the French text" grep -qF '"fr": "La mitochondrie"' built/tr-test.json
# A partial new language comes in as far as it is translated (export.sh).
cp orig.qb bank.qb
sed '/^msgctxt "title"$/,/^msgstr/ s/^msgstr .*/msgstr "Cellules"/' bank.fr.po >partial.po
run "$QBC" translate import partial.po bank.qb
check "partial new language: exit 0" rc 0
check "partial new language: says what is left" out_has "25 texts still have no 'fr' translation"
check "partial new language: the title written" grep -qx '  fr: Cellules' bank.qb

# --- numeric cloze gaps (issue 36): the number is protected markup, kept
# whole in PO and XLIFF, and a translation that changes it is refused
mkdir numgaps && cd numgaps || exit 2
cat >g.qb <<'EOF'
bank: tr-numgaps
languages: en sw
title:
  en: Numeric gaps
  sw: Mapengo ya namba

1. measures
   type: cloze
   en: g is {{#9.81 ± 0.05}} m/s² and water is {{water|H2O}}.
   sw: g ni {{#9.81 ± 0.05}} m/s² na maji ni {{maji|H2O}}.
   explanation:
     en: Measured.
     sw: Imepimwa.
EOF
cp g.qb g.orig
run "$QBC" translate export --lang sw --format xliff g.qb
check "numeric gap: XLIFF export" rc 0
check "numeric gap: the whole gap is one placeholder's data, not text to translate" \
	sh -c "grep -qF '<data id=\"d1\">{{#9.81 ± 0.05}}</data>' g.sw.xlf && ! grep -qF '<data id=\"d2\">{{#</data>' g.sw.xlf"
run "$QBC" translate export --lang sw g.qb
check "numeric gap: the PO note says to keep it whole" \
	grep -qF '#. Numeric gaps, {{#number}}: keep each whole, as it is; its number is the same in every language' g.sw.po
sed '/^msgctxt "measures\/prompt"$/,/^msgstr/ s/^msgstr .*/msgstr "g ni {{#9,81 ± 0,05}} m\/s² na maji ni {{maji|H2O}}."/' g.sw.po >num.po
ln=$(grep -n '^msgctxt "measures/prompt"$' num.po | cut -d: -f1)
run "$QBC" translate import num.po g.qb
check "numeric gap: a translated number is refused, located" \
	err_has "num.po:$ln:1: error: translation of 'measures/prompt': gap 1 is a numeric gap ('{{#9.81 ± 0.05}}') in the source: keep it exactly as it is, its number is not translated"
check "numeric gap: nothing written" cmp -s g.qb g.orig
sed '/^msgctxt "measures\/prompt"$/,/^msgstr/ s/^msgstr .*/msgstr "g ni {{#9.81 ± 0.05}} m\/s² na maji ni {{maji|H2O|H₂O}}."/' g.sw.po >ok.po
run "$QBC" translate import ok.po g.qb
check "numeric gap: kept whole, the other gap's answers translated: imported" \
	sh -c "test \"\$(cat '$T/rc')\" = 0 && grep -qxF '   sw: g ni {{#9.81 ± 0.05}} m/s² na maji ni {{maji|H2O|H₂O}}.' g.qb"
cd .. || exit 2

. "$HERE/view.sh"
. "$HERE/readers.sh"
. "$HERE/export.sh"
. "$HERE/passage.sh"
. "$HERE/bigpo.sh"
finish
