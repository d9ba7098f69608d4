#!/usr/bin/env python3
"""Benchmarks of qbc (make bench): wall time and peak memory of `qbc check`
and of `qbc build` for every format, on generated banks of growing size, with
the growth ratio between sizes, and two references for the Anki writer:

- genanki writing exactly qbc's notes (../shared/tools/peer-genanki, when it
  is there and Debian's python3-cached-property, python3-frozendict and
  python3-yaml are installed), paired with qbc's Anki build (run one after
  the other, BENCH_RUNS times; the ratio is the median of the pairs');
- the floor: SQLite inserting the package's own rows in one transaction and
  qbc's zip layer deflating them with libdeflate (tests/bench/floor.c), at
  levels 9, 6 (qbc's) and 1;
- the SCORM 2004 player's time to interactive in Chromium (player.mjs), when
  node and tests/node_modules (the browser tests' npm ci) are there.

Speed is measured here, never asserted in tests.

usage: bench.py QBC FLOOR [SIZES...]

Two kinds of bank:
- "real": the first shipped bank's choice questions (input/*.qb, through
  `qbc dump --json`) repeated with numbered ids and prompts: real text
  lengths, both languages, feedback on every option, explanations;
- "synthetic": short generated texts (the old benchmark's bank);
- "languages": the same shipped bank's choice questions once, in L languages
  (codes aaa, aab, ...; each text "[code] " and the English text), for L in
  BENCH_LANGS (default "100 300 1000 3000"): the size column counts languages.

Two more series time other commands on generated sources:
- "translate": `qbc translate` export, import and export over a filled file
  on the synthetic banks (the PO file counts as a source where it is read);
- "moodlexml": `qbc import` of a Moodle XML export (make_moodle_xml()).
"""
import glob
import itertools
import json
import math
import statistics
import os
import re
import shutil
import string
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PLAYER = os.path.join(HERE, "player.mjs")
PEER = os.path.join(ROOT, "..", "shared", "tools", "peer-genanki", "peer-genanki")
ENV = {**os.environ, "SOURCE_DATE_EPOCH": "1764680000", "NO_COLOR": "1"}


INPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "input")


def one_line(s):
    return " ".join(s.split())


def write_text(f, indent, mark, text, langs):
    """One element: 'mark en: ...' then the other languages aligned."""
    pad = " " * len(mark)
    for k, lang in enumerate(langs):
        lead = mark if k == 0 else pad
        f.write(f"{indent}{lead}{lang}: {one_line(text.get(lang, ''))}\n")


def shipped_choice_questions(qbc):
    """The first shipped bank (in name order), through `qbc dump --json`, and
    its single and multiple choice questions."""
    shipped = sorted(glob.glob(os.path.join(ROOT, "input", "*.qb")))[0]
    dump = json.loads(subprocess.run([qbc, "dump", "--json", shipped], check=True,
                                     capture_output=True, text=True).stdout)
    return dump, [q for q in dump["questions"]
                  if q.get("type", "single") in ("single", "multiple")]


def make_real_bank(path, n, qbc):
    dump, qs = shipped_choice_questions(qbc)
    langs = dump["languages"]
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"bank: bench\nlanguages: {' '.join(langs)}\npass-mark: 80%\n")
        f.write("title:\n")
        write_text(f, "  ", "", dump["title"], langs)
        for i in range(n):
            q = qs[i % len(qs)]
            f.write(f"{i + 1}. {q['id']}-{i}\n")
            if q.get("type", "single") != "single":
                f.write(f"   type: {q['type']}\n")
            if q.get("tags"):
                f.write(f"   tags: {' '.join(q['tags'])}\n")
            prompt = {l: f"({i + 1}) {t}" for l, t in q["prompt"].items()}
            write_text(f, "   ", "", prompt, langs)
            for c in q["choices"]:
                write_text(f, "   ", "* " if c["correct"] else "- ", c["text"], langs)
                if c.get("feedback"):
                    write_text(f, "     ", "> ", c["feedback"], langs)
            f.write("   explanation:\n")
            write_text(f, "     ", "", q["explanation"], langs)


