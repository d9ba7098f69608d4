#!/usr/bin/env python3
"""tests/anki/draws.py PACKAGE.apkg - the notes of tests/anki/draws.qb's
parameterised questions (issue 38), read from the package as Anki stores
them and checked against the bank's formulas recomputed here: each note
shows the pool's first draw in its fields and holds the pool in its Draws
field (HTML-escaped JSON: draw k's fields where they differ from draw
0's).  Prints one line per case, "ok NAME" or "FAIL NAME: why"; exits 1
on any failure."""
import html
import json
import math
import re
import sqlite3
import sys
import tempfile
import zipfile

DRAWN_FIELDS = ["ID", "Lang", "Question", "Options", "Explanation", "Translation", "Extra", "Draws"]
TAG = re.compile(r"(?s)<[^>]*>")
failures = 0


def case(name, ok, why=""):
    global failures
    if ok:
        print(f"ok {name}")
    else:
        failures += 1
        print(f"FAIL {name}: {why}")


def text(h):
    """The visible text of an HTML fragment."""
    return re.sub(r"\s+", " ", html.unescape(TAG.sub(" ", h))).strip()


def main():
    with zipfile.ZipFile(sys.argv[1]) as z, tempfile.NamedTemporaryFile(suffix=".db") as f:
        f.write(z.read("collection.anki2"))
        f.flush()
        db = sqlite3.connect(f.name)
        models = json.loads(db.execute("select models from col").fetchone()[0])
        rows = db.execute("select mid, flds from notes").fetchall()
    by_name = {m["name"]: m for m in models.values()}
    drawn = by_name.get("qbc drawn")
    case("a 'qbc drawn' note type", drawn is not None, f"note types: {sorted(by_name)}")
    if not drawn:
        return
    case("its fields: the quiz type's, then Draws", [x["name"] for x in drawn["flds"]] == DRAWN_FIELDS,
         [x["name"] for x in drawn["flds"]])
    case("its template 'Quiz', the front hides Draws",
         [t["name"] for t in drawn["tmpls"]] == ["Quiz"] and
         '<div class="qb-draws" hidden>{{Draws}}</div>' in drawn["tmpls"][0]["qfmt"] and
         "{{FrontSide}}" in drawn["tmpls"][0]["afmt"], drawn["tmpls"][0]["qfmt"])
    notes = {}
    kind = {}
    for mid, flds in rows:
        m = models[str(mid)]
        vals = flds.split("\x1f")
        fields = dict(zip([x["name"] for x in m["flds"]], vals))
        case(f"{fields['ID']}: field count", len(vals) == len(m["flds"]), len(vals))
        notes[fields["ID"]] = fields
        kind[fields["ID"].split(":")[1]] = m["name"]
    case("parameterised questions use it, the plain one the quiz type",
         kind == {"falling-time": "qbc drawn", "area-choice": "qbc drawn", "mass-weight": "qbc drawn",
                  "hostile": "qbc drawn", "plain": "qbc quiz"}, kind)

    def draws(qid, lang):
        """Every draw's fields: draw 0 the note's, draw k the note's with
        Draws[k] in place."""
        n = notes[f"anki-draws:{qid}:{lang}"]
        raw = n["Draws"]
        case(f"{qid}:{lang}: Draws is HTML text, no markup", "<" not in raw and ">" not in raw, raw[:80])
        pool = json.loads(html.unescape(raw))
        case(f"{qid}:{lang}: Draws is a list, draw 0 the fields", isinstance(pool, list) and pool[0] == {},
             str(pool)[:80])
        key = {"q": "Question", "o": "Options", "e": "Explanation", "t": "Translation"}
        out = []
        for d in pool:
            f = dict(n)
            for k, v in d.items():
                f[key[k]] = v
            out.append(f)
        return out

    def lohi(options):
        m = re.search(r'data-lo="([^"]+)" data-hi="([^"]+)"', options)
        return (float(m.group(1)), float(m.group(2))) if m else (None, None)

    def ok_option(options):
        m = re.search(r"<li data-ok[^>]*>(.*?)</li>", options)
        return text(m.group(1)) if m else None

    # 1. falling-time: h, the answer sqrt(2h/g) within 2%, in both languages.
    g = 9.81
    for lang, mark, said in (("en", ".", r"falls from (\d+) m"), ("fr", ",", r"tombe de (\d+) m")):
        ds = draws("falling-time", lang)
        hs = []
        bad = []
        for k, f in enumerate(ds):
            m = re.search(said, text(f["Question"]))
            if not m:
                bad.append(f"draw {k}: no h in {text(f['Question'])!r}")
                continue
            h = int(m.group(1))
            hs.append(h)
            v = math.sqrt(2 * h / g)
            lo, hi = lohi(f["Options"])
            shown = f"{v:.2f}".replace(".", mark)
            if not (5 <= h <= 50 and h % 5 == 0):
                bad.append(f"draw {k}: h = {h}")
            if lo is None or not (lo <= v <= hi) or abs((hi - lo) - 0.04 * v) > 0.002 * v + 1e-9:
                bad.append(f"draw {k}: h {h}, answer {v}, accepted [{lo}, {hi}]")
            if ok_option(f["Options"]) != f"{shown} ± 2%":
                bad.append(f"draw {k}: accepted answer shown {ok_option(f['Options'])!r}, not {shown} ± 2%")
            want = f"√(2 × {h} / {'9.81'.replace('.', mark)}) ≈ {shown} s"
            if want not in text(f["Explanation"]):
                bad.append(f"draw {k}: explanation {text(f['Explanation'])!r} lacks {want!r}")
            other = r"tombe de (\d+) m" if lang == "en" else r"falls from (\d+) m"
            t = re.search(other, text(f["Translation"]))
            if not t or int(t.group(1)) != h:
                bad.append(f"draw {k}: the translation shows another draw: {text(f['Translation'])[:80]!r}")
            if re.search(r"\{(h|g|answer|=)", "".join(f[x] for x in ("Question", "Options", "Explanation", "Translation"))):
                bad.append(f"draw {k}: a placeholder left")
        case(f"falling-time:{lang}: every draw's h, answer interval, accepted answer ({mark}), explanation and translation agree",
             not bad, "; ".join(bad[:4]))
        case(f"falling-time:{lang}: the pool has different numbers ({len(set(hs))} of {len(ds)})",
             len(ds) >= 5 and len(set(hs)) >= 5, hs)

    # 2. area-choice: 10 draws, computed options, a != b.
    for lang, said in (("en", r"is (\d+) cm by (\d+) cm"), ("fr", r"mesure (\d+) cm sur (\d+) cm")):
        ds = draws("area-choice", lang)
        bad = []
        for k, f in enumerate(ds):
            m = re.search(said, text(f["Question"]))
            if not m:
                bad.append(f"draw {k}: {text(f['Question'])!r}")
                continue
            a, b = int(m.group(1)), int(m.group(2))
            opts = [text(x) for x in re.findall(r"<li[^>]*>(.*?)</li>", f["Options"])]
            if a == b or opts != [f"{a * b} cm²", f"{a * b + a} cm²", f"{2 * (a + b)} cm²"]:
                bad.append(f"draw {k}: {a} x {b}: {opts}")
            if ok_option(f["Options"]) != f"{a * b} cm²":
                bad.append(f"draw {k}: right option {ok_option(f['Options'])!r}")
            if f"{a} × {b} = {a * b} cm²" not in text(f["Explanation"]):
                bad.append(f"draw {k}: explanation {text(f['Explanation'])!r}")
        case(f"area-choice:{lang}: 'draws: 10' gives 10 draws", len(ds) == 10, len(ds))
        case(f"area-choice:{lang}: every draw's options computed from its a and b, the right one marked",
             not bad, "; ".join(bad[:4]))

    # 3. mass-weight: a value with a decimal, written "1,5" in French.
    for lang, mark, said in (("en", ".", r"mass of ([\d.,]+) kg"), ("fr", ",", r"masse de ([\d.,]+) kg")):
        ds = draws("mass-weight", lang)
        bad = []
        ms = set()
        for k, f in enumerate(ds):
            m = re.search(said, text(f["Question"]))
            if not m:
                bad.append(f"draw {k}: {text(f['Question'])!r}")
                continue
            shown = m.group(1)
            x = float(shown.replace(",", "."))
            ms.add(x)
            other = "," if mark == "." else "."
            if other in shown or x not in (0.5, 1.0, 1.5, 2.0, 2.5):
                bad.append(f"draw {k}: m written {shown!r}")
            lo, hi = lohi(f["Options"])
            if lo is None or abs(lo - (9.8 * x - 0.1)) > 1e-6 or abs(hi - (9.8 * x + 0.1)) > 1e-6:
                bad.append(f"draw {k}: m {x}: [{lo}, {hi}]")
            acc = ok_option(f["Options"]) or ""
            if not acc.endswith(" N") or other in acc.split(" ± ")[0]:
                bad.append(f"draw {k}: accepted answer {acc!r}")
        case(f"mass-weight:{lang}: values written with '{mark}', interval 9.8 m ± 0.1, unit N", not bad, "; ".join(bad[:4]))
        case(f"mass-weight:{lang}: several masses in the pool", len(ms) >= 3, ms)

    # 4. hostile: nothing from the bank becomes markup in any draw.
    for lang in ("en", "fr"):
        ds = draws("hostile", lang)
        n = notes[f"anki-draws:hostile:{lang}"]
        raw = "\x1f".join(n.values())
        case(f"hostile:{lang}: no <script>, template or media syntax in the stored fields",
             not re.search(r"(?i)<script|\{\{|\}\}|\[sound:|\[latex\]|<img src=x", raw), raw[:200])
        bad = []
        for k, f in enumerate(ds):
            for x in ("Question", "Options", "Explanation", "Translation"):
                m = re.search(r"(?i)<script|<img|<[^>]*onerror|<b>|</li></ol>&lt;", f[x])
                if m:
                    bad.append(f"draw {k}: markup from the bank in {x}: {f[x][max(0, m.start() - 40):m.end() + 40]!r}")
            if "alert(" not in text(f["Question"]) + text(f["Translation"]):
                bad.append(f"draw {k}: the script's text is not shown as text")
        case(f"hostile:{lang}: every draw's HTML keeps the bank's markup as text", not bad, "; ".join(bad[:3]))


main()
sys.exit(1 if failures else 0)
