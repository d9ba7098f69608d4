// tests/browser/phone.test.mjs - the phone matrix: what a learner sees on a
// phone-sized touch screen (Chromium's mobile emulation: hasTouch, isMobile,
// so `pointer: coarse`), at 320x568, 360x640 and 640x360, day and night,
// for a left-to-right bank (English by day, Kiswahili by night) and the
// right-to-left one (Arabic), every question type, with a wide table and a
// code block (tests/browser/phone/):
//   - the SCORM 1.2 player filling the screen, as Moodle shows it with the
//     settings README.md recommends (a stub SCORM 1.2 API, as a11y does):
//     the start screen, every question before and after the check (the
//     other language open), the results with their review;
//   - the Anki cards from the package's own note types, as AnkiDroid shows
//     them (a page with a device-width viewport, a new page for the back,
//     body class "card" or "card night_mode"), front and back.
// On every screen: the document no wider than the viewport, every control
// at least 44x44 CSS px, text at least 16 px, axe-core (WCAG 2.1 A/AA)
// clean.  Also: the check button within the first screen when the
// question fits there, and nothing to tap only in the strips a host page
// covers (the left edge, the bottom right corner); on the cards, letters
// A B C and a tap hint instead of key letters.  Each failure names the
// screen and the measured sizes.
//   cd tests && QBC=$PWD/../build/qbc node --test browser/phone.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT, TESTS, answerAny, fillCard, launch, qbc, readApkg, sendFile, tempDir, unzip } from './lib.mjs';

const AXE = readFileSync(path.join(TESTS, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const SIZES = [[320, 568], [360, 640], [640, 360]];
// bank file -> its id and the language shown by day and by night.
const BANKS = {
  'phone.qb': { id: 'simu', day: 'en', night: 'sw' },
  'phone-ar.qb': { id: 'hatif', day: 'ar', night: 'ar' },
};
const TARGET = 44, TEXT = 16;
// README.md shows a question and a back card on a 360x640 phone, by day;
// the committed copies are rewritten only with UPDATE=1 (or when missing).
const SHOTS = path.join(TESTS, 'screenshots');
const shoot = (size, night, id) => size[0] === 360 && !night && id === 'simu';
const shot = (name) => (process.env.UPDATE || !existsSync(path.join(SHOTS, name)) ? path.join(SHOTS, name)
  : path.join(tmp.dir, name));
// What a host page may cover: Moodle Boost's fixed course-index button at
// the left edge and its "?" button in the bottom right corner.
const LEFT = 48, CORNER = 96;

// Moodle's player page in a new window (the README's settings): the
// "embedded" page layout, nothing above the frame, and the frame as tall as
// the window less 5 px but never under 680 px (mod/scorm/module.js), so on
// a phone held sideways the frame is taller than the screen.
const HOST = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>LMS</title><script>
const data = {};
window.API = { LMSInitialize: () => 'true', LMSFinish: () => 'true', LMSCommit: () => 'true',
  LMSGetValue: (k) => data[k] || '', LMSSetValue: (k, v) => { data[k] = String(v); return 'true'; },
  LMSGetLastError: () => '0', LMSGetErrorString: () => '', LMSGetDiagnostic: () => '' };
</script></head><body style="margin:0"><iframe id="sco" title="Quiz" src="SRC"
style="display:block;width:100%;height:max(680px, calc(100vh - 5px));border:0"></iframe></body></html>`;

let tmp, server, base, browser;
const sco = {}; // bank id -> unzipped SCORM 1.2 package
const anki = {}; // bank id -> { quiz: note type, cloze: note type }
const pages = new Map(); // url path -> html
let media;

before(async () => {
  tmp = tempDir('qbc-phone-');
  media = path.join(tmp.dir, 'media');
  for (const [file, b] of Object.entries(BANKS)) {
    // Build from a copy: a build writes its revision record next to the bank.
    const src = path.join(tmp.dir, `src-${b.id}`);
    cpSync(path.join(TESTS, 'browser', 'phone', file), path.join(src, file));
    const out = path.join(tmp.dir, `out-${b.id}`);
    const r = qbc(['build', '-o', out, '--format', 'scorm12,anki', path.join(src, file)]);
    assert.equal(r.status, 0, r.stderr);
    sco[b.id] = path.join(tmp.dir, `sco-${b.id}`);
    unzip(path.join(out, `${b.id}.scorm12.zip`), sco[b.id]);
    const raw = path.join(tmp.dir, `apkg-${b.id}`);
    unzip(path.join(out, `${b.id}.apkg`), raw);
    anki[b.id] = { quiz: readApkg(raw, media, 'qbc quiz'), cloze: readApkg(raw, media, 'qbc cloze') };
  }
  server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (pages.has(p)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(pages.get(p));
      return;
    }
    const m = /^\/sco-([a-z]+)\/(.+)$/.exec(p);
    const file = p.includes('..') ? null : m && sco[m[1]] ? path.join(sco[m[1]], m[2])
      : p.startsWith('/card/') ? path.join(media, path.basename(p)) : null;
    sendFile(res, file);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${server.address().port}`;
  for (const b of Object.values(BANKS)) pages.set(`/host-${b.id}.html`, HOST.replace('SRC', `/sco-${b.id}/index.html`));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
  tmp?.cleanup();
});

