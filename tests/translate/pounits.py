#!/usr/bin/python3
"""pounits.py FILE: one line per unit of a PO file, read with the
Translate Toolkit as a translator's tool reads it: "KEY|STATE|TARGET",
STATE "fuzzy" or "-" (line breaks in texts shown as \\n)."""
import signal
import sys
from translate.storage import po

signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (grep -q)

store = po.pofile.parsefile(sys.argv[1])
for u in store.units:
    if u.isheader():
        continue
    key = u.getcontext()
    state = "fuzzy" if u.isfuzzy() else "-"
    target = (u.target or "").replace("\n", "\\n")
    print(f"{key}|{state}|{target}")
