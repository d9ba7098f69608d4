# tests/import/passage.sh - sourced by run.sh: passages (issue 36).  A
# GIFT description (a text without an answer block) and a Moodle XML
# description question become the passage of the questions after them,
# until the next description or category; one that no question follows is
# kept, with a warning; and a bank with passages (one read again after
# another question, a picture in it) comes back whole through qbc's own
# Moodle XML.
mkdir -p "$T/passage"
cd "$T/passage" || exit 2

cat >reading.gift <<'EOG'
// An English department's reading.
::Lighthouse::[markdown]The keeper lived **alone** on the rock for twenty years.

::How long::How long did the keeper live on the rock? {=Twenty years ~Two years####The text says twenty.}

::Alone::The keeper lived alone. {T####He did.}

$CATEGORY: $course$/top/Maths

::Sum::Two plus two? {=Four ~Five####Arithmetic.}

::Orphan::Nobody reads this description.
EOG
run "$QBC" import --lang en -o reading.qb reading.gift
check "gift passage: imported (exit 0)" rc 0
check "gift passage: the description is a passage" grep -qx 'passage: lighthouse' reading.qb
check "gift passage: its text as Markdown" grep -qx '  en: The keeper lived \*\*alone\*\* on the rock for twenty years.' reading.qb
dump reading.qb
check "gift passage: the two questions after it are read with it" \
	js reading.qb.json '[q.get("passage") for q in d["questions"]] == ["lighthouse", "lighthouse", None]'
check "gift passage: a category change ends it" js reading.qb.json 'd["questions"][2]["id"] == "sum"'
check "gift passage: a description no question follows is kept" grep -qx 'passage: orphan' reading.qb
check "gift passage: ... with a located warning" \
	err_has "reading.gift:12:11: warning: no question is read with passage 'orphan'"

mkdir -p split
run "$QBC" import --split --lang en -o split/reading.qb reading.gift
check "gift passage, --split: imported (exit 0)" rc 0
check "gift passage, --split: the passage in its questions' bank" \
	test "$(grep -c '^passage: lighthouse$' split/reading.qb)" = 1
check "gift passage, --split: not in another category's bank" sh -c "! grep -q '^passage:' split/reading-maths.qb"
check "gift passage, --split: one no question follows is kept once" \
	test "$(cat split/*.qb | grep -c '^passage: orphan$')" = 1

cat >reading.moodle.xml <<'EOX'
<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/top/Reading</text></category></question>
  <question type="description">
    <name><text>The lighthouse</text></name>
    <questiontext format="html"><text><![CDATA[<p>The keeper lived <b>alone</b> on the rock.</p>]]></text></questiontext>
    <generalfeedback format="html"><text></text></generalfeedback>
    <defaultgrade>0</defaultgrade><penalty>0</penalty><hidden>0</hidden>
  </question>
  <question type="truefalse">
    <name><text>Alone</text></name>
    <questiontext format="html"><text>The keeper lived alone.</text></questiontext>
    <generalfeedback format="html"><text>He did.</text></generalfeedback>
    <answer fraction="100"><text>true</text><feedback><text></text></feedback></answer>
    <answer fraction="0"><text>false</text><feedback><text></text></feedback></answer>
  </question>
  <question type="category"><category><text>$course$/top/Maths</text></category></question>
  <question type="truefalse">
    <name><text>Sum</text></name>
    <questiontext format="html"><text>Two and two make four.</text></questiontext>
    <generalfeedback format="html"><text>Arithmetic.</text></generalfeedback>
    <answer fraction="100"><text>true</text><feedback><text></text></feedback></answer>
    <answer fraction="0"><text>false</text><feedback><text></text></feedback></answer>
  </question>
</quiz>
EOX
run "$QBC" import --lang en -o mx.qb reading.moodle.xml
check "moodlexml passage: imported (exit 0)" rc 0
check "moodlexml passage: the description is a passage" grep -qx 'passage: the-lighthouse' mx.qb
check "moodlexml passage: its HTML as Markdown" grep -qx '  en: The keeper lived \*\*alone\*\* on the rock.' mx.qb
dump mx.qb
check "moodlexml passage: the question after it is read with it, the next category's is not" \
	js mx.qb.json '[q.get("passage") for q in d["questions"]] == ["the-lighthouse", None]'

mkdir -p media back
printf 'GIF89a\001\000\001\000\000\000\000;' >media/rock.gif
cat >rt.qb <<'EOB'
bank: rt-passage
languages: en sw
title:
  en: Passages
  sw: Vifungu

passage: lighthouse
  en: The keeper lived alone on the rock.\
      ![The rock](media/rock.gif)
  sw: Mlinzi aliishi peke yake kwenye mwamba.\
      ![Mwamba](media/rock.gif)

1. alone
   passage: lighthouse
   type: true-false
   answer: true
   en: The keeper lived alone.
   sw: Mlinzi aliishi peke yake.
   explanation:
     en: He did.
     sw: Ndiyo.

2. sum
   type: true-false
   answer: true
   en: Two and two make four.
   sw: Mbili na mbili ni nne.
   explanation:
     en: Arithmetic.
     sw: Hesabu.

3. where
   passage: lighthouse
   type: true-false
   answer: false
   en: The keeper lived in a town.
   sw: Mlinzi aliishi mjini.
   explanation:
     en: On a rock.
     sw: Kwenye mwamba.
EOB
run "$QBC" build --format moodlexml -o out rt.qb
check "passage round trip: qbc writes the Moodle XML" rc 0
run "$QBC" import --bank rt-passage -o back/rt.qb out/rt-passage.moodle.xml
check "passage round trip: imported" rc 0
run "$QBC" check back/rt.qb
check "passage round trip: the imported bank passes qbc check" rc 0
dump rt.qb
dump back/rt.qb
check "passage round trip: qbc dump --json equals the original's" \
	python3 "$HERE/same_model.py" rt.qb.json back/rt.qb.json moodlexml . back
check "passage round trip: one passage, written once" test "$(grep -c '^passage: ' back/rt.qb)" = 1
cd "$T" || exit 2
