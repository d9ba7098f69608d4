#!/usr/bin/python3
"""fillpo.py IN OUT PREFIX [FUZZY-KEY ...]: the PO file IN (as qbc
translate export writes it: one-line strings) with every unit's msgstr
set to PREFIX and its msgid, the units whose msgctxt is one of the
FUZZY-KEYs marked fuzzy and the others not, written to OUT: what a
translator hands back."""
import re
import sys


def fill(text, prefix, fuzzy):
    out = []
    for block in text.split("\n\n"):
        ctx = re.search(r'^msgctxt "(.*)"$', block, re.M)
        if not ctx:
            out.append(block)
            continue
        msgid = re.search(r'^msgid "(.*)"$', block, re.M).group(1)
        lines = [l for l in block.split("\n")
                 if not l.startswith(("#, fuzzy", "#|", "msgstr"))]
        if ctx.group(1) in fuzzy:
            i = next(i for i, l in enumerate(lines) if l.startswith("msgctxt"))
            lines.insert(i, "#, fuzzy")
        lines.append('msgstr "%s%s"' % (prefix, msgid))
        out.append("\n".join(lines))
    return "\n\n".join(out)


if __name__ == "__main__":
    src, dst, prefix = sys.argv[1:4]
    with open(src, encoding="utf-8") as f:
        text = f.read()
    with open(dst, "w", encoding="utf-8") as f:
        f.write(fill(text, prefix, set(sys.argv[4:])))
