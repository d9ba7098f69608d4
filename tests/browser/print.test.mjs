// tests/browser/print.test.mjs - what a first-time teacher and learner see
// in the offline HTML file (--format html), opened from a file: URL:
//   - the answer key shows every answer a typed gap accepts ("mwanga / jua"),
//     so that a teacher marking by hand marks no right answer wrong;
//   - with default-language: sw, Kiswahili comes first: in the key and the
//     worksheet side by side, the print screen's choices and the player's
//     language buttons;
//   - the print screen says what a version changes for this bank (nothing,
//     a matching question's second column, the question and option orders);
//   - after an update, the learner is told what changed and what was kept.
// Its banks are written here (Kiswahili first, English second).
//   cd tests && QBC=$PWD/../build/qbc node --test browser/print.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch, qbc, tempDir } from './lib.mjs';

let tmp, browser;

const HEAD = (id, extra = '') => `bank: ${id}
languages: en sw
default-language: sw
${extra}
title:
  en: Light and heat
  sw: Mwanga na joto
`;
const CLOZE = `
1. sun-gives
   type: cloze
   en: The sun gives {{light|sun light}} and {{heat|warmth}}.
   sw: Jua hutoa {{mwanga|jua}} na {{joto}}.
   explanation:
     en: EXPL1 Light and heat.
     sw: EXPL1 Mwanga na joto.
`;
const SINGLE = `
2. colour
   en: Q2 Which colour is the sky?
   sw: Q2 Anga lina rangi gani?
   * en: Blue
     sw: Buluu
   - en: Green
     sw: Kijani
   - en: Red
     sw: Nyekundu
   explanation:
     en: EXPL2 Blue.
     sw: EXPL2 Buluu.
`;
const MATCHING = `
3. pairs
   type: matching
   en: Q3 Match each thing with its colour.
   sw: Q3 Oanisha kila kitu na rangi yake.
   - en: Grass => green
     sw: Nyasi => kijani
   - en: Sky => blue
     sw: Anga => buluu
   - en: Blood => red
     sw: Damu => nyekundu
   explanation:
     en: EXPL3 Grass, sky, blood.
     sw: EXPL3 Nyasi, anga, damu.
`;

/** Writes bank id with text and builds its offline file; its file: URL. */
function build(id, text) {
  const src = path.join(tmp.dir, id + '.qb');
  writeFileSync(src, text);
  const r = qbc(['build', '--format', 'html', '-o', path.join(tmp.dir, 'out'), src]);
  assert.equal(r.status, 0, r.stderr);
  return pathToFileURL(path.join(tmp.dir, 'out', id + '.html')).href;
}

before(async () => {
  tmp = tempDir('qbc-print-');
  browser = await launch();
});

after(async () => {
  await browser?.close();
  tmp?.cleanup();
});

/** A page on a desktop with English as the browser's language; errors and
 * requests beyond file: URLs fail the test at done(). */
async function open(url) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const problems = [];
  await ctx.route('**', (route) => {
    if (route.request().url().startsWith('file:')) return route.continue();
    problems.push('request: ' + route.request().url());
    return route.abort();
  });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
  await page.goto(url);
  page.done = async () => { await ctx.close(); assert.deepEqual(problems, []); };
  return page;
}

test('the answer key shows every accepted answer of a typed gap, in each language', async () => {
  const url = build('gaps', HEAD('gaps') + CLOZE + SINGLE);
  const page = await open(url + '#print=key&lang=sw&version=0');
  const sw = await page.locator('#sheet').innerText();
  assert.match(sw, /\(1\) mwanga \/ jua; \(2\) joto/, sw);
  await page.goto(url + '#print=key&lang=en&version=0');
  await page.reload();
  const en = await page.locator('#sheet').innerText();
  assert.match(en, /\(1\) light \/ sun light; \(2\) heat \/ warmth/, en);
  // the worksheet still shows none
  await page.goto(url + '#print=worksheet&lang=both&version=0');
  await page.reload();
  assert.doesNotMatch(await page.locator('#sheet').innerText(), /mwanga|jua \/|light \/|EXPL/);
  await page.done();
});

