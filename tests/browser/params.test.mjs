// tests/browser/params.test.mjs - questions with numbers drawn for each
// attempt (issue 38) in the SCORM 1.2 and 2004 players, the offline HTML
// file, its paper versions and `qbc preview`.
//
// One bilingual bank of its own (English, and French for the decimal
// comma): a numeric question (t = √(2h/g) ± 2%), a single choice with
// computed options (the area a × b) and a cloze question with a numeric
// gap (F = m × a ± 0.1).  Every expected answer is worked out here from the
// numbers the page shows (parsed from the prompt), never from data.js:
//   - SCORM 1.2 and 2004 under scorm-again, 20 attempts (10 each), answered
//     right and wrong in a pattern: the score the LMS gets is exact, each
//     interaction records the learner's response and, for the numeric
//     question and gap, the right value of that attempt's draw; the
//     numbers differ between attempts;
//   - a resumed attempt (its suspend_data) shows the same numbers;
//   - the offline HTML file: "Try again" draws new numbers, a reload keeps
//     them, scores exact, one attempt in French typed with a comma;
//   - paper: two printed versions show different numbers, each key gives
//     the answers of its own version's numbers, a version prints the same
//     every time;
//   - preview: the player shows a draw and "Next draw" the next one.
// README's picture of two learners' different numbers is rewritten only
// with UPDATE=1 (or when it is missing).
//   cd tests && QBC=$PWD/../build/qbc node --test browser/params.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { QBC, TESTS, lmsUrl, lmsValues, qbc, serveScormLms, tempDir, unzip } from './lib.mjs';

const SHOT = path.join(TESTS, 'screenshots', 'scorm-player-draws.png');
const BANK = `bank: params-play
languages: en fr
title:
  en: Numbers drawn for each attempt
  fr: Des nombres tirés à chaque tentative

1. falling-time
   type: numeric
   vars:
     h = 5..50 step 5
     g = 9.81
   en: A stone falls from {h} m (g = {g} m/s²). How many seconds until it lands?
   fr: Une pierre tombe de {h} m (g = {g} m/s²). Combien de secondes avant qu’elle touche le sol ?
   answer: sqrt(2*h/g) ± 2%
   explanation:
     en: t = √(2 × {h} / {g}) ≈ {answer} s.
     fr: t = √(2 × {h} / {g}) ≈ {answer} s.

2. area-choice
   type: single
   vars:
     a = 2..9
     b = 2..9
     right = a*b
     w1 = a*b + a
     w2 = 2*(a+b)
   where: a != b, 2*(a+b) != a*b, a*b + a != 2*(a+b)
   draws: 10
   en: A rectangle is {a} cm by {b} cm. What is its area?
   fr: Un rectangle mesure {a} cm sur {b} cm. Quelle est son aire ?
   * en: {right} cm²
     fr: {right} cm²
   - en: {w1} cm²
     fr: {w1} cm²
   - en: {w2} cm²
     fr: {w2} cm²
   explanation:
     en: Area = {a} × {b} = {right} cm².
     fr: Aire = {a} × {b} = {right} cm².

3. force-gap
   type: cloze
   vars:
     m = 2..12
     a = 0.5..4.5 step 0.5
     F = m*a decimals 1
   en: A {m} kg cart accelerates at {a} m/s². The net force on it is {{#{F} ± 0.1}} N.
   fr: Un chariot de {m} kg accélère à {a} m/s². La force nette sur lui vaut {{#{F} ± 0.1}} N.
   explanation:
     en: F = m × a = {m} × {a} = {F} N.
     fr: F = m × a = {m} × {a} = {F} N.
`;
const IDS = ['falling-time', 'area-choice', 'force-gap'];

let tmp, srv, base, browser, htmlUrl;
const pkg = {};

