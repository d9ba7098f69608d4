#!/bin/sh
# tests/qti/run.sh - the QTI writer (--format qti: QTI 2.1, --format qti3:
# QTI 3.0): every item, test and manifest validated with xmllint against
# 1EdTech's XSDs (schemas/, see schemas/README.md), and checked against the
# bank: one item per question and language, each type's interaction and
# response processing, the test's order, shuffling and draw, the
# manifest's resources and dependencies, media, hostile text, byte-identical
# rebuilds and a failed build that leaves the earlier package;
# parameterised questions' template processing (params.qb, draws.py).  The
# scores a real QTI player computes: tests/browser/qti.test.mjs and
# qti-params.test.mjs.
. "$(dirname "$0")/../lib.sh"
HERE="$ROOT/tests/qti"
T=$(tmpdir)
W="$T/w"
mkdir "$W"
cp -R "$HERE/types.qb" "$HERE/pertag.qb" "$HERE/numeric.qb" "$HERE/passage.qb" "$HERE/marks.qb" "$HERE/params.qb" "$HERE/media" "$W/"
cd "$W" || exit 2
# xp FILE XPATH: the string value of an XPath expression (elements are
# named with local-name(): QTI's namespaces are default namespaces).
xp() { xmllint --xpath "$2" "$1" 2>/dev/null; }
is() { test "$(xp "$1" "$2")" = "$3"; }
# e NAME: an XPath step matching the element NAME in any namespace.
e() { echo "*[local-name()='$1']"; }

# The schemas: 2.1 as shipped; 3.0 through a copy in which the two W3C
# schemas the ASI schema imports (SSML 1.1, MathML 3) carry the namespaces
# that schema expects, as its own amendment note says (the copies 1EdTech's
# schemas were taken from lack that amendment).
S="$HERE/schemas"
S3="$T/schemas"
cp -R "$S" "$S3"
sed -i 's|"http://www.w3.org/2010/10/synthesis"|"http://www.w3.org/2001/10/synthesis"|g' \
	"$S3/w3/ssml11/ssmlv1p1-core.xsd"
sed -i 's|http://www.w3.org/2010/Math/MathML|http://www.w3.org/1998/Math/MathML|g' "$S3"/w3/mathml3/*.xsd
XSD21="$S/qtiv2p1/imsqti_v2p1.xsd"
XSD30="$S3/qtiv3p0/imsqti_asiv3p0_sbacv1p0_v1p0.xsd"
CP21="$HERE/manifest21-driver.xsd"
CP30="$S3/qtiv3p0/imsqtiv3p0_imscpv1p2_v1p0.xsd"
# valid XSD FILE...: every file validates (xmllint says so for each).
valid() {
	xsd=$1
	shift
	xmllint --noout --schema "$xsd" "$@" >"$T/xsd" 2>&1
	test "$(grep -c ' validates$' "$T/xsd")" = $# || { grep -v ' validates$' "$T/xsd" | head -n 5; return 1; }
}

check "build --help lists qti and qti3" sh -c "$QBC build --help | grep -q 'qti ' && $QBC build --help | grep -q 'qti3'"

run $QBC build --format qti,qti3 -o out types.qb
check "build exits 0" rc 0
check "build names a package per language and version" sh -c "for f in en.qti sw.qti en.qti3 sw.qti3; do grep -qF \"wrote out/qti-types.\$f.zip\" '$T/out' || exit 1; done"
check "build writes nothing else" test "$(ls out | tr '\n' ' ')" = "qti-types.en.qti.zip qti-types.en.qti3.zip qti-types.sw.qti.zip qti-types.sw.qti3.zip "
# p21 and p30: both languages' files; p21en, p21sw: each package as it is
mkdir p21 p30 p21en p21sw p30en
unzip -q out/qti-types.en.qti.zip -d p21en
unzip -q out/qti-types.sw.qti.zip -d p21sw
unzip -q out/qti-types.en.qti3.zip -d p30en
for l in en sw; do
	unzip -qo out/qti-types.$l.qti.zip -d p21
	unzip -qo out/qti-types.$l.qti3.zip -d p30
done
check "a package holds one test, its language's, and only its language's items" \
	sh -c "test \"\$(ls p21en | grep -c '^test-')\" = 1 && test -f p21en/test-en.xml && test \"\$(ls p21en/item-*-en.xml | wc -l)\" = 11 && ! ls p21en | grep -q -- '-sw'"
check "the manifest names that test only" is p21sw/imsmanifest.xml "concat(count(//$(e resource)[@type='imsqti_test_xmlv2p1']), ' ', //$(e resource)[@type='imsqti_test_xmlv2p1']/@href)" '1 test-sw.xml'

# --- every file validates against the official XSDs
check "QTI 2.1: 22 items (11 questions x 2 languages)" test "$(ls p21/item-*.xml | wc -l)" = 22
check "QTI 2.1: every item validates (imsqti_v2p1.xsd)" valid "$XSD21" p21/item-*.xml
check "QTI 2.1: both tests validate" valid "$XSD21" p21/test-en.xml p21/test-sw.xml
check "QTI 2.1: the manifests validate (IMS CP 1.1, QTI metadata, LOM)" valid "$CP21" p21en/imsmanifest.xml p21sw/imsmanifest.xml
check "QTI 3.0: 22 items" test "$(ls p30/item-*.xml | wc -l)" = 22
check "QTI 3.0: every item validates (ASI 3.0)" valid "$XSD30" p30/item-*.xml
check "QTI 3.0: both tests validate" valid "$XSD30" p30/test-en.xml p30/test-sw.xml
check "QTI 3.0: the manifest validates (IMS CP 1.2 QTI 3.0 profile)" valid "$CP30" p30en/imsmanifest.xml
# the validation can fail: an element out of place, a wrong metadata value
sed 's|<itemBody>|<itemBody><choiceInteraction responseIdentifier="X"/>|' p21/item-one-en.xml >"$T/bad21.xml"
check "QTI 2.1: a broken item fails validation" sh -c "! xmllint --noout --schema '$XSD21' '$T/bad21.xml' 2>/dev/null"
sed 's|<qti-item-body>|<qti-item-body><qti-prompt/>|' p30/item-one-en.xml >"$T/bad30.xml"
check "QTI 3.0: a broken item fails validation" sh -c "! xmllint --noout --schema '$XSD30' '$T/bad30.xml' 2>/dev/null"
sed 's|<timeDependent>false|<timeDependent>maybe|' p21en/imsmanifest.xml >"$T/bad-manifest.xml"
check "QTI 2.1: a bad resource metadata value fails validation" \
	sh -c "! xmllint --noout --schema '$CP21' '$T/bad-manifest.xml' 2>/dev/null"

# --- items: one per question and language
I=p21/item-one-sw.xml
check "item: identifier q-<id>-<lang>, title the id" \
	is $I "concat(/$(e assessmentItem)/@identifier, ' ', /$(e assessmentItem)/@title)" 'q-one-sw one'
check "item: xml:lang is the item's language" is $I "string(/$(e assessmentItem)/@xml:lang)" sw
check "item: the prompt in that language" sh -c "xmllint --xpath 'string(//*[@class=\"qbc-prompt\"])' $I | grep -qF 'Picha ipi inaonyesha GPU nne?'"
check "item: the English item has the English prompt" sh -c "xmllint --xpath 'string(//*[@class=\"qbc-prompt\"])' p21/item-one-en.xml | grep -qF 'Which picture shows four GPUs?'"
check "3.0 names: qti-assessment-item, time-dependent" \
	is p30/item-one-en.xml "concat(local-name(/*), ' ', /*/@time-dependent)" 'qti-assessment-item false'

