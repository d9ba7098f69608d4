// tests/browser/passage.test.mjs - a passage (issue 36: a reading shown
// with the questions about it) as learners and teachers see it:
//   - the offline player shows it above each of its questions, in the
//     learner's language, and above no other question;
//   - the paper worksheet shows it once, before its questions;
//   - an Anki note of each of its questions shows it on the front (the
//     card rendered from the package's own template), and a note of
//     another question does not;
//   - `qbc preview` shows it in its card and in its player.
// Its bank is written here.
//   cd tests && QBC=$PWD/../build/qbc node --test browser/passage.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { QBC, fillCard, launch, qbc, readApkg, tempDir, unzip } from './lib.mjs';

const BANK = `bank: reading
languages: en fr
title:
  en: Reading
  fr: Lecture

passage: lighthouse
  en: PASSAGE-EN The keeper lived alone on the rock for **twenty** years.
  fr: PASSAGE-FR Le gardien vécut seul sur le rocher pendant **vingt** ans.

1. keeper-years
   passage: lighthouse
   en: Q1 How long did the keeper live on the rock?
   fr: Q1 Combien de temps le gardien vécut-il sur le rocher ?
   * en: Twenty years
     fr: Vingt ans
   - en: Two years
     fr: Deux ans
   explanation:
     en: The text says twenty years.
     fr: Le texte dit vingt ans.

2. keeper-alone
   passage: lighthouse
   type: true-false
   answer: true
   en: Q2 The keeper lived alone.
   fr: Q2 Le gardien vivait seul.
   explanation:
     en: He lived alone.
     fr: Il vivait seul.

3. other
   en: Q3 Two plus two?
   fr: Q3 Deux plus deux ?
   * en: Four
     fr: Quatre
   - en: Five
     fr: Cinq
   explanation:
     en: Arithmetic.
     fr: Arithmétique.
`;

let tmp, browser, out;

before(async () => {
  tmp = tempDir('qbc-passage-');
  const src = path.join(tmp.dir, 'reading.qb');
  writeFileSync(src, BANK);
  out = path.join(tmp.dir, 'out');
  const r = qbc(['build', '--format', 'html,anki', '-o', out, src]);
  assert.equal(r.status, 0, r.stderr);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  tmp?.cleanup();
});

async function open(url) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const problems = [];
  const page = await ctx.newPage();
  page.on('pageerror', (e) => problems.push(String(e)));
  await page.goto(url);
  page.done = async () => { await ctx.close(); assert.deepEqual(problems, []); };
  return page;
}

test('the player shows the passage above each of its questions, and above no other', async () => {
  const page = await open(pathToFileURL(path.join(out, 'reading.html')).href);
  await page.locator('#start').click();
  const seen = [];
  for (let i = 0; i < 3; i++) {
    const card = page.locator('.card').first();
    await card.waitFor();
    const passage = card.locator('.passage');
    const n = await passage.count();
    const text = n ? await passage.innerText() : '';
    const prompt = await card.innerText();
    seen.push({ q: prompt.match(/Q\d/)[0], passage: text.includes('PASSAGE-EN') });
    if (n) {
      // above the question: before its prompt in the card
      assert.ok(prompt.indexOf('PASSAGE-EN') < prompt.indexOf(prompt.match(/Q\d/)[0]), prompt);
      assert.equal(await passage.locator('strong').innerText(), 'twenty', 'its Markdown rendered');
    }
    if (i === 0) {
      await page.locator('.lang-btn[data-lang="fr"]').click();
      assert.match(await page.locator('.card .passage').innerText(), /PASSAGE-FR/, 'in the learner\'s language');
      await page.locator('.lang-btn[data-lang="en"]').click();
    }
    await page.locator('.card input').first().check();
    await page.locator('#check').click();
    await page.locator('#next').click();
  }
  assert.deepEqual(seen, [{ q: 'Q1', passage: true }, { q: 'Q2', passage: true }, { q: 'Q3', passage: false }]);
  await page.done();
});

test('the paper worksheet shows the passage once, before its questions', async () => {
  const page = await open(pathToFileURL(path.join(out, 'reading.html')).href + '#print=worksheet&lang=both&version=0');
  await page.locator('#sheet').waitFor();
  const text = await page.locator('#sheet').innerText();
  assert.equal(text.split('PASSAGE-EN').length - 1, 1, text);
  assert.equal(text.split('PASSAGE-FR').length - 1, 1, 'and once in French, beside it');
  assert.ok(text.indexOf('PASSAGE-EN') < text.indexOf('Q1 How long'), 'before its first question');
  const order = await page.locator('#sheet .pq-list > section').evaluateAll((xs) => xs.map((x) => x.className));
  assert.deepEqual(order, ['pq-passage', 'pq', 'pq', 'pq']);
  await page.done();
});

test('an Anki note of each of its questions shows the passage on the front', async () => {
  const raw = path.join(tmp.dir, 'apkg');
  mkdirSync(raw, { recursive: true });
  unzip(path.join(out, 'reading.apkg'), raw);
  const pkg = readApkg(raw, path.join(tmp.dir, 'media'), 'qbc quiz');
  const fronts = {};
  for (const n of pkg.notes) fronts[n.fields.ID] = n.fields;
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const visible = async (id) => {
    const html = fillCard(pkg.qfmt, fronts[id]).replace(/<script[\s\S]*?<\/script>/g, '');
    await page.setContent(`<style>${pkg.css}</style>${html}`);
    return page.locator('body').innerText();
  };
  const en1 = await visible('reading:keeper-years:en');
  assert.match(en1, /PASSAGE-EN[\s\S]*Q1 How long/, en1);
  assert.match(await visible('reading:keeper-alone:en'), /PASSAGE-EN[\s\S]*Q2 The keeper/);
  assert.match(await visible('reading:keeper-years:fr'), /PASSAGE-FR[\s\S]*Q1 Combien/);
  assert.doesNotMatch(await visible('reading:other:en'), /PASSAGE/);
  await ctx.close();
});

test('qbc preview shows the passage in its card and in its player', async () => {
  const dir = path.join(tmp.dir, 'preview');
  mkdirSync(path.join(dir, 'tmp'), { recursive: true });
  const bank = path.join(dir, 'reading.qb');
  writeFileSync(bank, BANK);
  const proc = spawn(QBC, ['preview', '--port', '0', bank],
    { env: { ...process.env, NO_COLOR: '1', TMPDIR: path.join(dir, 'tmp') }, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      proc.stdout.on('data', (d) => {
        out += d;
        const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) resolve(m[1]);
      });
      proc.on('exit', (code) => reject(new Error(`qbc preview exited with ${code}`)));
    });
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(url);
    const front = page.frameLocator('#front');
    await front.locator('.qb-passage').waitFor();
    assert.match(await front.locator('.qb-passage').innerText(), /PASSAGE-EN/);
    const player = page.frameLocator('#player');
    await player.locator('.passage').waitFor();
    assert.match(await player.locator('.passage').innerText(), /PASSAGE-EN/);
    await ctx.close();
  } finally {
    const done = new Promise((r) => proc.on('exit', r));
    proc.kill('SIGTERM');
    await done;
  }
});
