#!/usr/bin/env python3
"""same_model.py A.json B.json [title] [media] [answers]: two `qbc dump --json`
outputs describe the same model, but for each question's source position
and, when asked, the bank's title and the file names of pictures
(media/<name>.<ext>).  With "answers", only what Moodle XML carries of every
bank whatever its Markdown (README, "Round trip through qbc's own Moodle
XML") is compared: each question's id, type, tags, which options are
right, the true-false answer, the numeric interval and unit, case
sensitivity, and the pairs of a matching question.  Prints a diff and exits
1 when they differ."""
import difflib, json, re, sys

def answers(d):
    keep = []
    for q in d["questions"]:
        k = {key: q.get(key) for key in ("id", "type", "tags", "unit", "case_sensitive")}
        if q["type"] in ("single", "multiple", "true-false"):
            k["right"] = [c["correct"] for c in q["choices"]]
        if q["type"] == "true-false":
            k["answer"] = q["answer"]
        if q["type"] == "numeric":
            k["interval"] = [round(q["answer"]["min"], 9), round(q["answer"]["max"], 9)]
        if q["type"] == "matching":
            k["pairs"] = [(c["text"], c["match"]) for c in q["choices"]]
        keep.append(k)
    return {"questions": keep}

def norm(path, drop_title, media, only_answers=False):
    d = json.load(open(path))
    if only_answers:
        d = answers(d)
        return json.dumps(d, indent=1, sort_keys=True, ensure_ascii=False).splitlines()
    for q in d["questions"]:
        q.pop("source")
    if drop_title:
        d.pop("title")
    s = json.dumps(d, indent=1, sort_keys=True, ensure_ascii=False)
    if media:
        s = re.sub(r"media/[A-Za-z0-9_.-]+\.([a-z0-9]+)", r"media/FILE.\1", s)
    return s.splitlines()

a, b = sys.argv[1], sys.argv[2]
opts = sys.argv[3:]
x, y = (norm(p, "title" in opts, "media" in opts, "answers" in opts) for p in (a, b))
if x != y:
    print("\n".join(difflib.unified_diff(x, y, a, b, lineterm="", n=1)))
    sys.exit(1)