# --- a <script> in a text stays text
check "script: escaped text in the item" grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' p21/item-one-en.xml
check "script: no script element" is p21/item-one-en.xml "count(//$(e script))" 0
check "script: no script element (3.0)" is p30/item-one-en.xml "count(//$(e script))" 0

# --- single, multiple, true-false: choiceInteraction
check "single: choiceInteraction, one choice, shuffled" \
	is p21/item-one-en.xml "concat(//$(e choiceInteraction)/@maxChoices, //$(e choiceInteraction)/@shuffle)" 1true
check "single: the pinned option is fixed" \
	is p21/item-one-en.xml "string(//$(e simpleChoice)[@identifier='C3']/@fixed)" true
check "single: the correct response" is p21/item-one-en.xml "string(//$(e correctResponse))" C1
check "single: picture in the prompt, alt text kept" \
	sh -c "xmllint --xpath 'string(//*[local-name()=\"img\"]/@src)' p21/item-one-en.xml | grep -qxE 'media/[0-9a-f]{16}\.png' && test \"\$(xmllint --xpath 'string(//*[local-name()=\"img\"]/@alt)' p21/item-one-en.xml)\" = 'four GPUs'"
check "multiple, partial: mapping +1/2 right, -1/2 wrong, bounded 0..1" \
	is p21/item-two-en.xml "concat(//$(e mapping)/@lowerBound, //$(e mapping)/@upperBound, ' ', //$(e mapEntry)[1]/@mappedValue, ' ', //$(e mapEntry)[3]/@mappedValue)" '01 0.5 -0.5'
check "multiple, partial: SCORE is mapResponse" is p21/item-two-en.xml "count(//$(e setOutcomeValue)[@identifier='SCORE']/$(e mapResponse))" 1
check "multiple, all-or-nothing: no mapping, SCORE when the response matches" \
	is p21/item-aon-en.xml "concat(count(//$(e mapping)), count(//$(e responseIf)/$(e match)/$(e correct)))" 01
check "true-false: the labels in the item's language" \
	is p21/item-tf-sw.xml "concat(//$(e simpleChoice)[1], '/', //$(e simpleChoice)[2])" 'Kweli/Si kweli'
check "true-false: False is correct" is p21/item-tf-en.xml "string(//$(e correctResponse))" C2

# --- short answer, numeric: textEntryInteraction
check "short: the accepted answer mapped, case-insensitive" \
	is p21/item-short-sw.xml "concat(//$(e mapEntry)/@mapKey, ' ', //$(e mapEntry)/@caseSensitive)" 'uvukizaji false'
