# tests/translate/readers.sh - sourced by run.sh (its helpers, counts and
# test bank): `qbc translate import` of the files translators' tools write
# back.  The npm `xliff` package and ilib-xliff (tests/package.json), the
# Translate Toolkit's po2xliff/xliff2po and pofilter; XLIFF groups; a PO
# in its header's charset; a file of another language or of no unit of
# the bank; plural messages, control characters and runaway lengths; the
# reviewed state a file gives; diagnostics at the translator's file.
R=$(tmpdir)
cp "$T/orig.qb" "$R/bank.qb" && cp "$T/orig.qb" "$R/orig.qb" && cp -r "$T/media" "$R/" && cd "$R" || exit 2
TOOLS="$HERE/xliff-tools.mjs"
restore() { cp orig.qb bank.qb; rm -f bank.lock; }

# ------------------------------------------------ the npm xliff package
"$QBC" translate export --lang sw --format xliff -o sw.xlf bank.qb >/dev/null
node "$TOOLS" xliff sw.xlf npm-keep.xlf keep
check "npm xliff: its file has no originalData and no state" \
	sh -c "! grep -q -e originalData -e 'state=' npm-keep.xlf"
run "$QBC" translate import npm-keep.xlf bank.qb
check "npm xliff, as read: exit 0" rc 0
check "npm xliff, as read: every unit unchanged" \
	out_has "0 added, 0 changed, 26 unchanged, 0 skipped (0 changed in the bank since the export, 0 unknown)"
check "npm xliff, as read: the bank byte-identical" cmp -s bank.qb orig.qb
# Targets filled by the library (a new language): every text added, the
# markup and the line breaks around it as the source has them.
"$QBC" translate export --lang fr --format xliff -o fr.xlf bank.qb >/dev/null
node "$TOOLS" xliff fr.xlf npm-fr.xlf fill
check "npm xliff, filled: placeholders pretty-printed onto their own lines" \
	grep -qE '^ +<ph id="p1" dataRef="d1" type="other" subType="qbc:code"/>$' npm-fr.xlf
run "$QBC" translate import npm-fr.xlf bank.qb
check "npm xliff, filled: exit 0" rc 0
check "npm xliff, filled: every text added" out_has "26 added, 0 changed, 0 unchanged, 0 skipped"
check "npm xliff, filled: a formula kept in place" grep -qxF '   fr: What doés $E = mc^2$ say?' bank.qb
check "npm xliff, filled: a link target kept in place" \
	grep -qxF '     fr: Mitochondria turn food into énérgy ([moré](https://example.org/mito)).' bank.qb
check "npm xliff, filled: a code block on its own lines" \
	test "$(grep -A5 -xF '   fr: What doés this print?\' bank.qb | tr '\n' '|')" = '   fr: What doés this print?\|       ```python|       print(1 + 1)||       print(2)|       ```|'
check "npm xliff, filled: a gap kept, its answer translated" grep -qxF '   fr: Thé {{nucléus}} holds thé DNA.' bank.qb
check "npm xliff, filled: the bank checks" "$QBC" check -q bank.qb
restore
# A placeholder that is none of the unit's: located, nothing written.
sed 's|<ph id="p1" dataRef="d1" type="other" subType="qbc:math"/> say|<ph id="p7" dataRef="d9"/> say|' npm-keep.xlf >npm-bad.xlf
line=$(awk '/id="p7"/ { f = 1 } f && /<target>/ { print NR; exit }' npm-bad.xlf)
run "$QBC" translate import npm-bad.xlf bank.qb
check "npm xliff, an unknown placeholder: exit 1" rc 1
check "npm xliff, an unknown placeholder: located" \
	err_has "npm-bad.xlf:$line:1: error: translation of 'energy-formula/prompt': the placeholder <ph id=\"p7\"> has no data"
check "npm xliff, an unknown placeholder: nothing written" cmp -s bank.qb orig.qb

# ------------------------------------------------ ilib-xliff
node "$TOOLS" ilib sw.xlf ilib-keep.xlf keep
check "ilib-xliff: its file has groups, no namespace" \
	sh -c "grep -q '<group ' ilib-keep.xlf && ! grep -q 'urn:oasis:names:tc:xliff:document:2.0' ilib-keep.xlf"
