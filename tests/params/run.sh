#!/bin/sh
# tests/params/run.sh - parameterised questions (issue 38, compiler/params.c):
# the pool each question draws (ranges, steps, lists, formulas, 'where:',
# 'draws:', a table), that rebuilds draw the same numbers, every check at
# the variable or formula it is about, and '{h}' kept by translators.
. "$(dirname "$0")/../lib.sh"
T=$(tmpdir)
cd "$T" || exit 2
PY=/usr/bin/python3

head() { # ID: a bank's header
	printf 'bank: %s\nlanguages: en fr\ntitle:\n  en: P\n  fr: P\n\n' "$1"
}
cat >good.qb <<EOQ
$(head good)
1. falling-time
   type: numeric
   vars:
     h = 5..50 step 5
     g = 9.81
   where: h != 25
   en: A stone falls from {h} m. How many seconds until it lands?
   fr: Une pierre tombe de {h} m. Combien de secondes avant le sol ?
   answer: sqrt(2*h/g) ± 2%
   unit: s
   explanation:
     en: t = √(2 × {h} / {g}) ≈ {answer} s.
     fr: t = √(2 × {h} / {g}) ≈ {answer} s.

2. area
   vars:
     a = 2..9
     b = 2..9
     right = a*b
     w1 = a*b + a
     w2 = 2*(a+b)
     m = 0.5..2.5 decimals 1
     p = 2, 3, 5, 7
   where: a != b, a*b != 2*(a+b), a*b + a != 2*(a+b)
   draws: 12
   en: A rectangle is {a} cm by {b} cm. What is its area? ({m}, {p})
   fr: Un rectangle mesure {a} cm sur {b} cm. Quelle est son aire ? ({m}, {p})
   * en: {right} cm²
     fr: {right} cm²
   - en: {w1} cm²
     fr: {w1} cm²
   - en: {w2} cm²
     fr: {w2} cm²
   explanation:
     en: {a} × {b} = {right}; half is {=a*b/2}.
     fr: {a} × {b} = {right} ; la moitié : {=a*b/2}.

