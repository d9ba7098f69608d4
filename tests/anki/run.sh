#!/bin/sh
# tests/anki/run.sh - the Anki package writer (issue #3), checked from the
# outside: the package is opened with libzip and sqlite3 (tests/tools/
# apkgdump.c), Anki's sfld/csum rules are recomputed in Python with Anki's
# own regular expressions, and the re-import rules of
# /work/shared/docs/anki-format.md (stable GUIDs, newer mod, frozen note
# type) are checked across rebuilds and edits.
. "$(dirname "$0")/../lib.sh"
HERE=$ROOT/tests/anki

# The frozen contract of the note type (write_anki.c).  Changing any of
# these makes Anki treat the package as a new note type and stop updating
# learners' notes: do not "fix" this test, ship a new note type instead.
FROZEN_FIELDS="ID,Lang,Question,Options,Explanation,Translation,Extra"
FROZEN_TEMPLATES="Quiz"
FROZEN_NTID=1208677869
FROZEN_NAME="qbc quiz"
# The first note type (qbc-mcq-v1), replaced by the lean one (issue 12).
V1_NTID=1881580147
V1_FIELDS="ID,Lang,Question,Options,Answer,Explanation,Feedback,Translation,Data,Extra"

T=$(tmpdir)
# Banks are built from copies: a build writes its revision record (.lock)
# next to the bank.
mkdir -p "$T/src" "$T/esc"
cp "$HERE/quiz.qb" "$T/src/"
cp -R "$HERE/escape.qb" "$HERE/media" "$T/esc/"
BANK=$T/src/quiz.qb
# The counts follow the bank: its id, its questions, one note per language.
ID=$(sed -n 's/^bank: //p' "$BANK")
NQ=$(grep -cE '^[0-9]+\. ' "$BANK")
N=$((NQ * 2))
ESC=$T/esc/escape.qb
DUMP=$T/apkgdump
if ! cc -std=c11 -O1 -o "$DUMP" "$ROOT/tests/tools/apkgdump.c" \
	$(pkg-config --cflags --libs libzip sqlite3) 2>"$T/cc.err"; then
	fail "build tests/tools/apkgdump.c"
	cat "$T/cc.err"
	finish
	exit 1
fi

STRIP=$T/anki_strip
if ! (cd "$ROOT" && cc -std=c11 -D_DEFAULT_SOURCE -O1 -Icompiler -o "$STRIP" tests/tools/anki_strip.c \
	compiler/anki_db.c compiler/buf.c compiler/alloc.c compiler/hash.c compiler/diag.c compiler/i18n.c compiler/fsutil.c compiler/escape.c compiler/utf8.c \
	$(pkg-config --cflags --libs sqlite3 jansson nettle libxml-2.0 libutf8proc libdeflate zlib)) 2>"$T/cc.err"; then
	fail "build tests/tools/anki_strip.c"
	cat "$T/cc.err"
fi

# q PKG SQL...: query the package's collection.
q() { pkg=$1; shift; "$DUMP" "$pkg" sql "$@"; }
# eq NAME EXPECTED ACTUAL
eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: expected '$2', got '$3'"; fi
}
# fields_ok DB: Anki's sfld/csum recomputed; the details only on failure.
fields_ok() { python3 "$HERE/anki_fields.py" "$1" >"$1.log" 2>&1 || { cat "$1.log"; return 1; }; }
# build OUTDIR BANK [qbc build args...]
build() { out=$1; bank=$2; shift 2; "$QBC" build -o "$out" --format anki "$@" "$bank" >"$out.log" 2>&1; }

# ---- the quiz bank -----------------------------------------------------
A=$T/a
mkdir -p "$A"
check "build $ID" build "$A" "$BANK"
P=$A/$ID.apkg
check "package exists" test -s "$P"

# Members: fixed order, fixed time, nothing else (§A1).
members=$("$DUMP" "$P" members)
eq "member names" "collection.anki2 media 0 1 2" "$(echo "$members" | cut -f1 | tr '\n' ' ' | sed 's/ $//')"
eq "member times are the epoch" "$SOURCE_DATE_EPOCH" "$(echo "$members" | cut -f4 | sort -u)"

# Schema 11, integrity, counts.
eq "col.ver = 11, one col row" "11|1" "$(q "$P" "select ver, count(*) from col")"
eq "integrity_check" "ok" "$(q "$P" "PRAGMA integrity_check")"
eq "tables" "cards col graves notes revlog" \
	"$(q "$P" "select name from sqlite_master where type='table' order by name" | tr '\n' ' ' | sed 's/ $//')"
eq "indices" "7" "$(q "$P" "select count(*) from sqlite_master where type='index' and name like 'ix_%'")"
eq "$N notes" "$N" "$(q "$P" "select count(*) from notes")"
eq "$N cards" "$N" "$(q "$P" "select count(*) from cards")"
eq "one card per note" "$N" "$(q "$P" "select count(distinct nid) from cards")"
eq "deck names" "Default|$ID|$ID::English|$ID::Kiswahili" \
	"$(q "$P" "select json_extract(value,'\$.name') from col, json_each(col.decks)" | tr '\n' '|' | sed 's/|$//')"
