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
cp -R "$HERE/demo.qb" "$HERE/marks.qb" "$HERE/escape.qb" "$HERE/eleven.qb" "$HERE/types.qb" "$HERE/refused.qb" "$HERE/editor.qb" \
	"$HERE/passage.qb" "$HERE/media" "$W/"
cd "$W" || exit 2
B="$QBC build --format moodlexml -o out"
X=out/moodle-demo.moodle.xml
E=out/moodle-escape.moodle.xml
Y=out/moodle-types.moodle.xml
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

# --- every question type, both languages (types.qb)
run $B types.qb
cp "$T/err" "$T/types-err"
check "types: exits 0" rc 0
check "types: well-formed" xmllint --noout $Y
check "types: structure of every type Moodle's importer reads" $CHK structure $Y
$QBC dump --json types.qb >"$T/types.json" 2>/dev/null
check "types: round trip of every type against qbc dump --json" $CHK roundtrip $Y "$T/types.json" .
check "types: Moodle's type names" is $Y \
	'concat(//question[idnumber="tf"]/@type, " ", //question[idnumber="short"]/@type, " ", //question[idnumber="exact"]/@type, " ", //question[idnumber="pairs"]/@type, " ", //question[idnumber="gaps"]/@type)' \
	'truefalse shortanswer numerical matching cloze'
check "true-false: 'false' is right, feedback-wrong on 'true' only when it has none" \
	is $Y 'concat(//question[idnumber="tf"]/answer[text="false"]/@fraction, " ", count(//question[idnumber="tf"]/answer[contains(feedback/text, "icebergs")]))' '100 0'
check "short answer: every language's accepted answers, '*' escaped, wrong ones at 0, then '*'" \
	test "$(fractions short $Y)" = "100 100 100 0 0 0"
check "short answer: a learner's '*' is a star, not Moodle's wildcard" \
	is $Y 'string(//question[idnumber="short"]/answer[3]/text)' 'a\*b'
check "short answer: 'Evaporation' is not a second answer (Moodle ignores case)" \
	is $Y 'count(//question[idnumber="short"]/answer[text="Evaporation"])' 0
check "short answer: the sound is embedded once per text that plays it" \
	is $Y 'count(//question[idnumber="short"]/questiontext/file)' 1
check "short answer: <audio controls> from @@PLUGINFILE@@" sh -c \
	"xmllint --xpath 'string(//question[idnumber=\"short\"]/questiontext/text)' $Y | grep -qE '<audio controls src=\"@@PLUGINFILE@@/[0-9a-f]{16}\.ogg\">clip</audio>'"
check "numeric: a range is its middle ± half its width" \
	is $Y 'concat(//question[idnumber="range"]/answer[1]/text, " ", //question[idnumber="range"]/answer[1]/tolerance)' '36.650000000000006 0.5500000000000007'
check "numeric: a percentage becomes an absolute tolerance" \
	is $Y 'concat(//question[idnumber="percent"]/answer/text, " ", //question[idnumber="percent"]/answer/tolerance)' '343 6.86'
check "numeric: the unit, optional to type, shown after the box" \
	is $Y 'concat(//question[idnumber="range"]/units/unit/unit_name, " ", //question[idnumber="range"]/units/unit/multiplier, " ", //question[idnumber="range"]/unitgradingtype, " ", //question[idnumber="range"]/showunits)' '°C 1 0 0'
check "numeric: no unit, no units (showunits 3)" \
	is $Y 'concat(count(//question[idnumber="exact"]/units), //question[idnumber="exact"]/showunits)' '03'
check "numeric: the prompt's own underscores cannot take Moodle's answer box" sh -c \
	"xmllint --xpath 'string(//question[idnumber=\"exact\"]/questiontext/text)' $Y | grep -qF 'Write &#95;&#95;&#95;&#95;&#95; here.'"
check "numeric: feedback-wrong on a '*' answer at 0" \
	is $Y 'concat(//question[idnumber="range"]/answer[2]/text, //question[idnumber="range"]/answer[2]/@fraction)' '*0'
