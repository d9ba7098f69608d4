#!/usr/bin/env python3
"""write_gift.py DUMP.json > BANK.gift: the bank of a `qbc dump --json` as
a GIFT file in Moodle's documented syntax, in the bank's default language
(GIFT has one language a file).  Every text is [markdown] with GIFT's
escapes; a line break is '\\n' (a blank line would end the question).  A
cloze question of more than one gap has no GIFT form (the missing-word form
has one), nor has a question with drawn numbers ('vars:'): they are left
out, with a comment.  Used by tests/banks for the
round trip of the shipped banks (README, "Round trip through qbc's own
Moodle XML")."""
import json, sys

d = json.load(open(sys.argv[1], encoding="utf-8"))
L = d.get("default_language") or d["languages"][0]


def e(s):
    """GIFT's escapes, and a line break as \\n."""
    for c in "\\~=#{}:":
        s = s.replace(c, "\\" + c)
    return s.replace("\n", "\\n")


def t(x):
    return (x or {}).get(L, "")


def fb(c, q=None):
    """#feedback; a wrong choice without its own shows the question's
    feedback-wrong, as in qbc's Moodle XML (GIFT has no place for it)."""
    f = c.get("feedback")
    if not f and q and not c["correct"] and q["type"] in ("single", "multiple"):
        f = q.get("feedback_wrong")
    return "#" + e(t(f)) if f else ""


def num(x):
    return repr(float(x)).removesuffix(".0")


out = sys.stdout
out.write("// written by tests/import/write_gift.py from the bank '%s', language %s\n\n" % (d["id"], L))
for q in d["questions"]:
    if q.get("params"):  # GIFT has no variables: nor does a teacher's GIFT file
        out.write("// %s: drawn numbers, which GIFT cannot say: left out\n\n" % q["id"])
        continue
    ty, ch = q["type"], q.get("choices", [])
    prompt, after = t(q["prompt"]), None
    if ty == "single":
        ans = [("=" if c["correct"] else "~") + e(t(c["text"])) + fb(c, q) for c in ch]
    elif ty == "multiple":
        k = sum(c["correct"] for c in ch)
        w = 100 / k
        bad = -100 if q["scoring"] == "all-or-nothing" else -w
        ans = ["~%" + num(w if c["correct"] else bad) + "%" + e(t(c["text"])) + fb(c, q) for c in ch]
    elif ty == "true-false":
        ok, no = (ch[0], ch[1]) if q["answer"] else (ch[1], ch[0])
        # {T#feedback when answered wrong#feedback when answered right}
        ans = ["TRUE" if q["answer"] else "FALSE", fb(no) or "#", fb(ok)]
    elif ty == "short-answer":
        ans = [("=" if c["correct"] else "=%0%") + e(t(c["text"])) + fb(c) for c in ch]
    elif ty == "numeric":
        a = q["answer"]
        ans = ["#" + num(a["value"]) + ":" + num(a["tolerance"])]
    elif ty == "matching":
        ans = ["=" + e(t(c["text"])) + " -> " + e(t(c["match"])) for c in ch]
    elif ty == "cloze":
        gaps = (q.get("gaps") or {}).get(L, [])
        text = t(q["prompt"])
        if len(gaps) != 1:
            out.write("// %s: a cloze question of %d gaps has no GIFT form\n\n" % (q["id"], len(gaps)))
            continue
        i, j = text.index("{{"), text.index("}}") + 2
        prompt, after = text[:i], text[j:]
        g = gaps[0]
        if g["kind"] == "choice":
            ans = [("=" if k == g["right"] else "~") + e(a) for k, a in enumerate(g["answers"])]
        else:
            ans = ["=" + e(a) for a in g["answers"]]
    else:
        sys.exit("write_gift.py: unknown type " + ty)
    sep = "" if ty in ("true-false", "numeric") else "\n"
    block = "{%s%s\n####%s}" % (sep, sep.join(ans), e(t(q["explanation"])))
    title = "::%s::[markdown]" % e(q["id"])
    if after is None:
        out.write("%s%s %s\n\n" % (title, e(prompt), block))
    else:
        out.write("%s%s %s %s\n\n" % (title, e(prompt), block, e(after)))