eq "$NQ cards per language deck" "$ID::English|en|$NQ $ID::Kiswahili|sw|$NQ" \
	"$(q "$P" "select json_extract(d.value,'\$.name'), substr(n.tags, instr(n.tags,'lang::')+6, 2), count(*)
	   from cards c join notes n on n.id=c.nid, col, json_each(col.decks) d
	   where json_extract(d.value,'\$.id') = c.did group by c.did order by 1" | tr '\n' ' ' | sed 's/ $//')"

# Required JSON keys (§A3.2): for the Rust importer and for old clients.
missing() { # JSON-PATH-ROOT KEYS...: prints the keys missing under every element
	root=$1; shift
	for k in "$@"; do
		n=$(q "$P" "select count(*) from col, json_each(col.$root) e where json_type(e.value, '\$.$k') is null")
		[ "$n" = 0 ] || printf '%s ' "$root.$k"
	done
}
eq "notetype keys" "" "$(missing models id name type mod usn sortf did tmpls flds css latexPre latexPost req tags vers)"
eq "deck keys" "" "$(missing decks id name usn lrnToday revToday newToday timeToday collapsed dyn conf mod desc)"
eq "dconf keys" "" "$(missing dconf id mod name usn maxTaken autoplay timer new rev lapse)"
fkeys=""
for k in name ord sticky rtl font size; do
	n=$(q "$P" "select count(*) from col, json_each(col.models) m, json_each(m.value,'\$.flds') f where json_type(f.value,'\$.$k') is null")
	[ "$n" = 0 ] || fkeys="$fkeys $k"
done
eq "field keys" "" "$fkeys"
tkeys=""
for k in name ord qfmt afmt bqfmt bafmt did bfont bsize; do
	n=$(q "$P" "select count(*) from col, json_each(col.models) m, json_each(m.value,'\$.tmpls') t where json_type(t.value,'\$.$k') is null")
	[ "$n" = 0 ] || tkeys="$tkeys $k"
done
eq "template keys" "" "$tkeys"
eq "conf keys" "1|1|1" "$(q "$P" "select json_extract(conf,'\$.curDeck'), json_type(conf,'\$.activeDecks')='array', json_extract(conf,'\$.nextPos')=$((N + 1)) from col")"
eq "col.tags" "{}" "$(q "$P" "select tags from col")"
eq "ords are indices" "0" "$(q "$P" "select count(*) from col, json_each(col.models) m, json_each(m.value,'\$.flds') f where json_extract(f.value,'\$.ord') != f.key")"
eq "sortf < field count" "1" "$(q "$P" "select json_extract(m.value,'\$.sortf') < json_array_length(m.value,'\$.flds') from col, json_each(col.models) m")"
eq "req" '[[0,"any",[0,1,2,3]]]' "$(q "$P" "select json_extract(m.value,'\$.req') from col, json_each(col.models) m")"

# The frozen note type.
eq "FROZEN field names" "$FROZEN_FIELDS" \
	"$(q "$P" "select group_concat(json_extract(f.value,'\$.name'), ',') from col, json_each(col.models) m, json_each(m.value,'\$.flds') f")"
eq "FROZEN template names" "$FROZEN_TEMPLATES" \
	"$(q "$P" "select group_concat(json_extract(t.value,'\$.name'), ',') from col, json_each(col.models) m, json_each(m.value,'\$.tmpls') t")"
eq "FROZEN note type id" "$FROZEN_NTID|$FROZEN_NTID|$FROZEN_NTID" \
	"$(q "$P" "select m.key, json_extract(m.value,'\$.id'), (select distinct mid from notes) from col, json_each(col.models) m")"
eq "FROZEN note type name" "$FROZEN_NAME" "$(q "$P" "select json_extract(m.value,'\$.name') from col, json_each(col.models) m")"

# guid_mismatches: reads "GUID FIELDS" lines and prints how many GUIDs are
# not base91(first 8 bytes of sha256("qbank:" + first field)): the rule
# (bank, question, language) recomputed here, independently of qbc.
guid_mismatches() {
	python3 -c "
import hashlib, sys
A = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#\$%&()*+,-./:;<=>?@[]^_\`{|}~'
bad = 0
for line in sys.stdin:
    guid, flds = line.rstrip('\n').split(' ', 1)
    v = int.from_bytes(hashlib.sha256(('qbank:' + flds.split(chr(31))[0]).encode()).digest()[:8], 'big')
    s = ''
    while True:
        s = A[v % 91] + s
        v //= 91
        if not v:
            break
    bad += s != guid
print(bad)"
}

# v1 -> v2 (README.md, "For Anki users"): the lean note type is a new id
# and a new name, so Anki adds it beside the v1 type instead of replacing
# v1's templates (anki-format.md §B3); the GUID rule is v1's, recomputed
# here from sha256("qbank:<bank>:<question>:<lang>") in base91, so the
# learner's v1 notes are the ones Anki reports as "note type changed"
# (§B2) until they are moved to the new type.
check "v2 is not the v1 note type (id, schema)" test "$FROZEN_NTID" != "$V1_NTID" -a "$FROZEN_FIELDS" != "$V1_FIELDS"
guids_ok=$(q "$P" "select guid||' '||flds from notes" | guid_mismatches)
eq "GUIDs follow v1's rule (bank, question, language)" "0" "$guids_ok"

