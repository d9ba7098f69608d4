// tests/browser/anki.test.mjs - the Anki card templates in headless Chromium.
//
// qbc writes a package; the test unpacks it, reads the note type and the
// notes from collection.anki2 (sqlite3 -json), fills the templates the way
// Anki does ({{Field}}, {{#Field}}..{{/Field}}, {{FrontSide}}) and shows
// the cards in a page served over HTTP from the package's media folder,
// with the note type CSS in a <style> and the card in <div id="qa"> on a
// <body class="card">.  Two ways of showing the back are exercised:
//   - desktop/AnkiMobile: one page; the back replaces #qa's HTML and its
//     scripts are re-created (as Anki's reviewer does), globals survive;
//   - AnkiDroid: the back is a new page load; only sessionStorage survives.
// Run: cd tests && QBC=$PWD/../build/qbc node --test browser/anki.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { TESTS, cloze, qbc, readApkg, tempDir, unzip, launch } from './lib.mjs';

const SHOT = path.join(TESTS, 'screenshots', 'anki-card.png');
// The bank id of tests/anki/quiz.qb, the suite's bilingual bank.
const QUIZ = 'anki-quiz';

const NUMERIC_GAPS = `bank: anki-numeric-gaps
languages: en sw
title:
  en: Numeric gaps
  sw: Mapengo ya namba

1. measures
   type: cloze
   en: g is {{#9.81 +- 0.05}} m/s², a body {{#36.1..37.2}} °C, sound {{#343 ± 2%}} m/s.
   sw: g ni {{#9.81 +- 0.05}} m/s², mwili {{#36.1..37.2}} °C, sauti {{#343 ± 2%}} m/s.
   explanation:
     en: Measured values.
     sw: Thamani zilizopimwa.
`;

let tmp, browser, server, base;
const pkgs = {}; // bank id -> { css, qfmt, afmt, fieldNames, notes: [{fields, tags}] }
const pages = new Map(); // url path -> html (full card documents)

/** Builds bank into a package and loads what the templates need. */
function loadPackage(bankPath, id, typeName = 'qbc quiz') {
  const out = path.join(tmp.dir, id);
  mkdirSync(out, { recursive: true });
  // Build from a copy: a build writes its revision record next to the bank.
  const src = path.join(out, 'src');
  cpSync(path.dirname(bankPath), src, { recursive: true, filter: (f) => !f.endsWith('.lock') });
  const r = qbc(['build', '-o', out, '--format', 'anki', path.join(src, path.basename(bankPath))]);
  assert.equal(r.status, 0, r.stderr);
  const raw = path.join(out, 'raw');
  unzip(path.join(out, `${id}.apkg`), raw);
  // Media under their real names, as Anki's media folder has them.
  pkgs[id] = readApkg(raw, path.join(tmp.dir, 'media'), typeName);
}

/** Anki's template substitution, for the syntax the qbc templates use.
 * Field values are inserted as they are (they are HTML); an unknown field
 * is an error, as in Anki. */