before(async () => {
  tmp = tempDir('qbc-params-');
  const src = path.join(tmp.dir, 'src');
  mkdirSync(src);
  writeFileSync(path.join(src, 'params.qb'), BANK);
  const out = path.join(tmp.dir, 'out');
  const r = qbc(['build', '-o', out, '--format', 'scorm12,scorm2004,html', path.join(src, 'params.qb')]);
  assert.equal(r.status, 0, r.stderr);
  for (const v of ['12', '2004']) {
    pkg[v] = path.join(tmp.dir, 'pkg' + v);
    mkdirSync(pkg[v]);
    unzip(path.join(out, `params-play.scorm${v}.zip`), pkg[v]);
  }
  htmlUrl = pathToFileURL(path.join(out, 'params-play.html')).href;
  srv = await serveScormLms(pkg);
  ({ base, browser } = srv);
});

after(async () => {
  if (srv) await srv.close();
  if (tmp) tmp.cleanup();
});

/* ------------------------------------------------------------ helpers */

/** The numbers a text shows, '.' or ',' as the decimal mark. */
function numbers(text) {
  return (String(text).match(/\d+(?:[.,]\d+)?/g) || []).map((x) => Number(x.replace(',', '.')));
}
/** x with n decimals, written as lang writes numbers. */
function written(x, n, lang) {
  const s = x.toFixed(n);
  return lang === 'fr' ? s.replace('.', ',') : s;
}
/** SCORM's score of n right of 3, as the LMS gets it ("66.67"). */
const raw = (n) => String(Number((100 * n / 3).toFixed(2)));

/** A page with errors and requests beyond base (or file: URLs) recorded;
 * page.done() closes it and asserts there were none. */
async function newPage(opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 900, height: 1000 }, locale: 'en-US', ...opts });
  const problems = [];
  await ctx.route('**', (route) => {
    const u = route.request().url();
    if (u.startsWith('file:') || u.startsWith(base + '/')) return route.continue();
    problems.push('request: ' + u);
    return route.abort();
  });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
  page.done = async () => { await ctx.close(); assert.deepEqual(problems, []); };
  return page;
}

/** What the question on screen (in frame f) shows: its id, the numbers of
 * its prompt and the right answer worked out from them. */
async function shown(f) {
  const prompt = await f.locator('.card .prompt').first().innerText();
  const n = numbers(prompt);
  if (await f.locator('.answer-box').count()) {
    assert.equal(n.length, 2, prompt);
    return { id: 'falling-time', prompt, n, right: Math.sqrt(2 * n[0] / n[1]) };
  }
  if (await f.locator('.gap-input').count()) {
    assert.equal(n.length, 2, prompt);
    return { id: 'force-gap', prompt, n, right: n[0] * n[1] };
  }
  assert.equal(n.length, 2, prompt);
  return { id: 'area-choice', prompt, n, right: n[0] * n[1] };
}

/** Answers the question on screen right or wrong, in lang, and checks
 * it; returns what it showed and what was answered. */
async function answer(f, right, lang = 'en') {
  const q = await shown(f);
  if (q.id === 'falling-time') {
    q.typed = written(right ? q.right : q.right * 1.5, 3, lang);
    await f.locator('.answer-box').fill(q.typed);
  } else if (q.id === 'force-gap') {
    q.typed = written(right ? q.right : q.right + 5, 2, lang);
    await f.locator('.gap-input').fill(q.typed);
  } else {
    const texts = await f.locator('.option .opt-text').allInnerTexts();
    const i = texts.findIndex((t) => (numbers(t)[0] === q.right) === right);
    assert.ok(i >= 0, `an option ${right ? '' : 'other than '}${q.right} cm² among ${texts}`);
    q.letter = await f.locator('.option input').nth(i).getAttribute('value');
    q.rightLetter = await f.locator('.option input').nth(texts.findIndex((t) => numbers(t)[0] === q.right)).getAttribute('value');
    await f.locator('.option input').nth(i).check();
  }
  await f.locator('#check').click();
  await f.locator('.result').waitFor();
  assert.equal(await f.locator('.result').getAttribute('class'), 'result ' + (right ? 'result-ok' : 'result-bad'),
    `${q.id} answered ${right ? 'right' : 'wrong'}: ${q.prompt}`);
  return q;
}

