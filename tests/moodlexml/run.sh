#!/bin/sh
# tests/moodlexml/run.sh - the Moodle XML writer: the structure Moodle's
# importer reads, a round trip against `qbc dump --json`, Moodle's grades,
# both languages and --lang, images, hostile text, byte-identical rebuilds,
# the category per revision, and failed builds that leave the earlier file.
# check_moodlexml.py holds the structural checker and the round trip.
. "$(dirname "$0")/../lib.sh"
HERE="$ROOT/tests/moodlexml"
CHK="python3 $HERE/check_moodlexml.py"
T=$(tmpdir)
W="$T/w"
mkdir "$W"
cp -R "$HERE/demo.qb" "$HERE/escape.qb" "$HERE/eleven.qb" "$HERE/media" "$W/"
cd "$W" || exit 2
B="$QBC build --format moodlexml -o out"
X=out/moodle-demo.moodle.xml
E=out/moodle-escape.moodle.xml
run() { "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
rc() { test "$(cat "$T/rc")" = "$1"; }
out_has() { grep -qF -- "$1" "$T/out"; }
err_has() { grep -qF -- "$1" "$T/err"; }
# xp FILE XPATH: the string value of an XPath expression.
xp() { xmllint --xpath "$2" "$1" 2>/dev/null; }
is() { test "$(xp "$1" "$2")" = "$3"; }
# fractions ID FILE: the answers' fractions of question ID, space-separated.
fractions() {
	n=$(xp "${2:-$X}" "count(//question[idnumber='$1']/answer)")
	i=1 s=""
	while [ "$i" -le "$n" ]; do
		s="$s $(xp "${2:-$X}" "string(//question[idnumber='$1']/answer[$i]/@fraction)")"
		i=$((i + 1))
	done
	echo $s
}

check "build --help lists moodlexml" sh -c "$QBC build --help | grep -q 'moodlexml'"

# --- the demo bank: both languages, default language sw (declared second)
run $B demo.qb
check "build exits 0" rc 0
check "build names the file" out_has "wrote $X"
check "well-formed (xmllint)" xmllint --noout $X
check "structure: every element Moodle's importer reads" $CHK structure $X
$QBC dump --json demo.qb >"$T/demo.json" 2>/dev/null
check "round trip against qbc dump --json" $CHK roundtrip $X "$T/demo.json" .
check "the category question comes first" is $X 'string(/quiz/question[1]/@type)' category
check "category: title in the default language, '/' doubled, revision and date" \
	is $X 'normalize-space(/quiz/question[1]/category/text)' \
	'$course$/top/Mafunzo sambamba // yaliyosambazwa/revision 1 (2025-12-02)'
check "category info: the description in both languages, as plain text" \
	sh -c "xmllint --xpath 'string(/quiz/question[1]/info/text)' $X | grep -qF '<span lang=\"sw\" class=\"multilang\">Benki ndogo ya majaribio ya Moodle XML. GPU nne</span><span lang=\"en\"'"
check "category info: no picture (Moodle imports no files for a category)" \
	sh -c "! xmllint --xpath 'string(/quiz/question[1]/info/text)' $X | grep -q 'PLUGINFILE\|<img'"
check "category info: each question's last-change date" \
	sh -c "xmllint --xpath 'string(/quiz/question[1]/info/text)' $X | grep -qF '<li>two-of-four 2025-12-02</li>'"
check "then every question as multichoice" is $X 'count(/quiz/question[@type="multichoice"])' 5
check "questions in bank order" is $X 'string(/quiz/question[3]/idnumber)' two-of-four
check "name: id and the prompt's start in the default language" \
	is $X 'string(//question[idnumber="one-right"]/name/text)' 'one-right: Picha ipi inaonyesha GPU nne? GPU nne'
check "single question: <single>true</single>" is $X 'string(//question[idnumber="one-right"]/single)' true
check "multiple question: <single>false</single>" is $X 'string(//question[idnumber="two-of-four"]/single)' false
check "shuffleanswers off, answernumbering abc" \
	is $X 'concat(/quiz/question[2]/shuffleanswers, /quiz/question[3]/answernumbering)' falseabc
check "single: 100 for the correct option, 0 for the other" test "$(fractions one-right)" = "100 0"
check "partial, 2 of 4 correct: 50 each, -50 per wrong pick (qbc's rule)" test "$(fractions two-of-four)" = "50 50 -50 -50"
check "partial, 3 of 4 correct: Moodle's 33.33333, a wrong pick cancels a right one" \
	test "$(fractions three-of-four)" = "33.33333 33.33333 33.33333 -33.33333"
check "1 of 12 correct: 100, and a wrong pick cancels it" \
	test "$(fractions one-of-twelve)" = "100 -100 -100 -100 -100 -100 -100 -100 -100 -100 -100 -100"
check "all options correct: 50 50, nothing negative" test "$(fractions all-right)" = "50 50"
check "default language first in every text" \
	sh -c "xmllint --xpath 'string(//question[idnumber=\"two-of-four\"]/questiontext/text)' $X | grep -q '^<span lang=\"sw\" class=\"multilang\">Chagua.*</span><span lang=\"en\" class=\"multilang\">Pick the two collectives.</span>\$'"
check "per-option feedback in both languages" \
	sh -c "xmllint --xpath 'string(//question[idnumber=\"two-of-four\"]/answer[3]/feedback/text)' $X | grep -qF 'Si operesheni ya pamoja.</span><span lang=\"en\" class=\"multilang\">Not a collective.'"
check "an option without feedback has an empty feedback" \
	is $X 'string(//question[idnumber="two-of-four"]/answer[2]/feedback/text)' ''
check "combined feedback labels in both languages" \
	sh -c "xmllint --xpath 'string(//question[idnumber=\"one-right\"]/correctfeedback/text)' $X | grep -qxF '<span lang=\"sw\" class=\"multilang\">Jibu lako ni sahihi.</span><span lang=\"en\" class=\"multilang\">Your answer is correct.</span>'"
check "multiple questions show the number of correct answers" \
	is $X 'count(//question[idnumber="two-of-four"]/shownumcorrect)' 1
check "tags: one <tag> per tag" is $X 'concat(count(//question[idnumber="one-right"]/tags/tag), //question[idnumber="one-right"]/tags/tag[2]/text)' '2nccl::collectives'
check "no <tags> for a question without tags" is $X 'count(//question[idnumber="two-of-four"]/tags)' 0

# --- images: one <file> next to each text that uses it
check "image in the prompt: one <file> in questiontext" is $X 'count(//question[idnumber="one-right"]/questiontext/file)' 1
check "image in an option: its <file> inside the answer" is $X 'count(//question[idnumber="one-right"]/answer[1]/file)' 1
check "image in the explanation: its own <file>" is $X 'count(//question[idnumber="one-right"]/generalfeedback/file)' 1
check "file: content-addressed name, path /, base64" \
	sh -c "xmllint --xpath 'string(//question[idnumber=\"one-right\"]/questiontext/file/@name)' $X | grep -qxE '[0-9a-f]{16}\.png'"
check "src rewritten to @@PLUGINFILE@@/<name>" \
	sh -c "xmllint --xpath 'string(//question[idnumber=\"one-right\"]/questiontext/text)' $X | grep -qE 'src=\"@@PLUGINFILE@@/[0-9a-f]{16}\.png\"'"
check "the embedded bytes are the image's" sh -c \
	"xmllint --xpath 'string(//question[idnumber=\"one-right\"]/questiontext/file)' $X | base64 -d | cmp -s - media/gpus.png"

# --- one language: no spans
run $B --lang en -o out-en demo.qb
check "--lang en: exits 0" rc 0
check "--lang en: no multilang spans" sh -c "! grep -q multilang out-en/moodle-demo.moodle.xml"
check "--lang en: structure" $CHK structure out-en/moodle-demo.moodle.xml
$QBC dump --json --lang en demo.qb >"$T/demo-en.json" 2>/dev/null
check "--lang en: round trip" $CHK roundtrip out-en/moodle-demo.moodle.xml "$T/demo-en.json" .
check "--lang en: English labels" is out-en/moodle-demo.moodle.xml 'string(/quiz/question[2]/incorrectfeedback/text)' 'Your answer is incorrect.'
run $B --lang sw -o out-sw demo.qb
$QBC dump --json --lang sw demo.qb >"$T/demo-sw.json" 2>/dev/null
check "--lang sw: round trip, no spans" $CHK roundtrip out-sw/moodle-demo.moodle.xml "$T/demo-sw.json" .

# --- hostile text in every text
run $B escape.qb
check "escape bank: exits 0" rc 0
check "escape bank: well-formed" xmllint --noout $E
check "escape bank: structure" $CHK structure $E
$QBC dump --json escape.qb >"$T/escape.json" 2>/dev/null
check "escape bank: every text round-trips exactly" $CHK roundtrip $E "$T/escape.json" .
check "escape bank: ']]>' never appears unescaped" sh -c "! grep -qF ']]>' $E"
check "escape bank: a bank's </answer> opens no answer" is $E 'count(//question[idnumber="cdata-end"]/answer)' 2
check "escape bank: a bank's span adds no language" sh -c \
	"test \"\$(xmllint --xpath 'string(//question[idnumber=\"cdata-end\"]/answer[1]/feedback/text)' $E | grep -o 'class=\"multilang\"' | wc -l)\" = 2"
check "escape bank: an author's @@PLUGINFILE@@ is not Moodle's marker" \
	sh -c "xmllint --xpath 'string(//question[idnumber=\"cdata-end\"]/answer[2]/feedback/text)' $E | grep -qF '&#64;@PLUGINFILE@@/evil.png'"
check "escape bank: no DOCTYPE or entity from the bank" sh -c "! grep -q '<!DOCTYPE\|<!ENTITY' $E"

# --- byte-identical rebuilds
cp $X "$T/first.xml"
SOURCE_DATE_EPOCH=1764690000 run $B demo.qb
check "rebuild with a later clock: byte-identical" cmp -s $X "$T/first.xml"

# --- an edit: a new revision, a new category
sed -i 's/   en: Both are right\./   en: Both are right, really./' demo.qb
SOURCE_DATE_EPOCH=1764690000 run $B demo.qb
check "edit: the change report names the question" out_has "1 changed (all-right)"
check "edit: the category is the next revision" \
	is $X 'normalize-space(/quiz/question[1]/category/text)' \
	'$course$/top/Mafunzo sambamba // yaliyosambazwa/revision 2 (2025-12-02)'
check "edit: the edited question is in the new file" \
	sh -c "grep -qF 'Both are right, really.' $X"
cp $X "$T/good.xml"

# --- failures leave the earlier file untouched
cp demo.qb "$T/good.qb"
sed -i 's|media/diagram.png|media/missing.png|g' demo.qb
run $B demo.qb
check "missing image: exit 1" rc 1
check "missing image: located error" err_has "demo.qb:20:30: error: image 'media/missing.png' not found"
check "missing image: earlier file untouched" cmp -s $X "$T/good.xml"
check "missing image: no temporary file left" test "$(ls -A out)" = "moodle-demo.moodle.xml
moodle-escape.moodle.xml"
cp "$T/good.qb" demo.qb
sed -i 's/Both are right, really\./Both are right, truly./' demo.qb
sh -c "trap '' XFSZ; ulimit -f 1; exec $B demo.qb" >"$T/out" 2>"$T/err"
check "full disk: exit 3" test $? = 3
check "full disk: says it cannot write" err_has "cannot write"
check "full disk: earlier file untouched" cmp -s $X "$T/good.xml"
check "full disk: no temporary file left" sh -c "! ls -a out | grep -q tmp"
cp "$T/good.qb" demo.qb

# --- what Moodle's grades cannot express is a located error, not a file
run $B eleven.qb
check "11 correct options: exit 1" rc 1
check "11 correct options: located error" \
	err_has "eleven.qb:9:1: error: question 'eleven' has 11 correct options: Moodle's grades cannot split 100% equally over 11"
check "11 correct options: no file" test ! -e out/moodle-eleven.moodle.xml

finish
