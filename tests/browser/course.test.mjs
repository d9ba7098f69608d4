// tests/browser/course.test.mjs - a course as a teacher brings it (issue
// 36): a Moodle XML export and a GIFT file with a reading passage (a
// Moodle description), negative marks, a numeric cloze gap (Moodle XML) or
// a numeric question (GIFT), and no explanation anywhere.  Each is
// imported by `qbc import`, builds the same day (the bank says
// 'explanations: optional'), and is played in the SCORM 1.2 and 2004
// packages under scorm-again: the passage is shown above each of its
// questions, and the score the LMS records is the one Moodle gives the same
// answers (qtype_multichoice: single earns the picked fraction, multiple
// the sum of the picked fractions from 0 to 1; qtype_multianswer: the mean
// of its gaps; qtype_numerical: within the tolerance; the quiz: the mean
// of its questions, a description counting nothing).
//
//   cd tests && QBC=$PWD/../build/qbc node --test browser/course.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lmsUrl, lmsValues, qbc, serveScormLms, tempDir, unzip } from './lib.mjs';


const answer = (fraction, text) =>
  `<answer fraction="${fraction}" format="html"><text><![CDATA[<p>${text}</p>]]></text>` +
  '<feedback format="html"><text></text></feedback></answer>';

// As Moodle 4.x exports a question bank: a category, a description, then
// its questions; empty general feedback.
const XML = `<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category">
    <category><text>$course$/top/Geography week 3</text></category>
    <info format="html"><text></text></info>
  </question>
  <question type="description">
    <name><text>Reading: the Nile</text></name>
    <questiontext format="html"><text><![CDATA[<p>The <strong>Nile</strong> flows north for about 6650 km, from Lake Victoria to the Mediterranean Sea.</p>]]></text></questiontext>
    <generalfeedback format="html"><text></text></generalfeedback>
    <defaultgrade>0.0000000</defaultgrade>
  </question>
  <question type="multichoice">
    <name><text>Where it ends</text></name>
    <questiontext format="html"><text><![CDATA[<p>Into which sea does the Nile flow?</p>]]></text></questiontext>
    <generalfeedback format="html"><text></text></generalfeedback>
    <defaultgrade>1.0000000</defaultgrade>
    <single>true</single>
    <shuffleanswers>false</shuffleanswers>
    ${answer(100, 'The Mediterranean Sea')}
    ${answer(-33.33333, 'The Red Sea')}
    ${answer(0, 'Lake Victoria')}
  </question>
  <question type="multichoice">
    <name><text>Countries</text></name>
    <questiontext format="html"><text><![CDATA[<p>Which countries does the Nile flow through?</p>]]></text></questiontext>
    <generalfeedback format="html"><text></text></generalfeedback>
    <defaultgrade>1.0000000</defaultgrade>
    <single>false</single>
    <shuffleanswers>false</shuffleanswers>
    ${answer(50, 'Egypt')}
    ${answer(50, 'Sudan')}
    ${answer(-50, 'Chad')}
  </question>
  <question type="cloze">
    <name><text>Length and source</text></name>
    <questiontext format="html"><text><![CDATA[<p>The Nile is {1:NUMERICAL:=6650:100} km long and starts in Lake {1:SHORTANSWER:=Victoria}.</p>]]></text></questiontext>
    <generalfeedback format="html"><text></text></generalfeedback>
  </question>
</quiz>
`;

// The same course as a teacher writes GIFT: a description, weights,
// a number with its tolerance; no general feedback.
const GIFT = `$CATEGORY: $course$/top/Geography week 3

// a reading the next questions ask about
::Reading::[markdown]The **Nile** flows north for about 6650 km, from Lake Victoria to the Mediterranean Sea.

::Where it ends::Into which sea does the Nile flow? {
=The Mediterranean Sea
~%-33.33333%The Red Sea
~Lake Victoria
}

::Countries::Which countries does the Nile flow through? {
~%50%Egypt
~%50%Sudan
~%-50%Chad
}

::Length::How long is the Nile, in km? {#6650:100}
`;

let tmp, srv, base, browser;
const pkg = {};
const built = {};


before(async () => {
  tmp = tempDir('qbc-course-');
  for (const [src, file, text] of [['xml', 'course.xml', XML], ['gift', 'course.gift', GIFT]]) {
    const dir = path.join(tmp.dir, src);
    mkdirSync(dir);
    writeFileSync(path.join(dir, file), text);
    const bank = path.join(dir, 'course.qb');
    const ri = qbc(['import', '--lang', 'en', '-o', bank, path.join(dir, file)]);
    assert.equal(ri.status, 0, ri.stderr);
    const rc = qbc(['check', bank]);
    const out = path.join(dir, 'out');
    const rb = qbc(['build', '-o', out, '--format', 'scorm12,scorm2004', bank]);
    built[src] = { import: ri, check: rc, build: rb, qb: readFileSync(bank, 'utf8') };
    assert.equal(rb.status, 0, rb.stderr);
    for (const v of ['12', '2004']) {
      pkg[src + v] = path.join(dir, 'pkg' + v);
      mkdirSync(pkg[src + v]);
      unzip(path.join(out, `course.scorm${v}.zip`), pkg[src + v]);
    }
  }
  srv = await serveScormLms(pkg);
  ({ base, browser } = srv);
});