/** The interaction of question q (answered as answer() says) among the
 * LMS's last values: the response and, for numbers, the right value of
 * the draw shown. */
function checkInteraction(v, last, j, q, right) {
  const n = `cmi.interactions.${j}.`;
  const resp = last[n + (v === '1.2' ? 'student_response' : 'learner_response')];
  const pat = last[n + 'correct_responses.0.pattern'];
  assert.equal(last[n + 'id'], q.id);
  assert.equal(last[n + 'result'], right ? 'correct' : (v === '1.2' ? 'wrong' : 'incorrect'), `${v} ${q.id}`);
  if (q.id === 'falling-time') {
    assert.equal(Number(resp), Number(q.typed.replace(',', '.')), `${v}: the learner's number`);
    const [lo, hi] = pat.split(v === '1.2' ? ':' : '[:]').map(Number);
    // this draw's value ± 2%: the answer worked out from the page inside,
    // the interval no wider than the tolerance asks
    assert.ok(lo <= q.right && q.right <= hi, `${v}: ${q.right} in ${pat} (${q.prompt})`);
    assert.ok(Math.abs((lo + hi) / 2 - q.right) < 0.01 && Math.abs(hi - lo - 0.04 * (lo + hi) / 2) < 1e-6, pat);
  } else if (q.id === 'force-gap') {
    assert.equal(resp, q.typed);
    assert.ok(Math.abs(Number(pat) - q.right) < 1e-9, `${v}: the gap's pattern ${pat} is ${q.right} (${q.prompt})`);
  } else {
    assert.equal(resp, q.letter);
    assert.equal(pat, q.rightLetter);
  }
}

/** Plays one whole attempt in the SCORM player (frame f), answering the
 * questions right where pattern has 1; returns the questions as shown. */
async function attempt(f, pattern, lang = 'en') {
  const qs = [];
  for (let j = 0; j < 3; j++) {
    qs.push(await answer(f, pattern[j] === 1, lang));
    await f.locator('#next').click();
  }
  await f.locator('#score').waitFor();
  return qs;
}

const PATTERNS = [[1, 1, 1], [0, 0, 0], [1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 1], [1, 1, 1], [0, 1, 1]];

/* -------------------------------------------------------------- SCORM */

test('SCORM 1.2 and 2004: 20 attempts, each its own numbers, answered right and wrong, exact scores and the draw\'s right values', async () => {
  const seen = new Set();
  for (const v of ['1.2', '2004']) {
    for (const pattern of PATTERNS) {
      const page = await newPage();
      await page.goto(lmsUrl(base, v, v === '1.2' ? '12' : '2004'));
      const f = page.frameLocator('#sco');
      await f.locator('#start').click();
      const qs = await attempt(f, pattern);
      assert.deepEqual(qs.map((q) => q.id), IDS);
      const n = pattern.reduce((t, x) => t + x, 0);
      assert.equal(await f.locator('#score').textContent(), `Score: ${raw(n)}%`);
      const last = await lmsValues(page);
      assert.equal(last[v === '1.2' ? 'cmi.core.score.raw' : 'cmi.score.raw'], raw(n), `${v} ${pattern}`);
      if (v === '2004') assert.equal(last['cmi.score.scaled'], String(Number((n / 3).toFixed(4))));
      qs.forEach((q, j) => checkInteraction(v, last, j, q, pattern[j] === 1));
      seen.add(qs.map((q) => q.n.join(',')).join(' / '));
      await page.done();
    }
  }
  assert.ok(seen.size >= 10, `20 attempts drew ${seen.size} different sets of numbers: ${[...seen].join('; ')}`);
});

