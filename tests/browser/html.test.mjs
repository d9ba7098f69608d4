// tests/browser/html.test.mjs - the offline HTML file (--format html) in
// Chromium, opened from a file: URL with every other request refused and
// recorded (none may be attempted), on a 360x640 touch phone and a desktop:
//   - the quiz works: the picture and the formula show, the bank's <script>
//     is text (no dialog), answers are checked;
//   - progress and the language are kept in localStorage across a reload;
//   - a new revision of the file (one question changed) keeps the answers
//     to the other questions and drops the changed one's;
//   - paper: the worksheet and the answer key printed to PDF (page.pdf())
//     and read back with pdftotext: every question exactly once, never split
//     across pages, no answer or explanation on the worksheet, the key's
//     answers those of the bank, a numbered version in another order whose
//     key matches its own worksheet, both languages side by side.
// The bank is tests/html/quiz.qb (markers Qnn in prompts, EXPLnn in
// explanations, RIGHT/WRONG in options).  README.md's screenshots of the
// file on a phone and of a printed key are rewritten only with UPDATE=1.
//   cd tests && QBC=$PWD/../build/qbc node --test browser/html.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TESTS, answerAny, launch, qbc, tempDir } from './lib.mjs';

const SHOTS = path.join(TESTS, 'screenshots');
let tmp, browser, src, bank, file, url;
const shot = (name) => (process.env.UPDATE || !existsSync(path.join(SHOTS, name)) ? path.join(SHOTS, name)
  : path.join(tmp.dir, name));