def make_lang_bank(path, n, qbc):
    """The shipped bank's choice questions once, in n languages: every text
    "[code] " and its English text."""
    dump, qs = shipped_choice_questions(qbc)
    codes = ["".join(p) for p in itertools.product(string.ascii_lowercase, repeat=3)][:n]

    def every(text):
        return {c: f"[{c}] " + text["en"] for c in codes}

    with open(path, "w", encoding="utf-8") as f:
        f.write(f"bank: bench\nlanguages: {' '.join(codes)}\npass-mark: 80%\n")
        f.write("title:\n")
        write_text(f, "  ", "", every(dump["title"]), codes)
        for i, q in enumerate(qs):
            f.write(f"{i + 1}. {q['id']}\n")
            if q.get("type", "single") != "single":
                f.write(f"   type: {q['type']}\n")
            if q.get("tags"):
                f.write(f"   tags: {' '.join(q['tags'])}\n")
            write_text(f, "   ", "", every(q["prompt"]), codes)
            for c in q["choices"]:
                write_text(f, "   ", "* " if c["correct"] else "- ", every(c["text"]), codes)
                if c.get("feedback"):
                    write_text(f, "     ", "> ", every(c["feedback"]), codes)
            f.write("   explanation:\n")
            write_text(f, "     ", "", every(q["explanation"]), codes)


def make_synthetic_bank(path, n, qbc):
    del qbc
    with open(path, "w", encoding="utf-8") as f:
        f.write("bank: bench\nlanguages: en sw\npass-mark: 80%\n"
                "title:\n  en: Benchmark\n  sw: Kipimo\n")
        for i in range(n):
            f.write(
                f"{i + 1}. q-{i}\n   tags: bench t{i % 10}\n"
                f"   en: Question {i}: which option is *right*? `code {i}`\n"
                f"   sw: Swali {i}: chaguo gani ni *sahihi*? `code {i}`\n")
            for k in range(4):
                mark = "*" if k == i % 4 else "-"
                f.write(f"   {mark} en: Option {k} of question {i}\n"
                        f"     sw: Chaguo {k} cha swali {i}\n"
                        f"     > en: Feedback {k} for question {i}.\n"
                        f"       sw: Maoni {k} kwa swali {i}.\n")
            f.write(f"   explanation:\n     en: Because option {i % 4} is right.\n"
                    f"     sw: Kwa sababu chaguo {i % 4} ni sahihi.\n")


