#!/usr/bin/env python3
"""tests/moodlexml/check_moodlexml.py - checks a qbc Moodle XML file.

  check_moodlexml.py structure FILE
      Every element Moodle 4.5's importer reads for the category and
      multichoice questions, with the rules it applies (references are to
      question/format/xml/format.php and question/format.php):
      - readquestions(): root <quiz>, questions under it; import_question()
        refuses an unknown type= (xmltypeunsupported);
      - import_category(): <category><text>, <info format=...><text> (the
        format attribute is read without a default);
      - import_headers(): <name><text> required (xmlimportnoname),
        <questiontext format><text>, <generalfeedback format><text>,
        <defaultgrade> >= 0, <penalty>, <idnumber> (at most 100 characters,
        question_bank_entries.idnumber), <tags><tag><text>;
      - import_multichoice(): <single> true/false, <shuffleanswers>,
        <answernumbering>, <answer>s; import_answer(): fraction= one of
        Moodle's grades (question/format.php:374-407 refuses the whole file
        otherwise), format=, <text>, <feedback format><text>;
        import_combined_feedback(): the three feedbacks with format and text;
      - import_text_with_files()/import_files_as_draft(): <file name path
        encoding="base64"> next to the <text> that uses @@PLUGINFILE@@/name;
      - the editor's rules Moodle does not check on import: single has one
        answer at 100, multiple's positive fractions sum to 100;
      - multilang: a text is either plain HTML or two or more adjacent
        <span lang="xx" class="multilang">...</span> exactly, with no
        </span> inside (filter/multilang's regular expression); the
        category's description may be followed by more HTML.
      Prints one line per problem; exits 1 if there are any.

  check_moodlexml.py roundtrip FILE DUMP.json BANKDIR
      Parses the XML back and compares it with `qbc dump --json` of the
      same bank: idnumber, name, tags, every text in every language (spans
      in the order default language first), answer order and correctness,
      feedback, general feedback; images: each src becomes
      @@PLUGINFILE@@/<name> and the embedded file holds the image's bytes.
"""
import base64
import hashlib
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

GRADES = [100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20,
          16.66667, 14.28571, 12.5, 11.11111, 10, 5, 0]
FORMATS = {"moodle_auto_format", "html", "plain_text", "wiki_like", "markdown"}
NUMBERING = {"abc", "ABCD", "123", "iii", "IIII", "none"}
SPAN = re.compile(r'<span lang="([a-zA-Z0-9_-]+)" class="multilang">(.*?)</span>', re.S)

problems = []


def bad(where, msg):
    problems.append(f"{where}: {msg}")


def spans(text):
    """[(lang, html)] when text is a multilang run, else None."""
    out, pos = [], 0
    for m in SPAN.finditer(text):
        if m.start() != pos:
            return None
        out.append((m.group(1), m.group(2)))
        pos = m.end()
    return out if out and pos == len(text) else None


def text_of(el, where, fmt=True, tail_ok=False):
    if el is None:
        bad(where, "missing")
        return ""
    if fmt and el.get("format") not in FORMATS:
        bad(where, f"format attribute {el.get('format')!r}")
    t = el.find("text")
    if t is None:
        bad(where, "no <text>")
        return ""
    if len(t):
        bad(where, "<text> has child elements")
    s = t.text or ""
    if "<span" in s and "multilang" in s:
        sp = spans(s[:s.rindex("</span>") + 7] if tail_ok else s)
        if sp is None:
            bad(where, "multilang spans that are not one adjacent run: " + s[:80])
        elif len(sp) < 2:
            bad(where, "a lone multilang span (the filter ignores it)")
    # every @@PLUGINFILE@@ reference has its file next to the text, and
    # every file is used
    files = {f.get("name"): f for f in el.findall("file")}
    used = set(re.findall(r"@@PLUGINFILE@@/([^\"'<> ]+)", s))
    for name in used - set(files):
        bad(where, f"@@PLUGINFILE@@/{name} has no <file>")
    for name, f in files.items():
        if name not in used:
            bad(where, f"<file> {name} is not used")
        if f.get("path") != "/" or f.get("encoding") != "base64":
            bad(where, f"<file> {name}: path {f.get('path')!r} encoding {f.get('encoding')!r}")
        try:
            base64.b64decode(re.sub(r"\s", "", f.text or ""), validate=True)
        except ValueError:
            bad(where, f"<file> {name}: not base64")
    return s


def grade_ok(v):
    return any(abs(abs(v) - g) < 1e-3 for g in GRADES)


