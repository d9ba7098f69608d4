# tests/translate/passage.sh - sourced by run.sh: a passage's text is a
# unit of its own ('passage-<id>'), an edit of its source makes the
# translation stale (fuzzy), and an import writes it back in place.
P="$T/passage"
mkdir -p "$P"
cat >"$P/bank.qb" <<'EOB'
bank: tr-passage
languages: en fr
title:
  en: Reading
  fr: Lecture

passage: lighthouse
  en: The keeper lived alone on the rock for twenty years.
  fr: Le gardien vécut seul sur le rocher pendant vingt ans.

1. keeper-years
   passage: lighthouse
   en: How long did the keeper live on the rock?
   fr: Combien de temps le gardien vécut-il sur le rocher ?
   * en: Twenty years
     fr: Vingt ans
   - en: Two years
     fr: Deux ans
   explanation:
     en: The text says twenty years.
     fr: Le texte dit vingt ans.
EOB
run "$QBC" build -o "$P/out" --format json "$P/bank.qb"
check "passage: the bank builds" rc 0
run "$QBC" translate export --lang fr -o "$P/fr.po" "$P/bank.qb"
check "passage: export exit 0" rc 0
check "passage: its text is the unit 'passage-lighthouse'" \
	sh -c "grep -A2 -x 'msgctxt \"passage-lighthouse\"' '$P/fr.po' | grep -qF 'Le gardien vécut seul'"
sed -i 's/for twenty years/for twenty-one years/' "$P/bank.qb"
run "$QBC" build -o "$P/out" --format json "$P/bank.qb"
check "passage: an edit of its text changes its questions (Anki and SCORM updates)" \
	out_has "0 added, 1 changed (keeper-years), 0 removed"
check "passage: an edit of its source warns that the French text may be stale" \
	err_has "'fr' text of passage 'lighthouse' may be stale"
rm -f "$P/fr.po"
run "$QBC" translate export --lang fr -o "$P/fr.po" "$P/bank.qb"
check "passage: the edited passage is exported fuzzy" \
	sh -c "grep -B1 -x 'msgctxt \"passage-lighthouse\"' '$P/fr.po' | grep -qx '#, fuzzy'"
# The translator's work: the new source translated, the fuzzy mark gone.
sed -i -e '/^#, fuzzy$/ { N; /\nmsgctxt "passage-lighthouse"$/ s/^#, fuzzy\n//; }' "$P/fr.po"
sed -i -e 's/pendant vingt ans\./pendant vingt et un ans./' "$P/fr.po"
run "$QBC" translate import "$P/fr.po" "$P/bank.qb"
check "passage: import exit 0" rc 0
check "passage: the translation is written in place" \
	grep -qx '  fr: Le gardien vécut seul sur le rocher pendant vingt et un ans.' "$P/bank.qb"
run "$QBC" check "$P/bank.qb"
check "passage: the imported translation is current" err_lacks "text of passage 'lighthouse' may be stale"
