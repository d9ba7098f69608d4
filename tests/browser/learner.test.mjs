// tests/browser/learner.test.mjs - the learner matrix (issue 21): every
// question type of browser/learner/optique.qb (Arabic, right to left, and
// French; formulas, a picture, shuffled options, partial and
// all-or-nothing scoring) answered right, wrong and half-right, each run
// under another shuffling seed, in the SCORM player (scorm-again as the
// LMS, SCORM 1.2 and 2004) and on the Anki cards.  On every screen it
// asserts what a learner would notice: no KaTeX error and no raw \( \[ $
// or {{ in the visible text, every formula left to right (its computed
// direction, and a subscript's box to the right of its base), the page's
// dir and lang, the labels of the screen's language, and at the end the
// score and status the LMS got.  One browser, many pages.
//
//   cd tests && QBC=$PWD/../build/qbc node --test browser/learner.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TESTS, fillCard, qbc, readApkg, serveAndLaunch, tempDir, unzip } from './lib.mjs';

const BANK = path.join(TESTS, 'browser', 'learner');
const SHOTS = path.join(TESTS, 'screenshots');
const AGAIN = path.join(TESTS, 'node_modules', 'scorm-again', 'dist');
const KATEX = '/usr/share/javascript/katex';
const CAT = Object.fromEntries(['ar', 'fr'].map((l) =>
  [l, JSON.parse(readFileSync(path.join(TESTS, '..', 'templates', 'labels', l + '.json'), 'utf8')).labels]));
const DIR = { ar: 'rtl', fr: 'ltr' };
const fill = (s, vars) => s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));

// What a learner gives, per question and way of answering.  Choice
// answers are option ids (the bank's letters, wherever the shuffle shows
// them); score: what the question is worth then.
const ANSWERS = {
  snell: { right: ['a', 1], wrong: ['b', 0], half: ['a', 1] },
  light: { right: ['abc', 1], wrong: ['d', 0], half: ['abd', 1 / 3] },
  lens: { right: ['ab', 1], wrong: ['c', 0], half: ['a', 0] },
  mirror: { right: ['a', 1], wrong: ['b', 0], half: ['b', 0] },
  disperse: { right: [{ ar: ' التبدد ', fr: 'Dispersion' }, 1], wrong: [{ ar: 'انعكاس', fr: 'réflexion' }, 0], half: [{ ar: 'التبدد', fr: 'dispersion' }, 1] },
  focal: { right: ['5,05', 1], wrong: ['7', 0], half: ['4.95', 1] },
  // matching: the index (in the bank's pairs) of the right side picked for each left item
  pairs: { right: [[0, 1, 2], 1], wrong: [[1, 2, 0], 0], half: [[0, 2, 1], 1 / 3] },
  // cloze: [typed gap right?, choice gap right?]
  prism: { right: [[true, true], 1], wrong: [[false, false], 0], half: [[true, false], 1 / 2] },
};
const SIDES = { ar: ['الديوبتر', 'المتر', 'بلا وحدة'], fr: ['dioptrie', 'mètre', 'sans unité'] };
const GAPS = { ar: [['يتبدد', 'ينعكس'], ['طيفًا', 'صورة']], fr: [['se disperse', 'se reflète'], ['spectre', 'reflet']] };
const ORDER = Object.keys(ANSWERS);
// The questions scored partially, and their number of parts.
const PARTIAL = { light: 3, pairs: 3, prism: 2 };

let tmp, env, base, browser;
let subscripts = 0; // subscripts and superscripts whose place was measured
const pkg = {};
const pages = new Map();
const cards = {};

