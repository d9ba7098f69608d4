// tests/browser/qti-params.test.mjs - parameterised questions (issue 38)
// in a real QTI 3.0 player, @citolab/qti-components (npm, pinned in
// tests/package-lock.json), in headless Chromium.  Each item of
// tests/qti/params.qb is loaded many times: the player's template
// processing draws anew each time, so the numbers the learner reads
// differ between attempts; each attempt is answered from the numbers
// shown, right (the item's SCORE is 1) or wrong (0), and the correct
// response the player holds is that draw's.  The French package writes
// its numbers with a decimal comma.
//
// This player prints a printed variable's value through JSON.stringify
// (a string value shows in quotes: "20"); shown() reads it without them.
// It fills MathML variables (mathVariable) in feedback only, not in the
// item body.
//
//   cd tests && QBC=$PWD/../build/qbc node --test browser/qti-params.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { TESTS, qbc, sendFile, serveAndLaunch, tempDir, unzip } from './lib.mjs';

const PLAYER = path.join(TESTS, 'node_modules', '@citolab', 'qti-components');
const PLAYER_FILES = { 'index.global.js': 'cdn/index.global.js', 'item.css': 'dist/item.css' };
const PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>QTI player</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="/player/item.css">
<script src="/player/index.global.js"></script></head>
<body><div id="host"></div><script>
// Loads an item of the package the way the player's own loaders do; its
// template processing runs once its declarations are registered.
window.loadItem = async (name) => {
  const t = await QtiComponents.qtiTransformItem().load('/pkg/' + name);
  document.getElementById('host').replaceChildren(t.path('/pkg/').htmlDoc());
  await customElements.whenDefined('qti-assessment-item');
  const item = document.querySelector('qti-assessment-item');
  await item.updateComplete;
  const printed = () => [...item.querySelectorAll('qti-printed-variable')];
  for (let i = 0; i < 200 && !(printed().length && printed().every((p) => p.shadowRoot && p.shadowRoot.textContent.trim())); i++)
    await new Promise((ok) => setTimeout(ok, 10));
  return item.identifier;
};
// The value a printed variable shows (the first with that identifier
// under sel), without the quotes this player adds.
window.shown = (id, sel = 'qti-item-body') => {
  const p = document.querySelector(sel + ' qti-printed-variable[identifier="' + id + '"]');
  const s = p && p.shadowRoot ? p.shadowRoot.textContent.trim() : null;
  return s && s.startsWith('"') ? JSON.parse(s) : s;
};
// The correct response the player holds for a response.
window.correctOf = (id) => document.querySelector('qti-assessment-item')._context.variables
  .find((v) => v.identifier === id).correctResponse;
