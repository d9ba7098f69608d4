"""tests/qti/draws.py - reads the draws of a parameterised question's QTI
item (2.1 or 3.0, issue 38) and checks that they agree with each other.

    python3 draws.py CHECK ITEM.xml [MARK]

The item's template processing sets qbc-draw to a random integer 1..N and
each template variable to the qbc-draw-th value of an ordered list; this
reads those lists back (draw by draw) and checks, for CHECK:
  falling   tests/qti/params.qb's falling-time: h's N values are 5..50,
            each draw's interval is sqrt(2h/9.81) +- 2%, its correct
            response the answer as {answer} shows it (2 decimals), which
            is written with MARK; draw 0's values are the defaults and the
            declared correct response
  area      area-choice: right = a*b, w1 = a*b + a, w2 = 2(a+b) in each of
            its 10 draws; the right option is C1, set once
  force     force-gap: the numeric gap's interval is f +- 0.1 and its
            correct response f, with f = m*a to one decimal
  exact     exact-gap ('{{#{=2*n}}}'): the gap's interval 2n..2n, its
            correct response 2n; no brace left in the prompt
  typed     typed-gap, whose typed gap shows a variable: no template
            processing (the first draw); the number gap's interval m/2 +-
            0.01 and the typed answer m, as the prompt (written with MARK)
            shows m
Prints what disagrees and exits 1; exits 0 when all agree.
"""
import math
import re
import sys
import xml.etree.ElementTree as ET


def local(tag):
    """An element's name without its namespace, in 2.1's camelCase."""
    name = tag.rsplit('}', 1)[-1]
    if name.startswith('qti-'):
        parts = name[4:].split('-')
        name = parts[0] + ''.join(p.capitalize() for p in parts[1:])
    return name


def walk(el):
    yield el
    for kid in el:
        yield from walk(kid)


def attr(el, name):
    """An attribute by its 2.1 name (3.0: kebab-case)."""
    kebab = ''.join('-' + ch.lower() if ch.isupper() else ch for ch in name)
    return el.get(name, el.get(kebab))


class Item:
    def __init__(self, path):
        self.root = ET.parse(path).getroot()
        self.sets = {}      # identifier -> list of values, draw by draw
        self.correct = {}   # response -> list of values
        self.defaults = {}  # template variable -> default value
        self.max = None
        for el in walk(self.root):
            kind = local(el.tag)
            if kind == 'templateDeclaration':
                vals = [v.text for v in walk(el) if local(v.tag) == 'value']
                self.defaults[el.get('identifier')] = vals[0] if vals else None
            if kind not in ('setTemplateValue', 'setCorrectResponse'):
                continue
            ident = el.get('identifier')
            kids = list(el)
            if local(kids[0].tag) == 'randomInteger':
                assert attr(kids[0], 'min') == '1', 'randomInteger from 1'
                self.max = int(attr(kids[0], 'max'))
                continue
            assert local(kids[0].tag) == 'index' and kids[0].get('n') == 'qbc-draw', ident
            vals = [v.text for v in kids[0][0]]
            (self.correct if kind == 'setCorrectResponse' else self.sets)[ident] = vals

    def declared_correct(self, response):
        for el in walk(self.root):
            if local(el.tag) == 'responseDeclaration' and el.get('identifier') == response:
                return [v.text for v in walk(el) if local(v.tag) == 'value'][0]
        return None


def num(s, mark):
    return float(s.replace(mark, '.'))


def check_falling(item, mark, bad):
    h = item.sets['h']
    if sorted(int(x) for x in h) != list(range(5, 51, 5)):
        bad.append(f'h: {h}')
    if item.max != len(h):
        bad.append(f'randomInteger max {item.max}, {len(h)} draws')
    lo, hi = item.sets['qbc-lo'], item.sets['qbc-hi']
    right, shown = item.correct['RESPONSE'], item.sets['answer']
    for k, hk in enumerate(h):
        t = math.sqrt(2 * float(hk) / 9.81)
        if abs(float(lo[k]) - t * 0.98) > 1e-9 or abs(float(hi[k]) - t * 1.02) > 1e-9:
            bad.append(f'draw {k + 1}: h {hk}, interval {lo[k]}..{hi[k]}, not {t} +- 2%')
        if float(right[k]) != round(t, 2):
            bad.append(f'draw {k + 1}: correct response {right[k]}, not {round(t, 2)}')
        if shown[k] != f'{round(t, 2):.2f}'.replace('.', mark):
            bad.append(f'draw {k + 1}: answer shown {shown[k]!r}')
    # draw 0 where no template processing runs
    for ident, vals in [('h', h), ('qbc-lo', lo), ('qbc-hi', hi), ('answer', shown)]:
        if item.defaults.get(ident) != vals[0]:
            bad.append(f'{ident}: default {item.defaults.get(ident)}, draw 1 {vals[0]}')
    if item.declared_correct('RESPONSE') != right[0]:
        bad.append(f'declared correct response {item.declared_correct("RESPONSE")}, draw 1 {right[0]}')


