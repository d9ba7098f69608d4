# tests/import/moodle_forms.sh - sourced by run.sh: the forms real GIFT and
# Moodle XML files hold, read as Moodle's own importers read them
# (question/format/gift/format.php, question/format/xml/format.php).  Each
# case says in one comment what Moodle does.  These files are written here.
cd "$T" || exit 2

# ---------------------------------------------------- GIFT comment lines
# Moodle: readquestions() ends a question only at a blank line; readquestion()
# blanks each '//' line of it, so a comment inside a question splits nothing.
cat >comments.gift <<'EOF'
// question: 1  name: Boiling
::Boiling::
// the text follows
[markdown]What temperature does water boil at? *Give the value at sea level.*
// the answers follow
{
=100 °C#Right.
// a wrong one
~90 °C
~80 °C
####At sea level.}

::Two::Second question.{T####Yes.}
EOF
run "$QBC" import -o comments.qb comments.gift
check "gift comments: two questions, none skipped" out_has "comments.gift (gift) -> comments.qb: 2 questions (1 single, 1 true-false)"
dump comments.qb
check "gift comments: the title is the id, the text and its instructions kept" \
	js comments.qb.json "d['questions'][0]['id'] == 'boiling' and d['questions'][0]['prompt']['en'] == 'What temperature does water boil at? *Give the value at sea level.*'"
check "gift comments: every answer of the question kept" \
	js comments.qb.json "[c['text']['en'] for c in d['questions'][0]['choices']] == ['100 °C', '90 °C', '80 °C'] and d['questions'][0]['choices'][0]['feedback']['en'] == 'Right.'"

# ------------------------------------------------------------ GIFT '~='
# Moodle: a block with '~' is multichoice; it turns each '=' into '~=' and
# splits at '~', so '~=x' is an empty answer (skipped when saved) then '=x',
# the right one.
cat >tildeeq.gift <<'EOF'
::Capital::The capital of Kenya? {~=Nairobi#Yes. ~Mombasa ~Kisumu####Nairobi.}
EOF
run "$QBC" import --lang en -o tildeeq.qb tildeeq.gift
check "gift ~=: imported, one single-choice question" out_has "tildeeq.gift (gift) -> tildeeq.qb: 1 question (1 single)"
dump tildeeq.qb
check "gift ~=: no empty option, '~=' marks the right one" \
	js tildeeq.qb.json "[(c['text']['en'], c['correct']) for c in d['questions'][0]['choices']] == [('Nairobi', True), ('Mombasa', False), ('Kisumu', False)]"

# ----------------------------------------------------- GIFT '->' in a choice
# Moodle: a '~' anywhere makes multichoice; matching needs '=' and '->' and no
# '~', and then every answer must be 'a -> b'.
cat >arrow.gift <<'EOF'
::Arrow::Which is right? {=A -> B is a pair ~B -> A is wrong ~None####Arrows.}

::Pairs::Match. {=Ice -> solid =Steam -> gas####States.}

::Half::Match. {=Ice -> solid =Steam####States.}
EOF
run "$QBC" import -o arrow.qb arrow.gift
check "gift ->: a '->' with a '~' is a choice, a pair without '~' matching, a half-pair an error" \
	err_has "arrow.gift:5:31: error: this answer of a matching question is not a pair 'left -> right'"
sed -i '/^::Half/d' arrow.gift
run "$QBC" import -o arrow.qb arrow.gift
check "gift ->: imported" out_has "arrow.gift (gift) -> arrow.qb: 2 questions (1 single, 1 matching)"
dump arrow.qb
check "gift ->: the options keep their text and key" \
	js arrow.qb.json "d['questions'][0]['type'] == 'single' and [(c['text']['en'], c['correct']) for c in d['questions'][0]['choices']] == [('A -> B is a pair', True), ('B -> A is wrong', False), ('None', False)]"

# ------------------------------------------- Moodle XML <single>, trimming
# Moodle: import_multichoice() reads <single> with 'true' as its default and
# trans_single() trims it ('false', '0' or empty: several answers); numbers
# are trimmed before use.
cat >forms.xml <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<quiz>
<question type="multichoice">
  <name><text>nosingle</text></name>
  <questiontext format="html"><text>Which one?</text></questiontext>
  <generalfeedback format="html"><text>Because.</text></generalfeedback>
  <answer fraction="100"><text>Yes</text></answer>
  <answer fraction="0"><text>No</text></answer>
</question>
<question type="multichoice">
  <name><text>spaced</text></name>
  <questiontext format="html"><text>Which ones?</text></questiontext>
  <generalfeedback format="html"><text>Because.</text></generalfeedback>
  <single><![CDATA[ false
 ]]></single>
  <answer fraction="50"><text>A</text></answer>
  <answer fraction="50"><text>B</text></answer>
  <answer fraction="0"><text>C</text></answer>
</question>
<question type="numerical">
  <name><text>num</text></name>
  <questiontext format="html"><text>How many?</text></questiontext>
  <generalfeedback format="html"><text>Because.</text></generalfeedback>
  <defaultgrade><![CDATA[ 1.0000000
  ]]></defaultgrade>
  <answer fraction=" 100 "><text><![CDATA[ 42
 ]]></text><tolerance><![CDATA[
   0.5 ]]></tolerance></answer>
</question>
</quiz>
EOF
run "$QBC" import -o forms.qb forms.xml
check "moodle xml: imported" out_has "forms.xml (moodlexml) -> forms.qb: 3 questions (1 single, 1 multiple, 1 numeric)"
dump forms.qb
check "moodle xml: multichoice without <single> is single" js forms.qb.json "d['questions'][0]['type'] == 'single'"
check "moodle xml: '<single> false </single>' is multiple" js forms.qb.json "d['questions'][1]['type'] == 'multiple'"
check "moodle xml: a number and tolerance in CDATA with spaces and newlines" \
	js forms.qb.json "d['questions'][2]['answer']['value'] == 42 and d['questions'][2]['answer']['tolerance'] == 0.5"

# ------------------------------------ numeric answers with partial credit
# Moodle (GIFT): after '#', what follows the first '~' is the feedback of the
# answer '*' (0%: any other number); the rest split at '=' are answers, each
# '%credit%' (100 when absent), 'value:tol' or 'lo..hi', '#feedback'.
cat >num.gift <<'EOF'
::Wrong::How many legs has a spider? {#8:0~#Completely wrong####Eight.}

::Range::Pick the number. {#=%50%2..4 =3####Three.}

::Tol::How much? {#=3:0.1 =%50%3:1#Close.####Three.}
EOF
run "$QBC" import -o num.qb num.gift
check "gift numeric: three numeric questions, nothing lost" \
	sh -c 'grep -qF "num.gift (gift) -> num.qb: 3 questions (3 numeric)" "$1" && ! grep -q "not carried" "$1"' - "$T/out"
run "$QBC" check num.qb
check "gift numeric: the bank passes qbc check" rc 0
dump num.qb
check "gift numeric: '~#feedback' is the feedback for any other number" \
	js num.qb.json "d['questions'][0]['answer']['value'] == 8 and d['questions'][0]['feedback_wrong']['en'] == 'Completely wrong' and 'more_answers' not in d['questions'][0]"
check "gift numeric: the full-mark answer is qbc's answer, '%50%2..4' a further one" \
	js num.qb.json "d['questions'][1]['answer']['value'] == 3 and [(m['min'], m['max'], m['credit']) for m in d['questions'][1]['more_answers']] == [(2, 4, 50)]"
check "gift numeric: '=%50%3:1#Close.' with its feedback" \
	js num.qb.json "d['questions'][2]['answer']['tolerance'] == 0.1 and [(m['value'], m['tolerance'], m['credit'], m['feedback']['en']) for m in d['questions'][2]['more_answers']] == [(3, 1, 50, 'Close.')]"
check "gift numeric: written as further 'answer:' lines" grep -qx "   answer: 2\.\.4 = 50%" num.qb

# Moodle (XML): every <answer> of a numerical question is a value, tolerance
# and fraction with its feedback; '*' is any other number.
cat >num.xml <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<quiz>
<question type="numerical">
  <name><text>boil</text></name>
  <questiontext format="html"><text>At what temperature (°C) does water boil?</text></questiontext>
  <generalfeedback format="html"><text>At sea level.</text></generalfeedback>
  <answer fraction="50"><text> 95 </text><tolerance>5</tolerance><feedback format="html"><text>Close: up a mountain.</text></feedback></answer>
  <answer fraction="100"><text>100</text><tolerance>1</tolerance><feedback format="html"><text></text></feedback></answer>
  <answer fraction="0"><text>0</text><tolerance>0</tolerance><feedback format="html"><text>That is freezing.</text></feedback></answer>
  <answer fraction="0"><text>*</text><feedback format="html"><text>No.</text></feedback></answer>
</question>
</quiz>
EOF
run "$QBC" import -o numx.qb num.xml
check "moodle xml numerical: imported, nothing lost" \
	sh -c 'grep -qF "num.xml (moodlexml) -> numx.qb: 1 question (1 numeric)" "$1" && ! grep -q "not carried" "$1"' - "$T/out"
dump numx.qb
check "moodle xml numerical: the 100% answer, the others with their fraction and feedback" \
	js numx.qb.json "d['questions'][0]['answer']['value'] == 100 and [(m['value'], m['credit'], m['feedback']['en']) for m in d['questions'][0]['more_answers']] == [(95, 50, 'Close: up a mountain.'), (0, 0, 'That is freezing.')] and d['questions'][0]['feedback_wrong']['en'] == 'No.'"

# ---------------------------------- the .qb syntax of further answers
cat >more.qb <<'EOF'
bank: more
languages: en sw
title:
  en: More
  sw: Zaidi

1. boil
   type: numeric
   answer: 100 ± 1
   en: At what temperature (°C) does water boil at sea level?
   sw: Maji huchemka kwa joto gani (°C)?
   answer: 90..99 = 50%
     > en: Close: that is up a mountain.
       sw: Karibu: hiyo ni mlimani.
   answer: 0 = 0%
   explanation:
     en: At sea level water boils at 100 °C.
     sw: Maji huchemka kwa 100 °C.
EOF
run "$QBC" check more.qb
check "qb further answers: the bank passes qbc check" rc 0
dump more.qb
check "qb further answers: read with their credit and feedback" \
	js more.qb.json "[(m['min'], m['max'], m['credit'], m.get('feedback')) for m in d['questions'][0]['more_answers']] == [(90, 99, 50, {'en': 'Close: that is up a mountain.', 'sw': 'Karibu: hiyo ni mlimani.'}), (0, 0, 0, None)]"
sed -e 's/= 50%/= 150%/' more.qb >bad.qb
run "$QBC" check bad.qb
check "qb further answers: a credit above 100% is a located error" \
	err_has "bad.qb:12:21: error: the credit of a further answer is a percentage from 0% to 100%"
sed -e 's/type: numeric/type: true-false/' -e 's/^   answer: 100 ± 1$/   answer: true/' more.qb >bad.qb
run "$QBC" check bad.qb
check "qb further answers: only a numeric question has them" \
	err_has "bad.qb:12:4: error: only a numeric question has further answers with a credit"
