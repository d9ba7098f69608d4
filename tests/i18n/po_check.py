#!/usr/bin/env python3
"""tests/i18n/po_check.py - compares qbc's output in English with the same
output in another language, message by message, against that language's
catalogue (compiler/po/<ll>.po).  Prints "ok NAME" or "FAIL NAME: why"
per check; run.sh counts them.

  po_check.py diag PO NAME ENGLISH TRANSLATED   a diagnostics transcript
  po_check.py help PO NAME ENGLISH TRANSLATED   a --help text
  po_check.py ids NAME COMMITTED EXTRACTED      the same messages in two templates

A format from the catalogue becomes a pattern (each directive matches any
text), so a line matches a message whatever was put into it; a message
built from translated words (question names, option words) still matches.
"""
import re
import sys


def unquote(s):
    out, i = [], 0
    esc = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            out.append(esc.get(s[i + 1], s[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def read_ids(path):
    """The messages of a template or catalogue: (msgid, msgid_plural) pairs."""
    ids = set()
    with open(path, encoding="utf-8") as f:
        for block in f.read().split("\n\n"):
            cur, key = {}, None
            for line in block.split("\n"):
                m = re.match(r'^(msgid_plural|msgid) "(.*)"$', line)
                if m:
                    key = m.group(1)
                    cur[key] = unquote(m.group(2))
                elif line.startswith('"') and key:
                    cur[key] += unquote(line[1:-1])
                elif not line.startswith('"'):
                    key = None
            if cur.get("msgid"):
                ids.add((cur["msgid"], cur.get("msgid_plural")))
    return ids


def same_ids(name, committed, extracted):
    a, b = read_ids(committed), read_ids(extracted)
    if a == b and a:
        print("ok %s (%d messages)" % (name, len(a)))
        return
    missing = sorted(m for m, _ in b - a)
    extra = sorted(m for m, _ in a - b)
    print("FAIL %s: %d messages of the code missing from the template (run 'make pot'), e.g. %r; "
          "%d no longer in the code, e.g. %r" % (name, len(missing), missing[:2], len(extra), extra[:2]))


def read_po(path):
    """Entries as (English forms, translated forms), from the blocks of the
    file (an entry per paragraph); untranslated and fuzzy ones left out."""
    entries = []
    with open(path, encoding="utf-8") as f:
        blocks = f.read().split("\n\n")
    for block in blocks:
        cur, key, flags = {}, None, ""
        for line in block.split("\n"):
            if line.startswith("#,"):
                flags += line
            elif line.startswith("#") or not line:
                continue
            elif line.startswith('"') and key:
                cur[key] += unquote(line[1:-1])
            else:
                m = re.match(r'^(msgid_plural|msgid|msgstr(?:\[\d+\])?) "(.*)"$', line)
                if m:
                    key = m.group(1)
                    cur[key] = unquote(m.group(2))
        if not cur.get("msgid") or "fuzzy" in flags:
            continue
        en = [cur["msgid"]] + ([cur["msgid_plural"]] if "msgid_plural" in cur else [])
        tr = [v for k, v in sorted(cur.items()) if k.startswith("msgstr") and v]
        if tr:
            entries.append((en, tr))
    return entries


DIRECTIVE = re.compile(r"%(?:\d+\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|j|t|L)?[diouxXeEfgGcsp%]")


def pattern(fmt):
    out, pos = [], 0
    for m in DIRECTIVE.finditer(fmt):
        out.append(re.escape(fmt[pos:m.start()]))
        out.append("%" if m.group(0) == "%%" else "(.*?)")
        pos = m.end()
    out.append(re.escape(fmt[pos:]))
    return re.compile("".join(out), re.S)


class Catalogue:
    def __init__(self, path):
        self.entries = [([pattern(e) for e in en], [pattern(t) for t in tr], en, tr)
                        for en, tr in read_po(path)]
        self.plain = {}
        for en, tr in read_po(path):
            self.plain.setdefault(en[0], tr[0])

    def candidates(self, english):
        return [e for e in self.entries if any(p.fullmatch(english) for p in e[0])]

    def matches(self, english, translated):
        """None when translated is a translation of english, else why not."""
        cands = self.candidates(english)
        if not cands:
            return "no message of the catalogue reads %r" % english
        if translated == english:
            return "not translated: %r" % english
        for _, trp, _, _ in cands:
            if any(p.fullmatch(translated) for p in trp):
                return english_left(translated)
        return "%r is no translation of %r (expected e.g. %r)" % (translated, english, cands[0][3][0])


# Words of English prose that no translation keeps: one of them outside
# the 'quoted' parts (ids, keywords, the author's text) is a piece of the
# message that was put together from English words.
ENGLISH = re.compile(r"\b(the|of|has|is|with|which|this|an|and|not|no|for|to|are)\b")


def english_left(translated):
    prose = re.sub(r"(^|[ (])'[^']*'(?=$|[^A-Za-z0-9])", " ", translated)
    m = ENGLISH.search(prose)
    return None if not m else "English word %r left in %r" % (m.group(1), translated)


def verdict(name, problems, compared, what):
    """One line for run.sh: a check that compared nothing fails too."""
    if problems:
        print("FAIL %s: %s" % (name, "; ".join(problems[:3])))
    elif not compared:
        print("FAIL %s: no %s to compare" % (name, what))
    else:
        print("ok %s (%d %s)" % (name, compared, what))


HEAD = re.compile(r"^(.*?): (error|warning|note): (.*)$")


def diag(cat, name, english, translated):
    en = open(english, encoding="utf-8").read().split("\n")
    tr = open(translated, encoding="utf-8").read().split("\n")
    words = {k: cat.plain.get(k, k) for k in ("error", "warning", "note")}
    if len(en) != len(tr):
        print("FAIL %s: %d lines in English, %d translated" % (name, len(en), len(tr)))
        return
    if en == [""] and tr == [""]:
        print("ok %s (no message, none translated)" % name)
        return
    problems, messages = [], 0
    for n, (e, t) in enumerate(zip(en, tr), 1):
        if not e:
            if t:
                problems.append("line %d: %r where English has none" % (n, t))
            continue
        m = HEAD.match(e)
        if m:
            where, kind, msg = m.groups()
            prefix = "%s: %s: " % (where, words[kind])
            if not t.startswith(prefix):
                problems.append("line %d: %r does not start with %r" % (n, t, prefix))
                continue
            rest = t[len(prefix):]
            # "[moodlexml] ": the output format a message is about, the
            # same --format name in every language.
            tag = re.match(r"\[[a-z0-9]+\] ", msg)
            if tag and not rest.startswith(tag.group(0)):
                problems.append("line %d: %r does not keep %r" % (n, t, tag.group(0)))
                continue
            if tag:
                msg, rest = msg[tag.end():], rest[tag.end():]
            why = cat.matches(msg, rest)
        elif re.match(r"^ *\d* \| ", e):  # the quoted line and its caret: unchanged
            why = None if e == t else "line %d: the quote changed: %r, not %r" % (n, t, e)
        else:  # a summary line and the like, whole
            why = cat.matches(e + "\n", t + "\n") if cat.candidates(e + "\n") else cat.matches(e, t)
        messages += 1
        if why:
            problems.append("line %d: %s" % (n, why))
    verdict(name, problems, messages, "lines")


def help_text(cat, name, english, translated):
    """Every line that is a translatable text in English is translated;
    the usage lines (commands, options, keywords) stay as they are."""
    en = open(english, encoding="utf-8").read()
    tr = open(translated, encoding="utf-8").read()
    problems, texts = [], 0
    # Whole blocks printed from one message (headings, the exit status).
    blocks = [(e, t) for _, _, ens, ts in cat.entries for e, t in zip(ens, ts) if "\n" in e and e in en]
    for e, t in blocks:
        texts += 1
        if t not in tr:
            problems.append("block %r is not shown as %r" % (e[:40], t[:40]))
    en_lines, tr_lines = en.split("\n"), tr.split("\n")
    if len(en_lines) != len(tr_lines):
        problems.append("%d lines in English, %d translated" % (len(en_lines), len(tr_lines)))
    for e, t in zip(en_lines, tr_lines):
        m = re.match(r"^(  (?:-., )?(?:    )?--\S+(?: \S+)?\s+)(.*)$", e)
        if m:  # an option: the option as it is, its description translated
            texts += 1
            want = cat.plain.get(m.group(2))
            if want is None:
                problems.append("option help %r is not in the catalogue" % m.group(2))
            elif t != m.group(1) + want:
                problems.append("%r, not %r" % (t, m.group(1) + want))
        elif e.startswith("  qbc ") and e != t:  # usage lines stay
            problems.append("usage line changed: %r" % t)
        elif e.startswith("      ") and e.strip() in cat.plain:  # a command's description
            texts += 1
            if t.strip() != cat.plain[e.strip()]:
                problems.append("%r is not translated" % e.strip())
    verdict(name, problems, texts, "texts")


if __name__ == "__main__":
    if sys.argv[1] == "ids":
        same_ids(*sys.argv[2:5])
        sys.exit(0)
    if sys.argv[1] == "diag-list":
        # One catalogue for many transcripts: each line of standard input
        # is NAME<TAB>ENGLISH<TAB>TRANSLATED (reading the catalogue is
        # most of the time of one comparison).
        cat = Catalogue(sys.argv[2])
        for line in sys.stdin:
            diag(cat, *line.rstrip("\n").split("\t"))
        sys.exit(0)
    mode, po, name, english, translated = sys.argv[1:6]
    cat = Catalogue(po)
    {"diag": diag, "help": help_text}[mode](cat, name, english, translated)
