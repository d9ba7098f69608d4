# tests/translate/bigpo.sh - sourced by run.sh (its helpers and counts):
# a PO file of more messages than libgettextpo is given at a time
# (QB_PO_READ_CHUNK, 4,096: translate_po.c reads a big file a chunk of
# whole messages at a time, the header before each): every message read
# once, in its charset, each diagnostic at its line of the whole file,
# and a message given twice in two chunks still an error.
B=$(tmpdir)
cd "$B" || exit 2
# 1,000 questions of 10 texts: 10,001 messages, three chunks.
awk 'BEGIN {
	print "bank: big\nlanguages: en\ntitle:\n  en: Big"
	for (i = 0; i < 1000; i++) {
		printf "%d. q-%d\n   en: Question %d: which option is right?\n", i + 1, i, i
		for (k = 0; k < 4; k++)
			printf "   %s en: Option %d of question %d\n     > en: Feedback %d for %d.\n", \
				(k == i % 4 ? "*" : "-"), k, i, k, i
		printf "   explanation:\n     en: Because of option %d.\n", i % 4
	}
}' >big.qb
cp big.qb orig.qb
"$QBC" translate export --lang fr big.qb >/dev/null 2>&1
check "big PO: 10,001 messages" test "$(grep -c '^msgctxt' big.fr.po)" = 10001
# Every message translated, "é" in each, a translator's comment on the
# header and on one message of the last chunk.
awk '/^msgid "/ { id = substr($0, 8) } /^msgstr ""$/ && id != "\"" { print "msgstr \"fr é " id; next }
     /^msgctxt "q-990\/prompt"$/ { print "# checked by Ana" } NR == 1 { print "# The team'\''s file" } { print }' \
	big.fr.po >filled.po
cp filled.po big.fr.po
"$QBC" build --format json -o built big.qb >/dev/null 2>&1 # the record
run "$QBC" translate import big.fr.po big.qb
check "big PO: exit 0" rc 0
check "big PO: every message read once" out_has "10001 added, 0 changed, 0 unchanged, 0 skipped"
check "big PO: the first message written" grep -qx '  fr: fr é Big' big.qb
check "big PO: a message of the last chunk written" grep -qx '     fr: fr é Because of option 3.' big.qb
check "big PO: every text written" test "$(grep -c '^ *fr: fr é ' big.qb)" = 10001
# Exported again over the translator's file: its comments kept.
"$QBC" translate export --lang fr big.qb >/dev/null 2>&1
check "big PO: the header's comment kept" grep -qx "# The team's file" big.fr.po
check "big PO: a comment in the last chunk kept" \
	sh -c "grep -B4 -x 'msgctxt \"q-990/prompt\"' big.fr.po | grep -qx '# checked by Ana'"
# The file is written a chunk of 2,048 messages at a time: every chunk in
# UTF-8 (a chunk written without a header lost every non-ASCII byte).
check "big PO: every translation written again whole, in UTF-8" \
	test "$(grep -c '^msgstr "fr é ' big.fr.po)" = 10001
rm big.fr.po
"$QBC" translate export --lang fr big.qb >/dev/null 2>"$T/err"
check "big PO, a new file: every translation in UTF-8" test "$(grep -c '^msgstr "fr é ' big.fr.po)" = 10001
check "big PO, a new file: no error" test ! -s "$T/err"
check "big PO, a new file: msgfmt --check accepts it" msgfmt --check -o /dev/null big.fr.po
# Written a part of the units at a time (QB_TU_PART, 2,048): the record's
# states in every part.  An English text of the last part changed: its
# translation stale, fuzzy; the others current.
"$QBC" build --format json -o built big.qb >/dev/null 2>&1 # the record has fr
sed -i 's/^   en: Question 900: which option is right?$/   en: Question 900: which option is the right one?/' big.qb
"$QBC" build --format json -o built big.qb >/dev/null 2>&1 # the record sees the change
run "$QBC" translate export --lang fr -o stale.po big.qb
check "big PO, a stale text in the last part: the report" \
	out_has "10001 texts to translate into fr (10000 translated, 1 stale, 0 untranslated)"
check "big PO, a stale text in the last part: fuzzy" \
	sh -c "grep -A4 -x '#, fuzzy' stale.po | grep -qx 'msgctxt \"q-900/prompt\"'"
check "big PO, a stale text in the last part: the only fuzzy one" test "$(grep -c '^#, fuzzy' stale.po)" = 1
# Reviewed (import --reviewed): every part's units say so.
run "$QBC" translate import --reviewed filled.po big.qb
run "$QBC" translate export --lang fr -o reviewed.po big.qb
check "big PO, reviewed: every text of every part but the stale one" \
	test "$(grep -c '^#\. reviewed$' reviewed.po)" = 10000
# The same file in Latin-1, as its header says: converted, every chunk.
cp orig.qb big.qb
sed 's/charset=UTF-8/charset=ISO-8859-1/' filled.po | iconv -f UTF-8 -t ISO-8859-1 >latin1.po
run "$QBC" translate import latin1.po big.qb
check "big Latin-1 PO: exit 0" rc 0
check "big Latin-1 PO: every message read" out_has "10001 added"
check "big Latin-1 PO: a text of the last chunk in UTF-8" grep -qx '     fr: fr é Because of option 3.' big.qb
# A plural message in the last chunk: located at its line of the file.
cp orig.qb big.qb
awk '/^msgctxt "q-995\/prompt"$/ { p = 1 } p && /^msgid / { print; print "msgid_plural \"Questions\""; next }
     p && /^msgstr / { print "msgstr[0] \"x\""; print "msgstr[1] \"y\""; p = 0; next } { print }' filled.po >plural.po
line=$(grep -nx 'msgctxt "q-995/prompt"' plural.po | cut -d: -f1)
run "$QBC" translate import plural.po big.qb
check "big PO, a plural message in the last chunk: exit 1" rc 1
check "big PO, a plural message in the last chunk: at its line" \
	err_has "plural.po:$line:1: error: 'q-995/prompt' is a plural message"
check "big PO, a plural message: reported once" test "$(grep -c 'is a plural message' "$T/err")" = 1
check "big PO, a plural message: nothing written" cmp -s big.qb orig.qb
# A syntax error in the last chunk: gettext's message at its line.
awk '/^msgctxt "q-996\/prompt"$/ { print "msgstr \"stray\""; n = NR } { print }' filled.po >broken.po
line=$(grep -nx 'msgstr "stray"' broken.po | cut -d: -f1)
run "$QBC" translate import broken.po big.qb
check "big PO, a syntax error in the last chunk: exit 1" rc 1
check "big PO, a syntax error in the last chunk: at its line of the file" err_has "broken.po:$line:"
check "big PO, a syntax error: nothing written" cmp -s big.qb orig.qb
# A message of the first chunk given again at the end: gettext's error.
{ cat filled.po; printf '\n'; sed -n '/^msgctxt "q-1\/prompt"$/,/^msgstr/p' filled.po; } >twice.po
line=$(grep -nx 'msgid "Question 1: which option is right?"' twice.po | tail -1 | cut -d: -f1)
run "$QBC" translate import twice.po big.qb
check "big PO, a message twice in two chunks: exit 1" rc 1
check "big PO, a message twice in two chunks: at its second msgid" \
	err_has "twice.po:$line:"
check "big PO, a message twice: gettext's words" err_has "duplicate message definition"
check "big PO, a message twice: nothing written" cmp -s big.qb orig.qb
cd "$T" || exit 2
