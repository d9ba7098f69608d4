#!/bin/sh
# tests/i18n/run.sh - qbc's own messages in the user's language (gettext):
# the diagnostics corpus in French (each message the catalogue's
# translation, at the same place, with the same quote and caret, and the
# same exit code), the template up to date with the code, every catalogue
# accepted by msgfmt --check, the language chosen by LANGUAGE, LC_ALL,
# LC_MESSAGES or LANG (also when the locale is not installed), numbers
# still written with '.', and --help in French.
. "$(dirname "$0")/../lib.sh"
PO_DIR=$ROOT/compiler/po
FR=$PO_DIR/fr.po
CHECK="python3 $ROOT/tests/i18n/po_check.py"
T=$(tmpdir)
results=$T/results

# count: turns po_check.py's "ok ..." / "FAIL ..." lines into passes and failures.
count() {
	while IFS= read -r line; do
		case "$line" in
		"ok "*) pass "${line#ok }" ;;
		"FAIL "*) fail "${line#FAIL }" ;;
		*) fail "po_check.py said: $line" ;;
		esac
	done <"$results"
	: >"$results"
}
# The environment of a user who chose a language: nothing from the
# tests' own English settings (lib.sh) and no LANG unless given.
as_user() { env -u LANGUAGE -u LC_ALL -u LC_MESSAGES -u LANG "$@"; }

# --- (a) the diagnostics corpus in French --------------------------------
cd "$ROOT/tests/diag" || exit 2
for f in *.qb missing-file; do
	name=${f%.qb}
	args=$(cat "$name.args" 2>/dev/null)
	want_rc=$(cat "$name.exit" 2>/dev/null || echo 1)
	file=$f
	[ "$name" = missing-file ] && file=does-not-exist.qb
	# shellcheck disable=SC2086
	as_user LANGUAGE=fr "$QBC" check $args "$file" 2>"$T/$name.fr" >/dev/null
	rc=$?
	if [ "$rc" = "$want_rc" ]; then pass "fr $name: exit $rc"; else fail "fr $name: exit $rc, expected $want_rc"; fi
	printf 'fr %s\t%s\t%s\n' "$name" "$name.stderr" "$T/$name.fr" >>"$T/transcripts"
done
# every transcript against one reading of the catalogue
$CHECK diag-list "$FR" <"$T/transcripts" >>"$results" 2>&1
check "po_check.py compared every case" test "$(grep -c '^ok fr \|^FAIL fr ' "$results")" = "$(wc -l <"$T/transcripts")"
count
# One case by hand, so that the comparison itself is seen to work.
check "fr: a diagnostic reads in French" grep -qx \
	"answer-empty.qb:8:4: erreur: 'answer:' demande une valeur, par exemple 'answer: true' ou 'answer: 42'" \
	"$T/answer-empty.fr"
printf 'answer-empty.qb:8:4: error: oops\n' >"$T/broken"
$CHECK diag "$FR" "po_check refuses a broken transcript" answer-empty.stderr "$T/broken" >"$results" 2>&1
check "po_check.py refuses a transcript that is not the translation" grep -q '^FAIL' "$results"
: >"$results"
# A message put together from an English piece (here the kind of space)
# is refused too.
sed 's/une espace insécable/a no-break space/' "$T/lang-nbsp.fr" >"$T/broken"
$CHECK diag "$FR" "po_check refuses an English piece" lang-nbsp.stderr "$T/broken" >"$results" 2>&1
check "po_check.py refuses a French message with an English piece in it" grep -q "^FAIL.*English word" "$results"
: >"$results"

# --- (b) the template holds every message of the code ---------------------
cd "$ROOT" || exit 2
if make -s --no-print-directory pot POT="$T/qbc.pot" >"$T/pot.log" 2>&1; then
	# The messages, not the file: another xgettext may lay it out otherwise.
	$CHECK ids "compiler/po/qbc.pot holds every message 'make pot' extracts" \
		"$PO_DIR/qbc.pot" "$T/qbc.pot" >"$results" 2>&1
	count
else
	fail "make pot failed"; sed 's/^/    /' "$T/pot.log"
fi
check "the template has the diagnostics, the plurals and --help" sh -c "
	grep -q '^msgid \"duplicate question id' '$PO_DIR/qbc.pot' &&
	grep -q '^msgid_plural \"%lu errors generated.' '$PO_DIR/qbc.pot' &&
	grep -q '^msgid \"treat warnings as errors\"' '$PO_DIR/qbc.pot'"