def shipped_params_questions():
    """The source of every parameterised question ('vars:') of the shipped
    banks (input/*.qb in name order), as written: its lines after the
    number line."""
    blocks = []
    for name in sorted(os.listdir(INPUT)):
        if not name.endswith(".qb"):
            continue
        with open(os.path.join(INPUT, name), encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(r"(?m)^\d+\. (\S+)\n((?:[ \t]+\S.*\n|[ \t]*\n(?=[ \t]+\S))*)", text):
            body = m.group(2)
            if re.search(r"(?m)^[ \t]+vars:", body):
                blocks.append((m.group(1), body))
    return blocks


def make_params_bank(path, n, qbc):
    """n parameterised questions (issue 38): the shipped banks' questions
    with 'vars:' (a numeric one with a formula answer and math, a single
    one with computed options) repeated with numbered ids and prompts, as
    the real banks repeat the shipped choice questions; every question
    draws its pool of 20 when the bank is read."""
    del qbc
    blocks = shipped_params_questions()
    with open(path, "w", encoding="utf-8") as f:
        f.write("bank: bench\nlanguages: en sw\npass-mark: 80%\n"
                "title:\n  en: Benchmark\n  sw: Kipimo\n")
        for i in range(n):
            qid, body = blocks[i % len(blocks)]
            body = re.sub(r"(?m)^(    )(en|sw): ", lambda m, i=i: f"{m.group(1)}{m.group(2)}: ({i}) ", body)
            f.write(f"\n{i + 1}. {qid}-{i}\n{body}")


def make_moodle_xml(path, n, qbc):
    """A Moodle XML question bank export of n multiple-choice questions in
    two languages (Moodle's multilang spans), each with four answers and
    their feedback, a general feedback, and a category every 1,000
    questions: the file `qbc import` reads."""
    del qbc

    def ml(en, sw):
        return (f'<span lang="en" class="multilang">{en}</span>'
                f'<span lang="sw" class="multilang">{sw}</span>')

    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n')
        for i in range(n):
            if i % 1000 == 0:
                f.write('  <question type="category">\n    <category>\n'
                        f'      <text>$course$/top/Bench/Part {i // 1000}</text>\n'
                        '    </category>\n  </question>\n')
            prompt = ml(f"Question {i}: which option is <em>right</em>? <code>code {i}</code>",
                        f"Swali {i}: chaguo gani ni <em>sahihi</em>? <code>code {i}</code>")
            f.write(f'  <question type="multichoice">\n    <name><text>q-{i}</text></name>\n'
                    f'    <questiontext format="html">\n      <text><![CDATA[<p>{prompt}</p>]]>'
                    '</text>\n    </questiontext>\n    <generalfeedback format="html">\n'
                    f'      <text><![CDATA[<p>{ml(f"Because option {i % 4} is right.", f"Kwa sababu chaguo {i % 4} ni sahihi.")}</p>]]></text>\n'
                    '    </generalfeedback>\n    <defaultgrade>1</defaultgrade>\n'
                    '    <penalty>0</penalty>\n    <hidden>0</hidden>\n'
                    f'    <idnumber>q-{i}</idnumber>\n    <single>true</single>\n'
                    '    <shuffleanswers>true</shuffleanswers>\n'
                    '    <answernumbering>abc</answernumbering>\n')
            for k in range(4):
                frac = 100 if k == i % 4 else 0
                f.write(f'    <answer fraction="{frac}" format="html">\n'
                        f'      <text><![CDATA[<p>{ml(f"Option {k} of question {i}", f"Chaguo {k} cha swali {i}")}</p>]]></text>\n'
                        '      <feedback format="html">\n'
                        f'        <text><![CDATA[<p>{ml(f"Feedback {k} for question {i}.", f"Maoni {k} kwa swali {i}.")}</p>]]></text>\n'
                        '      </feedback>\n    </answer>\n')
            f.write('  </question>\n')
        f.write('</quiz>\n')


GNU_TIME = "/usr/bin/time"  # Debian's time package
STAT = os.environ.get("BENCH_STAT", "median")


def run(cmd, cwd, ok=(0,)):
    """Wall seconds, the child's peak resident set in MiB, its output and its
    exit code.  The peak comes from GNU time when it is installed: a child
    forked from this Python process counts Python's own pages (about
    15 MiB) until it execs, which wait4() would report for small runs."""
    peak_file = None
    if os.path.exists(GNU_TIME):
        fd, peak_file = tempfile.mkstemp(prefix="qbc-bench-peak-")
        os.close(fd)
        cmd = [GNU_TIME, "-f", "%M", "-o", peak_file] + cmd
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    rc = os.waitstatus_to_exitcode(status)
    mib = usage.ru_maxrss / 1024
    if peak_file:
        with open(peak_file) as f:
            lines = [l for l in f.read().split() if l.isdigit()]
        os.unlink(peak_file)
        mib = int(lines[-1]) / 1024 if lines else mib
    if rc not in ok:
        sys.exit(f"bench: {' '.join(cmd)} failed with exit {rc}")
    return dt, mib, out.decode(errors="replace"), rc


def pick(times):
    """The figure shown for several runs: the median (BENCH_STAT=best: the
    fastest).  On a shared machine the median is the honest one."""
    return min(times) if STAT == "best" else statistics.median(times)


def best(cmd, cwd, runs, ok=(0,)):
    results = [run(cmd, cwd, ok) for _ in range(runs)]
    return (pick([r[0] for r in results]), max(r[1] for r in results), results[-1][2],
            results[-1][3])


def formats(qbc):
    """The formats `qbc build --help` lists (the lines '  *m NAME  ..., written as ...')."""
    text = subprocess.run([qbc, "build", "--help"], capture_output=True, text=True).stdout
    found = []
    for line in text.splitlines():
        m = re.match(r"^ {2}[*m ]{2} (\S+) .*written as", line)
        if m and m.group(1) not in found:
            found.append(m.group(1))
    return found or ["anki", "scorm12", "scorm2004", "json"]


def player_ready():
    """node and playwright-core (tests/node_modules, from the browser tests'
    npm ci) are there, and Chromium."""
    return (shutil.which("node") is not None and os.path.isdir(
        os.path.join(ROOT, "tests", "node_modules", "playwright-core")) and
        os.path.exists(os.environ.get("CHROMIUM", "/usr/bin/chromium")))


def peer_ready():
    if not os.path.exists(PEER):
        return "absent"
    probe = subprocess.run(["/usr/bin/python3", "-c", "import cached_property, frozendict, yaml"],
                           capture_output=True)
    return "ready" if probe.returncode == 0 else "needs python3-cached-property " \
        "python3-frozendict python3-yaml"


def preview_update(qbc, d, runs):
    """Seconds from saving bench.qb to `qbc preview` publishing the change
    (what an open page's long poll receives; the page then draws it): the
    best of runs saves, each a new word in the first question."""
    import http.client
    import re
    p = subprocess.Popen([qbc, "preview", "--port", "0", "bench.qb"], cwd=d,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        m = re.search(r":(\d+)/", p.stdout.readline())
        if not m:
            return None
        port = int(m.group(1))

        def get(path):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            c.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
            body = c.getresponse().read()
            c.close()
            return json.loads(body)

        def cpu():  # the server's CPU seconds so far (user + system)
            fields = open(f"/proc/{p.pid}/stat").read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

        version = get("/api/state")["version"]
        bank = os.path.join(d, "bench.qb")
        text = open(bank, encoding="utf-8").read()
        times = []
        for r in range(runs):
            word = f"edited{r}"
            edited = text.replace("(1) ", f"(1) {word} ", 1)
            c0 = cpu()
            t0 = time.monotonic()
            with open(bank, "w", encoding="utf-8") as f:
                f.write(edited)
            while True:
                state = get(f"/api/wait?v={version}")
                version = state["version"]
                q = state["banks"][0]["questions"]
                if q and word in json.dumps(q[0]["notes"]):
                    break
            times.append((time.monotonic() - t0, cpu() - c0))
        with open(bank, "w", encoding="utf-8") as f:
            f.write(text)
        return min(times)
    finally:
        p.terminate()
        p.wait()


def fill_po(src, dst):
    """Every msgstr of the PO file src filled with "fr " and its msgid (a
    copy of the msgid alone is "the same as the 'en' text", a warning per
    text), into dst."""
    msgid = None
    with open(src, encoding="utf-8") as f, open(dst, "w", encoding="utf-8") as g:
        for line in f:
            if line.startswith('msgid "'):
                msgid = line[7:]
            elif line == 'msgstr ""\n' and msgid and msgid != '"\n':
                line = 'msgstr "fr ' + msgid
            g.write(line)


def row(kind, n, name, dt, mib, src_mib, prev, prev_n):
    """One line of the table: mem/goal against 3 x src_mib + 30."""
    growth = f"{dt / prev[name]:.2f}" if name in prev else ""
    linear = f"{dt / prev[name] / (n / prev_n):.2f}" if name in prev else ""
    per2 = (f"{(dt / prev[name]) ** (math.log(2) / math.log(n / prev_n)):.2f}"
            if name in prev else "")
    mem = f"{mib / (3 * src_mib + 30):.2f}"
    print(f"{kind:<10} {n:>9} {name:<26} {dt:>8.3f} {mib:>7.1f} "
          f"{src_mib:>8.1f} {growth:>7} {linear:>6} {per2:>6} {mem:>8}", flush=True)


def translate_series(qbc, sizes, runs):
    """`qbc translate` on the synthetic banks: export --lang fr, import of
    that file filled, and export over the filled file (the translator's,
    read and kept) on a copy of the bank without fr.  For the import and
    the export over a filled file the PO file is a source too (src MiB:
    the bank and the file)."""
    prev, prev_n = {}, 0
    for n in sizes:
        d = tempfile.mkdtemp(prefix="qbc-bench-")
        try:
            bank = os.path.join(d, "bench.qb")
            make_synthetic_bank(bank, n, qbc)
            shutil.copy(bank, os.path.join(d, "orig.qb"))
            bank_mib = os.path.getsize(bank) / 2**20
            po = os.path.join(d, "bench.fr.po")
            results = {}
            dt, mib, _, _ = best([qbc, "translate", "export", "--lang", "fr", "bench.qb"], d,
                                 runs)
            row("translate", n, "translate export", dt, mib, bank_mib, prev, prev_n)
            results["translate export"] = dt
            fill_po(po, os.path.join(d, "filled.po"))
            po_mib = os.path.getsize(os.path.join(d, "filled.po")) / 2**20
            times, peak = [], 0.0
            for _ in range(runs):
                shutil.copy(os.path.join(d, "orig.qb"), bank)
                dt, mib, _, _ = run([qbc, "translate", "import", "filled.po", "bench.qb"], d)
                times.append(dt)
                peak = max(peak, mib)
            row("translate", n, "translate import", pick(times), peak, bank_mib + po_mib, prev,
                prev_n)
            results["translate import"] = pick(times)
            times, peak = [], 0.0
            for _ in range(runs):
                shutil.copy(os.path.join(d, "orig.qb"), bank)
                shutil.copy(os.path.join(d, "filled.po"), po)
                dt, mib, _, _ = run([qbc, "translate", "export", "--lang", "fr", "bench.qb"], d)
                times.append(dt)
                peak = max(peak, mib)
            row("translate", n, "translate export (filled)", pick(times), peak,
                bank_mib + po_mib, prev, prev_n)
            results["translate export (filled)"] = pick(times)
            prev, prev_n = results, n
        finally:
            shutil.rmtree(d)


def moodlexml_series(qbc, sizes, runs):
    """`qbc import` of a Moodle XML file of n questions (make_moodle_xml())."""
    prev, prev_n = {}, 0
    for n in sizes:
        d = tempfile.mkdtemp(prefix="qbc-bench-")
        try:
            src = os.path.join(d, "bench.moodle.xml")
            make_moodle_xml(src, n, qbc)
            src_mib = os.path.getsize(src) / 2**20
            dt, mib, _, _ = best([qbc, "import", "-o", "bench.qb", "bench.moodle.xml"], d, runs)
            row("moodlexml", n, "import moodlexml", dt, mib, src_mib, prev, prev_n)
            prev, prev_n = {"import moodlexml": dt}, n
        finally:
            shutil.rmtree(d)


def main():
    qbc = os.path.abspath(sys.argv[1])
    floor = os.path.abspath(sys.argv[2])
    sizes = [int(s) for s in sys.argv[3:]] or [1000, 10000]
    nlangs = [int(s) for s in os.environ.get("BENCH_LANGS", "100 300 1000 3000").split()]
    series = os.environ.get("BENCH_SERIES",
                            "real synthetic params languages translate moodlexml").split()
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    fmts = formats(qbc)
    peer = peer_ready()
    print(f"qbc bench: {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, "
          f"{'best' if STAT == 'best' else 'median'} of {runs} runs; genanki: {peer}")
    print(f"{'bank':<10} {'questions':>9} {'step':<26} {'seconds':>8} {'MiB':>7} "
          f"{'src MiB':>8} {'growth':>7} {'linear':>6} {'per 2x':>6} {'mem/goal':>8}")
    print("  growth: time / time at the previous size; linear: growth / size ratio "
          "(1.00 = linear);\n  per 2x: the growth for twice the size at that rate "
          "(issue 12's goal: <= 2.20);\n  mem/goal: peak MiB / (3 x source MiB + 30) "
          "(goal <= 1.00)")
    rows = []
    for kind, make, ns in (("real", make_real_bank, sizes),
                           ("synthetic", make_synthetic_bank, sizes),
                           ("params", make_params_bank, sizes),
                           ("languages", make_lang_bank, nlangs)):
        if kind not in series:
            continue
        prev, prev_n = {}, 0
        for n in ns:
            d = tempfile.mkdtemp(prefix="qbc-bench-")
            try:
                bank = os.path.join(d, "bench.qb")
                make(bank, n, qbc)
                src_mib = os.path.getsize(bank) / 2**20
                steps = [("check", [qbc, "check", "bench.qb"])]
                # The record is written by a first build; timed builds are
                # rebuilds with the record present, as an author's make is.
                # A build writes nothing, record included, when a format
                # rejects the bank (SCORM's saved state, past about 3,000
                # questions): then the record comes from the other formats.
                _, _, _, rc = run([qbc, "build", "--format", ",".join(fmts), "-o", "out",
                                   "bench.qb"], d, ok=(0, 1))
                if rc != 0:
                    run([qbc, "build", "--format",
                         ",".join(f for f in fmts if not f.startswith("scorm")), "-o", "out",
                         "bench.qb"], d)
                for f in fmts:
                    steps.append((f"build {f}",
                                  [qbc, "build", "--format", f, "-o", "out", "bench.qb"]))
                # SCORM's saved state rejects the bigger banks whole; with
                # "draw: 20" (each attempt draws 20 questions) every size
                # builds, so its growth can be measured too.
                scorms = [f for f in fmts if f.startswith("scorm")]
                if scorms and kind != "languages":
                    with open(bank, encoding="utf-8") as src, \
                            open(os.path.join(d, "drawn.qb"), "w", encoding="utf-8") as dst:
                        first = src.readline()
                        dst.write(first + "draw: 20\n" + src.read())
                    run([qbc, "build", "--format", ",".join(scorms), "-o", "out-drawn",
                         "drawn.qb"], d, ok=(0, 1))
                    for f in scorms:
                        steps.append((f"build {f} (draw 20)",
                                      [qbc, "build", "--format", f, "-o", "out-drawn",
                                       "drawn.qb"]))
                results = {}
                for name, cmd in steps:
                    dt, mib, _, rc = best(cmd, d, runs, ok=(0, 1))
                    if rc != 0 and name != "check":
                        # The format's limits reject the bank (SCORM's
                        # saved state): nothing was built to time.
                        print(f"{kind:<10} {n:>9} {name:<26} {'rejected: too big for the format'}",
                              flush=True)
                        continue
                    results[name] = dt
                    growth = f"{dt / prev[name]:.2f}" if name in prev else ""
                    linear = f"{dt / prev[name] / (n / prev_n):.2f}" if name in prev else ""
                    per2 = (f"{(dt / prev[name]) ** (math.log(2) / math.log(n / prev_n)):.2f}"
                            if name in prev else "")
                    mem = f"{mib / (3 * src_mib + 30):.2f}"
                    print(f"{kind:<10} {n:>9} {name:<26} {dt:>8.3f} {mib:>7.1f} "
                          f"{src_mib:>8.1f} {growth:>7} {linear:>6} {per2:>6} {mem:>8}",
                          flush=True)
                    rows.append((kind, n, name, dt, mib))
                scorm = os.path.join(d, "out", "bench.scorm2004.zip")
                if kind == "real" and os.path.exists(scorm) and player_ready():
                    p = subprocess.run(["node", PLAYER, scorm, str(runs)], capture_output=True,
                                       text=True)
                    if p.returncode == 0:
                        print(f"{kind:<10} {n:>9} {'player interactive':<26} "
                              f"{float(p.stdout):>8.3f}", flush=True)
                apkg = os.path.join(d, "out", "bench.apkg")
                if kind == "real" and os.path.exists(apkg) and os.path.exists(floor):
                    for level in (9, 6, 1):
                        secs = [float(run([floor, apkg, os.path.join(d, "floor.apkg"),
                                           str(level)], d)[2]) for _ in range(runs)]
                        # qbc deflates at libdeflate level 6 (zipw.h): the floor to compare with.
                        ratio = (f"  qbc/floor {results.get('build anki', 0) / pick(secs):.2f}"
                                 if level == 6 and pick(secs) > 0 else "")
                        print(f"{kind:<10} {n:>9} {'floor (sqlite+zip -' + str(level) + ')':<26} "
                              f"{pick(secs):>8.3f}{ratio}", flush=True)
                    if peer == "ready":
                        # Paired: qbc and genanki run one after the other,
                        # runs times, so both see the same load; the ratio
                        # is the median of the pairs' ratios.
                        qt, gt, gm = [], [], 0.0
                        for _ in range(runs):
                            qt.append(run([qbc, "build", "--format", "anki", "-o", "out",
                                           "bench.qb"], d)[0])
                            dt, mib, _, _ = run([PEER, apkg, os.path.join(d, "peer.apkg")], d)
                            gt.append(dt)
                            gm = max(gm, mib)
                        ratio = statistics.median(q / g for q, g in zip(qt, gt))
                        print(f"{kind:<10} {n:>9} {'genanki, same notes':<26} {pick(gt):>8.3f} "
                              f"{gm:>7.1f} {'':>8} {'':>7}  qbc/genanki {ratio:.2f} (paired, "
                              f"qbc {pick(qt):.3f} s); qbc's package {os.path.getsize(apkg):,} "
                              f"bytes, genanki's {os.path.getsize(os.path.join(d, 'peer.apkg')):,}",
                              flush=True)
                if kind == "real" and n == 1000:
                    got = preview_update(qbc, d, runs)
                    if got is not None:
                        print(f"{kind:<10} {n:>9} {'preview: save to page':<26} {got[0]:>8.3f}"
                              f"  (goal < 1 s; the server's CPU time: {got[1]:.3f} s)",
                              flush=True)
                prev, prev_n = results, n
            finally:
                shutil.rmtree(d)
    if "translate" in series:
        translate_series(qbc, sizes, runs)
    if "moodlexml" in series:
        moodlexml_series(qbc, sizes, runs)


if __name__ == "__main__":
    main()
