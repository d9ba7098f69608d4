# tests/import/calculated.sh - sourced by run.sh: Moodle's calculated,
# calculatedsimple and calculatedmulti questions as Moodle's own export
# writes them (question/format/xml/format.php), imported as parameterised
# questions: the datasets' items the pool, Moodle's formulas qbc's.
# Each case says in one comment what Moodle does.  Files written here.
cd "$T" || exit 2

# dataset NAME DECIMALS V1 V2 ...: a private dataset, items numbered 1..N
dataset() {
	n=$1 d=$2
	shift 2
	printf '<dataset_definition><status><text>private</text></status><name><text>%s</text></name><type>calculated</type><distribution><text>uniform</text></distribution><minimum><text>1</text></minimum><maximum><text>10</text></maximum><decimals><text>%s</text></decimals><itemcount>%s</itemcount><dataset_items>' "$n" "$d" "$#"
	i=1
	for v in "$@"; do
		printf '<dataset_item><number>%s</number><value>%s</value></dataset_item>' "$i" "$v"
		i=$((i + 1))
	done
	printf '</dataset_items><number_of_items>%s</number_of_items></dataset_definition>\n' "$#"
}
# answer FRACTION TEXT TOL TYPE FORMAT LENGTH [FEEDBACK]
answer() {
	printf '<answer fraction="%s"><text>%s</text><tolerance>%s</tolerance><tolerancetype>%s</tolerancetype><correctanswerformat>%s</correctanswerformat><correctanswerlength>%s</correctanswerlength><feedback format="html"><text>%s</text></feedback></answer>\n' "$@"
}

