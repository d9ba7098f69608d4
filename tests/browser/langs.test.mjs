// tests/browser/langs.test.mjs - the UI languages of the card and the
// player: labels from the language's own catalogue (templates/labels/),
// right-to-left screens for Arabic, and one "Show in ..." toggle per other
// language when a bank has three.
//
// Two fixture banks (browser/langs/): trilingual.qb (French first, then
// English and Kiswahili) and arabic.qb (Arabic first, then English).  Each
// is built into an .apkg and a SCORM 1.2 zip; cards are filled from the
// package's own note type and notes as Anki does, the player runs from the
// unzipped package without an LMS.  Expected labels are read from the
// catalogues, so a label is checked against what a translator wrote, and a
// fallback to English fails.
//
//   cd tests && QBC=$PWD/../build/qbc node --test browser/langs.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT, TESTS, fillCard, launch, qbc, readApkg, tempDir, unzip } from './lib.mjs';

const BANKS = path.join(TESTS, 'browser', 'langs');
const LABELS = path.join(ROOT, 'templates', 'labels');
const SHOTS = path.join(TESTS, 'screenshots');

let tmp, server, base, browser;
const apkg = {};   // bank id -> readApkg()
const player = {}; // bank id -> unzipped SCORM 1.2 package
const pages = new Map(); // url path -> card page html

const catalogue = (code) => JSON.parse(readFileSync(path.join(LABELS, `${code}.json`), 'utf8'));
const fmt = (s, vars) => s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));

function build(file, id) {
  const out = path.join(tmp.dir, id);
  const src = path.join(out, 'src');
  mkdirSync(src, { recursive: true });
  cpSync(path.join(BANKS, file), path.join(src, file));
  const r = qbc(['build', '-o', out, '--format', 'anki,scorm12', path.join(src, file)]);
  assert.equal(r.status, 0, r.stderr);
  unzip(path.join(out, `${id}.apkg`), path.join(out, 'apkg'));
  apkg[id] = readApkg(path.join(out, 'apkg'), path.join(tmp.dir, 'media'));
  player[id] = path.join(out, 'scorm');
  unzip(path.join(out, `${id}.scorm12.zip`), player[id]);
}

function serve(res, file) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png' };
  if (!existsSync(file) || !statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'content-type': `${types[path.extname(file)] || 'application/octet-stream'}; charset=utf-8` });
  res.end(readFileSync(file));
}

before(async () => {
  tmp = tempDir('qbc-langs-');
  build('trilingual.qb', 'langues');
  build('arabic.qb', 'shabakat');
  server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (p === '/favicon.ico') { res.writeHead(204); res.end(); return; }
    if (pages.has(p)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(pages.get(p));
      return;
    }
    const m = p.match(/^\/scorm\/([a-z]+)\/(.+)$/);
    if (m && player[m[1]] && !m[2].includes('..')) serve(res, path.join(player[m[1]], m[2]));
    else if (!p.slice(1).includes('/')) serve(res, path.join(tmp.dir, 'media', p.slice(1)));
    else { res.writeHead(404); res.end(); }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
  tmp?.cleanup();
});

/** A page that fails the test on any script error. */
async function newPage(opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 720, height: 900 }, ...opts });
  const page = await ctx.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.done = async () => {
    await ctx.close();
    assert.deepEqual(problems, [], problems.join('\n'));
  };
  return page;
}

// ------------------------------------------------------------------ card

function note(id, qid, lang) {
  const n = apkg[id].notes.find((x) => x.fields.ID === `${id}:${qid}:${lang}`);
  assert.ok(n, `note ${id}:${qid}:${lang}`);
  return n;
}

/** The card's front, then (desktop style: same page, #qa replaced, its
 * scripts re-created) its back, after clicking the options picks. */
