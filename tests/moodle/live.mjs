// tests/moodle/live.mjs - README.md's phone recipe on a live Moodle: a
// learner on a 360x640 touch phone (Chromium's mobile emulation) with the
// pop-up blocker ON, as a phone's browser has it, goes from the course page
// to the quiz and finishes an attempt; the teacher's gradebook shows it.
// For each activity tests/moodle/setup.php made (phone-cw, phone-nw: the
// two ways README.md gives; old-nw: the earlier recipe; default: Moodle's
// defaults) it counts the taps from the course page to the first question
// and measures the first screen: where the frame starts and ends, whether
// the page scrolls, what covers the frame's left edge, Moodle's table of
// contents toggle.  Each screen is saved as a PNG (tests/screenshots/ with
// UPDATE=1, else a temporary folder) and the measurements are printed.
//
//   MOODLE_URL=http://localhost:8080 node tests/moodle/live.mjs
//
// With no Moodle answering at MOODLE_URL it prints one "skip" line and
// exits 0.  Stand one up with tests/moodle/setup.sh (tests/README.md).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const TESTS = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { chromium } = createRequire(path.join(TESTS, 'package.json'))('playwright-core');
const URL0 = (process.env.MOODLE_URL || '').replace(/\/$/, '');
const PASSWORD = process.env.MOODLE_PASSWORD || 'Qbc-test-1';
const PHONE = { width: 360, height: 640 };

async function reachable() {
  if (!URL0) return 'MOODLE_URL is not set';
  try {
    const r = await fetch(`${URL0}/login/index.php`, { signal: AbortSignal.timeout(5000) });
    const body = await r.text();
    return r.ok && /moodle/i.test(body) ? '' : `${URL0} answered ${r.status} but is not a Moodle`;
  } catch (e) {
    return `no Moodle answers at ${URL0} (${e.cause?.code || e.message})`;
  }
}
const why = await reachable();
if (why) {
  console.log(`# skip tests/moodle/live.mjs: ${why}; see "A live Moodle" in tests/README.md`);
  process.exit(0);
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'qbc-moodle-live-'));
const SHOTS = process.env.UPDATE ? path.join(TESTS, 'screenshots') : path.join(tmp, 'shots');
mkdirSync(SHOTS, { recursive: true });
const measured = {};
let browser;

/** A phone: a persistent profile with pop-ups blocked (Chromium's content
 * setting; Playwright's --disable-popup-blocking left out), 360x640, touch. */
async function phone(name) {
  const dir = path.join(tmp, name);
  mkdirSync(path.join(dir, 'Default'), { recursive: true });
  writeFileSync(path.join(dir, 'Default', 'Preferences'),
    JSON.stringify({ profile: { default_content_setting_values: { popups: 2 } } }));
  const ctx = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'], ignoreDefaultArgs: ['--disable-popup-blocking'],
    viewport: PHONE, screen: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 1,
  });
  const page = ctx.pages()[0] || await ctx.newPage();
  // The blocker is on: a window.open() not started by a tap gets nothing.
  // (Playwright's evaluate() counts as a tap, so a page's own script asks.)
  await page.goto('data:text/html,<script>window.opened = !!window.open("about:blank")</script>');
  assert.equal(await page.evaluate(() => window.opened), false, 'the pop-up blocker is off');
  return { ctx, page };
}

async function login(page, user) {
  await page.goto(`${URL0}/login/index.php`);
  await page.fill('#username', user);
  await page.fill('#password', PASSWORD);
  await page.click('#loginbtn');
  await page.waitForURL((u) => !/login\/index\.php/.test(u.href), { timeout: 60000 })
    .catch(() => assert.fail(`${user} could not log in`));
}

/** The course PHONE's page, as a learner reaches it (not a tap counted). */
async function coursePage(page) {
  await page.goto(`${URL0}/course/search.php?search=PHONE`);
  const href = await page.locator('.coursename a, a.aalink.coursename').first().getAttribute('href');
  await page.goto(href);
  await page.waitForLoadState('load');
  return href;
}