# ------------------------------------------------- calculated, Moodle's forms
# Moodle: a wildcard is {name} with letters, digits, '_', '-' and spaces
# after a letter; a formula is PHP's (pow, **, pi(), log10 ...); the item
# number picks one value of every dataset; a text's {=formula} is shown
# unrounded, an answer's feedback's with its correctanswerlength;
# tolerancetype 1 is relative, 2 nominal, 3 geometric.
{
	echo '<?xml version="1.0" encoding="UTF-8"?><quiz>'
	echo '<question type="calculated"><name><text>Energy</text></name>'
	echo '<questiontext format="html"><text><![CDATA[<p>A mass of {mass-1} kg at {v} m/s, g = {g}: the energy? (half of it: {=round({mass-1}*pow({v},2)/4,1)}; about {={v}**2}; not a wildcard: {w} {=}.)</p>]]></text></questiontext>'
	echo '<generalfeedback format="html"><text><![CDATA[E = {=round({mass-1} * pow({v}, 2) / 2, 3)} J, {=round({mass-1}*{v}**2/2,3)}, pi {=pi()}, log {=log10(100)}]]></text></generalfeedback>'
	echo '<defaultgrade>1</defaultgrade><penalty>0</penalty><hidden>0</hidden><idnumber>energy</idnumber><synchronize>0</synchronize><single>0</single><answernumbering>abc</answernumbering><shuffleanswers>0</shuffleanswers>'
	answer 100 '{mass-1} * pow({v}, 2) / 2' 0.05 1 1 3 'It is {={mass-1}*{v}**2/2} J.'
	answer 0 '*' 0 2 1 0 'Use E = m v^2 / 2.'
	echo '<unitgradingtype>0</unitgradingtype><unitpenalty>0.1</unitpenalty><showunits>0</showunits><unitsleft>0</unitsleft><units><unit><multiplier>1</multiplier><unit_name>J</unit_name></unit></units>'
	echo '<dataset_definitions>'
	dataset 'mass-1' 1 2.5 1.0 3.5
	dataset v 0 4 6 8
	dataset g 2 9.81 9.81 9.81
	echo '</dataset_definitions></question>'
	echo '<question type="calculated"><name><text>Geometric</text></name>'
	echo '<questiontext format="html"><text>Twice {x}?</text></questiontext><generalfeedback format="html"><text></text></generalfeedback>'
	echo '<defaultgrade>1</defaultgrade><penalty>0</penalty><hidden>0</hidden><idnumber>geometric</idnumber><synchronize>0</synchronize>'
	answer 100 '2*{x}' 0.1 3 2 3
	echo '<dataset_definitions>'
	dataset x 0 1 2
	echo '</dataset_definitions></question>'
	echo '<question type="calculated"><name><text>Floor</text></name>'
	echo '<questiontext format="html"><text>Floor of {x}?</text></questiontext><generalfeedback format="html"><text></text></generalfeedback>'
	echo '<defaultgrade>1</defaultgrade><penalty>0</penalty><hidden>0</hidden><idnumber>floor</idnumber><synchronize>0</synchronize>'
	answer 100 'floor({x})' 0 2 1 0
	echo '<dataset_definitions>'
	dataset x 1 1.5 2.5
	echo '</dataset_definitions></question>'
	echo '<question type="calculated"><name><text>Missing</text></name>'
	echo '<questiontext format="html"><text>{x} and {y}?</text></questiontext><generalfeedback format="html"><text></text></generalfeedback>'
	echo '<defaultgrade>1</defaultgrade><penalty>0</penalty><hidden>0</hidden><idnumber>missing</idnumber><synchronize>0</synchronize>'
	answer 100 '{x}+{y}' 0 2 1 0
	echo '<dataset_definitions>'
	dataset x 0 1 2
	printf '<dataset_definition><status><text>private</text></status><name><text>y</text></name><type>calculated</type><distribution><text>uniform</text></distribution><minimum><text>1</text></minimum><maximum><text>9</text></maximum><decimals><text>0</text></decimals><itemcount>2</itemcount><dataset_items><dataset_item><number>1</number><value>5</value></dataset_item><dataset_item><number>3</number><value>6</value></dataset_item></dataset_items><number_of_items>2</number_of_items></dataset_definition>\n'
	echo '</dataset_definitions></question>'
	echo '<question type="calculatedmulti"><name><text>Area</text></name>'
	echo '<questiontext format="html"><text>A rectangle of {a} by {b}: its area?</text></questiontext><generalfeedback format="html"><text>It is {={a}*{b}}.</text></generalfeedback>'
	echo '<defaultgrade>1</defaultgrade><penalty>0</penalty><hidden>0</hidden><idnumber>area</idnumber><synchronize>0</synchronize><single>1</single><shuffleanswers>1</shuffleanswers><answernumbering>abc</answernumbering>'
	echo '<correctfeedback format="html"><text>Right.</text></correctfeedback><partiallycorrectfeedback format="html"><text>Partly.</text></partiallycorrectfeedback><incorrectfeedback format="html"><text>Wrong.</text></incorrectfeedback>'
	echo '<answer fraction="100" format="html"><text>{={a}*{b}} m²</text><tolerance>0.01</tolerance><tolerancetype>1</tolerancetype><correctanswerformat>1</correctanswerformat><correctanswerlength>1</correctanswerlength><feedback format="html"><text></text></feedback></answer>'
	echo '<answer fraction="0" format="html"><text>{=2*({a}+{b})} m²</text><tolerance>0.01</tolerance><tolerancetype>1</tolerancetype><correctanswerformat>1</correctanswerformat><correctanswerlength>1</correctanswerlength><feedback format="html"><text>The perimeter.</text></feedback></answer>'
	echo '<dataset_definitions>'
	dataset a 1 2.5 3.0
	dataset b 0 4 7
	echo '</dataset_definitions></question>'
	echo '</quiz>'
} >calc.xml
run "$QBC" import --lang en -o calc.qb calc.xml
check "calculated: imported, the three qbc can read" out_has "calc.xml (moodlexml) -> calc.qb: 3 questions (1 single, 2 numeric)"
check "calculated: a function qbc's formulas lack skips the question, named" \
	err_has "calc.xml:21:1: warning: question 'Floor' is not imported: qbc's formulas (GNU libmatheval's) cannot say Moodle's function 'floor' with 1 argument"