/** A phone: touch, mobile viewport, the colour scheme of day or night; CSP
 * bypassed so axe can be injected into the player. */
async function phone([width, height], night) {
  const ctx = await browser.newContext({ viewport: { width, height }, hasTouch: true, isMobile: true,
    deviceScaleFactor: 2, colorScheme: night ? 'dark' : 'light', bypassCSP: true });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { ctx, page, errors };
}

/** Everything measured on one screen (a Page or a Frame), as readable
 * problems. */
async function inspect(frame, width, what) {
  const found = await frame.evaluate(({ TARGET, TEXT, LEFT, CORNER, width }) => {
    const out = [];
    const de = document.documentElement;
    // A mobile browser zooms out to show a page wider than the screen, and
    // the layout viewport then grows: measure against the screen.
    const W = Math.min(window.innerWidth, width);
    if (de.scrollWidth > W) out.push(`document ${de.scrollWidth}px wide in a ${W}px viewport`);
    // Overflow to the left (right to left) does not widen scrollWidth: look
    // for anything outside the viewport that no scroll box holds.
    const clipped = (e) => {
      for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
        if (/auto|scroll|hidden|clip/.test(getComputedStyle(a).overflowX)) return true;
      return false;
    };
    for (const e of document.body.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (r.width && (r.left < -0.5 || r.right > W + 0.5) && !e.closest('.sr-only') && !clipped(e)) {
        out.push(`${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : ''} ` +
          `at ${Math.round(r.left)}..${Math.round(r.right)}px in a ${W}px viewport`);
        break;
      }
    }
    const visible = (e) => {
      if (e.closest('.sr-only')) return false;
      const r = e.getBoundingClientRect(), s = getComputedStyle(e);
      return r.width > 0 && r.height > 0 && s.visibility !== 'hidden';
    };
    const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
      (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : '') +
      ` "${(e.textContent || e.value || '').trim().slice(0, 24)}"`;
    const docH = de.scrollHeight;
    const controls = document.querySelectorAll('button, a[href], input:not([type=hidden]), select, textarea, summary, ' +
      'audio[controls], [role=button], [role=radio], [role=checkbox], [tabindex="0"]');
    for (const c of controls) {
      if (!visible(c)) continue;
      // A radio button or a check box is tapped through its label.
      const t = (c.type === 'radio' || c.type === 'checkbox') && c.labels && c.labels[0] ? c.labels[0] : c;
      const r = t.getBoundingClientRect();
      if (r.width < TARGET - 0.5 || r.height < TARGET - 0.5)
        out.push(`target ${name(c)} ${Math.round(r.width * 10) / 10}x${Math.round(r.height * 10) / 10}`);
      // Where it lies in the document (scrolled to the end, the bottom right
      // corner of the frame is the document's).
      const x0 = r.left, x1 = r.right, y1 = r.bottom + window.scrollY;
      if (x1 <= LEFT) out.push(`target ${name(c)} only under the left edge (${Math.round(x0)}..${Math.round(x1)}px)`);
      if (x0 >= W - CORNER && y1 > docH - CORNER) out.push(`target ${name(c)} only in the bottom right corner`);
    }
    const small = new Map();
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const e = n.parentElement;
      if (!n.data.trim() || !e || e.closest('.katex, script, style, noscript') || !visible(e)) continue;
      const px = parseFloat(getComputedStyle(e).fontSize);
      if (px < TEXT - 0.01) {
        const k = `${name(e)} ${px}px`;
        small.set(k, (small.get(k) || 0) + 1);
      }
    }
    for (const k of small.keys()) out.push(`text ${k}`);
    return out;
  }, { TARGET, TEXT, LEFT, CORNER, width });
  if (!(await frame.evaluate(() => !!window.axe))) await frame.addScriptTag({ content: AXE });
  const v = await frame.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } })
    .then((r) => r.violations.map((x) => `axe ${x.id}: ${x.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)), TAGS);
  return [...found, ...v].map((s) => `${what}: ${s}`);
}

/** The check button is on the first screen whenever the question is; in
 * landscape the short questions (all but the table and the code) are
 * always there with their button. */
async function checkButtonShown(frame, what, short, screenHeight) {
  const m = await frame.evaluate((h) => {
    const q = document.querySelector('fieldset.question, .question'), b = document.getElementById('check');
    return q && b ? { q: q.getBoundingClientRect().bottom, b: b.getBoundingClientRect().bottom, h: Math.min(h, window.innerHeight) } : null;
  }, screenHeight);
  if (!m || (m.q > m.h && !short)) return [];
  return m.b <= m.h + 0.5 ? [] : [`${what}: the check button ends at ${Math.round(m.b)}px, below the first screen (${m.h}px); the question ends at ${Math.round(m.q)}px`];
}

for (const [file, b] of Object.entries(BANKS)) {
  for (const size of SIZES) {
    test(`phone ${size.join('x')}, ${file}: the player, day and night, every question type`, async () => {
      const found = [];
      for (const night of [false, true]) {
        const { ctx, page, errors } = await phone(size, night);
        const lang = night ? b.night : b.day;
        const at = (s) => `player ${size.join('x')} ${lang} ${night ? 'night' : 'day'} ${s}`;
        await page.goto(`${base}/host-${b.id}.html`);
        const frame = await (await page.waitForSelector('#sco')).contentFrame();
        await frame.waitForSelector('#start');
        if (await frame.getAttribute('html', 'lang') !== lang) await frame.click(`button[data-lang="${lang}"]`);
        assert.equal(await frame.getAttribute('html', 'lang'), lang);
        found.push(...await inspect(frame, size[0], at('start')));
        await frame.click('#start');
        for (let q = 1; ; q++) {
          await frame.waitForSelector('#check');
          found.push(...await inspect(frame, size[0], at(`question ${q}`)));
          found.push(...await checkButtonShown(frame, at(`question ${q}`), size[0] > size[1] && ![1, 5].includes(q), size[1]));
          await answerAny(frame);
          await frame.click('#check');
          await frame.waitForSelector('.result');
          if (q === 2 && shoot(size, night, b.id)) await page.screenshot({ path: shot('phone-player.png') });
          const other = frame.locator('.other-btn');
          if (await other.count()) await other.first().click();
          found.push(...await inspect(frame, size[0], at(`question ${q} answered`)));
          await frame.click('#next');
          if (await frame.locator('#score').count()) break;
          assert.ok(q < 10, 'the results screen comes');
        }
        found.push(...await inspect(frame, size[0], at('results')));
        found.push(...(await inspect(page, size[0], at('host page'))).filter((s) => !/ axe /.test(s)));
        assert.deepEqual(errors, []);
        await ctx.close();
      }
      assert.deepEqual(found, [], found.join('\n'));
    });

    test(`phone ${size.join('x')}, ${file}: the Anki cards in AnkiDroid, day and night, every question type`, async () => {
      const found = [];
      for (const night of [false, true]) {
        const { ctx, page, errors } = await phone(size, night);
        const lang = night ? b.night : b.day;
        const L = JSON.parse(readFileSync(path.join(ROOT, 'templates', 'labels', `${lang}.json`), 'utf8')).labels;
        const notes = [...anki[b.id].quiz.notes.map((n) => [anki[b.id].quiz, n.fields]),
          ...anki[b.id].cloze.notes.map((n) => [anki[b.id].cloze, n.fields])].filter(([, f]) => f.Lang === lang);
        assert.equal(notes.length, 7, 'every question type');
        for (const [nt, fields] of notes) {
          const at = (s) => `card ${size.join('x')} ${fields.ID} ${night ? 'night' : 'day'} ${s}`;
          const doc = (html) => `<!DOCTYPE html><html lang="${fields.Lang}"><head><meta charset="utf-8">` +
            '<meta name="viewport" content="width=device-width, initial-scale=1"><title>AnkiDroid</title>' +
            `<style>${nt.css}</style></head><body class="card${night ? ' night_mode' : ''}"><div id="qa">${html}</div></body></html>`;
          const frontHtml = fillCard(nt.qfmt, fields, { n: 1, side: 'front' });
          pages.set('/card/front.html', doc(frontHtml));
          pages.set('/card/back.html', doc(fillCard(nt.afmt, { ...fields, FrontSide: frontHtml }, { n: 1, side: 'back' })));
          await page.goto(`${base}/card/front.html`);
          await page.waitForSelector('.qb-front');
          found.push(...await inspect(page, size[0], at('front')));
          // Touch: letters A B C and a hint to tap, not keys to press.
          const nums = await page.$$eval('.qb-front .qb-option .qb-num', (e) => e.filter((x) => x.offsetParent).map((x) => x.textContent));
          if (nums.length) {
            const want = 'ABCDEFGHIJ'.slice(0, nums.length);
            if (nums.join('') !== want) found.push(at(`letters ${nums.join(' ')}, not ${want.split('').join(' ')}`));
            const multiple = await page.locator('.qb-options[data-type="multiple"]').count();
            const hint = await page.textContent('.qb-front .qb-hint');
            if (hint !== (multiple ? L.tapMultiple : L.tapSingle)) found.push(at(`hint "${hint}"`));
            await page.tap('.qb-front .qb-option[data-i="0"]');
          }
          if (await page.locator('.qb-typed input').count()) await page.fill('.qb-typed input', '1');
          for (const s of await page.locator('.qb-match-row select').all()) await s.selectOption({ index: 1 });
          await page.goto(`${base}/card/back.html`); // AnkiDroid's way: a new page
          await page.waitForSelector('.qb-back');
          if (fields.ID === 'simu:multi:en' && shoot(size, night, b.id)) await page.screenshot({ path: shot('phone-card-back.png') });
          const toggle = page.locator('.qb-translation > summary');
          if (await toggle.count()) await toggle.first().dispatchEvent('click');
          found.push(...await inspect(page, size[0], at('back')));
        }
        assert.deepEqual(errors, []);
        await ctx.close();
      }
      assert.deepEqual(found, [], found.join('\n'));
    });
  }
}

test('a keyboard: the cards keep the key letters and the hint to press them', async () => {
  const nt = anki.simu.quiz;
  const fields = nt.notes.map((n) => n.fields).find((f) => f.ID === 'simu:multi:en');
  const L = JSON.parse(readFileSync(path.join(ROOT, 'templates', 'labels', 'en.json'), 'utf8')).labels;
  const ctx = await browser.newContext({ viewport: { width: 1024, height: 700 } });
  const page = await ctx.newPage();
  pages.set('/card/desk.html', `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Anki</title>` +
    `<style>${nt.css}</style></head><body class="card"><div id="qa">${fillCard(nt.qfmt, fields)}</div></body></html>`);
  await page.goto(`${base}/card/desk.html`);
  await page.waitForSelector('.qb-front.qb-js');
  assert.deepEqual(await page.$$eval('.qb-option .qb-num', (e) => e.map((x) => x.textContent)), ['F', 'G', 'H']);
  assert.equal(await page.textContent('.qb-hint'), L.hintMultiple);
  await page.keyboard.press('g');
  assert.equal(await page.getAttribute('.qb-option:nth-child(2)', 'aria-checked'), 'true');
  await ctx.close();
});
