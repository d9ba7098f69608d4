#!/usr/bin/env python3
"""same_model.py A.json B.json [title] [media] [moodlexml|gift|csv] [DIR_A DIR_B]:
two `qbc dump --json` outputs describe the same model, but for each
question's source position and, when asked, the bank's title and the file
names of pictures (media/<name>.<ext>).

With a format, B is A written in that format and imported again: every
field is compared but for what that format cannot carry, each the subject
of a line in README's "Round trip through qbc's own Moodle XML" (EXCLUDED
below, printed with -v).  The `*_html` fields are left out: they are
rendered from the compared Markdown.  With DIR_A and DIR_B (the folders of
the two banks), a picture or sound is compared by its bytes, not its name.
Prints a diff and exits 1 when they differ."""
import copy, difflib, hashlib, json, os, re, sys

HEADER = ("pass_mark", "scoring", "shuffle_options", "shuffle_questions", "draw",
          "draw_per_tag", "description", "default_language")
EXCLUDED = {
    "moodlexml": [
        "header keys pass-mark, scoring, shuffle-options, shuffle-questions, draw, description, default-language",
        "the title: main language only; the languages: as a set",
        "pins (the question comes back unshuffled)",
        "feedback-wrong of single/multiple: folded into wrong options without feedback (not written when all have their own)",
        "short answers: one list in every language; cloze typed gaps: every language's answers",
        "numeric percent tolerance: as the same interval; scoring of multiple with one right option, matching and cloze",
        "Markdown spelling: table delimiter rows, a blank line before a code fence; media names (bytes compared)",
        "drawn numbers: variables by their values in every draw (a range's step comes back as its decimals, a formula in libmatheval's spelling, a derived variable as rN), the pool and tolerance kept",
    ],
    "gift": [
        "the header and title (GIFT has none); languages: the default one only",
        "tags (a GIFT question has none but its category), shuffling and pins",
        "feedback-wrong of single/multiple folded into wrong options without feedback; of others dropped",
        "partial credit: a single-right multiple question is all-or-nothing",
        "numeric: percent as the same interval; the unit",
        "a cloze question of more than one gap (GIFT's missing-word form has one): not written; question numbers",
        "case sensitivity of short answers (GIFT's are not)",
        "questions with drawn numbers (vars:): GIFT has no variables; not written",
    ],
    "csv": [
        "the title (no column), header keys; media by their path in the bank, as in GIFT",
        "shuffling and pins, per-question scoring (the bank's defaults apply), case sensitivity (no column)",
        "questions with drawn numbers (vars:): no column for variables; not written",
    ],
}


def walk(x, f):
    """x with f applied to every string."""
    if isinstance(x, dict):
        return {k: walk(v, f) for k, v in x.items()}
    if isinstance(x, list):
        return [walk(v, f) for v in x]
    return f(x) if isinstance(x, str) else x


def drop_html(x):
    if isinstance(x, dict):
        return {k: drop_html(v) for k, v in x.items() if not k.endswith("_html")}
    if isinstance(x, list):
        return [drop_html(v) for v in x]
    return x


def media_by_bytes(d, base):
    def sub(m):
        p = os.path.join(base, m.group(0))
        try:
            h = hashlib.sha256(open(p, "rb").read()).hexdigest()[:16]
        except OSError:
            h = "MISSING(" + m.group(0) + ")"
        return "media/" + h + "." + m.group(1)
    return walk(d, lambda s: re.sub(r"media/[A-Za-z0-9_.-]+?\.([a-z0-9]+)\b", sub, s))


def markdown_spelling(s):
    # a table's delimiter row: alignment and widths are spelling
    s = re.sub(r"(?m)^\|(?:\s*:?-+:?\s*\|)+$", lambda m: "|" + " --- |" * (m.group(0).count("|") - 1), s)
    # a code fence right under a line: the empty line HTML puts between
    s = re.sub(r"(?m)^([^\n`][^\n]*)\n(```)", r"\1\n\n\2", s)
    return s


def fold_feedback_wrong(q):
    fw = q.get("feedback_wrong")
    if fw and q["type"] in ("single", "multiple"):
        for c in q["choices"]:
            if not c["correct"] and not c.get("feedback"):
                c["feedback"] = copy.deepcopy(fw)
    if q["type"] in ("single", "multiple"):
        q["feedback_wrong"] = None


def one_list(q, langs):
    """Moodle's one list of accepted strings, in every language."""
    seen, out = set(), []
    for right in (True, False):
        for c in q["choices"]:
            if c["correct"] != right:
                continue
            for l in langs:
                t = c["text"].get(l)
                if t is None or (t, right) in seen:
                    continue
                seen.add((t, right))
                out.append({**c, "text": {m: t for m in langs}})
    q["choices"] = out


def gap_union(q, langs):
    gaps = q.get("gaps") or {}
    n = max((len(g) for g in gaps.values()), default=0)
    for i in range(n):
        if all(gaps[l][i]["kind"] == "typed" for l in gaps):
            u = []
            for l in langs:
                for a in gaps.get(l, [])[i]["answers"] if l in gaps else []:
                    if a not in u:
                        u.append(a)
            for l in gaps:
                gaps[l][i]["answers"] = list(u)
    # the gaps are compared here; in the prompt each is a placeholder
    q["prompt"] = {l: re.sub(r"\{\{.*?\}\}", "{{GAP}}", t) for l, t in q["prompt"].items()}


