// tests/browser/qti.test.mjs - the QTI 3.0 package played by a real QTI
// player: @citolab/qti-components (npm, pinned in tests/package-lock.json),
// whose response processing computes each item's SCORE, in headless
// Chromium.  Every item of tests/qti/types.qb (every question type) is
// answered right, wrong and, where qbc gives partial credit, partly right,
// through the player's own interactions (clicks, typing, the inline
// choice menu, dragging for the match interaction), and the score the
// player computes is checked against qbc's rules; so are the modal
// feedback shown, the pictures served from the package, and a <script>
// in a text, which must stay text.
//
//   cd tests && QBC=$PWD/../build/qbc node --test browser/qti.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TESTS, qbc, sendFile, serveAndLaunch, tempDir, unzip } from './lib.mjs';

const PLAYER = path.join(TESTS, 'node_modules', '@citolab', 'qti-components');
// The player's files: its browser bundle and its theme (the match
// interaction's drop zones need the theme's layout).
const PLAYER_FILES = { 'index.global.js': 'cdn/index.global.js', 'item.css': 'dist/item.css' };
const PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>QTI player</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="/player/item.css">
<script src="/player/index.global.js"></script></head>
<body><div id="host"></div><script>
// Loads an item of the package the way the player's own loaders do.
window.loadItem = async (name, base = '/pkg/') => {
  const t = await QtiComponents.qtiTransformItem().load(base + name);
  document.getElementById('host').replaceChildren(t.path(base).htmlDoc());
  await customElements.whenDefined('qti-assessment-item');
  const item = document.querySelector('qti-assessment-item');
  await item.updateComplete;
  // the declarations register themselves with the item as they connect
  const ids = [...item.querySelectorAll('qti-response-declaration, qti-outcome-declaration')]
    .map((d) => d.getAttribute('identifier'));
  for (let i = 0; i < 100 && !ids.every((id) => item.variables.some((v) => v.identifier === id)); i++)
    await new Promise((ok) => setTimeout(ok, 10));
  return item.identifier;
};
// Runs the item's response processing; its outcomes.
window.submit = () => {
  const item = document.querySelector('qti-assessment-item');
  item.processResponse();
  const out = {};
  for (const v of item.variables) out[v.identifier] = v.value;
  return out;
};
window.feedbackShown = () => [...document.querySelectorAll('qti-modal-feedback')]
  .filter((f) => f.showStatus === 'on').map((f) => f.getAttribute('identifier'));
</script></body></html>`;

// Numeric cloze gaps (issue 36): a bank of the test's own.
const NUMGAPS = `bank: qti-numgaps
languages: en
scoring: partial
title:
  en: Numeric gaps