check "short: the listed wrong answer's feedback on stringMatch" \
	is p21/item-short-en.xml "string(//$(e responseIf)[$(e stringMatch)/$(e baseValue)='boiling']/$(e setOutcomeValue)/@identifier)" FB_F2
check "short: the sound as <object> (2.1) and <audio> (3.0)" \
	sh -c "test \"\$(xmllint --xpath 'string(//*[local-name()=\"object\"]/@type)' p21/item-short-en.xml)\" = audio/ogg && test \"\$(xmllint --xpath 'count(//*[local-name()=\"audio\"])' p30/item-short-en.xml)\" = 1"
check "numeric: base type float" is p21/item-range-en.xml "string(//$(e responseDeclaration)/@baseType)" float
check "numeric: a range's bounds in response processing" \
	is p21/item-range-en.xml "concat(//$(e gte)/$(e baseValue), '..', //$(e lte)/$(e baseValue))" '36.1..37.2'
check "numeric: the unit after the box" sh -c "xmllint --xpath 'string(//*[local-name()=\"p\"][*[local-name()=\"textEntryInteraction\"]])' p21/item-range-en.xml | grep -qF '°C'"
check "numeric: an exact value" is p21/item-exact-en.xml "concat(//$(e gte)/$(e baseValue), '..', //$(e lte)/$(e baseValue))" '42..42'

# --- matching, cloze
check "matching: directedPair pairs, 2 left sides, 3 right sides" \
	is p21/item-pairs-en.xml "concat(//$(e correctResponse)/$(e value)[1], '/', count(//$(e simpleMatchSet)[1]/*), count(//$(e simpleMatchSet)[2]/*))" 'L1 R1/23'
check "matching, partial: each pair 1/2" is p21/item-pairs-en.xml "string(//$(e mapEntry)[1]/@mappedValue)" 0.5
check "cloze: a text entry and an inline choice in the prompt, in order" \
	is p21/item-gaps-en.xml "concat(local-name(//$(e div)[@class='qbc-prompt']//*[@responseIdentifier='RESPONSE_1']), ' ', local-name(//*[@responseIdentifier='RESPONSE_2']))" 'textEntryInteraction inlineChoiceInteraction'
check "cloze: the gap keeps the Markdown around it (bold)" \
	is p21/item-gaps-en.xml "count(//$(e strong)/$(e textEntryInteraction))" 1
check "cloze: every accepted answer of a typed gap mapped" \
	is p21/item-gaps-en.xml "count(//$(e responseDeclaration)[@identifier='RESPONSE_1']//$(e mapEntry))" 2
check "cloze: the right choice of a choice gap" \
	is p21/item-gaps-en.xml "string(//$(e responseDeclaration)[@identifier='RESPONSE_2']//$(e value))" G2_1
check "cloze, partial: right gaps / gaps" is p21/item-gaps-en.xml "string(//$(e divide)/$(e baseValue))" 2
check "cloze, case-sensitive: the mapping says so" \
	is p21/item-aon-gaps-en.xml "string(//$(e mapEntry)[1]/@caseSensitive)" true

# --- feedback: modal feedback, each with its own outcome
check "feedback: per option, feedback-wrong and explanation" \
	is p21/item-two-en.xml "concat(//$(e modalFeedback)[1]/@identifier, ' ', //$(e modalFeedback)[2]/@identifier, ' ', //$(e modalFeedback)[3]/@identifier)" 'F3 WRONG EXPLANATION'
check "feedback: the explanation in the item's language, titled by the label" \
	sh -c "test \"\$(xmllint --xpath 'string(//*[local-name()=\"modalFeedback\"][@identifier=\"EXPLANATION\"]/@title)' p21/item-two-sw.xml)\" != '' && xmllint --xpath 'string(//*[local-name()=\"modalFeedback\"][@identifier=\"EXPLANATION\"])' p21/item-two-sw.xml | grep -qF 'Zote huhamisha data'"
check "feedback: 3.0 wraps it in qti-content-body" is p30/item-two-en.xml "count(//$(e qti-modal-feedback)/$(e qti-content-body))" 3
# --- formulas: MathML (blahtexml), the TeX as its annotation
check "math: MathML in the item, the TeX as its annotation (2.1)" \
	is p21/item-one-en.xml "concat(count(//$(e math)[namespace-uri()='http://www.w3.org/1998/Math/MathML']//$(e msup)), ' ', //$(e math)//$(e annotation)[@encoding='application/x-tex'])" '1 E = mc^2'
check "math: MathML in the item (3.0), no TeX span left" \
	sh -c "test \"\$(xmllint --xpath 'count(//*[local-name()=\"math\"]//*[local-name()=\"msup\"])' p30/item-one-en.xml)\" = 1 && ! grep -qF 'class=\"math' p30/item-one-en.xml"
mkdir nobin
check "math: qbc check --format qti runs blahtexml without a word" sh -c "$QBC check --format qti,qti3 types.qb >'$T/chk' 2>&1 && ! grep -q 'warning' '$T/chk'"
check "math: qbc check --format qti says when blahtexml is missing" \
	sh -c "env PATH='$T/nobin' $QBC check --format qti types.qb 2>&1 | grep -qF 'install blahtexml'"