def interval(q):
    a = q.get("answer")
    if q["type"] == "numeric" and a:
        q["answer"] = {k: round(a[k], 9) for k in ("value", "tolerance", "min", "max")}


PLACEHOLDER = re.compile(r"\{(=[^{}]*|[A-Za-z_][A-Za-z0-9_]*)\}")


def canon_params(q):
    """A parameterised question as its draws show it: each variable named
    by its values in every draw (Moodle XML names a derived variable rN and
    spells formulas its own way), the pool, the tolerance."""
    p = q.get("params")
    if not p:
        return q
    pool = p["pool"]
    cols = {}
    for v in p["vars"]:
        key = v["name"] or v["definition"]
        cols[v["name"] or "=" + v["definition"]] = tuple(round(d[key], 9) for d in pool)
    if p.get("answer"):
        cols["answer"] = tuple(round(d["answer"], 9) for d in pool)
    uniq = sorted(set(cols.values()))
    def sub(s):
        def one(m):
            c = cols.get(m.group(1).replace(" ", "") if m.group(1).startswith("=") else m.group(1))
            return "{v%d}" % uniq.index(c) if c is not None else m.group(0)
        return PLACEHOLDER.sub(one, s)
    cols = {k.replace(" ", ""): c for k, c in cols.items()}
    q = walk({k: v for k, v in q.items() if k != "params"}, sub)
    a = p.get("answer") or {}
    q["params"] = {"values": [list(c) for c in uniq], "tolerance": a.get("tolerance"),
                   "percent": a.get("percent")}
    return q


def norm_format(d, fmt, orig):
    """orig: d is the bank written out, whose scoring the format changes."""
    langs = sorted(d["languages"])
    main = d.get("default_language") or d["languages"][0]
    for k in HEADER:
        d.pop(k, None)
    if fmt == "moodlexml":
        d["title"] = d["title"].get(main) if d.get("title") else None
        d["languages"] = langs
    elif fmt == "gift":
        d.pop("title", None)
        d["languages"] = [main]
        keep = []
        for q in d["questions"]:
            if q["type"] == "cloze" and len((q.get("gaps") or {}).get(main, [])) > 1:
                continue
            keep.append(q)
        d["questions"] = keep
        # one language: every text of the others dropped
        def mono(x):
            if isinstance(x, dict):
                if x and set(x) <= set(d_langs):
                    return x.get(main)
                return {k: mono(v) for k, v in x.items()}
            if isinstance(x, list):
                return [mono(v) for v in x]
            return x
        d_langs = set(langs)
        d["questions"] = mono(d["questions"])
    else:
        d.pop("title", None)
    if fmt in ("gift", "csv"):
        d["questions"] = [q for q in d["questions"] if not q.get("params")]
    if fmt == "moodlexml":
        d["questions"] = [canon_params(q) for q in d["questions"]]
    for i, q in enumerate(d["questions"]):
        if fmt == "gift":
            q.pop("number", None)  # a question left out renumbers the rest
        if fmt in ("gift", "csv"):
            q["shuffle"] = None
        elif any(c.get("pinned") for c in q.get("choices", [])):
            q["shuffle"] = False  # written unshuffled: Moodle cannot pin
        for c in q.get("choices", []):
            c["pinned"] = None
        if fmt == "gift":
            q["tags"] = None
            q["unit"] = None
            if q["type"] not in ("single", "multiple"):
                q["feedback_wrong"] = None
        if fmt in ("moodlexml", "gift"):
            fold_feedback_wrong(q)
            interval(q)
        if fmt == "moodlexml":
            if q["type"] == "short-answer":
                one_list(q, langs)
            if q["type"] == "cloze":
                gap_union(q, langs)
        if fmt in ("moodlexml", "gift"):
            right = sum(1 for c in q.get("choices", []) if c["correct"])
            if orig and q["type"] == "multiple" and right == 1:
                q["scoring"] = "all-or-nothing"
        if orig and fmt in ("moodlexml", "gift") and q["type"] in ("matching", "cloze"):
            q["scoring"] = "partial"
        if fmt == "csv":
            q["scoring"] = None
        if fmt in ("csv", "gift"):
            q["case_sensitive"] = None
    return walk(d, markdown_spelling) if fmt == "moodlexml" else d


def norm(path, opts, base, orig):
    d = json.load(open(path))
    for q in d["questions"]:
        q.pop("source")
    fmt = next((o for o in opts if o in EXCLUDED), None)
    if fmt:
        d = drop_html(d)
        if base:
            d = media_by_bytes(d, base)
        d = norm_format(d, fmt, orig)
    if "title" in opts:
        d.pop("title", None)
    s = json.dumps(d, indent=1, sort_keys=True, ensure_ascii=False)
    if "media" in opts:
        s = re.sub(r"media/[A-Za-z0-9_.-]+\.([a-z0-9]+)", r"media/FILE.\1", s)
    return s.splitlines()


a, b = sys.argv[1], sys.argv[2]
WORDS = ("title", "media", "-v", *EXCLUDED)
opts = [o for o in sys.argv[3:] if o in WORDS]
dirs = [o for o in sys.argv[3:] if o not in WORDS] or [None, None]
if "-v" in opts:
    fmt = next((o for o in opts if o in EXCLUDED), None)
    for e in EXCLUDED.get(fmt, []):
        print("  not compared (" + fmt + "): " + e)
x, y = norm(a, opts, dirs[0], True), norm(b, opts, dirs[1], False)
if x != y:
    print("\n".join(difflib.unified_diff(x, y, a, b, lineterm="", n=1)))
    sys.exit(1)
