// tests/browser/a11y.test.mjs - the WCAG 2.1 A/AA audit by axe-core (npm,
// pinned in package.json) of everything a learner sees, in headless
// Chromium:
//   - the SCORM 1.2 player inside an LMS frame (a stub SCORM 1.2 API): the
//     start, question, answered (with the other language shown) and results
//     screens, in each language, with a light and a dark colour scheme
//     (prefers-color-scheme, emulated by Playwright);
//   - the Anki card, front and back, in each language, in day mode and in
//     night mode as Anki desktop (body classes nightMode night_mode) and
//     AnkiDroid (night_mode) set it, the card filled from the package's own
//     note type and notes, as anki.test.mjs does.
//   - the same player with every question type, math and the partial-credit
//     results (tests/browser/types/types.qb);
// The bank is tests/browser/a11y/a11y.qb.  Any violation fails the test with
// the rule, the elements and axe's summary.
//   cd tests && QBC=$PWD/../build/qbc node --test browser/a11y.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { TESTS, answerAny, fillCard, launch, qbc, readApkg, tempDir, unzip } from './lib.mjs';

const BANK = path.join(TESTS, 'browser', 'a11y');
const AXE = readFileSync(path.join(TESTS, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const LANGS = ['en', 'sw'];
const SCHEMES = ['light', 'dark'];
// Body classes of a card: Anki desktop's theme_manager.body_class() adds
// "nightMode night_mode" in night mode; AnkiDroid adds "night_mode".
const MODES = { day: 'card card1', desktopNight: 'card card1 isLin nightMode night_mode', droidNight: 'card night_mode' };

// A SCORM 1.2 LMS that accepts everything and remembers nothing.
const HOST = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>LMS</title><script>
const data = {};
window.API = { LMSInitialize: () => 'true', LMSFinish: () => 'true', LMSCommit: () => 'true',
  LMSGetValue: (k) => data[k] || '', LMSSetValue: (k, v) => { data[k] = String(v); return 'true'; },
  LMSGetLastError: () => '0', LMSGetErrorString: () => '', LMSGetDiagnostic: () => '' };
</script></head><body><iframe id="sco" title="Quiz" src="/sco/index.html" style="width:100%;height:1200px;border:0"></iframe></body></html>`;

let tmp, server, base, browser;
let sco; // the unzipped SCORM 1.2 package
let scoTypes; // the same for the bank of every question type
let anki; // { css, qfmt, afmt, notes: [fields] } and the media folder
const cards = new Map(); // url path -> card page

before(async () => {
  tmp = tempDir('qbc-a11y-');
  // Build from a copy: a build writes its revision record next to the bank.
  const src = path.join(tmp.dir, 'src');
  cpSync(BANK, src, { recursive: true, filter: (f) => !f.endsWith('.lock') });
  const out = path.join(tmp.dir, 'out');
  const r = qbc(['build', '-o', out, '--format', 'scorm12,anki', path.join(src, 'a11y.qb')]);
  assert.equal(r.status, 0, r.stderr);
  sco = path.join(tmp.dir, 'sco');
  unzip(path.join(out, 'a11y.scorm12.zip'), sco);
  const types = path.join(tmp.dir, 'types');
  cpSync(path.join(TESTS, 'browser', 'types'), types, { recursive: true, filter: (f) => !f.endsWith('.lock') });
  const rt = qbc(['build', '-o', out, '--format', 'scorm12', path.join(types, 'types.qb')]);
  assert.equal(rt.status, 0, rt.stderr);
  scoTypes = path.join(tmp.dir, 'scotypes');
  unzip(path.join(out, 'types.scorm12.zip'), scoTypes);

  const raw = path.join(tmp.dir, 'apkg');
  unzip(path.join(out, 'a11y.apkg'), raw);
  const media = path.join(tmp.dir, 'media');
  const pkg = readApkg(raw, media);
  anki = { css: pkg.css, qfmt: pkg.qfmt, afmt: pkg.afmt, media, notes: pkg.notes.map((n) => n.fields) };

  server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = null;
    if (p === '/host.html' || p === '/hosttypes.html' || cards.has(p)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(p === '/host.html' ? HOST : p === '/hosttypes.html' ? HOST.replace('/sco/', '/scotypes/') : cards.get(p));
      return;
    }
    if (p.startsWith('/sco/') && !p.includes('..')) file = path.join(sco, p.slice(5));
    else if (p.startsWith('/scotypes/') && !p.includes('..')) file = path.join(scoTypes, p.slice(10));
    else if (p.startsWith('/card/')) file = path.join(media, path.basename(p));
    if (!file || !existsSync(file) || !statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
    const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.woff2': 'font/woff2' };
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
    res.end(readFileSync(file));
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

/** Runs axe-core in frame (a Page or a Frame); returns the violations as
 * readable lines. */
async function audit(frame, what) {
  if (!(await frame.evaluate(() => !!window.axe))) await frame.addScriptTag({ content: AXE });
  const v = await frame.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } })
    .then((r) => r.violations.map((x) => ({ id: x.id, help: x.help,
      nodes: x.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`) }))), TAGS);
  return v.map((x) => `${what}: ${x.id} (${x.help})\n    ${x.nodes.slice(0, 5).join('\n    ')}`);
}

/** A context with the colour scheme; CSP bypassed so axe can be injected
 * into the player, whose policy allows only its own scripts. */