check "calculated: a dataset without an item the others have skips the question" \
	err_has "calc.xml:28:1: warning: question 'Missing' is not imported: its dataset 'y' has no item 2: Moodle has no values to draw"
check "calculated: a geometric tolerance is carried as a relative one, said" \
	err_has "warning: Moodle's geometric tolerance is carried as a relative one"
check "calculated: significant figures are carried as decimals, said" \
	err_has "warning: the answer is shown with 3 significant figures in Moodle; qbc shows it with 3 decimals"
dump calc.qb
check "calculated: the datasets are the pool, item k of each dataset draw k (a wildcard's '-' made '_')" \
	js calc.qb.json "[(p['mass_1'], p['v'], p['g']) for p in d['questions'][0]['params']['pool']] == [(2.5, 4, 9.81), (1.0, 6, 9.81), (3.5, 8, 9.81)]"
check "calculated: Moodle's formula (pow, **) gives each draw's answer, its relative tolerance a percentage" \
	js calc.qb.json "[p['answer'] for p in d['questions'][0]['params']['pool']] == [20.0, 18.0, 112.0] and d['questions'][0]['params']['answer']['tolerance'] == 5 and d['questions'][0]['params']['answer']['percent'] and d['questions'][0]['params']['answer']['decimals'] == 3"
check "calculated: '± 5% decimals 3' written, read back as a percentage" grep -qF 'answer: mass_1*((v)^(2))/2 ± 5% decimals 3' calc.qb
check "calculated: the wildcards and formulas of the texts are qbc's placeholders; round(F,1) a variable of 1 decimal; other braces text" \
	js calc.qb.json "d['questions'][0]['prompt']['en'] == 'A mass of {mass_1} kg at {v} m/s, g = {g}: the energy? (half of it: {r1}; about {=v^2}; not a wildcard: \\\\{w} \\\\{=}.)'"
check "calculated: ... r1 = mass_1*((v)^(2))/4 decimals 1, its values" \
	js calc.qb.json "[p['r1'] for p in d['questions'][0]['params']['pool']] == [10.0, 9.0, 56.0] and 'r1 = mass_1*((v)^(2))/4 decimals 1' in open('calc.qb').read()"
check "calculated: the explanation's round(answer, its length) is {answer}, another round() a variable; pi(), log10 qbc's" \
	js calc.qb.json "d['questions'][0]['explanation']['en'] == 'E = {answer} J, {r2}, pi {=pi}, log {=(log(100)/log(10))}'"
check "calculated: the '*' answer's feedback is the feedback for a wrong answer; the unit kept" \
	js calc.qb.json "d['questions'][0]['feedback_wrong']['en'] == 'Use E = m v^2 / 2.' and d['questions'][0]['unit'] == 'J'"
check "calculatedmulti: a single question, its options' formulas variables shown with their correctanswerlength" \
	js calc.qb.json "d['questions'][2]['type'] == 'single' and [c['text']['en'] for c in d['questions'][2]['choices']] == ['{r1} m²', '{r2} m²'] and [c['correct'] for c in d['questions'][2]['choices']] == [True, False]"
check "calculatedmulti: ... their values in every draw" \
	js calc.qb.json "[(p['r1'], p['r2']) for p in d['questions'][2]['params']['pool']] == [(10.0, 13.0), (21.0, 20.0)] and 'r1 = a*b decimals 1' in open('calc.qb').read()"
check "calculated: the bank passes qbc check and builds" sh -c "'$QBC' check calc.qb >/dev/null 2>&1 && '$QBC' build -o calc-out --format all calc.qb >/dev/null 2>&1"
# A file cut short after its calculated questions (the fuzzer's find): the
# XML error is reported, and the questions read before it leave nothing
# behind (under the sanitizer build: no leak).
head -c "$(($(wc -c <calc.xml) - 40))" calc.xml >cut.xml
"$QBC" import -o cut.qb cut.xml >/dev/null 2>cut.err
check "calculated: a file cut short is an XML error, and nothing leaks" \
	sh -c "grep -q 'not well-formed XML\|Premature end' cut.err && ! grep -q LeakSanitizer cut.err"
