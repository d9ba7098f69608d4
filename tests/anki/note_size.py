#!/usr/bin/env python3
"""tests/anki/note_size.py PACKAGE.apkg - how lean the notes are (issue 12).

For every note: the bytes of its fields (all of them, as stored) and the
bytes of the texts it shows (the visible text of its fields: tags removed,
entities decoded, white space collapsed; the hidden ID field and attribute
values are not text).  Prints the mean and the largest ratio; with
--max R exits 1 when a note's ratio exceeds R."""
import html
import re
import sqlite3
import sys
import tempfile
import zipfile

TAG = re.compile(r"(?s)<[^>]*>")


def shown(field):
    return re.sub(r"\s+", " ", html.unescape(TAG.sub(" ", field))).strip()


def main():
    args = sys.argv[1:]
    limit = None
    if args[:1] == ["--max"]:
        limit = float(args[1])
        args = args[2:]
    with zipfile.ZipFile(args[0]) as z, tempfile.NamedTemporaryFile(suffix=".db") as db:
        db.write(z.read("collection.anki2"))
        db.flush()
        rows = sqlite3.connect(db.name).execute("select flds from notes").fetchall()
    ratios, total_f, total_t = [], 0, 0
    for (flds,) in rows:
        fields = flds.split("\x1f")
        f = len(flds.encode())
        t = sum(len(shown(x).encode()) for x in fields[1:])  # fields[0]: the hidden ID
        total_f += f
        total_t += t
        ratios.append(f / t if t else 0)
    print(f"notes {len(rows)} field bytes {total_f} text bytes {total_t} "
          f"mean {total_f / max(total_t, 1):.2f} max {max(ratios, default=0):.2f}")
    if limit is not None and max(ratios, default=0) > limit:
        sys.exit(1)


main()