def check_area(item, mark, bad):
    a, b = item.sets['a'], item.sets['b']
    if item.max != 10 or len(a) != 10:
        bad.append(f'draws: {item.max}, {len(a)} values')
    for k in range(len(a)):
        x, y = int(a[k]), int(b[k])
        got = (int(item.sets['right'][k]), int(item.sets['w1'][k]), int(item.sets['w2'][k]))
        if got != (x * y, x * y + x, 2 * (x + y)):
            bad.append(f'draw {k + 1}: a {x}, b {y}: right, w1, w2 {got}')
    if item.correct or item.declared_correct('RESPONSE') != 'C1':
        bad.append('the right option is C1 in every draw')
    if len(set(zip(a, b))) < 2:
        bad.append('every draw the same')


def check_force(item, mark, bad):
    m, a, f = item.sets['m'], item.sets['a'], item.sets['f']
    lo, hi = item.sets['qbc-lo-g1'], item.sets['qbc-hi-g1']
    right = item.correct['RESPONSE_1']
    for k in range(len(m)):
        want = round(num(m[k], mark) * int(a[k]), 1)
        if abs(num(f[k], mark) - want) > 1e-9:
            bad.append(f'draw {k + 1}: f {f[k]}, not {want}')
        if abs(float(lo[k]) - (want - 0.1)) > 1e-9 or abs(float(hi[k]) - (want + 0.1)) > 1e-9:
            bad.append(f'draw {k + 1}: gap interval {lo[k]}..{hi[k]}, not {want} +- 0.1')
        if abs(float(right[k]) - want) > 1e-9:
            bad.append(f'draw {k + 1}: gap correct response {right[k]}')


def check_exact(item, mark, bad):
    n, lo, hi = item.sets['n'], item.sets['qbc-lo-g1'], item.sets['qbc-hi-g1']
    right = item.correct['RESPONSE_1']
    for k in range(len(n)):
        if not float(lo[k]) == float(hi[k]) == float(right[k]) == 2 * int(n[k]):
            bad.append(f'draw {k + 1}: n {n[k]}, gap {lo[k]}..{hi[k]}, correct {right[k]}')
    prompt = ''.join(next(el for el in walk(item.root) if el.get('class') == 'qbc-prompt').itertext())
    if '{' in prompt or '}' in prompt:
        bad.append(f'a brace in the prompt: {prompt!r}')


def check_typed(item, mark, bad):
    if item.defaults or item.sets or item.correct:
        bad.append('template processing in an item written as its first draw')
    prompt = ''.join(next(el for el in walk(item.root) if el.get('class') == 'qbc-prompt').itertext())
    found = re.search(r'(\d+' + re.escape(mark) + r'\d)', prompt)
    if not found:
        bad.append(f'no number with {mark!r} in the prompt {prompt!r}')
        return
    shown = found.group(1)
    m = num(shown, mark)
    lo = [el for el in walk(item.root) if local(el.tag) == 'gte'][0]
    hi = [el for el in walk(item.root) if local(el.tag) == 'lte'][0]
    got = (float(lo[1].text), float(hi[1].text), float(item.declared_correct('RESPONSE_1')))
    if any(abs(x - y) > 1e-9 for x, y in zip(got, (m / 2 - 0.01, m / 2 + 0.01, m / 2))):
        bad.append(f'm {shown}: the number gap {got}')
    keys = [el.get('mapKey', el.get('map-key')) for el in walk(item.root) if local(el.tag) == 'mapEntry']
    if keys != [shown]:
        bad.append(f'm {shown}: the typed gap accepts {keys}')


def main():
    check, path = sys.argv[1], sys.argv[2]
    mark = sys.argv[3] if len(sys.argv) > 3 else '.'
    item = Item(path)
    bad = []
    try:
        {'falling': check_falling, 'area': check_area, 'force': check_force, 'exact': check_exact,
         'typed': check_typed}[check](item, mark, bad)
    except KeyError as e:
        bad.append(f'no draws of {e}')
    for line in bad[:10]:
        print(f'{path}: {line}')
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