1. measures
   type: cloze
   en: g is {{#9.81 ± 0.05}} m/s², a body {{#36.1..37.2}} °C, sound {{#343 ± 2%}} m/s, water {{water|H2O}}.
   explanation: en: Measured values.

2. aon
   type: cloze
   scoring: all-or-nothing
   en: {{#2..3}} and {{#10}}.
   explanation: en: Both.
`;

let tmp, srv, page, PKG, NUM, GAPS, PSG, MARKS;
const requests = [];
const problems = [];

before(async () => {
  tmp = tempDir('qbc-qti-');
  const out = path.join(tmp.dir, 'out');
  mkdirSync(out);
  // a copy of the bank, its record and its media: a build writes the
  // record next to the bank, and tests/ must stay as git has it
  const bank = path.join(tmp.dir, 'bank');
  mkdirSync(bank);
  for (const f of ['types.qb', 'types.lock']) copyFileSync(path.join(TESTS, 'qti', f), path.join(bank, f));
  cpSync(path.join(TESTS, 'qti', 'media'), path.join(bank, 'media'), { recursive: true });
  const r = qbc(['build', '--format', 'qti3', '-o', out, path.join(bank, 'types.qb')]);
  assert.equal(r.status, 0, r.stderr);
  const pkg = PKG = path.join(tmp.dir, 'pkg');
  // one package per language: both unpacked into one folder (their
  // items and tests have distinct names, their media the same)
  for (const lang of ['en', 'sw']) unzip(path.join(out, `qti-types.${lang}.qti3.zip`), pkg);
  // tests/qti/numeric.qb: intervals whose ends binary floating point gets wrong
  const nb = path.join(tmp.dir, 'numeric.qb');
  copyFileSync(path.join(TESTS, 'qti', 'numeric.qb'), nb);
  const rn = qbc(['build', '--format', 'qti3', '-o', out, nb]);
  assert.equal(rn.status, 0, rn.stderr);
  NUM = path.join(tmp.dir, 'num');
  unzip(path.join(out, 'qti-numeric.en.qti3.zip'), NUM);
  writeFileSync(path.join(tmp.dir, 'numgaps.qb'), NUMGAPS);
  const rg = qbc(['build', '--format', 'qti3', '-o', out, path.join(tmp.dir, 'numgaps.qb')]);
  assert.equal(rg.status, 0, rg.stderr);
  GAPS = path.join(tmp.dir, 'gaps');
  unzip(path.join(out, 'qti-numgaps.en.qti3.zip'), GAPS);
  // tests/qti/passage.qb: a passage (issue 36) with a picture
  const pb = path.join(tmp.dir, 'passage');
  mkdirSync(pb);
  copyFileSync(path.join(TESTS, 'qti', 'passage.qb'), path.join(pb, 'passage.qb'));
  cpSync(path.join(TESTS, 'qti', 'media'), path.join(pb, 'media'), { recursive: true });
  const rp = qbc(['build', '--format', 'qti3', '-o', out, path.join(pb, 'passage.qb')]);
  assert.equal(rp.status, 0, rp.stderr);
  PSG = path.join(tmp.dir, 'psg');
  unzip(path.join(out, 'qti-passage.sw.qti3.zip'), PSG);
  // tests/qti/marks.qb: negative marks and partial credit (issue 36)
  const mb = path.join(tmp.dir, 'marks.qb');
  copyFileSync(path.join(TESTS, 'qti', 'marks.qb'), mb);
  const rm = qbc(['build', '--format', 'qti3', '-o', out, mb]);
  assert.equal(rm.status, 0, rm.stderr);
  MARKS = path.join(tmp.dir, 'marks');
  unzip(path.join(out, 'qti-marks.en.qti3.zip'), MARKS);
  srv = await serveAndLaunch((req, res) => {
    const u = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests.push(u);
    if (u === '/') { res.writeHead(200, { 'content-type': 'text/html' }); res.end(PAGE); return; }
    if (u.startsWith('/player/')) return sendFile(res, PLAYER_FILES[u.slice(8)] && path.join(PLAYER, PLAYER_FILES[u.slice(8)]));
    if (u.startsWith('/pkg/') && !u.includes('..')) return sendFile(res, path.join(pkg, u.slice(5)));
    if (u.startsWith('/num/') && !u.includes('..')) return sendFile(res, path.join(NUM, u.slice(5)));
    if (u.startsWith('/gaps/') && !u.includes('..')) return sendFile(res, path.join(GAPS, u.slice(6)));
    if (u.startsWith('/psg/') && !u.includes('..')) return sendFile(res, path.join(PSG, u.slice(5)));
    if (u.startsWith('/marks/') && !u.includes('..')) return sendFile(res, path.join(MARKS, u.slice(7)));
    res.writeHead(404); res.end();
  });
  page = await srv.browser.newPage();
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('dialog', (d) => { problems.push('dialog: ' + d.message()); d.dismiss(); });
  await page.goto(srv.base + '/');
});

after(async () => {
  if (srv) await srv.close();
  if (tmp) tmp.cleanup();
});

// One attempt: loads item (fresh), runs answer(), submits; the outcomes.
async function attempt(item, answer, base = '/pkg/') {
  assert.ok(await page.evaluate(([n, b]) => window.loadItem(n, b), [item, base]));
  await answer();
  return page.evaluate(() => window.submit());
}

const pick = (...ids) => async () => {
  for (const id of ids) await page.locator(`qti-simple-choice[identifier="${id}"]`).click();
};
const type = (...texts) => async () => {
  const boxes = page.locator('qti-text-entry-interaction input');
  assert.equal(await boxes.count(), texts.length);
  for (let i = 0; i < texts.length; i++) {
    await boxes.nth(i).fill(texts[i]);
    await boxes.nth(i).press('Tab');
  }
};
// Cloze: typed gaps and the inline choice menu's option id, in order.
const gaps = (typed, choice) => async () => {
  await type(...typed)();
  if (choice) {
    await page.locator('qti-inline-choice-interaction button[part="trigger"]').click();
    await page.locator(`qti-inline-choice[identifier="${choice}"]`).click();
  }
};
// Matching: drags each left side (the player's draggables) onto a right
// side, with the mouse held a moment as a person would.
const match = (...pairs) => async () => {
  for (const p of pairs) {
    const [l, r] = p.split(' ');
    const from = await page.locator(`qti-simple-associable-choice[identifier="${l}"]`).boundingBox();
    const to = await page.locator(`qti-simple-match-set:last-of-type > qti-simple-associable-choice[identifier="${r}"]`).boundingBox();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.waitForTimeout(50);
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
    await page.mouse.up();
  }
};

const score = async (item, answer) => Number((await attempt(item, answer)).SCORE);

test('single choice: right 1, wrong 0; the chosen option\'s feedback and the explanation show', async () => {
  assert.equal(await score('item-one-en.xml', pick('C1')), 1);
  assert.deepEqual(await page.evaluate(() => window.feedbackShown()), ['F1', 'EXPLANATION']);
  assert.equal(await score('item-one-en.xml', pick('C2')), 0);
  assert.deepEqual(await page.evaluate(() => window.feedbackShown()), ['F2', 'EXPLANATION']);
  assert.equal(await score('item-one-sw.xml', pick('C1')), 1);
});

test('single choice: the picture comes from the package, the <script> stays text', async () => {
  await page.evaluate(() => window.loadItem('item-one-en.xml'));
  const img = page.locator('qti-item-body img');
  await img.waitFor();
  assert.ok(await img.evaluate((i) => i.complete && i.naturalWidth > 0), 'the picture loads');
  assert.match(await img.getAttribute('src'), /media\/[0-9a-f]{16}\.png$/);
  assert.equal(await page.locator('qti-item-body script').count(), 0);
  assert.match(await page.locator('.qbc-prompt').innerText(), /<script>alert\(1\)<\/script>/);
});

test('a passage shows once above the prompt of each of its items, its picture from the package; the item still scores', async () => {
  for (const [item, right] of [['item-alone-sw.xml', 'C1'], ['item-where-sw.xml', 'C2']]) {
    assert.ok(await page.evaluate((n) => window.loadItem(n, '/psg/'), item));
    const passage = page.locator('qti-item-body .qbc-passage');
    await passage.waitFor();
    assert.equal(await passage.count(), 1, `${item}: once`);
    assert.match(await passage.innerText(), /Mlinzi aliishi peke yake kwenye mwamba/);
    const order = await page.locator('qti-item-body').evaluate((b) =>
      b.innerText.indexOf('Mlinzi aliishi peke yake kwenye') < b.innerText.indexOf(b.querySelector('.qbc-prompt').innerText));
    assert.ok(order, `${item}: above the prompt`);
    const img = passage.locator('img');
    await img.waitFor();
    assert.ok(await img.evaluate((i) => i.complete && i.naturalWidth > 0), `${item}: the picture loads`);
    assert.equal(Number((await attempt(item, pick(right), '/psg/')).SCORE), 1, `${item}: scores`);
  }
  assert.ok(await page.evaluate(() => window.loadItem('item-sum-sw.xml', '/psg/')));
  assert.equal(await page.locator('qti-item-body .qbc-passage').count(), 0, 'not above another question');
});

test('a formula is MathML, with its TeX as the annotation: typeset by the browser, never shown as TeX', async () => {
  await page.evaluate(() => window.loadItem('item-fill-en.xml', '/num/'));
  const math = page.locator('qti-item-body math');
  assert.equal(await math.count(), 2);
  assert.equal(await math.first().locator('annotation').textContent(), '\\mathrm{H_2O}');
  // this player rebuilds the item's elements as HTML (MathML's namespace
  // lost): the item's stylesheet keeps the TeX annotation hidden
  const prompt = await page.locator('.qbc-prompt').innerText();
  assert.match(prompt, /H2O/);
  assert.doesNotMatch(prompt, /mathrm|\\,/);
  // the MathML as the package has it, in the browser's own MathML: H₂O's
  // 2 sits below the H, and the annotation is not shown
  const typeset = await page.evaluate(async () => {
    const xml = new DOMParser().parseFromString(await (await fetch('/num/item-fill-en.xml')).text(), 'application/xml');
    const m = document.importNode(xml.getElementsByTagNameNS('http://www.w3.org/1998/Math/MathML', 'math')[0], true);
    document.body.append(m);
    const [h, two] = [...m.querySelectorAll('msub > *')].map((e) => e.getBoundingClientRect());
    const ann = m.querySelector('annotation').getBoundingClientRect();
    m.remove();
    return { sub: two.bottom > h.bottom, annotation: ann.width };
  });
  assert.deepEqual(typeset, { sub: true, annotation: 0 });
});

test('multiple choice, partial credit: (right - wrong) / right options, never below 0', async () => {
  assert.equal(await score('item-two-en.xml', pick('C1', 'C2')), 1);
  assert.equal(await score('item-two-en.xml', pick('C1')), 0.5);
  assert.equal(await score('item-two-en.xml', pick('C1', 'C2', 'C3')), 0.5);
  assert.equal(await score('item-two-en.xml', pick('C1', 'C3')), 0);
  assert.equal(await score('item-two-en.xml', pick('C3')), 0);
  assert.deepEqual(await page.evaluate(() => window.feedbackShown()), ['F3', 'WRONG', 'EXPLANATION']);
});

test('marks (issue 36): a single question scores the picked option\'s share, a multiple one the sum of its picks\' shares, from 0 to 1', async () => {
  const marks = async (id, ...ids) => Number((await attempt(`item-${id}-en.xml`, pick(...ids), '/marks/')).SCORE);
  assert.equal(await marks('capital', 'C1'), 1);
  assert.equal(await marks('capital', 'C3'), 0.5); // partly right
  assert.equal(await marks('capital', 'C2'), 0); // -25%: never below 0
  assert.equal(await marks('primes', 'C1', 'C2'), 1);
  assert.equal(await marks('primes', 'C1', 'C4'), 0.75);
  const third = await marks('primes', 'C1', 'C3');
  // a third taken away (the player gives its SCORE to three decimals)
  assert.ok(Math.abs(third - (0.75 - 1 / 3)) < 1e-3, String(third));
  assert.equal(await marks('primes', 'C2', 'C3'), 0);
});

test('multiple choice, all-or-nothing: only the whole answer scores', async () => {
  assert.equal(await score('item-aon-en.xml', pick('C1', 'C2')), 1);
  assert.equal(await score('item-aon-en.xml', pick('C1')), 0);
  assert.equal(await score('item-aon-en.xml', pick('C1', 'C2', 'C3')), 0);
});

test('true-false as a choice: the labels in the item\'s language, right 1, wrong 0', async () => {
  await page.evaluate(() => window.loadItem('item-tf-sw.xml'));
  assert.equal(await page.locator('qti-simple-choice[identifier="C1"]').innerText(), 'Kweli');
  assert.equal(await score('item-tf-en.xml', pick('C2')), 1);
  assert.equal(await score('item-tf-en.xml', pick('C1')), 0);
  assert.deepEqual(await page.evaluate(() => window.feedbackShown()), ['F1', 'EXPLANATION']);
});

test('short answer: accepted answers in any case, a listed wrong one with its feedback', async () => {
  assert.equal(await score('item-short-en.xml', type('evaporation')), 1);
  assert.equal(await score('item-short-en.xml', type('EVAPORATION')), 1);
  assert.equal(await score('item-short-sw.xml', type('uvukizaji')), 1);
  assert.equal(await score('item-short-en.xml', type('boiling')), 0);
  assert.deepEqual(await page.evaluate(() => window.feedbackShown()), ['F2', 'WRONG', 'EXPLANATION']);
  assert.equal(await score('item-short-en.xml', type('melting')), 0);
  assert.equal(await page.locator('qti-item-body audio').count(), 1, 'the sound is an <audio>');
});

test('numeric: a range and an exact value, in response processing', async () => {
  assert.equal(await score('item-range-en.xml', type('36.5')), 1);
  assert.equal(await score('item-range-en.xml', type('37.2')), 1);
  assert.equal(await score('item-range-en.xml', type('36.1')), 1);
  assert.equal(await score('item-range-en.xml', type('38')), 0);
  assert.equal(await score('item-range-en.xml', type('36')), 0);
  assert.equal(await score('item-exact-en.xml', type('42')), 1);
  assert.equal(await score('item-exact-en.xml', type('42.5')), 0);
});

// Each numeric item of tests/qti/numeric.qb: both ends of its interval as
// a person types them (the author's digits worked out by hand) score 1,
// the next number past each end 0.
const ENDS = {
  pct: ['82.764', '84.436', '82.763', '84.437'],        // 83.6 ± 1%
  kelvin: ['373.14', '373.16', '373.139', '373.161'],   // 373.15 ± 0.01
  tenth: ['0.6', '0.8', '0.59', '0.81'],                // 0.7 ± 0.1
  range: ['36.1', '37.2', '36.09', '37.21'],            // 36.1..37.2
  negative: ['-2.8', '-2.2', '-2.81', '-2.19'],         // -2.5 ± 0.3
  small: ['0.0000009', '0.0000011', '0.00000089', '0.00000111'], // 0.000001 ± 0.0000001
  exact: ['1.1', '1.1', '1.09', '1.11'],                // 1.1
  credit: ['99', '101', '98.99', '101.01'],            // 100 ± 1, and further answers
};
const numScore = async (id, typed) => Number((await attempt(`item-${id}-en.xml`, type(typed), '/num/')).SCORE);

test('numeric: every item scores at both ends of its interval and 0 just past them', async () => {
  const numeric = readdirSync(NUM).filter((f) => /^item-.*\.xml$/.test(f) &&
    /<qti-response-declaration [^>]*base-type="float"/.test(readFileSync(path.join(NUM, f), 'utf8')));
  assert.deepEqual(numeric.map((f) => f.replace(/^item-(.*)-en\.xml$/, '$1')).sort(), Object.keys(ENDS).sort(),
    'every numeric item of the bank is answered here');
  for (const [id, [lo, hi, below, above]] of Object.entries(ENDS)) {
    assert.equal(await numScore(id, lo), 1, `${id}: ${lo}, the lower end`);
    assert.equal(await numScore(id, hi), 1, `${id}: ${hi}, the upper end`);
    assert.equal(await numScore(id, below), 0, `${id}: ${below}, below`);
    assert.equal(await numScore(id, above), 0, `${id}: ${above}, above`);
  }
});

test('numeric: a further answer gives its credit, the best that holds the number', async () => {
  assert.equal(await numScore('credit', '100'), 1);
  assert.equal(await numScore('credit', '90'), 0.5, '90..98 = 50%');
  assert.equal(await numScore('credit', '96'), 0.5, 'in 90..98 (50%) and 95..97 (25%): the best');
  assert.equal(await numScore('credit', '98.5'), 0, 'between the answers');
  assert.equal(await numScore('credit', '0'), 0, '0 = 0%');
});

test('numeric: white space around the number is read; a range\'s correct response is 36.65', async () => {
  assert.equal(await numScore('pct', ' 84.436 '), 1);
  // the correct response, as "show correct response" shows it
  const xml = readFileSync(path.join(NUM, 'item-range-en.xml'), 'utf8');
  assert.match(xml, /<qti-correct-response><qti-value>36\.65<\/qti-value><\/qti-correct-response>/);
});

test('matching, partial credit: right pairs / pairs', async () => {
  assert.equal(await score('item-pairs-en.xml', match('L1 R1', 'L2 R2')), 1);
  assert.equal(await score('item-pairs-en.xml', match('L1 R1', 'L2 R3')), 0.5);
  assert.equal(await score('item-pairs-en.xml', match('L1 R2', 'L2 R1')), 0);
});

test('matching, all-or-nothing: only every pair right scores', async () => {
  assert.equal(await score('item-aon-pairs-en.xml', match('L1 R1', 'L2 R2')), 1);
  assert.equal(await score('item-aon-pairs-en.xml', match('L1 R1')), 0);
  assert.equal(await score('item-aon-pairs-en.xml', match('L1 R2', 'L2 R1')), 0);
});

test('cloze, partial credit: a text entry and an inline choice, right gaps / gaps', async () => {
  assert.equal(await score('item-gaps-en.xml', gaps(['evaporate'], 'G2_1')), 1);
  assert.equal(await score('item-gaps-en.xml', gaps(['evaporates'], 'G2_2')), 0.5);
  assert.equal(await score('item-gaps-en.xml', gaps(['boils'], 'G2_1')), 0.5);
  assert.equal(await score('item-gaps-en.xml', gaps(['boils'], 'G2_3')), 0);
  assert.equal(await score('item-gaps-sw.xml', gaps(['huvukiza'], 'G2_1')), 1);
});

test('cloze, all-or-nothing and case-sensitive: every gap exactly', async () => {
  assert.equal(await score('item-aon-gaps-en.xml', type('X', 'Y')), 1);
  assert.equal(await score('item-aon-gaps-en.xml', type('X', 'y')), 0);
  assert.equal(await score('item-aon-gaps-en.xml', type('X', 'Z')), 0);
});

const gapScore = async (item, ...typed) => Number((await attempt(`item-${item}-en.xml`, type(...typed), '/gaps/')).SCORE);

test('cloze, numeric gaps: a float entry each, scored within its tolerance, range or percentage', async () => {
  // right gaps / gaps: the ends of each interval score, just past them not
  assert.equal(await gapScore('measures', '9.86', '36.1', '336.14', 'H2O'), 1);
  assert.equal(await gapScore('measures', '9.76', '37.2', '349.86', 'water'), 1);
  assert.equal(await gapScore('measures', '9.87', '37.2', '349.86', 'water'), 0.75);
  assert.equal(await gapScore('measures', '9.81', '36.09', '349.87', 'water'), 0.5);
  assert.equal(await gapScore('measures', '9.75', '37.21', '336.13', 'ice'), 0);
  // all-or-nothing: every numeric gap right
  assert.equal(await gapScore('aon', '2.5', '10'), 1);
  assert.equal(await gapScore('aon', '2.5', '10.1'), 0);
  assert.equal(await gapScore('aon', '3.1', '10'), 0);
});

test('every item in both languages: its correct response, given through the player, scores 1', async () => {
  const items = readdirSync(PKG).filter((f) => /^item-.*\.xml$/.test(f)).sort();
  assert.equal(items.length, 22);
  for (const name of items) {
    await page.evaluate((n) => window.loadItem(n), name);
    // each response: its interaction, and its correct values as the item's XML has them
    const decls = await page.evaluate(async (n) => {
      const xml = new DOMParser().parseFromString(await (await fetch('/pkg/' + n)).text(), 'application/xml');
      return [...xml.getElementsByTagName('qti-response-declaration')].map((d) => {
        const id = d.getAttribute('identifier');
        return { id, values: [...d.getElementsByTagName('qti-value')].map((v) => v.textContent),
          interaction: document.querySelector(`[response-identifier="${id}"]`).localName };
      });
    }, name);
    for (const d of decls) {
      const sel = `[response-identifier="${d.id}"]`;
      if (d.interaction === 'qti-choice-interaction') await pick(...d.values)();
      else if (d.interaction === 'qti-match-interaction') await match(...d.values)();
      else if (d.interaction === 'qti-inline-choice-interaction') {
        await page.locator(`${sel} button[part="trigger"]`).click();
        await page.locator(`qti-inline-choice[identifier="${d.values[0]}"]`).click();
      } else {
        await page.locator(`${sel} input`).fill(d.values[0]);
        await page.locator(`${sel} input`).press('Tab');
      }
    }
    const out = await page.evaluate(() => window.submit());
    assert.equal(Number(out.SCORE), 1, `${name} answered right: ${JSON.stringify(decls)}`);
    assert.equal(Number(out.MAXSCORE), 1, name);
  }
});

test('nothing failed in the page, and nothing was fetched from outside the package', () => {
  assert.deepEqual(problems, []);
  for (const u of requests) assert.match(u, /^\/(player\/(index\.global\.js|item\.css)|(pkg|num|gaps|psg|marks)\/.*)?$/);
});
