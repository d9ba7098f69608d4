#!/usr/bin/env python3
"""same_model.py A.json B.json [title] [media]: two `qbc dump --json` outputs
describe the same model, but for each question's source position and, when
asked, the bank's title and the file names of pictures (media/<name>.<ext>).
Prints a diff and exits 1 when they differ."""
import difflib, json, re, sys

def norm(path, drop_title, media):
    d = json.load(open(path))
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
x, y = (norm(p, "title" in opts, "media" in opts) for p in (a, b))
if x != y:
    print("\n".join(difflib.unified_diff(x, y, a, b, lineterm="", n=1)))
    sys.exit(1)
