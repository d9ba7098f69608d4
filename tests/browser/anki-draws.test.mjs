// tests/browser/anki-draws.test.mjs - parameterised questions (issue 38) on
// Anki cards, rendered from the package's own note type in headless
// Chromium as anki.test.mjs does: qbc builds tests/anki/draws.qb, the test
// fills the "qbc drawn" templates with each note's fields ({{FrontSide}}
// included) and plays many reviews, the desktop way (one page, the back
// replaces the front and its scripts run again) and the AnkiDroid way (the
// back is a new page).  The numbers a card shows are read from the card
// and the right answer is worked out here from the bank's formulas.
// Run: cd tests && QBC=$PWD/../build/qbc node --test browser/anki-draws.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { TESTS, fillCard, qbc, readApkg, tempDir, unzip, launch } from './lib.mjs';

const ID = 'anki-draws';
const G = 9.81;
const REVIEWS = 30;

let tmp, browser, server, base, pkg;
const pages = new Map(); // url path -> card documents

before(async () => {
  tmp = tempDir('qbc-anki-draws-');
  const src = path.join(tmp.dir, 'src');
  mkdirSync(src);
  // Build from a copy: a build writes its revision record next to the bank.
  copyFileSync(path.join(TESTS, 'anki', 'draws.qb'), path.join(src, 'draws.qb'));
  const r = qbc(['build', '-o', tmp.dir, '--format', 'anki', path.join(src, 'draws.qb')]);
  assert.equal(r.status, 0, r.stderr);
  const raw = path.join(tmp.dir, 'raw');
  unzip(path.join(tmp.dir, `${ID}.apkg`), raw);
  pkg = readApkg(raw, path.join(tmp.dir, 'media'), 'qbc drawn');
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
      const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'application/octet-stream';
      res.writeHead(200, { 'content-type': type });
      res.end(readFileSync(file));
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise((res) => server.listen(0, '127.0.0.1', res));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
  tmp?.cleanup();
});

function note(qid, lang) {
  const n = pkg.notes.find((x) => x.fields.ID === `${ID}:${qid}:${lang}`);
  assert.ok(n, `note ${qid}:${lang} of the drawn note type`);
  return n;
}
const front = (n) => fillCard(pkg.qfmt, n.fields);
const back = (n) => fillCard(pkg.afmt, { ...n.fields, FrontSide: front(n) });
const shell = (body) => `<!doctype html><html><head><meta charset="utf-8"><style>${pkg.css}</style></head>` +
  `<body class="card"><div id="qa">${body}</div></body></html>`;

/** A page in the desktop style: an empty reviewer, then show(html). */
async function reviewer({ js = true } = {}) {
  const ctx = await browser.newContext({ javaScriptEnabled: js });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); d.dismiss(); });
  pages.set('/reviewer.html', shell(''));
  await page.goto(`${base}/reviewer.html`);
  return { ctx, page, errors };
}

/** Anki desktop's way of showing a side: #qa's HTML set, each script
 * made again so that it runs (reviewer.ts setInnerHTML). */
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

const textOf = (page, sel) => page.$eval(sel, (e) => e.textContent.replace(/\s+/g, ' ').trim());
const heightOf = (q) => Number(/(?:falls from|tombe de) (\d+) m/.exec(q)?.[1]);
const seconds = (h) => Math.sqrt(2 * h / G);

