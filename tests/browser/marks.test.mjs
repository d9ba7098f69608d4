// tests/browser/marks.test.mjs - negative marks and partial credit
// (issue 36) played in the SCORM 1.2 and 2004 packages under scorm-again
// and in the offline HTML file: the learner picks penalised and partly
// right options, and the score the LMS gets is the one Moodle gives the
// same questions in its Moodle XML (qtype_multichoice: a single question
// earns the picked option's fraction, a multiple one the sum of the picked
// options' fractions from 0 to 1), read from the fractions qbc writes there.
//
//   cd tests && QBC=$PWD/../build/qbc node --test browser/marks.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { lmsUrl, lmsValues, qbc, serveScormLms, tempDir, unzip } from './lib.mjs';


// Three questions; each option's letter is its place (a, b, c, ...).
const BANK = `bank: neg-marks
languages: en
pass-mark: 50%

title:
  en: Negative marks

1. capital
   en: The capital of France?
   * en: Paris
   - −25% en: London
   - 50% en: Lyon
   - en: Berlin
   explanation: en: Paris.

2. primes
   type: multiple
   scoring: partial
   en: Which are prime?
   * en: 2
   * en: 3
   - -25% en: 4
   - en: 9
   explanation: en: 2 and 3.

3. even
   type: multiple
   scoring: partial
   en: Which are even?
   * 75% en: 4
   * (25%) en: 6
   - -1/3 en: 5
   - 0% en: 7
   explanation: en: 4 and 6.
`;

let tmp, srv, base, browser, html;
const pkg = {};
let fractions; // per question, each option's Moodle fraction (percent)


before(async () => {
  tmp = tempDir('qbc-marks-');
  const bank = path.join(tmp.dir, 'marks.qb');
  writeFileSync(bank, BANK);
  const out = path.join(tmp.dir, 'out');
  const r = qbc(['build', '-o', out, '--format', 'scorm12,scorm2004,html,moodlexml', bank]);
  assert.equal(r.status, 0, r.stderr);
  for (const v of ['12', '2004']) {
    pkg[v] = path.join(tmp.dir, 'pkg' + v);
    mkdirSync(pkg[v]);
    unzip(path.join(out, `neg-marks.scorm${v}.zip`), pkg[v]);
  }
  html = pathToFileURL(path.join(out, 'neg-marks.html')).href;
  // Moodle's fractions, question by question, in the order written
  const xml = readFileSync(path.join(out, 'neg-marks.moodle.xml'), 'utf8');
  fractions = xml.split('<question type="multichoice">').slice(1)
    .map((q) => [...q.matchAll(/<answer fraction="([^"]+)"/g)].map((m) => Number(m[1])));
  srv = await serveScormLms(pkg);
  ({ base, browser } = srv);
});

after(async () => {
  if (srv) await srv.close();
  if (tmp) tmp.cleanup();
});

/** The score Moodle gives the picks (letters per question), in percent of
 * the quiz, to the hundredth. */
function moodleScore(picks) {
  const each = picks.map((letters, i) => {
    const f = [...letters].reduce((t, c) => t + fractions[i][c.charCodeAt(0) - 97] / 100, 0);
    return i === 0 ? f : Math.min(1, Math.max(0, f)); // qtype_multichoice single, multi
  });
  return Math.round(100 * 100 * each.reduce((t, x) => t + x, 0) / picks.length) / 100;
}

/** Plays the quiz in v ('1.2', '2004' or 'html') with these picks; returns
 * the score shown and, in an LMS, the last value of each element set. */
async function play(v, picks) {
  const context = await browser.newContext({ viewport: { width: 900, height: 1000 }, locale: 'en-US' });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  let f = page;
  if (v === 'html') await page.goto(html);
  else {
    await page.goto(lmsUrl(base, v, v === '1.2' ? '12' : '2004'));
    f = page.frameLocator('#sco');
  }
  await f.locator('#start').click();
  for (const letters of picks) {
    for (const c of letters) await f.locator(`input[value="${c}"]`).check();
    await f.locator('#check').click();
    await f.locator('#next').click();
  }
  await f.locator('#score').waitFor();
  const shown = await f.locator('#score').textContent();
  const last = v === 'html' ? {}
    : await lmsValues(page);
  await context.close();
  assert.deepEqual(problems, []);
  return { last, shown };
}

test('Moodle XML holds the marks as Moodle grades', () => {
  assert.deepEqual(fractions, [[100, -25, 50, 0], [50, 50, -25, -50], [75, 25, -33.33333, 0]]);
});

// [what, picks per question, raw]
const CASES = [
  ['a partly right option, a penalised pick, a weighted pick', ['c', 'ac', 'ab'], '58.33'],
  ['penalties never take a question below 0', ['a', 'bcd', 'cd'], '33.33'],
  ['a third taken away', ['a', 'ab', 'ac'], '80.56'],
];

for (const [what, picks, raw] of CASES) {
  test(`${what}: raw ${raw}, as Moodle grades it, in SCORM 1.2, 2004 and the offline HTML`, async () => {
    assert.equal(String(moodleScore(picks)), raw, 'Moodle gives the same');
    for (const v of ['1.2', '2004', 'html']) {
      const { last, shown } = await play(v, picks);
      assert.equal(shown, `Score: ${raw}%`, `${v}: the learner sees it`);
      if (v === '1.2') assert.equal(last['cmi.core.score.raw'], raw);
      if (v === '2004') {
        assert.equal(last['cmi.score.raw'], raw);
        assert.equal(last['cmi.score.scaled'], String(Number((Number(raw) / 100).toFixed(4))));
      }
    }
  });
}