for (const v of ['1.2', '2004']) {
  test(`SCORM ${v}: a resumed attempt shows the same numbers, and scores them`, async () => {
    let page = await newPage();
    await page.goto(lmsUrl(base, v, v === '1.2' ? '12' : '2004'));
    let f = page.frameLocator('#sco');
    await f.locator('#start').click();
    const first = await answer(f, true);
    await f.locator('#next').click();
    const second = await shown(f);
    const state = (await lmsValues(page))['cmi.suspend_data'];
    assert.match(state, /^2\|en\|[0-9a-f]+\|[0-9a-z]{6}\|/, 'a seed in the saved state: ' + state);
    await page.done();
    page = await newPage();
    await page.goto(lmsUrl(base, v, v === '1.2' ? '12' : '2004', { suspend_data: state }));
    f = page.frameLocator('#sco');
    assert.equal((await shown(f)).prompt, second.prompt, 'the question open when the learner left, same numbers');
    await f.locator('#prev').click();
    assert.equal((await shown(f)).prompt, first.prompt, 'the answered question, same numbers');
    assert.ok(await f.locator('.answer-box').isDisabled());
    assert.equal(await f.locator('.answer-box').inputValue(), first.typed);
    await f.locator('#next').click();
    const qs = [await answer(f, false)];
    await f.locator('#next').click();
    qs.push(await answer(f, true));
    await f.locator('#next').click();
    await f.locator('#score').waitFor();
    const last = await lmsValues(page);
    assert.equal(last[v === '1.2' ? 'cmi.core.score.raw' : 'cmi.score.raw'], raw(2));
    checkInteraction(v, last, 0, qs[0], false);
    checkInteraction(v, last, 1, qs[1], true);
    await page.done();
  });
}

/* ---------------------------------------------------------- offline HTML */

test('offline HTML: "Try again" draws new numbers, a reload keeps them, scores exact, French typed with a comma', async () => {
  const page = await newPage();
  await page.goto(htmlUrl);
  await page.locator('#start').click();
  // A reload in the middle of an attempt: the same numbers.
  const first = await answer(page, true);
  await page.locator('#next').click();
  const second = await shown(page);
  await page.reload(); // back on the question the learner left
  assert.equal((await shown(page)).prompt, second.prompt);
  await page.locator('#prev').click();
  assert.equal((await shown(page)).prompt, first.prompt);
  await page.locator('#next').click();
  await answer(page, false);
  await page.locator('#next').click();
  await answer(page, true);
  await page.locator('#next').click();
  await page.locator('#score').waitFor();
  assert.equal(await page.locator('#score').textContent(), `Score: ${raw(2)}%`);
  // Attempts after "Try again": new numbers, exact scores, each
  // interaction with the right value of its attempt's draw.
  const seen = new Set([[first, second].map((q) => q.n.join(',')).join(' / ')]);
  for (const [k, pattern] of PATTERNS.slice(0, 6).entries()) {
    await page.locator('#again').click();
    const lang = k === 5 ? 'fr' : 'en';
    if (lang === 'fr') await page.locator('.lang-btn[data-lang="fr"]').click();
    const before = Number(await page.evaluate(() => window.API.LMSGetValue('cmi.interactions._count')));
    const qs = await attempt(page, pattern, lang);
    const n = pattern.reduce((t, x) => t + x, 0);
    assert.equal(await page.evaluate(() => window.qbPlayer.score()), Number(raw(n)));
    const last = await page.evaluate((b) => {
      const o = {};
      for (let j = 0; j < 3; j++) {
        for (const e of ['id', 'student_response', 'correct_responses.0.pattern', 'result']) {
          o[`cmi.interactions.${j}.${e}`] = window.API.LMSGetValue(`cmi.interactions.${b + j}.${e}`);
        }
      }
      return o;
    }, before);
    qs.forEach((q, j) => checkInteraction('1.2', last, j, q, pattern[j] === 1));
    if (lang === 'fr') assert.match(qs[0].prompt, /g = 9,81 m\/s²/, 'French writes the decimal comma');
    seen.add(qs.map((q) => q.n.join(',')).join(' / '));
  }
  assert.ok(seen.size >= 5, `7 attempts drew ${seen.size} different sets of numbers`);
  await page.done();
});

/* ----------------------------------------------------------------- paper */

/** The numbers of each question of a printed sheet, by question id. */
async function sheetNumbers(page) {
  const out = {};
  for (const id of IDS) out[id] = numbers(await page.locator(`[data-qid="${id}"] .pq-prompt`).first().innerText()).slice(0, 2);
  return out;
}