/** Everything on the first screen of the page holding the SCO's frame. */
async function firstScreen(page) {
  await page.waitForSelector('#scorm_object', { timeout: 20000 });
  await page.waitForTimeout(1500); // Moodle sizes the frame after load
  return page.evaluate(() => {
    const f = document.getElementById('scorm_object').getBoundingClientRect();
    const vis = (el) => { if (!el) return null; const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
      return r.width && r.height && s.visibility !== 'hidden' && s.display !== 'none'
        ? `${Math.round(r.width)}x${Math.round(r.height)} at ${Math.round(r.left)},${Math.round(r.top)}` : null; };
    const y = Math.min(innerHeight - 10, Math.max(f.top + 100, 100));
    const atLeft = document.elementFromPoint(8, y);
    const atCorner = document.elementFromPoint(innerWidth - 20, innerHeight - 20);
    const cover = (el) => (el && el.id !== 'scorm_object' ? (el.closest('button, a, [role=button]') || el).className || el.tagName : null);
    return {
      innerWidth, innerHeight,
      frameTop: Math.round(f.top), frameHeight: Math.round(f.height), frameWidth: Math.round(f.width),
      shareOfFirstScreen: Math.round(100 * Math.max(0, Math.min(innerHeight, f.bottom) - Math.max(0, f.top)) / innerHeight),
      // How far the learner can scroll Moodle's page (not the frame): none
      // when its root is overflow: hidden (scrollTo() would still move it).
      pageScrollsDown: getComputedStyle(document.documentElement).overflowY === 'hidden' ? 0
        : (scrollTo(0, 1e5), Math.round(scrollY)) + (scrollTo(0, 0), 0),
      pageBelowScreen: document.documentElement.scrollHeight - innerHeight,
      pageScrollsSideways: document.documentElement.scrollWidth - innerWidth,
      tocToggle: vis(document.getElementById('scorm_toc_toggle')),
      coursIndexButton: vis(document.querySelector('.drawer-toggles .drawer-toggler, .drawer-left-toggle')),
      leftEdgeCoveredBy: cover(atLeft), cornerCoveredBy: cover(atCorner),
    };
  });
}

/** The SCO's frame once the player has started. */
async function scoFrame(page) {
  await page.waitForSelector('#scorm_object');
  for (let i = 0; i < 300; i++) {
    const f = page.frames().find((fr) => /pluginfile\.php/.test(fr.url()));
    // a first visit shows the start screen; a later one, after a finished
    // attempt, the results with 'Try again'
    if (f && await f.locator('#start, #check, #score').count()) return f;
    await page.waitForTimeout(200);
  }
  throw new Error('the SCO did not start in its frame');
}

/** Taps through the whole quiz (any answer), as a learner would. */
async function finishAttempt(frame) {
  // A later visit, after a finished attempt: Moodle opens the package in
  // its review mode, and the player shows the results (no new attempt).
  const later = await frame.locator('#score').count() > 0;
  if (later) return { questions: 0, score: (await frame.locator('#score').innerText()).trim(), laterVisit: true };
  if (await frame.locator('#start').count()) await frame.locator('#start').tap();
  let n = 0;
  for (; n < 50; n++) {
    await frame.waitForSelector('#check, #score');
    if (await frame.locator('#score').count()) break;
    if (await frame.locator('.option input').count()) await frame.locator('.option label, .option').first().tap();
    if (await frame.locator('.answer-box').count()) await frame.locator('.answer-box').fill('1');
    for (const s of await frame.locator('.match-select, .gap-select').all()) await s.selectOption({ index: 1 });
    for (const t of await frame.locator('.gap-input').all()) await t.fill('x');
    await frame.locator('#check').tap();
    await frame.waitForSelector('.result');
    await frame.locator('#next').tap();
  }
  await frame.waitForSelector('#score');
  return { questions: n, score: (await frame.locator('#score').innerText()).trim(), laterVisit: false };
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(SHOTS, name) });
}

before(async () => { browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true, args: ['--no-sandbox', '--disable-gpu'] }); });
after(async () => {
  await browser?.close();
  console.log(JSON.stringify(measured, null, 1));
  if (!process.env.UPDATE) console.log(`# screenshots in ${SHOTS}`);
  if (!process.env.KEEP) rmSync(tmp, { recursive: true, force: true });
});

test('current window (README): one tap from the course page to the quiz, the attempt graded', { timeout: 120000 }, async () => {
  const { ctx, page } = await phone('cw');
  try {
    await login(page, 'student');
    await coursePage(page);
    await page.getByRole('link', { name: 'Quiz (phone, this window)' }).first().tap();
    const m = await firstScreen(page);
    m.taps = 1; m.popupsOpened = ctx.pages().length - 1;
    measured['phone-cw'] = m;
    await shot(page, 'moodle-phone-cw.png');
    m.attempt = await finishAttempt(await scoFrame(page));
    await page.waitForTimeout(1000);
    assert.equal(m.pageScrollsSideways, 0, 'the page scrolls sideways');
    assert.equal(m.tocToggle, null, 'the table of contents toggle shows');
    // a later visit adds Moodle's 'Review mode' line (46 px) above the frame
    const top = m.attempt.laterVisit ? 153 : 107;
    assert.ok(m.frameTop <= top, `the frame starts ${m.frameTop} px down (under Moodle's top bar and Exit activity)`);
    assert.ok(m.pageScrollsDown <= 0, `the page scrolls ${m.pageScrollsDown} px`);
    assert.equal(m.leftEdgeCoveredBy, null, `the frame's left edge is covered by ${m.leftEdgeCoveredBy}`);
  } finally { await ctx.close(); }
});

