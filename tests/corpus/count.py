#!/usr/bin/env python3
"""count.py FILE: the questions in a question file, counted by each
format's own simple rules and without qbc, so that the corpus suite can
hold qbc's import to them.  Prints two numbers: the questions and, apart,
the descriptions (text shown between questions, which Moodle keeps as a
question of type 'description').

- Moodle XML: every <question type="..."> of <quiz> but "category";
  "description" counted apart.
- GIFT (Moodle's rules): comment lines ('//') dropped, the rest cut into
  blocks at blank lines; a block that is only '$CATEGORY:' lines is a
  category; a block with an unescaped '{' is a question ('{}', an essay,
  too); any other block is a description.
- Aiken: the 'ANSWER:' lines.
- CSV/TSV: the rows after the header that hold any cell.
"""
import csv
import re
import sys
import xml.etree.ElementTree as ET


def moodle_xml(data):
    root = ET.fromstring(data)
    q = d = 0
    # the quiz's own <question> elements: a question may hold another
    # element named so (gapfill's <question>31</question>)
    for el in root.findall("question"):
        t = el.get("type", "")
        if t == "category":
            continue
        if t == "description":
            d += 1
        else:
            q += 1
    return q, d


def gift(text):
    lines = [l for l in text.splitlines() if not l.lstrip().startswith("//")]
    blocks, cur = [], []
    for l in lines + [""]:
        if l.strip():
            cur.append(l)
        elif cur:
            blocks.append(cur)
            cur = []
    q = d = 0
    for b in blocks:
        rest = [l for l in b if not l.lstrip().startswith("$CATEGORY:")]
        if not rest:
            continue
        if re.search(r"(?<!\\)\{", "\n".join(rest)):
            q += 1
        else:
            d += 1
    return q, d


def aiken(text):
    return sum(1 for l in text.splitlines() if l.strip().upper().startswith("ANSWER:")), 0


def table(text, delim):
    rows = [r for r in csv.reader(text.splitlines(), delimiter=delim) if any(c.strip() for c in r)]
    return max(len(rows) - 1, 0), 0


def main(path):
    data = open(path, "rb").read()
    text = data.decode("utf-8-sig")
    low = path.lower()
    if text.lstrip().startswith("<"):
        return moodle_xml(data)
    if low.endswith(".csv"):
        return table(text, ",")
    if low.endswith(".tsv"):
        return table(text, "\t")
    if re.search(r"^ANSWER:", text, re.M | re.I) and not re.search(r"(?<!\\)\{", text):
        return aiken(text)
    return gift(text)


if __name__ == "__main__":
    q, d = main(sys.argv[1])
    print(q, d)