window.submit = () => {
  const item = document.querySelector('qti-assessment-item');
  item.processResponse();
  const out = {};
  for (const v of item.variables) out[v.identifier] = v.value;
  return out;
};
</script></body></html>`;

let tmp, srv, page;
const problems = [];

before(async () => {
  tmp = tempDir('qbc-qti-params-');
  const out = path.join(tmp.dir, 'out');
  mkdirSync(out);
  const bank = path.join(tmp.dir, 'params.qb');
  copyFileSync(path.join(TESTS, 'qti', 'params.qb'), bank);
  const r = qbc(['build', '--format', 'qti3', '-o', out, bank]);
  assert.equal(r.status, 0, r.stderr);
  const pkg = path.join(tmp.dir, 'pkg');
  for (const lang of ['en', 'fr']) unzip(path.join(out, `qti-params.${lang}.qti3.zip`), pkg);
  srv = await serveAndLaunch((req, res) => {
    const u = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (u === '/') { res.writeHead(200, { 'content-type': 'text/html' }); res.end(PAGE); return; }
    if (u.startsWith('/player/')) return sendFile(res, PLAYER_FILES[u.slice(8)] && path.join(PLAYER, PLAYER_FILES[u.slice(8)]));
    if (u.startsWith('/pkg/') && !u.includes('..')) return sendFile(res, path.join(pkg, u.slice(5)));
    res.writeHead(404); res.end();
  });
  page = await srv.browser.newPage();
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  await page.goto(srv.base + '/');
});

after(async () => {
  if (srv) await srv.close();
  if (tmp) tmp.cleanup();
});

const load = (item) => page.evaluate((n) => window.loadItem(n), item);
const shown = (id, sel) => page.evaluate(([i, s]) => window.shown(i, s), [id, sel]);
const submit = () => page.evaluate(() => window.submit());
const type = async (...texts) => {
  const boxes = page.locator('qti-text-entry-interaction input');
  assert.equal(await boxes.count(), texts.length);
  for (let i = 0; i < texts.length; i++) {
    await boxes.nth(i).fill(texts[i]);
    await boxes.nth(i).press('Tab');
  }
};
const ATTEMPTS = 24;

test('numeric: each attempt draws a height; the answer worked out from the one shown scores 1, a wrong one 0', async () => {
  const heights = new Set();
  for (let i = 0; i < ATTEMPTS; i++) {
    await load('item-falling-time-en.xml');
    const h = Number(await shown('h'));
    assert.ok(h >= 5 && h <= 50 && h % 5 === 0, `h = ${h}`);
    heights.add(h);
    const t = Math.sqrt(2 * h / 9.81);
    assert.equal(Number(await page.evaluate(() => window.correctOf('RESPONSE'))), Number(t.toFixed(2)),
      `h ${h}: the correct response is this draw's`);
    if (i % 2) {
      await type(t.toFixed(2));
      assert.equal(Number((await submit()).SCORE), 1, `h ${h}: ${t.toFixed(2)} s`);
    } else {
      // right for another height: wrong here
      const other = Math.sqrt(2 * (h === 50 ? 5 : h + 5) / 9.81);
      await type(other.toFixed(2));
      assert.equal(Number((await submit()).SCORE), 0, `h ${h}: ${other.toFixed(2)} s`);
    }
  }
  assert.ok(heights.size >= 4, `the heights differ between attempts: ${[...heights]}`);
});

test('numeric: near the ends of the draw\'s ± 2% scores, just past them not', async () => {
  for (let i = 0; i < 12; i++) {
    const [factor, want] = [[0.981, 1], [1.019, 1], [0.975, 0], [1.025, 0]][i % 4];
    await load('item-falling-time-en.xml');
    const t = Math.sqrt(2 * Number(await shown('h')) / 9.81);
    await type(String(t * factor));
    assert.equal(Number((await submit()).SCORE), want, `${factor} × ${t}`);
  }
});

test('numeric: the explanation shows the draw\'s numbers, and its formula the draw\'s height', async () => {
  await load('item-falling-time-en.xml');
  const h = await shown('h');
  await type('1');
  await submit();
  const fb = page.locator('qti-modal-feedback[identifier="EXPLANATION"]');
  await fb.locator('qti-printed-variable').first().waitFor({ state: 'attached' });
  assert.equal(await shown('answer', 'qti-modal-feedback'), Math.sqrt(2 * Number(h) / 9.81).toFixed(2));
  // the player fills the formula's MathML variables in feedback
  const mn = await fb.locator('math mn').allTextContents();
  assert.ok(mn.includes(h) && mn.includes('9.81'), `the formula shows h = ${h} and g: ${mn}`);
});

test('numeric, French: the numbers with a decimal comma', async () => {
  await load('item-falling-time-fr.xml');
  const h = Number(await shown('h'));
  const t = Math.sqrt(2 * h / 9.81);
  await type(t.toFixed(2));
  assert.equal(Number((await submit()).SCORE), 1);
  assert.equal(await shown('answer', 'qti-modal-feedback'), t.toFixed(2).replace('.', ','));
  const fb = page.locator('qti-modal-feedback[identifier="EXPLANATION"]');
  assert.ok((await fb.locator('math mn').allTextContents()).includes('9,81'), 'g in the formula: 9,81');
});