function render(tmpl, fields, card) {
  const has = (f) => {
    if (!(f in fields)) throw new Error(`unknown field ${f}`);
    return fields[f].trim() !== '';
  };
  let s = tmpl.replace(/\{\{([#^])([^}]+)\}\}([\s\S]*?)\{\{\/\2\}\}/g,
    (_, kind, f, body) => ((kind === '#') === has(f) ? body : ''));
  s = s.replace(/\{\{([^#^/}][^}]*)\}\}/g, (_, f) => {
    if (f.startsWith('cloze:')) return cloze(fields[f.slice(6)], card);
    if (!(f in fields)) throw new Error(`unknown field ${f}`);
    return fields[f];
  });
  return s;
}

function note(id, qid, lang) {
  const n = pkgs[id].notes.find((x) => x.fields.ID === `${id}:${qid}:${lang}`);
  assert.ok(n, `note ${id}:${qid}:${lang}`);
  return n;
}

function front(id, n, gap = 1) { return render(pkgs[id].qfmt, n.fields, { n: gap, side: 'front' }); }
function back(id, n, gap = 1) {
  return render(pkgs[id].afmt, { ...n.fields, FrontSide: front(id, n, gap) }, { n: gap, side: 'back' });
}

function shell(id, body) {
  return `<!doctype html><html><head><meta charset="utf-8"><style>${pkgs[id].css}</style></head>` +
    `<body class="card"><div id="qa">${body}</div></body></html>`;
}

before(async () => {
  tmp = tempDir('qbc-anki-');
  loadPackage(path.join(TESTS, 'anki', 'quiz.qb'), QUIZ);
  loadPackage(path.join(TESTS, 'anki', 'escape.qb'), 'escape-test');
  loadPackage(path.join(TESTS, 'anki', 'types.qb'), 'anki-types');
  loadPackage(path.join(TESTS, 'anki', 'cloze.qb'), 'anki-cloze', 'qbc cloze');
  // Numeric gaps (issue 36): a bank of its own.
  mkdirSync(path.join(tmp.dir, 'numeric-src'));
  writeFileSync(path.join(tmp.dir, 'numeric-src', 'numeric.qb'), NUMERIC_GAPS);
  loadPackage(path.join(tmp.dir, 'numeric-src', 'numeric.qb'), 'anki-numeric-gaps', 'qbc cloze');
  loadPackage(path.join(TESTS, 'anki', 'marks.qb'), 'anki-marks');
  const folder = path.join(tmp.dir, 'media');
  server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url.split('?')[0]);
    if (pages.has(url)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(pages.get(url));
      return;
    }
    const file = path.join(folder, path.basename(url));
    if (url.startsWith('/') && existsSync(file)) {
      const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css'
        : file.endsWith('.png') ? 'image/png' : 'application/octet-stream';
      res.writeHead(200, { 'content-type': type });
      res.end(readFileSync(file));
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
  tmp?.cleanup();
});

/** A page in the desktop style: an empty reviewer, then show(html). */
async function reviewer(id, { js = true } = {}) {
  const ctx = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 560, height: 900 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); d.dismiss(); });
  pages.set(`/${id}/reviewer.html`, shell(id, ''));
  await page.goto(`${base}/${id}/reviewer.html`);
  return { ctx, page, errors };
}

/** Anki desktop's way of showing a side: set #qa's HTML, re-create each
 * script so it runs, wait for external ones (reviewer.ts setInnerHTML). */
async function show(page, html) {
  await page.evaluate(async (h) => {
    const qa = document.getElementById('qa');
    qa.innerHTML = h;
    for (const old of Array.from(qa.querySelectorAll('script'))) {
      const s = document.createElement('script');
      for (const a of Array.from(old.attributes)) s.setAttribute(a.name, a.value);
      s.text = old.text;
      const loaded = old.src ? new Promise((res, rej) => { s.onload = res; s.onerror = rej; }) : null;
      old.replaceWith(s);
      if (loaded) await loaded;
    }
  }, html);
}

const optionState = (page) => page.$$eval('.qb-front .qb-option', (els) => els.map((e) => ({
  cls: e.className, checked: e.getAttribute('aria-checked'), badge: e.querySelector('.qb-badge')?.textContent ?? null,
})));
// checkVisibility() also sees content hidden in a closed <details>.
const visible = (page, sel) => page.$eval(sel, (e) => e.checkVisibility({ visibilityProperty: true }));

test('front: the question and its options, pick by click; back marks the right option and the pick', async () => {
  const id = QUIZ;
  const n = note(id, 'replica-per-gpu', 'en');
  const { ctx, page, errors } = await reviewer(id);
  await show(page, front(id, n));
  assert.match(await page.textContent('.qb-question'), /what does each GPU hold/);
  assert.equal((await optionState(page)).length, 4);
  assert.ok(await visible(page, '.qb-hint'), 'hint shown when JS runs');
  await page.click('.qb-front .qb-option[data-i="1"]');
  let st = await optionState(page);
  assert.deepEqual(st.map((o) => o.checked), ['false', 'true', 'false', 'false']);
  assert.match(st[1].cls, /qb-selected/);

  await show(page, back(id, n));
  st = await optionState(page);
  assert.match(st[0].cls, /qb-is-correct/);
  assert.equal(st[0].badge, '✓ Correct answer');
  assert.match(st[1].cls, /qb-is-wrong/);
  assert.match(st[1].cls, /qb-picked/);
  assert.equal(st[1].badge, '✗ Incorrect · Your answer');
  assert.equal(st[2].badge, null);
  assert.equal(await page.textContent('.qb-result'), '✗ Incorrect');
  assert.ok(await visible(page, '.qb-explanation'));
  assert.match(await page.textContent('.qb-back .qb-explanation'), /^Explanation\s*In standard data parallelism/);
  assert.ok(await visible(page, '.qb-feedback'));
  assert.match(await page.textContent('.qb-feedback .qb-fb.qb-picked'), /Your answer/);
  assert.match(await page.textContent('.qb-feedback .qb-fb.qb-picked .qb-fb-text'), /pipeline/);
  // The other language, behind a collapsed toggle in the card's language.
  const det = page.locator('.qb-back details.qb-translation');
  assert.equal(await det.getAttribute('lang'), 'sw');
  assert.equal(await det.evaluate((d) => d.open), false);
  assert.equal(await page.textContent('.qb-translation > summary'), 'Show in Kiswahili');
  assert.equal(await visible(page, '.qb-tr-question'), false);
  await page.click('.qb-translation > summary');
  assert.equal(await det.evaluate((d) => d.open), true);
  assert.match(await page.textContent('.qb-tr-question'), /kila GPU inashikilia nini/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('a right pick is confirmed with a mark and a word', async () => {
  const id = QUIZ;
  const n = note(id, 'gradient-allreduce', 'en');
  const { ctx, page, errors } = await reviewer(id);
  await show(page, front(id, n));
  await page.click('.qb-front .qb-option[data-i="1"]');
  await show(page, back(id, n));
  assert.equal(await page.textContent('.qb-result'), '✓ Correct');
  const st = await optionState(page);
  assert.equal(st[1].badge, '✓ Correct · Your answer');
  assert.deepEqual(st.filter((o) => o.badge).length, 1);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('keys 1-9 pick an option on the front and leave the back to Anki', async () => {
  const id = QUIZ;
  const n = note(id, 'memory-limit', 'en');
  const { ctx, page, errors } = await reviewer(id);
  await show(page, front(id, n));
  await page.keyboard.press('3');
  assert.deepEqual((await optionState(page)).map((o) => o.checked), ['false', 'false', 'true', 'false']);
  await page.keyboard.press('9'); // no option 9: nothing changes
  await page.keyboard.press('1');
  assert.deepEqual((await optionState(page)).map((o) => o.checked), ['true', 'false', 'false', 'false']);
  await page.keyboard.press('3');
  await show(page, back(id, n));
  const st = await optionState(page);
  assert.match(st[2].cls, /qb-picked/);
  // On the back the digits belong to Anki's answer buttons.
  const prevented = await page.evaluate(() => {
    const e = new KeyboardEvent('keydown', { key: '1', cancelable: true, bubbles: true });
    document.dispatchEvent(e);
    return e.defaultPrevented;
  });
  assert.equal(prevented, false);
  // Another note type's card on the same page: digits are not taken.
  await show(page, front(id, n));
  await show(page, '<input id="typeans">');
  await page.focus('#typeans');
  await page.keyboard.press('2');
  assert.equal(await page.inputValue('#typeans'), '2');
  await page.evaluate(() => document.body.focus());
  const taken = await page.evaluate(() => {
    const e = new KeyboardEvent('keydown', { key: '2', cancelable: true, bubbles: true });
    document.dispatchEvent(e);
    return e.defaultPrevented;
  });
  assert.equal(taken, false);
  // The front is rendered again for the next review: a fresh attempt.
  await show(page, front(id, n));
  assert.deepEqual((await optionState(page)).map((o) => o.checked), ['false', 'false', 'false', 'false']);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('Kiswahili card: labels in Kiswahili, toggle to English', async () => {
  const id = QUIZ;
  const n = note(id, 'replica-per-gpu', 'sw');
  const { ctx, page, errors } = await reviewer(id);
  await show(page, front(id, n));
  assert.match(await page.textContent('.qb-hint'), /^Chagua jibu moja/);
  await page.keyboard.press('2');
  await show(page, back(id, n));
  assert.equal(await page.textContent('.qb-result'), '✗ Si sahihi');
  assert.equal((await optionState(page))[0].badge, '✓ Jibu sahihi');
  assert.equal(await page.textContent('.qb-translation > summary'), 'Onyesha kwa Kiingereza');
  assert.match(await page.textContent('.qb-back .qb-explanation .qb-h'), /^Maelezo$/);
  assert.equal(await page.getAttribute('.qb-back', 'lang'), 'sw');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('AnkiDroid: the back is a new page; the pick survives in sessionStorage', async () => {
  const id = QUIZ;
  const n = note(id, 'nccl-algorithm', 'en');
  pages.set(`/${id}/droid-front.html`, shell(id, front(id, n)));
  pages.set(`/${id}/droid-back.html`, shell(id, back(id, n)));
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${base}/${id}/droid-front.html`);
  await page.click('.qb-front .qb-option[data-i="2"]');
  await page.goto(`${base}/${id}/droid-back.html`);
  const st = await optionState(page);
  assert.match(st[2].cls, /qb-picked/);
  assert.match(await page.textContent('.qb-result'), /Your answer|Correct|Incorrect/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('without JavaScript the back still shows the correct option and the explanation', async () => {
  const id = QUIZ;
  const n = note(id, 'replica-per-gpu', 'en');
  pages.set(`/${id}/nojs-back.html`, shell(id, back(id, n)));
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const page = await ctx.newPage();
  await page.goto(`${base}/${id}/nojs-back.html`);
  // The note holds no labels: the back marks each option with ✓ or ✗ from
  // the card's CSS (data-ok), with its feedback, then the explanation.
  const marks = await page.$$eval('.qb-back .qb-feedback li', (els) => els.map((e) => ({
    mark: getComputedStyle(e, '::before').content, text: e.textContent,
    visible: e.checkVisibility({ visibilityProperty: true }),
  })));
  assert.equal(marks.length, 4);
  assert.ok(marks.every((m) => m.visible));
  assert.match(marks[0].mark, /✓/);
  assert.match(marks[0].text, /^A full copy of the model/);
  assert.match(marks[0].text, /each GPU runs the whole model/, 'feedback shown');
  for (const m of marks.slice(1)) assert.match(m.mark, /✗/);
  assert.ok(await visible(page, '.qb-back .qb-explanation'));
  assert.match(await page.textContent('.qb-back .qb-explanation'), /complete replica/);
  assert.equal(await page.$('.qb-hint'), null, 'no click hint without JS');
  // The front's copy of the options never shows correctness or feedback.
  assert.equal(await page.$eval('.qb-front .qb-options li', (e) => getComputedStyle(e, '::before').content), 'none');
  assert.equal(await visible(page, '.qb-front .qb-options small'), false);
  await ctx.close();
});

test('multiple answers: every correct option must be picked', async () => {
  const id = 'escape-test';
  const n = note(id, 'several', 'en');
  for (const [keys, want] of [[['1', '2'], '✓ Correct'], [['1'], '✗ Incorrect'], [['1', '2', '3'], '✗ Incorrect'], [[], 'You did not pick an option.']]) {
    const { ctx, page, errors } = await reviewer(id);
    await show(page, front(id, n));
    for (const k of keys) await page.keyboard.press(k);
    assert.deepEqual((await optionState(page)).map((o) => o.checked === 'true'), [0, 1, 2].map((i) => keys.includes(String(i + 1))));
    await show(page, back(id, n));
    assert.equal(await page.textContent('.qb-result'), want, `picks ${keys}`);
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});

test('script, HTML and template syntax from a bank stay text on the card', async () => {
  const id = 'escape-test';
  const n = note(id, 'script-tags', 'en');
  const { ctx, page, errors } = await reviewer(id);
  await show(page, front(id, n));
  assert.equal(await page.textContent('.qb-question'), 'Does <script>alert("x")</script> run? And {{Front}} or {{#Back}}x{{/Back}}?');
  await page.click('.qb-front .qb-option[data-i="0"]');
  await show(page, back(id, n));
  assert.match(await page.textContent('.qb-feedback'), /<\/script><img src=x onerror=alert\(1\)> is text too\./);
  assert.match(await page.textContent('.qb-feedback'), /\[sound:boom\.mp3\]/);
  assert.equal(await page.$$eval('#qa script', (s) => s.filter((e) => !e.src).length), 0);
  assert.equal(await page.$$eval('#qa img', (i) => i.filter((e) => !e.src.includes('gpu_diagram-')).length), 0);
  const img = page.locator('.qb-back .qb-explanation img').first();
  assert.ok(await img.evaluate((e) => e.complete && e.naturalWidth > 0), 'picture loads from media');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('true-false: the two words as options; right and wrong picks; feedback-wrong only when needed', async () => {
  const id = 'anki-types';
  for (const [qid, lang, key, want, words, fbw] of [
    ['tf-false', 'en', '2', '✓ Correct', ['True', 'False'], false],
    ['tf-false', 'en', '1', '✗ Incorrect', ['True', 'False'], false], // "True" has its own feedback
    ['tf-true', 'en', '2', '✗ Incorrect', ['True', 'False'], true], // no own feedback: the default
    ['tf-true', 'en', '1', '✓ Correct', ['True', 'False'], false],
    ['tf-true', 'sw', '2', '✗ Si sahihi', ['Kweli', 'Si kweli'], true],
  ]) {
    const n = note(id, qid, lang);
    const { ctx, page, errors } = await reviewer(id);
    await show(page, front(id, n));
    assert.deepEqual(await page.$$eval('.qb-front .qb-option .qb-text', (e) => e.map((x) => x.textContent)), words);
    assert.equal(await page.getAttribute('.qb-front .qb-options', 'role'), 'radiogroup');
    if (await page.$('.qb-front .qb-fbw')) assert.equal(await visible(page, '.qb-front .qb-fbw'), false, 'no feedback on the front');
    await page.keyboard.press(key);
    await show(page, back(id, n));
    assert.equal(await page.textContent('.qb-result'), want, `${qid} ${lang} ${key}`);
    if (fbw) {
      assert.ok(await visible(page, '.qb-feedback > .qb-fbw'));
    } else if (await page.$('.qb-feedback > .qb-fbw')) {
      assert.equal(await visible(page, '.qb-feedback > .qb-fbw'), false);
    }
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});

test('partial credit: the back says how much of a multiple answer was right', async () => {
  const id = 'anki-types';
  const n = note(id, 'partial-shuffled', 'en');
  for (const [picks, want] of [[[0, 1, 3], '✗ Incorrect · 1 of 3'], [[0, 1], '✗ Incorrect · 2 of 3'],
    [[3, 4], '✗ Incorrect · 0 of 3'], [[0, 1, 2], '✓ Correct']]) {
    const { ctx, page, errors } = await reviewer(id);
    await show(page, front(id, n));
    for (const i of picks) await page.click(`.qb-front .qb-option[data-i="${i}"]`);
    await show(page, back(id, n));
    assert.equal(await page.textContent('.qb-result'), want, `picks ${picks}`);
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});

test('marks (issue 36): the back shows what each option earns, with and without the script; the front hides it', async () => {
  const id = 'anki-marks';
  const n = note(id, 'capital', 'en');
  pages.set(`/${id}/nojs-back.html`, shell(id, back(id, n)));
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const page = await ctx.newPage();
  await page.goto(`${base}/${id}/nojs-back.html`);
  const shown = await page.$$eval('.qb-back .qb-feedback li .qb-share', (els) => els.map((e) => [e.textContent, e.checkVisibility()]));
  assert.deepEqual(shown, [['+100%', true], ['\u221225%', true], ['+50%', true], ['0%', true]]);
  assert.equal(await page.$eval('.qb-front .qb-share', (e) => e.checkVisibility()), false, 'the front hides the marks');
  await ctx.close();
  const m = note(id, 'primes', 'en');
  for (const [picks, want] of [[[0, 3], '✗ Incorrect · 75 of 100'], [[0, 2], '✗ Incorrect · 41.67 of 100'],
    [[1, 2], '✗ Incorrect · 0 of 100'], [[0, 1], '✓ Correct']]) {
    const { ctx, page, errors } = await reviewer(id);
    await show(page, front(id, m));
    for (const i of picks) await page.click(`.qb-front .qb-option[data-i="${i}"]`);
    await show(page, back(id, m));
    assert.equal(await page.textContent('.qb-result'), want, `picks ${picks}`);
    assert.deepEqual(await page.$$eval('.qb-back .qb-feedback li .qb-share', (els) => els.map((e) => e.textContent)),
      ['+75%', '+25%', '\u221233.3%', '0%']);
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});

test('shuffled options: a new order per view, the pinned option stays, keys and back follow the shown order', async () => {
  const id = 'anki-types';
  const n = note(id, 'partial-shuffled', 'en');
  const { ctx, page, errors } = await reviewer(id);
  const orders = new Set();
  for (let view = 0; view < 8; view++) {
    await show(page, front(id, n));
    const shown = await page.$$eval('.qb-front .qb-option', (e) => e.map((x) => x.getAttribute('data-i')));
    assert.deepEqual([...shown].sort(), ['0', '1', '2', '3', '4']);
    assert.equal(shown[4], '4', 'the pinned option keeps its place');
    const keys = await page.$$eval('.qb-front .qb-option .qb-num', (e) => e.map((x) => x.textContent));
    assert.deepEqual(keys, ['F', 'G', 'H', 'J', 'K'], 'keys by shown position');
    orders.add(shown.join(''));
    if (view < 7) continue;
    await page.keyboard.press('f'); // the first option shown
    await show(page, back(id, n));
    const backShown = await page.$$eval('.qb-front .qb-option', (e) => e.map((x) => x.getAttribute('data-i')));
    assert.deepEqual(backShown, shown, 'the back shows the front\'s order');
    assert.match(await page.getAttribute('.qb-front .qb-option:first-child', 'class'), /qb-picked/);
    const fbOrder = await page.$$eval('.qb-feedback .qb-fb', (e) => e.map((x) => x.getAttribute('data-i')));
    assert.deepEqual(fbOrder, shown);
  }
  assert.ok(orders.size > 1, `shuffled across views: ${[...orders]}`);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('short-answer and numeric: typed on the front, kept across front and back, compared on the back', async () => {
  const id = 'anki-types';
  for (const [qid, typedText, want, picked, fbw] of [
    ['short-typed', '  All-Reduce ', '✓ Correct', 'all-reduce', false],
    ['short-typed', 'allreduce', '✓ Correct', 'allreduce', false],
    ['short-typed', 'broadcast', '✗ Incorrect', 'broadcast', false], // its own feedback
    ['short-typed', 'gather', '✗ Incorrect', null, true], // no feedback of its own: the default
    ['short-typed', '', 'You did not pick an option.', null, false],
    ['numeric-tol', '3,45', '✓ Correct', '3.5 ± 0.1 GB', false],
    ['numeric-tol', '3.6', '✓ Correct', '3.5 ± 0.1 GB', false],
    ['numeric-tol', '3.61', '✗ Incorrect', null, false],
    ['numeric-tol', 'three', '✗ Incorrect', null, false],
    // a further answer: the best that holds the number is picked, its feedback shown
    ['numeric-credit', '96', '✗ Incorrect', '90…98 °C (50%)', false],
    ['numeric-credit', '100.5', '✓ Correct', '100 ± 1 °C', false],
  ]) {
    const n = note(id, qid, 'en');
    const { ctx, page, errors } = await reviewer(id);
    await show(page, front(id, n));
    assert.equal(await visible(page, '.qb-front .qb-options'), false, 'answers hidden on the front');
    const label = await page.textContent('.qb-typed label');
    assert.equal(label, qid.startsWith('numeric') ? 'Type a number' : 'Type your answer');
    if (qid === 'numeric-tol') assert.equal(await page.textContent('.qb-unit'), ' GB');
    await page.fill('.qb-typed input', typedText);
    await show(page, back(id, n));
    assert.equal(await page.textContent('.qb-result'), want, `${qid} '${typedText}'`);
    assert.equal(await page.textContent('.qb-typed-value'), typedText);
    const pickedText = await page.$$eval('.qb-feedback .qb-fb.qb-picked .qb-text', (e) => e.map((x) => x.textContent));
    assert.deepEqual(pickedText, picked ? [picked] : []);
    // The accepted answers are always shown, marked.
    assert.ok((await page.$$eval('.qb-feedback .qb-fb-correct', (e) => e.length)) >= 1);
    if (await page.$('.qb-feedback > .qb-fbw')) assert.equal(await visible(page, '.qb-feedback > .qb-fbw'), fbw);
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});

test('typed answers survive an AnkiDroid-style reload', async () => {
  const id = 'anki-types';
  const n = note(id, 'short-typed', 'sw');
  pages.set(`/${id}/typed-front.html`, shell(id, front(id, n)));
  pages.set(`/${id}/typed-back.html`, shell(id, back(id, n)));
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${base}/${id}/typed-front.html`);
  await page.fill('.qb-typed input', 'ALLREDUCE');
  await page.goto(`${base}/${id}/typed-back.html`);
  assert.equal(await page.textContent('.qb-result'), '✓ Sahihi');
  await ctx.close();
});

test('picture of a typed answer for the README', async () => {
  const id = 'anki-types';
  const n = note(id, 'short-typed', 'en');
  const { ctx, page } = await reviewer(id);
  await show(page, front(id, n));
  await page.fill('.qb-typed input', 'gather');
  await show(page, back(id, n));
  const shot = path.join(path.dirname(SHOT), 'anki-typed.png');
  const out = process.env.UPDATE || !existsSync(shot) ? shot : path.join(tmp.dir, 'anki-typed.png');
  await page.screenshot({ path: out, fullPage: true });
  assert.ok(existsSync(out));
  await ctx.close();
});

test('matching: a select per left item on the front; the back marks each pair and gives partial credit', async () => {
  const id = 'anki-types';
  const n = note(id, 'match-collectives', 'en');
  const right = { 'all-reduce': 'every GPU gets the sum', broadcast: "one GPU's data reaches all", gather: 'one GPU collects every part' };
  for (const [choice, want, marks] of [
    [right, '✓ Correct', ['✓', '✓', '✓']],
    [{ ...right, gather: 'nothing is sent' }, '✗ Incorrect · 2 of 3', ['✓', '✓', '✗']],
    [{}, 'You did not pick an option.', ['✗', '✗', '✗']],
  ]) {
    const { ctx, page, errors } = await reviewer(id);
    await show(page, front(id, n));
    assert.equal(await visible(page, '.qb-front .qb-options'), false, 'pairs hidden on the front');
    const rows = await page.$$eval('.qb-match-row label', (e) => e.map((x) => x.textContent));
    assert.deepEqual(rows, ['all-reduce', 'broadcast', 'gather']);
    const opts = await page.$eval('.qb-match-row select', (e) => [...e.options].slice(1).map((x) => x.textContent));
    assert.deepEqual(opts, [...opts].sort(), 'right sides sorted, distractor included');
    assert.equal(opts.length, 4);
    for (const [k, left] of rows.entries()) {
      if (choice[left]) await page.selectOption(`.qb-match-row:nth-of-type(${k + 2}) select`, { label: choice[left] });
    }
    await show(page, back(id, n));
    assert.equal(await page.textContent('.qb-result'), want);
    const got = await page.$$eval('.qb-feedback .qb-fb[data-ok] .qb-badge', (e) => e.map((x) => x.textContent.charAt(0)));
    assert.deepEqual(got, marks);
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});

test('picture for the README', async () => {
  const id = QUIZ;
  const n = note(id, 'gradient-allreduce', 'en');
  const { ctx, page } = await reviewer(id);
  await show(page, front(id, n));
  await page.keyboard.press('1');
  await show(page, back(id, n));
  // The committed copy is rewritten only with UPDATE=1 (or when missing).
  const out = process.env.UPDATE || !existsSync(SHOT) ? SHOT : path.join(tmp.dir, 'anki-card.png');
  mkdirSync(path.dirname(out), { recursive: true });
  await page.screenshot({ path: out, fullPage: true });
  assert.ok(existsSync(out));
  await ctx.close();
});

// --- option keys that reach the card on Anki desktop ----------------------------
// The keys Anki handles itself before the card's web view sees them, so a
// card must never hint them.  Sources: Anki's qt/aqt/reviewer.py,
// Reviewer._shortcutKeys (1-4 are the default answer keys; 2.1.16's
// aqt/reviewer.py binds 1-4 too), and qt/aqt/main.py, AnkiQt.setupKeys
// (window-wide, also while reviewing); AnkiDroid's keyboard shortcuts
// (docs, "Reviewer") add z for undo.
const ANKI_SHORTCUTS = [
  // reviewer.py _shortcutKeys
  'e', ' ', 'Enter', 'Return', 'm', 'r', 'F5', 'Ctrl+1', 'Ctrl+2', 'Ctrl+3', 'Ctrl+4', 'Ctrl+5',
  'Ctrl+6', 'Ctrl+7', '*', '=', '-', '!', '@', 'Ctrl+Alt+N', 'Ctrl+Alt+E', 'Ctrl+Delete',
  'Ctrl+Backspace', 'Ctrl+Shift+D', 'v', 'Shift+v', 'o', 'i', 'Ctrl+Alt+i', '1', '2', '3', '4',
  'u', '5', '6', '7',
  // main.py setupKeys
  'Ctrl+:', 'd', 's', 'a', 'b', 't', 'Shift+t', 'y',
  // AnkiDroid
  'z',
].map((k) => k.toLowerCase());

test('option keys: every hinted key is one Anki leaves to the card, and it picks its option', async () => {
  if (!pkgs.a11y) loadPackage(path.join(TESTS, 'browser', 'a11y', 'a11y.qb'), 'a11y');
  const id = 'a11y';
  for (const lang of ['en', 'sw']) {
    const n = note(id, 'many-options', lang);
    const { ctx, page, errors } = await reviewer(id);
    await show(page, front(id, n));
    const hint = await page.textContent('.qb-hint');
    assert.doesNotMatch(hint, /[0-9]/, `${lang} hint names no digit: ${hint}`);
    const labels = await page.$$eval('.qb-front .qb-option .qb-num', (els) => els.map((e) => e.textContent));
    const keyed = labels.filter((l) => /^[A-Z]$/.test(l));
    assert.ok(keyed.length >= 9, `at least 9 options get a letter key: ${labels}`);
    assert.equal(new Set(keyed).size, keyed.length, 'keys are distinct');
    for (const [i, label] of labels.entries()) {
      if (!keyed.includes(label)) {
        assert.equal(label, String(i + 1), 'an option without a key keeps its number');
        continue;
      }
      const key = label.toLowerCase();
      assert.ok(!ANKI_SHORTCUTS.includes(key) && !ANKI_SHORTCUTS.includes(`shift+${key}`),
        `${label} is an Anki shortcut`);
      assert.equal(await page.getAttribute(`.qb-front .qb-option[data-i="${i}"]`, 'aria-keyshortcuts'), label);
      await page.keyboard.press(key);
      const st = await optionState(page);
      assert.equal(st[i].checked, 'true', `${label} picks option ${i + 1}`);
      assert.equal(st.filter((o) => o.checked === 'true').length, 1);
    }
    // The back shows the same letters in the answer and the feedback.
    await page.keyboard.press(labels[0].toLowerCase());
    await show(page, back(id, n));
    assert.equal(await page.textContent('.qb-result'), lang === 'en' ? '✓ Correct' : '✓ Sahihi');
    assert.match(await page.textContent('.qb-feedback .qb-fb-correct'), new RegExp(`\\b${labels[0]}\\b`));
    assert.deepEqual(await page.$$eval('.qb-feedback .qb-num', (els) => els.map((e) => e.textContent)), labels);
    assert.deepEqual(errors, []);
    await ctx.close();
  }
});

test('cloze: a numeric gap is a card whose back shows the accepted value, tolerance or range', async () => {
  const id = 'anki-numeric-gaps';
  const n = note(id, 'measures', 'en');
  const { ctx, page, errors } = await reviewer(id);
  const want = ['9.81 ± 0.05', '36.1 – 37.2', '343 ± 2%'];
  for (const [i, w] of want.entries()) {
    await show(page, front(id, n, i + 1));
    assert.equal(await page.textContent('.qb-front .cloze'), '[...]');
    assert.ok(!(await page.textContent('.qb-question')).includes(w), `card ${i + 1}: the front hides ${w}`);
    await show(page, back(id, n, i + 1));
    assert.equal(await page.textContent('.qb-back .cloze'), w, `card ${i + 1}`);
  }
  // The other language's version, filled in, on the back.
  assert.match(await page.textContent('.qb-back details.qb-translation'), /g ni 9\.81 ± 0\.05 m\/s², mwili 36\.1 – 37\.2 °C/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('cloze: the front hides the card gap, the back shows it; other gaps show their answers', async () => {
  const id = 'anki-cloze';
  const n = note(id, 'collectives', 'en');
  const { ctx, page, errors } = await reviewer(id);
  // Card 1: the typed gap.
  await show(page, front(id, n, 1));
  assert.equal(await page.textContent('.qb-front .cloze'), '[...]');
  let q = await page.textContent('.qb-question');
  assert.doesNotMatch(q, /all-reduce/);
  assert.match(q, /; broadcast sends one value/);
  await show(page, back(id, n, 1));
  assert.equal(await page.textContent('.qb-back .cloze'), 'all-reduce');
  assert.ok(await visible(page, '.qb-explanation'));
  assert.equal(await page.locator('.qb-back details.qb-translation').getAttribute('lang'), 'sw');
  assert.equal(await page.textContent('.qb-translation > summary'), 'Show in Kiswahili');
  assert.match(await page.textContent('.qb-back .qb-explanation'), /^Explanation\s*All-reduce combines/);
  // Card 2: the choice gap, its choices as the hint.
  await show(page, front(id, n, 2));
  assert.equal(await page.textContent('.qb-front .cloze'), '[broadcast / gather / scatter]');
  q = await page.textContent('.qb-question');
  assert.match(q, /MPI's all-reduce sums/);
  await show(page, back(id, n, 2));
  assert.equal(await page.textContent('.qb-back .cloze'), 'broadcast');
  // Hostile answers stay text.
  const h = note(id, 'hostile', 'en');
  await show(page, back(id, h, 1));
  assert.equal(await page.textContent('.qb-back .cloze'), 'a::b');
  await show(page, front(id, h, 3));
  assert.equal(await page.textContent('.qb-front .cloze'), '[c{d / e:f]');
  assert.match(await page.textContent('.qb-question'), /then \[sound:x\.mp3\], then/);
  assert.deepEqual(errors, []);
  await ctx.close();
});