async function card(id, qid, lang, picks, shot) {
  const pkg = apkg[id];
  const n = note(id, qid, lang);
  const front = fillCard(pkg.qfmt, n.fields);
  const back = fillCard(pkg.afmt, { ...n.fields, FrontSide: front });
  const url = `/card-${id}-${qid}-${lang}.html`;
  pages.set(url, `<!doctype html><html><head><meta charset="utf-8"><style>${pkg.css}</style></head>` +
    `<body class="card"><div id="qa">${front}</div></body></html>`);
  const page = await newPage({ viewport: { width: 560, height: 900 } });
  await page.goto(base + url);
  const seen = { hint: await page.textContent('.qb-hint'), frontDir: await page.$eval('.qb-front', (e) => getComputedStyle(e).direction) };
  for (const i of picks) await page.click(`.qb-front .qb-option[data-i="${i}"]`);
  await page.evaluate(async (h) => {
    const qa = document.getElementById('qa');
    qa.innerHTML = h;
    for (const old of Array.from(qa.querySelectorAll('script'))) {
      const s = document.createElement('script');
      for (const a of Array.from(old.attributes)) s.setAttribute(a.name, a.value);
      const loaded = new Promise((ok, ko) => { s.onload = ok; s.onerror = ko; });
      old.replaceWith(s);
      await loaded;
    }
  }, back);
  return { page, seen };
}

const dir = (page, sel) => page.$eval(sel, (e) => getComputedStyle(e).direction);
const box = (loc) => loc.evaluate((e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; });

test('the catalogues: every label of English, the same placeholders, a direction the card agrees with', async () => {
  const codes = readdirSync(LABELS).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
  for (const want of ['ar', 'en', 'es', 'fr', 'pt', 'sw']) assert.ok(codes.includes(want), `templates/labels/${want}.json`);
  const en = catalogue('en').labels;
  const holes = (s) => (s.match(/\{\w+\}/g) || []).sort();
  const page = await newPage();
  pages.set('/card-dir.html', `<!doctype html><body>${codes.map((c) => `<div class="qb-card" lang="${c}"></div>`).join('')}` +
    `<script src="/${Object.values(apkg.langues.media).find((m) => m.startsWith('_qbc-card-') && m.endsWith('.js'))}"></script></body>`);
  await page.goto(`${base}/card-dir.html`);
  for (const code of codes) {
    const c = catalogue(code);
    assert.equal(typeof c.name, 'string', `${code}: name`);
    assert.ok(c.dir === 'ltr' || c.dir === 'rtl', `${code}: dir`);
    assert.equal(await page.getAttribute(`.qb-card[lang="${code}"]`, 'dir'), c.dir, `${code}: the card's direction`);
    assert.deepEqual(Object.keys(c.labels).sort(), Object.keys(en).sort(), `${code}: the keys of en.json`);
    for (const [k, v] of Object.entries(en)) {
      if (k === 'languageNames') continue;
      assert.deepEqual(holes(c.labels[k]), holes(v), `${code}.${k}: placeholders`);
    }
    for (const other of codes) assert.ok(c.labels.languageNames[other], `${code}: languageNames.${other}`);
  }
  await page.done();
});

test('French card: French labels on both sides, one toggle per other language', async () => {
  const fr = catalogue('fr').labels;
  const { page, seen } = await card('langues', 'latence', 'fr', [0]);
  assert.equal(seen.hint, fr.hintSingle);
  assert.equal(await page.textContent('.qb-result'), `✗ ${fr.incorrect}`);
  assert.equal(await page.textContent('.qb-front .qb-option[data-i="1"] .qb-badge'), `✓ ${fr.correctAnswer}`);
  assert.equal(await page.textContent('.qb-back .qb-explanation .qb-h'), fr.explanation);
  assert.match(await page.textContent('.qb-feedback .qb-fb.qb-picked .qb-you'), new RegExp(`${fr.yourAnswer}$`));
  // Three languages: two toggles, each on its own line, apart.
  const toggles = page.locator('.qb-back > details.qb-translation');
  assert.equal(await toggles.count(), 2);
  assert.deepEqual(await toggles.evaluateAll((d) => d.map((e) => e.lang)), ['en', 'sw']);
  assert.deepEqual(await page.locator('.qb-translation > summary').allTextContents(),
    [fmt(fr.showIn, { lang: fr.languageNames.en }), fmt(fr.showIn, { lang: fr.languageNames.sw })]);
  const [a, b] = [await box(toggles.nth(0).locator('summary')), await box(toggles.nth(1).locator('summary'))];
  assert.ok(b.top >= a.bottom, `second toggle below the first: ${JSON.stringify([a, b])}`);
  await page.click('.qb-translation[lang="sw"] > summary');
  assert.match(await page.textContent('.qb-translation[lang="sw"] .qb-tr-question'), /Ucheleweshaji/);
  assert.equal(await page.locator('.qb-translation[lang="en"]').evaluate((d) => d.open), false);
  const out = process.env.UPDATE || !existsSync(path.join(SHOTS, 'anki-card-fr.png')) ? path.join(SHOTS, 'anki-card-fr.png')
    : path.join(tmp.dir, 'anki-card-fr.png');
  await page.screenshot({ path: out, fullPage: true });
  await page.done();
});