test('the answer key shows a numeric gap\'s accepted value, tolerance or range; the worksheet a blank', async () => {
  const NUMGAPS = `
1. measures
   type: cloze
   en: g is {{#9.81 ± 0.05}} m/s², a body {{#36.1..37.2}} °C, sound {{#343 ± 2%}} m/s, water {{water|H2O}}.
   sw: g ni {{#9.81 ± 0.05}} m/s², mwili {{#36.1..37.2}} °C, sauti {{#343 ± 2%}} m/s, maji {{maji|H2O}}.
   explanation:
     en: EXPL Measured.
     sw: EXPL Imepimwa.
`;
  const url = build('numgaps', HEAD('numgaps') + NUMGAPS);
  const page = await open(url + '#print=key&lang=en&version=0');
  const en = await page.locator('#sheet').innerText();
  assert.match(en, /\(1\) 9\.81 ± 0\.05; \(2\) 36\.1 – 37\.2; \(3\) 343 ± 6\.86; \(4\) water \/ H2O/, en);
  await page.goto(url + '#print=worksheet&lang=both&version=0');
  await page.reload();
  const ws = await page.locator('#sheet').innerText();
  assert.doesNotMatch(ws, /9\.81|36\.1|343|#|EXPL/, ws);
  await page.done();
});

test('marks (issue 36): the key says what each option earns; the worksheet does not', async () => {
  const url = build('marks', HEAD('marks') + `
1. capital
   en: The capital of France?
   sw: Mji mkuu wa Ufaransa?
   * en: Paris
     sw: Paris
   - −25% en: London
     sw: London
   - 50% en: Lyon
     sw: Lyon
   explanation:
     en: EXPL1 Paris.
     sw: EXPL1 Paris.
`);
  const page = await open(url + '#print=key&lang=en&version=0');
  const shares = await page.locator('.pq-share').allInnerTexts();
  assert.deepEqual(shares, ['(+100%)', '(\u221225%)', '(+50%)']);
  await page.goto(url + '#print=worksheet&lang=en&version=0');
  await page.reload();
  assert.equal(await page.locator('.pq-share').count(), 0);
  await page.done();
});

test('a question without an explanation yet (explanations: optional) has no empty box in the key', async () => {
  const noExpl = SINGLE.replace(/   explanation:\n.*\n.*\n/, '');
  assert.doesNotMatch(noExpl, /EXPL2/);
  const url = build('todo', HEAD('todo', 'explanations: optional') + CLOZE + noExpl);
  const page = await open(url + '#print=key&lang=both&version=0');
  const key = await page.locator('#sheet').innerText();
  assert.match(key, /EXPL1/, key);
  assert.match(key, /Q2 Which colour is the sky\?/, key);
  // one explanation block, the cloze's: none, empty, for the question without
  assert.equal(await page.locator('#sheet .pq-expl').count(), 2); // EXPL1 in sw and en
  await page.done();
});

test('default-language: sw puts Kiswahili first: key and worksheet side by side, print choices, language buttons', async () => {
  const url = build('order', HEAD('order') + CLOZE + SINGLE);
  const page = await open(url);
  const buttons = await page.locator('.lang-btn[data-lang]').evaluateAll((xs) => xs.map((x) => x.getAttribute('data-lang')));
  assert.deepEqual(buttons, ['sw', 'en'], 'the first screen lists Kiswahili first');
  for (const what of ['key', 'worksheet']) {
    await page.goto(`${url}#print=${what}&lang=both&version=0`);
    await page.reload();
    await page.locator('#sheet').waitFor();
    const cols = await page.locator('#sheet .pq').first().locator('.pq-lang').evaluateAll((xs) => xs.map((x) => x.lang));
    assert.deepEqual(cols, ['sw', 'en'], `${what}: Kiswahili's column first`);
    const heads = await page.locator('#sheet .sheet-head-lang').evaluateAll((xs) => xs.map((x) => x.lang));
    assert.deepEqual(heads, ['sw', 'en'], `${what}: Kiswahili's heading first`);
    const text = await page.locator('#sheet').innerText();
    assert.ok(text.indexOf('Q2 Anga') < text.indexOf('Q2 Which'), `${what}: the Kiswahili text before the English`);
  }
  const radios = await page.locator('input[name="print-lang"]').evaluateAll((xs) => xs.map((x) => x.value));
  assert.deepEqual(radios, ['sw', 'en', 'both']);
  await page.done();
});

/** The print screen's version hint, in English, for a bank. */
async function hint(id, text) {
  const page = await open(build(id, text) + '#print=worksheet&lang=en&version=3');
  await page.locator('#sheet').waitFor();
  const h = await page.locator('.print-form .hint').innerText();
  const sheets = {};
  for (const v of [0, 3]) {
    await page.locator('#print-version').fill(String(v));
    await page.locator('#print-version').dispatchEvent('change');
    sheets[v] = (await page.locator('#sheet').innerText()).replace(/Version \d/, 'Version N');
  }
  await page.done();
  return { hint: h.trim(), same: sheets[0] === sheets[3] };
}

test('the print screen says what a version changes for this bank', async () => {
  const none = await hint('still', HEAD('still') + CLOZE + SINGLE);
  assert.equal(none.hint, 'This bank shuffles nothing: every version is printed in the bank\'s order.');
  assert.ok(none.same, 'and version 3 is indeed version 0');
  const matching = await hint('pairs', HEAD('pairs') + CLOZE + SINGLE + MATCHING);
  assert.equal(matching.hint, '0 is the bank\'s order; any other number changes the order of the second column in matching questions, with its own key.');
  const all = await hint('mixed', HEAD('mixed', 'shuffle-options: yes\nshuffle-questions: yes\ndraw: 2\n') + CLOZE + SINGLE + MATCHING);
  assert.equal(all.hint, '0 is the bank\'s order; any other number changes which questions are drawn; the order of the questions; '
    + 'the order of the options; the order of the second column in matching questions, with its own key.');
  assert.ok(!all.same);
});

test('after an update, the offline file says what changed and what was kept', async () => {
  const text = HEAD('update') + CLOZE + SINGLE + MATCHING;
  const url = build('update', text);
  const page = await open(url);
  await page.locator('#start').click();
  await page.locator('.gap-input').nth(0).fill('jua');
  await page.locator('.gap-input').nth(1).fill('joto');
  await page.locator('#check').click();
  await page.locator('#next').click();
  await page.locator('.option input').first().check();
  await page.locator('#check').click();
  await page.locator('#next').click();
  for (const s of await page.locator('.match-select').all()) await s.selectOption({ index: 1 });
  await page.locator('#check').click();
  await page.locator('#next').click();
  await page.locator('#score').waitFor();
  assert.ok(await page.locator('#notice').isHidden(), 'no notice before an update');
  // The author changes question 2 and rebuilds: one answer dropped, two kept.
  build('update', text.replace('- en: Red', '- en: Purple'));
  await page.reload();
  await page.locator('#notice').waitFor({ timeout: 5000 });
  const en = 'This quiz was updated since your last visit. Answers kept: 2. Questions that changed, to answer again: 2.';
  assert.equal(await page.locator('#notice').innerText(), en);
  assert.match(await page.locator('.card').innerText(), /Q2 Which colour/, 'at the changed question');
  // In Kiswahili too, and it stays while the learner moves on.
  await page.locator('.lang-btn[data-lang="sw"]').click();
  assert.equal(await page.locator('#notice').innerText(),
    'Jaribio hili limesasishwa tangu ulipotembelea mara ya mwisho. Majibu yaliyohifadhiwa: 2. Maswali yaliyobadilika, ya kujibu tena: 2.');
  assert.equal(await page.locator('#notice').getAttribute('lang'), 'sw');
  await page.locator('.lang-btn[data-lang="en"]').click();
  // Then a question removed: its answer goes, and the learner is told
  // (question 2 is still to answer: nothing of it was saved since).
  build('update', text.replace('- en: Red', '- en: Purple').replace(/\n3\. pairs[\s\S]*$/, '\n'));
  await page.reload();
  await page.locator('#notice').waitFor({ timeout: 5000 });
  assert.equal(await page.locator('#notice').innerText(),
    'This quiz was updated since your last visit. Answers kept: 1. Questions removed, with their answers: 1.');
  // A reload without an update says nothing.
  await page.locator('.option input').first().check();
  await page.locator('#check').click();
  await page.reload();
  await page.locator('#main h1, #main h2').first().waitFor();
  assert.ok(await page.locator('#notice').isHidden(), 'no notice when nothing changed');
  await page.done();
});
