// tests/browser/numeric-credit.test.mjs - a numeric question's further
// answers with partial credit ('answer: 90..98 = 50%', as Moodle's numerical
// questions have them) in the offline HTML file, whose player is the SCORM
// player: the best further answer that holds the number gives its credit
// and its feedback, the score counts it; the paper key lists the answers
// that earn part of the mark with their credit.
//   cd tests && QBC=$PWD/../build/qbc node --test browser/numeric-credit.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launch, qbc, tempDir } from './lib.mjs';

const BANK = `bank: credit
languages: en
title:
  en: Credit

1. boil
   type: numeric
   answer: 100 ± 1
   unit: °C
   en: At what temperature does water boil at sea level?
   answer: 90..98 = 50%
     > en: Close: that is up a mountain.
   answer: 95..97 = 25%
   answer: 0 = 0%
     > en: That is where water freezes.
   feedback-wrong:
     en: Think of a kettle.
   explanation:
     en: 100 °C at sea level.
`;

let tmp, browser, url;

before(async () => {
  tmp = tempDir('qbc-credit-');
  const bank = path.join(tmp.dir, 'credit.qb');
  writeFileSync(bank, BANK);
  const r = qbc(['build', '--format', 'html', '-o', path.join(tmp.dir, 'out'), bank]);
  assert.equal(r.status, 0, r.stderr);
  url = pathToFileURL(path.join(tmp.dir, 'out', 'credit.html')).href;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  tmp?.cleanup();
});

/** Types v into the fresh quiz, checks it: the result line, the feedback
 * shown and the score (percent). */
async function answer(v) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.locator('#start').click();
  await page.locator('.answer-box').fill(v);
  await page.locator('#check').click();
  const out = {
    result: await page.locator('.result').innerText(),
    feedback: (await page.locator('.card .feedback').allInnerTexts()).join(' | '),
    score: await page.evaluate(() => window.qbPlayer.score()),
  };
  assert.deepEqual(errors, []);
  await ctx.close();
  return out;
}

test('the full-mark answer scores 100', async () => {
  const a = await answer('100.5');
  assert.equal(a.score, 100);
  assert.match(a.result, /Correct/);
});

test('a further answer gives its credit and its feedback; the best one that holds the number', async () => {
  let a = await answer('91');
  assert.equal(a.score, 50);
  assert.match(a.result, /Partly correct/);
  assert.match(a.feedback, /Close: that is up a mountain\./);
  a = await answer('96'); // in 90..98 (50%) and 95..97 (25%)
  assert.equal(a.score, 50);
});

test('a 0% further answer shows its own feedback; another number the default', async () => {
  let a = await answer('0');
  assert.equal(a.score, 0);
  assert.match(a.feedback, /That is where water freezes\./);
  a = await answer('50');
  assert.equal(a.score, 0);
  assert.match(a.feedback, /Think of a kettle\./);
});

test('the paper key lists the answers that earn part of the mark, with their credit', async () => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${url}#print=key&lang=en&version=0`);
  const key = await page.locator('#sheet').innerText();
  assert.match(key, /100 ± 1 °C; 90 – 98 °C \(50%\); 95 – 97 °C \(25%\)/);
  assert.doesNotMatch(key, /\(0%\)/);
  await ctx.close();
});