check "math: the item's stylesheet hides the annotation where a player drops MathML's namespace" \
	sh -c "grep -qF 'annotation, annotation-xml { display: none; }' p21en/qbc-math.css && test \"\$(xmllint --xpath 'string(//*[local-name()=\"stylesheet\"]/@href)' p21/item-one-en.xml)\" = qbc-math.css && test \"\$(xmllint --xpath 'count(//*[local-name()=\"stylesheet\"])' p21/item-two-en.xml)\" = 0"
check "math: the item depends on the stylesheet in the manifest" \
	is p21en/imsmanifest.xml "count(//$(e resource)[@identifier='q-one-en']/$(e dependency)[@identifierref='qbc-math-css'])" 1
# without blahtexml: a located warning, and the TeX for MathJax
run env PATH="$T/nobin" $QBC build --format qti -o out-nomath types.qb
check "math: without blahtexml the build still succeeds" rc 0
check "math: without blahtexml a warning at the formula's text says what to install" \
	grep -qE "^types\.qb:33:10: warning: \[qti\] formulas are written as TeX in QTI.*blahtexml" "$T/err"
unzip -q out-nomath/qti-types.en.qti.zip -d pnm
check "math: without blahtexml the formula stays TeX in a math span" \
	grep -qF '<span class="math inline">\(E = mc^2\)</span>' pnm/item-one-en.xml
printf 'bank: badmath\nlanguages: en\ntitle:\n  en: T\n\n1. q\n   type: single\n   en: What is $\\foo x$ here?\n   * en: A\n   - en: B\n   explanation:\n     en: A.\n' >badmath.qb
run $QBC build --format qti -o out-bad badmath.qb
check "math: a formula blahtexml cannot read: a warning at its text, its TeX kept" \
	sh -c "grep -qE '^badmath\.qb:8:8: warning: \[qti\] blahtexml cannot convert the formula .*foo' '$T/err' && unzip -p out-bad/badmath.en.qti.zip item-q-en.xml | grep -qF 'class=\"math inline\"'"

# --- the tests: bank order, shuffling, draw, pass mark
check "test: one per language" sh -c "test -f p21/test-en.xml && test -f p21/test-sw.xml"
check "test: the items in bank order" \
	is p21/test-sw.xml "concat(//$(e assessmentItemRef)[1]/@href, ' ', //$(e assessmentItemRef)[10]/@href)" 'item-one-sw.xml item-aon-gaps-sw.xml'
check "test: draw 9 as a selection" is p21/test-en.xml "string(//$(e selection)/@select)" 9
check "test: shuffle-questions as ordering" is p21/test-en.xml "string(//$(e ordering)/@shuffle)" true
check "test: the title in its language" is p21/test-sw.xml "string(/*/@title)" 'Aina za QTI'
check "test: pass mark 60%" is p21/test-en.xml "string(//$(e setOutcomeValue)[@identifier='PASS']//$(e baseValue)[. = '60'])" 60
run $QBC build --format qti -o out pertag.qb
check "draw per tag: builds" rc 0
unzip -q out/qti-pertag.en.qti.zip -d pt
check "draw per tag: a section per first tag, selecting one" \
	is pt/test-en.xml "concat(count(//$(e assessmentSection)), //$(e assessmentSection)[2]/@title, //$(e assessmentSection)[2]/$(e selection)/@select, count(//$(e assessmentSection)[2]/$(e assessmentItemRef)))" 2beta12
check "draw per tag: validates" valid "$XSD21" pt/test-en.xml pt/item-*.xml

# --- the manifest: resources, dependencies, media
M=p21en/imsmanifest.xml
check "manifest: a resource per item, per test and per media file" \
	is $M "concat(count(//$(e resource)[@type='imsqti_item_xmlv2p1']), ' ', count(//$(e resource)[@type='imsqti_test_xmlv2p1']), ' ', count(//$(e resource)[@type='webcontent']))" '11 1 3'
check "manifest: 3.0 resource types" \
	is p30en/imsmanifest.xml "concat(count(//$(e resource)[@type='imsqti_item_xmlv3p0']), ' ', count(//$(e resource)[@type='imsqti_test_xmlv3p0']))" '11 1'
check "manifest: a test depends on its language's items" \
	is p21sw/imsmanifest.xml "count(//$(e resource)[@identifier='test-sw']/$(e dependency))" 11