check "matching: a distractor is a subquestion with an empty text" \
	is $Y 'concat(count(//question[idnumber="pairs"]/subquestion), "-", //question[idnumber="pairs"]/subquestion[3]/text, "-", //question[idnumber="pairs"]/subquestion[3]/answer/text != "")' '3--true'
check "matching: shuffle: no" is $Y 'string(//question[idnumber="pairs"]/shuffleanswers)' false
check "matching: feedback-wrong after the incorrect label" sh -c \
	"xmllint --xpath 'string(//question[idnumber=\"pairs\"]/incorrectfeedback/text)' $Y | grep -qF '<p>Your answer is incorrect.</p>Look again.'"
check "cloze: case-sensitive typed gap is SHORTANSWER_C, Moodle's own escapes and named references" sh -c \
	"xmllint --xpath 'string(//question[idnumber=\"gaps\"]/questiontext/text)' $Y | grep -qF '{1:SHORTANSWER_C:=evaporates~=a\\}b\\#c&#126;d=e:f/g\\h%i\\*j]]&gt;k~=huvukiza~*#&lt;span lang=&quot;en&quot;'"
check "cloze: a '~' in a gap, which Moodle's editor cannot keep: a warning per gap" \
	test "$(grep -c "types.qb:98:1: warning: \[moodlexml\] question 'gaps': gap [12] holds a '~'" "$T/types-err")" = 2
check "cloze: what Moodle's editor changes is exactly the gaps warned about" sh -c \
	"$CHK editor $Y | grep -v ': gaps: gap [12] changes' | grep -q . && exit 1; test \$($CHK editor $Y | wc -l) = 2"
check "cloze: the name shows the gaps as ___, not their answers" \
	is $Y 'string(//question[idnumber="aon-gaps"]/name/text)' 'aon-gaps: ___ and ___.'
check "cloze: <defaultgrade> is the sum of the gaps' marks, as Moodle grades it" \
	is $Y 'concat(//question[idnumber="gaps"]/defaultgrade, " ", //question[idnumber="aon-gaps"]/defaultgrade, " ", //question[idnumber="tf"]/defaultgrade)' '2 2 1'
check "cloze: every choice gap is MULTICHOICE_S, so the right choice is not always first" sh -c \
	"xmllint --xpath 'string(//question[idnumber=\"gaps\"]/questiontext/text)' $Y | grep -qF '{1:MULTICHOICE_S:' && ! grep -qF '{1:MULTICHOICE:' $Y"
check "cloze: an author's '{1:SHORTANSWER:...}' is text, not a gap" sh -c \
	"xmllint --xpath 'string(//question[idnumber=\"gaps\"]/questiontext/text)' $Y | grep -qF ' &#123;1:SHORTANSWER:=x}'"
check "math: \\(...\\) without the span for Moodle's MathJax filter" sh -c \
	"xmllint --xpath 'string(//question[idnumber=\"tf\"]/questiontext/text)' $Y | grep -qF 'huzama majini. \\(E = mc^2\\)</span>'"
check "math: no math span left (it would end a language for the multilang filter)" \
	sh -c "! grep -qF 'class=&quot;math' $Y && ! grep -qF 'class=\"math' $Y"
check "pinned option with shuffling: a warning" grep -qF "types.qb:118:4: warning: [moodlexml] Moodle cannot keep an option in place while shuffling" "$T/types-err"
check "pinned option with shuffling: not shuffled in Moodle" is $Y 'string(//question[idnumber="pinned"]/shuffleanswers)' false
run $B --lang sw -o out-sw types.qb
$QBC dump --json --lang sw types.qb >"$T/types-sw.json" 2>/dev/null
check "types --lang sw: structure" $CHK structure out-sw/moodle-types.moodle.xml
check "types --lang sw: round trip, no spans" $CHK roundtrip out-sw/moodle-types.moodle.xml "$T/types-sw.json" .
check "types --lang sw: Swahili answers only" sh -c "! grep -q 'evaporation<' out-sw/moodle-types.moodle.xml"
cp $Y "$T/types.xml"
SOURCE_DATE_EPOCH=1764690000 run $B types.qb
check "types: rebuild byte-identical" cmp -s $Y "$T/types.xml"