// The LMS: scorm-again's API in the host page, the package in an iframe.
const HOST = (v, name) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>LMS</title>
<script src="/lms/${v === '1.2' ? 'scorm12' : 'scorm2004'}.js"></script></head><body style="margin:0"><script>
const api = new ${v === '1.2' ? 'Scorm12API' : 'Scorm2004API'}({ autocommit: false, logLevel: 5 });
window.lmsLog = [];
api.on('${v === '1.2' ? 'LMSSetValue' : 'SetValue'}.cmi.*', (el, value) => window.lmsLog.push([el, value]));
window.${v === '1.2' ? 'API' : 'API_1484_11'} = api;
</script><iframe id="sco" title="Quiz" style="width:100%;height:1000px;border:0" src="/pkg/${name}/index.html"></iframe></body></html>`;

function build(bankDir, file, formats) {
  const out = path.join(tmp.dir, 'out-' + path.basename(file, '.qb'));
  const src = path.join(tmp.dir, 'src-' + path.basename(file, '.qb'));
  cpSync(bankDir, src, { recursive: true, filter: (f) => !f.endsWith('.lock') });
  const r = qbc(['build', '-o', out, '--format', formats, path.join(src, file)]);
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /warning/, 'the test bank builds with no warning');
  return out;
}

before(async () => {
  tmp = tempDir('qbc-learner-');
  const out = build(BANK, 'optique.qb', 'scorm12,scorm2004,anki');
  for (const v of ['12', '2004']) {
    pkg[v] = path.join(tmp.dir, 'pkg' + v);
    unzip(path.join(out, `optique.scorm${v}.zip`), pkg[v]);
  }
  const raw = path.join(tmp.dir, 'apkg');
  unzip(path.join(out, 'optique.apkg'), raw);
  cards.quiz = readApkg(raw, path.join(tmp.dir, 'media'), 'qbc quiz');
  cards.cloze = readApkg(raw, path.join(tmp.dir, 'media'), 'qbc cloze');
  // A bank whose half-right mean is 62.5%: a 63% pass mark fails it.
  const half = path.join(tmp.dir, 'half');
  mkdirSync(half);
  writeFileSync(path.join(half, 'half.qb'), `bank: half
languages: en
pass-mark: 63%
scoring: partial
title:
  en: Half marks

1. one
   en: Pick the first.
   * en: First
   - en: Second
   explanation:
     en: The first.

2. four
   type: matching
   en: Match the numbers.
   - en: One => 1
   - en: Two => 2
   - en: Three => 3
   - en: Four => 4
   explanation:
     en: In order.
`);
  const hout = build(half, 'half.qb', 'scorm12,scorm2004');
  for (const v of ['12', '2004']) {
    pkg['half' + v] = path.join(tmp.dir, 'pkghalf' + v);
    unzip(path.join(hout, `half.scorm${v}.zip`), pkg['half' + v]);
  }
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.woff2': 'font/woff2' };
  const serve = (res, file) => {
    if (!existsSync(file) || !statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': (types[path.extname(file)] || 'application/octet-stream') + '; charset=utf-8' });
    res.end(readFileSync(file));
  };
  env = await serveAndLaunch((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let m;
    if (p === '/favicon.ico') { res.writeHead(204); res.end(); }
    else if (pages.has(p)) { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end(pages.get(p)); }
    else if ((m = p.match(/^\/host(12|2004)\/([a-z0-9]+)$/))) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(HOST(m[1] === '12' ? '1.2' : '2004', m[2]));
    } else if ((m = p.match(/^\/lms\/(scorm12|scorm2004)\.js$/))) serve(res, path.join(AGAIN, m[1] + '.js'));
    else if ((m = p.match(/^\/pkg\/([a-z0-9]+)\/(.+)$/)) && pkg[m[1]] && !m[2].includes('..')) serve(res, path.join(pkg[m[1]], m[2]));
    else if ((m = p.match(/^\/katex\/(.+)$/)) && !m[1].includes('..')) serve(res, path.join(KATEX, m[1]));
    else if ((m = p.match(/^\/card\/([^/]+)$/))) serve(res, path.join(tmp.dir, 'media', m[1]));
    else { res.writeHead(404); res.end(); }
  });
  ({ base, browser } = env);
});

after(async () => {
  await env?.close();
  tmp?.cleanup();
});

/** A page whose Math.random is seeded (the player's attempt seed and the
 * cards' shuffles follow it), failing on any page error. */
async function newPage(seed, opts = {}) {
  const context = await browser.newContext({ locale: opts.locale || 'en-US', viewport: { width: 800, height: 1000 },
    javaScriptEnabled: opts.js !== false });
  await context.addInitScript((s) => {
    let h = 2166136261;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
    Math.random = () => {
      h = (h + 0x6D2B79F5) >>> 0;
      let t = Math.imul(h ^ (h >>> 15), h | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }, String(seed));
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console error: ' + m.text()); });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`); });
  page.done = async () => { await context.close(); assert.deepEqual(problems, [], problems.join('\n')); };
  return page;
}