test('single choice with computed options: the options show the draw\'s numbers, the right one scores 1 in every draw', async () => {
  const seen = new Set();
  for (let i = 0; i < ATTEMPTS; i++) {
    await load('item-area-choice-en.xml');
    const a = Number(await shown('a')), b = Number(await shown('b'));
    seen.add(`${a}x${b}`);
    assert.equal(await shown('right', 'qti-simple-choice[identifier="C1"]'), String(a * b));
    assert.equal(await shown('w1', 'qti-simple-choice[identifier="C2"]'), String(a * b + a));
    assert.equal(await shown('w2', 'qti-simple-choice[identifier="C3"]'), String(2 * (a + b)));
    // the space between the number and 'cm²' is shown (a choice lays
    // its content out in a row, where a space alone between two items
    // would be dropped)
    const space = await page.evaluate(() => {
      const text = document.querySelector('qti-simple-choice[identifier="C1"] qti-printed-variable').nextSibling;
      const r = document.createRange();
      r.setStart(text, 0);
      r.setEnd(text, 1);
      return [text.data[0], r.getBoundingClientRect().width];
    });
    assert.ok(space[0] === ' ' && space[1] > 0, `a space before 'cm²': ${space}`);
    const pick = i % 3 === 0 ? 'C1' : i % 3 === 1 ? 'C2' : 'C3';
    await page.locator(`qti-simple-choice[identifier="${pick}"]`).click();
    assert.equal(Number((await submit()).SCORE), pick === 'C1' ? 1 : 0, `${a} × ${b}: ${pick}`);
  }
  assert.ok(seen.size >= 4, `the rectangles differ between attempts: ${[...seen]}`);
});

test('cloze with a numeric gap, partial credit: the gap is the draw\'s force ± 0.1', async () => {
  const seen = new Set();
  for (let i = 0; i < ATTEMPTS; i++) {
    await load('item-force-gap-en.xml');
    const m = Number(await shown('m')), a = Number(await shown('a'));
    seen.add(`${m}/${a}`);
    const f = Math.round(m * a * 10) / 10;
    await type((i % 2 ? f + 0.05 : f + 0.3).toFixed(2), 'newtons');
    assert.equal(Number((await submit()).SCORE), i % 2 ? 1 : 0.5, `${m} kg, ${a} m/s²`);
  }
  assert.ok(seen.size >= 4, `the masses and accelerations differ: ${[...seen]}`);
});

test('cloze, a number gap written {{#{=2*n}}}: exactly twice the draw\'s n', async () => {
  for (let i = 0; i < 8; i++) {
    await load('item-exact-gap-en.xml');
    const n = Number(await shown('n'));
    await type(String(i % 2 ? 2 * n : 2 * n + 1));
    assert.equal(Number((await submit()).SCORE), i % 2 ? 1 : 0, `n ${n}`);
  }
});

test('cloze whose typed gap shows a variable, in French: the item is the first draw, scored by what it shows', async () => {
  await load('item-typed-gap-fr.xml');
  const text = await page.locator('.qbc-prompt').innerText();
  const m = /La moitié de (\d,\d) est/.exec(text)[1];
  await type(String(Number(m.replace(',', '.')) / 2), m);
  assert.equal(Number((await submit()).SCORE), 1, `${m}: ${text}`);
  await load('item-typed-gap-fr.xml');
  await type(String(Number(m.replace(',', '.')) / 2 + 0.05), m);
  assert.equal(Number((await submit()).SCORE), 0);
});

test('a variable named SCORE does not touch the item\'s score', async () => {
  for (let i = 0; i < 6; i++) {
    await load('item-clash-en.xml');
    const x = Number(await shown('qbc-v-SCORE'));
    assert.ok(x >= 2 && x <= 5);
    await type(String(2 * x));
    assert.equal(Number((await submit()).SCORE), 1);
  }
});

test('nothing failed in the page', () => {
  assert.deepEqual(problems, []);
});
