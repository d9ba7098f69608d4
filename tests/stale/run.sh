#!/bin/sh
# tests/stale/run.sh - the stale rules of the revision record (compiler/
# stale.c): the three bugs of issue 35 §2, each on a small bank shaped like
# input/showcase.qb (en sw, fr added by `qbc translate import`), and the
# model-based test (model.py), which drives random sequences of events
# through the CLI against its own model of the rules table.
. "$(dirname "$0")/../lib.sh"
HERE="$ROOT/tests/stale"
T=$(tmpdir)
cd "$T" || exit 2
B="$QBC build --format json -o dist"
PY=/usr/bin/python3
nstale() { grep -c 'may be stale' "$T/err"; }

cat >base.qb <<'EOQ'
# A small bank of two languages, as input/showcase.qb.
bank: small
languages: en sw
default-language: en

title:
  en: Small
  sw: Ndogo

1. alpha
   en: What is one?
   sw: Moja ni nini?
   * en: One
     sw: Moja
   - en: Two
     sw: Mbili
   explanation:
     en: One is one.
     sw: Moja ni moja.

2. beta
   en: What is red?
   sw: Nyekundu ni nini?
   * en: Red
     sw: Nyekundu
   - en: Blue
     sw: Bluu
   explanation:
     en: Red is red.
     sw: Nyekundu ni nyekundu.
EOQ
# addfr: French by export, a translator's file and import (a new language).
addfr() {
	$QBC translate export --lang fr b.qb >/dev/null 2>&1
	$PY "$HERE/fillpo.py" b.fr.po fr.po "FR " "$@"
	$QBC translate import fr.po b.qb >/dev/null 2>&1
}

# 1. Importing French after an English edit leaves the Kiswahili stale.
cp base.qb b.qb
rm -f b.lock
run $B b.qb; [ "$(cat "$T/rc")" = 0 ] || cat "$T/err"
addfr
run $B b.qb; [ "$(cat "$T/rc")" = 0 ] || cat "$T/err"
sed -i 's/^   en: What is one?$/   en: What is the one?/; s/^     en: One is one.$/     en: One is the one./' b.qb
run $B b.qb; [ "$(cat "$T/rc")" = 0 ] || cat "$T/err"
check "bug 1: the English edit stales sw twice" test "$(grep -c "'sw' text.*may be stale: 'en'" "$T/err")" = 2
$QBC translate export --lang fr b.qb >/dev/null 2>&1
$PY "$HERE/fillpo.py" b.fr.po fr.po "FR "
run $QBC translate import fr.po b.qb
check "bug 1: the French import succeeds" rc 0
run $QBC check b.qb
check "bug 1: after the French import, sw is still stale twice" \
	test "$(grep -c "'sw' text.*may be stale: 'en' changed" "$T/err")" = 2
check "bug 1: and French is not" sh -c "! grep -qF \"'fr' text\" '$T/err'"
run $B b.qb; [ "$(cat "$T/rc")" = 0 ] || cat "$T/err"
check "bug 1: nor after a build" test "$(grep -c "'sw' text.*may be stale: 'en' changed" "$T/err")" = 2

# 2. A unit left fuzzy on import stays stale, and stales no source.
cp base.qb b.qb
rm -f b.lock
run $B b.qb; [ "$(cat "$T/rc")" = 0 ] || cat "$T/err"
sed -i 's/^   en: What is one?$/   en: What is the one?/' b.qb
run $B b.qb; [ "$(cat "$T/rc")" = 0 ] || cat "$T/err"
$QBC translate export --lang sw b.qb >/dev/null 2>&1
$PY "$HERE/fillpo.py" b.sw.po sw.po "SW " alpha/prompt
run $QBC translate import sw.po b.qb
check "bug 2: the import leaves one stale" out_has "revision record: 8 marked current, 1 left stale (fuzzy)"
run $QBC check b.qb
check "bug 2: check: the fuzzy unit is stale" err_has "'sw' text of question 'alpha' prompt may be stale: 'en' changed"
check "bug 2: check: the English is not" sh -c "! grep -qF \"'en' text\" '$T/err'"
run $B b.qb; [ "$(cat "$T/rc")" = 0 ] || cat "$T/err"
check "bug 2: build: the English is not stale" sh -c "! grep -qF \"'en' text\" '$T/err'"
$QBC translate export --lang sw -o again.po b.qb >/dev/null 2>&1
check "bug 2: the next export keeps the fuzzy mark" \
	sh -c "grep -B1 'msgctxt \"alpha/prompt\"' again.po | grep -qx '#, fuzzy'"
check "bug 2: and only that one" test "$(grep -c '^#, fuzzy' again.po)" = 1

# 3. French added by import, then removed (the bank back, the record kept).
cp base.qb b.qb
rm -f b.lock
run $B b.qb; [ "$(cat "$T/rc")" = 0 ] || cat "$T/err"
addfr
run $B b.qb; [ "$(cat "$T/rc")" = 0 ] || cat "$T/err"
check "bug 3: with fr, nothing is stale" test "$(nstale)" = 0
cp base.qb b.qb
run $QBC check b.qb
check "bug 3: fr removed: check finds nothing stale" test "$(nstale)" = 0
run $B b.qb; [ "$(cat "$T/rc")" = 0 ] || cat "$T/err"
check "bug 3: fr removed: nor the build" test "$(nstale)" = 0
$QBC translate export --lang sw b.qb >/dev/null 2>&1
check "bug 3: the Kiswahili export marks nothing fuzzy" test "$(grep -c '^#, fuzzy' b.sw.po)" = 0
sed -i 's/^   en: What is red?$/   en: What is the red?/' b.qb
run $B b.qb; [ "$(cat "$T/rc")" = 0 ] || cat "$T/err"
check "bug 3: an English edit then stales its one translation" \
	test "$(nstale)" = 1 -a "$(grep -c "'sw' text of question 'beta' prompt may be stale: 'en' changed" "$T/err")" = 1

# The model-based test: the sequences of seeds MODEL_SEEDS, MODEL_STEPS
# events each (`make fuzz` gives it a longer run); the sanitizer build, ten
# times slower, checks its memory on fewer of them.
case "$QBC" in
*/asan/*) seeds=${MODEL_SEEDS:-1} steps=${MODEL_STEPS:-100} ;;
*) seeds=${MODEL_SEEDS:-1-10} steps=${MODEL_STEPS:-150} ;;
esac
run $PY "$HERE/model.py" --qbc "$QBC" --seeds "$seeds" --steps "$steps"
check "model: every text's state as the rules table says, after every step" rc 0
[ "$(cat "$T/rc")" = 0 ] || cat "$T/out" "$T/err"
finish