# Lean notes (issue 12): a note's fields at most 1.5 times the texts it
# shows (tests/anki/note_size.py).
check "note fields <= 1.5 x the texts shown" sh -c "python3 '$HERE/note_size.py' --max 1.5 '$P' >'$T/size.log' || { cat '$T/size.log'; exit 1; }"
eq "no labels in the notes" "0" "$(q "$P" "select count(*) from notes where flds like '%Correct answer%' or flds like '%Jibu sahihi%' or flds like '%Show in%'")"

# Rows (§A4).
eq "field count = note type's" "0" \
	"$(q "$P" "select count(*) from notes, col, json_each(col.models) m where length(flds)-length(replace(flds,char(31),''))+1 != json_array_length(m.value,'\$.flds')")"
eq "usn -1 everywhere" "0|0|0|0" \
	"$(q "$P" "select (select count(*) from notes where usn!=-1), (select count(*) from cards where usn!=-1),
	   (select count(*) from col, json_each(col.models) m where json_extract(m.value,'\$.usn')!=-1),
	   (select count(*) from col, json_each(col.decks) d where json_extract(d.value,'\$.usn')!=-1)")"
now_ms=$(($(date +%s) * 1000 + 1000))
eq "ids in ms, not in the future" "0" \
	"$(q "$P" "select count(*) from (select id from notes union all select id from cards) where id < 1000000000000 or id > $now_ms")"
eq "note mod = epoch" "$SOURCE_DATE_EPOCH" "$(q "$P" "select distinct mod from notes")"
eq "new cards" "0|0|0" "$(q "$P" "select distinct type, queue, ivl from cards")"
eq "due follows bank order" "$(seq -s ' ' 1 "$N")" \
	"$(q "$P" "select due from cards c join notes n on n.id=c.nid order by n.id" | tr '\n' ' ' | sed 's/ $//')"
bank_order=$(sed -nE 's/^[0-9]+\. ([a-z0-9-]+).*/\1/p' "$BANK" | tr '\n' ' ' | sed 's/ $//')
eq "notes by due = bank question order" "$bank_order" \
	"$(q "$P" "select substr(flds, 1, instr(flds, char(31))-1) from cards c join notes n on n.id=c.nid where n.tags like '% lang::en %' order by due" |
	   sed "s/^$ID:\\(.*\\):en\$/\\1/" | tr '\n' ' ' | sed 's/ $//')"
