#!/usr/bin/python3
"""fillxlf.py IN OUT PREFIX: the XLIFF 2.0 file IN with every segment given
the target PREFIX + its source's text (units without placeholders) and the
state "translated", written to OUT, as a translator's tool would."""
import sys
import xml.etree.ElementTree as ET

NS = "urn:oasis:names:tc:xliff:document:2.0"
ET.register_namespace("", NS)
tree = ET.parse(sys.argv[1])
for seg in tree.iter(f"{{{NS}}}segment"):
    src = seg.find(f"{{{NS}}}source")
    trg = seg.find(f"{{{NS}}}target")
    if trg is None:
        trg = ET.SubElement(seg, f"{{{NS}}}target")
    trg.text = sys.argv[3] + (src.text or "")
    seg.set("state", "translated")
tree.write(sys.argv[2], encoding="UTF-8", xml_declaration=True)