run "$QBC" translate import ilib-keep.xlf bank.qb
check "ilib-xliff, as read: exit 0" rc 0
check "ilib-xliff, as read: the units it dropped placeholders of are named, not 'changed in the bank'" \
	out_has "21 unchanged, 5 skipped (0 changed in the bank since the export, 5 changed by a tool, 0 unknown)"
check "ilib-xliff, as read: the warning says what the tool did" \
	err_has "warning: skipped 'energy-formula/prompt': its source differs from the bank's 'en' text only in markup, punctuation or white space"
check "ilib-xliff, as read: the bank byte-identical" cmp -s bank.qb orig.qb
node "$TOOLS" ilib sw.xlf ilib-sw.xlf fill
run "$QBC" translate import ilib-sw.xlf bank.qb
check "ilib-xliff, filled: the units it kept are written" out_has "0 added, 19 changed, 2 unchanged, 5 skipped"
check "ilib-xliff, filled: a translation in place" grep -qxF '     sw: Thé mitochondrion' bank.qb
restore
# A bank without markup goes through ilib-xliff whole: a new language.
cat >plain.qb <<'EOF'
bank: plain
languages: en
default-language: en
title:
  en: Colours

1. colours
   en: Which colour is the sky?
   * en: Blue
   - en: Green
   explanation:
     en: Light scatters.
EOF
"$QBC" translate export --lang fr --format xliff -o plain.fr.xlf plain.qb >/dev/null
node "$TOOLS" ilib plain.fr.xlf plain-ilib.xlf fill
run "$QBC" translate import plain-ilib.xlf plain.qb
check "ilib-xliff, a new language: exit 0" rc 0
check "ilib-xliff, a new language: every text" out_has "5 added, 0 changed, 0 unchanged, 0 skipped"
check "ilib-xliff, a new language: added" grep -qx 'languages: en fr' plain.qb
check "ilib-xliff, a new language: a text" grep -qxF '   fr: Which colour is thé sky?' plain.qb

# ------------------------------------------------ XLIFF groups
$PY - sw.xlf >grouped.xlf <<'EOF'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
a = s.index('<unit id="u2"')
b = s.index('<unit id="u8"')
s = s[:a] + '<group id="g1" name="cell-parts"><group id="g2">' + s[a:b] + '</group></group>\n    ' + s[b:]
s = s.replace('<target>Mitokondria</target>', '<target>Mitokondria ya seli</target>', 1)
sys.stdout.write(s)
EOF
check "groups: the file validates (groups are XLIFF 2.0)" xsd_valid grouped.xlf
run "$QBC" translate import grouped.xlf bank.qb
check "groups: exit 0" rc 0
check "groups: every unit read" out_has "0 added, 1 changed, 25 unchanged, 0 skipped"
check "groups: a unit inside a group written" grep -qxF '     sw: Mitokondria ya seli' bank.qb
restore

# ------------------------------------------------ no unit for this bank
"$QBC" translate export --lang sw -o sw.po bank.qb >/dev/null
sed -n '1,/^$/p' sw.po >empty.po
run "$QBC" translate import empty.po bank.qb
check "a PO with no message: exit 1" rc 1
check "a PO with no message: said so" err_has "empty.po: error: the file has no translation unit"
run "$QBC" translate import sw.po plain.qb
check "another bank's file: exit 1" rc 1
check "another bank's file: said so" err_has "sw.po: error: none of the file's 26 units is a text of plain.qb"
check "another bank's file: nothing written" grep -qx 'languages: en fr' plain.qb

