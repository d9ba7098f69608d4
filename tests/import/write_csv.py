#!/usr/bin/env python3
"""write_csv.py DUMP.json > BANK.csv: the bank of a `qbc dump --json` as a
spreadsheet in the layout input/README.md documents ("Bringing questions in
from a spreadsheet"), every language in its own columns.  Used by
tests/import and tests/banks for the round trip (README, "Round trip
through qbc's own Moodle XML")."""
import csv, json, sys

d = json.load(open(sys.argv[1], encoding="utf-8"))
L = d["languages"]
head = ["id", "type", "tags", "right", "unit"]
for l in L:
    head += ["prompt:" + l, "options:" + l, "feedback:" + l, "feedback-wrong:" + l, "explanation:" + l]
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(head)


def t(x, l):
    return (x or {}).get(l, "")


def num(x):
    return repr(float(x)).removesuffix(".0")


for q in d["questions"]:
    if q.get("params"):  # a sheet has no column for variables: left out
        continue
    ty, ch = q["type"], q.get("choices", [])
    right = ""
    if ty in ("single", "multiple", "short-answer"):
        right = " ".join(str(i + 1) for i, c in enumerate(ch) if c["correct"])
    elif ty == "true-false":
        right = "true" if q["answer"] else "false"
    elif ty == "numeric":
        a = q["answer"]
        if a["percent"]:
            right = "%s ± %s%%" % (num(a["value"]), num(round(a["tolerance"] / abs(a["value"]) * 100, 12)))
        elif a["tolerance"]:
            right = "%s ± %s" % (num(a["value"]), num(a["tolerance"]))
        else:
            right = num(a["value"])
    row = [q["id"], ty, " ".join(q["tags"]), right, q.get("unit") or ""]
    for l in L:
        if ty == "matching":
            opts = "\n".join((t(c["text"], l) + " " if c["text"] else "") + "=> " + t(c["match"], l) for c in ch)
        elif ty in ("single", "multiple", "short-answer"):
            opts = "\n".join(t(c["text"], l) for c in ch)
        else:
            opts = ""
        fb = "\n".join(t(c["feedback"], l) for c in ch) if ch and any(c["feedback"] for c in ch) else ""
        row += [t(q["prompt"], l), opts, fb, t(q.get("feedback_wrong"), l), t(q["explanation"], l)]
    w.writerow(row)