test('falling-time: a new height at each review, the back shows the same draw, the typed answer is judged against it', async () => {
  const n = note('falling-time', 'en');
  const { ctx, page, errors } = await reviewer();
  const heights = [], draws = [];
  for (let i = 0; i < REVIEWS; i++) {
    await show(page, front(n));
    const q = await textOf(page, '.qb-front .qb-question');
    const h = heightOf(q);
    assert.ok(h >= 5 && h <= 50 && h % 5 === 0, `review ${i}: a height from the pool: ${q}`);
    heights.push(h);
    draws.push(await page.getAttribute('.qb-front', 'data-draw'));
    assert.equal(await page.$('.qb-unit'), null, 'a tolerance in percent is no unit');
    // Right, right at the edge of the 2% tolerance, another draw's
    // answer, or wrong: all against the draw shown.
    const v = seconds(h), other = seconds(h === 50 ? 45 : h + 5);
    const [typed, want] = [[v.toFixed(2), '✓ Correct'], [(v * 1.019).toFixed(3), '✓ Correct'],
      [other.toFixed(2), '✗ Incorrect'], [(v * 1.1).toFixed(2), '✗ Incorrect']][i % 4];
    await page.fill('.qb-typed input', typed);
    await show(page, back(n));
    assert.equal(await textOf(page, '.qb-front .qb-question'), q, `review ${i}: the back's front is the draw answered`);
    assert.equal(await textOf(page, '.qb-result'), want, `review ${i}: h ${h}, typed ${typed}`);
    assert.match(await textOf(page, '.qb-feedback .qb-fb-correct .qb-text'), new RegExp(`^${v.toFixed(2).replace('.', '\\.')} ± 2%$`));
    assert.match(await textOf(page, '.qb-back .qb-explanation'), new RegExp(`√\\(2 × ${h} / 9\\.81\\) ≈ ${v.toFixed(2).replace('.', '\\.')} s`));
    assert.match(await page.$eval('.qb-back details.qb-translation', (e) => e.textContent), new RegExp(`tombe de ${h} m`),
      'the other language behind the toggle shows the same draw');
  }
  assert.ok(new Set(heights).size >= 4, `different numbers over ${REVIEWS} reviews: ${heights}`);
  for (let i = 1; i < draws.length; i++) assert.notEqual(draws[i], draws[i - 1], `review ${i} shows another draw than the one before`);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('French card: numbers with a decimal comma, a typed comma accepted, the unit shown', async () => {
  const { ctx, page, errors } = await reviewer();
  const n = note('mass-weight', 'fr');
  const masses = new Set();
  for (let i = 0; i < 12; i++) {
    await show(page, front(n));
    const q = await textOf(page, '.qb-front .qb-question');
    const m = /masse de ([\d,]+) kg/.exec(q)?.[1];
    assert.ok(m, q);
    masses.add(m);
    assert.equal(await textOf(page, '.qb-unit'), 'N');
    const x = Number(m.replace(',', '.'));
    const typed = i % 2 ? (9.8 * x + 0.3).toFixed(1).replace('.', ',') : (9.8 * x).toFixed(2).replace('.', ',');
    await page.fill('.qb-typed input', typed);
    await show(page, back(n));
    assert.equal(await textOf(page, '.qb-front .qb-question'), q);
    assert.equal(await textOf(page, '.qb-result'), i % 2 ? '✗ Incorrect' : '✓ Correct', `${m} kg, typed ${typed}`);
    assert.match(await textOf(page, '.qb-back .qb-explanation'), new RegExp(`= ${m} × 9,8 = `));
  }
  assert.ok([...masses].some((m) => m.includes(',')), `a mass with a decimal comma: ${[...masses]}`);
  assert.ok(masses.size >= 3, [...masses].join(' '));
  const f = note('falling-time', 'fr');
  await show(page, front(f));
  const h = heightOf(await textOf(page, '.qb-front .qb-question'));
  await page.fill('.qb-typed input', seconds(h).toFixed(2).replace('.', ','));
  await show(page, back(f));
  assert.equal(await textOf(page, '.qb-result'), '✓ Correct'.replace('Correct', await page.evaluate(() => window.qbcLabels.fr.correct)));
  assert.match(await textOf(page, '.qb-back .qb-explanation'), /9,81/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('AnkiDroid: the back is a new page and still shows the front\'s draw', async () => {
  const n = note('falling-time', 'en');
  pages.set('/droid-front.html', shell(front(n)));
  pages.set('/droid-back.html', shell(back(n)));
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const heights = new Set();
  for (let i = 0; i < 10; i++) {
    await page.goto(`${base}/droid-front.html`);
    const q = await textOf(page, '.qb-front .qb-question');
    const h = heightOf(q);
    heights.add(h);
    await page.fill('.qb-typed input', i % 2 ? '0' : seconds(h).toFixed(2));
    await page.goto(`${base}/droid-back.html`);
    assert.equal(await textOf(page, '.qb-front .qb-question'), q, `review ${i}`);
    assert.equal(await textOf(page, '.qb-result'), i % 2 ? '✗ Incorrect' : '✓ Correct');
  }
  assert.ok(heights.size >= 3, [...heights].join(' '));
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('area-choice: computed options, the right one judged right in every draw', async () => {
  const n = note('area-choice', 'en');
  const { ctx, page, errors } = await reviewer();
  const rects = new Set();
  for (let i = 0; i < 16; i++) {
    await show(page, front(n));
    const q = await textOf(page, '.qb-front .qb-question');
    const [, a, b] = /is (\d+) cm by (\d+) cm/.exec(q).map(Number);
    assert.notEqual(a, b, 'where: a != b');
    rects.add(`${a}x${b}`);
    const opts = await page.$$eval('.qb-front .qb-option .qb-text', (e) => e.map((x) => x.textContent.trim()));
    assert.deepEqual([...opts].sort(), [`${a * b} cm²`, `${a * b + a} cm²`, `${2 * (a + b)} cm²`].sort());
    const pick = i % 2 ? opts.findIndex((o) => o !== `${a * b} cm²`) : opts.indexOf(`${a * b} cm²`);
    await page.click(`.qb-front .qb-option:nth-child(${pick + 1})`);
    await show(page, back(n));
    assert.equal(await textOf(page, '.qb-front .qb-question'), q);
    assert.equal(await textOf(page, '.qb-result'), i % 2 ? '✗ Incorrect' : '✓ Correct', `${a} x ${b}, picked ${opts[pick]}`);
    assert.equal(await textOf(page, '.qb-feedback .qb-fb-correct .qb-text'), `${a * b} cm²`);
    assert.match(await textOf(page, '.qb-back .qb-explanation'), new RegExp(`${a} × ${b} = ${a * b} cm²`));
  }
  assert.ok(rects.size >= 4, [...rects].join(' '));
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('without scripts the card shows the first draw, front and back, and no pool', async () => {
  for (const qid of ['falling-time', 'area-choice']) {
    const n = note(qid, 'en');
    // Draw 0 is what the fields hold; the pool is hidden text.
    const question = n.fields.Question.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
    pages.set(`/nojs-${qid}-front.html`, shell(front(n)));
    pages.set(`/nojs-${qid}-back.html`, shell(back(n)));
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    for (const side of ['front', 'back']) {
      await page.goto(`${base}/nojs-${qid}-${side}.html`);
      assert.equal(await textOf(page, '.qb-front .qb-question'), question, `${qid} ${side}`);
      assert.equal(await page.$eval('.qb-draws', (e) => e.checkVisibility()), false, 'the pool is not shown');
      const shown = await page.evaluate(() => document.body.innerText);
      assert.doesNotMatch(shown, /[[{]"[qoet]"/, 'no JSON on the card');
    }
    // The back's explanation and accepted answer are draw 0's too.
    if (qid === 'falling-time') {
      const h = heightOf(question);
      assert.match(await textOf(page, '.qb-back .qb-explanation'), new RegExp(`√\\(2 × ${h} / 9\\.81\\)`));
      assert.match(await textOf(page, '.qb-back .qb-feedback li[data-ok]'), new RegExp(`^${seconds(h).toFixed(2).replace('.', '\\.')} ± 2%`));
    } else {
      const [, a, b] = /is (\d+) cm by (\d+) cm/.exec(question).map(Number);
      assert.match(await textOf(page, '.qb-back .qb-feedback li[data-ok]'), new RegExp(`^${a * b} cm²`));
    }
    await ctx.close();
  }
});

test('hostile text stays text in every draw', async () => {
  const { ctx, page, errors } = await reviewer();
  for (const lang of ['en', 'fr']) {
    const n = note('hostile', lang);
    const seen = new Set();
    for (let i = 0; i < 10; i++) {
      await show(page, front(n));
      const q = await textOf(page, '.qb-front .qb-question');
      seen.add(q);
      assert.match(q, lang === 'en' ? /<script>alert\("x"\)<\/script> \d run\? \{\{Front\}\} \[sound:boom\.mp3\] <\/div><b>n<\/b>/
        : /<script>alert\('x'\)<\/script> \d \? \{\{FrontSide\}\} \[latex\]x\[\/latex\]/);
      await page.click('.qb-front .qb-option:nth-child(1)');
      await show(page, back(n));
      assert.equal(await textOf(page, '.qb-front .qb-question'), q);
      const k = Number(/(\d) (run|\?)/.exec(q)[1]);
      assert.match(await textOf(page, '.qb-feedback .qb-fb-correct .qb-text'), new RegExp(`^${k + 1} & `));
      assert.match(await textOf(page, '.qb-back .qb-explanation'), new RegExp(`${k} \\+ 1 = ${k + 1}`));
      assert.deepEqual(await page.evaluate(() => [document.querySelectorAll('#qa script:not([src])').length,
        document.querySelectorAll('#qa img, #qa b, #qa .qb-card ol ol').length]), [0, 0], 'no element from the bank');
    }
    assert.ok(seen.size >= 2, `${lang}: several draws`);
  }
  assert.deepEqual(errors, []);
  await ctx.close();
});
