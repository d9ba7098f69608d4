#!/bin/sh
# tests/html/run.sh - the offline HTML file (--format html) as a file: one
# file and nothing else, no reference to anything outside it (no http(s),
# no relative file: every src, href and url() a data: URL or a fragment),
# every script allowed by its hash in the page's Content-Security-Policy
# and nothing else, pictures, sounds and KaTeX's fonts inlined as the bytes
# of their files, KaTeX only with math, a <script> in a question only as
# escaped text, the size, byte-identical rebuilds, the per-question content
# fingerprints that let a new revision keep unchanged answers, --lang, the
# player's rules, and failed builds that leave the earlier file.  What the
# file does in a browser (offline, phone, progress, print) is
# tests/browser/html.test.mjs.
. "$(dirname "$0")/../lib.sh"
HERE="$ROOT/tests/html"
T=$(tmpdir)
W="$T/w"
mkdir "$W"
cp -R "$HERE/quiz.qb" "$HERE/media" "$W/"
cd "$W" || exit 2
F=out/html-quiz.html
# refs FILE: every quoted src= and href= value (in the page, and escaped
# in the data and the scripts) and every url( value, one a line.
refs() {
	grep -oE "(src|href)=\\\\?[\"'][^\"'\\\\]*|url\\([^)]*" "$1" |
		sed -E "s/^(src|href)=\\\\?[\"']//; s/^url\\(//; s/^[\"']//"
}
# data FILE: the player's data (window.QB_DATA) as JSON, on stdout.
data() {
	python3 - "$1" <<'EOP'
import json, re, sys
t = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"window\.QB_DATA = (.*?);\n</script>", t, re.S)
print(json.dumps(json.loads(m.group(1))))
EOP
}
# fps FILE: "id fp" per question.
fps() { data "$1" | python3 -c "import json,sys; [print(q['id'], q['fp']) for q in json.load(sys.stdin)['questions']]"; }

check "build --help lists html" sh -c "$QBC build --help | grep -q '^  .. *html .*<bank-id>.html'"

run $QBC build --format html -o out quiz.qb
check "build exits 0" rc 0
check "one file, and nothing else" test "$(ls -A out)" = "html-quiz.html"
check "an HTML page" sh -c "head -c 15 $F | grep -q '<!DOCTYPE html>'"
check "no <link> and no <script src>: everything inline" sh -c "! grep -qiE '<link|<script[^>]* src=' $F"
refs $F >"$T/refs"
check "it names some pictures and fonts (the check below reads them)" test "$(grep -c '^data:' "$T/refs")" -ge 4
check "every src, href and url() is a data: URL or a fragment: no http, no file beside it" \
	sh -c "! grep -vE '^(data:|#|$)' '$T/refs'"
check "no http(s) URL in any attribute or style" sh -c "! grep -qiE '(src|href)=.?.?https?:|url\\(.?https?:' $F"

# The picture and the sound: their files' bytes, base64.
check "the picture is its file, as a data: URL" \
	grep -qF "data:image/png;base64,$(base64 -w0 media/diagram.png)" $F
check "the sound is its file, as a data: URL" \
	grep -qF "data:audio/ogg;base64,$(base64 -w0 media/clip.ogg)" $F
K=${QBC_KATEX:-/usr/share/javascript/katex}
font=$(ls "$K/fonts/" | grep 'Main-Regular.woff2$')
check "with math: KaTeX's script inline" grep -qF "katex" $F
check "with math: KaTeX's fonts are their WOFF2 files, as data: URLs" \
	grep -qF "url(data:font/woff2;base64,$(base64 -w0 "$K/fonts/$font"))" $F