/** What a learner would notice on the screen in root (a frame or page),
 * in language lang: returns the visible text. */
async function screen(root, lang, where) {
  const s = await root.locator('body').evaluate((body) => {
    const html = body.ownerDocument.documentElement;
    const math = Array.from(body.querySelectorAll('span.math, .qb-math')).filter((m) => m.getClientRects().length).map((m) => ({
      dir: getComputedStyle(m).direction,
      bidi: getComputedStyle(m).unicodeBidi,
      typeset: !!m.querySelector('.katex'),
      // every subscript or superscript: its base's box must be on its left
      order: Array.from(m.querySelectorAll('.msupsub')).map((s) => {
        const b = s.previousElementSibling;
        return b ? s.getBoundingClientRect().left - b.getBoundingClientRect().right : 0;
      }),
    }));
    // What is seen: the live region is heard only (it gives a formula as TeX).
    const heard = body.querySelector('#announce');
    const text = heard ? body.innerText.replace(heard.innerText, '') : body.innerText;
    return { text, dir: html.dir || getComputedStyle(body).direction, lang: html.lang, math };
  });
  const at = `${where} (${lang})`;
  assert.doesNotMatch(s.text, /KaTeX|ParseError|\\[([a-zA-Z]|\$|\{\{/, `${at}: no KaTeX error, no raw TeX (\\( or \\sin) or template syntax:\n${s.text}`);
  for (const m of s.math) {
    assert.equal(m.dir, 'ltr', `${at}: a formula reads left to right`);
    assert.equal(m.bidi, 'isolate', `${at}: a formula is isolated from the text around it`);
    assert.ok(m.typeset, `${at}: every formula typeset`);
    for (const gap of m.order) assert.ok(gap > -1, `${at}: a subscript's box right of its base (${gap})`);
    subscripts += m.order.length;
  }
  return s;
}

// ------------------------------------------------------------ the player

/** Plays optique.qb in the player: way = right | wrong | half.  Returns
 * what the LMS got. */
async function play(v, lang, way, seed) {
  const page = await newPage(seed, { locale: lang });
  await page.goto(`${base}/host${v === '1.2' ? '12' : '2004'}/${v === '1.2' ? '12' : '2004'}`);
  const f = page.frameLocator('#sco');
  const L = CAT[lang];
  await f.locator('#start').click();
  let shuffledSeen = 0;
  for (let n = 0; n < ORDER.length; n++) {
    const key = ORDER[n], [given, worth] = ANSWERS[key][way];
    const where = `${v} ${way} seed ${seed}: ${key}`;
    await f.locator('.qnum').waitFor();
    const s = await screen(f, lang, where);
    assert.equal(s.dir, DIR[lang], `${where}: the page's direction`);
    assert.equal(s.lang, lang, `${where}: the page's language`);
    assert.equal(await f.locator('.qnum').textContent(), fill(L.questionOf, { n: n + 1, total: ORDER.length }));
    assert.equal(await f.locator('#check').textContent(), L.check);
    if (typeof given === 'string' && /^[a-d]+$/.test(given)) {
      // Letters of the catalogue; the ticks go in screen order.
      const letters = await f.locator('.option .letter').allTextContents();
      assert.deepEqual(letters, L.letters.split(' ').slice(0, letters.length), `${where}: option letters`);
      const shown = await f.locator('.option input').evaluateAll((xs) => xs.map((x) => x.value).join(''));
      if (key !== 'mirror' && shown !== [...shown].sort().join('')) shuffledSeen++;
      for (const id of [...shown].filter((x) => given.includes(x))) await f.locator(`input[value="${id}"]`).check();
    } else if (key === 'disperse' || key === 'focal') {
      await f.locator('.answer-box').fill(typeof given === 'string' ? given : given[lang]);
    } else if (key === 'pairs') {
      const sel = f.locator('.match-select');
      for (let i = 0; i < 3; i++) await sel.nth(i).selectOption({ label: SIDES[lang][given[i]] });
    } else {
      await f.locator('.gap-input').fill(GAPS[lang][0][given[0] ? 0 : 1]);
      // the right choice is not always first in the list
      const choices = await f.locator('.gap-select option').allTextContents();
      assert.notEqual(choices[1], GAPS[lang][1][0], `${where}: the right choice is not first`);
      await f.locator('.gap-select').selectOption({ label: GAPS[lang][1][given[1] ? 0 : 1] });
    }
    await f.locator('#check').click();
    const result = (await f.locator('.result').textContent({ timeout: 2000 })).trim();
    if (worth === 1) assert.match(result, new RegExp('^✓\\s*' + L.correct + '$'), `${where}: ${result}`);
    else if (worth > 0) assert.ok(result.includes(L.partlyCorrect + L.colon), `${where}: ${result}`);
    else {
      // a count only where the question scores partially
      const count = PARTIAL[key] ? ` (${fill(L.partialScore, { n: 0, total: PARTIAL[key] })})` : '';
      assert.equal(result.replace(/^✗\s*/, ''), L.wrong + count, `${where}: ${result}`);
    }
    await screen(f, lang, where + ', answered');
    if (key === 'focal' && worth === 0) assert.match(await f.locator('.correct-answer').textContent(), /5 ± 0,1 cm/);
    await f.locator('#next').click();
  }
  await f.locator('#score').waitFor();
  const s = await screen(f, lang, `${v} ${way} seed ${seed}: results`);
  const mean = 100 * ORDER.reduce((t, k) => t + ANSWERS[k][way][1], 0) / ORDER.length;
  // the mean to the hundredth, never rounded up to the pass mark
  const passed = mean >= 60 - 1e-9;
  let raw = Math.round(mean * 100 + 1e-7) / 100;
  if (!passed && raw >= 60) raw = Math.floor(mean * 100 + 1e-7) / 100;
  raw = String(raw);
  assert.equal(await f.locator('#score').textContent(), fill(L.score, { score: raw.replace('.', L.decimalMark) }));
  assert.ok((await f.locator('#verdict').textContent()).includes(passed ? L.passed : L.failed));
  // The review: labels and punctuation of the language, answers as shown.
  assert.ok(s.text.includes(L.yourAnswer + L.colon), 'the review says "' + L.yourAnswer + L.colon + '"');
  if (ANSWERS.focal[way][1] === 0) assert.ok(s.text.includes(L.correctOption + L.colon + '5 ± 0,1 cm'), 'the numeric answer with the decimal mark of ' + lang);
  const reviewMath = await f.locator('.review-line span.math .katex').count();
  assert.ok(reviewMath >= 2, 'formulas typeset in the review: ' + reviewMath);
  const cloze = f.locator('.review-item').nth(ORDER.indexOf('prism')).locator('.review-prompt');
  const gaps = ANSWERS.prism[way][0];
  assert.ok((await cloze.textContent()).includes(GAPS[lang][0][gaps[0] ? 0 : 1]) && (await cloze.textContent()).includes(GAPS[lang][1][gaps[1] ? 0 : 1]),
    'the cloze prompt shows the learner\'s gap answers');
  if (way === 'wrong' || way === 'half') {
    // all-or-nothing: no count; partial: the count
    const lens = (await f.locator('.review-item').nth(ORDER.indexOf('lens')).locator('.review-result').textContent()).trim();
    assert.equal(lens.replace(/^✗\s*/, ''), L.wrong, 'no "0 of 2" on an all-or-nothing question');
  }
  if (way === 'right') {
    const light = await f.locator('.review-item').nth(ORDER.indexOf('light')).locator('.review-line').first().innerText();
    assert.equal(light.split(L.listSep.trim()).length, 3, `three answers joined by "${L.listSep}": ${light}`);
  }
  const log = await page.evaluate(() => { const o = {}; for (const [k, x] of window.lmsLog) o[k] = x; return o; });
  await page.done();
  assert.ok(shuffledSeen > 0, 'some options shown out of bank order');
  assert.ok(subscripts > 10, 'subscripts were measured: ' + subscripts);
  return { log, raw, passed };
}

const WAYS = ['right', 'wrong', 'half'];
for (const lang of ['ar', 'fr']) {
  for (const [i, way] of WAYS.entries()) {
    const v = (i + (lang === 'ar' ? 0 : 1)) % 2 ? '1.2' : '2004';
    const seed = `${lang}-${way}`;
    test(`player ${v}, ${lang}, answered ${way} (seed ${seed})`, async () => {
      const { log, raw, passed } = await play(v, lang, way, seed);
      if (v === '1.2') {
        assert.equal(log['cmi.core.score.raw'], raw);
        assert.equal(log['cmi.core.lesson_status'], passed ? 'passed' : 'failed');
      } else {
        assert.equal(log['cmi.score.raw'], raw);
        assert.equal(log['cmi.completion_status'], 'completed');
        assert.equal(log['cmi.success_status'], passed ? 'passed' : 'failed');
      }
    });
  }
}

test('player: the right options of a shuffled multiple-answer question, ticked in every order, under several seeds', async () => {
  const perms = (xs) => (xs.length < 2 ? [xs] : xs.flatMap((x, i) => perms([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p])));
  let outOfOrder = 0;
  for (const [i, order] of perms(['a', 'b', 'c']).entries()) {
    const v = i % 2 ? '1.2' : '2004';
    const page = await newPage('ticks-' + i, { locale: 'fr' });
    await page.goto(`${base}/host${v === '1.2' ? '12' : '2004'}/${v === '1.2' ? '12' : '2004'}`);
    const f = page.frameLocator('#sco');
    await f.locator('#start').click();
    for (let n = 0; n < ORDER.indexOf('light'); n++) {
      await f.locator('.option input').first().check();
      await f.locator('#check').click();
      await f.locator('#next').click();
    }
    const shown = await f.locator('.option input').evaluateAll((xs) => xs.map((x) => x.value).join(''));
    if (shown.replace('d', '') !== 'abc') outOfOrder++;
    for (const id of order) await f.locator(`input[value="${id}"]`).check();
    await f.locator('#check').click();
    assert.match(await f.locator('.result').textContent({ timeout: 2000 }), /Correct/, `ticks ${order.join('')} on screen order ${shown}`);
    const log = await page.evaluate(() => window.lmsLog.filter(([k]) => /interactions\.\d+\.result$/.test(k)).map(([, x]) => x));
    assert.equal(log[log.length - 1], 'correct');
    await page.done();
  }
  assert.ok(outOfOrder >= 3, 'most seeds showed the right options out of bank order: ' + outOfOrder);
});

test('player: the pass mark is compared with the unrounded mean (62.5% fails 63%)', async () => {
  for (const v of ['1.2', '2004']) {
    const page = await newPage('half');
    await page.goto(`${base}/host${v === '1.2' ? '12' : '2004'}/half${v === '1.2' ? '12' : '2004'}`);
    const f = page.frameLocator('#sco');
    await f.locator('#start').click();
    await f.locator('input[value="a"]').check();
    await f.locator('#check').click();
    await f.locator('#next').click();
    const sel = f.locator('.match-select');
    for (const [i, label] of ['1', '3', '4', '2'].entries()) await sel.nth(i).selectOption({ label });
    await f.locator('#check').click();
    await f.locator('#next').click();
    await f.locator('#score').waitFor();
    assert.match(await f.locator('#verdict').textContent(), /Not passed|Failed/);
    const log = await page.evaluate(() => { const o = {}; for (const [k, x] of window.lmsLog) o[k] = x; return o; });
    if (v === '1.2') {
      assert.equal(log['cmi.core.score.raw'], '62.5', 'the exact mean, below Moodle\'s mastery score too');
      assert.equal(log['cmi.core.lesson_status'], 'failed');
    } else {
      assert.equal(log['cmi.score.raw'], '62.5');
      assert.equal(log['cmi.success_status'], 'failed');
    }
    await page.done();
  }
});

// ------------------------------------------------------------- the cards

/** Anki's {{cloze:Text}} for gap n on one side (as anki.test.mjs does). */
function clozeText(text, n, side) {
  return text.replace(/\{\{c(\d+)::([\s\S]*?)\}\}/g, (_, num, body) => {
    const i = body.indexOf('::');
    const answer = i < 0 ? body : body.slice(0, i), hint = i < 0 ? null : body.slice(i + 2);
    if (Number(num) !== n) return answer;
    return side === 'front' ? `<span class="cloze">[${hint ?? '...'}]</span>` : `<span class="cloze">${answer}</span>`;
  });
}

/** A card side as a page (AnkiDroid's way: each side a new page load);
 * Anki typesets \( \) and \[ \] with MathJax: here Debian's KaTeX with its
 * auto-render does, which sets no direction of its own. */
function cardPage(kind, fields, n, side) {
  const t = cards[kind];
  const f = { ...fields };
  if (kind === 'cloze') f.Text = clozeText(fields.Text, n, side);
  const front = fillCard(t.qfmt.replace('{{cloze:Text}}', '{{Text}}'), f);
  const html = side === 'front' ? front : fillCard(t.afmt.replace('{{cloze:Text}}', '{{Text}}'), { ...f, FrontSide: front });
  const url = `/card/${kind}-${fields.ID.replace(/:/g, '-')}-${n}-${side}.html`;
  pages.set(url, `<!doctype html><html><head><meta charset="utf-8"><style>${t.css}</style>
<link rel="stylesheet" href="/katex/katex.min.css"><script src="/katex/katex.min.js"></script>
<script src="/katex/contrib/auto-render.js"></script></head>
<body class="card"><div id="qa">${html}</div><script>
renderMathInElement(document.getElementById('qa'), { delimiters: [{ left: '\\\\(', right: '\\\\)', display: false },
  { left: '\\\\[', right: '\\\\]', display: true }], throwOnError: true });
</script></body></html>`);
  return base + url;
}

/** The note of question qid in lang. */
function noteOf(qid, lang) {
  for (const kind of ['quiz', 'cloze']) {
    const n = cards[kind].notes.find((x) => x.fields.ID === `optique:${qid}:${lang}`);
    if (n) return { kind, fields: n.fields };
  }
  throw new Error('no note ' + qid);
}

/** The direction a card's own text reads in, from its question. */
const cardDir = (page) => page.locator('.qb-question').evaluate((q) => getComputedStyle(q.firstElementChild || q).direction);

for (const lang of ['ar', 'fr']) {
  test(`cards, ${lang}: every type answered right, wrong and half-right, under several seeds`, async () => {
    const L = CAT[lang];
    for (const way of WAYS) {
      const page = await newPage(`card-${lang}-${way}`, { locale: lang });
      for (const key of ORDER) {
        const { kind, fields } = noteOf(key, lang);
        const [ans, worth] = ANSWERS[key][way];
        const where = `card ${key} ${way}`;
        await page.goto(cardPage(kind, fields, 1, 'front'));
        const s = await screen(page, lang, where + ', front');
        assert.equal(await page.locator('.qb-card').getAttribute('lang'), lang);
        assert.equal(await cardDir(page), DIR[lang], `${where}: the question reads ${DIR[lang]}`);
        if (kind === 'cloze') {
          // the choice gap's hint does not start with the right choice
          await page.goto(cardPage(kind, fields, 2, 'front'));
          await screen(page, lang, where + ', front of gap 2');
          const hint = await page.locator('.cloze').textContent();
          assert.ok(!hint.startsWith('[' + GAPS[lang][1][0]), `${where}: the right choice is not first in ${hint}`);
          await page.goto(cardPage(kind, fields, 1, 'back'));
          await screen(page, lang, where + ', back');
          assert.equal(await cardDir(page), DIR[lang]);
          continue;
        }
        if (key === 'disperse' || key === 'focal') {
          await page.locator('.qb-typed input').fill(typeof ans === 'string' ? ans : ans[lang]);
        } else if (key === 'pairs') {
          const sel = page.locator('.qb-matcher select');
          for (let i = 0; i < 3; i++) await sel.nth(i).selectOption({ label: SIDES[lang][ans[i]] });
        } else {
          assert.ok(s.text.includes(ans.length > 1 || key === 'light' || key === 'lens' ? L.hintMultiple : L.hintSingle), `${where}: the hint in ${lang}`);
          const texts = await page.locator('.qb-option').evaluateAll((xs) => xs.map((x) => x.getAttribute('data-i')));
          for (const id of ans) await page.locator(`.qb-option[data-i="${id.charCodeAt(0) - 97}"]`).click();
          assert.equal(texts.length >= 2, true);
        }
        await page.goto(cardPage(kind, fields, 1, 'back'));
        await screen(page, lang, where + ', back');
        assert.equal(await cardDir(page), DIR[lang]);
        const result = (await page.locator('.qb-result').textContent()).trim();
        if (worth === 1) assert.ok(result.startsWith('✓ ' + L.correct), `${where}: ${result}`);
        else assert.ok(result.startsWith('✗ ' + L.incorrect), `${where}: ${result}`);
        if (key === 'disperse') assert.ok((await page.locator('.qb-your-typed').textContent()).startsWith(L.yourAnswer + L.colon));
      }
      await page.done();
    }
  });
}

test('cards without scripts: a right-to-left note reads right to left, the cloze front too', async () => {
  const page = await newPage('nojs', { js: false });
  for (const key of ['snell', 'prism']) {
    const { kind, fields } = noteOf(key, 'ar');
    for (const side of ['front', 'back']) {
      await page.goto(cardPage(kind, fields, 1, side));
      assert.equal(await cardDir(page), 'rtl', `${key} ${side} without scripts`);
      if (key === 'snell' && side === 'front') {
        assert.equal(await page.locator('.qb-options').evaluate((o) => getComputedStyle(o).direction), 'rtl');
      }
    }
  }
  await page.done();
});

/** Where a screenshot goes: tests/screenshots/ when missing or with
 * UPDATE=1 (as the other suites do), else a temporary file. */
const shot = (name) => (process.env.UPDATE || !existsSync(path.join(SHOTS, name)) ? path.join(SHOTS, name) : path.join(tmp.dir, name));

test('screenshots: an Arabic formula question in the player and on a card', async () => {
  const page = await newPage('shot', { locale: 'ar' });
  await page.goto(`${base}/host2004/2004`);
  const f = page.frameLocator('#sco');
  await f.locator('#start').click();
  await f.locator('input[value="b"]').check();
  await f.locator('#check').click();
  await f.locator('.result').waitFor();
  await screen(f, 'ar', 'screenshot');
  await page.setViewportSize({ width: 800, height: 1000 });
  await page.locator('#sco').screenshot({ path: shot('scorm-player-ar-math.png') });
  await page.done();
  const card = await newPage('shot-card', { locale: 'ar' });
  await card.setViewportSize({ width: 560, height: 700 });
  const { kind, fields } = noteOf('snell', 'ar');
  await card.goto(cardPage(kind, fields, 1, 'front'));
  await card.locator('.qb-option[data-i="0"]').click();
  await card.goto(cardPage(kind, fields, 1, 'back'));
  await screen(card, 'ar', 'card screenshot');
  await card.screenshot({ path: shot('anki-card-ar-math.png'), fullPage: true });
  await card.done();
});