async function open(colorScheme) {
  const ctx = await browser.newContext({ colorScheme, bypassCSP: true, viewport: { width: 900, height: 1000 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { ctx, page, errors };
}

async function scoFrame(page, host = 'host') {
  await page.goto(`${base}/${host}.html`);
  const el = await page.waitForSelector('#sco');
  const frame = await el.contentFrame();
  await frame.waitForSelector('#start');
  return frame;
}

for (const scheme of SCHEMES) {
  test(`SCORM player, ${scheme} colour scheme: every screen in every language passes WCAG 2.1 A/AA`, async () => {
    const { ctx, page, errors } = await open(scheme);
    const found = [];
    for (const lang of LANGS) {
      const frame = await scoFrame(page);
      await frame.click(`button[data-lang="${lang}"]`);
      assert.equal(await frame.getAttribute('html', 'lang'), lang);
      const at = (s) => `${lang} ${scheme} ${s}`;
      // The player follows the scheme: dark inside a dark theme or phone.
      const bg = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor.match(/\d+/g).slice(0, 3).map(Number));
      const light = bg.reduce((x, y) => x + y, 0) / 3 > 128;
      assert.equal(light, scheme === 'light', `${at('start')}: body background rgb(${bg}) for ${scheme}`);
      found.push(...await audit(frame, at('start')));
      await frame.click('#start');
      // Every question: unanswered, then answered (the first option, so
      // both right and wrong results appear) with the other language open.
      for (let q = 0; ; q++) {
        await frame.waitForSelector('fieldset.question');
        assert.equal(await frame.locator('#main h1').count(), 1, `${at('question')} ${q + 1} has one level-one heading`);
        found.push(...await audit(frame, at(`question ${q + 1}`)));
        await frame.locator('.option input').first().check();
        await frame.click('#check');
        await frame.waitForSelector('.result');
        const other = frame.locator('.other-btn');
        if (await other.count()) await other.first().click();
        found.push(...await audit(frame, at(`question ${q + 1} answered`)));
        await frame.click('#next');
        if (await frame.locator('#score').count()) break;
        assert.ok(q < 10, 'the results screen comes');
      }
      found.push(...await audit(frame, at('results')));
    }
    assert.deepEqual(found, [], found.join('\n'));
    assert.deepEqual(errors, []);
    await ctx.close();
  });
}

for (const scheme of SCHEMES) {
  test(`SCORM player, ${scheme} colour scheme: every question type, answered and not, passes WCAG 2.1 A/AA`, async () => {
    const { ctx, page, errors } = await open(scheme);
    const found = [];
    for (const lang of LANGS) {
      const frame = await scoFrame(page, 'hosttypes');
      await frame.click(`button[data-lang="${lang}"]`);
      const at = (s) => `${lang} ${scheme} types ${s}`;
      await frame.click('#start');
      for (let q = 0; ; q++) {
        await frame.waitForSelector('#check');
        found.push(...await audit(frame, at(`question ${q + 1}`)));
        // Answer whatever is on screen (right or wrong does not matter).
        await answerAny(frame);
        await frame.click('#check');
        await frame.waitForSelector('.result');
        found.push(...await audit(frame, at(`question ${q + 1} answered`)));
        await frame.click('#next');
        if (await frame.locator('#score').count()) break;
        assert.ok(q < 10, 'the results screen comes');
      }
      found.push(...await audit(frame, at('results')));
    }
    assert.deepEqual(found, [], found.join('\n'));
    assert.deepEqual(errors, []);
    await ctx.close();
  });
}


for (const [mode, body] of Object.entries(MODES)) {
  test(`Anki card, ${mode}: front and back in every language pass WCAG 2.1 A/AA`, async () => {
    const { ctx, page, errors } = await open('light');
    const found = [];
    for (const fields of anki.notes) {
      const what = `${mode} ${fields.ID}`;
      const frontHtml = fillCard(anki.qfmt, fields);
      const doc = (side, html) => `<!DOCTYPE html><html lang="${fields.Lang}"><head><meta charset="utf-8"><title>Anki ${side}</title>` +
        `<style>${anki.css}</style></head><body class="${body}"><div id="qa">${html}</div></body></html>`;
      // The script files are referenced by name, as in Anki's media folder.
      cards.set(`/card/${mode}-front.html`, doc('front', frontHtml));
      cards.set(`/card/${mode}-back.html`, doc('back', fillCard(anki.afmt, { ...fields, FrontSide: frontHtml })));
      await page.goto(`${base}/card/${mode}-front.html`);
      await page.waitForSelector('.qb-front.qb-js');
      found.push(...await audit(page, `${what} front`));
      await page.click('.qb-front .qb-option[data-i="1"]');
      found.push(...await audit(page, `${what} front, picked`));
      await page.goto(`${base}/card/${mode}-back.html`); // AnkiDroid's way: a new page
      await page.waitForSelector('.qb-back.qb-js');
      found.push(...await audit(page, `${what} back`));
      const toggle = page.locator('.qb-translation > summary');
      if (await toggle.count()) {
        await toggle.click();
        found.push(...await audit(page, `${what} back, other language open`));
      }
    }
    assert.ok(anki.notes.length >= 6, 'every question in both languages');
    assert.deepEqual(found, [], found.join('\n'));
    assert.deepEqual(errors, []);
    await ctx.close();
  });
}