# ------------------------------------------------ the Translate Toolkit
# po2xliff and xliff2po lose msgctxt: the messages are placed by their
# "#:" bank line and msgid.
po2xliff --progress=none sw.po tt.xlf 2>/dev/null
xliff2po --progress=none tt.xlf tt.po 2>/dev/null
check "po2xliff/xliff2po: msgctxt lost" sh -c "! grep -q '^msgctxt' tt.po"
run "$QBC" translate import tt.po bank.qb
check "po2xliff/xliff2po: every message placed" out_has "0 added, 0 changed, 26 unchanged, 0 skipped"
check "po2xliff/xliff2po: the bank byte-identical" cmp -s bank.qb orig.qb
sed '/^msgid "The nucleus"$/,/^msgstr/ s/^msgstr .*/msgstr "Kiini cha seli"/' tt.po >tt-edit.po
run "$QBC" translate import tt-edit.po bank.qb
check "po2xliff/xliff2po, edited: exit 0" rc 0
check "po2xliff/xliff2po, edited: the translation in its place" \
	test "$(diff orig.qb bank.qb | tr '\n' '|')" = '21c21|<      sw: Kiini|---|>      sw: Kiini cha seli|'
restore
# pofilter's output: the messages it flags, msgctxt kept, imported alone.
sed '/^msgctxt "title"$/,/^msgstr/ s/^msgstr .*/msgstr "Seli na nishati "/' sw.po >ws.po
pofilter -t endwhitespace --progress=none ws.po -o flagged.po 2>/dev/null
run "$QBC" translate import flagged.po bank.qb
check "pofilter's output: imported (its one message, trimmed)" out_has "0 added, 0 changed, 1 unchanged, 0 skipped"

# ------------------------------------------------ PO charset, plurals, limits
iconv -f UTF-8 -t ISO-8859-1//TRANSLIT sw.po | sed -e 's/charset=UTF-8/charset=ISO-8859-1/' \
	-e "s/^msgstr \"Mitokondria\"\$/msgstr \"Mitokondria $(printf '\351')\"/" >latin1.po
msgfmt --check -o /dev/null latin1.po 2>/dev/null
check "Latin-1 PO: msgfmt accepts it" test $? = 0
run "$QBC" translate import latin1.po bank.qb
check "Latin-1 PO: exit 0" rc 0
check "Latin-1 PO: converted, its two texts changed" out_has "0 added, 2 changed, 24 unchanged"
check "Latin-1 PO: written in UTF-8" grep -qx "$(printf '     sw: Mitokondria \303\251')" bank.qb
restore
$PY - sw.po >plural.po <<'EOF'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
s = s.replace('msgid "The nucleus"\nmsgstr "Kiini"', 'msgid "The nucleus"\nmsgid_plural "The nuclei"\nmsgstr[0] "Kiini"\nmsgstr[1] "Viini"')
sys.stdout.write(s)
EOF
line=$(grep -n '^msgctxt "cell-parts/option 2"$' plural.po | cut -d: -f1)
run "$QBC" translate import plural.po bank.qb
check "plural entry: exit 1" rc 1
check "plural entry: refused, located" err_has "plural.po:$line:1: error: 'cell-parts/option 2' is a plural message (msgid_plural)"
check "plural entry: nothing written" cmp -s bank.qb orig.qb
sed '/^msgctxt "title"$/,/^msgstr/ s/^msgstr .*/msgstr "Seli\\ana nishati"/' sw.po >bell.po
line=$(grep -n '^msgctxt "title"$' bell.po | cut -d: -f1)
run "$QBC" translate import bell.po bank.qb
check "a control character: refused as the reader does, located" \
	err_has "bell.po:$line:1: error: translation of 'title': control character U+0007 in the text"
check "a control character: nothing written" cmp -s bank.qb orig.qb
big=$(head -c 5000000 /dev/zero | tr '\0' 'a')
printf '%s\n' "/^msgctxt \"cell-parts\\/option 1\"\$/,/^msgstr/ s/^msgstr .*/msgstr \"$big\"/" >big.sed
sed -f big.sed sw.po >big.po
rm -f big.sed
line=$(grep -n '^msgctxt "cell-parts/option 1"$' big.po | cut -d: -f1)
run "$QBC" translate import big.po bank.qb
check "a 5 MB msgstr: exit 1" rc 1
check "a 5 MB msgstr: refused, located" \
	err_has "big.po:$line:1: error: translation of 'cell-parts/option 1': 5000000 characters, for a source of 17"