test('paper: each version has its own numbers, its key gives their answers, the same every time', async () => {
  const page = await newPage();
  const versions = {};
  for (const version of [0, 1, 2, 3, 4, 5]) {
    await page.goto(`${htmlUrl}#print=worksheet&lang=en&version=${version}`);
    await page.reload();
    const ws = await sheetNumbers(page);
    assert.doesNotMatch(await page.locator('#sheet').innerText(), /±|Correct answer/, 'no answer on the worksheet');
    await page.goto(`${htmlUrl}#print=key&lang=en&version=${version}`);
    await page.reload();
    assert.deepEqual(await sheetNumbers(page), ws, `version ${version}: the key's numbers are the worksheet's`);
    // the key's answers, worked out from the version's numbers
    const [h, g] = ws['falling-time'];
    const t = Math.sqrt(2 * h / g);
    const fall = await page.locator('[data-qid="falling-time"] .pq-answer').innerText();
    const [value, tol] = numbers(fall.replace(/^.*?:/, ''));
    assert.ok(Math.abs(value - t) < 0.01 && Math.abs(tol - 0.02 * value) < 0.01, `${fall} for h = ${h}`);
    const [a, b] = ws['area-choice'];
    assert.deepEqual(numbers(await page.locator('[data-qid="area-choice"] .pq-option.is-correct').innerText()).slice(-1), [a * b]);
    const [m, acc] = ws['force-gap'];
    const gap = await page.locator('[data-qid="force-gap"] .pq-answer').innerText();
    assert.ok(Math.abs(numbers(gap.replace(/^.*?:/, ''))[1] - m * acc) < 1e-9, `${gap} for ${m} × ${acc}`);
    versions[version] = JSON.stringify(ws);
    if (version === 2) { // printed again: the same
      await page.goto(`${htmlUrl}#print=worksheet&lang=en&version=1`);
      await page.reload();
      assert.equal(JSON.stringify(await sheetNumbers(page)), versions[1], 'version 1 prints the same numbers again');
    }
  }
  assert.ok(new Set(Object.values(versions)).size >= 4, `six versions, ${new Set(Object.values(versions)).size} sets of numbers`);
  assert.notEqual(versions[1], versions[2], 'versions 1 and 2 differ');
  // the print screen says the numbers change with the version
  assert.match(await page.locator('.print-form').innerText(), /the numbers drawn in questions with variables/);
  await page.done();
});

/* --------------------------------------------------------------- preview */