# --- a cloze question saved unchanged in Moodle's editor (editor.qb):
# both languages' spans in every choice and feedback, and the characters
# the embedded-answer syntax and HTML read specially
run $B editor.qb
check "editor bank: exits 0 with no warning" sh -c "test \"\$(cat '$T/rc')\" = 0 && ! grep -q warning '$T/err'"
check "editor bank: structure" $CHK structure out/moodle-editor.moodle.xml
$QBC dump --json editor.qb >"$T/editor.json" 2>/dev/null
check "editor bank: round trip" $CHK roundtrip out/moodle-editor.moodle.xml "$T/editor.json" .
check "editor bank: every gap survives an unchanged save in Moodle's cloze editor" \
	$CHK editor out/moodle-editor.moodle.xml
check "editor bank: no numeric character reference in a gap (the form rewrites '&#')" sh -c \
	"! xmllint --xpath 'string(//question[idnumber=\"saved\"]/questiontext/text)' out/moodle-editor.moodle.xml | grep -o '{1:[^}]*' | grep -qF '&#'"
run $B --lang en -o out-en editor.qb
$QBC dump --json --lang en editor.qb >"$T/editor-en.json" 2>/dev/null
check "editor bank --lang en: wrong choices '=melts' and '%50%freezes' stay text, not marks" sh -c \
	"xmllint --xpath 'string(//question[idnumber=\"saved\"]/questiontext/text)' out-en/moodle-editor.moodle.xml | grep -qF '{1:MULTICHOICE_S:=condenses~%0%=melts#' && xmllint --xpath 'string(//question[idnumber=\"saved\"]/questiontext/text)' out-en/moodle-editor.moodle.xml | grep -qF '~%0%%50%freezes#'"
check "editor bank --lang en: round trip" $CHK roundtrip out-en/moodle-editor.moodle.xml "$T/editor-en.json" .
check "editor bank --lang en: every gap survives Moodle's editor" $CHK editor out-en/moodle-editor.moodle.xml

# --- numeric gaps (issue 36): NUMERICAL embedded answers, read back by
# qbc import with the same bounds
cat >numgaps.qb <<'EOF'
bank: moodle-numgaps
languages: en sw
scoring: partial
title:
  en: Numeric gaps
  sw: Mapengo ya namba

