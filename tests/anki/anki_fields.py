#!/usr/bin/env python3
"""tests/anki/anki_fields.py COLLECTION - recompute every note's sfld and
csum the way Anki 2.1.16 does (anki/utils.py stripHTMLMedia, fieldChecksum;
anki/collection.py updateFieldCache) and compare them with the stored
values.  The regular expressions are Anki's own.
tests/anki/anki_fields.py --strip CASES RESULTS - the same for single
texts run through qbc's implementation (tests/tools/anki_strip.c).  Prints one line per
mismatch and a summary; exits 1 on any mismatch."""
import html.entities
import re
import sqlite3
import sys
from hashlib import sha1

reComment = re.compile("(?s)<!--.*?-->")
reStyle = re.compile("(?si)<style.*?>.*?</style>")
reScript = re.compile("(?si)<script.*?>.*?</script>")
reTag = re.compile("(?s)<.*?>")
reEnts = re.compile(r"&#?\w+;")
reMedia = re.compile("(?i)<img[^>]+src=[\"']?([^\"'>]+)[\"']?[^>]*>")


def entsToTxt(s):
    s = s.replace("&nbsp;", " ")

    def fixup(m):
        text = m.group(0)
        if text[:2] == "&#":
            try:
                if text[:3] == "&#x":
                    return chr(int(text[3:-1], 16))
                return chr(int(text[2:-1]))
            except ValueError:
                pass
        else:
            try:
                text = chr(html.entities.name2codepoint[text[1:-1]])
            except KeyError:
                pass
        return text

    return reEnts.sub(fixup, s)


def stripHTML(s):
    s = reComment.sub("", s)
    s = reStyle.sub("", s)
    s = reScript.sub("", s)
    s = reTag.sub("", s)
    return entsToTxt(s)


def stripHTMLMedia(s):
    return stripHTML(reMedia.sub(" \\1 ", s))


def fieldChecksum(data):
    return int(sha1(stripHTMLMedia(data).encode("utf-8")).hexdigest()[:8], 16)


def strip_cases(cases_path, got_path):
    """Compares qbc's output for each case (checksum TAB stripped text,
    from tests/tools/anki_strip.c) with Anki's."""
    cases = open(cases_path, encoding="utf-8").read().splitlines()
    got = open(got_path, encoding="utf-8").read().splitlines()
    bad = 0
    if len(cases) != len(got):
        print(f"{len(cases)} cases but {len(got)} results")
        sys.exit(1)
    for case, line in zip(cases, got):
        html = case.replace("\\n", "\n")
        want = f"{fieldChecksum(html)}\t{stripHTMLMedia(html)}".replace("\n", "\\n")
        if line != want:
            bad += 1
            print(f"case {case!r}:\n  qbc  {line!r}\n  anki {want!r}")
    print(f"{len(cases)} cases, {bad} mismatches")
    sys.exit(1 if bad else 0)


def main():
    if sys.argv[1] == "--strip":
        strip_cases(sys.argv[2], sys.argv[3])
    db = sqlite3.connect(sys.argv[1])
    import json
    models = json.loads(db.execute("select models from col").fetchone()[0])
    bad = 0
    n = 0
    for nid, mid, flds, sfld, csum in db.execute("select id, mid, flds, sfld, csum from notes"):
        fields = flds.split("\x1f")
        sortf = models[str(mid)]["sortf"]
        want_sfld = stripHTMLMedia(fields[sortf])
        want_csum = fieldChecksum(fields[0])
        n += 1
        if str(sfld) != want_sfld:
            bad += 1
            print(f"note {nid}: sfld {sfld!r} != {want_sfld!r}")
        if csum != want_csum:
            bad += 1
            print(f"note {nid}: csum {csum} != {want_csum}")
    print(f"{n} notes, {bad} mismatches")
    sys.exit(1 if bad or not n else 0)


main()
