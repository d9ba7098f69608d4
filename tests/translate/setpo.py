#!/usr/bin/python3
"""setpo.py IN OUT KEY TARGET [KEY TARGET ...]: the PO file IN with the
msgstr of each unit whose msgctxt is KEY set to TARGET (a Python string
literal's escapes: \\n), written to OUT through the Translate Toolkit's
PO storage, as a translator's tool would."""
import sys
from translate.storage import po

src, dst, pairs = sys.argv[1], sys.argv[2], sys.argv[3:]
store = po.pofile.parsefile(src)
want = {pairs[i]: pairs[i + 1].encode().decode("unicode_escape").encode("latin-1").decode("utf-8")
        for i in range(0, len(pairs), 2)}
for u in store.units:
    key = u.getcontext()
    if key in want:
        u.target = want.pop(key)
if want:
    sys.exit("setpo.py: no such units: " + ", ".join(want))
with open(dst, "wb") as f:
    f.write(bytes(store))
