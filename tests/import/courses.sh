# tests/import/courses.sh - sourced by run.sh: what real courses exported
# from Moodle hold (issue 36), carried exactly or named in a warning with
# its place.  Runs in its own folder under run.sh's $T.
mkdir -p "$T/courses" && cd "$T/courses" || exit 2
# moodle_html XML QUESTION-NUMBER LANG: the HTML of the question text
# that `qbc build --format moodlexml` writes for the bank, on stdout.
moodle_html() {
	python3 -c "
import sys, xml.etree.ElementTree as ET
qs = [q for q in ET.parse(sys.argv[1]).getroot() if q.get('type') != 'category']
print(qs[int(sys.argv[2])].find('questiontext/text').text)" "$1" "$2"
}

# ------------------------------------------- visible corruption (HTML)
cat >corrupt.xml <<'EOF2'
<?xml version="1.0" encoding="UTF-8"?>
<quiz>
<question type="truefalse"><name><text>Mass</text></name>
<questiontext format="html"><text><![CDATA[<p>The table:</p><table><tr><th>thing</th><th>mass</th></tr><tr><td>bag</td><td>1 kg<br></td></tr></table><p>Sum \( a
+ b \) and $$c
+ d$$ done.<br></p>]]></text></questiontext>
<generalfeedback><text><![CDATA[Heavy.<br>]]></text></generalfeedback><answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>
</quiz>
EOF2
run "$QBC" import -o corrupt/corrupt.qb corrupt.xml
check "corruption: imported" rc 0
run "$QBC" build --format moodlexml -o corrupt/out corrupt/corrupt.qb
check "corruption: the imported bank builds" rc 0
moodle_html corrupt/out/corrupt.moodle.xml 0 >corrupt.html
check "corruption: a cell ending in <br> shows its text, no '\\'" grep -qF '<td>1 kg</td>' corrupt.html
check "corruption: no '\\' after a cell's or a paragraph's last word" python3 -c "import sys; t = open(sys.argv[1]).read(); sys.exit('kg\\\\' in t or 'done.\\\\' in t)" corrupt.html
check "corruption: TeX over lines stays one formula in its paragraph" \
	grep -qF '<p>Sum \(a + b\) and \[c + d\] done.</p>' corrupt.html
check "corruption: no '+' line made a list" sh -c "! grep -q '<li>' corrupt.html"
check "corruption: no warning about a '\\' or a '\$'" sh -c "! grep -q 'nothing to continue\\|opens or closes no formula' '$T/err'"
cd "$T" || exit 2

# ------------------------------------------------ leftovers: contexts, ids
mkdir -p "$T/courses" && cd "$T/courses" || exit 2
cat >left.xml <<'EOF2'
<?xml version="1.0" encoding="UTF-8"?>
<quiz>
<question type="category"><category><text>$system$::Optique</text></category></question>
<question type="truefalse"><name><text>Lumière</text></name>
<questiontext><text>La lumière va vite.</text></questiontext><generalfeedback><text>Oui.</text></generalfeedback>
<answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer>
<tags><tag><text>$course$::Physique</text></tag><tag><text>$module$/Ondes</text></tag></tags></question>
</quiz>
EOF2
printf '$CATEGORY: $course$::Chaleur\n\n::Été:: Il fait chaud en été. {T#Oui.####Chaud.}\n' >left.gift
run "$QBC" import -o left/left.qb left.xml
check "leftovers: imported" rc 0
dump left/left.qb
check "leftovers: Moodle's context prefixes stripped from tags and categories" \
	js left/left.qb.json "d['questions'][0]['tags'] == ['Optique', 'Physique', 'Ondes']"
check "leftovers: an accented name's id in ASCII (lumiere, not lumi-re)" \
	js left/left.qb.json "d['questions'][0]['id'] == 'lumiere'"
run "$QBC" import -o left/gift.qb left.gift
dump left/gift.qb
check "leftovers: GIFT: the category without \$course\$, the id transliterated" \
	js left/gift.qb.json "d['questions'][0]['tags'] == ['Chaleur'] and d['questions'][0]['id'] == 'ete'"
run "$QBC" import --split -o left/split/phys.qb left.xml
check "leftovers: --split names the bank from the category without its context" test -f left/split/phys-optique.qb
cd "$T" || exit 2