check "a 5 MB msgstr: nothing written" cmp -s bank.qb orig.qb
rm -f big.po
# A translation that makes the bank fail its checks (the same text as
# another language, twice over: a warning), told at the message.
sed '/^msgctxt "cell-parts\/option 2\/feedback"$/,/^msgstr/ s/^msgstr .*/msgstr "No: the nucleus holds the DNA."/' sw.po >same.po
line=$(grep -n '^msgctxt "cell-parts/option 2/feedback"$' same.po | cut -d: -f1)
run "$QBC" translate import same.po bank.qb
check "a read-back warning: at the PO message" err_has "same.po:$line:1: warning: translation of 'cell-parts/option 2/feedback': "
check "a read-back warning: not at the bank" sh -c "! grep -q '^bank.qb:[0-9]' '$T/err'"
restore

# ------------------------------------------------ the file's language
sed -e 's/^"Language: sw\\n"$/"Language: fr\\n"/' \
    -e 's/^msgstr "Mitokondria"$/msgstr "La mitochondrie"/' sw.po >fr-label.po
line=$(grep -n '^"Language: fr' fr-label.po | cut -d: -f1)
run "$QBC" translate import --lang sw fr-label.po bank.qb
check "a French file as --lang sw: exit 1" rc 1
check "a French file as --lang sw: refused at its Language header" \
	err_has "fr-label.po:$line:1: error: the file is a translation into 'fr', not 'sw'"
check "a French file as --lang sw: nothing written" cmp -s bank.qb orig.qb
sed 's/^"Language: sw\\n"$/"Language: sw_KE\\n"/' sw.po >sw-ke.po
run "$QBC" translate import --lang sw sw-ke.po bank.qb
check "sw_KE for sw: exit 0" rc 0
check "sw_KE for sw: a note" err_has "note: the file's language 'sw_KE' taken as 'sw'"
restore
run "$QBC" translate import sw-ke.po bank.qb
check "sw_KE without --lang, for a bank of sw: taken as sw" out_has "bank.qb: sw from sw-ke.po: 0 added, 0 changed, 26 unchanged"
check "sw_KE without --lang: a note" err_has "note: the file's language 'sw_KE' taken as 'sw'"
sed 's/trgLang="sw"/trgLang="fr"/' sw.xlf >fr-label.xlf
run "$QBC" translate import --lang sw fr-label.xlf bank.qb
check "an XLIFF trgLang fr as --lang sw: refused" err_has "fr-label.xlf:2:1: error: the file is a translation into 'fr', not 'sw'"
restore

# ------------------------------------------------ the reviewed state
mkdir -p rv && cp orig.qb rv/bank.qb && cp -r media rv/ && cd rv || exit 2
"$QBC" build -o out --format json bank.qb >/dev/null 2>&1
"$QBC" translate export --lang sw --format xliff -o sw.xlf bank.qb >/dev/null
sed '/name="cell-parts\/option 1"/,/<\/unit>/ s/<segment state="translated">/<segment state="reviewed">/' sw.xlf >rv.xlf
run "$QBC" translate import rv.xlf bank.qb
check "XLIFF state reviewed: the record marks it" test "$(grep -c ' reviewed$' bank.lock)" = 1
"$QBC" translate export --lang sw -o rv.po bank.qb >/dev/null
check "XLIFF state reviewed: the next export says so" test "$(grep -cx '#. reviewed' rv.po)" = 1
# A reviewer's translator comment in a PO file marks a text reviewed.
sed 's/^msgctxt "cell-parts\/option 2"$/# reviewed\nmsgctxt "cell-parts\/option 2"/' rv.po >rv2.po
run "$QBC" translate import rv2.po bank.qb
check "PO '# reviewed': the record marks it" test "$(grep -c ' reviewed$' bank.lock)" = 2
# qbc's own "#. reviewed" on a text the translator changed does not
# carry over to the new text.
sed '/^msgctxt "cell-parts\/option 1"$/,/^msgstr/ s/^msgstr .*/msgstr "Mitokondria mpya"/' rv.po >rv3.po
run "$QBC" translate import rv3.po bank.qb
check "PO '#. reviewed' on a changed text: not reviewed" test "$(grep -c ' reviewed$' bank.lock)" = 1
cd "$R" || exit 2
cd "$T" || exit 2
