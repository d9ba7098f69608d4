#!/usr/bin/env python3
"""Parameterised questions (issue 38) in Moodle XML, against qbc's pool.

  check_calculated.py file  OUT.moodle.xml DUMP.json
      every parameterised question of DUMP.json (qbc dump --json) is a
      calculated type whose datasets hold the pool: item k of each dataset
      is draw k's value of its variable, as qbc writes it; no formula
      holds what Moodle's formula check refuses (qtype_calculated_find_
      formula_errors(): '^', names that are neither wildcards nor its
      functions).
  check_calculated.py moodle RESULT.json DUMP.json
      RESULT.json is what moodle_import.php printed after Moodle's own
      importer read the file: every question imported, each calculated
      one with one variant per draw, whose values are qbc's, whose answer
      Moodle computes as qbc's (numeric: within 1e-9, graded right, its
      tolerance interval qbc's), whose texts have no wildcard left, and
      whose options (calculatedmulti) read as qbc's draw.
  check_calculated.py roundtrip DUMP.json BACK.json
      BACK.json is the dump of what 'qbc import' made of the file: each
      parameterised question keeps its type, its pool (each dataset
      variable's value in every draw; at most Moodle's 100 draws), its
      answer in every draw, its tolerance, and its formulas: every formula
      variable of the original has one with the same value in every draw,
      and every text reads the same in every draw (each placeholder's
      value compared as a number).
  check_calculated.py draws OUT.moodle.xml DUMP.json ID
      question ID (of a type Moodle cannot draw) is a category of its
      own below the bank's, saying to add a random question from it,
      holding one question per draw (the first with ID as its idnumber,
      each named 'ID: (k/N) ...', its numeric gaps the draw's values),
      then the bank's category again.
Prints each mismatch and exits 1 when there is one.
"""
import json
import math
import re
import sys
import xml.etree.ElementTree as ET

FUNCS = {"abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh",
         "exp", "log", "sin", "sinh", "sqrt", "tan", "tanh", "pow", "round", "pi"}
WILDCARD = re.compile(r"\{([A-Za-z][A-Za-z0-9_\- ]*)\}")
FORMULA_IN_TEXT = re.compile(r"\{=([^{}]*(?:\{[A-Za-z][A-Za-z0-9_\- ]*\}[^{}]*)*)\}")
CALC = ("calculated", "calculatedsimple", "calculatedmulti")
errors = []


def err(msg):
    errors.append(msg)


def params_questions(dump):
    return [q for q in json.load(open(dump))["questions"] if q.get("params")]


def number_text(x, decimals):
    """A value as qbc writes it in a dataset (decimals digits)."""
    return f"{x:.{decimals}f}"


def formula_ok(f, names, where):
    """What Moodle's formula check would refuse in f."""
    if "^" in f:
        err(f"{where}: '^' in the formula {f!r} (Moodle refuses it)")
    rest = WILDCARD.sub(lambda m: "1.0" if m.group(1) in names else m.group(0), f)
    for m in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", rest):
        if m.group(0) not in FUNCS and not re.fullmatch(r"[eE]", m.group(0)):
            err(f"{where}: {m.group(0)!r} in the formula {f!r} is no wildcard nor Moodle function")
    for m in WILDCARD.finditer(f):
        if m.group(1) not in names:
            err(f"{where}: {{{m.group(1)}}} in {f!r} names no dataset")