test('preview: the player shows a draw, and "Next draw" the next one', async () => {
  const dir = path.join(tmp.dir, 'preview');
  mkdirSync(path.join(dir, 'tmp'), { recursive: true });
  writeFileSync(path.join(dir, 'params.qb'), BANK);
  const proc = spawn(QBC, ['preview', '--port', '0', path.join(dir, 'params.qb')],
    { env: { ...process.env, NO_COLOR: '1', TMPDIR: path.join(dir, 'tmp') }, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      proc.stdout.on('data', (d) => { out += d; const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out); if (m) resolve(m[1]); });
      proc.on('exit', (code) => reject(new Error(`qbc preview exited with ${code}`)));
    });
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    await page.locator('#qlist tr[data-qid="falling-time"] button').click();
    // the Anki card, drawn again at each render: its back shows its front's draw
    const height = async (fr) => (/falls from ([\d.,]+) m/.exec(
      await page.frameLocator(fr).locator('.qb-question').first().textContent()) || [])[1];
    const fronts = new Set();
    for (let k = 0; k < 8; k++) {
      const night = k % 2 === 1; // each click of "night" renders both sides again
      // each side rendered again, and its card script done (it marks the draw it shows)
      for (const fr of ['#front', '#back'])
        await page.frameLocator(fr).locator(night ? 'body.nightMode .qb-front[data-draw]' : 'body:not(.nightMode) .qb-front[data-draw]').first().waitFor();
      const da = await page.frameLocator('#front').locator('.qb-front').first().getAttribute('data-draw');
      const db = await page.frameLocator('#back').locator('.qb-front').first().getAttribute('data-draw');
      assert.equal(db, da, `render ${k}: the back's draw is the front's`);
      const a = await height('#front'), b = await height('#back');
      assert.ok(a, 'the front shows a height');
      assert.equal(b, a, `render ${k}: the back shows the front's draw`);
      fronts.add(a);
      await page.locator('#night').click();
    }
    assert.ok(fronts.size > 1, 'the card draws again: ' + [...fronts].join(' '));
    const f = page.frameLocator('#player');
    await f.locator('#draw-of').waitFor();
    assert.equal(await f.locator('#draw-of').textContent(), 'Draw 1 of 10');
    const prompts = [(await shown(f)).prompt];
    for (let k = 2; k <= 4; k++) {
      await f.locator('#next-draw').click();
      assert.equal(await f.locator('#draw-of').textContent(), `Draw ${k} of 10`);
      prompts.push((await shown(f)).prompt);
    }
    assert.equal(new Set(prompts).size, 4, 'four draws, four heights: ' + prompts.join(' | '));
    // the draw shown is answered right, and the LMS table says so
    await answer(f, true);
    await page.locator('#lms tbody td', { hasText: 'correct' }).first().waitFor();
    // "Answer again" keeps the draw; ten more clicks come back to it
    await page.click('#restart');
    await f.locator('#draw-of', { hasText: 'Draw 4 of 10' }).waitFor();
    assert.equal((await shown(f)).prompt, prompts[3]);
    for (let k = 0; k < 10; k++) await f.locator('#next-draw').click();
    assert.equal(await f.locator('#draw-of').textContent(), 'Draw 4 of 10');
    // another question: its own draw, its first
    await page.locator('#qlist tr[data-qid="force-gap"] button').click();
    await f.locator('#draw-of', { hasText: 'Draw 1 of 20' }).waitFor();
    await ctx.close();
    assert.deepEqual(errors, []);
  } finally {
    const done = new Promise((r) => proc.on('exit', r));
    proc.kill('SIGTERM');
    await done;
  }
});

/* ------------------------------------------------------------ screenshot */

test('README\'s picture: two learners, two draws of the same question', async () => {
  // Learner A in English, learner B in French (the decimal comma), each
  // with the question answered right for their own numbers.
  const shots = [];
  for (let i = 0; shots.length < 2 && i < 10; i++) {
    const page = await newPage({ viewport: { width: 560, height: 600 } });
    await page.goto(lmsUrl(base, '1.2', '12'));
    const f = page.frameLocator('#sco');
    await f.locator('#start').click();
    const lang = shots.length ? 'fr' : 'en';
    if (lang === 'fr') await f.locator('.lang-btn[data-lang="fr"]').click();
    const q = await shown(f);
    if (shots.length && String(shots[0].n) === String(q.n)) { await page.done(); continue; }
    await answer(f, true, lang);
    q.png = await page.screenshot({ animations: 'disabled', clip: { x: 0, y: 0, width: 560, height: 600 } });
    shots.push(q);
    await page.done();
  }
  assert.equal(shots.length, 2, 'two learners with different numbers');
  const page = await newPage({ viewport: { width: 1160, height: 640 } });
  const img = (q, who) => `<figure><figcaption>${who}</figcaption><img alt="" src="data:image/png;base64,${q.png.toString('base64')}"></figure>`;
  await page.setContent(`<!DOCTYPE html><html lang="en"><body style="margin:0;padding:10px;display:flex;gap:20px;background:#dde1e6;font:16px sans-serif">
    ${img(shots[0], 'Learner A')}${img(shots[1], 'Learner B')}
    <style>figure{margin:0}figcaption{font-weight:600;margin:0 0 6px}img{display:block;width:560px;border:1px solid #99a}</style></body></html>`);
  const file = process.env.UPDATE || !existsSync(SHOT) ? SHOT : path.join(tmp.dir, 'draws.png');
  await page.screenshot({ path: file, fullPage: true });
  await page.done();
});