test('new window (README): one tap on Enter opens the quiz full screen past the blocker, the attempt graded', { timeout: 120000 }, async () => {
  const { ctx, page } = await phone('nw');
  try {
    await login(page, 'student');
    await coursePage(page);
    await page.getByRole('link', { name: 'Quiz (phone, new window)' }).first().tap();
    await page.waitForSelector('#scormviewform button[value=normal]');
    await shot(page, 'moodle-phone-nw-enter.png');
    const [win] = await Promise.all([ctx.waitForEvent('page', { timeout: 10000 }),
      page.locator('#scormviewform button[value=normal]').tap()]);
    await win.waitForLoadState('load');
    const m = await firstScreen(win);
    m.taps = 2; m.enterButton = true;
    measured['phone-nw'] = m;
    await shot(win, 'moodle-phone-nw.png');
    m.attempt = await finishAttempt(await scoFrame(win));
    await win.waitForTimeout(1000);
    await win.close();
    assert.equal(m.pageScrollsSideways, 0, 'the page scrolls sideways');
    assert.equal(m.tocToggle, null, 'the table of contents toggle shows');
    assert.ok(m.frameTop <= (m.attempt.laterVisit ? 47 : 1), `the frame starts ${m.frameTop} px down`);
    assert.ok(m.pageScrollsDown <= (m.attempt.laterVisit ? 46 : 0), `the page scrolls ${m.pageScrollsDown} px`);
  } finally { await ctx.close(); }
});

test('earlier recipe (new window, Skip: Always): the blocker stops the window, no Enter button', { timeout: 120000 }, async () => {
  const { ctx, page } = await phone('old');
  try {
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await login(page, 'student');
    await coursePage(page);
    await page.getByRole('link', { name: 'Quiz (earlier recipe)' }).first().tap();
    await page.waitForURL(/mod\/scorm\/view\.php/);
    await page.waitForLoadState('load');
    await page.waitForTimeout(2500);
    const m = { windows: ctx.pages().length, enterButton: await page.locator('#scormviewform button').count(),
      text: (await page.locator('#intro').innerText().catch(() => '')).trim(), errors };
    measured['old-nw'] = m;
    await shot(page, 'moodle-old-nw.png');
    assert.equal(m.windows, 1, 'a window opened');
    assert.equal(m.enterButton, 0);
  } finally { await ctx.close(); }
});

test("Moodle's defaults (current window): where the frame starts", { timeout: 120000 }, async () => {
  const { ctx, page } = await phone('def');
  try {
    await login(page, 'student');
    await coursePage(page);
    await page.getByRole('link', { name: 'Quiz (Moodle defaults)' }).first().tap();
    await page.waitForURL(/mod\/scorm\/(view|player)\.php/);
    await page.waitForLoadState('load');
    let taps = 1;
    if (!(await page.locator('#scorm_object').count())) {
      await Promise.all([page.waitForNavigation(), page.locator('#scormviewform button[value=normal]').tap()]);
      taps++;
    }
    const m = await firstScreen(page);
    m.taps = taps;
    measured.default = m;
    await shot(page, 'moodle-default.png');
  } finally { await ctx.close(); }
});

test("the teacher's gradebook records both attempts", { timeout: 120000 }, async () => {
  const ctx = await browser.newContext({ viewport: { width: 900, height: 900 } });
  const page = await ctx.newPage();
  try {
    await login(page, 'teacher');
    const course = await coursePage(page);
    const id = new URL(course).searchParams.get('id');
    await page.goto(`${URL0}/grade/report/grader/index.php?id=${id}`);
    const grades = await page.evaluate(() => {
      const heads = [...document.querySelectorAll('th.item, th.header')].map((th) => th.innerText.trim().split('\n').pop().trim());
      const row = [...document.querySelectorAll('tr')].find((tr) => /Amina/.test(tr.innerText));
      return { heads, row: row ? [...row.querySelectorAll('td, th')].map((c) => c.innerText.trim().split('\n')[0].trim()) : null };
    });
    measured.gradebook = grades;
    assert.ok(grades.row, 'no row for the student in the grader report');
    const graded = grades.row.filter((c) => /^\d+(\.\d+)?$/.test(c));
    assert.ok(graded.length >= 2, `the grader report shows ${graded.length} grades: ${grades.row.join(' | ')}`);
    // The teacher's settings page, Appearance section, for the README.
    const cm = await page.evaluate(async (u) => {
      const html = await (await fetch(u)).text();
      const m = html.match(/mod\/scorm\/view\.php\?id=(\d+)[^>]*>[^<]*<span class="instancename">Quiz \(phone, this window\)/);
      return m && m[1];
    }, course);
    if (cm) {
      await page.goto(`${URL0}/course/modedit.php?update=${cm}`);
      await page.click('#id_displaysettings .ftoggler a, #collapseElement-3, a[href="#id_displaysettingscontainer"]').catch(() => {});
      await page.locator('#id_displaysettings .moreless-toggler').click().catch(() => {});
      await page.waitForTimeout(500);
      await page.locator('#id_displaysettings').screenshot({ path: path.join(SHOTS, 'moodle-settings.png') });
    }
  } finally { await ctx.close(); }
});
