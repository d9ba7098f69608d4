#!/usr/bin/python3
"""model.py --qbc QBC [--seeds 1-6] [--steps 60] [--verbose]

The model-based test of the stale rules (compiler/stale.c).  Each seed
drives a random sequence of events on a small bank (title, two questions
of prompt, two options and explanation; languages en sw, fr added by
import and removed) through the real CLI:

  edit an English text, edit a translation, edit both, import sw or fr
  (each unit kept, retranslated or left fuzzy, with or without
  --reviewed; fr added when missing), `qbc review` (all, one language,
  one question), add (by import) and remove French, rename a question,
  put back an earlier version of the bank keeping the record (what `git
  checkout` of the bank does), `qbc build`.

It keeps its own model of the bank and of the record: per text (element,
language) the version of its text, and per record entry the version it
was recorded at, its basis (the version of each other language's text it
was written against, in the short form of a two-language bank or the
pairs form of three) and its reviewed mark, updated by the rules table
written again below (RULES), independently of the C code.  After every
step it compares what qbc says with the model: the stale warnings of
`qbc check` (which texts, in which language), the record's entries and
reviewed marks (the .lock file), the bank's languages, and at each import
the states of the exported units (fuzzy, `#. reviewed`).  A difference
prints the seed, the step and the events so far: replay with --seeds N.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

SAME, DIFFERS, NONE = "same", "differs", "none"
NEW, UNCHANGED, CAUGHT, CHANGED = "new", "unchanged", "caught", "changed"
LOST = -1  # a part out of date whose old text no form can name again

# The rules table (compiler/stale.c, input/README.md): for a text that did
# not change since the record and another language K, from the part of
# its basis for K and what K's text did: (stale for K, the build takes K).
RULES = {
    (SAME, NEW): (False, False), (SAME, UNCHANGED): (False, False),
    (SAME, CAUGHT): (False, False), (SAME, CHANGED): (False, False),
    (NONE, NEW): (False, True), (NONE, UNCHANGED): (False, True),
    (NONE, CAUGHT): (False, True), (NONE, CHANGED): (False, True),
    (DIFFERS, NEW): (False, True), (DIFFERS, CAUGHT): (False, True),
    (DIFFERS, UNCHANGED): (True, False), (DIFFERS, CHANGED): (True, False),
}

ELEMS = ["prompt", "option-1", "option-2", "explanation"]


class Entry:
    """A text line of the record: h the version recorded, form 'short'
    (written in a bank of two languages: one other language) or 'pairs',
    basis {lang: version}, reviewed."""

    def __init__(self, h, form, basis, reviewed=False):
        self.h, self.form, self.basis, self.reviewed = h, form, dict(basis), reviewed

    def copy(self):
        return Entry(self.h, self.form, self.basis, self.reviewed)

    def key(self):
        return (self.form, tuple(sorted(self.basis.items())))


class Model:
    def __init__(self):
        self.counter = 0
        self.langs = ["en", "sw"]
        self.qids = ["alpha", "beta"]
        # texts[(slot, elem)][lang] = version; slot: "-" or a question's index
        self.texts = {}
        for lang in self.langs:
            self.texts.setdefault(("-", "title"), {})[lang] = self.new()
        for i in range(len(self.qids)):
            for e in ELEMS:
                for lang in self.langs:
                    self.texts.setdefault((i, e), {})[lang] = self.new()
        self.record = {}  # (qid, elem, lang) -> Entry
        self.renames = 0

    def new(self):
        self.counter += 1
        return self.counter

    # ---- the bank ----
    def snapshot(self):
        return (list(self.langs), list(self.qids), {k: dict(v) for k, v in self.texts.items()})

    def restore(self, snap):
        self.langs, self.qids, texts = list(snap[0]), list(snap[1]), snap[2]
        self.texts = {k: dict(v) for k, v in texts.items()}

    def qid_of(self, slot):
        return "-" if slot == "-" else self.qids[slot]

    def elements(self):
        """(qid, elem, slot) of every element, in bank order."""
        out = [("-", "title", "-")]
        for i, q in enumerate(self.qids):
            out += [(q, e, i) for e in ELEMS]
        return out

    def cur(self, slot, elem):
        return {lang: self.texts[(slot, elem)].get(lang) for lang in self.langs}

    def text(self, lang, v):
        return "%s text %d" % (lang, v)

    def render(self):
        out = ["bank: small", "languages: " + " ".join(self.langs), "default-language: en", "",
               "title:"]
        out += ["  %s: %s" % (l, self.text(l, self.texts[("-", "title")][l])) for l in self.langs]
        for i, q in enumerate(self.qids):
            out += ["", "%d. %s" % (i + 1, q)]
            t = lambda e, l: self.text(l, self.texts[(i, e)][l])  # noqa: E731
            out += ["   %s: %s" % (l, t("prompt", l)) for l in self.langs]
            for n, mark in ((1, "*"), (2, "-")):
                for j, l in enumerate(self.langs):
                    out.append("   %s %s: %s" % (mark if j == 0 else " ", l, t("option-%d" % n, l)))
            out.append("   explanation:")
            out += ["     %s: %s" % (l, t("explanation", l)) for l in self.langs]
        return "\n".join(out) + "\n"

    # ---- the record, by the rules ----
    def form(self):
        return "short" if len(self.langs) == 2 else "pairs"

    def canonical(self, cur, self_lang):
        return Entry(cur[self_lang], self.form(),
                     {k: v for k, v in cur.items() if k != self_lang})

    def part(self, e, self_lang, k, cur):
        if e.form == "pairs":
            if k not in e.basis:
                return NONE
            return SAME if e.basis[k] == cur[k] else DIFFERS
        (x, v), = e.basis.items()
        if len(self.langs) == 2:
            return SAME if x == k and v == cur[k] else DIFFERS
        if x == k and v == cur[k]:
            return SAME
        if x != self_lang and x in cur and x != k and v == cur[x]:
            return NONE  # the basis is another language's: k came later
        return DIFFERS

    def matches(self, e, self_lang, cur):
        c = self.canonical(cur, self_lang)
        return e.form == c.form and e.basis == c.basis

    def state(self, qid, elem, cur):
        old = {k: self.record.get((qid, elem, k)) for k in self.langs}
        changed = {k: old[k] is None or old[k].h != cur[k] for k in self.langs}
        caught = {}
        for k in self.langs:
            caught[k] = changed[k] and (old[k] is None or any(
                j != k and old[j] is not None and not changed[j] and
                self.part(old[k], k, j, cur) == DIFFERS for j in self.langs))
        return old, changed, caught

    def judge(self, e, self_lang, cur, st):
        old, changed, caught = st
        stale, take, settled = False, {}, False
        for k in self.langs:
            take[k] = True
            if k == self_lang:
                continue
            p = self.part(e, self_lang, k, cur)
            other = NEW if old[k] is None else UNCHANGED if not changed[k] else \
                CAUGHT if caught[k] else CHANGED
            s, t = RULES[(p, other)]
            take[k] = t
            settled |= t and p == DIFFERS and other == CAUGHT
            stale |= s
        return stale, take, settled

    def rebase(self, e, self_lang, cur, take):
        """The basis of e brought up to date for take; e changed in place.
        True when its basis changed."""
        before = e.key()
        parts = {k: self.part(e, self_lang, k, cur) for k in self.langs if k != self_lang}
        current = all(p == SAME or take[k] for k, p in parts.items())
        took = any(p != SAME and take[k] for k, p in parts.items())
        if current:
            c = self.canonical(cur, self_lang)
            e.form, e.basis = c.form, c.basis
        elif self.form() == "pairs" and (took or e.form == "short"):
            nb = {}
            for k, p in parts.items():
                if p == SAME or take[k]:
                    nb[k] = cur[k]
                elif p == NONE:
                    continue
                else:
                    nb[k] = e.basis[k] if e.form == "pairs" else LOST
            e.form, e.basis = "pairs", nb
        elif e.form == "pairs" and len(self.langs) == 2:
            other = [k for k in self.langs if k != self_lang][0]
            e.form, e.basis = "short", {other: LOST}
        return e.key() != before

    def stale_set(self):
        out = set()
        for qid, elem, slot in self.elements():
            cur = self.cur(slot, elem)
            st = None
            for lang in self.langs:
                e = self.record.get((qid, elem, lang))
                if e is None or e.h != cur[lang] or self.matches(e, lang, cur):
                    continue
                st = st or self.state(qid, elem, cur)
                if self.judge(e, lang, cur, st)[0]:
                    out.add((qid, elem, lang))
        return out

    def build(self):
        rec = {}
        for qid, elem, slot in self.elements():
            cur = self.cur(slot, elem)
            st = self.state(qid, elem, cur)
            for lang in self.langs:
                o = self.record.get((qid, elem, lang))
                if o is not None and o.h == cur[lang]:
                    e = o.copy()
                    if not self.matches(o, lang, cur):
                        _, take, settled = self.judge(o, lang, cur, st)
                        self.rebase(e, lang, cur, take)
                        e.reviewed = o.reviewed and not settled and self.matches(e, lang, cur)
                else:
                    e = self.canonical(cur, lang)
                rec[(qid, elem, lang)] = e
        self.record = rec

    def review(self, lang=None, qid=None):
        n = 0
        for q, elem, slot in self.elements():
            if qid is not None and q != qid:
                continue
            cur = self.cur(slot, elem)
            st = self.state(q, elem, cur)  # before any of the element is marked
            for l in self.langs:
                e = self.record.get((q, elem, l))
                if e is None or (lang and l != lang) or e.h != cur[l] or self.matches(e, l, cur):
                    continue
                if self.judge(e, l, cur, st)[0]:
                    c = self.canonical(cur, l)
                    e.form, e.basis, e.reviewed = c.form, c.basis, True
                    n += 1
        return n

    def set_text(self, qid, elem, slot, lang, current, reviewed):
        cur = self.cur(slot, elem)
        me = self.record.get((qid, elem, lang))
        if me is None:
            return
        if me.h != cur[lang]:
            me.reviewed = False
        me.h = cur[lang]
        take = {k: k == lang for k in self.langs}
        for k in self.langs:
            e = self.record.get((qid, elem, k))
            if k == lang or e is None:
                continue
            if self.rebase(e, k, cur, take):
                e.reviewed = False
        if current:
            c = self.canonical(cur, lang)
            if (me.form, me.basis) != (c.form, c.basis):
                me.form, me.basis, me.reviewed = c.form, c.basis, False
            if reviewed:
                me.reviewed = True

    def reviewed_export(self, lang, stale):
        """The units an export marks reviewed."""
        out = set()
        for qid, elem, slot in self.elements():
            e = self.record.get((qid, elem, lang))
            cur = self.cur(slot, elem)
            if e and e.reviewed and e.h == cur[lang] and (qid, elem, lang) not in stale:
                out.add((qid, elem))
        return out


class Difference(Exception):
    pass


class Runner:
    def __init__(self, qbc, seed, steps, verbose):
        self.qbc, self.seed, self.steps, self.verbose = qbc, seed, steps, verbose
        self.rng = random.Random(seed)
        self.m = Model()
        self.dir = tempfile.mkdtemp(prefix="qbc-model-")
        self.bank = os.path.join(self.dir, "b.qb")
        self.log = []
        self.history = []

    def qbc_run(self, *args, ok=(0,)):
        env = dict(os.environ, NO_COLOR="1", LC_MESSAGES="C")
        env.pop("LANGUAGE", None)
        env.pop("LC_ALL", None)
        p = subprocess.run([self.qbc] + list(args), cwd=self.dir, capture_output=True,
                           text=True, env=env)
        if p.returncode not in ok:
            raise Difference("qbc %s exited %d:\n%s%s" % (" ".join(args), p.returncode,
                                                         p.stdout, p.stderr))
        return p

    def write_bank(self):
        with open(self.bank, "w", encoding="utf-8") as f:
            f.write(self.m.render())

    # ---- what qbc says ----
    def qbc_stale(self):
        p = self.qbc_run("check", "b.qb")
        out = set()
        for m in re.finditer(r"warning: '([^']+)' text of (.*?) may be stale", p.stderr):
            lang, what = m.groups()
            if what == "the bank's title":
                out.add(("-", "title", lang))
                continue
            w = re.fullmatch(r"question '([^']+)' (prompt|explanation|option (\d+))", what)
            if not w:
                raise Difference("unknown element in: " + m.group(0))
            elem = "option-" + w.group(3) if w.group(3) else w.group(2)
            out.add((w.group(1), elem, lang))
        return out

    def qbc_record(self):
        path = os.path.join(self.dir, "b.lock")
        rec = {}
        if os.path.exists(path):
            for line in open(path, encoding="utf-8"):
                f = line.split()
                if f and f[0] == "text":
                    rec[(f[1], f[2], f[3])] = len(f) > 6 and f[6] == "reviewed"
        return rec

    def compare(self, what):
        want = self.m.stale_set()
        got = self.qbc_stale()
        if want != got:
            raise Difference("%s: stale texts differ\n  qbc only:   %s\n  model only: %s" % (
                what, sorted(got - want), sorted(want - got)))
        rec = self.qbc_record()
        mrec = {k: e.reviewed for k, e in self.m.record.items()}
        if rec != mrec:
            diff = sorted(set(rec.items()) ^ set(mrec.items()))
            raise Difference("%s: the record's entries or reviewed marks differ: %s\n"
                             "  (qbc: %s)" % (what, diff, sorted(k for k, v in rec.items() if v)))
        langs = re.search(r"^languages: (.*)$", open(self.bank, encoding="utf-8").read(), re.M)
        if langs.group(1).split() != self.m.langs:
            raise Difference("%s: the bank's languages are %s, the model's %s" % (
                what, langs.group(1), self.m.langs))

    # ---- events ----
    def pick_elem(self):
        return self.rng.choice(self.m.elements())

    def ev_edit(self, langs):
        qid, elem, slot = self.pick_elem()
        for lang in langs:
            self.m.texts[(slot, elem)][lang] = self.m.new()
        self.write_bank()
        return "edit %s/%s in %s" % (qid, elem, "+".join(langs))

    def ev_build(self):
        self.qbc_run("build", "--format", "json", "-o", "dist", "b.qb")
        self.m.build()
        return "build"

    def ev_review(self):
        how = self.rng.choice(["all", "lang", "question"])
        args, lang, qid = [], None, None
        if how == "lang":
            lang = self.rng.choice(self.m.langs)
            args = ["--lang", lang]
        elif how == "question":
            qid = self.rng.choice(self.m.qids)
            args = ["--question", qid]
        p = self.qbc_run("review", *args, "b.qb")
        n = self.m.review(lang, qid)
        m = re.search(r": (\d+) translations? marked as reviewed", p.stdout)
        if not m or int(m.group(1)) != n:
            raise Difference("review %s: qbc says %r, the model %d" % (how, p.stdout, n))
        return "review " + " ".join(args)

    def ev_import(self, lang):
        adding = lang not in self.m.langs
        po = os.path.join(self.dir, "b.%s.po" % lang)
        if os.path.exists(po):
            os.remove(po)
        self.qbc_run("translate", "export", "--lang", lang, "b.qb")
        text = open(po, encoding="utf-8").read()
        if not adding:
            self.check_export(lang, text)
        reviewed = self.rng.random() < 0.2
        units = {}  # key -> (qid, elem, slot, new version or None: empty, fuzzy)
        targets = {}
        for qid, elem, slot in self.m.elements():
            key = "title" if qid == "-" else "%s/%s" % (qid, elem.replace("option-", "option "))
            r = self.rng.random()
            old = self.m.texts[(slot, elem)].get(lang)
            if adding or old is None:
                v = self.m.new()
            elif r < 0.1:
                v = None  # left empty: left out
            elif r < 0.55:
                v = old
            else:
                v = self.m.new()
            fuzzy = v is not None and self.rng.random() < 0.25
            units[key] = (qid, elem, slot, v, fuzzy)
            if v is not None:
                targets[key] = self.m.text(lang, v)
        # the translator's file: targets and fuzzy marks
        out = []
        file_reviewed = set()
        for block in text.split("\n\n"):
            ctx = re.search(r'^msgctxt "(.*)"$', block, re.M)
            if not ctx:
                out.append(block)
                continue
            qid, elem, slot, v, fuzzy = units[ctx.group(1)]
            # qbc's own "#. reviewed" on a translation left as exported
            # and not fuzzy marks it reviewed again on import
            if (re.search(r"^#\. reviewed$", block, re.M) and not fuzzy
                    and v is not None and v == self.m.texts[(slot, elem)].get(lang)):
                file_reviewed.add(ctx.group(1))
            lines = [l for l in block.split("\n")
                     if not l.startswith(("#, fuzzy", "#|", "msgstr"))]
            if fuzzy:
                i = next(i for i, l in enumerate(lines) if l.startswith("msgctxt"))
                lines.insert(i, "#, fuzzy")
            lines.append('msgstr "%s"' % targets.get(ctx.group(1), ""))
            out.append("\n".join(lines))
        with open(os.path.join(self.dir, "t.po"), "w", encoding="utf-8") as f:
            f.write("\n\n".join(out))
        args = ["translate", "import"] + (["--reviewed"] if reviewed else []) + ["t.po", "b.qb"]
        self.qbc_run(*args)
        # what the import records: every unit it wrote, and the ones it
        # confirmed (the same text, not fuzzy); an unchanged unit left
        # fuzzy is left alone
        before = {(u[0], u[1]): self.m.texts[(u[2], u[1])].get(lang) for u in units.values()}
        if adding:
            self.m.langs.append(lang)
        for qid, elem, slot, v, fuzzy in units.values():
            if v is not None:
                self.m.texts[(slot, elem)][lang] = v
        for key, (qid, elem, slot, v, fuzzy) in units.items():
            cur = reviewed or not fuzzy
            if v is not None and (cur or v != before[(qid, elem)]):
                self.m.set_text(qid, elem, slot, lang, cur,
                                cur and (reviewed or key in file_reviewed))
        # the bank as qbc wrote it is the model's (its layout aside)
        self.write_bank()
        nf = sum(1 for u in units.values() if u[4])
        return "import %s%s (%d fuzzy)" % (lang, " --reviewed" if reviewed else "", nf)

    def check_export(self, lang, text):
        stale = self.m.stale_set()
        fuzzy, rev = set(), set()
        for block in text.split("\n\n"):
            ctx = re.search(r'^msgctxt "(.*)"$', block, re.M)
            if not ctx or re.search(r'^msgstr ""$', block, re.M):
                continue
            key = ctx.group(1)
            qid, elem = ("-", "title") if key == "title" else key.split("/")
            elem = elem.replace("option ", "option-")
            if re.search(r"^#, fuzzy", block, re.M):
                fuzzy.add((qid, elem))
            if re.search(r"^#\. reviewed$", block, re.M):
                rev.add((qid, elem))
        want = {(q, e) for q, e, l in stale if l == lang}
        if fuzzy != want:
            raise Difference("export %s: fuzzy units %s, the model's stale %s" % (
                lang, sorted(fuzzy), sorted(want)))
        want = self.m.reviewed_export(lang, stale)
        if rev != want:
            raise Difference("export %s: reviewed units %s, the model's %s" % (
                lang, sorted(rev), sorted(want)))

    def ev_remove_fr(self):
        self.m.langs.remove("fr")
        for k in self.m.texts:
            self.m.texts[k].pop("fr", None)
        self.write_bank()
        return "remove fr"

    def ev_rename(self):
        i = self.rng.randrange(len(self.m.qids))
        self.m.renames += 1
        old = self.m.qids[i]
        self.m.qids[i] = "%s-r%d" % (old.split("-r")[0], self.m.renames)
        self.write_bank()
        return "rename %s to %s" % (old, self.m.qids[i])

    def ev_revert(self):
        snap = self.rng.choice(self.history)
        self.m.restore(snap)
        self.write_bank()
        return "put back an earlier bank (record kept)"

    def step(self):
        r = self.rng.random()
        m = self.m
        if r < 0.16:
            return self.ev_edit(["en"])
        if r < 0.30:
            return self.ev_edit([self.rng.choice(m.langs[1:])])
        if r < 0.36:
            return self.ev_edit(self.rng.sample(m.langs, 2))
        if r < 0.56:
            return self.ev_build()
        if r < 0.64:
            return self.ev_review()
        if r < 0.76:
            return self.ev_import("sw")
        if r < 0.84:
            return self.ev_import("fr") if "fr" not in m.langs or self.rng.random() < 0.5 \
                else self.ev_remove_fr()
        if r < 0.89:
            return self.ev_rename()
        if r < 0.95 and self.history:
            return self.ev_revert()
        return "check"

    def run(self):
        try:
            self.write_bank()
            self.ev_build()
            self.compare("first build")
            for n in range(1, self.steps + 1):
                self.history.append(self.m.snapshot())
                what = self.step()
                self.log.append(what)
                if self.verbose:
                    print("seed %d step %d: %s" % (self.seed, n, what))
                self.compare("step %d (%s)" % (n, what))
            return True
        except Difference as d:
            print("seed %d, step %d: %s" % (self.seed, len(self.log), d))
            print("events:\n  " + "\n  ".join(self.log))
            if self.verbose:
                for k, e in sorted(self.m.record.items()):
                    print("  model", k, e.h, e.form, sorted(e.basis.items()), e.reviewed)
                print("  current", {(self.m.qid_of(s), el): v for (s, el), v in
                                    self.m.texts.items()})
            print("bank and record kept in " + self.dir)
            return False


def seeds_of(spec):
    out = []
    for part in spec.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qbc", required=True)
    ap.add_argument("--seeds", default="1-6")
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--keep", action="store_true", help="keep the bank and record")
    ap.add_argument("--verbose", action="store_true",
                    help="print each event; on a difference, the model's record")
    a = ap.parse_args()
    ok = True
    total = 0
    for seed in seeds_of(a.seeds):
        r = Runner(a.qbc, seed, a.steps, a.verbose)
        good = r.run()
        if good and a.keep:
            print("seed %d: kept in %s" % (seed, r.dir))
        if good:
            total += a.steps
        if good and not a.keep:
            shutil.rmtree(r.dir, ignore_errors=True)
        ok &= good
    print("model: %d steps, %s" % (total, "no difference" if ok else "DIFFERENCES"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