# ------------------------------------------- --split: one file per category
mkdir -p "$T/courses" && cd "$T/courses" || exit 2
# three categories whose names share their first 50 characters, and two
# that differ only in case and punctuation: five banks, none overwritten
P='$course$/top/Chapter one: numbers and the operations on them, part'
{
	echo '<?xml version="1.0" encoding="UTF-8"?><quiz>'
	n=0
	for cat in "$P A" "$P B" "$P C" '$course$/top/Heat &amp; light' '$course$/top/heat light'; do
		printf '<question type="category"><category><text>%s</text></category></question>\n' "$cat"
		for k in 1 2; do
			n=$((n + 1))
			printf '<question type="truefalse"><name><text>Q%s</text></name><questiontext><text>Statement %s.</text></questiontext><generalfeedback><text>Because.</text></generalfeedback><answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>\n' "$n" "$n"
		done
	done
	echo '</quiz>'
} >prefix.xml
run "$QBC" import --split -o sp/course.qb prefix.xml
check "--split prefixes: exit 0" rc 0
check "--split prefixes: five files for five categories" test "$(ls sp/*.qb | wc -l)" = 5
check "--split prefixes: every question is on disk" \
	test "$(cat sp/*.qb | grep -c '^[0-9]*\. q[0-9]*$')" = 10
check "--split prefixes: no two categories named one file" \
	sh -c "grep -o \"^qbc import: [^:]*\" '$T/out' | sort | uniq -d | grep -q . && exit 1 || exit 0"