def check_file(xml, dump):
    root = ET.parse(xml).getroot()
    by_id = {q.findtext("idnumber"): q for q in root.findall("question")}
    for pq in params_questions(dump):
        qid = pq["id"]
        q = by_id.get(qid)
        if q is None:
            err(f"{qid}: not in the file")
            continue
        want = "calculatedmulti" if pq["type"] in ("single", "multiple") else \
            ("calculated", "calculatedsimple") if pq["type"] == "numeric" else None
        if want is None:
            continue  # written with its first draw
        if q.get("type") not in (want if isinstance(want, tuple) else (want,)):
            err(f"{qid}: type {q.get('type')!r}, not {want}")
            continue
        pool = pq["params"]["pool"]
        decimals = {v["name"]: v["decimals"] for v in pq["params"]["vars"]}
        defs = q.findall("dataset_definitions/dataset_definition")
        names = [d.findtext("name/text") for d in defs]
        if not defs:
            err(f"{qid}: no datasets")
        for d in defs:
            name = d.findtext("name/text")
            items = {int(i.findtext("number")): i.findtext("value")
                     for i in d.findall("dataset_items/dataset_item")}
            n = min(len(pool), 100)
            if d.findtext("itemcount") != str(n) or sorted(items) != list(range(1, n + 1)):
                err(f"{qid}: dataset {name}: items {sorted(items)[:3]}..., itemcount "
                    f"{d.findtext('itemcount')}, not 1..{n}")
                continue
            if d.findtext("status/text") != "private":
                err(f"{qid}: dataset {name} is not private")
            # the variable: its name, or a name Moodle's wildcards cannot
            # have with a 'v' before it ('_n': 'v_n')
            key = name if name in pool[0] else name[1:] if name[1:] in pool[0] else None
            if key is None:
                err(f"{qid}: dataset {name} is no variable of the pool")
                continue
            for k in range(n):
                if key in decimals:
                    want_v = number_text(pool[k][key], decimals[key])
                    if items[k + 1] != want_v:
                        err(f"{qid}: dataset {name} item {k + 1} is {items[k + 1]}, "
                            f"qbc's draw {k} {want_v}")
                elif abs(float(items[k + 1]) - pool[k][key]) > 1e-9 * max(1, abs(pool[k][key])):
                    err(f"{qid}: dataset {name} item {k + 1} is {items[k + 1]}, qbc's draw "
                        f"{k} {pool[k][key]}")
        for a in q.findall("answer"):
            text = a.findtext("text")
            for tag in ("tolerance", "tolerancetype", "correctanswerformat",
                        "correctanswerlength"):
                if a.find(tag) is None:
                    err(f"{qid}: an answer without <{tag}> (Moodle's importer needs it)")
            if q.get("type") == "calculatedmulti":
                for m in FORMULA_IN_TEXT.finditer(text):
                    formula_ok(m.group(1), names, qid)
            elif text != "*":
                formula_ok(text, names, qid)
        for t in q.iter("text"):
            if t is q.find("name/text"):
                if "{" in (t.text or ""):
                    err(f"{qid}: the name holds a placeholder: {t.text!r}")
                continue
            for m in FORMULA_IN_TEXT.finditer(t.text or ""):
                formula_ok(m.group(1), names, qid)
            for m in WILDCARD.finditer(FORMULA_IN_TEXT.sub("", t.text or "")):
                if m.group(1) not in names:
                    err(f"{qid}: the text holds {{{m.group(1)}}}, which names no dataset")