def structure(path):
    root = ET.parse(path).getroot()
    if root.tag != "quiz":
        bad(path, f"root is <{root.tag}>, not <quiz>")
    qs = root.findall("question")
    if len(qs) != len(root):
        bad(path, "<quiz> holds something other than <question>")
    if not qs or qs[0].get("type") != "category":
        bad(path, "the first question is not the category")
    for i, q in enumerate(qs):
        where = f"question {i}"
        typ = q.get("type")
        if typ == "category":
            cat = q.find("category/text")
            if cat is None or not (cat.text or "").startswith("$course$/top/"):
                bad(where, "category path does not start with $course$/top/")
            text_of(q.find("info"), where + " info", tail_ok=True)
            continue
        if typ != "multichoice":
            bad(where, f"type {typ!r}")
            continue
        name = q.findtext("name/text") or ""
        where = f"question {name!r}"
        if not name.strip():
            bad(where, "no <name><text>")
        if len(name) > 255:
            bad(where, "name is longer than 255 characters")
        text_of(q.find("questiontext"), where + " questiontext")
        text_of(q.find("generalfeedback"), where + " generalfeedback")
        for fb in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
            if not text_of(q.find(fb), f"{where} {fb}").strip():
                bad(where, f"{fb} is empty")
        try:
            if float(q.findtext("defaultgrade")) < 0:
                bad(where, "defaultgrade < 0")
            float(q.findtext("penalty"))
        except (TypeError, ValueError):
            bad(where, "defaultgrade or penalty missing or not a number")
        idn = q.findtext("idnumber") or ""
        if not idn or len(idn) > 100:
            bad(where, f"idnumber {idn!r}")
        single = q.findtext("single")
        if single not in ("true", "false"):
            bad(where, f"single {single!r}")
        if q.findtext("shuffleanswers") not in ("true", "false", "0", "1"):
            bad(where, "shuffleanswers")
        if q.findtext("answernumbering") not in NUMBERING:
            bad(where, "answernumbering")
        for tag in q.findall("tags/tag"):
            if not (tag.findtext("text") or "").strip():
                bad(where, "empty tag")
        answers = q.findall("answer")
        fr = []
        for j, a in enumerate(answers):
            aw = f"{where} answer {j}"
            try:
                v = float(a.get("fraction"))
            except (TypeError, ValueError):
                bad(aw, f"fraction {a.get('fraction')!r}")
                continue
            if not grade_ok(v):
                bad(aw, f"fraction {v} is not one of Moodle's grades")
            fr.append(v)
            if not text_of(a, aw).strip():
                bad(aw, "empty answer text")
            text_of(a.find("feedback"), aw + " feedback")
        if len(answers) < 2:
            bad(where, "fewer than 2 answers")
        pos = sum(v for v in fr if v > 0)
        if single == "true":
            if sorted(fr)[-1:] != [100] or any(v not in (0, 100) for v in fr) or fr.count(100) != 1:
                bad(where, f"single with fractions {fr}")
        else:
            if abs(pos - 100) > 1e-3 * len(fr):
                bad(where, f"positive fractions sum to {pos}, not 100")
            share = max(fr)
            if any(v < 0 and abs(v + share) > 1e-3 for v in fr):
                bad(where, f"a wrong pick costs other than a right one gives: {fr}")


def roundtrip(path, dump_path, bankdir):
    dump = json.load(open(dump_path, encoding="utf-8"))
    langs = dump["languages"]
    dl = dump["default_language"]
    order = ([dl] if dl in langs else []) + [l for l in langs if l != dl]
    root = ET.parse(path).getroot()
    qs = [q for q in root.findall("question") if q.get("type") != "category"]
    if len(qs) != len(dump["questions"]):
        bad(path, f"{len(qs)} questions, the bank has {len(dump['questions'])}")

    def expect(el, htmls, where):
        """el's text against the dump's {lang: html} (None: absent)."""
        if el is None:
            bad(where, "missing")
            return
        got = el.findtext("text") or ""
        files = {f.get("name"): base64.b64decode(f.text or "") for f in el.findall("file")}
        if htmls is None:
            if got:
                bad(where, f"text {got!r} for an absent text")
            return
        parts = []
        for lang in order:
            h = htmls[lang]

            def img(m):
                src = m.group(1)
                data = open(os.path.join(bankdir, src), "rb").read()
                ext = os.path.splitext(src)[1].lower()
                name = hashlib.sha256(data).hexdigest()[:16] + ext
                if files.get(name) != data:
                    bad(where, f"<file> {name} does not hold the bytes of {src}")
                return f'src="@@PLUGINFILE@@/{name}"'

            # an author's @@PLUGINFILE@@ must not reach Moodle as the marker
            h = re.sub(r'(?<!src=")@@PLUGINFILE@@', "&#64;@PLUGINFILE@@", h)
            parts.append((lang, re.sub(r'src="([^"]+)"', img, h)))
        want = parts[0][1] if len(parts) == 1 else "".join(
            f'<span lang="{l}" class="multilang">{h}</span>' for l, h in parts)
        if got != want:
            bad(where, f"text differs:\n  got  {got!r}\n  want {want!r}")

    for q, d in zip(qs, dump["questions"]):
        where = f"question {d['id']}"
        if q.findtext("idnumber") != d["id"]:
            bad(where, f"idnumber {q.findtext('idnumber')!r}")
        if not (q.findtext("name/text") or "").startswith(d["id"] + ": "):
            bad(where, f"name {q.findtext('name/text')!r} does not start with the id")
        if [t.findtext("text") for t in q.findall("tags/tag")] != d["tags"]:
            bad(where, "tags differ")
        want_single = "true" if d["type"] == "single" else "false"
        if q.findtext("single") != want_single:
            bad(where, "single/multiple differs")
        expect(q.find("questiontext"), d["prompt_html"], where + " questiontext")
        expect(q.find("generalfeedback"), d["explanation_html"], where + " generalfeedback")
        answers = q.findall("answer")
        if len(answers) != len(d["choices"]):
            bad(where, "number of answers differs")
        for j, (a, c) in enumerate(zip(answers, d["choices"])):
            if (float(a.get("fraction")) > 0) != c["correct"]:
                bad(where, f"answer {j}: fraction {a.get('fraction')} but correct={c['correct']}")
            expect(a, c["text_html"], f"{where} answer {j}")
            expect(a.find("feedback"), c["feedback_html"], f"{where} answer {j} feedback")
        for fb in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
            t = q.findtext(fb + "/text") or ""
            sp = spans(t)
            got = [l for l, _ in sp] if sp else None
            if len(order) > 1 and got != order:
                bad(where, f"{fb}: languages {got}, want {order}")
            if sp and len({h for _, h in sp}) != len(sp):
                bad(where, f"{fb}: the same label in two languages")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "structure":
        structure(sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[1] == "roundtrip":
        roundtrip(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