after(async () => {
  if (srv) await srv.close();
  if (tmp) tmp.cleanup();
});

for (const src of ['xml', 'gift']) {
  test(`${src}: imported with its passage, marks and numbers; no explanation stops the build`, () => {
    const { qb, check } = built[src];
    assert.match(qb, /^explanations: optional$/m);
    assert.match(qb, /^passage: \S+\n {2}en: The \*\*Nile\*\* flows north/m);
    assert.equal((qb.match(/^ {3}passage: /mg) || []).length, 3, 'each question is read with the passage');
    assert.match(qb, /^ {3}- -33\.3% en: The Red Sea$/m);
    // an unmarked wrong option of a partly scored multiple question costs
    // one right option's share: Chad's -50% needs no mark of its own
    assert.match(qb, /^ {3}scoring: partial\n(?:.*\n){2,5} {3}- (?:-50% )?en: Chad$/m);
    assert.match(qb, src === 'xml' ? /\{\{#6650 ± 100\}\}/ : /^ {3}answer: 6650 ± 100$/m);
    assert.equal(check.status, 0, check.stderr);
    assert.equal((check.stderr.match(/has no explanation yet/g) || []).length, 3, check.stderr);
  });
}

/** Plays the course in SCORM v ('1.2' or '2004') from src ('xml' or
 * 'gift'): per question, the letters picked or the texts typed. */
async function play(src, v, answers) {
  const context = await browser.newContext({ viewport: { width: 900, height: 1000 }, locale: 'en-US' });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(lmsUrl(base, v, src + (v === '1.2' ? '12' : '2004')));
  const f = page.frameLocator('#sco');
  await f.locator('#start').click();
  const passages = [];
  for (const a of answers) {
    passages.push(await f.locator('.passage').innerText());
    if (Array.isArray(a)) {
      const boxes = f.locator('.gap-input');
      for (const [g, t] of a.entries()) await boxes.nth(g).fill(t);
    } else if (/^[a-z]+$/.test(a)) {
      for (const c of a) await f.locator(`input[value="${c}"]`).check();
    } else {
      await f.locator('.answer-box').fill(a);
    }
    await f.locator('#check').click();
    await f.locator('#next').click();
  }
  await f.locator('#score').waitFor();
  const shown = await f.locator('#score').textContent();
  const last = await lmsValues(page);
  await context.close();
  assert.deepEqual(problems, []);
  for (const p of passages) assert.match(p, /The Nile flows north for about 6650 km/);
  return { last, shown };
}

// [what, answers per question, Moodle's score in percent]: the Moodle
// figure worked out by hand from the fractions above and Moodle's rules.
const CASES = {
  xml: [
    // 1 + (0.5 - 0.5 = 0) + (1 + 0) / 2 = 1.5 of 3
    ['right sea, a penalised country, the number right and the lake wrong', ['a', 'ac', ['6700', 'Albert']], '50'],
    // 0 + (0.5 + 0.5 - 0.5) + (0 + 1) / 2 = 1 of 3
    ['a lake for the sea, every country, the number outside its tolerance', ['c', 'abc', ['6500', 'victoria']], '33.33'],
    ['everything right', ['a', 'ab', ['6600', 'Victoria']], '100'],
  ],
  gift: [
    // 1 + 0 + 1 = 2 of 3
    ['right sea, a penalised country, the number within its tolerance', ['a', 'ac', '6749'], '66.67'],
    // 0 + 0.5 + 0 = 0.5 of 3
    ['a lake for the sea, every country, the number outside its tolerance', ['c', 'abc', '6500'], '16.67'],
  ],
};

for (const src of ['xml', 'gift']) {
  for (const [what, answers, raw] of CASES[src]) {
    test(`${src}: ${what}: ${raw}%, as Moodle grades it, in SCORM 1.2 and 2004, the passage above each question`, async () => {
      for (const v of ['1.2', '2004']) {
        const { last, shown } = await play(src, v, answers);
        assert.equal(shown, `Score: ${raw}%`, `${v}: the learner sees it`);
        if (v === '1.2') assert.equal(last['cmi.core.score.raw'], raw);
        else {
          assert.equal(last['cmi.score.raw'], raw);
          assert.equal(last['cmi.score.scaled'], String(Number((Number(raw) / 100).toFixed(4))));
        }
      }
    });
  }
}