test('Arabic card: both sides and the Arabic labels read right to left; English toggles left to right', async () => {
  const ar = catalogue('ar').labels;
  const { page, seen } = await card('shabakat', 'ring', 'ar', [0, 2]);
  assert.equal(seen.frontDir, 'rtl');
  assert.equal(seen.hint, ar.hintMultiple);
  assert.equal(await dir(page, '.qb-front'), 'rtl');
  assert.equal(await dir(page, '.qb-back'), 'rtl');
  assert.equal(await page.textContent('.qb-result'), `✗ ${ar.incorrect}`);
  // Mirrored: the option's number sits right of its text; the marks of the
  // feedback list too.
  const opt = page.locator('.qb-front .qb-option[data-i="0"]');
  const [num, text] = [await box(opt.locator('.qb-num')), await box(opt.locator('.qb-text'))];
  assert.ok(num.left >= text.right, `number right of the text: ${JSON.stringify([num, text])}`);
  const fb = page.locator('.qb-back > .qb-feedback .qb-fb[data-i="2"]');
  assert.ok((await box(fb.locator('.qb-mark'))).left >= (await box(fb.locator('.qb-text'))).right, 'mark right of the option');
  assert.match(await fb.locator('.qb-you').textContent(), /^→ /);
  // The English translation reads left to right; its toggle is Arabic.
  const det = page.locator('.qb-back details.qb-translation');
  assert.equal(await det.getAttribute('lang'), 'en');
  assert.equal(await det.evaluate((e) => getComputedStyle(e).direction), 'ltr');
  const summary = det.locator('summary');
  assert.equal(await summary.textContent(), fmt(ar.showIn, { lang: ar.languageNames.en }));
  assert.equal(await summary.evaluate((e) => `${e.lang} ${getComputedStyle(e).direction}`), 'ar rtl');
  // And an English note of the same bank: left to right, an Arabic toggle.
  const en = await card('shabakat', 'ring', 'en', [0]);
  assert.equal(await dir(en.page, '.qb-back'), 'ltr');
  assert.equal(await en.page.$eval('.qb-translation', (e) => `${e.lang} ${getComputedStyle(e).direction}`), 'ar rtl');
  await en.page.done();
  await page.evaluate(() => window.scrollTo(0, 0));
  const out = process.env.UPDATE || !existsSync(path.join(SHOTS, 'anki-card-ar.png')) ? path.join(SHOTS, 'anki-card-ar.png')
    : path.join(tmp.dir, 'anki-card-ar.png');
  await page.screenshot({ path: out, fullPage: true });
  await page.done();
});

// ---------------------------------------------------------------- player

async function openPlayer(id, locale) {
  const page = await newPage({ locale, viewport: { width: 800, height: 1100 } });
  await page.goto(`${base}/scorm/${id}/index.html`);
  await page.locator('#start').waitFor();
  return page;
}

async function answer(page, letters) {
  for (const l of letters) await page.locator(`input[value="${l}"]`).check();
  await page.locator('#check').click();
  await page.locator('.result').waitFor();
}

test('French player: French screens, two separate toggles after an answer', async () => {
  const fr = catalogue('fr').labels;
  const page = await openPlayer('langues', 'fr-FR');
  assert.equal(await page.getAttribute('html', 'lang'), 'fr');
  assert.equal(await page.textContent('#start'), fr.start);
  assert.equal(await page.textContent('#notice'), fr.standalone);
  await page.click('#start');
  assert.equal(await page.textContent('.qnum'), fmt(fr.questionOf, { n: 1, total: 2 }));
  assert.equal(await page.textContent('.hint'), fr.chooseOne);
  assert.equal(await page.textContent('#check'), fr.check);
  await answer(page, 'a');
  assert.equal(await page.textContent('.result strong'), fr.wrong);
  const toggles = page.locator('.other-btn');
  assert.deepEqual(await toggles.allTextContents(),
    [fmt(fr.showIn, { lang: fr.languageNames.en }), fmt(fr.showIn, { lang: fr.languageNames.sw })]);
  const [a, b] = [await box(toggles.nth(0)), await box(toggles.nth(1))];
  assert.ok(b.top >= a.bottom, `second toggle below the first: ${JSON.stringify([a, b])}`);
  await toggles.nth(1).click();
  assert.equal(await page.locator('.expl-other[lang="sw"]').isVisible(), true);
  assert.equal(await page.locator('.expl-other[lang="en"]').isVisible(), false);
  assert.equal(await page.textContent('.other-btn[aria-expanded="true"]'), fmt(fr.hideIn, { lang: fr.languageNames.sw }));
  const out = process.env.UPDATE || !existsSync(path.join(SHOTS, 'scorm-player-fr.png')) ? path.join(SHOTS, 'scorm-player-fr.png')
    : path.join(tmp.dir, 'scorm-player-fr.png');
  await page.screenshot({ path: out, fullPage: true });
  await page.done();
});