1. measures
   type: cloze
   en: g is {{#9.81 ± 0.05}} m/s², a body {{#36.1..37.2}} °C, sound {{#343 ± 2%}} m/s, pi {{#3.14}}, water {{water|H2O}}.
   sw: g ni {{#9.81 ± 0.05}} m/s², mwili {{#36.1..37.2}} °C, sauti {{#343 ± 2%}} m/s, pi {{#3.14}}, maji {{maji|H2O}}.
   feedback-wrong:
     en: Look it up.
     sw: Tafuta.
   explanation:
     en: Measured values.
     sw: Thamani zilizopimwa.
EOF
run $QBC build --format moodlexml -o out-num numgaps.qb
N=out-num/moodle-numgaps.moodle.xml
check "numeric gaps: built, no warning" sh -c "test \"\$(cat '$T/rc')\" = 0 && ! grep -q warning '$T/err'"
check "numeric gaps: structure" $CHK structure $N
check "numeric gaps: NUMERICAL with the tolerance (a range its middle ± half, a percentage absolute), feedback-wrong on '*'" sh -c \
	"xmllint --xpath 'string(//question[idnumber=\"measures\"]/questiontext/text)' $N | grep -o '{1:NUMERICAL:[^}]*}' | cut -d'#' -f1 | tr '\n' ' ' | grep -qxF '{1:NUMERICAL:=9.81:0.05~* {1:NUMERICAL:=36.65:0.55~* {1:NUMERICAL:=343:6.86~* {1:NUMERICAL:=3.14:0~* '"
check "numeric gaps: <defaultgrade> counts them" is $N 'string(//question[idnumber="measures"]/defaultgrade)' 5
run "$QBC" import -o numback.qb $N
check "numeric gaps: read back by qbc import" sh -c "test \"\$(cat '$T/rc')\" = 0 && grep -qF '1 questions (1 cloze)' '$T/out' || grep -qF '1 question (1 cloze)' '$T/out'"
$QBC dump --json numback.qb >"$T/numback.json" 2>/dev/null
$QBC dump --json numgaps.qb >"$T/numgaps.json" 2>/dev/null
check "numeric gaps: the same kinds and bounds in both languages after the round trip" python3 -c "
import json, sys
a = json.load(open(sys.argv[1]))['questions'][0]['gaps']
b = json.load(open(sys.argv[2]))['questions'][0]['gaps']
def bounds(gs): return [(g['kind'], round(g.get('min', 0), 9), round(g.get('max', 0), 9)) for g in gs]
ok = all(bounds(a[l]) == bounds(b[l]) and [g['kind'] for g in a[l]] == ['numeric'] * 4 + ['typed'] for l in ('en', 'sw'))
sys.exit(0 if ok else 1)" "$T/numgaps.json" "$T/numback.json"
check "numeric gaps: feedback-wrong read back" sh -c "grep -qF 'Look it up.' numback.qb"

# --- all-or-nothing scoring Moodle cannot grade: the nearest, and a warning
check "all-or-nothing, 2 correct: any wrong pick scores 0" test "$(fractions aon-multiple $Y)" = "50 50 -100"
check "all-or-nothing, 2 correct: a warning at the scoring line" \
	grep -qF "types.qb:126:4: warning: [moodlexml] question 'aon-multiple' is scored all-or-nothing, but Moodle gives partial credit for picking only some of its correct options" "$T/types-err"
check "all-or-nothing matching: a warning" grep -qF "warning: [moodlexml] question 'aon-pairs' is scored all-or-nothing, but Moodle gives partial credit for each right pair" "$T/types-err"
check "all-or-nothing cloze with two gaps: a warning" grep -qF "warning: [moodlexml] question 'aon-gaps' is scored all-or-nothing, but Moodle gives partial credit for each right gap" "$T/types-err"
check "all-or-nothing with one correct option: exact, no warning" sh -c "! grep -q \"'aon-one'\" '$T/types-err'"
check "all-or-nothing with one correct option: 100 and -100" test "$(fractions aon-one $Y)" = "100 -100 -100"

# --- what Moodle cannot express is a located error, and no file
run $B refused.qb
check "refused: exit 1" rc 1
check "refused: a choice gap whose right choice moves between languages" err_has "refused.qb:15:8: error: [moodlexml] question 'moved': gap 1 differs between en and sw"
check "refused: no file" test ! -e out/moodle-refused.moodle.xml

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
moodle-editor.moodle.xml
moodle-escape.moodle.xml
moodle-types.moodle.xml"
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
	err_has "eleven.qb:9:1: error: [moodlexml] question 'eleven' has 11 correct options: Moodle's grades cannot split 100% equally over 11"
check "11 correct options: no file" test ! -e out/moodle-eleven.moodle.xml

# --- passages: a description question before each run of its questions
P=out/moodle-passage.moodle.xml
run $B passage.qb
check "passage: build exits 0" rc 0
check "passage: structure Moodle's importer reads" $CHK structure $P
$QBC dump --json passage.qb >"$T/passage.json" 2>/dev/null
check "passage: round trip against qbc dump --json (each question after its passage's description)" \
	$CHK roundtrip $P "$T/passage.json" .
check "passage: the order is category, description, 1, category, 2, description, 3" \
	is $P 'concat(/quiz/question[1]/@type, " ", /quiz/question[2]/@type, " ", /quiz/question[3]/idnumber, " ", /quiz/question[4]/@type, " ", /quiz/question[5]/idnumber, " ", /quiz/question[6]/@type, " ", /quiz/question[7]/idnumber)' \
	'category description alone category sum description where'
check "passage: the first description has the idnumber, the second none (Moodle keeps one per category)" \
	is $P 'concat(/quiz/question[2]/idnumber, "|", count(/quiz/question[6]/idnumber))' 'lighthouse|0'
check "passage: a description has no mark" is $P 'string(/quiz/question[2]/defaultgrade)' 0
check "passage: its picture is a file of the description" \
	is $P 'count(/quiz/question[2]/questiontext/file)' 1

# --- a numeric question's further answers: an <answer> each with its
# fraction and feedback, by credit from the highest (Moodle grades with the
# first answer that holds the number), read back by qbc import
cat >more.qb <<'EOF'
bank: more
languages: en
title:
  en: More

1. boil
   type: numeric
   answer: 100 ± 1
   en: At what temperature (°C) does water boil at sea level?
   answer: 0 = 0%
     > en: That is where water freezes.
   answer: 90..99 = 50%
     > en: Close: that is up a mountain.
   explanation:
     en: At sea level.
EOF
run $B more.qb
check "numeric further answers: built" rc 0
check "numeric further answers: the fractions, full mark first, then by credit" \
	test "$(fractions boil out/more.moodle.xml)" = "100 50 0"
check "numeric further answers: value, tolerance and feedback" \
	is out/more.moodle.xml 'concat(//question[idnumber="boil"]/answer[2]/text, " ", //question[idnumber="boil"]/answer[2]/tolerance, " ", //question[idnumber="boil"]/answer[2]/feedback/text)' '94.5 4.5 Close: that is up a mountain.'
run "$QBC" import -o back/more.qb out/more.moodle.xml
"$QBC" dump --json back/more.qb 2>/dev/null | python3 -c "import json,sys; d=json.load(sys.stdin); sys.exit(0 if [(m['min'], m['max'], m['credit'], m['feedback']['en']) for m in d['questions'][0]['more_answers']] == [(90, 99, 50, 'Close: that is up a mountain.'), (0, 0, 0, 'That is where water freezes.')] else 1)"
check "numeric further answers: qbc import reads them back" test $? = 0
# --- marks (issue 36): each option's share as Moodle's grade; a share that
# is none of Moodle's grades is a located error, not a file Moodle refuses
run $B marks.qb
check "marks: a share Moodle lacks: exit 1" rc 1
check "marks: a share Moodle lacks: located at the option" \
	err_has "marks.qb:55:4: error: [moodlexml] this option of question 'no-list' earns -1/12 of its mark, which is none of Moodle's grades"
check "marks: a share Moodle lacks: no file" test ! -e out/moodle-marks.moodle.xml
sed -i '/^3\. no-list/,$d' marks.qb
run $B marks.qb
M=out/moodle-marks.moodle.xml
check "marks: exit 0" rc 0
check "marks: structure" $CHK structure $M
$QBC dump --json marks.qb >"$T/marks.json" 2>/dev/null
check "marks: round trip against qbc dump --json (fraction = share)" $CHK roundtrip $M "$T/marks.json" .
check "marks: single: the right option 100, a penalty -25, a partly right option 50, else 0" \
	test "$(fractions capital $M)" = "100 -25 50 0"
check "marks: multiple: a marked right option 50, the others share the rest, a third taken away, none, and an unmarked wrong option minus a right option's share" \
	test "$(fractions primes $M)" = "50 25 25 -33.33333 0 -33.33333"
sed -i 's/   - −25% en: London/   - -50% en: London/' marks.qb
run $B marks.qb
check "marks: a changed mark is a changed question (a new revision for Moodle)" out_has "1 changed (capital)"
check "marks: the new grade written" test "$(fractions capital $M)" = "100 -50 50 0"


# --- parameterised questions (issue 38): Moodle's calculated types with
# the pool as their datasets' items (calc.qb), checked against qbc's pool
# and, where a Moodle is installed, by Moodle's own importer
C=out/moodle-calc.moodle.xml
CALC="python3 $HERE/check_calculated.py"
cp "$HERE/calc.qb" .
run $B calc.qb
cp "$T/err" "$T/calc-err"
check "calculated: built" rc 0
check "calculated: structure" $CHK structure $C
$QBC dump --json calc.qb >"$T/calc.json" 2>/dev/null
check "calculated: Moodle's types: numeric calculated (calculatedsimple for ranges at some decimals), options calculatedmulti" is $C \
	'concat(//question[idnumber="falling-time"]/@type, " ", //question[idnumber="area-choice"]/@type, " ", //question[idnumber="derived"]/@type, " ", //question[idnumber="simple"]/@type, " ", //question[idnumber="special"]/@type)' \
	'calculated calculatedmulti calculated calculatedsimple calculated'
check "calculated: every dataset's items are qbc's pool, no formula Moodle refuses" $CALC file $C "$T/calc.json"
check "calculated: one dataset per variable the texts and formulas use (not the derived ones)" is $C \
	'concat(count(//question[idnumber="falling-time"]//dataset_definition), count(//question[idnumber="area-choice"]//dataset_definition), count(//question[idnumber="derived"]//dataset_definition))' '222'
check "calculated: the answer is Moodle's formula of the wildcards" is $C \
	'string(//question[idnumber="falling-time"]/answer/text)' 'sqrt(((2*{h})/{g}))'
check "calculated: a^b is pow(a,b), a derived variable round(formula, decimals)" is $C \
	'string(//question[idnumber="derived"]/answer/text)' '(round(({m}*pow({v},2)),3)/2)'
check "calculated: 2% is Moodle's relative tolerance 0.02, ± 0.01 its nominal one" is $C \
	'concat(//question[idnumber="falling-time"]/answer/tolerance, " ", //question[idnumber="falling-time"]/answer/tolerancetype, " ", //question[idnumber="derived"]/answer/tolerance, " ", //question[idnumber="derived"]/answer/tolerancetype)' '0.02 1 0.01 2'
check "calculated: correctanswerlength is the answer's decimals written, else the most a draw needs (qbc shows no trailing zeros)" is $C \
	'concat(//question[idnumber="falling-time"]/answer/correctanswerlength, //question[idnumber="derived"]/answer/correctanswerlength)' '23'
check "calculated: {answer} in a text is its formula, rounded to its decimals" sh -c \
	"xmllint --xpath 'string(//question[idnumber=\"falling-time\"]/generalfeedback/text)' $C | grep -qF '≈ {=round(sqrt(((2*{h})/{g})),2)} s.'"
check "calculated: a text's '{=formula}' and pi, e as Moodle's pi(), exp(1)" sh -c \
	"xmllint --xpath 'string(//question[idnumber=\"derived\"]/generalfeedback/text)' $C | grep -qF 'π·e = {=round((pi()*exp(1)),2)}'"
check "calculated: a '{' of the text is no wildcard in Moodle (&#123;)" sh -c \
	"xmllint --xpath 'string(//question[idnumber=\"derived\"]/questiontext/text)' $C | grep -qF '<code>\\&#123;x}</code>'"
check "calculated: the options' formulas shown without trailing zeros, as qbc shows them (correctanswerlength 0)" is $C \
	'concat(//question[idnumber="area-choice"]/answer[1]/correctanswerlength, " ", //question[idnumber="area-choice"]/answer[1]/@fraction, " ", //question[idnumber="area-choice"]/answer[2]/@fraction)' '0 100 0'
check "calculated: cot(x) is 1/tan(x)" sh -c "grep -qF '{=round((1/tan({x})),2)}' $C"
check "calculated: a function Moodle lacks (erf): a located warning, its values a dataset" \
	grep -qF "calc.qb:71:10: warning: [moodlexml] question 'special': Moodle's formulas have no form of 'erf(x)' (none of its functions): Moodle gets its values from the pool, as the dataset 's'" "$T/calc-err"
check "calculated: ... the dataset 's' of erf's values" is $C \
	'concat(count(//question[idnumber="special"]//dataset_definition[name/text="s"]), count(//question[idnumber="special"]//dataset_definition[name/text="c"]))' '10'
check "calculated: a cloze question (Moodle cannot draw it): each draw a question in a category of its id, for a random question" \
	python3 "$HERE/check_calculated.py" draws "$C" "$T/calc.json" gap
check "calculated: no warning for it (Moodle draws it, from the category)" sh -c "! grep -q \"question 'gap'\" '$T/calc-err'"
check "calculated: the name shows the first draw, not the placeholders" test \
	"$(xp $C 'string(//question[idnumber="simple"]/name/text)')" = \
	"$(python3 -c "import json; p=[q for q in json.load(open('$T/calc.json'))['questions'] if q['id']=='simple'][0]['params']['pool'][0]; print('simple: What is %.1f × %d?' % (p['x'], p['y']))")"
cp $C "$T/calc.xml"
SOURCE_DATE_EPOCH=1764690000 run $B calc.qb
check "calculated: rebuild byte-identical" cmp -s $C "$T/calc.xml"
run $B --lang en -o out-en calc.qb
$QBC dump --json --lang en calc.qb >"$T/calc-en.json" 2>/dev/null
check "calculated --lang en: no spans, the same datasets" sh -c \
	"! grep -q multilang out-en/moodle-calc.moodle.xml && $CALC file out-en/moodle-calc.moodle.xml '$T/calc-en.json'"
run "$QBC" import -o back/calc.qb $C
check "calculated: qbc import reads the file back" rc 0
"$QBC" dump --json back/calc.qb >"$T/calc-back.json" 2>/dev/null
check "calculated round trip: types, pools, answers, tolerances, formulas and texts kept in every draw" \
	$CALC roundtrip "$T/calc.json" "$T/calc-back.json"
check "calculated round trip: the cloze question's draws read as it, its first draw, in one folded warning" sh -c \
	"grep -qF \"is not imported: it is another draw of question 'gap' (a category of its draws in qbc's Moodle XML): its first draw is imported (and 18 more like it\" '$T/err' && test \"\$(grep -c '^[0-9]*\. ' back/calc.qb)\" = 6"
check "calculated round trip: the datasets are the draws table, {answer} and the formulas come back" sh -c \
	"grep -qF '   answer: sqrt(((2*h)/g)) ± 2%' back/calc.qb && grep -qF 'en: t = √(2h/g) = √(2 × {h} / {g}) ≈ {answer} s.' back/calc.qb && grep -qxF '     h | g' back/calc.qb && grep -qF '     r1 = (m*((v)^(2))) decimals 3' back/calc.qb"
# more draws than Moodle keeps, a name Moodle's wildcards cannot have, an
# answer whose function Moodle lacks
cat >many.qb <<'EOF'
bank: moodle-many
languages: en
title:
  en: Many

1. many
   type: numeric
   vars:
     _n = 1..200
   draws: 120
   en: What is erf({_n}/100)?
   answer: erf(_n/100) ± 1%
   explanation:
     en: {answer}.
EOF
run $B many.qb
MA=out/moodle-many.moodle.xml
check "120 draws: built, a warning at 'draws:' that Moodle keeps 100" sh -c \
	"test \"\$(cat '$T/rc')\" = 0 && grep -qF \"many.qb:10:4: warning: [moodlexml] question 'many' has 120 draws: a Moodle calculated question holds at most 100, so the first 100 are written\" '$T/err'"
check "120 draws: 100 items" is $MA 'concat(//dataset_definition[1]/itemcount, " ", count(//dataset_definition[1]//dataset_item), " ", //dataset_definition[1]//dataset_item[100]/number)' '100 100 100'
check "a variable '_n' is the wildcard 'v_n' (Moodle's begin with a letter)" sh -c \
	"test \"\$(xmllint --xpath 'string(//dataset_definition[1]/name/text)' $MA)\" = v_n && xmllint --xpath 'string(//question[idnumber=\"many\"]/questiontext/text)' $MA | grep -qF 'erf({v_n}/100)'"
check "an answer formula Moodle cannot say: a warning, the dataset 'answer' of its values, rounded in texts" sh -c \
	"grep -qF \"warning: [moodlexml] question 'many': Moodle's formulas have no form of 'erf(_n/100)'\" '$T/err' && test \"\$(xmllint --xpath 'string(//question[idnumber=\"many\"]/answer/text)' $MA)\" = '{answer}' && xmllint --xpath 'string(//question[idnumber=\"many\"]/generalfeedback/text)' $MA | grep -qF '{=round({answer},2)}'"
$QBC dump --json many.qb >"$T/many.json" 2>/dev/null
check "120 draws: the items are the first 100 draws" $CALC file $MA "$T/many.json"

# a passage's run with a question of draws in it: its description again after them
cat >pdraws.qb <<'EOF'
bank: moodle-pdraws
languages: en
title:
  en: Passage and draws

passage: lab
  en: In the lab.

1. before
   passage: lab
   type: true-false
   answer: true
   en: Water is wet.
   explanation:
     en: Yes.

2. drawn
   passage: lab
   type: true-false
   vars:
     x = 2..5
   answer: true
   en: {x} is more than 1.
   explanation:
     en: {x} > 1.

3. after
   passage: lab
   type: true-false
   answer: false
   en: Ice is hot.
   explanation:
     en: No.
EOF
run $B pdraws.qb
PD=out/moodle-pdraws.moodle.xml
check "draws in a passage's run: built" rc 0
check "draws in a passage's run: description, before, category of drawn, the description, its draws, category, the description again, after" \
	is $PD 'concat(/quiz/question[2]/@type, " ", /quiz/question[3]/idnumber, " ", /quiz/question[4]/@type, " ", /quiz/question[5]/@type, " ", /quiz/question[6]/idnumber, " ", /quiz/question[10]/@type, " ", /quiz/question[11]/@type, " ", /quiz/question[12]/idnumber)' \
	'description before category description drawn category description after'
run "$QBC" import -o back/pdraws.qb $PD
"$QBC" dump --json back/pdraws.qb >"$T/pdraws.json" 2>/dev/null
check "draws in a passage's run: imported back, every question read with the passage" python3 -c \
	"import json,sys; d=json.load(open('$T/pdraws.json')); sys.exit(0 if [(q['id'], q.get('passage')) for q in d['questions']] == [('before','lab'),('drawn','lab'),('after','lab')] else 1)"
# Moodle's own importer (an installed Moodle 4.5, tests/moodle/setup.sh; its
# database running), run as the web server's user: MOODLE_DIR=none skips
MOODLE_DIR=${MOODLE_DIR:-/opt/moodle-qbc}
if [ -f "$MOODLE_DIR/config.php" ] && command -v php >/dev/null; then
	if [ "$(id -u)" = 0 ]; then
		su www-data -s /bin/sh -c "php '$HERE/moodle_import.php' '$MOODLE_DIR' -" <$C >"$T/moodle.json" 2>"$T/moodle.err"
	else
		php "$HERE/moodle_import.php" "$MOODLE_DIR" - <$C >"$T/moodle.json" 2>"$T/moodle.err"
	fi
	if ! python3 -c "import json,sys; json.load(open('$T/moodle.json'))" 2>/dev/null &&
		grep -qiE 'database|dml_connection|connect' "$T/moodle.err"; then
		# an installed Moodle that is not running is an environment, not a result
		echo "moodlexml: the Moodle at MOODLE_DIR=$MOODLE_DIR has its database down (e.g. 'pg_ctlcluster 15 main start'): Moodle's own import of calculated questions not run"
	else
	check "Moodle answers (MOODLE_DIR=none skips)" \
		python3 -c "import json,sys; json.load(open('$T/moodle.json'))"
	check "calculated: Moodle's importer takes the file; each variant is qbc's draw, Moodle's answer qbc's, graded right, with qbc's tolerance" \
		$CALC moodle "$T/moodle.json" "$T/calc.json"
	if [ "$(id -u)" = 0 ]; then
		su www-data -s /bin/sh -c "php '$HERE/moodle_import.php' '$MOODLE_DIR' -" <$MA >"$T/moodle-many.json" 2>/dev/null
	else
		php "$HERE/moodle_import.php" "$MOODLE_DIR" - <$MA >"$T/moodle-many.json" 2>/dev/null
	fi
	check "120 draws: Moodle takes 100 variants, each qbc's draw, its answer the dataset's" \
		$CALC moodle "$T/moodle-many.json" "$T/many.json"
	check "calculated: Moodle imports every question of it, the cloze question's draws in the category 'gap', each gap's answer its draw's" python3 -c \
		"import json,sys; d=json.load(open('$T/moodle.json')); p=[q for q in json.load(open('$T/calc.json'))['questions'] if q['id']=='gap'][0]['params']['pool']; g=[q for q in d['questions'] if q['category']=='gap']; sys.exit(0 if d['ok'] and len(d['questions']) == 5 + len(p) and [float(q['gaps'][0]) for q in g] == [round(x['f'], 1) for x in p] else 1)"
	fi
else
	echo "moodlexml: no Moodle at MOODLE_DIR=$MOODLE_DIR: Moodle's own import of calculated questions not run"
fi

finish