check "with math: no WOFF or TrueType alternative left" sh -c "! grep -qE \"format\\('(woff|truetype)'\\)\" $F"
# Another KaTeX whose style sheet quotes its URLs: the same.
mkdir -p "$T/kq/fonts" && cp "$K/katex.min.js" "$K"/fonts/*.woff2 "$T/kq/" && mv "$T"/kq/*.woff2 "$T/kq/fonts/"
sed "s/url(\([^)]*\))/url('\1')/g" "$K/katex.min.css" >"$T/kq/katex.min.css"
QBC_KATEX="$T/kq" $QBC build --format html -o quoted quiz.qb >/dev/null 2>&1
refs quoted/html-quiz.html >"$T/qrefs"
check "KaTeX with quoted url()s: its fonts inlined too" \
	grep -qF "url(data:font/woff2;base64,$(base64 -w0 "$K/fonts/$font"))" quoted/html-quiz.html
check "KaTeX with quoted url()s: nothing outside the file" sh -c "! grep -vE '^(data:|#|$)' '$T/qrefs'"

# Escaping: the bank's <script> is text in the data, never an element.
check "a <script> in a question is no element" sh -c "! grep -q '<script>alert' $F"
check "... it is in the data, as escaped HTML in escaped JSON" \
	grep -qF 'Q02 Which are even? \u0026lt;script\u0026gt;alert(1)\u0026lt;/script\u0026gt;' $F
check "an accepted answer's </script> is escaped in the data" \
	grep -qF 'vapour\u003c/script\u003e\u003cscript\u003ealert(2)' $F
check "as many </script> as <script>: none ends early" \
	test "$(grep -o '<script>' $F | wc -l)" = "$(grep -o '</script>' $F | wc -l)"
# The policy: no network, and each script by its hash.
python3 - "$F" >"$T/csp" 2>&1 <<'EOP'
import base64, hashlib, re, sys
t = open(sys.argv[1], encoding="utf-8").read()
csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', t).group(1)
scripts = re.findall(r"<script>(.*?)</script>", t, re.S)
want = ["'sha256-%s'" % base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() for s in scripts]
src = re.search(r"script-src ([^;]*)", csp).group(1).split()
assert "default-src 'none'" in csp and "connect-src 'none'" in csp, csp
assert re.search(r"img-src data:;", csp) and re.search(r"font-src data:;", csp), csp
assert sorted(set(src)) == sorted(set(want)), (src, want)
assert len(scripts) >= 5, len(scripts)
print("ok", len(scripts))
EOP
check "the Content-Security-Policy allows no network and exactly the page's scripts, by hash" \
	grep -q '^ok' "$T/csp"
size=$(wc -c <$F)
check "under 2 MiB (it is $size bytes)" test "$size" -lt 2097152

# The data: both languages, the local store's revision, print labels.
data $F >"$T/d.json"
check "the data holds both languages" python3 -c "import json,sys; d=json.load(open('$T/d.json')); sys.exit(d['langs'] != ['en','sw'])"
check "the print screen's labels in both languages" \
	python3 -c "import json,sys; d=json.load(open('$T/d.json')); sys.exit(not all(d['labels'][l]['answerKey'] for l in ('en','sw')))"
check "the local store knows the revision" grep -qF 'window.QB_LOCAL = {"revision": 1, "version": 0};' $F

# Rebuilds are byte-identical.
cp $F "$T/first.html"
run $QBC build --format html -o out quiz.qb
check "a rebuild is byte-identical" cmp -s $F "$T/first.html"

# A new revision: one question changed; only its fingerprint changes.
fps "$T/first.html" >"$T/fp1"
sed -i 's/EXPL05 Half of 85./EXPL05 Half of eighty-five./' quiz.qb
run $QBC build --format html -o out quiz.qb
check "the new revision builds" rc 0
check "the revision number went up" grep -qF 'window.QB_LOCAL = {"revision": 2, "version": 0};' $F
fps $F >"$T/fp2"
check "the changed question's fingerprint changed" \
	test "$(grep '^how-many ' "$T/fp1")" != "$(grep '^how-many ' "$T/fp2")"
check "every other question's fingerprint is the same" \
	sh -c "diff '$T/fp1' '$T/fp2' | grep '^[<>]' | grep -v ' how-many ' | grep -q . && exit 1 || exit 0"
cp media/diagram.png "$T/d.png" && printf 'x' >>media/diagram.png
run $QBC build --format html -o out quiz.qb
fps $F >"$T/fp3"
check "a changed picture changes its question's fingerprint" \
	test "$(grep '^pick-one ' "$T/fp2")" != "$(grep '^pick-one ' "$T/fp3")"
cp "$T/d.png" media/diagram.png

# --seed N: the printed version the print screen opens with.
run $QBC build --format html --seed 7 -o seeded quiz.qb
check "--seed 7 builds" rc 0
check "--seed 7: the print screen opens at version 7" grep -qF '"version": 7};' seeded/html-quiz.html
for bad in -1 x 1000000 ''; do
	run $QBC build --format html --seed "$bad" -o seeded quiz.qb
	check "--seed '$bad': a usage error" rc 2
	check "--seed '$bad': says what a version is" err_has "is not a version number (0 to 999999)"
done

# --lang en: one language; a bank without math: no KaTeX, much smaller.
run $QBC build --format html --lang en -o en quiz.qb
check "--lang en builds" rc 0
check "--lang en: only English in the data" \
	sh -c "python3 - en/html-quiz.html <<'EOP'
import json, re, sys
t = open(sys.argv[1], encoding='utf-8').read()
d = json.loads(re.search(r'window\.QB_DATA = (.*?);\n</script>', t, re.S).group(1))
sys.exit(d['langs'] != ['en'])
EOP"
sed -e 's/\$m = \\frac{85}{2}\$/m/' -e 's/\$m = \\frac{85}{2}\$/m/' -e 's/^bank: html-quiz/bank: html-plain/' quiz.qb >plain.qb
run $QBC build --format html -o out plain.qb
check "a bank without math builds" rc 0
check "without math: no KaTeX" sh -c "! grep -q 'KaTeX_' out/html-plain.html"
check "without math: far smaller" test "$(wc -c <out/html-plain.html)" -lt $((size / 3))

# The player's rules: option letters a..z.
{
	printf 'bank: html-big\nlanguages: en\ntitle:\n  en: Big\n\n1. many\n   en: Pick.\n'
	printf '   explanation:\n     en: The one.\n'
	for i in $(seq 1 27); do echo "   - en: option $i"; done; echo "   * en: the one"
} >big.qb
run $QBC build --format html -o out big.qb
check "27 options: exit 1" rc 1
check "... saying the player's limit" err_has "at most 26"
check "... and no file" test ! -e out/html-big.html

# A failed build leaves the earlier file: KaTeX missing.
cp $F "$T/before.html"
QBC_KATEX=/nonexistent $QBC build --format html -o out quiz.qb >"$T/out" 2>"$T/err"
check "KaTeX missing: exit 3" test $? = 3
check "... saying where it looked" err_has "KaTeX is not at /nonexistent"
check "... the earlier file untouched" cmp -s $F "$T/before.html"
check "... no temporary file left" test "$(ls -A out | grep -vc '^html-')" = 0
finish