test('Arabic player: every screen reads right to left, and switches with the language', async () => {
  const ar = catalogue('ar').labels;
  const page = await openPlayer('shabakat', 'ar');
  const htmlDir = () => page.$eval('html', (e) => `${e.lang} ${e.dir} ${getComputedStyle(e).direction}`);
  assert.equal(await htmlDir(), 'ar rtl rtl');
  assert.equal(await page.textContent('#start'), ar.start);
  assert.equal(await dir(page, '#main'), 'rtl');
  // The start button sits at the right end of the card.
  await page.click('#start');
  assert.equal(await page.textContent('.qnum'), fmt(ar.questionOf, { n: 1, total: 2 }));
  const opt = page.locator('.option').first();
  const [input, letter] = [await box(opt.locator('input')), await box(opt.locator('.letter'))];
  assert.ok(input.left > letter.right, `radio right of the letter: ${JSON.stringify([input, letter])}`);
  await answer(page, 'b');
  assert.equal(await page.textContent('.result strong'), ar.correct);
  const fbRow = page.locator('.option').first();
  await fbRow.locator('.feedback').waitFor();
  assert.equal(await dir(page, '.option .feedback'), 'rtl');
  // The English explanation behind the toggle reads left to right.
  await page.click('.other-btn');
  assert.equal(await page.$eval('.expl-other[lang="en"]', (e) => `${e.dir} ${getComputedStyle(e).direction}`), 'ltr ltr');
  await page.click('#next');
  await answer(page, 'ab');
  const out = process.env.UPDATE || !existsSync(path.join(SHOTS, 'scorm-player-ar.png')) ? path.join(SHOTS, 'scorm-player-ar.png')
    : path.join(tmp.dir, 'scorm-player-ar.png');
  await page.screenshot({ path: out, fullPage: true });
  // English: the same screens turn left to right, the language buttons
  // keep their own direction.
  await page.click('button[data-lang="en"]');
  assert.equal(await htmlDir(), 'en ltr ltr');
  assert.equal(await page.$eval('button[data-lang="ar"]', (e) => getComputedStyle(e).direction), 'rtl');
  assert.equal(await page.$eval('.explanation .other-btn + .expl-other', (e) => e.lang), 'ar');
  await page.click('#next');
  await page.locator('#score').waitFor();
  await page.click('button[data-lang="ar"]');
  assert.equal(await page.textContent('#main h1'), ar.summary);
  assert.equal(await dir(page, '.review'), 'rtl');
  await page.done();
});

test('without JavaScript the player says so in every language, default first, each in its direction', async () => {
  for (const [id, code] of [['langues', 'fr'], ['shabakat', 'ar']]) {
    const c = catalogue(code);
    const page = await newPage({ javaScriptEnabled: false });
    await page.goto(`${base}/scorm/${id}/index.html`);
    const notes = await page.$$eval('#main noscript p, #main p[lang]', (ps) =>
      ps.map((p) => ({ lang: p.lang, dir: getComputedStyle(p).direction, text: p.textContent.trim() })));
    assert.ok(notes.length >= 2, `one notice per language, got ${JSON.stringify(notes)}`);
    assert.deepEqual(notes[0], { lang: code, dir: c.dir, text: c.labels.noscript });
    for (const n of notes) assert.equal(n.text, catalogue(n.lang).labels.noscript);
    assert.equal(await page.$eval('html', (e) => `${e.lang} ${getComputedStyle(e).direction}`), `${code} ${c.dir}`);
    await page.done();
  }
});