check "manifest: the item showing the picture depends on it" \
	is $M "string(//$(e resource)[@identifier=//$(e resource)[@identifier='q-one-en']/$(e dependency)[@identifierref!='qbc-math-css']/@identifierref]/@href)" \
	"$(xp p21/item-one-en.xml "string(//$(e img)/@src)")"
check "manifest: resource metadata (interaction type, LOM title and language)" \
	is p21sw/imsmanifest.xml "concat(//$(e resource)[@identifier='q-pairs-sw']//$(e interactionType), ' ', //$(e resource)[@identifier='q-pairs-sw']//$(e lom)//$(e language))" 'matchInteraction sw'
check "manifest: every file it names is in the package" sh -c '
	for f in $(xmllint --xpath "//*[local-name()=\"file\"]/@href" p21en/imsmanifest.xml | sed "s/ href=\"\([^\"]*\)\"/\1 /g"); do
		test -f "p21en/$f" || exit 1
	done'
check "manifest: every file of the package is in it" sh -c '
	cd p21en && for f in $(find . -type f ! -name imsmanifest.xml | sed "s|^\./||"); do
		grep -qF "href=\"$f\"" imsmanifest.xml || exit 1
	done'
check "media: the picture's bytes" cmp -s "p21/$(xp p21/item-one-en.xml "string(//$(e img)/@src)")" media/gpus.png

# --- numbers: each end of an interval is the decimal its author's digits
# make (tests/browser/qti-numeric.test.mjs answers them in a player)
echo 'stale' >out/qti-numeric.qti.zip
run $QBC build --format qti,qti3 -o out numeric.qb
check "numeric bank: builds" rc 0
check "an unsplit package of an earlier qbc is removed, and said so" \
	sh -c "test ! -e out/qti-numeric.qti.zip && grep -qF 'removed out/qti-numeric.qti.zip' '$T/out'"
mkdir pn pn3
unzip -q out/qti-numeric.en.qti.zip -d pn
unzip -q out/qti-numeric.en.qti3.zip -d pn3
check "numeric bank: items validate (2.1)" valid "$XSD21" pn/item-*.xml
check "numeric bank: items validate (3.0)" valid "$XSD30" pn3/item-*.xml
bounds() { xp "pn/item-$1-en.xml" "concat(//$(e correctResponse), ' ', //$(e gte)/$(e baseValue), '..', //$(e lte)/$(e baseValue))"; }
check "83.6 ± 1%: bounds 82.764..84.436 (not 84.43599999999999)" test "$(bounds pct)" = '83.6 82.764..84.436'
check "373.15 ± 0.01: bounds 373.14..373.16" test "$(bounds kelvin)" = '373.15 373.14..373.16'
check "0.7 ± 0.1: bounds 0.6..0.8" test "$(bounds tenth)" = '0.7 0.6..0.8'
check "a range: its correct response 36.65, not 36.650000000000006" test "$(bounds range)" = '36.65 36.1..37.2'
check "a negative value" test "$(bounds negative)" = '-2.5 -2.8..-2.2'
check "a small value, without an exponent" test "$(bounds small)" = '0.000001 0.0000009..0.0000011'
# further answers: one responseElseIf each, by credit from the highest (the
# best that holds the number scores), their feedback shown
check "further answers: full marks, then each credit by credit from the highest" \
	test "$(xp pn/item-credit-en.xml "concat(count(//$(e responseElseIf)), ' ', //$(e responseElseIf)[1]//$(e setOutcomeValue)[@identifier='SCORE']/$(e baseValue), ' ', //$(e responseElseIf)[1]//$(e gte)/$(e baseValue), ' ', //$(e responseElseIf)[2]//$(e setOutcomeValue)[@identifier='SCORE']/$(e baseValue), ' ', //$(e responseElseIf)[3]//$(e setOutcomeValue)[@identifier='SCORE']/$(e baseValue))")" = '3 0.5 90.0 0.25 0'
check "further answers: a feedback each, shown by its branch" \
	test "$(xp pn/item-credit-en.xml "concat(//$(e responseElseIf)[1]//$(e setOutcomeValue)[@identifier='FB_N1']/$(e baseValue), ' ', //$(e modalFeedback)[@identifier='N1'], ' ', //$(e modalFeedback)[@identifier='N3'])")" = 'N1 Close: that is up a mountain. That is where water freezes.'
check "3.0: the same bounds" is pn3/item-pct-en.xml "concat(//$(e qti-gte)/$(e qti-base-value), '..', //$(e qti-lte)/$(e qti-base-value))" '82.764..84.436'
# --- numeric cloze gaps (issue 36): a float text entry each, its range
# checked in response processing into GAP_<n>, which the score adds
cat >numgaps.qb <<'EOF'
bank: qti-numgaps
languages: en
scoring: partial
title:
  en: Numeric gaps

1. measures
   type: cloze
   en: g is {{#9.81 ± 0.05}} m/s², a body {{#36.1..37.2}} °C, sound {{#343 ± 2%}} m/s, water {{water|H2O}}.
   explanation: en: Measured values.
EOF
run $QBC build --format qti,qti3 -o out-ng numgaps.qb
check "numeric gaps: build" rc 0
mkdir png png3
unzip -q out-ng/qti-numgaps.en.qti.zip -d png
unzip -q out-ng/qti-numgaps.en.qti3.zip -d png3
check "numeric gaps: items validate (2.1)" valid "$XSD21" png/item-*.xml
check "numeric gaps: items validate (3.0)" valid "$XSD30" png3/item-*.xml
G=png/item-measures-en.xml
check "numeric gaps: a float response each, the typed gap a string" \
	is $G "concat(//$(e responseDeclaration)[1]/@baseType, ' ', //$(e responseDeclaration)[2]/@baseType, ' ', //$(e responseDeclaration)[3]/@baseType, ' ', //$(e responseDeclaration)[4]/@baseType)" 'float float float string'
check "numeric gaps: each range checked into its own outcome, as the author's decimals" \
	is $G "concat(//$(e responseCondition)[1]//$(e gte)/$(e baseValue), '..', //$(e responseCondition)[1]//$(e lte)/$(e baseValue), ' ', //$(e responseCondition)[2]//$(e gte)/$(e baseValue), '..', //$(e responseCondition)[2]//$(e lte)/$(e baseValue), ' ', //$(e responseCondition)[3]//$(e gte)/$(e baseValue), '..', //$(e responseCondition)[3]//$(e lte)/$(e baseValue), ' ', //$(e responseCondition)[3]//$(e setOutcomeValue)/@identifier)" \
	'9.76..9.86 36.1..37.2 336.14..349.86 GAP_3'
check "numeric gaps: the score adds the gaps' outcomes and the typed gap's mapping" \
	is $G "concat(count(//$(e sum)/$(e variable)), ' ', count(//$(e sum)/$(e mapResponse)))" '3 1'
# --- marks (issue 36): each option's share in the item's mapping
run $QBC build --format qti,qti3 -o out marks.qb
check "marks bank: builds" rc 0
mkdir pm pm3
unzip -q out/qti-marks.en.qti.zip -d pm
unzip -q out/qti-marks.en.qti3.zip -d pm3
check "marks bank: items validate (2.1)" valid "$XSD21" pm/item-*.xml
check "marks bank: items validate (3.0)" valid "$XSD30" pm3/item-*.xml
# entries ID: the mapped values of item ID's mapping, and its bounds
entries() {
	n=$(xp "pm/item-$1-en.xml" "count(//$(e mapEntry))") i=1
	v=$(xp "pm/item-$1-en.xml" "concat(//$(e mapping)/@lowerBound, '..', //$(e mapping)/@upperBound, ':')")
	while [ "$i" -le "$n" ]; do
		v="$v $(xp "pm/item-$1-en.xml" "string((//$(e mapEntry))[$i]/@mappedValue)")"
		i=$((i + 1))
	done
	echo "$v"
}
check "marks: a single question's mapping, from 0 to 1: 1, -0.25, 0.5, 0" \
	test "$(entries capital)" = "0..1: 1 -0.25 0.5 0"
check "marks: a multiple question's mapping: 0.75, 0.25, a third taken away, 0" \
	test "$(entries primes)" = "0..1: 0.75 0.25 -0.3333333333333333 0"
# --- the manifest's titles are plain text; a cloze's metadata; tables
NM=pn/imsmanifest.xml
check "manifest title: a cloze's gaps as ___, a formula without TeX" \
	is $NM "string(//$(e resource)[@identifier='q-fill-en']//$(e lom)//$(e title)/$(e string))" \
	'fill: Vapour ___ into ___; H2O at 100 °C.'
check "manifest title: a table's cells on one line" \
	is $NM "string(//$(e resource)[@identifier='q-table-en']//$(e lom)//$(e title)/$(e string))" \
	'table: Which place is highest? place altitude Nairobi 1,795 m Kibo 5,895 m'
check "manifest: a cloze's interaction types (text entry, inline choice)" \
	is $NM "concat(count(//$(e resource)[@identifier='q-fill-en']//$(e interactionType)), ' ', //$(e resource)[@identifier='q-fill-en']//$(e interactionType)[1], ' ', //$(e resource)[@identifier='q-fill-en']//$(e interactionType)[2])" \
	'2 textEntryInteraction inlineChoiceInteraction'
check "table: the right-aligned column stays right-aligned (2.1, 3.0)" \
	sh -c "test \"\$(xmllint --xpath 'count(//*[local-name()=\"td\" or local-name()=\"th\"][@align=\"right\"])' pn/item-table-en.xml)\" = 3 && test \"\$(xmllint --xpath 'count(//*[local-name()=\"td\"][@align=\"right\"])' pn3/item-table-en.xml)\" = 2"
check "numeric bank: the manifest validates (2.1)" valid "$CP21" pn/imsmanifest.xml
check "numeric bank: the manifest validates (3.0)" valid "$CP30" pn3/imsmanifest.xml

# --- parameterised questions (issue 38): template processing draws one of
# the pool's draws; texts show its values as printed variables, in the
# language's way; response processing scores that draw's answer.
# draws.py reads each item's draws back and checks that they agree.
run $QBC build --format qti,qti3 -o out-prm params.qb
check "params: build exits 0" rc 0
mkdir prm21 prm30 prm21fr prm30fr
for l in en fr; do
	unzip -qo out-prm/qti-params.$l.qti.zip -d prm21
	unzip -qo out-prm/qti-params.$l.qti3.zip -d prm30
done
unzip -q out-prm/qti-params.fr.qti.zip -d prm21fr
unzip -q out-prm/qti-params.fr.qti3.zip -d prm30fr
check "params: items validate (2.1)" valid "$XSD21" prm21/item-*.xml
check "params: items validate (3.0)" valid "$XSD30" prm30/item-*.xml
check "params: the manifests validate (2.1, 3.0)" sh -c "xmllint --noout --schema '$CP21' prm21fr/imsmanifest.xml 2>/dev/null && xmllint --noout --schema '$CP30' prm30fr/imsmanifest.xml 2>/dev/null"
D="/usr/bin/python3 $HERE/draws.py"
F=prm21/item-falling-time-fr.xml
check "params numeric: a random draw 1..10, h the 10 values of 5..50 step 5 in that draw's order" \
	is $F "concat(//$(e randomInteger)/@min, '..', //$(e randomInteger)/@max, ' ', count(//$(e setTemplateValue)[@identifier='h']/$(e index)[@n='qbc-draw']/$(e ordered)/$(e baseValue)))" '1..10 10'
check "params numeric: the prompt shows h as a printed variable" \
	is $F "string(//*[@class='qbc-prompt']/$(e printedVariable)/@identifier)" h
check "params numeric: values in French with a decimal comma (g 9,81, the answer 2,26), in English a point" \
	sh -c "test \"\$(xmllint --xpath 'string(//*[local-name()=\"templateDeclaration\"][@identifier=\"g\"])' $F)\" = 9,81 && xmllint --xpath '//*[local-name()=\"setTemplateValue\"][@identifier=\"answer\"]//*[local-name()=\"baseValue\"]' $F | grep -qE '>[0-9],[0-9]{2}<' && test \"\$(xmllint --xpath 'string(//*[local-name()=\"templateDeclaration\"][@identifier=\"g\"])' prm21/item-falling-time-en.xml)\" = 9.81"
check "params numeric: response processing compares with the draw's bounds" \
	is $F "concat(//$(e gte)/$(e variable)[2]/@identifier, ' ', //$(e lte)/$(e variable)[2]/@identifier)" 'qbc-lo qbc-hi'
check "params numeric: each draw's interval is sqrt(2h/g) ± 2%, its correct response {answer}; draw 1 the defaults (2.1)" \
	sh -c "$D falling $F , && $D falling prm21/item-falling-time-en.xml"
check "params numeric: the same in QTI 3.0" sh -c "$D falling prm30/item-falling-time-fr.xml , && $D falling prm30/item-falling-time-en.xml"
check "params numeric: the explanation shows {answer} and the formula's variables" \
	is $F "concat(count(//$(e modalFeedback)//$(e printedVariable)[@identifier='answer']), ' ', count(//$(e modalFeedback)//$(e math)//$(e mi)[.='h']), count(//$(e modalFeedback)//$(e math)//$(e mi)[.='g']))" '1 11'
check "params math: a formula's placeholders are MathML identifiers of math variables, its TeX as written" \
	is $F "concat(//$(e templateDeclaration)[@identifier='h']/@mathVariable, ' ', //$(e templateDeclaration)[@identifier='g']/@mathVariable, ' ', //$(e annotation))" 'true true t = \sqrt{2 \times {h} / {g}}'
check "params math: 3.0's math-variable" is prm30/item-falling-time-en.xml "string(//$(e qti-template-declaration)[@identifier='h']/@math-variable)" true
check "params math: no placeholder's mark left in the package" sh -c "! grep -rl \"\$(printf '\\356\\200\\201')\" prm21 prm30"
A=prm21/item-area-choice-fr.xml
check "params choice: options show the computed values as printed variables, each option in one span" \
	is $A "concat(//$(e simpleChoice)[1]/$(e span)/$(e printedVariable)/@identifier, ' ', //$(e simpleChoice)[2]/$(e span)/$(e printedVariable)/@identifier, ' ', //$(e simpleChoice)[3]/$(e span)/$(e printedVariable)/@identifier)" 'right w1 w2'
check "params choice: 10 draws (draws: 10), each agreeing (right = a*b...), C1 right in every draw" \
	sh -c "$D area $A , && $D area prm30/item-area-choice-en.xml"
G=prm21/item-force-gap-fr.xml
check "params cloze: the numeric gap reads the draw's bounds, the typed gap as before" \
	is $G "concat(//$(e responseCondition)[1]//$(e gte)/$(e variable)[2]/@identifier, ' ', //$(e responseDeclaration)[@identifier='RESPONSE_2']//$(e mapEntry)[1]/@mapKey)" 'qbc-lo-g1 newtons'
check "params cloze: each draw's gap is f ± 0.1 with f = m*a, its correct response f (French and English, 2.1 and 3.0)" \
	sh -c "$D force $G , && $D force prm21/item-force-gap-en.xml && $D force prm30/item-force-gap-fr.xml ,"
check "params cloze: a number gap '{{#{=2*n}}}' is one gap, exact in each draw (2.1, 3.0)" \
	sh -c "$D exact prm21/item-exact-gap-fr.xml , && $D exact prm30/item-exact-gap-en.xml"
check "params cloze: a typed gap showing a variable: the first draw, its number gap read with a point, its typed answer as the prompt writes it (French)" \
	sh -c "$D typed prm21/item-typed-gap-fr.xml , && $D typed prm21/item-typed-gap-en.xml && $D typed prm30/item-typed-gap-fr.xml ,"
check "params short answer: an accepted answer that shows a variable: the item is the first draw, numbers and answer agreeing" \
	sh -c "test \"\$(xmllint --xpath 'count(//*[local-name()=\"templateDeclaration\"])' prm21/item-twice-en.xml)\" = 0 && x=\$(xmllint --xpath 'string(//*[@class=\"qbc-prompt\"])' prm21/item-twice-en.xml | sed 's/[^0-9]//g') && test \"\$(xmllint --xpath 'string(//*[local-name()=\"mapEntry\"]/@mapKey)' prm21/item-twice-en.xml)\" = \$((2 * x))"
check "params: a variable named as the item's own SCORE is qbc-v-SCORE" \
	is prm21/item-clash-en.xml "concat(//*[@class='qbc-prompt']/$(e printedVariable)/@identifier, ' ', count(//$(e templateDeclaration)[@identifier='SCORE']))" 'qbc-v-SCORE 0'
check "params manifest: a title shows the first draw's numbers" \
	is prm21fr/imsmanifest.xml "string(//$(e resource)[@identifier='q-falling-time-fr']//$(e lom)//$(e title)/$(e string))" \
	"falling-time: Une pierre tombe de $(xp $F "string(//$(e templateDeclaration)[@identifier='h'])") m. Combien de secondes avant le sol ?"
run $QBC build --format qti,qti3 -o out-prm2 params.qb
check "params: rebuild byte-identical" sh -c "for f in en.qti fr.qti en.qti3 fr.qti3; do cmp -s out-prm/qti-params.\$f.zip out-prm2/qti-params.\$f.zip || exit 1; done"
check "params: qbc check --format qti,qti3 warns of nothing" sh -c "$QBC check --format qti,qti3 params.qb >'$T/chk' 2>&1 && ! grep -q warning '$T/chk'"

# --- --lang, determinism, atomicity
run $QBC build --format qti --lang en -o out-en types.qb
check "--lang en: only the English package" test "$(ls out-en | tr '\n' ' ')" = "qti-types.en.qti.zip "
run $QBC build --format qti,qti3 -o out2 types.qb
check "rebuild: byte-identical packages" sh -c "for f in en.qti sw.qti en.qti3 sw.qti3; do cmp -s out/qti-types.\$f.zip out2/qti-types.\$f.zip || exit 1; done"
cp out/qti-types.sw.qti.zip "$T/good.zip"
mv media/gpus.png "$T/gpus.png"
sed -i 's/Count them/Count them all/' types.qb
run $QBC build --format qti -o out types.qb
check "missing picture: the build fails" test "$(cat "$T/rc")" != 0
check "missing picture: the earlier package is untouched" cmp -s out/qti-types.sw.qti.zip "$T/good.zip"
check "missing picture: no temporary file left" sh -c "! ls -a out | grep -q tmp"
mv "$T/gpus.png" media/gpus.png

# --- passages: in each item's body; QTI 3.0 also a shared stimulus
run $QBC build --format qti,qti3 -o pout passage.qb
check "passage: build exits 0" rc 0
mkdir pp21 pp30
unzip -q pout/qti-passage.en.qti.zip -d pp21
unzip -q pout/qti-passage.en.qti3.zip -d pp30
check "passage: QTI 2.1 items validate" valid "$XSD21" pp21/item-*.xml
check "passage: QTI 3.0 items and the stimulus validate" valid "$XSD30" pp30/item-*.xml pp30/stimulus-lighthouse-en.xml
check "passage: the QTI 3.0 manifest validates" valid "$CP30" pp30/imsmanifest.xml
check "passage: QTI 2.1, above the prompt in the body of each of its items" \
	is pp21/item-alone-en.xml "concat(string(//$(e itemBody)/*[1]/@class), '|', normalize-space(//$(e itemBody)/*[1]))" 'qbc-passage|The keeper lived alone on the rock.'
check "passage: its picture in the item, a dependency of the item" \
	sh -c "xmllint --xpath 'string(//*[@class=\"qbc-passage\"]//*[local-name()=\"img\"]/@alt)' pp21/item-where-en.xml | grep -qx 'Four GPUs' && test \"\$(xmllint --xpath 'count(//*[local-name()=\"resource\"][@identifier=\"q-where-en\"]/*[local-name()=\"dependency\"][starts-with(@identifierref,\"media-\")])' pp21/imsmanifest.xml)\" = 1"
check "passage: not in the item of a question without it" is pp21/item-sum-en.xml "count(//*[@class='qbc-passage'])" 0
check "passage: QTI 2.1 has no stimulus file" sh -c "! ls pp21 | grep -q stimulus"
check "passage: QTI 3.0, the item refers to the shared stimulus" \
	is pp30/item-alone-en.xml "concat(//$(e qti-assessment-stimulus-ref)/@identifier, ' ', //$(e qti-assessment-stimulus-ref)/@href)" 'stimulus-lighthouse-en stimulus-lighthouse-en.xml'
check "passage: QTI 3.0, the stimulus holds the text" \
	is pp30/stimulus-lighthouse-en.xml "normalize-space(//$(e qti-stimulus-body))" 'The keeper lived alone on the rock.'
check "passage: QTI 3.0 manifest, a stimulus resource the items depend on" \
	is pp30/imsmanifest.xml "concat(//$(e resource)[@identifier='stimulus-lighthouse-en']/@type, ' ', count(//$(e dependency)[@identifierref='stimulus-lighthouse-en']))" 'imsqti_stimulus_xmlv3p0 2'

finish
