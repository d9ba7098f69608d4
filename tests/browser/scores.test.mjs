// tests/browser/scores.test.mjs - the score the LMS gets, exactly: the
// mean to the hundredth (Moodle grades from score.raw; its own quiz shows
// 87.88, so must the SCORM player), and the pass decision on the unrounded
// mean so that the player, scorm-again and Moodle's mastery score agree.
//
// One bank of its own: 22 single-choice questions and three cloze
// questions of 25, 16 and 3 typed gaps (each its own answer: scorm-again
// refuses a 2004 fill-in pattern that repeats one), scored partially.  A mean of
// (singles right + a/25 + b/16 + c/3) / 25 reaches every hundredth of a
// percent: 87.88, 59.99, 60, 60.01, and 59.9967 (which rounds to 60.00 but
// fails a pass mark of 60, so it is sent as 59.99).
//
//   cd tests && QBC=$PWD/../build/qbc node --test browser/scores.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lmsUrl, lmsValues, qbc, serveScormLms, tempDir, unzip } from './lib.mjs';

const SINGLES = 22, GAPS = [25, 16, 3];

let tmp, srv, base, browser;
const pkg = {};

function bankText() {
  const out = ['bank: exact-scores', 'languages: en', 'pass-mark: 60%', 'scoring: partial', '',
    'title:', '  en: Exact scores', ''];
  for (let i = 1; i <= SINGLES; i++) {
    out.push(`${i}. single-${i}`, `   en: Question ${i}: pick yes.`, '   * en: Yes', '   - en: No',
      '   explanation: en: Yes is right.', '');
  }
  GAPS.forEach((n, j) => {
    out.push(`${SINGLES + j + 1}. gaps-${n}`, '   type: cloze',
      `   en: Type the gap's number after w: ${Array.from({ length: n }, (_, g) => `{{w${g + 1}}}`).join(' ')}`,
      '   explanation: en: Gap 1 takes w1, gap 2 w2, and so on.', '');
  });
  return out.join('\n');
}


before(async () => {
  tmp = tempDir('qbc-scores-');
  const bank = path.join(tmp.dir, 'exact.qb');
  writeFileSync(bank, bankText());
  const r = qbc(['build', '-o', path.join(tmp.dir, 'out'), '--format', 'scorm12,scorm2004', bank]);
  assert.equal(r.status, 0, r.stderr);
  for (const v of ['12', '2004']) {
    pkg[v] = path.join(tmp.dir, 'pkg' + v);
    mkdirSync(pkg[v]);
    unzip(path.join(tmp.dir, 'out', `exact-scores.scorm${v}.zip`), pkg[v]);
  }
  srv = await serveScormLms(pkg);
  ({ base, browser } = srv);
});

after(async () => {
  if (srv) await srv.close();
  if (tmp) tmp.cleanup();
});

/** Plays one attempt: `right` of the singles right, then gaps[j] of each
 * cloze's gaps right.  Returns the last value of every element the LMS got
 * and the results screen's score and verdict. */
async function play(v, right, gaps) {
  const context = await browser.newContext({ viewport: { width: 900, height: 1000 }, locale: 'en-US' });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(lmsUrl(base, v, v === '1.2' ? '12' : '2004'));
  const f = page.frameLocator('#sco');
  await f.locator('#start').click();
  for (let i = 0; i < SINGLES; i++) {
    await f.locator(`input[value="${i < right ? 'a' : 'b'}"]`).check();
    await f.locator('#check').click();
    await f.locator('#next').click();
  }
  for (const [j, n] of GAPS.entries()) {
    const boxes = f.locator('.gap-input');
    assert.equal(await boxes.count(), n);
    for (let g = 0; g < n; g++) await boxes.nth(g).fill(g < gaps[j] ? `w${g + 1}` : 'nope');
    await f.locator('#check').click();
    await f.locator('#next').click();
  }
  await f.locator('#score').waitFor();
  const shown = { score: await f.locator('#score').textContent(), verdict: await f.locator('#verdict').textContent() };
  const last = await lmsValues(page);
  await context.close();
  assert.deepEqual(problems, []);
  return { last, shown };
}

// [what, singles right, gaps right per cloze, raw, scaled, passed]
const CASES = [
  ['87.88%', 20, [18, 4, 3], '87.88', '0.8788', true],
  ['59.99%', 13, [14, 7, 3], '59.99', '0.5999', false],
  ['60%', 13, [25, 0, 3], '60', '0.6', true],
  ['60.01%', 13, [11, 9, 3], '60.01', '0.6001', true],
  ['59.9967% (60.00 when rounded)', 13, [13, 13, 2], '59.99', '0.5999', false],
];

for (const [what, right, gaps, raw, scaled, passed] of CASES) {
  const mean = 100 * (right + gaps.reduce((t, n, j) => t + n / GAPS[j], 0)) / (SINGLES + GAPS.length);
  test(`a mean of ${what} (pass mark 60): raw ${raw}, ${passed ? 'passed' : 'failed'} in 1.2 and 2004`, async () => {
    assert.equal(mean >= 60 - 1e-9, passed, `the bank gives ${mean}`);
    for (const v of ['1.2', '2004']) {
      const { last, shown } = await play(v, right, gaps);
      assert.equal(shown.score, `Score: ${raw}%`, `${v}: the learner sees the score the LMS gets`);
      assert.ok(shown.verdict.includes(passed ? 'Passed' : 'Not passed'), `${v}: ${shown.verdict}`);
      if (v === '1.2') {
        assert.equal(last['cmi.core.score.raw'], raw);
        assert.equal(last['cmi.core.score.min'], '0');
        assert.equal(last['cmi.core.score.max'], '100');
        assert.equal(last['cmi.core.lesson_status'], passed ? 'passed' : 'failed');
        // Moodle's CMIDecimal, and its mastery score (60) overriding the
        // status at LMSFinish: the same decision from the raw score alone.
        assert.match(raw, /^-?([0-9]{0,3})(\.[0-9]*)?$/);
        assert.equal(Number(raw) >= 60, passed, 'Moodle\'s mastery score decides as the player did');
      } else {
        assert.equal(last['cmi.score.raw'], raw);
        assert.equal(last['cmi.score.scaled'], scaled);
        assert.equal(last['cmi.completion_status'], 'completed');
        assert.equal(last['cmi.success_status'], passed ? 'passed' : 'failed');
        assert.match(raw, /^-?([0-9]{1,5})(\.[0-9]{1,18})?$/);
        assert.match(scaled, /^-?([0-9]{1,5})(\.[0-9]{1,18})?$/);
      }
    }
  });
}
