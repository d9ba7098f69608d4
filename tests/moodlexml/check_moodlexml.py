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
        answer at 100, multiple's positive fractions sum to 100, and a
        wrong pick costs what a right one gives (qbc's partial rule) or
        100 (all-or-nothing);
      - import_truefalse(): two answers whose texts are "true" and
        "false" (else Moodle guesses), one at 100;
      - import_shortanswer(): <usecase> 0/1, an answer at 100, answers
        that hold no multilang span (they are compared literally);
      - import_numerical(): answers that are numbers or "*", <tolerance>
        a plain number, <units><unit><multiplier><unit_name>,
        <unitgradingtype>, <unitpenalty>, <showunits> (0 needs a
        "_____" box in the text, qtype_numerical_renderer), <unitsleft>;
      - import_match(): <shuffleanswers>, at least 2 <subquestion>s with
        a text, each with <answer><text> (a text without an answer stops
        the import, match/questiontype.php);
      - import_multianswer(): the gaps that Moodle's own expressions
        (ANSWER_REGEX, qtype_multianswer_extract_question(), ported
        below) find in the text, each valid as
        qtype_multianswer_validate_question() requires, and no '{'
        left that could start a gap;
      - multilang: a text is either plain HTML or two or more adjacent
        <span lang="xx" class="multilang">...</span> exactly, with no
        </span> inside (filter/multilang's regular expression); the
        category's description may be followed by more HTML.
      Prints one line per problem; exits 1 if there are any.

  check_moodlexml.py editor FILE
      Every cloze question as a teacher who opens it in Moodle 4.5's
      editor and saves it unchanged leaves it: the form's set_data()
      writes each stored gap (the text the parser matched) back into the
      question text with every "&#" turned into "&\\#"
      (question/type/multianswer/edit_multianswer_form.php), and saving
      parses the text again.  Prints each gap whose type, marks, answers
      or feedback come out different; exits 1 if there are any.

  check_moodlexml.py roundtrip FILE DUMP.json BANKDIR
      Parses the XML back and compares it with `qbc dump --json` of the
      same bank: idnumber, name, tags, every text in every language (spans
      in the order default language first), answer order and correctness,
      feedback, general feedback; images: each src becomes
      @@PLUGINFILE@@/<name> and the embedded file holds the image's bytes;
      per type: true/false's right answer, short answers (every language's
      distinct accepted ones at 100, wrong ones at 0, "*" for
      feedback-wrong), numeric value ± tolerance against min and max, the
      unit, matching pairs, and each cloze gap's answers as Moodle
      decodes them, in every language.
"""
import html
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

# filter/multilang/classes/text_filter.php, the "new syntax" expression.
MLANG = re.compile(r'(<span(\s+lang="[a-zA-Z0-9_-]+"|\s+class="multilang"){2}\s*>.*?</span>)'
                   r'(\s*<span(\s+lang="[a-zA-Z0-9_-]+"|\s+class="multilang"){2}\s*>.*?</span>)+',
                   re.S | re.I)
MLANG_SPLIT = re.compile(r'<(?:lang|span)[^>]+lang="([a-zA-Z0-9_-]+)"[^>]*>(.*?)</(?:lang|span)>',
                         re.S | re.I)


def multilang(text, lang):
    """What the multilang filter shows a learner whose language is lang."""
    def pick(m):
        langs = dict((l.lower(), h) for l, h in MLANG_SPLIT.findall(m.group(0)))
        return langs.get(lang, next(iter(langs.values())))
    return MLANG.sub(pick, text)


# question/type/multianswer/questiontype.php (Moodle 4.5), in Python: a
# lookbehind of several widths is three lookbehinds.
ALT = (r'(=|%(-?[0-9]+(?:[.,][0-9]*)?)%)?'
       r'(.+?(?<!\\)(?<!&)(?<!&amp;)(?=[~#}]|$))'
       r'(#(.*?(?<!\\)(?=[~}]|$)))?')
TYPES = (r'(NUMERICAL|NM)|(MULTICHOICE|MC)|(MULTICHOICE_V|MCV)|(MULTICHOICE_H|MCH)|'
         r'(SHORTANSWER|SA|MW)|(SHORTANSWER_C|SAC|MWC)|'
         r'(MULTICHOICE_S|MCS)|(MULTICHOICE_VS|MCVS)|(MULTICHOICE_HS|MCHS)|'
         r'(MULTIRESPONSE|MR)|(MULTIRESPONSE_H|MRH)|(MULTIRESPONSE_S|MRS)|(MULTIRESPONSE_HS|MRHS)')
ANSWER = re.compile(r'\{([0-9]*):(' + TYPES + r'):(' + ALT + r'(~' + ALT + r')*)\}', re.S)


def moodle_decode(s):
    """What Moodle makes of an answer or feedback of a gap."""
    return html.unescape(s).replace('\\}', '}').replace('\\#', '#')


def extract_cloze(text):
    """(text with {#n}, [(type, [(fraction, answer, feedback)])])."""
    gaps = []
    n = 1
    while True:
        m = ANSWER.search(text)
        if not m:
            return text, gaps
        alts, rest = [], m.group(16)
        while True:
            a = re.match(r'~?' + ALT, rest, re.S)
            if not a or not rest:
                break
            frac = 1 if a.group(1) == '=' else (float(a.group(2)) / 100 if a.group(2) else 0)
            alts.append((frac, moodle_decode(a.group(3)),
                         moodle_decode(a.group(5)) if a.group(5) is not None else ''))
            rest = rest[a.end():]
        gaps.append((m.group(2), alts))
        text = text[:m.start()] + '{#%d}' % n + text[m.end():]
        n += 1


def editor_save(text):
    """The question text after an unchanged save in Moodle's cloze editor:
    set_data() puts back each gap as stored, with "&#" as "&\\#"."""
    out, pos = [], 0
    for m in ANSWER.finditer(text):
        out.append(text[pos:m.start()])
        out.append(m.group(0).replace('&#', '&\\#'))
        pos = m.end()
    return ''.join(out) + text[pos:]


def editor(path):
    for q in ET.parse(path).getroot().findall("question"):
        if q.get("type") != "cloze":
            continue
        where = f"{path}: {q.findtext('idnumber')}"
        qt = q.findtext("questiontext/text") or ""
        _, before = extract_cloze(qt)
        _, after = extract_cloze(editor_save(qt))
        if len(after) != len(before):
            bad(where, f"{len(before)} gaps before the save, {len(after)} after")
        for k, (b, a) in enumerate(zip(before, after), 1):
            if b != a:
                bad(where, f"gap {k} changes when saved in Moodle's editor: {b} -> {a}")


def norm(s, case_sensitive):
    """qb_answer_normalise()."""
    import unicodedata
    s = re.sub(r'\s+', ' ', unicodedata.normalize('NFC', s).strip())
    return s if case_sensitive else s.lower()


def plain_spans(text):
    """{lang: plain text} of a plain-text field's multilang spans."""
    return {l: html.unescape(h) for l, h in MLANG_SPLIT.findall(text)}



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
        if tail_ok and sp is None:
            bad(where, "multilang spans that are not one adjacent run: " + s[:80])
        elif sp is not None and len(sp) < 2:
            bad(where, "a lone multilang span (the filter ignores it)")
        # whatever else the text holds (a unit's box, cloze gaps between
        # the runs), the filter must leave no language span behind
        if 'class="multilang"' in multilang(s, "en"):
            bad(where, "multilang spans the filter cannot read: " + s[:80])
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
            if i == 0 or q.find("info") is not None:  # again after a passage's run: a path only
                text_of(q.find("info"), where + " info", tail_ok=True)
            continue
        if typ not in TYPE_CHECKS:
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
        if typ in ("multichoice", "matching"):  # import_combined_feedback()
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
        # a later draw of a question Moodle cannot draw (write_draws()):
        # no idnumber, the first has it
        later_draw = re.match(r"[^ ]+: \(([0-9]+)/[0-9]+\) ", name) and \
            re.match(r"[^ ]+: \(([0-9]+)/", name).group(1) != "1"
        if (not idn and typ != "description" and not later_draw) or len(idn) > 100:
            bad(where, f"idnumber {idn!r}")
        for tag in q.findall("tags/tag"):
            if not (tag.findtext("text") or "").strip():
                bad(where, "empty tag")
        TYPE_CHECKS[typ](q, where)


def answers_of(q, where, html_text):
    """[(fraction, text, answer element)] of q's <answer>s (import_answer())."""
    out = []
    for j, a in enumerate(q.findall("answer")):
        aw = f"{where} answer {j}"
        try:
            v = float(a.get("fraction"))
        except (TypeError, ValueError):
            bad(aw, f"fraction {a.get('fraction')!r}")
            continue
        if not grade_ok(v):
            bad(aw, f"fraction {v} is not one of Moodle's grades")
        t = text_of(a, aw) if html_text else a.findtext("text") or ""
        if not t.strip():
            bad(aw, "empty answer text")
        text_of(a.find("feedback"), aw + " feedback")
        out.append((v, t, a))
    return out


def check_multichoice(q, where):
    single = q.findtext("single")
    if single not in ("true", "false"):
        bad(where, f"single {single!r}")
    if q.findtext("shuffleanswers") not in ("true", "false", "0", "1"):
        bad(where, "shuffleanswers")
    if q.findtext("answernumbering") not in NUMBERING:
        bad(where, "answernumbering")
    answers = answers_of(q, where, True)
    fr = [v for v, _, _ in answers]
    if len(answers) < 2:
        bad(where, "fewer than 2 answers")
    pos = sum(v for v in fr if v > 0)
    # with marks (issue 36) a single question's other answers may earn a
    # share or take one away, and a multiple one's right answers differ
    marks = any(v not in (0, 100) for v in fr) if single == "true" else \
        len({v for v in fr if v > 0}) > 1 or len({v for v in fr if v <= 0}) > 1
    if single == "true":
        if sorted(fr)[-1:] != [100] or fr.count(100) != 1:
            bad(where, f"single with fractions {fr}")
    else:
        if abs(pos - 100) > 1e-3 * len(fr):
            bad(where, f"positive fractions sum to {pos}, not 100")
        share = max(fr)
        if not marks and any(v < 0 and abs(v + share) > 1e-3 and v != -100 for v in fr):
            bad(where, f"a wrong pick costs neither what a right one gives nor 100: {fr}")


def check_truefalse(q, where):
    ans = answers_of(q, where, False)
    if sorted(t for _, t, _ in ans) != ["false", "true"]:
        bad(where, f"truefalse answers {[t for _, t, _ in ans]}, not 'true' and 'false'")
    if sorted(v for v, _, _ in ans) != [0, 100]:
        bad(where, f"truefalse fractions {[v for v, _, _ in ans]}")


def check_shortanswer(q, where):
    if q.findtext("usecase") not in ("0", "1"):
        bad(where, "usecase")
    ans = answers_of(q, where, False)
    if not any(v == 100 for v, _, _ in ans):
        bad(where, "no answer at 100")
    for _, t, _ in ans:
        if "multilang" in t:
            bad(where, f"a multilang span in an answer the learner must type: {t!r}")


def check_numerical(q, where):
    ans = answers_of(q, where, False)
    if not any(v == 100 for v, _, _ in ans):
        bad(where, "no answer at 100")
    for _, t, a in ans:
        try:
            if t != "*":
                float(t)
            if float(a.findtext("tolerance")) < 0:
                bad(where, "negative tolerance")
        except (TypeError, ValueError):
            bad(where, f"answer {t!r} or tolerance {a.findtext('tolerance')!r} is not a number")
    units = q.findall("units/unit")
    for u in units:
        try:
            float(u.findtext("multiplier"))
        except (TypeError, ValueError):
            bad(where, "unit multiplier")
        if not (u.findtext("unit_name") or "").strip():
            bad(where, "empty unit_name")
    fields = {k: q.findtext(k) for k in ("unitgradingtype", "unitpenalty", "showunits", "unitsleft")}
    if fields["unitgradingtype"] not in ("0", "1", "2") or fields["showunits"] not in ("0", "1", "2", "3") \
            or fields["unitsleft"] not in ("0", "1"):
        bad(where, f"unit options {fields}")
    if units and fields["showunits"] == "3" or not units and fields["showunits"] != "3":
        bad(where, f"showunits {fields['showunits']} with {len(units)} units")
    qt = q.findtext("questiontext/text") or ""
    if units and not re.search("_____+", qt):
        bad(where, "a unit but no answer box placeholder to show it after")
    if len(re.findall("_____+", qt)) > 1:
        bad(where, "more than one run of underscores: Moodle puts the box at the first")


def check_matching(q, where):
    if q.findtext("shuffleanswers") not in ("true", "false", "0", "1"):
        bad(where, "shuffleanswers")
    subs = q.findall("subquestion")
    texts = 0
    for j, sq in enumerate(subs):
        t = text_of(sq, f"{where} subquestion {j}")
        texts += bool(t.strip())
        if sq.find("answer/text") is None or not (sq.findtext("answer/text") or "").strip():
            bad(where, f"subquestion {j} has no answer (Moodle stops the import there)")
    if texts < 2:
        bad(where, f"{texts} subquestions with a text, Moodle needs 2")


def check_cloze(q, where):
    qt = q.findtext("questiontext/text") or ""
    if re.search(r"\{#[0-9]+\}", qt):
        bad(where, "a {#n} in the text before extraction")
    text, gaps = extract_cloze(qt)
    if not gaps:
        bad(where, "no gap Moodle can read")
    if re.search(r"\{[0-9]*:", text) or "{" in re.sub(r"\{#[0-9]+\}", "", text):
        bad(where, "a '{' left in the text that could start a gap: " + text[:120])
    # qtype_multianswer_validate_question()
    for k, (typ, alts) in enumerate(gaps, 1):
        answers = [a for a in alts if a[1].strip()]
        if typ.startswith("MULTICHOICE") and len(answers) < 2:
            bad(where, f"gap {k}: fewer than 2 choices")
        if not any(a[0] == 1 for a in answers):
            bad(where, f"gap {k}: no answer at 100%")
    # the renderer splits at {#n} and marks each gap with a <span> before
    # the filters: the languages' spans must each lie between two gaps
    for frag in re.split(r"\{#[0-9]+\}", text):
        if 'class="multilang"' in multilang(frag, "en"):
            bad(where, "a language's span holds a gap: " + frag[:80])


def check_description(q, where):
    """A passage: Moodle's import_description() reads no answer, grade 0."""
    if q.findall("answer"):
        bad(where, "a description with answers")
    if float(q.findtext("defaultgrade") or "0") != 0:
        bad(where, "a description with a grade")


def check_calc_common(q, where):
    """What import_calculated() reads unguarded (a PHP warning, or a
    NULL in the database, when missing): each answer's tolerance,
    tolerancetype, correctanswerformat and correctanswerlength; each
    dataset's status, name, type, distribution, minimum, maximum, decimals,
    itemcount, items numbered 1..itemcount."""
    if q.findtext("synchronize") not in ("0", "1", "2"):
        bad(where, "synchronize")
    for j, a in enumerate(q.findall("answer")):
        if a.findtext("tolerancetype") not in ("1", "2", "3") or \
                a.findtext("correctanswerformat") not in ("1", "2") or \
                not re.fullmatch(r"[0-9]+", a.findtext("correctanswerlength") or ""):
            bad(where, f"answer {j}: tolerancetype, correctanswerformat or correctanswerlength")
        try:
            float(a.findtext("tolerance"))
        except (TypeError, ValueError):
            bad(where, f"answer {j}: tolerance {a.findtext('tolerance')!r}")
    defs = q.findall("dataset_definitions/dataset_definition")
    if not defs:
        bad(where, "no dataset: Moodle has no variant to draw")
    for d in defs:
        for tag in ("status/text", "name/text", "type", "distribution/text", "minimum/text",
                    "maximum/text", "decimals/text", "itemcount", "number_of_items"):
            if d.find(tag) is None:
                bad(where, f"a dataset without <{tag}>")
        n = int(d.findtext("itemcount") or 0)
        items = [int(i.findtext("number")) for i in d.findall("dataset_items/dataset_item")]
        if items != list(range(1, n + 1)) or not 1 <= n <= 100:
            bad(where, f"dataset {d.findtext('name/text')!r}: items {items[:5]}, itemcount {n}")
        for i in d.findall("dataset_items/dataset_item"):
            try:
                float(i.findtext("value"))
            except (TypeError, ValueError):
                bad(where, f"dataset item value {i.findtext('value')!r}")


def check_calculated(q, where):
    check_calc_common(q, where)
    ans = answers_of(q, where, False)
    if not any(v == 100 for v, _, _ in ans):
        bad(where, "no answer at 100")
    fields = {k: q.findtext(k) for k in ("unitgradingtype", "unitpenalty", "showunits", "unitsleft")}
    if fields["showunits"] not in ("0", "1", "2", "3"):
        bad(where, f"unit options {fields}")


def check_calculatedmulti(q, where):
    check_calc_common(q, where)
    for fb in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
        if not text_of(q.find(fb), f"{where} {fb}").strip():
            bad(where, f"{fb} is empty")
    check_multichoice(q, where)


TYPE_CHECKS = {"multichoice": check_multichoice, "truefalse": check_truefalse,
               "shortanswer": check_shortanswer, "numerical": check_numerical,
               "matching": check_matching, "cloze": check_cloze,
               "description": check_description, "calculated": check_calculated,
               "calculatedsimple": check_calculated, "calculatedmulti": check_calculatedmulti}


def roundtrip(path, dump_path, bankdir):
    dump = json.load(open(dump_path, encoding="utf-8"))
    langs = dump["languages"]
    dl = dump["default_language"]
    order = ([dl] if dl in langs else []) + [l for l in langs if l != dl]
    root = ET.parse(path).getroot()
    qs = [q for q in root.findall("question") if q.get("type") not in ("category", "description")]
    if len(qs) != len(dump["questions"]):
        bad(path, f"{len(qs)} questions, the bank has {len(dump['questions'])}")

    def expect(el, htmls, where, esc="", tail=""):
        """el's text against the dump's {lang: html} (None: absent); esc:
        characters written as character references, tail: what follows."""
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
            # math reaches Moodle's MathJax filter without its span
            h = re.sub(r'<span class="math (?:inline|display)"[^>]*>(.*?)</span>', r"\1", h, flags=re.S)
            h = re.sub(r'src="([^"]+)"', img, h)
            parts.append((lang, "".join(f"&#{ord(ch)};" if ch in esc else ch for ch in h)))
        want = parts[0][1] if len(parts) == 1 else "".join(
            f'<span lang="{l}" class="multilang">{h}</span>' for l, h in parts)
        want += tail
        if got != want:
            bad(where, f"text differs:\n  got  {got!r}\n  want {want!r}")

    # Passages: a description before each run of a passage's questions
    # (its text, its id as the name's start, the idnumber on the first),
    # ended by the next description or category.
    passages = {p["id"]: p for p in dump.get("passages", [])}
    current, seen, k = None, set(), 0
    for q in root.findall("question"):
        typ = q.get("type")
        if typ == "category":
            current = None
        elif typ == "description":
            current = (q.findtext("name/text") or "").split(":")[0]
            where = f"description {current}"
            if current not in passages:
                bad(where, "names no passage of the bank")
                continue
            if (q.findtext("idnumber") or None) != (None if current in seen else current):
                bad(where, f"idnumber {q.findtext('idnumber')!r}")
            seen.add(current)
            expect(q.find("questiontext"), passages[current]["text_html"], where + " questiontext")
        elif k < len(dump["questions"]):
            d = dump["questions"][k]
            k += 1
            if d.get("passage") != current:
                bad(f"question {d['id']}", f"read with passage {current!r}, the bank says {d.get('passage')!r}")

    for q, d in zip(qs, dump["questions"]):
        where = f"question {d['id']}"
        if q.findtext("idnumber") != d["id"]:
            bad(where, f"idnumber {q.findtext('idnumber')!r}")
        if not (q.findtext("name/text") or "").startswith(d["id"] + ": "):
            bad(where, f"name {q.findtext('name/text')!r} does not start with the id")
        if [t.findtext("text") for t in q.findall("tags/tag")] != d["tags"]:
            bad(where, "tags differ")
        expect(q.find("generalfeedback"), d["explanation_html"], where + " generalfeedback")
        fw = d.get("feedback_wrong_html")
        typ = d["type"]
        if typ in ("single", "multiple"):
            want_single = "true" if typ == "single" else "false"
            if q.findtext("single") != want_single:
                bad(where, "single/multiple differs")
            expect(q.find("questiontext"), d["prompt_html"], where + " questiontext")
            answers = q.findall("answer")
            if len(answers) != len(d["choices"]):
                bad(where, "number of answers differs")
            for j, (a, c) in enumerate(zip(answers, d["choices"])):
                aon = typ == "multiple" and d["scoring"] == "all-or-nothing"
                if aon and not c["correct"] and float(a.get("fraction")) != -100:
                    bad(where, f"answer {j}: fraction {a.get('fraction')}, all-or-nothing wants -100")
                if "share" in c:  # marks (issue 36): the option's share, as Moodle's grade
                    if abs(float(a.get("fraction")) - 100 * c["share"]) > 1e-3:
                        bad(where, f"answer {j}: fraction {a.get('fraction')} but share {c['share']}")
                elif (float(a.get("fraction")) > 0) != c["correct"]:
                    bad(where, f"answer {j}: fraction {a.get('fraction')} but correct={c['correct']}")
                expect(a, c["text_html"], f"{where} answer {j}")
                expect(a.find("feedback"), c["feedback_html"] or (None if c["correct"] else fw),
                       f"{where} answer {j} feedback")
        elif typ == "true-false":
            expect(q.find("questiontext"), d["prompt_html"], where + " questiontext")
            got = {a.findtext("text"): a for a in q.findall("answer")}
            for word, c in zip(("true", "false"), d["choices"]):
                a = got.get(word)
                if a is None:
                    bad(where, f"no answer {word!r}")
                    continue
                if (a.get("fraction") == "100") != (d["answer"] == (word == "true")):
                    bad(where, f"answer {word}: fraction {a.get('fraction')}")
                expect(a.find("feedback"), c["feedback_html"] or (None if c["correct"] else fw),
                       f"{where} answer {word} feedback")
        elif typ == "short-answer":
            expect(q.find("questiontext"), d["prompt_html"], where + " questiontext", esc="_")
            cs = d["case_sensitive"]
            if q.findtext("usecase") != ("1" if cs else "0"):
                bad(where, "usecase")
            want = []
            for right in (True, False):
                seen = set()
                for c in d["choices"]:
                    for lang in order:
                        if c["correct"] != right or norm(c["text"][lang], cs) in seen:
                            continue
                        seen.add(norm(c["text"][lang], cs))
                        want.append(("100" if right else "0", c["text"][lang].replace("*", "\\*")))
            if fw:
                want.append(("0", "*"))
            got = [(a.get("fraction"), a.findtext("text")) for a in q.findall("answer")]
            if got != want:
                bad(where, f"short answers {got}, want {want}")
        elif typ == "numeric":
            unit = d["unit"]
            tail = "" if unit is None else f"<p>__________ {html.escape(unit, quote=False)}</p>"
            expect(q.find("questiontext"), d["prompt_html"], where + " questiontext", esc="_",
                   tail=tail)
            a = q.find("answer")
            v, tol = float(a.findtext("text")), float(a.findtext("tolerance"))
            if a.get("fraction") != "100" or abs(v - tol - d["answer"]["min"]) > 1e-9 \
                    or abs(v + tol - d["answer"]["max"]) > 1e-9:
                bad(where, f"{v} ± {tol} is not {d['answer']['min']}..{d['answer']['max']}")
            names = [u.findtext("unit_name") for u in q.findall("units/unit")]
            if names != ([] if unit is None else [unit]):
                bad(where, f"units {names}, want {unit!r}")
            rest = [(x.get("fraction"), x.findtext("text")) for x in q.findall("answer")[1:]]
            if rest != ([("0", "*")] if fw else []):
                bad(where, f"other answers {rest}")
        elif typ == "matching":
            expect(q.find("questiontext"), d["prompt_html"], where + " questiontext")
            subs = q.findall("subquestion")
            if len(subs) != len(d["choices"]):
                bad(where, "number of subquestions differs")
            for j, (sq, c) in enumerate(zip(subs, d["choices"])):
                expect(sq, c["text_html"], f"{where} subquestion {j}")
                right = sq.findtext("answer/text") or ""
                got = plain_spans(right) if len(order) > 1 else {order[0]: html.unescape(right)}
                if got != {lang: c["match"][lang] for lang in order}:
                    bad(where, f"subquestion {j}: answer {got}, want {c['match']}")
            shuffle = "true" if d["shuffle"] and not any(c["pinned"] for c in d["choices"]) else "false"
            if q.findtext("shuffleanswers") != shuffle:
                bad(where, "shuffleanswers")
        elif typ == "cloze":
            text, gaps = extract_cloze(q.findtext("questiontext/text") or "")
            dg = d["gaps"]
            if len(gaps) != len(dg[order[0]]):
                bad(where, f"{len(gaps)} gaps, the bank has {len(dg[order[0]])}")
            for k, (mtype, alts) in enumerate(gaps):
                g = {lang: dg[lang][k] for lang in order}
                if g[order[0]]["kind"] == "typed":
                    cs = d["case_sensitive"]
                    want, seen = [], set()
                    for lang in order:
                        for ans in g[lang]["answers"]:
                            if norm(ans, cs) not in seen:
                                seen.add(norm(ans, cs))
                                want.append((1, ans.replace("*", "\\*")))
                    if fw:
                        want.append((0, "*"))
                    got = [(f, t) for f, t, _ in alts]
                    if mtype != ("SHORTANSWER_C" if cs else "SHORTANSWER") or got != want:
                        bad(where, f"gap {k + 1}: {mtype} {got}, want {want}")
                else:
                    for j, (f, t, fb) in enumerate(alts):
                        got = plain_spans(t) if len(order) > 1 else {order[0]: html.unescape(t)}
                        want = {lang: g[lang]["answers"][j] for lang in order}
                        if got != want or (f == 1) != (j == g[order[0]]["right"]):
                            bad(where, f"gap {k + 1} choice {j}: {f} {got}, want {want}")
                        if bool(fb) != bool(fw and f != 1):
                            bad(where, f"gap {k + 1} choice {j}: feedback {fb!r}")
            for lang in order:
                shown = multilang(text, lang)
                if [int(n) for n in re.findall(r"\{#([0-9]+)\}", shown)] != list(range(1, len(gaps) + 1)):
                    bad(where, f"{lang}: the gaps are not each shown once in order: {shown[:100]}")
        if typ in ("single", "multiple", "matching"):
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
    elif len(sys.argv) == 3 and sys.argv[1] == "editor":
        editor(sys.argv[2])
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