def display(x, decimals, written):
    """A value as qbc's players show it (params.h: a formula's value without
    'decimals N' without trailing zeros)."""
    s = f"{x:.{decimals}f}"
    if not written and "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def check_moodle(result, dump):
    r = json.load(open(result))
    if not r["ok"]:
        err("Moodle's import failed: " + r["log"][-2000:])
    got = {q.get("idnumber"): q for q in r["questions"]}
    for pq in params_questions(dump):
        qid = pq["id"]
        q = got.get(qid)
        if q is None:
            err(f"{qid}: not imported")
            continue
        if pq["type"] not in ("numeric", "single", "multiple"):
            continue
        if q["qtype"] not in CALC:
            err(f"{qid}: imported as {q['qtype']}")
            continue
        pool = pq["params"]["pool"]
        n = min(len(pool), 100)
        if int(q["variants"]) != n or len(q["draws"]) != n:
            err(f"{qid}: {q['variants']} variants, qbc's pool has {n}")
        for k, d in enumerate(q["draws"][:n]):
            for name, v in d["values"].items():
                if name in pool[k] and abs(float(v) - pool[k][name]) > 1e-9:
                    err(f"{qid} draw {k}: Moodle's {name} = {v}, qbc's {pool[k][name]}")
            for t in (d["questiontext"], d["generalfeedback"]):
                if WILDCARD.search(t) or "{=" in t:
                    err(f"{qid} draw {k}: a wildcard left in {t[:120]!r}")
            if pq["type"] == "numeric":
                right = d["answers"][0]
                want = pool[k]["answer"]
                if abs(float(right["answer"]) - want) > 1e-9 * max(1, abs(want)):
                    err(f"{qid} draw {k}: Moodle's answer {right['answer']}, qbc's {want}")
                if float(d.get("grade_right", 0)) != 1:
                    err(f"{qid} draw {k}: Moodle does not grade its own answer right")
                a = pq["params"]["answer"]
                tol = abs(want) * a["tolerance"] / 100 if a["percent"] else a["tolerance"]
                lo, hi = d["interval"]
                if abs(lo - (want - tol)) > 1e-9 * max(1, abs(want)) or \
                        abs(hi - (want + tol)) > 1e-9 * max(1, abs(want)):
                    err(f"{qid} draw {k}: Moodle accepts {lo}..{hi}, qbc {want - tol}..{want + tol}")
            else:
                vars_ = {v["name"]: v for v in pq["params"]["vars"]}
                for i, (c, a) in enumerate(zip(pq["choices"], d["answers"])):
                    if (a["fraction"] > 0) != c["correct"]:
                        err(f"{qid} draw {k}: option {i + 1}'s fraction {a['fraction']}")
                    for lang, md in c["text"].items():
                        shown = re.sub(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", lambda m: display(
                            pool[k][m.group(1)], vars_[m.group(1)]["decimals"],
                            vars_[m.group(1)]["kind"] != "formula"
                            or vars_[m.group(1)].get("decimals_written", False)), md)
                        if shown not in a["answer"]:
                            err(f"{qid} draw {k}: option {i + 1} reads {a['answer'][:160]!r} "
                                f"in Moodle, qbc's {lang} {shown!r}")


PLACEHOLDER = re.compile(r"(?<!\\)\{(=[^{}]*|[A-Za-z_][A-Za-z0-9_]*)\}")


def pool_key(m):
    return m.group(1)[1:].strip() if m.group(1).startswith("=") else m.group(1)


def valued(text, draw):
    """text with each placeholder its value in draw (6 decimals)."""
    def val(m):
        key = pool_key(m)
        if key not in draw:
            err(f"the placeholder {m.group(0)} has no value in the pool")
            return m.group(0)
        return f"[{draw[key]:.6f}]"
    return PLACEHOLDER.sub(val, text)


def texts(q):
    out = []
    for key in ("prompt", "explanation"):
        for lang, t in (q.get(key) or {}).items():
            out.append((f"{key} {lang}", t))
    for i, c in enumerate(q.get("choices") or []):
        for lang, t in (c.get("text") or {}).items():
            out.append((f"option {i + 1} {lang}", t))
    return out