3. gap
   type: cloze
   vars:
     m = 0.5..2.5 decimals 1
     a = 2..9
     f = m*a decimals 1
   en: A force on {m} kg giving {a} m/s² is {{#{f} ± 0.1}} N.
   fr: Une force sur {m} kg donnant {a} m/s² vaut {{#{f} ± 0.1}} N.
   explanation:
     en: F = {m} × {a} = {f} N, \$F = {m} \\times {a}\$.
     fr: F = {m} × {a} = {f} N, \$F = {m} \\times {a}\$.

4. table
   type: numeric
   vars:
     x = 1..9
     y = 2*x
   draws:
     x
     3
     5
   en: Twice {x}?
   fr: Le double de {x} ?
   answer: y
   explanation:
     en: {y}.
     fr: {y}.
EOQ
run "$QBC" check good.qb
check "a bank of parameterised questions has no problem" rc 0
check "  and says so" out_has "good: 4 questions in en, fr: no problems"
"$QBC" dump --json good.qb >good.json
check "pools as their definitions say" $PY - good.json <<'EOP'
import json, math, sys
qs = json.load(open(sys.argv[1]))["questions"]
fall, area, gap, table = (q["params"] for q in qs)
# h: 5..50 step 5 but 25: 9 draws (the default asks up to 20), all different
hs = [d["h"] for d in fall["pool"]]
assert sorted(hs) == [5, 10, 15, 20, 30, 35, 40, 45, 50], hs
for d in fall["pool"]:
    assert abs(d["answer"] - math.sqrt(2 * d["h"] / 9.81)) < 1e-12, d
# the question's own answer: draw 0's, tolerance 2%
a0 = qs[0]["answer"]
assert abs(a0["value"] - fall["pool"][0]["answer"]) < 1e-12 and abs(a0["max"] - a0["value"] * 1.02) < 1e-9
assert len(area["pool"]) == 12
seen = set()
for d in area["pool"]:
    a, b = d["a"], d["b"]
    assert a != b and a * b != 2 * (a + b) and 2 <= a <= 9 and 2 <= b <= 9 and a == int(a)
    assert d["right"] == a * b and d["w1"] == a * b + a and d["w2"] == 2 * (a + b)
    assert 0.5 <= d["m"] <= 2.5 and round(d["m"], 1) == d["m"], d
    assert d["p"] in (2, 3, 5, 7)
    assert d["a*b/2"] == round(a * b / 2, 2)
    seen.add((a, b, d["m"], d["p"]))
assert len(seen) == 12
for d in gap["pool"]:  # values are rounded before formulas use them
    assert d["f"] == round(d["m"] * d["a"], 1), d
assert [(d["x"], d["y"], d["answer"]) for d in table["pool"]] == [(3, 6, 6), (5, 10, 10)]
EOP
"$QBC" dump --json good.qb >again.json
check "a second read draws the same pools" cmp -s good.json again.json
sed 's/^2\. area$/2. area2/' good.qb >renamed.qb
"$QBC" dump --json renamed.qb >renamed.json
check "another question id, another pool; the other questions keep theirs" $PY - good.json renamed.json <<'EOP'
import json, sys
a, b = (json.load(open(f))["questions"] for f in sys.argv[1:])
assert a[0]["params"]["pool"] == b[0]["params"]["pool"]
assert a[1]["params"]["pool"] != b[1]["params"]["pool"]
EOP

# Every check, located.
cat >bad.qb <<EOQ
$(head bad)
1. formulas
   type: numeric
   vars:
     x = 0..10
     z = foo(x) + q
     w = x % 2
     v = 2*
     u = later + 1
     later = 3
     x = 4
     answer = 2
     r = 9..1
   en: What is {x} and {nope}?
   fr: Quoi {x} ?
   answer: x
   explanation:
     en: yes
     fr: oui

2. infinite
   type: numeric
   vars:
     x = 0..10
   en: {x}?
   fr: {x} ?
   answer: 1 / x
   explanation:
     en: yes
     fr: oui

3. none-meets
   type: numeric
   vars:
     x = 0..10
   where: x > 20
   en: {x}?
   fr: {x} ?
   answer: x
   explanation:
     en: yes
     fr: oui

4. too-few
   type: numeric
   vars:
     x = 1..3
   draws: 5
   en: {x}?
   fr: {x} ?
   answer: x
   explanation:
     en: yes
     fr: oui

5. coincide
   vars:
     a = 2..9
     b = 2..9
   where: a != b
   en: {a} by {b}?
   fr: {a} sur {b} ?
   * en: {=a+b}
     fr: {=a+b}
   - en: {=b+a}
     fr: {=b+a}
   explanation:
     en: yes
     fr: oui
EOQ
run "$QBC" check bad.qb
check "errors: exit 1" rc 1
check "a formula that does not parse, at it" err_has "bad.qb:10:10: error: the formula 'foo(x) + q' does not parse"
check "a character no formula has, at it" err_has "bad.qb:11:12: error: '%' is not part of a formula"
check "an unfinished formula" err_has "bad.qb:12:10: error: the formula '2*' does not parse"
check "a variable used above its definition" err_has "bad.qb:13:10: error: 'later' is defined below this formula"
check "a variable defined twice" err_has "bad.qb:15:6: error: the variable 'x' is defined twice; the first is on line 9"
check "'answer' is no variable name" err_has "bad.qb:16:6: error: 'answer' is the name of the question's answer"
check "a range backwards" err_has "bad.qb:17:10: error: a range goes from the smaller number to the larger"
check "an unknown variable in a text, at its brace" err_has "bad.qb:18:24: error: unknown variable 'nope'"
check "a draw that gives no number, with its values" err_has "bad.qb:31:12: error: for x = 0 this formula gives no number; leave such draws out with 'where:'"
check "conditions no draw meets" err_has "bad.qb:40:11: error: no draw of the variables meets these conditions"
check "a pool smaller than asked" err_has "bad.qb:52:4: error: 'draws: 5' asks for more draws than the variables give: 3 different ones meet the conditions"
check "options that coincide in a draw, with its values" err_has "error: options 1 and 2 both read"
check "  at the second option" err_has "bad.qb:69:4: error: options 1 and 2"
check "no libmatheval noise on stdout" test ! -s "$T/out"

# a condition cut short at its comparison (the fuzzer's find: read past it)
cat >cut.qb <<EOQ
$(head cut)
1. cut
   type: numeric
   vars:
     x = 1..9
   where: x <
   en: {x}?
   fr: {x} ?
   answer: x
   explanation:
     en: yes
     fr: oui
EOQ
run "$QBC" check cut.qb
check "a condition without its right side: an error at it" err_has "cut.qb:10:11: error: a condition compares two formulas"

# a condition leaves out the draws that would give no number
sed -e '/^2\. infinite$/,/^3\./s/^   answer: 1 \/ x$/   where: x != 0\n   answer: 1 \/ x/' bad.qb >where.qb
run "$QBC" check where.qb
check "'where:' leaves out the draw that gives no number" sh -c "! grep -q 'bad.qb:33\|where.qb:3[34]:.*gives no number' '$T/err'"

# Translators keep '{h}'.
"$QBC" translate export --lang fr -o fr.po good.qb >/dev/null 2>&1
check "the PO file tells the translator to keep the drawn numbers" grep -q "Numbers drawn for each learner, {h}" fr.po
$PY - fr.po <<'EOP'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
s = s.replace('msgstr "Une pierre tombe de {h} m. Combien de secondes avant le sol ?"',
              'msgstr "Une pierre tombe de haut. Combien de secondes avant le sol ?"')
open(sys.argv[1], "w", encoding="utf-8").write(s)
EOP
cp good.qb imp.qb
run "$QBC" translate import fr.po imp.qb
check "a translation without '{h}' is refused" rc 1
check "  saying which piece it lacks" err_has "lacks '{h}'"
# a translation that keeps '{h}' is written into the bank, whose variables stay
"$QBC" translate export --lang fr -o fr2.po good.qb >/dev/null 2>&1
$PY - fr2.po <<'EOP'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
s = s.replace('msgstr "Une pierre tombe de {h} m. Combien de secondes avant le sol ?"',
              'msgstr "Une pierre chute de {h} m. Combien de secondes avant le sol ?"')
open(sys.argv[1], "w", encoding="utf-8").write(s)
EOP
cp good.qb imp2.qb
run "$QBC" translate import fr2.po imp2.qb
check "a translation that keeps '{h}' is imported" rc 0
check "  into the bank" grep -q "fr: Une pierre chute de {h} m" imp2.qb
"$QBC" dump --json imp2.qb >imp2.json
check "  whose pools are those of before" $PY -c "
import json, sys
a, b = (json.load(open(f))['questions'] for f in ('good.json', 'imp2.json'))
assert [q.get('params') for q in a] == [q.get('params') for q in b]"
"$QBC" translate export --lang fr --format xliff -o fr.xlf good.qb >/dev/null 2>&1
check "XLIFF: '{h}' is a protected placeholder" grep -q 'subType="qbc:var"' fr.xlf
finish