eq "tags" " $ID lang::en basics memory " "$(q "$P" "select tags from notes order by id limit 1")"
"$DUMP" "$P" cat collection.anki2 >"$T/a.db"
check "sfld and csum computed as Anki does" fields_ok "$T/a.db"
eq "unique guids" "$N" "$(q "$P" "select count(distinct guid) from notes")"
# GUID = base91 of the first 8 bytes of sha256("qbank:<bank>:<question>:<lang>")
# (anki-format.md §A4.4), recomputed independently.
want=$(python3 -c '
import hashlib, sys
T = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&()*+,-./:;<=>?@[]^_`{|}~"
v = int.from_bytes(hashlib.sha256(sys.argv[1].encode()).digest()[:8], "big")
s = ""
while v:
    s = T[v % 91] + s
    v //= 91
print(s)' "qbank:$ID:replica-per-gpu:sw")
eq "GUID derivation" "$want" "$(q "$P" "select guid from notes where flds like '$ID:replica-per-gpu:sw%'")"
eq "note type mod = epoch" "$SOURCE_DATE_EPOCH" "$(q "$P" "select json_extract(m.value,'\$.mod') from col, json_each(col.models) m")"

# Anki's stripHTMLMedia and fieldChecksum on crafted texts (entities,
# comments, <style>/<script>, odd <img> tags), against Anki's own code.
"$STRIP" <"$HERE/strip-cases.txt" >"$T/strip.out" 2>&1
check "stripHTMLMedia/fieldChecksum as Anki on tricky HTML" \
	sh -c "python3 '$HERE/anki_fields.py' --strip '$HERE/strip-cases.txt' '$T/strip.out' >'$T/strip.log' || { cat '$T/strip.log'; exit 1; }"

# Static media: "_" names that follow the content (§A5).
"$DUMP" "$P" cat media >"$T/media.json"
for i in 0 1 2; do
	name=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$T/media.json" $i)
	hash=$("$DUMP" "$P" cat $i | sha256sum | cut -c1-10)
	case "$name" in
	_qbc-card-$hash.css | _qbc-card-$hash.js | _qbc-labels-$hash.js) pass "static media $name named by content hash" ;;
	*) fail "static media $name does not carry hash $hash" ;;
	esac
done
css=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['0'])" "$T/media.json")
js=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['1'])" "$T/media.json")
eq "note type CSS imports the static CSS" "1" "$(q "$P" "select instr(json_extract(m.value,'\$.css'), '$css') > 0 from col, json_each(col.models) m")"
eq "front template loads the static JS" "1" "$(q "$P" "select instr(json_extract(m.value,'\$.tmpls[0].qfmt'), '$js') > 0 from col, json_each(col.models) m")"

# Byte-identical rebuild, with the same epoch.
B=$T/b
mkdir -p "$B"
build "$B" "$BANK"
check "byte-identical rebuild" cmp -s "$P" "$B/$ID.apkg"
C=$T/c
mkdir -p "$C"
TZ=Asia/Tokyo build "$C" "$BANK"
check "byte-identical in another time zone" cmp -s "$P" "$C/$ID.apkg"

# Without --format, 'qbc build' writes the package (as 'make' does).
D=$T/default
mkdir -p "$D"
"$QBC" build -o "$D" "$BANK" >"$D.log" 2>&1
check "anki is a default format" test -s "$D/$ID.apkg"

# --lang en: one language, no translation.
L=$T/l
mkdir -p "$L"
check "build --lang en" build "$L" "$BANK" --lang en
eq "--lang en: $NQ notes, 3 decks" "$NQ|3" "$(q "$L/$ID.apkg" "select (select count(*) from notes), (select count(*) from col, json_each(col.decks))")"
eq "--lang en: no Kiswahili, no translation" "0" \
	"$(q "$L/$ID.apkg" "select count(*) from notes where tags like '%lang::sw%' or flds like '%qb-translation%'")"

# ---- edits: GUIDs stay; mod moves for changed notes only ---------------
# Times come from the revision record (revision.h): a note's mod is the
# latest revision time of what it shows (its question in every written
# language, and templates/anki/).
E=$T/edit
mkdir -p "$E/out1" "$E/out2" "$E/out3" "$E/out4" "$E/out5"
cp "$BANK" "$E/bank.qb"
SOURCE_DATE_EPOCH=1700000000 build "$E/out1" "$E/bank.qb"
SOURCE_DATE_EPOCH=1700000050 build "$E/out2" "$E/bank.qb"
check "nothing changed, later clock: byte-identical" cmp -s "$E/out1/$ID.apkg" "$E/out2/$ID.apkg"
sed -i 's/what does each GPU hold?/what does every single GPU hold?/' "$E/bank.qb"
SOURCE_DATE_EPOCH=1700000100 build "$E/out3" "$E/bank.qb"
P1=$E/out1/$ID.apkg
P3=$E/out3/$ID.apkg
check "edited text reached the note" sh -c "'$DUMP' '$P3' sql 'select flds from notes' | grep -q 'every single GPU'"
g0=$(q "$P" "select guid from notes order by id")
g1=$(q "$P1" "select guid from notes order by id")
g3=$(q "$P3" "select guid from notes order by id")
check "GUIDs stable across builds (other epoch)" test "$g1" = "$g0"
check "GUIDs stable across an edit of the question text" test "$g1" = "$g3"
modof() { q "$1" "select mod from notes where flds like '$ID:$2:$3%'"; }
eq "first build: every note at the first time" "1700000000" "$(q "$P1" "select distinct mod from notes")"
eq "edited note: mod strictly newer" "1700000100" "$(modof "$P3" replica-per-gpu en)"
eq "its other language shows the edit too (Translation): newer" "1700000100" "$(modof "$P3" replica-per-gpu sw)"
eq "unchanged notes keep their mod" "1700000000|$((N - 2))" \
	"$(q "$P3" "select distinct mod, count(*) from notes where flds not like '$ID:replica-per-gpu:%'")"
eq "unchanged notes are byte-identical rows" "" \
	"$(q "$P1" "select guid||flds||mod from notes where flds not like '$ID:replica-per-gpu:%' order by guid" >"$E/r1"
	   q "$P3" "select guid||flds||mod from notes where flds not like '$ID:replica-per-gpu:%' order by guid" >"$E/r3"
	   cmp "$E/r1" "$E/r3")"
eq "note type mod unchanged by a bank edit" "1700000000" "$(q "$P3" "select json_extract(m.value,'\$.mod') from col, json_each(col.models) m")"
eq "note type id unchanged by the edit" "$FROZEN_NTID" "$(q "$P3" "select distinct mid from notes")"
sed -i 's/what does every single GPU hold?/what does each single GPU hold?/' "$E/bank.qb"
SOURCE_DATE_EPOCH=1700000100 build "$E/out4" "$E/bank.qb"
eq "second edit in the same second: still strictly newer" "1700000101" "$(modof "$E/out4/$ID.apkg" replica-per-gpu en)"
# A template change: new static names, newer note type (and notes, whose
# labels come from templates/).
mkdir -p "$E/tpl"
cp -R "$ROOT/templates/anki" "$ROOT/templates/labels" "$E/tpl/"
printf '\n.qb-question { letter-spacing: .01em; }\n' >>"$E/tpl/anki/card.css"
QBC_TEMPLATES=$E/tpl SOURCE_DATE_EPOCH=1700000200 build "$E/out5" "$E/bank.qb"
P5=$E/out5/$ID.apkg
eq "template change: note type mod newer" "1700000200" "$(q "$P5" "select json_extract(m.value,'\$.mod') from col, json_each(col.models) m")"
css5=$("$DUMP" "$P5" cat media | python3 -c "import json,sys; print(json.load(sys.stdin)['0'])")
css4=$("$DUMP" "$E/out4/$ID.apkg" cat media | python3 -c "import json,sys; print(json.load(sys.stdin)['0'])")
check "template change: the static CSS gets a new name ($css4 -> $css5)" test "$css4" != "$css5"
eq "template change: the note type imports the new name" "1" "$(q "$P5" "select instr(json_extract(m.value,'\$.css'), '$css5') > 0 from col, json_each(col.models) m")"
eq "template change: GUIDs unchanged" "$g1" "$(q "$P5" "select guid from notes order by id")"

# ---- hostile text: nothing becomes script, tags or template syntax -----
X=$T/x
mkdir -p "$X"
check "build escape.qb" build "$X" "$ESC"
XP=$X/escape-test.apkg
flds=$(q "$XP" "select flds from notes")
echo "$flds" >"$T/x.flds"
check "no <script> in fields" sh -c "! grep -qi '<script' '$T/x.flds'"
check "no <style> or onerror tag in fields" sh -c "! grep -qiE '<style|<img src=x' '$T/x.flds'"
check "no {{ or }} in fields" sh -c "! grep -qE '\\{\\{|\\}\\}' '$T/x.flds'"
check "no [sound: or [latex] in fields" sh -c "! grep -qiE '\\[sound:|\\[latex\\]' '$T/x.flds'"
check "script shown as text" grep -q '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;' "$T/x.flds"
check "template syntax shown as text" grep -q '&#123;{Front&#125;}' "$T/x.flds"
check "ampersand and quotes escaped" grep -q 'text &amp; &quot;quoted&quot;' "$T/x.flds"
check "deck description escaped" sh -c "'$DUMP' '$XP' sql 'select decks from col' | grep -q 'Escaping &lt;b&gt;test&lt;/b&gt; &amp; &#123;{Title&#125;}'"
"$DUMP" "$XP" cat media >"$T/xmedia.json"
img=$(python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(' '.join(k+'='+v for k,v in m.items() if not v.startswith('_')))" "$T/xmedia.json")
case "$img" in
3=gpu_diagram-*.png) pass "picture is package media ($img)" ;;
*) fail "picture is package media: got '$img'" ;;
esac
iname=${img#3=}
check "picture referenced from the fields" grep -q "<img src=\"$iname\"" "$T/x.flds"
check "picture bytes copied" sh -c "'$DUMP' '$XP' cat 3 | cmp -s - '$HERE/media/gpu_diagram.png'"
check "picture stored, not deflated" sh -c "'$DUMP' '$XP' members | grep -q '^3	.*	store	'"
bad=$(python3 -c "
import json, re, sys
m = json.load(open(sys.argv[1]))
ok = re.compile(r'^[A-Za-z0-9_][A-Za-z0-9._-]{0,119}\$')
print(' '.join(v for v in m.values() if not ok.match(v) or '..' in v))" "$T/xmedia.json")
eq "media names are one safe path component" "" "$bad"
"$DUMP" "$XP" cat collection.anki2 >"$T/x.db"
check "escape.qb: sfld and csum as Anki" fields_ok "$T/x.db"
eq "multiple: both correct options marked, the third not" "1" \
	"$(q "$XP" "select count(*) from notes where flds like '%<ol class=\"qb-options\" data-type=\"multiple\"><li data-ok>%<li data-ok>%<li>%' and tags like '%lang::en%'")"

# ---- golden: the whole normalised content of escape.qb's package --------
# Reviewed once; UPDATE=1 rewrites tests/anki/escape.expected after a
# deliberate change (then read the diff).
normalise() { # PKG: members, media map, note type, decks, notes and cards
	pkg=$1
	echo "## members"
	"$DUMP" "$pkg" members | cut -f1,3
	echo "## media"
	"$DUMP" "$pkg" cat media
	echo
	echo "## note type"
	q "$pkg" "select m.key, json_extract(m.value,'\$.name'), json_extract(m.value,'\$.sortf'), json_extract(m.value,'\$.req') from col, json_each(col.models) m"
	echo "## decks"
	q "$pkg" "select json_extract(value,'\$.name'), json_extract(value,'\$.desc'), json_extract(value,'\$.conf') from col, json_each(col.decks)"
	echo "## notes"
	q "$pkg" "select 'guid='||guid||' mod='||mod||' tags=['||tags||'] csum='||csum||char(10)||'sfld='||sfld||char(10)||flds from notes order by id" |
		awk -v names="$FROZEN_FIELDS" 'BEGIN { n = split(names, F, ",") }
			/^guid=/ { print; next } /^sfld=/ { print; next }
			{ k = split($0, v, "\037"); for (i = 1; i <= k; i++) print "  " F[i] ": " v[i] }'
	echo "## cards"
	q "$pkg" "select c.due, c.ord, c.type, c.queue, json_extract(d.value,'\$.name'), n.guid from cards c join notes n on n.id = c.nid, col, json_each(col.decks) d where json_extract(d.value,'\$.id') = c.did order by c.due"
}
normalise "$XP" >"$T/escape.actual" 2>&1
golden "golden escape.expected" "$T/escape.actual" "$HERE/escape.expected"

# ---- labels: a regional tag uses its language's labels, others the default's --
if [ -f "$ROOT/tests/golden/three-languages/input.qb" ]; then
	mkdir -p "$T/three"
	G=$T/three/three-languages.qb
	cp "$ROOT/tests/golden/three-languages/input.qb" "$G"
	check "build three-languages" build "$T/three" "$G"
	TP=$T/three/three-languages.apkg
	# Labels live in the static labels script, one catalogue per language.
	lname=$("$DUMP" "$TP" cat media | python3 -c "import json,sys; print([k for k,v in json.load(sys.stdin).items() if v.startswith('_qbc-labels-')][0])")
	"$DUMP" "$TP" cat "$lname" | sed -n 's/^window.qbcLabels = \(.*\);$/\1/p' >"$T/three/labels.json"
	lab() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]][sys.argv[3]])" "$T/three/labels.json" "$1" "$2"; }
	eq "sw-KE card: Kiswahili labels" "Jibu sahihi" "$(lab sw-KE correctAnswer)"
	# fr: its own catalogue, else the bank's default language (sw-KE).
	fr_label=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['labels']['correctAnswer'])" "$ROOT/templates/labels/fr.json" 2>/dev/null || echo "Jibu sahihi")
	eq "fr card: its own or the default language's labels" "$fr_label" "$(lab fr correctAnswer)"
	# Linear in languages: the default language's note carries the others,
	# any other note only the default language.
	eq "default-language note carries every other language" "2" \
		"$(q "$TP" "select (length(flds)-length(replace(flds,'<details class=\"qb-translation\"','')))/length('<details class=\"qb-translation\"') from notes where tags like '% lang::sw-KE %' limit 1")"
	eq "other notes carry the default language only" "0|1" \
		"$(q "$TP" "select count(*) filter (where flds like '%qb-translation\" lang=\"en%'), min(flds like '%qb-translation\" lang=\"sw-KE%') from notes where tags like '% lang::fr %'")"
	eq "deck per language, in its own name" "three-languages::English three-languages::Kiswahili three-languages::Français" \
		"$(q "$TP" "select json_extract(value,'\$.name') from col, json_each(col.decks) where json_extract(value,'\$.name') like '%::%'" | tr '\n' ' ' | sed 's/ $//')"
fi

# ---- a failed build leaves nothing behind -------------------------------
F=$T/fail
mkdir -p "$F/tpl/anki"
cp "$ROOT"/templates/anki/* "$F/tpl/anki/"
cp -R "$ROOT"/templates/labels "$F/tpl/"
printf '%s\n' '<div>%%nope%%</div>' >"$F/tpl/anki/front.html"
QBC_TEMPLATES=$F/tpl "$QBC" build -o "$F" --format anki "$BANK" >"$F/log" 2>&1
rc=$?
eq "unknown placeholder in a template: exit 3" "3" "$rc"
check "unknown placeholder reported" grep -q "unknown placeholder '%%nope%%'" "$F/log"
eq "no output, no temporary files" "" "$(ls "$F" | grep -v -e '^tpl$' -e '^log$')"

# ---- question types besides single and multiple (tests/anki/types.qb) ----
Y=$T/types
mkdir -p "$Y/src"
cp -R "$HERE/types.qb" "$HERE/media" "$Y/src/"
check "build types.qb" build "$Y" "$Y/src/types.qb"
YP=$Y/anki-types.apkg
yq() { q "$YP" "select count(*) from notes where flds like '$1:%' and tags like '% lang::$2 %' and flds like '$3'"; }
tf_en=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['labels']['true'])" "$ROOT/templates/labels/en.json")
tf_sw=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['labels']['false'])" "$ROOT/templates/labels/sw.json")
eq "true-false: the words from the labels, the right one marked" "1" \
	"$(yq anki-types:tf-false en "%data-type=\"true-false\"><li>$tf_en<small>No: it boils%</small></li><li data-ok>%")"
eq "true-false in Kiswahili: its own words" "1" "$(yq anki-types:tf-false sw "%<li data-ok>$tf_sw</li>%")"
eq "true-false: feedback-wrong once per language (own + carried)" "2|1" \
	"$(q "$YP" "select (length(flds)-length(replace(flds,'class=\"qb-fbw\"','')))/length('class=\"qb-fbw\"'), flds like '%<small class=\"qb-fbw\">Look at the density%' from notes where flds like 'anki-types:tf-true:en%'")"
eq "math reaches Anki as \\(...\\) for its MathJax (both notes)" "2" "$(q "$YP" "select count(*) from notes where flds like '%\\(50\\,{}^\\circ\\mathrm{C}\\)%'")"
eq "shuffle and partial scoring reach the card script; the pin too" "2" \
	"$(q "$YP" "select count(*) from notes where flds like 'anki-types:partial-shuffled:%' and flds like '%<ol class=\"qb-options\" data-type=\"multiple\" data-shuffle data-scoring=\"partial\">%<li data-pin>%'")"
eq "no shuffle or partial marks where the bank has none" "0" \
	"$(q "$P" "select count(*) from notes where flds like '%data-shuffle%' or flds like '%data-scoring%' or flds like '%data-pin%'")"
# Audio: Anki's own [sound:] tag for the bank's sound, the file in the
# package media; a bank's literal "[sound:" stays text.
snd=$("$DUMP" "$YP" cat media | python3 -c "import json,sys; print(' '.join(k+'='+v for k,v in json.load(sys.stdin).items() if v.startswith('tone-')))")
case "$snd" in
[0-9]*=tone-*.wav) pass "sound is package media ($snd)" ;;
*) fail "sound is package media: got '$snd'" ;;
esac
check "sound bytes copied" sh -c "'$DUMP' '$YP' cat '${snd%%=*}' | cmp -s - '$HERE/media/tone.wav'"
eq "sound as [sound:name] in both languages' notes" "2" "$(q "$YP" "select count(*) from notes where flds like 'anki-types:tone-heard:%' and flds like '%Listen: [sound:${snd#*=}] Is this%'")"
eq "no <audio> left in fields; a bank's [sound: stays text" "0|1" \
	"$(q "$YP" "select (select count(*) from notes where flds like '%<audio%'), (select count(*) from notes where flds like 'anki-types:tone-heard:en%' and flds like '%tone &#91;sound:not-this.mp3]%')")"
# Short-answer: the answers as plain text, accepted ones marked; numeric:
# the accepted interval for the script and the answer as written.
eq "short-answer: accepted and listed wrong answers" "1" \
	"$(yq anki-types:short-typed en '%data-type="short-answer"><li data-ok>all-reduce</li><li data-ok>allreduce</li><li>broadcast<small>%')"
eq "numeric: interval, answer with tolerance and unit" "1" \
	"$(q "$YP" "select count(*) from notes where flds like 'anki-types:numeric-tol:en%' and flds like '%data-type=\"numeric\" data-lo=\"3.3999999999999999\" data-hi=\"3.6000000000000001\"><li data-ok>3.5 ± 0.1 GB</li></ol>%'")"
eq "numeric: each further answer with its interval, credit and feedback after the accepted one" "1" \
	"$(q "$YP" "select count(*) from notes where flds like 'anki-types:numeric-credit:en%' and flds like '%<li data-ok>100 ± 1 °C</li><li data-lo=\"90\" data-hi=\"98\" data-credit=\"50\">90…98 °C (50%)<small>Close: that is up a mountain.</small></li><li data-lo=\"95\" data-hi=\"97\" data-credit=\"25\">95…97 °C (25%)</li></ol>%'")"
eq "matching: pairs marked, the distractor's right side without a left" "1" \
	"$(yq anki-types:match-collectives en '%data-type="matching" data-scoring="partial"><li data-ok>all-reduce<span class="qb-match">every GPU gets the sum</span></li>%<li><span class="qb-match">nothing is sent</span></li></ol>%')"

# ---- cloze (tests/anki/cloze.qb): Anki's Cloze note type ----------------
# A second frozen note type, type 1, one card per gap with ord = gap - 1.
CLOZE_NTID=1771525451
CLOZE_FIELDS="ID,Lang,Text,Explanation,Translation,Extra"
Z=$T/cloze
mkdir -p "$Z/src"
cp "$HERE/cloze.qb" "$Z/src/"
check "build cloze.qb" build "$Z" "$Z/src/cloze.qb"
ZP=$Z/anki-cloze.apkg
zq() { q "$ZP" "$@"; }
eq "cloze: integrity_check" "ok" "$(zq "PRAGMA integrity_check")"
eq "cloze: both note types, the cloze one frozen (id, name, type 1, fields, template)" \
	"$FROZEN_NTID|qbc quiz|0|Quiz $CLOZE_NTID|qbc cloze|1|Cloze" \
	"$(zq "select m.key||'|'||json_extract(m.value,'\$.name')||'|'||json_extract(m.value,'\$.type')||'|'||json_extract(m.value,'\$.tmpls[0].name') from col, json_each(col.models) m order by 1" | tr '\n' ' ' | sed 's/ $//')"
eq "cloze: FROZEN field names" "$CLOZE_FIELDS" \
	"$(zq "select group_concat(json_extract(f.value,'\$.name'), ',') from col, json_each(col.models) m, json_each(m.value,'\$.flds') f where m.key='$CLOZE_NTID'")"
eq "cloze: both templates show {{cloze:Text}}" "1|1" \
	"$(zq "select instr(json_extract(m.value,'\$.tmpls[0].qfmt'),'{{cloze:Text}}')>0, instr(json_extract(m.value,'\$.tmpls[0].afmt'),'{{cloze:Text}}')>0 from col, json_each(col.models) m where m.key='$CLOZE_NTID'")"
eq "cloze: the notes use it" "4" "$(zq "select count(*) from notes where mid=$CLOZE_NTID")"
# Two gaps in collectives, three in hostile; per language.
eq "cloze: one card per gap, ord 0..N-1, in each language's deck" \
	"collectives:en:0,1 collectives:sw:0,1 hostile:en:0,1,2 hostile:sw:0,1,2" \
	"$(zq "select substr(n.flds, 12, instr(n.flds, char(31))-12), group_concat(c.ord) from notes n join cards c on c.nid=n.id group by n.id order by n.id" | tr '|' ':' | tr '\n' ' ' | sed 's/ $//')"
eq "cloze: card ids unique, below the note ids; due in bank order" "10|10|1|1" \
	"$(zq "select count(distinct id), count(*), max(id) < (select min(id) from notes), group_concat(due) = '1,2,3,4,5,6,7,8,9,10' from (select * from cards order by nid, ord)")"
eq "cloze: the cards' decks are their notes' languages" "0" \
	"$(zq "select count(*) from cards c join notes n on n.id=c.nid, col, json_each(col.decks) d where json_extract(d.value,'\$.id')=c.did and (json_extract(d.value,'\$.name') like '%English') != (n.tags like '% lang::en %')")"
eq "cloze: nextPos after the last card" "11" "$(zq "select json_extract(conf,'\$.nextPos') from col")"
eq "cloze: typed gap (first answer) and choice gap (choices as hint)" "1" \
	"$(zq "select count(*) from notes where flds like 'anki-cloze:collectives:en%' and flds like '%MPI''s {{c1::all-reduce}} sums across ranks; {{c2::broadcast::broadcast / gather / scatter}} sends%'")"
# Hostile answers: no "::", "}}", "{{" or "[sound:" from the bank.
eq "cloze: hostile answers escaped" "2" \
	"$(zq "select count(*) from notes where flds like 'anki-cloze:hostile:%' and flds like '%{{c1::a&#58;&#58;b}}%{{c2::&#91;sound&#58;x.mp3]}}%{{c3::c&#123;d::c&#123;d / e&#58;f}}%'")"
eq "cloze: no other cloze markers, no [sound: in any note" "0|0" \
	"$(zq "select (select count(*) from notes where flds like '%[sound:%'), (select count(*) from notes where replace(replace(replace(replace(replace(flds,'{{c1::',''),'{{c2::',''),'{{c3::',''),'}}',''),'::','') like '%{{%')")"
eq "cloze: the other language behind the toggle, answers filled in" "1|1" \
	"$(zq "select (select count(*) from notes where flds like 'anki-cloze:collectives:en%' and flds like '%<details class=\"qb-translation\" lang=\"sw\">%<u class=\"qb-gap\">all-reduce</u> ya MPI%'), (select count(*) from notes where flds like 'anki-cloze:collectives:sw%' and flds like '%lang=\"en\">%MPI''s <u class=\"qb-gap\">all-reduce</u>%')")"
zguids=$(zq "select guid||' '||flds from notes" | guid_mismatches)
eq "cloze: GUIDs from bank, question and language" "0" "$zguids"
"$DUMP" "$ZP" cat collection.anki2 >"$T/z.db"
check "cloze: sfld and csum as Anki computes them" fields_ok "$T/z.db"

# ---- parameterised questions (issue 38, tests/anki/draws.qb) -------------
# A third frozen note type, "qbc drawn": the quiz type's fields and one
# more, Draws (the quiz type's field list cannot change, §B3).  Each note
# shows the first draw of its pool in its fields and holds every other
# draw's fields in Draws; tests/anki/draws.py recomputes the bank's
# formulas for every draw from the numbers each shows.
DRAWN_NTID=1582677083
DRAWN_FIELDS="ID,Lang,Question,Options,Explanation,Translation,Extra,Draws"
W=$T/draws
mkdir -p "$W/src"
cp "$HERE/draws.qb" "$W/src/"
check "build draws.qb" build "$W" "$W/src/draws.qb"
WP=$W/anki-draws.apkg
eq "draws: integrity_check" "ok" "$(q "$WP" "PRAGMA integrity_check")"
eq "draws: the quiz type unchanged beside the FROZEN drawn type (id, name, template)" \
	"$FROZEN_NTID|qbc quiz|0|Quiz|$FROZEN_FIELDS $DRAWN_NTID|qbc drawn|0|Quiz|$DRAWN_FIELDS" \
	"$(q "$WP" "select m.key||'|'||json_extract(m.value,'\$.name')||'|'||json_extract(m.value,'\$.type')||'|'||json_extract(m.value,'\$.tmpls[0].name')||'|'||(select group_concat(json_extract(f.value,'\$.name'), ',') from json_each(m.value,'\$.flds') f) from col, json_each(col.models) m order by 1" | tr '\n' ' ' | sed 's/ $//')"
eq "draws: sort field Question, req from the front's fields" '2|[[0,"any",[0,1,2,3,7]]]' \
	"$(q "$WP" "select json_extract(m.value,'\$.sortf'), json_extract(m.value,'\$.req') from col, json_each(col.models) m where m.key='$DRAWN_NTID'")"
eq "draws: one card per note, 10 notes" "10|10" "$(q "$WP" "select (select count(*) from notes), (select count(*) from cards)")"
check "draws: every draw's numbers, answers and texts (tests/anki/draws.py)" \
	sh -c "python3 '$HERE/draws.py' '$WP' >'$W/draws.log' 2>&1 || { grep -v '^ok ' '$W/draws.log'; exit 1; }"
"$DUMP" "$WP" cat collection.anki2 >"$T/w.db"
check "draws: sfld and csum as Anki computes them" fields_ok "$T/w.db"
wguids=$(q "$WP" "select guid||' '||flds from notes" | guid_mismatches)
eq "draws: GUIDs from bank, question and language only" "0" "$wguids"
mkdir -p "$W/again"
build "$W/again" "$W/src/draws.qb"
check "draws: byte-identical rebuild (the same pools)" cmp -s "$WP" "$W/again/anki-draws.apkg"
# Without the parameterised questions, no drawn type (a bank that has
# none keeps its package as it was).
eq "draws: no drawn type in a bank without parameters" "0" \
	"$(q "$P" "select count(*) from col, json_each(col.models) m where json_extract(m.value,'\$.name')='qbc drawn'")"

finish