# the report's counts are the questions in the files written
ondisk() {
	python3 - "$T/out" sp/*.qb <<'EOF2'
import re, sys
out = open(sys.argv[1]).read()
disk = sum(len(re.findall(r"^[0-9]+\. ", open(f).read(), re.M)) for f in sys.argv[2:])
per = sum(int(n) for n in re.findall(r"^qbc import: \S+\.qb: ([0-9]+) questions? of", out, re.M))
total = int(re.search(r"-> a bank per category: ([0-9]+) question", out).group(1))
sys.exit(0 if per == disk == total else 1)
EOF2
}
check "--split prefixes: the summary counts the questions on disk" ondisk
check "--split prefixes: each bank passes qbc check" "$QBC" check sp/*.qb
cd "$T" || exit 2

# ------------------------------------------------ exit status, last line
mkdir -p "$T/courses" && cd "$T/courses" || exit 2
last_is() { test "$(tail -n 1 "$T/out")" = "$1"; }
run "$QBC" import --split -o sp2/course.qb prefix.xml
check "last line: banks and questions written" last_is "qbc import: wrote 5 banks (10 questions)"
cat >warn.xml <<'EOF2'
<?xml version="1.0" encoding="UTF-8"?>
<quiz><question type="essay"><name><text>Essay</text></name><questiontext><text>Write.</text></questiontext></question>
<question type="truefalse"><name><text>T</text></name><questiontext><text>True.</text></questiontext><generalfeedback><text>Yes.</text></generalfeedback><answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question></quiz>
EOF2
run "$QBC" import -o w/warn.qb warn.xml
check "last line: written with warnings, exit 0" rc 0
check "last line: says the warnings" last_is "qbc import: wrote 1 bank (1 question) with 1 warning"
printf '<?xml version="1.0"?>\n<quiz><question type="truefalse">\n' >bad.xml
run "$QBC" import -o b/bad.qb bad.xml
check "last line: nothing written, exit 1" rc 1
check "last line: says nothing was written" last_is "qbc import: nothing written: 1 error"
check "last line: no file" test ! -e b/bad.qb
cd "$T" || exit 2

# ------------------------- qbc check: links and pictures no package holds
mkdir -p "$T/courses/pf" && cd "$T/courses/pf" || exit 2
cat >pf.qb <<'EOF2'
bank: pf
languages: en
title:
  en: Files

1. q
   type: true-false
   answer: true
   en: Listen [bonjour](@@PLUGINFILE@@/bonjour.mp3), ![a dot](@@PLUGINFILE@@/dot.png), [the notes](media/notes.pdf).
   explanation:
     en: Because.
EOF2
run "$QBC" check pf.qb
check "check: exit 1" rc 1
check "check: a link into Moodle's file store, located" \
	err_has "pf.qb:9:25: error: link '@@PLUGINFILE@@/bonjour.mp3' leads into Moodle's file store"
check "check: a picture in Moodle's file store, located" \
	err_has "pf.qb:9:63: error: '@@PLUGINFILE@@/dot.png' is in Moodle's file store"
check "check: a link to a file missing from media/, located" \
	err_has "pf.qb:9:100: warning: link 'media/notes.pdf': no such file"
mkdir -p media && echo notes >media/notes.pdf
run "$QBC" check pf.qb
check "check: a link to a file that is there is fine" sh -c "! grep -q \"link 'media/notes.pdf'\" '$T/err'"
cd "$T" || exit 2

# ---------------------------- sounds, old pictures, data: URLs, the store
mkdir -p "$T/courses" && cd "$T/courses" || exit 2
MP3=$(printf 'ID3, a sound' | base64)
DOT=$(base64 -w0 "$T/dot.png")
cat >media.xml <<EOF2
<?xml version="1.0" encoding="UTF-8"?>
<quiz>
<question type="truefalse"><name><text>Bonjour</text></name>
<questiontext format="html"><text><![CDATA[<p>Listen: <a href="@@PLUGINFILE@@/bonjour.mp3">bonjour</a>. Inline: <img src="data:image/png;base64,$DOT" alt="inline dot">.</p>]]></text><file name="bonjour.mp3" path="/" encoding="base64">$MP3</file></questiontext>
<image>old dot.png</image>
<image_base64>$DOT</image_base64>
<generalfeedback><text>Yes.</text></generalfeedback><answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>
<question type="truefalse"><name><text>Missing</text></name>
<questiontext format="html"><text><![CDATA[<p>Hear <a href="@@PLUGINFILE@@/gone.mp3">this</a> and see <img src="@@PLUGINFILE@@/gone.png" alt="gone">.</p>]]></text></questiontext>
<image>never.png</image>
<generalfeedback><text>Yes.</text></generalfeedback><answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>
</quiz>
EOF2
run "$QBC" import -o media/m.qb media.xml
check "media: imported, exit 0" rc 0
check "media: a linked @@PLUGINFILE@@ sound is a qbc sound" grep -qF '![bonjour](media/bonjour-' media/m.qb
check "media: the sound's bytes in media/" sh -c "test \"\$(cat media/media/bonjour-*.mp3)\" = 'ID3, a sound'"
check "media: a data: picture extracted into media/" \
	sh -c "grep -qF '![inline dot](media/picture-' media/m.qb && cmp -s '$T/dot.png' \"\$(ls media/media/picture-*.png)\""
check "media: Moodle 1.x's <image>/<image_base64> picture in the prompt" \
	sh -c "grep -qF '![](media/old-dot-' media/m.qb && cmp -s '$T/dot.png' \"\$(ls media/media/old-dot-*.png)\""
check "media: no @@PLUGINFILE@@ or data: left in the bank" sh -c "! grep -q '@@PLUGINFILE@@\\|data:' media/m.qb"
check "media: a linked file not in the XML: located warning" \
	err_has "media.xml:9:1: warning: the file 'gone.mp3' is in Moodle's file store (@@PLUGINFILE@@) but not in this Moodle XML file: not carried"
check "media: the picture not in the XML too, folded with the sound (same line)" \
	err_has "but not in this Moodle XML file: not carried (and 1 more like it on the same line)"
check "media: an <image> without its bytes: located warning" \
	err_has "media.xml:10:1: warning: the picture 'never.png' is not in this Moodle XML file"
check "media: the missing files' texts kept" grep -qF 'en: Hear this and see gone.' media/m.qb
run "$QBC" check media/m.qb
check "media: the imported bank passes qbc check" rc 0
printf '[html]Hear <a href="@@PLUGINFILE@@/x.mp3">this</a> <img src="@@PLUGINFILE@@/y.png" alt="y">, see <img src="data:image/png;base64,%s" alt="dot">. {T#Yes.####Because.}\n' "$DOT" >store.gift
run "$QBC" import -o gift/store.qb store.gift
check "media: GIFT's @@PLUGINFILE@@ files: one located warning" \
	err_has "store.gift:1:7: warning: the file '@@PLUGINFILE@@/x.mp3' is in Moodle's file store (@@PLUGINFILE@@), which a GIFT file does not hold: not carried (and 1 more like it on the same line)"
check "media: GIFT: no @@PLUGINFILE@@ in the bank" sh -c "! grep -q '@@PLUGINFILE@@' gift/store.qb"
check "media: GIFT: a data: picture into media/" \
	sh -c "grep -qF '![dot](media/picture-' gift/store.qb && cmp -s '$T/dot.png' \"\$(ls gift/media/picture-*.png)\""
# a picture on the web (a real exam's Cisco icons): no offline package can
# show it, so it stays a link to it, named once, and the bank checks
printf '[html]Which device is this? <img width="200" src="http://example.org/switch.jpg"/> And this? <img src="https://example.org/router.jpg" alt="a router"/> {=A switch ~A hub####It has many ports.}\n' >web.gift
run "$QBC" import --lang en -o gift/web.qb web.gift
check "media: a web picture kept as a link to it" \
	sh -c "grep -qF '[http://example.org/switch.jpg](http://example.org/switch.jpg)' gift/web.qb && grep -qF '[a router](https://example.org/router.jpg)' gift/web.qb"
check "media: a web picture named once, located" \
	err_has "web.gift:1:7: warning: not carried: a picture or sound on the web (http: or https:), which no package shows offline (kept as a link to it; save the file in media/ and show it with ![...](media/...))"
run "$QBC" check gift/web.qb
check "media: a bank with web pictures made links passes qbc check" rc 0
cd "$T" || exit 2

# ------------------------------------- noise: one warning per kind, folded
mkdir -p "$T/courses" && cd "$T/courses" || exit 2
{
	echo '<?xml version="1.0" encoding="UTF-8"?>'
	echo '<quiz>'
	for n in 1 2 3 4 5; do
		printf '<question type="essay"><name><text>Essay %s</text></name><questiontext><text>Write %s.</text></questiontext></question>\n' "$n" "$n"
		printf '<question type="truefalse"><name><text>T%s</text></name><questiontext format="html"><text><![CDATA[<p>It is <u>true</u> %s.<br></p>]]></text></questiontext><generalfeedback><text><![CDATA[Yes.<br>]]></text></generalfeedback><answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>\n' "$n" "$n"
	done
	echo '</quiz>'
} >noise.xml
run "$QBC" import -o noise/noise.qb noise.xml
check "noise: imported, exit 0" rc 0
check "noise: one warning for the five skipped questions, with the others' lines" \
	err_has "noise.xml:3:1: warning: question 'Essay 1' is not imported: qbc has no question type like Moodle's 'essay' (and 4 more like it: lines 5, 7, 9, 11)"
check "noise: one warning for the five underlinings" \
	err_has "noise.xml:4:56: warning: not carried: underlining (the text is kept, not underlined) (and 4 more like it: lines 6, 8, 10, 12)"
check "noise: two warnings in all (none for the trailing <br>s)" test "$(grep -c ': warning: ' "$T/err")" = 2
# texts a .qb cannot hold as they are (an indented line): one read-back
# warning for the three questions
{
	echo '<?xml version="1.0" encoding="UTF-8"?><quiz>'
	for n in 1 2 3; do
		printf '<question type="truefalse"><name><text>R%s</text></name><questiontext format="markdown"><text>Line %s\n\n    indented code %s</text></questiontext><generalfeedback><text>Yes.</text></generalfeedback><answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question>\n' "$n" "$n" "$n"
	done
	echo '</quiz>'
} >readback.xml
run "$QBC" import -o noise/readback.qb readback.xml
check "noise: one read-back warning for three questions" \
	err_has "readback.xml:2:1: warning: question 'r1' reads back from 'noise/readback.qb' differently from what was imported (a .qb text cannot hold a line break inside a paragraph or an indented line): check its texts (and 2 more like it: lines 5, 8)"
check "noise: the read-back warning once" test "$(grep -c ': warning: ' "$T/err")" = 1
cd "$T" || exit 2