def check_roundtrip(dump, back):
    orig = {q["id"]: q for q in params_questions(dump)}
    got = {q["id"]: q for q in json.load(open(back))["questions"]}
    for qid, q in orig.items():
        b = got.get(qid)
        if q["type"] not in ("numeric", "single", "multiple"):
            continue
        if b is None or not b.get("params"):
            err(f"{qid}: not imported as a parameterised question")
            continue
        if b["type"] != q["type"]:
            err(f"{qid}: type {b['type']}, was {q['type']}")
        pa, pb = q["params"]["pool"][:100], b["params"]["pool"]
        if len(pa) != len(pb):
            err(f"{qid}: {len(pb)} draws, was {len(pa)}")
            continue
        data = [v["name"] for v in q["params"]["vars"] if v["name"] and v["kind"] != "formula"]
        for k, (x, y) in enumerate(zip(pa, pb)):
            for name in data:
                if name in x and abs(x[name] - y.get(name, math.inf)) > 1e-9:
                    err(f"{qid} draw {k}: {name} = {y.get(name)}, was {x[name]}")
            if x.get("answer") is not None and \
                    abs(x["answer"] - y.get("answer", math.inf)) > 1e-9 * max(1, abs(x["answer"])):
                err(f"{qid} draw {k}: answer {y.get('answer')}, was {x['answer']}")
        if q["type"] == "numeric":
            a, c = q["params"]["answer"], b["params"]["answer"]
            if (a["tolerance"], a["percent"]) != (c["tolerance"], c["percent"]):
                err(f"{qid}: tolerance {c['tolerance']}{'%' if c['percent'] else ''}, was "
                    f"{a['tolerance']}{'%' if a['percent'] else ''}")
        for v in q["params"]["vars"]:
            key = v["name"] or v["definition"]
            if v["kind"] != "formula" or key not in pa[0]:
                continue
            if not any(all(abs(x[key] - y[k2]) <= 1e-9 * max(1, abs(x[key])) for x, y in zip(pa, pb))
                       for k2 in pb[0] if k2 != "answer" and pb[0][k2] is not None):
                err(f"{qid}: no variable of the import has the values of {key} = {v['definition']}")
        ta, tb = dict(texts(q)), dict(texts(b))
        for where, t in ta.items():
            if where not in tb:
                err(f"{qid}: the {where} text is lost")
                continue
            for k, (x, y) in enumerate(zip(pa, pb)):
                if valued(t, x) != valued(tb[where], y):
                    err(f"{qid} draw {k}: the {where} text reads {valued(tb[where], y)!r}, "
                        f"was {valued(t, x)!r}")
                    break


def check_draws(xml, dump, qid):
    qs = ET.parse(xml).getroot().findall("question")
    pq = [q for q in json.load(open(dump))["questions"] if q["id"] == qid][0]
    pool = pq["params"]["pool"]
    cats = [k for k, q in enumerate(qs) if q.findtext("category/text", "").endswith(")/" + qid)]
    if len(cats) != 1:
        err(f"{qid}: {len(cats)} categories of its draws")
        return
    i = cats[0]
    cat = qs[i].findtext("category/text")
    if "random question" not in (qs[i].findtext("info/text") or ""):
        err(f"{qid}: the category does not say to add a random question from it")
    draws = qs[i + 1:i + 1 + len(pool)]
    if [q.get("type") for q in draws] != ["cloze"] * len(pool):
        err(f"{qid}: not {len(pool)} questions after its category")
        return
    if draws[0].findtext("idnumber") != qid or any(q.find("idnumber") is not None for q in draws[1:]):
        err(f"{qid}: the first draw has not its id, or a later one has one")
    for k, q in enumerate(draws):
        if not q.findtext("name/text").startswith(f"{qid}: ({k + 1}/{len(pool)}) "):
            err(f"{qid}: draw {k + 1} is named {q.findtext('name/text')!r}")
        gaps = re.findall(r"\{1:NUMERICAL:=([-0-9.]+):", q.findtext("questiontext/text"))
        want = [v for name, v in pool[k].items() if name == "f"]
        if [float(g) for g in gaps] != [round(v, 1) for v in want]:
            err(f"{qid}: draw {k + 1}'s gaps {gaps}, its pool {want}")
    after = qs[i + 1 + len(pool)] if i + 1 + len(pool) < len(qs) else None
    if after is None or after.get("type") != "category" or \
            after.findtext("category/text") != cat[:-len("/" + qid)]:
        err(f"{qid}: the bank's category does not follow its draws")


def main():
    modes = {"file": check_file, "moodle": check_moodle, "roundtrip": check_roundtrip}
    if len(sys.argv) == 5 and sys.argv[1] == "draws":
        check_draws(*sys.argv[2:5])
    elif len(sys.argv) != 4 or sys.argv[1] not in modes:
        sys.exit(__doc__)
    else:
        modes[sys.argv[1]](sys.argv[2], sys.argv[3])
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