const PHONE = { viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const AXE = readFileSync(path.join(TESTS, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
/** axe-core's WCAG 2.1 A/AA violations on the page (evaluated through the
 * debugging protocol, which the page's policy does not govern). */
async function axe(page) {
  await page.evaluate(AXE);
  return page.evaluate(() => window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    .then((r) => r.violations.map((x) => `${x.id}: ${x.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)));
}
const MARKERS = ['Q01', 'Q02', 'Q03', 'Q04', 'Q05', 'Q06', 'Q07'];

function build() {
  const r = qbc(['build', '--format', 'html', '-o', path.join(tmp.dir, 'out'), bank]);
  assert.equal(r.status, 0, r.stderr);
}

before(async () => {
  tmp = tempDir('qbc-html-');
  src = path.join(tmp.dir, 'src');
  cpSync(path.join(TESTS, 'html', 'media'), path.join(src, 'media'), { recursive: true });
  bank = path.join(src, 'quiz.qb');
  copyFileSync(path.join(TESTS, 'html', 'quiz.qb'), bank);
  build();
  file = path.join(tmp.dir, 'out', 'html-quiz.html');
  url = pathToFileURL(file).href;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  tmp?.cleanup();
});

/** A browser context that refuses every request but file: URLs and
 * records them all; the page, its errors and dialogs. */
async function offline(opts) {
  const ctx = await browser.newContext(opts);
  const refused = [], files = [], errors = [];
  await ctx.route('**', (route) => {
    const u = route.request().url();
    if (u.startsWith('file:')) { files.push(u); return route.continue(); }
    refused.push(u);
    return route.abort();
  });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); d.dismiss(); });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  return { ctx, page, refused, files, errors };
}

/** Asserts that only the file itself was loaded, each time it was opened. */
function assertOffline(o) {
  assert.deepEqual(o.refused, [], 'no request beyond the file may be attempted');
  assert.ok(o.files.length >= 1, 'the file was loaded through the route');
  assert.deepEqual([...new Set(o.files.map((u) => u.replace(/#.*/, '')))], [url], 'only the file itself');
  assert.deepEqual(o.errors, []);
}

const state = (page) => page.evaluate(() => window.qbPlayer.state());
const keyOf = (page, id) => page.evaluate((id) => window.QB_DATA.questions.find((q) => q.id === id).key, id);
/** The keys of the answers in a saved state. */
function answered(st) {
  const list = st.split('|').slice(5).join('|');
  return [...list.matchAll(/(?:^|,)([0-9a-f]+)\.[0-9a-f]+\./g)].map((m) => m[1]);
}
/** Answers the question on screen, checks it and goes on. */
async function answerOne(page) {
  await answerAny(page);
  await page.locator('#check').click();
  await page.locator('#next').click();
}

for (const [name, opts] of [['phone 360x640, touch', PHONE], ['desktop', DESKTOP]]) {
  test(`${name}: works offline, keeps progress and language across a reload`, async () => {
    const o = await offline(opts);
    const { page } = o;
    await page.goto(url);
    await page.locator('#start').click();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= opts.viewport.width, `page ${wide}px wide in ${opts.viewport.width}px`);
    // Every question once: the picture and the formula show, the bank's
    // <script> is text; each is answered and checked.
    const seen = [];
    for (let i = 0; i < MARKERS.length; i++) {
      const text = await page.locator('.card').innerText();
      const m = /Q0\d/.exec(text);
      assert.ok(m, text);
      seen.push(m[0]);
      if (m[0] === 'Q01') {
        const img = page.locator('.prompt img');
        assert.ok(await img.evaluate((e) => e.complete && e.naturalWidth > 0), 'the picture shows');
      }
      if (m[0] === 'Q02') assert.match(text, /Which are even\? <script>alert\(1\)<\/script>/);
      if (m[0] === 'Q05') assert.ok(await page.locator('.prompt .katex').count(), 'the formula is typeset');
      await answerAny(page);
      await page.locator('#check').click();
      if (m[0] === 'Q01' && opts === PHONE) await page.screenshot({ path: shot('html-phone.png') });
      await page.locator('#next').click();
    }
    assert.deepEqual([...seen].sort(), MARKERS);
    assert.ok(await page.locator('#score').isVisible(), 'the results');
    const before = await state(page);
    assert.equal(answered(before).length, MARKERS.length, before);
    // Kiswahili, then a reload: the answers, the place and the language stay.
    await page.locator('.lang-btn[data-lang="sw"]').click();
    await page.reload();
    assert.equal(await page.evaluate(() => window.qbPlayer.lang()), 'sw');
    assert.equal(await page.locator('html').getAttribute('lang'), 'sw');
    const after = await state(page);
    assert.deepEqual(answered(after), answered(before));
    assert.equal(after.split('|')[2], '*', 'the results on screen again');
    assert.ok(await page.locator('#score').isVisible());
    assert.equal(await page.evaluate(() => localStorage.getItem('qbc-html:html-quiz:lang')), 'sw');
    assertOffline(o);
    await o.ctx.close();
  });
}

test('a new revision keeps the answers to unchanged questions and drops the changed one', async () => {
  const o = await offline(DESKTOP);
  const { page } = o;
  await page.goto(url);
  await page.locator('#start').click();
  for (let i = 0; i < MARKERS.length; i++) await answerOne(page);
  const all = answered(await state(page));
  assert.equal(all.length, MARKERS.length);
  const changed = await keyOf(page, 'how-many');
  const text = readFileSync(bank, 'utf8');
  writeFileSync(bank, text.replace('EXPL05 Half of 85.', 'EXPL05 Half of eighty-five.'));
  try {
    build();
    assert.match(readFileSync(file, 'utf8'), /window\.QB_LOCAL = \{"revision": 2, "version": 0\}/);
    await page.reload();
    const kept = answered(await state(page));
    assert.deepEqual(kept.sort(), all.filter((k) => k !== changed).sort(), 'all but the changed question');
    // The player goes to the changed question, open again to be answered.
    assert.match(await page.locator('.card').innerText(), /Q05/);
    assert.ok(await page.locator('#check').count(), 'the changed question is unanswered');
    // Only the new revision's state is stored.
    const keys = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('qbc-html:html-quiz:r')));
    await answerAny(page);
    await page.locator('#check').click();
    const keys2 = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('qbc-html:html-quiz:r')));
    assert.ok(keys.length >= 1);
    assert.deepEqual(keys2, ['qbc-html:html-quiz:r2']);
  } finally {
    writeFileSync(bank, text);
    build();
  }
  assertOffline(o);
  await o.ctx.close();
});

/* ---- paper ---- */

/** Prints the file's print screen (the hash) to PDF; its text, and the
 * text of each page. */
async function printed(hash, name) {
  const o = await offline(DESKTOP);
  await o.page.goto(`${url}#${hash}`);
  await o.page.locator('#sheet').waitFor();
  const pdf = path.join(tmp.dir, `${name}.pdf`);
  await o.page.pdf({ path: pdf, format: 'A4' });
  assertOffline(o);
  await o.ctx.close();
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))[1]);
  const each = [];
  for (let p = 1; p <= pages; p++) each.push(execFileSync('pdftotext', ['-f', String(p), '-l', String(p), pdf, '-'], { encoding: 'utf8' }));
  return { text: execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' }), pages: each, pdf };
}
const count = (text, s) => text.split(s).length - 1;
/** Each question's text, from its marker to the next one, in print order. */
function chunks(text) {
  const at = [...text.matchAll(/Q0\d/g)];
  return at.map((m, i) => ({ q: m[0], text: text.slice(m.index, i + 1 < at.length ? at[i + 1].index : undefined) }));
}
/** The options of a choice question's text: letter -> text. */
function options(chunk) {
  const out = {};
  for (const m of chunk.matchAll(/([A-D])\. (RIGHT \w+|WRONG \w+|True|False)/g)) out[m[1]] = m[2];
  return out;
}
const answerLine = (chunk) => (/Correct answer: ([^\n]*)/.exec(chunk) || [])[1];

/** Asserts what every printed sheet shares: each question once, none split
 * across two pages (its number's page has its explanation, in the key). */
function commonSheet(p, key) {
  for (const m of MARKERS) assert.equal(count(p.text, m), 1, `${m} once`);
  for (const page of p.pages)
    for (const m of page.match(/Q0\d/g) || []) {
      const tail = page.slice(page.indexOf(m));
      if (key) assert.ok(tail.includes(`EXPL${m.slice(1)}`), `${m} and its explanation on one page`);
    }
}

/** Asserts the key's answers are the bank's: choice options marked RIGHT
 * (or "False" for the true-false question), typed and numeric answers,
 * matching pairs, cloze gaps. */
function keyMatchesBank(text) {
  const byQ = Object.fromEntries(chunks(text).map((c) => [c.q, c.text]));
  for (const q of ['Q01', 'Q02']) {
    const opts = options(byQ[q]);
    const right = Object.keys(opts).filter((l) => opts[l].startsWith('RIGHT')).sort().join('; ');
    assert.equal(answerLine(byQ[q]), right, `${q}: ${byQ[q]}`);
  }
  const tf = options(byQ.Q03);
  assert.equal(tf[answerLine(byQ.Q03)], 'False');
  assert.match(byQ.Q04, /Accepted answers: evaporation/);
  assert.equal(answerLine(byQ.Q05), '42.5 ± 0.5 kg');
  const rights = {};
  for (const m of byQ.Q06.matchAll(/\n([A-C])\. (solid|liquid|gas)/g)) rights[m[1]] = m[2];
  const pairs = answerLine(byQ.Q06).split('; ').map((s) => s.split(' → '));
  assert.deepEqual(pairs.map(([n, l]) => [n, rights[l]]), [['1', 'solid'], ['2', 'liquid'], ['3', 'gas']]);
  assert.equal(answerLine(byQ.Q07), '(1) evaporates; (2) condenses');
  for (let i = 1; i <= 7; i++) assert.equal(count(text, `EXPL0${i}`), 1);
}

test('paper: the worksheet has every question once and no answer', async () => {
  const p = await printed('print=worksheet&lang=en&version=0', 'worksheet');
  commonSheet(p, false);
  assert.deepEqual(chunks(p.text).map((c) => c.q), MARKERS, 'version 0: the bank order');
  assert.doesNotMatch(p.text, /EXPL|Correct answer|Accepted answers|evaporation|evaporates|42\.5|✓/);
  assert.match(p.text, /Worksheet · Version 0/);
  assert.match(p.text, /Name:/);
  // Options in the bank's order, lettered, with a box each.
  assert.deepEqual(options(chunks(p.text)[0].text), { A: 'RIGHT water', B: 'WRONG ice', C: 'WRONG steam', D: 'WRONG stone' });
  assert.equal(count(chunks(p.text)[0].text, '☐'), 4);
  assert.match(p.text, /\[boils \/ condenses \/ melts\]/, 'a choice gap lists its choices');
});

test('paper: the answer key holds the bank\'s answers and every explanation', async () => {
  const p = await printed('print=key&lang=en&version=0', 'key');
  commonSheet(p, true);
  keyMatchesBank(p.text);
  assert.match(p.text, /Answer key · Version 0/);
  // The README's printed page: the key, both languages side by side.
  const both = await printed('print=key&lang=both&version=0', 'key-both');
  for (const m of MARKERS) assert.equal(count(both.text, m), 2, `${m} in each language`);
  assert.match(both.text, /Majibu · Toleo 0/);
  assert.match(both.text, /EXPL01 Maji hutiririka/);
  execFileSync('pdftoppm', ['-png', '-r', '70', '-f', '1', '-l', '1', '-singlefile', both.pdf, path.join(tmp.dir, 'page')]);
  copyFileSync(path.join(tmp.dir, 'page.png'), shot('html-print-key.png'));
});

test('paper: a numbered version is shuffled, and its key matches its worksheet', async () => {
  const v0 = await printed('print=worksheet&lang=en&version=0', 'v0');
  const ws = await printed('print=worksheet&lang=en&version=7', 'v7');
  const key = await printed('print=key&lang=en&version=7', 'v7key');
  commonSheet(ws, false);
  commonSheet(key, true);
  keyMatchesBank(key.text);
  assert.match(key.text, /Version 7/);
  const order = (p) => chunks(p.text).map((c) => c.q).join(' ');
  assert.notEqual(order(ws), order(v0), 'another question order');
  assert.equal(order(key), order(ws), 'the key in its worksheet\'s order');
  const opts = (p) => chunks(p.text).filter((c) => /Q0[12]/.test(c.q)).map((c) => JSON.stringify(options(c.text)));
  assert.notDeepEqual(opts(ws), opts(v0), 'other option orders');
  assert.deepEqual(opts(key), opts(ws), 'the key letters the options as its worksheet does');
  // A file built with --seed 7 opens its print screen at version 7: the
  // same sheets.
  const r = qbc(['build', '--format', 'html', '--seed', '7', '-o', path.join(tmp.dir, 'seeded'), bank]);
  assert.equal(r.status, 0, r.stderr);
  const o = await offline(DESKTOP);
  await o.page.goto(pathToFileURL(path.join(tmp.dir, 'seeded', 'html-quiz.html')).href);
  await o.page.locator('#print-open').click();
  assert.equal(await o.page.locator('#print-version').inputValue(), '7');
  await o.page.locator('#print-what-key').check();
  const seeded = await o.page.locator('#sheet').innerText();
  await o.page.goto(`${url}#print=key&lang=en&version=7`);
  assert.equal(await o.page.locator('#sheet').innerText(), seeded);
  await o.ctx.close();
  // The same version prints the same again.
  const again = await printed('print=worksheet&lang=en&version=7', 'v7again');
  assert.equal(again.text, ws.text);
});

test('the print screen: a Print button, choices, and back to the quiz', async () => {
  const o = await offline(PHONE);
  const { page } = o;
  await page.goto(url);
  assert.deepEqual(await axe(page), [], 'the start screen with its Print button');
  await page.locator('#print-open').click();
  assert.ok(await page.locator('#app').isHidden());
  assert.deepEqual(await axe(page), [], 'the print screen');
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 360, `the print screen ${wide}px wide on a 360px phone`);
  const small = await page.evaluate(() => [...document.querySelectorAll('.print-form button, .print-form input, .print-choice')]
    .filter((e) => e.getBoundingClientRect().height < 44 && e.type !== 'radio').map((e) => e.id || e.textContent));
  assert.deepEqual(small, [], 'controls at least 44 px high');
  await page.locator('#print-what-key').check();
  await page.locator('#print-version').fill('3');
  await page.locator('#print-version').dispatchEvent('change');
  assert.match(page.url(), /#print=key&lang=en&version=3$/);
  assert.match(await page.locator('#sheet').innerText(), /Answer key · Version 3/);
  await page.locator('#print-back').click();
  assert.ok(await page.locator('#app').isVisible());
  assert.ok(await page.locator('#start').isVisible());
  assertOffline(o);
  await o.ctx.close();
});
