// tests/browser/cloze-numeric.test.mjs - numeric cloze gaps (issue 36)
// played in the SCORM 1.2 and 2004 players under scorm-again: a value
// within its tolerance, at the edge of a range or a percentage, typed with
// '.' or ',', scores; one outside does not; the score the LMS gets is
// right gaps / gaps (partial scoring), and a wrong gap shows the accepted
// number.
//
//   cd tests && QBC=$PWD/../build/qbc node --test browser/cloze-numeric.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lmsUrl, lmsValues, qbc, serveScormLms, tempDir, unzip } from './lib.mjs';


const BANK = `bank: cloze-numeric
languages: en
scoring: partial

title:
  en: Numeric gaps

1. gravity
   type: cloze
   en: g is {{#9.81 ± 0.05}} m/s², a body is at {{#36.1..37.2}} °C, sound goes {{#343 ± 2%}} m/s, and water is {{water|H2O}}.
   explanation: en: Measured values.
`;

let tmp, srv, base, browser;
const pkg = {};


before(async () => {
  tmp = tempDir('qbc-cloze-numeric-');
  const bank = path.join(tmp.dir, 'gaps.qb');
  writeFileSync(bank, BANK);
  const r = qbc(['build', '-o', path.join(tmp.dir, 'out'), '--format', 'scorm12,scorm2004', bank]);
  assert.equal(r.status, 0, r.stderr);
  for (const v of ['12', '2004']) {
    pkg[v] = path.join(tmp.dir, 'pkg' + v);
    mkdirSync(pkg[v]);
    unzip(path.join(tmp.dir, 'out', `cloze-numeric.scorm${v}.zip`), pkg[v]);
  }
  srv = await serveScormLms(pkg);
  ({ base, browser } = srv);
});

after(async () => {
  if (srv) await srv.close();
  if (tmp) tmp.cleanup();
});

/** Types `answers` into the four gaps and checks; returns the last value
 * of every element the LMS got, the score shown and the right answers the
 * wrong gaps show. */
async function play(v, answers) {
  const context = await browser.newContext({ viewport: { width: 900, height: 1000 }, locale: 'en-US' });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(lmsUrl(base, v, v === '1.2' ? '12' : '2004'));
  const f = page.frameLocator('#sco');
  await f.locator('#start').click();
  const boxes = f.locator('.gap-input');
  assert.equal(await boxes.count(), 4);
  for (const [g, a] of answers.entries()) await boxes.nth(g).fill(a);
  assert.equal(await boxes.nth(0).getAttribute('inputmode'), 'decimal');
  await f.locator('#check').click();
  const shownRight = await f.locator('.gap.is-wrong .gap-answer').allTextContents();
  await f.locator('#next').click();
  await f.locator('#score').waitFor();
  const score = await f.locator('#score').textContent();
  const last = await lmsValues(page);
  await context.close();
  assert.deepEqual(problems, []);
  return { last, score, shownRight };
}

// [what, the four answers, raw score, the answers shown for wrong gaps]
const CASES = [
  ['every gap right, a decimal comma and the edges of tolerance and range',
    ['9,86', '36.1', '336.14', 'H2O'], '100', []],
  ['just outside the tolerance, the range and the percentage',
    ['9.87', '37.21', '349.9', 'water'], '25',
    ['✓ 9.81 ± 0.05 (9.76 – 9.86)', '✓ 36.1 – 37.2', '✓ 343 ± 6.86 (336.14 – 349.86)']],
  ['not a number in a numeric gap', ['nine', '37', '343', 'ice'], '50',
    ['✓ 9.81 ± 0.05 (9.76 – 9.86)', '✓ water']],
];

for (const [what, answers, raw, shownRight] of CASES) {
  test(`numeric gaps: ${what}: raw ${raw} in 1.2 and 2004`, async () => {
    for (const v of ['1.2', '2004']) {
      const r = await play(v, answers);
      assert.equal(r.score, `Score: ${raw}%`, v);
      assert.equal(r.last[v === '1.2' ? 'cmi.core.score.raw' : 'cmi.score.raw'], raw, v);
      assert.deepEqual(r.shownRight, shownRight, v);
    }
  });
}