check "fr.po translates every message of the template" msgcmp "$FR" "$PO_DIR/qbc.pot"
# xgettext takes the commas of a compound literal for separators of
# arguments and would skip the message that follows: QB_LOC() instead.
if grep -nE 'qb_(diag_(error|warning|note)|render_error|imp_skip|imp_lost)\( *\(qb_loc\) *\{[^}]*,' \
	"$ROOT"/compiler/*.c >"$T/loc.txt"; then
	fail "a diagnostic's location is a compound literal (xgettext misses its message): use QB_LOC()"
	sed 's/^/    /' "$T/loc.txt"
else
	pass "no diagnostic hides its message from xgettext behind a compound literal"
fi

# --- (c) every catalogue passes msgfmt --check ----------------------------
for po in "$PO_DIR"/*.po; do
	if msgfmt --check -o /dev/null "$po" 2>"$T/msgfmt.log"; then
		pass "msgfmt --check ${po#"$ROOT"/}"
	else
		fail "msgfmt --check ${po#"$ROOT"/}"; sed 's/^/    /' "$T/msgfmt.log"
	fi
done

# --- (d) the variables that choose the language ---------------------------
cd "$ROOT/tests/diag" || exit 2
for env in "LANGUAGE=fr" "LANG=C.UTF-8 LANGUAGE=fr" "LANG=C LANGUAGE=fr" "LANG=fr_FR.UTF-8" \
	"LC_ALL=fr_FR.UTF-8" "LC_MESSAGES=fr_FR.UTF-8" "LANG=en_US.UTF-8 LC_MESSAGES=fr_FR.UTF-8" \
	"LANGUAGE=fr:en LANG=de_DE.UTF-8"; do
	# shellcheck disable=SC2086
	as_user $env "$QBC" check dup-id.qb 2>"$T/env.out" >/dev/null
	$CHECK diag "$FR" "$env: French" dup-id.stderr "$T/env.out" >>"$results" 2>&1
done
count
for env in "LC_ALL=C LANGUAGE=fr" "LC_MESSAGES=C LANGUAGE=fr" "LANG=de_DE.UTF-8" ""; do
	# shellcheck disable=SC2086
	as_user $env "$QBC" check dup-id.qb 2>"$T/env.out" >/dev/null
	check "${env:-no variable}: English" cmp -s dup-id.stderr "$T/env.out"
done
# The tests speak English in a translator's environment.
quiet() { "$@" >/dev/null 2>&1; }
check "a suite run under LANGUAGE=fr LANG=fr_FR.UTF-8 still compares English" \
	quiet env LANGUAGE=fr LANG=fr_FR.UTF-8 LC_ALL=fr_FR.UTF-8 CASE=answer-empty sh "$ROOT/tests/diag/run.sh"

# Numbers keep their '.' in French: in messages, and read from the bank.
cat >"$T/num.qb" <<'QB'
bank: num
languages: en
title:
  en: Numbers

1. speed
type: numeric
en: How fast is sound in air, in m/s?
answer: 345..343.5
explanation:
  en: About 343 m/s at 20 degrees.
QB
num_checks() { # LABEL ENV...: the range message in French, with 343.5
	label=$1; shift
	as_user "$@" "$QBC" check "$T/num.qb" 2>"$T/num.err" >/dev/null
	check "$label: numbers keep their '.'" grep -q "(345 > 343.5) ; écrivez d'abord" "$T/num.err"
	sed -i 's/^answer: 345..343.5$/answer: 343.5/' "$T/num.qb"
	as_user "$@" "$QBC" dump --json "$T/num.qb" >"$T/num.json" 2>"$T/num.err"
	check "$label: '343.5' read and written as a number" grep -q '343.5' "$T/num.json"
	sed -i 's/^answer: 343.5$/answer: 345..343.5/' "$T/num.qb"
}
num_checks "LANG=fr_FR.UTF-8 (not installed)" LANG=fr_FR.UTF-8
# With a French locale installed (built here; glibc reads LOCPATH), where
# LC_NUMERIC would write 343,5 if qbc let it follow the environment.
mkdir -p "$T/loc"
if command -v localedef >/dev/null 2>&1 && [ -f /usr/share/i18n/locales/fr_FR ] &&
	localedef -i fr_FR -f UTF-8 "$T/loc/fr_FR.UTF-8" >/dev/null 2>&1 &&
	[ "$(env LOCPATH="$T/loc" LC_ALL=fr_FR.UTF-8 /usr/bin/printf '%.1f' 3.5)" = "3,5" ]; then
	num_checks "LC_ALL=fr_FR.UTF-8 (installed)" LOCPATH="$T/loc" LC_ALL=fr_FR.UTF-8
	num_checks "LANG=fr_FR.UTF-8 (installed)" LOCPATH="$T/loc" LANG=fr_FR.UTF-8
else
	echo "i18n: no French locale could be built (localedef, locales): the installed-locale case is not run"
fi

# --- (e) --help in French -------------------------------------------------
for cmd in "" check dump build review watch preview import; do
	"$QBC" $cmd --help >"$T/help.en" 2>&1
	as_user LANGUAGE=fr "$QBC" $cmd --help >"$T/help.fr" 2>&1
	$CHECK help "$FR" "qbc ${cmd:+$cmd }--help in French" "$T/help.en" "$T/help.fr" >>"$results" 2>&1
done
count
check "--help: the usage line stays as typed" sh -c "as_user() { env -u LC_MESSAGES \"\$@\"; };
	as_user LANGUAGE=fr '$QBC' build --help | grep -qx 'Utilisation : qbc build \[-o DIR\] \[--format LIST\] \[--lang LANGS\] \[--dry-run\] BANK...'"
as_user LANGUAGE=fr "$QBC" frobnicate 2>"$T/usage.fr"
check "a usage error in French" grep -qx "qbc : essayez 'qbc --help'" "$T/usage.fr"

# --- (f) qbc translate import in the user's language ----------------------
# The markup a translation broke is named in the user's language, and
# libgettextpo's own messages about a broken PO file keep their letters.
mkdir -p "$T/tr" && cd "$T/tr" || exit 2
printf '\211PNG\r\n\032\n' >a.png
cat >bank.qb <<'QB'
bank: tr
languages: en, fr
title:
  en: Markup
  fr: Balisage

1. gaps
type: cloze
en: Water boils at {{100}} degrees; see ![a dial](a.png)
fr: L'eau bout à {{100}} degrés ; voir ![un cadran](a.png)
explanation:
  en: At sea level.
  fr: Au niveau de la mer.
QB
"$QBC" translate export --lang sw -o bank.sw.po bank.qb >/dev/null 2>&1
# The translator dropped the picture.
awk '/^msgctxt "gaps\/prompt"/ { p = 1 } p && /^msgstr/ { print "msgstr \"Maji huchemka kwa nyuzi {{100}}\""; p = 0; next } { print }' \
	bank.sw.po >markup.po
check "translate: the PO file to break was written" grep -q 'nyuzi {{100}}' markup.po
"$QBC" translate import markup.po bank.qb >/dev/null 2>"$T/tr.en"
check "translate: the English transcript names the lost picture" grep -q "lacks '!\[…\](…) (a picture or sound)'" "$T/tr.en"
for L in fr sw ar; do
	as_user LANGUAGE=$L "$QBC" translate import markup.po bank.qb >/dev/null 2>"$T/tr.$L"
	$CHECK diag "$PO_DIR/$L.po" "translate import, broken markup, LANGUAGE=$L" "$T/tr.en" "$T/tr.$L" >>"$results" 2>&1
done
count
# (po_check.py's English words include Spanish and Portuguese ones: 'no'.)
for L in es pt; do
	as_user LANGUAGE=$L "$QBC" translate import markup.po bank.qb >/dev/null 2>"$T/tr.$L"
	check "translate import, broken markup, LANGUAGE=$L: no English reason" \
		sh -c "grep -q 'gaps/prompt' '$T/tr.$L' && ! grep -q 'the translation\\|a picture or sound\\|kept as they are' '$T/tr.$L'"
done
check "translate: the lost picture named in French" \
	grep -q "la traduction n'a pas '!\[…\](…) (une image ou un son)', présent dans la source" "$T/tr.fr"
# A PO file libgettextpo cannot parse: its message in French, in UTF-8.
sed 's/^msgstr "Maji huchemka kwa nyuzi {{100}}"$/msgstr "Maji huchemka/' markup.po >broken.po
if [ -f /usr/share/locale/fr/LC_MESSAGES/gettext-tools.mo ]; then
	as_user LANGUAGE=fr "$QBC" translate import broken.po bank.qb >/dev/null 2>"$T/po.fr"
	check "libgettextpo's message in French keeps its 'î' (not 'cha?ne')" \
		grep -q "erreur: .*chaîne" "$T/po.fr"
	check "libgettextpo's message: no letter turned into '?'" sh -c "! grep -q '[a-z]?[a-z]' '$T/po.fr'"
	as_user LANGUAGE=es "$QBC" translate import broken.po bank.qb >/dev/null 2>"$T/po.es"
	check "libgettextpo's message in Spanish keeps its 'í'" grep -q "línea" "$T/po.es"
else
	echo "i18n: gettext-tools has no French catalogue here: libgettextpo's messages are not checked"
fi
cd "$ROOT" || exit 2

# --- (g) French as French is written ---------------------------------------
# A message that names a text or part says it whole: "du titre", never
# "de le titre"; "l'option 2", "le commentaire de la paire 1".
mkdir -p "$T/gr" && cd "$T/gr" || exit 2
cat >g.qb <<'QB'
bank: grammar
languages: en, fr
title:
  en: The water cycle
  fr: Le cycle de l'eau

1. phase
en: Which phase change turns liquid water into vapour?
fr: Quel changement d'état transforme l'eau liquide en vapeur ?
* en: Evaporation
  fr: Évaporation
  > en: Yes: heat gives the molecules the energy to leave.
    fr: Yes: heat gives the molecules the energy to leave.
- en: Condensation
  fr: Condensation
explanation:
  en: Heat makes water evaporate, and the vapour rises.
  fr: Heat makes water evaporate, and the vapour rises.
QB
"$QBC" build -o out --format json g.qb >/dev/null 2>&1
sed -i 's/^  en: The water cycle$/  en: The cycle of water/' g.qb
"$QBC" check g.qb >/dev/null 2>"$T/gr.en"
as_user LANGUAGE=fr "$QBC" check g.qb >/dev/null 2>"$T/gr.fr"
check "grammar: the bank names a stale title, a copied explanation and feedback" sh -c "
	grep -q \"'fr' text of the bank's title may be stale\" '$T/gr.en' &&
	grep -q \"the 'fr' text of the explanation of question 'phase' is the same\" '$T/gr.en' &&
	grep -q \"the 'fr' text of the feedback of option 1 of question 'phase' is the same\" '$T/gr.en'"
$CHECK diag "$FR" "grammar: the bank's messages in French" "$T/gr.en" "$T/gr.fr" >"$results" 2>&1
count
check "fr: the stale title reads 'le titre de la banque : le texte ...'" \
	grep -q "le titre de la banque : le texte 'fr' est peut-être périmé" "$T/gr.fr"
check "fr: an option's feedback reads 'le commentaire de l'option 1'" \
	grep -q "le commentaire de l'option 1 de la question 'phase' : le texte 'fr' est identique" "$T/gr.fr"
cat "$T"/*.fr >"$T/all.fr"
check "fr: no 'de le', 'à le', 'de les', 'à les' in any French message" \
	sh -c "! grep -v '^ *[0-9]* |' '$T/all.fr' | grep -E '(^|[^[:alpha:]])(de|à) les? '"
# French puts 0 and 1 in the singular: no '0 formules', '1 ignorées'.
plural01() { grep -v '^ *[0-9]* |' "$1" | grep -E "(^|[^0-9.,])[01] [[:alpha:]éèê]+s([ ,;).]|$)"; }
if plural01 "$T/all.fr" >"$T/plural.txt"; then
	fail "fr: a count of 0 or 1 with a plural word"; sed 's/^/    /' "$T/plural.txt"
else
	pass "fr: no count of 0 or 1 with a plural word in the diagnostics"
fi
as_user LANGUAGE=fr "$QBC" translate export --lang fr -o g.fr.po g.qb >"$T/exp.fr" 2>/dev/null
check "fr: translate export counts '5 traduits, 1 périmé, 0 non traduit'" \
	grep -qx "g.qb : g.fr.po écrit, 6 textes à traduire en fr (5 traduits, 1 périmé, 0 non traduit)" "$T/exp.fr"
# One unit the bank does not have: 1 skipped, 1 unknown.
# (an option's unit is found by its text wherever its number went, so
# the unknown unit names a question the bank does not have)
sed 's/^msgctxt "phase\/option 2"$/msgctxt "gone\/option 2"/' g.fr.po >one.po
as_user LANGUAGE=fr "$QBC" translate import one.po g.qb >"$T/imp.fr" 2>/dev/null
check "fr: translate import counts '1 ignoré (0 modifié ..., 1 inconnu)'" grep -qx \
	"g.qb : textes 'fr' de one.po : 0 ajouté, 0 modifié, 5 inchangés, 1 ignoré (0 modifié dans la banque depuis l'export, 1 inconnu), 0 non traduit" \
	"$T/imp.fr"
check "fr: the revision record's counts agree too" \
	grep -qx "  fichier de suivi des révisions : 0 marqué à jour, 0 laissé périmé (fuzzy)" "$T/imp.fr"
cd "$ROOT" || exit 2

# --- (h) the catalogues as their speakers write them ------------------------
# What qbc shows on a terminal is "shown", not "printed" (the HTML
# file's worksheets are printed on paper: "para imprimir").
for pair in "es:imprim" "pt:imprim" "ar:اطبع\|يطبعه"; do
	L=${pair%%:*} word=${pair#*:}
	: >"$T/help.$L"
	for cmd in "" check dump review preview; do
		as_user LANGUAGE=$L "$QBC" $cmd --help >>"$T/help.$L" 2>&1
	done
	check "$L: --help shows, it does not print ('$word')" \
		sh -c "grep -q . '$T/help.$L' && ! grep -v 'para imprimir' '$T/help.$L' | grep -q '$word'"
done
as_user LANGUAGE=fr "$QBC" preview --help >"$T/help.fr" 2>&1
check "fr: --port's help says 'le suivant libre'" grep -q "8000 ou le suivant libre" "$T/help.fr"

finish
