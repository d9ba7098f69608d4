// tests/browser/scorm.test.mjs - the SCORM player end to end in headless
// Chromium, with scorm-again as the LMS (SCORM 1.2 and 2004).
//
// A local node:http server on 127.0.0.1 serves the unzipped packages and a
// host page that installs scorm-again's API as window.API / API_1484_11 and
// loads the SCO in an iframe, as Moodle does.  Every request is checked
// with page.route: anything outside the server (or, standalone, outside the
// unpacked package) fails the test, as does any console error.
//
//   cd tests && QBC=$PWD/../build/qbc node --test browser/scorm.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TESTS, launch, qbc, tempDir, unzip } from './lib.mjs';

const BANKDIR = path.join(TESTS, 'scorm');
const SHOTS = path.join(TESTS, 'screenshots');
const AGAIN = path.join(TESTS, 'node_modules', 'scorm-again', 'dist');
// The demo bank: question ids and the correct option ids, in order.
const IDS = ['first-question', 'gradient-sync', 'script-text', 'batch-size', 'comm-cost'];
const RIGHT = ['a', 'ab', 'a', 'b', 'a'];

let tmp, server, base, browser;
const pkg = {};

const HOST_JS = `
const cfg = JSON.parse(decodeURIComponent(location.hash.slice(1) || '{}'));
const v12 = cfg.v === '1.2';
const api = v12 ? new Scorm12API({ autocommit: false, logLevel: 4 })
                : new Scorm2004API({ autocommit: false, logLevel: 4 });
if (cfg.init) api.loadFromJSON(cfg.init, '');
window.lmsLog = [];
window.lmsCalls = [];
api.on(v12 ? 'LMSSetValue.cmi.*' : 'SetValue.cmi.*', (el, value) => window.lmsLog.push([el, value]));
// Commits fail while window.lmsFailCommits is true (the test turns it off).
window.lmsFailCommits = !!cfg.failCommits;
for (const fn of v12 ? ['LMSInitialize', 'LMSCommit', 'LMSFinish'] : ['Initialize', 'Commit', 'Terminate']) {
  const orig = api[fn].bind(api);
  api[fn] = (a) => { window.lmsCalls.push(fn); if (fn.endsWith('Commit') && window.lmsFailCommits) return 'false'; return orig(a); };
}
if (cfg.failSet) {
  const setFn = v12 ? 'LMSSetValue' : 'SetValue';
  const orig = api[setFn].bind(api);
  let fails = cfg.failSetCount || 1;
  api[setFn] = (el, value) => {
    if (fails > 0 && new RegExp(cfg.failSet).test(el)) { fails--; return 'false'; }
    return orig(el, value);
  };
}
if (v12) window.API = api; else window.API_1484_11 = api;
if (cfg.height) document.getElementById('sco').style.height = cfg.height + 'px';
document.getElementById('sco').src = '/pkg' + (cfg.pkg || (v12 ? '12' : '2004')) + '/index.html';
`;
const HOST_HTML = (v) => `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>LMS</title>
<script src="/lms/${v === '1.2' ? 'scorm12' : 'scorm2004'}.js"></script></head>
<body style="margin:0"><iframe id="sco" title="Quiz" style="width:100%;height:1000px;border:0"></iframe>
<script src="/host.js"></script></body></html>`;

function serveFile(res, file) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.xml': 'text/xml',
    '.wav': 'audio/wav', '.woff2': 'font/woff2' };
  if (!existsSync(file) || !statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'content-type': (types[path.extname(file)] || 'application/octet-stream') + '; charset=utf-8' });
  res.end(readFileSync(file));
}

before(async () => {
  tmp = tempDir('qbc-scorm-');
  const out = path.join(tmp.dir, 'out');
  // Build from copies: qbc keeps a revision record (.lock) next to a bank.
  const bank = path.join(tmp.dir, 'bank');
  cpSync(path.join(BANKDIR, 'demo.qb'), path.join(bank, 'demo.qb'));
  cpSync(path.join(BANKDIR, 'media'), path.join(bank, 'media'), { recursive: true });
  const r = qbc(['build', '-o', out, '--format', 'scorm12,scorm2004', path.join(bank, 'demo.qb')]);
  assert.equal(r.status, 0, r.stderr);
  for (const v of ['12', '2004']) {
    pkg[v] = path.join(tmp.dir, 'pkg' + v);
    mkdirSync(pkg[v]);
    unzip(path.join(out, `demo.scorm${v}.zip`), pkg[v]);
  }
  // The same bank without a pass mark.
  const nopass = path.join(tmp.dir, 'nopass');
  mkdirSync(nopass);
  writeFileSync(path.join(nopass, 'demo.qb'),
    readFileSync(path.join(BANKDIR, 'demo.qb'), 'utf8').replace(/^pass-mark:.*\n/m, ''));
  cpSync(path.join(BANKDIR, 'media'), path.join(nopass, 'media'), { recursive: true });
  const rn = qbc(['build', '-o', path.join(nopass, 'out'), '--format', 'scorm12,scorm2004', path.join(nopass, 'demo.qb')]);
  assert.equal(rn.status, 0, rn.stderr);
  for (const v of ['12', '2004']) {
    pkg['nopass' + v] = path.join(tmp.dir, 'pkgnopass' + v);
    mkdirSync(pkg['nopass' + v]);
    unzip(path.join(nopass, 'out', `demo.scorm${v}.zip`), pkg['nopass' + v]);
  }
  // Version 2 of the demo bank: the same bank and revision record with
  // question 2 removed, as an author would regenerate it.
  const b2 = readFileSync(path.join(bank, 'demo.qb'), 'utf8');
  const cut = b2.replace(/^2\. gradient-sync\n[\s\S]*?(?=^3\. )/m, '');
  assert.notEqual(cut, b2, 'question 2 removed from the demo bank');
  writeFileSync(path.join(bank, 'demo.qb'), cut);
  const r2 = qbc(['build', '-o', path.join(tmp.dir, 'out2'), '--format', 'scorm12', path.join(bank, 'demo.qb')]);
  assert.equal(r2.status, 0, r2.stderr);
  assert.match(r2.stdout, /1 removed \(gradient-sync\)/);
  pkg.v2 = path.join(tmp.dir, 'pkgv2');
  mkdirSync(pkg.v2);
  unzip(path.join(tmp.dir, 'out2', 'demo.scorm12.zip'), pkg.v2);
  // Every question type, and a drawn, shuffled pool (tests/browser/types/).
  const tb = path.join(tmp.dir, 'types');
  cpSync(path.join(TESTS, 'browser', 'types'), tb, { recursive: true });
  for (const name of ['types', 'pool']) {
    const rt = qbc(['build', '-o', path.join(tb, 'out'), '--format', 'scorm12,scorm2004', path.join(tb, name + '.qb')]);
    assert.equal(rt.status, 0, rt.stderr);
    for (const v of ['12', '2004']) {
      pkg[name + v] = path.join(tmp.dir, 'pkg' + name + v);
      mkdirSync(pkg[name + v]);
      unzip(path.join(tb, 'out', `${name}.scorm${v}.zip`), pkg[name + v]);
    }
  }
  server = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    const p = decodeURIComponent(u.pathname);
    if (p === '/host12.html' || p === '/host2004.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(HOST_HTML(p === '/host12.html' ? '1.2' : '2004'));
    } else if (p === '/host.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(HOST_JS);
    } else if (p === '/lms/scorm12.js' || p === '/lms/scorm2004.js') {
      serveFile(res, path.join(AGAIN, path.basename(p)));
    } else {
      const m = p.match(/^\/pkg([a-z0-9]+)\/(.+)$/);
      if (m && pkg[m[1]] && !m[2].includes('..')) serveFile(res, path.join(pkg[m[1]], m[2]));
      else { res.writeHead(404); res.end(); }
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.close();
  if (tmp) tmp.cleanup();
});

/** A fresh page that records console errors, dialogs and foreign requests. */
async function newPage(opts = {}) {
  const context = await browser.newContext({ viewport: opts.viewport || { width: 900, height: 1000 }, locale: opts.locale || 'en-US' });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console error: ' + m.text()); });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('dialog', (d) => { problems.push('dialog: ' + d.message()); d.dismiss(); });
  const allowed = opts.allowed || [base + '/'];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (allowed.some((a) => url.startsWith(a))) return route.continue();
    problems.push('request outside the package: ' + url);
    return route.abort();
  });
  page.problems = problems;
  page.done = async () => {
    await context.close();
    assert.deepEqual(problems, [], problems.join('\n'));
  };
  return page;
}

/** Opens the host page (LMS + iframe); returns {page, frame}. */
async function openLms(v, cfg = {}, opts = {}) {
  const page = await newPage({ ...opts, allowed: [base + '/host', base + '/lms/', base + `/pkg${cfg.pkg || (v === '1.2' ? '12' : '2004')}/`] });
  await page.goto(`${base}/host${v === '1.2' ? '12' : '2004'}.html#` + encodeURIComponent(JSON.stringify({ v, ...cfg })));
  const frame = page.frameLocator('#sco');
  await frame.locator('#main h1, #main h2').first().waitFor();
  return { page, frame };
}

async function scoFrame(page) {
  for (let i = 0; i < 50; i++) {
    const f = page.frames().find((x) => x.url().includes('/index.html'));
    if (f) return f;
    await new Promise((ok) => setTimeout(ok, 50));
  }
  throw new Error('SCO frame not found');
}

/** Answers the question on screen with the option ids in letters. */
async function answer(frame, letters, next = true) {
  for (const l of letters) await frame.locator(`input[value="${l}"]`).check();
  await frame.locator('#check').click();
  await frame.locator('.result').waitFor();
  if (next) await frame.locator('#next').click();
}

async function lms(page) {
  return page.evaluate(() => {
    const last = {};
    for (const [el, v] of window.lmsLog) last[el] = v;
    return { last, log: window.lmsLog, calls: window.lmsCalls };
  });
}

function interactions(last) {
  const out = [];
  for (let n = 0; last[`cmi.interactions.${n}.id`] !== undefined; n++) {
    const g = (k) => last[`cmi.interactions.${n}.${k}`];
    out.push({ id: g('id'), type: g('type'), response: g('student_response') ?? g('learner_response'),
      pattern: g('correct_responses.0.pattern'),
      patterns: Array.from({ length: 20 }, (_, i) => g(`correct_responses.${i}.pattern`)).filter((x) => x !== undefined), result: g('result'), latency: g('latency'),
      time: g('time') ?? g('timestamp'), description: g('description') });
  }
  return out;
}

// Moodle 4.5.6's own value rules (shared/docs/scorm-moodle.md §3), which
// are stricter than scorm-again's in places (§10).  Every value the player
// sets must pass them; an element missing from the table fails too.
const DEC12 = (v) => /^-?([0-9]{0,3})(\.[0-9]*)?$/.test(v) && +v >= 0 && +v <= 100;
const TIMESPAN12 = /^([0-9]{2,4}):([0-9]{2}):([0-9]{2})(\.[0-9]{1,2})?$/;
const DURATION = /^P(?:([.,\d]+)Y)?(?:([.,\d]+)M)?(?:([.,\d]+)W)?(?:([.,\d]+)D)?(?:T?(?:([.,\d]+)H)?(?:([.,\d]+)M)?(?:([.,\d]+)S)?)?$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
// Responses and correct patterns per interaction type: 1.2's CMIFeedback
// (Moodle checks CMIString256 in standards mode; the spec's per-type forms)
// and Moodle's 2004 learner_response / correct_responses tables
// (scorm_13.js: delimiters, node counts, formats, prefixes).
const ID1 = '[0-9a-z]';
const RESPONSE12 = {
  'choice': (v) => new RegExp(`^${ID1}(,${ID1})*$`).test(v),
  'true-false': (v) => /^[01tf]$/.test(v),
  'fill-in': (v) => v.length <= 255,
  'numeric': (v) => v.length <= 255 && /^-?[0-9.]+(:-?[0-9.]+)?$/.test(v),
  'matching': (v) => new RegExp(`^${ID1}\\.${ID1}(,${ID1}\\.${ID1})*$`).test(v),
};
const SHORT_ID = /^[\w.]{1,250}$/;
const DEC2004 = /^-?([0-9]{1,5})(\.[0-9]{1,18})?$/;
const PREFIX = /^\{(lang|case_matters|order_matters)=([^}]+)\}/;
const RESPONSE2004 = {
  'choice': (v) => { const n = v.split('[,]'); return n.length <= 36 && new Set(n).size === n.length && n.every((x) => SHORT_ID.test(x)); },
  'true-false': (v) => /^(true|false)$/.test(v),
  'fill-in': (v, pattern) => {
    const n = v.split('[,]');
    return n.length <= 10 && n.every((x) => {
      if (!pattern) return true;
      let m;
      while ((m = PREFIX.exec(x))) {
        if (m[1] !== 'lang' && !['true', 'false'].includes(m[2])) return false;
        x = x.slice(m[0].length);
      }
      return /^.{0,250}$/.test(x);
    });
  },
  'numeric': (v, pattern) => {
    if (!pattern) return DEC2004.test(v);
    const n = v.split('[:]');
    return n.length <= 2 && n.every((x) => DEC2004.test(x)) && (n.length < 2 || +n[0] <= +n[1]);
  },
  'matching': (v) => { const n = v.split('[,]'); return n.length <= 36 && n.every((x) => { const p = x.split('[.]'); return p.length === 2 && p.every((y) => SHORT_ID.test(y)); }); },
};
const RULES = {
  '1.2': [
    [/^cmi\.core\.lesson_status$/, (v) => ['passed', 'completed', 'failed', 'incomplete', 'browsed'].includes(v)],
    [/^cmi\.core\.score\.(raw|min|max)$/, DEC12],
    [/^cmi\.core\.session_time$/, (v) => TIMESPAN12.test(v)],
    [/^cmi\.core\.exit$/, (v) => ['time-out', 'suspend', 'logout', ''].includes(v)],
    [/^cmi\.core\.lesson_location$/, (v) => v.length <= 255],
    [/^cmi\.suspend_data$/, (v) => v.length <= 4096], // standards mode
    [/^cmi\.student_preference\.language$/, (v) => v.length <= 255],
    [/^cmi\.interactions\.\d+\.id$/, (v) => /^[\u0021-\u007E]{1,255}$/.test(v)],
    [/^cmi\.interactions\.\d+\.type$/, (v) => ['true-false', 'choice', 'fill-in', 'matching', 'numeric'].includes(v)],
    [/^cmi\.interactions\.\d+\.(student_response|correct_responses\.\d+\.pattern)$/, (v, type) => RESPONSE12[type](v)],
    [/^cmi\.interactions\.\d+\.result$/, (v) => ['correct', 'wrong', 'unanticipated', 'neutral'].includes(v)],
    [/^cmi\.interactions\.\d+\.time$/, (v) => /^([0-2][0-9]):([0-5][0-9]):([0-5][0-9])(\.[0-9]{1,2})?$/.test(v)],
    [/^cmi\.interactions\.\d+\.latency$/, (v) => TIMESPAN12.test(v)],
    [/^cmi\.interactions\.\d+\.weighting$/, (v) => +v >= -100 && +v <= 100],
  ],
  '2004': [
    [/^cmi\.completion_status$/, (v) => ['completed', 'incomplete', 'not attempted', 'unknown'].includes(v)],
    [/^cmi\.success_status$/, (v) => ['passed', 'failed', 'unknown'].includes(v)],
    [/^cmi\.score\.(raw|min|max)$/, (v) => /^-?([0-9]{1,5})(\.[0-9]{1,18})?$/.test(v)],
    [/^cmi\.score\.scaled$/, (v) => /^-?([0-9]{1,5})(\.[0-9]{1,18})?$/.test(v) && +v >= -1 && +v <= 1],
    [/^cmi\.session_time$/, (v) => DURATION.test(v)],
    [/^cmi\.exit$/, (v) => ['time-out', 'suspend', 'logout', 'normal', ''].includes(v)],
    [/^cmi\.location$/, (v) => v.length <= 1000],
    [/^cmi\.suspend_data$/, (v) => v.length <= 64000],
    [/^cmi\.learner_preference\.language$/, (v) => /^([a-zA-Z]{2,3}|i|x)(-[a-zA-Z0-9-]{2,8})?$|^$/.test(v)],
    [/^cmi\.interactions\.\d+\.id$/, (v) => /^(?:(?!urn:)\S{1,4000}|urn:[A-Za-z0-9-]{1,31}:\S{1,4000})$/.test(v)],
    [/^cmi\.interactions\.\d+\.type$/, (v) => ['true-false', 'choice', 'fill-in', 'matching', 'numeric'].includes(v)],
    [/^cmi\.interactions\.\d+\.learner_response$/, (v, type) => RESPONSE2004[type](v, false)],
    [/^cmi\.interactions\.\d+\.correct_responses\.\d+\.pattern$/, (v, type) => RESPONSE2004[type](v, true)],
    [/^cmi\.interactions\.\d+\.result$/, (v) => ['correct', 'incorrect', 'unanticipated', 'neutral'].includes(v)],
    [/^cmi\.interactions\.\d+\.description$/, (v) => /^(\{lang=([a-zA-Z]{2,3}|i|x)(-[a-zA-Z0-9-]{2,8})?\})?((?!\{.*$).{0,250}$)?/u.test(v) && v.replace(/^\{lang=[^}]*\}/, '').length <= 250],
    [/^cmi\.interactions\.\d+\.timestamp$/, (v) => TIMESTAMP.test(v)],
    [/^cmi\.interactions\.\d+\.latency$/, (v) => DURATION.test(v)],
    [/^cmi\.interactions\.\d+\.weighting$/, (v) => /^-?\d+(\.\d+)?$/.test(v)],
  ],
};
function moodleRules(v, log) {
  const bad = [], types = {};
  for (const [el, value] of log) {
    const rule = RULES[v].find(([re]) => re.test(el));
    const n = /^cmi\.interactions\.(\d+)\./.exec(el);
    if (n && el.endsWith('.type')) types[n[1]] = value;
    if (!rule) bad.push(`${el}: no Moodle rule known`);
    else if (!rule[1](String(value), n && types[n[1]])) bad.push(`${el} = ${JSON.stringify(value)}: Moodle would reject it`);
  }
  assert.deepEqual(bad, [], bad.join('\n'));
}

// ---------------------------------------------------------------- SCORM 1.2

test('1.2: all answers correct gives 100 and passed, with interactions', async () => {
  const { page, frame } = await openLms('1.2');
  await frame.locator('#start').click();
  await answer(frame, RIGHT[0]);
  let s = await lms(page);
  assert.equal(s.last['cmi.core.lesson_status'], 'incomplete');
  assert.equal(s.last['cmi.core.exit'], 'suspend');
  assert.equal(s.last['cmi.core.score.raw'], undefined, 'no raw score before the end');
  for (let i = 1; i < 5; i++) await answer(frame, RIGHT[i]);
  await frame.locator('#score').waitFor();
  s = await lms(page);
  assert.equal(s.last['cmi.core.score.raw'], '100');
  assert.equal(s.last['cmi.core.score.min'], '0');
  assert.equal(s.last['cmi.core.score.max'], '100');
  assert.equal(s.last['cmi.core.lesson_status'], 'passed');
  assert.equal(s.last['cmi.student_preference.language'], 'en');
  const it = interactions(s.last);
  assert.deepEqual(it.map((x) => x.id), IDS);
  assert.deepEqual(it.map((x) => x.response), ['a', 'a,b', 'a', 'b', 'a']);
  assert.deepEqual(it.map((x) => x.pattern), ['a', 'a,b', 'a', 'b', 'a']);
  assert.deepEqual(it.map((x) => x.result), Array(5).fill('correct'));
  for (const x of it) {
    assert.equal(x.type, 'choice');
    assert.match(x.latency, /^\d{2,4}:\d{2}:\d{2}$/);
    assert.match(x.time, /^\d{2}:\d{2}:\d{2}$/);
    assert.match(x.id, /^[\u0021-\u007E]{1,255}$/);
  }
  assert.ok(s.calls.filter((c) => c === 'LMSCommit').length >= 5, 'a commit after every answer');
  assert.match(await frame.locator('#score').textContent(), /100%/);
  assert.equal(await frame.locator('#again').count(), 0, 'no "try again" inside an LMS');
  // Leaving the page finishes the session.
  await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
  await page.waitForFunction(() => window.lmsCalls.includes('LMSFinish'));
  s = await lms(page);
  assert.match(s.last['cmi.core.session_time'], /^\d{2,4}:\d{2}:\d{2}$/);
  assert.equal(s.last['cmi.core.exit'], '');
  moodleRules('1.2', s.log);
  await page.done();
});

test('1.2: wrong answers give the right percentage and failed', async () => {
  const { page, frame } = await openLms('1.2');
  await frame.locator('#start').click();
  const given = ['b', 'a', 'a', 'b', 'a']; // 3 of 5 correct
  for (const g of given) await answer(frame, g);
  await frame.locator('#score').waitFor();
  const s = await lms(page);
  assert.equal(s.last['cmi.core.score.raw'], '60');
  assert.equal(s.last['cmi.core.lesson_status'], 'failed');
  const it = interactions(s.last);
  assert.deepEqual(it.map((x) => x.response), given);
  assert.deepEqual(it.map((x) => x.result), ['wrong', 'wrong', 'correct', 'correct', 'correct']);
  assert.match(await frame.locator('#verdict').textContent(), /Not passed/);
  assert.equal(await frame.locator('.review-item.is-wrong').count(), 2);
  moodleRules('1.2', s.log);
  await page.done();
});

test('1.2: feedback, marker and explanation are revealed; the answer is locked', async () => {
  const { page, frame } = await openLms('1.2');
  await frame.locator('#start').click();
  await answer(frame, 'b', false);
  assert.match(await frame.locator('.result').textContent(), /✗\s*Incorrect/);
  assert.match(await frame.locator('.option.is-correct').textContent(), /✓ Correct answer/);
  assert.match(await frame.locator('.option.is-wrong').textContent(), /✗ Your choice/);
  assert.equal(await frame.locator('.feedback').count(), 2, 'the feedback of every option');
  assert.match(await frame.locator('.expl-text').textContent(), /whole model/);
  assert.equal(await frame.locator('input:disabled').count(), 2, 'answer locked');
  // The other language is one tap away.
  const other = frame.locator('.other-btn');
  assert.equal(await other.getAttribute('aria-expanded'), 'false');
  await other.click();
  assert.equal(await frame.locator('.expl-other').getAttribute('lang'), 'sw');
  assert.ok(await frame.locator('.expl-other').isVisible());
  assert.match(await frame.locator('#announce').textContent({ timeout: 1000 }) || '', /Incorrect|^$/);
  await page.done();
});

test('1.2: switching language mid-quiz keeps answers and writes the preference', async () => {
  const { page, frame } = await openLms('1.2');
  await frame.locator('#start').click();
  await answer(frame, RIGHT[0]);
  await frame.locator('input[value="a"]').check(); // pending choice on question 2
  await frame.locator('button[data-lang="sw"]').click();
  assert.equal(await frame.locator('html').getAttribute('lang'), 'sw');
  assert.match(await frame.locator('.qnum').textContent(), /Swali 2 kati ya 5/);
  assert.match(await frame.locator('.prompt').textContent(), /Ni hatua zipi/);
  assert.ok(await frame.locator('input[value="a"]').isChecked(), 'pending choice kept');
  assert.equal(await frame.locator('button[data-lang="sw"]').getAttribute('aria-pressed'), 'true');
  await frame.locator('#prev').click();
  assert.ok(await frame.locator('input[value="a"]').isChecked());
  assert.ok(await frame.locator('input[value="a"]').isDisabled());
  assert.match(await frame.locator('.result').textContent(), /Sahihi/);
  const s = await lms(page);
  assert.equal(s.last['cmi.student_preference.language'], 'sw');
  assert.match(s.last['cmi.suspend_data'], /^2\|sw\|/);
  // Every text carries a lang attribute: the active language, except the
  // explanation in the other language.
  const langs = await frame.locator('#main [lang]:not(.expl-other)').evaluateAll((els) => els.map((e) => e.getAttribute('lang')));
  assert.ok(langs.length > 5 && langs.every((l) => l === 'sw'), langs.join(','));
  assert.equal(await frame.locator('.expl-other').getAttribute('lang'), 'en');
  await page.done();
});

test('1.2: reloading with the saved state resumes answers, position and language', async () => {
  let { page, frame } = await openLms('1.2');
  await frame.locator('#start').click();
  await answer(frame, 'b');
  await answer(frame, RIGHT[1]);
  await frame.locator('button[data-lang="sw"]').click();
  const saved = (await lms(page)).last;
  await page.done();
  const init = {
    suspend_data: saved['cmi.suspend_data'],
    core: { entry: 'resume', lesson_location: saved['cmi.core.lesson_location'] },
  };
  ({ page, frame } = await openLms('1.2', { init }));
  await frame.locator('.qnum').waitFor();
  assert.match(await frame.locator('.qnum').textContent(), /Swali 3 kati ya 5/);
  assert.equal(await frame.locator('html').getAttribute('lang'), 'sw');
  for (let i = 2; i < 5; i++) await answer(frame, RIGHT[i]);
  await frame.locator('#score').waitFor();
  const s = await lms(page);
  assert.equal(s.last['cmi.core.score.raw'], '80');
  assert.equal(s.last['cmi.core.lesson_status'], 'passed');
  assert.deepEqual(interactions(s.last).map((x) => x.id), IDS.slice(2));
  await page.done();
});

test('1.2: the LMS language preference chooses the initial language', async () => {
  const { page, frame } = await openLms('1.2', { init: { student_preference: { language: 'sw' } } });
  assert.match(await frame.locator('h1').textContent(), /Maswali ya Majaribio/);
  await page.done();
});

test('1.2: the browser language is used when the LMS has none', async () => {
  const { page, frame } = await openLms('1.2', {}, { locale: 'sw-KE' });
  assert.match(await frame.locator('h1').textContent(), /Maswali ya Majaribio/);
  await page.done();
});

test('1.2: saved state from another build is migrated or ignored, never a crash', async () => {
  let { page } = await openLms('1.2');
  const f = await scoFrame(page);
  const qs = await f.evaluate(() => window.QB_DATA.questions.map((q) => [q.key, q.fp]));
  await page.done();
  // q1: options changed (other fingerprint); q4: still valid; a removed
  // question; a bad letter on q5.
  const state = `1|sw|${qs[3][0]}|ffffff.0000.a,${qs[0][0]}.0000.a,${qs[3][0]}.${qs[3][1]}.b,${qs[4][0]}.${qs[4][1]}.zz`;
  let frame;
  ({ page, frame } = await openLms('1.2', { init: { suspend_data: state } }));
  assert.match(await frame.locator('.qnum').textContent(), /Swali 4 kati ya 5/);
  assert.ok(await frame.locator('input[value="b"]').isDisabled(), 'q4 answer restored');
  const st = await (await scoFrame(page)).evaluate(() => window.qbPlayer.state());
  assert.equal(st, `2|sw|${qs[3][0]}|||${qs[3][0]}.${qs[3][1]}.b`, "a format-1 state is read and written as format 2");
  await page.done();
  for (const junk of ['garbage', '9|en||x', '1|xx|nope|a.b.c.d,,,', '{"v":1}']) {
    ({ page, frame } = await openLms('1.2', { init: { suspend_data: junk } }));
    await frame.locator('#start').waitFor();
    await page.done();
  }
});

test('regeneration: the saved state of version 1 loads in version 2 after a question was removed', async () => {
  // Version 1: answer questions 1-3 (the second one is removed in v2).
  let { page, frame } = await openLms('1.2');
  await frame.locator('#start').click();
  await answer(frame, RIGHT[0]);
  await answer(frame, RIGHT[1]);
  await answer(frame, 'b'); // question 3, wrong
  const { last } = await lms(page);
  const saved = last['cmi.suspend_data'];
  assert.ok(saved && saved.startsWith('2|'), 'v1 saved a state: ' + saved);
  await page.done();
  // Version 2, resumed with v1's state: the surviving answers come back,
  // the removed question's answer is dropped, nothing crashes.
  ({ page, frame } = await openLms('1.2', { pkg: 'v2', init: { suspend_data: saved, core: { entry: 'resume' } } }));
  const f = await scoFrame(page);
  const data = await f.evaluate(() => window.QB_DATA.questions.map((q) => q.id));
  assert.deepEqual(data, [IDS[0], IDS[2], IDS[3], IDS[4]]);
  const st = await f.evaluate(() => window.qbPlayer.state());
  const keys = await f.evaluate(() => window.QB_DATA.questions.map((q) => q.key));
  const answers = st.split("|")[5].split(',').filter(Boolean).map((x) => x.split('.'));
  assert.deepEqual(answers.map((a) => a[0]), [keys[0], keys[1]], 'answers of questions 1 and 3 restored: ' + st);
  assert.deepEqual(answers.map((a) => a[2]), ['a', 'b']);
  assert.match(await frame.locator('.qnum').textContent(), /Question 3 of 4/);
  // The learner finishes v2: two more answers, the score counts 4 questions.
  await answer(frame, RIGHT[3]);
  await answer(frame, RIGHT[4], false);
  await frame.locator('#next').click();
  const end = (await lms(page)).last;
  assert.equal(end['cmi.core.score.raw'], '75');
  assert.equal(end['cmi.core.lesson_status'], 'failed');
  await page.done();
});

test('1.2: API errors show a notice, keep the answers and retry the commit', async () => {
  // Commits fail at launch, on "start" and after the first answer.
  const { page, frame } = await openLms('1.2', { failCommits: true });
  await frame.locator('.notice-error').waitFor();
  await frame.locator('#start').click();
  await answer(frame, RIGHT[0], false);
  assert.match(await frame.locator('#notice').textContent(), /could not be sent/);
  assert.ok(await frame.locator('input[value="a"]').isChecked());
  assert.ok(await frame.locator('input[value="a"]').isDisabled(), 'the answer stands');
  // The LMS recovers: the retry goes through and the notice says so.
  await page.evaluate(() => { window.lmsFailCommits = false; });
  await frame.locator('#notice:not(.notice-error)').waitFor({ timeout: 40000 });
  assert.match(await frame.locator('#notice').textContent(), /Progress saved/);
  const s = await lms(page);
  assert.ok(s.calls.filter((c) => c === 'LMSCommit').length >= 4);
  assert.equal(interactions(s.last)[0].result, 'correct');
  await page.done();
});

test('2004: an interaction the LMS refuses once is written again', async () => {
  const { page, frame } = await openLms('2004', { failSet: '^cmi\\.interactions\\.0\\.result$' });
  await frame.locator('#start').click();
  await answer(frame, RIGHT[0], false);
  await frame.locator('.notice-error').waitFor();
  let s = await lms(page);
  assert.equal(s.last['cmi.interactions.0.result'], undefined);
  await frame.locator('#notice:not(.notice-error)').waitFor({ timeout: 15000 });
  s = await lms(page);
  assert.equal(s.last['cmi.interactions.0.id'], IDS[0]);
  assert.equal(s.last['cmi.interactions.0.result'], 'correct');
  await page.done();
});

test('1.2: the largest saved state matches what qbc computed', async () => {
  const { page, frame } = await openLms('1.2');
  await frame.locator('button[data-lang="sw"]').click();
  await frame.locator('#start').click();
  // Every option of the multiple-choice question, so the state is maximal.
  const all = ['a', 'abc', 'a', 'a', 'a'];
  for (let i = 0; i < 5; i++) await answer(frame, all[i], i < 4);
  const f = await scoFrame(page);
  const max = await f.evaluate(() => window.QB_DATA.maxState);
  const s = await lms(page);
  assert.equal(s.last['cmi.suspend_data'].length, max);
  await page.done();
});

test('1.2: keyboard only, and a phone-sized layout', async () => {
  const { page, frame } = await openLms('1.2', {}, { viewport: { width: 360, height: 740 } });
  await frame.locator('#start').focus();
  await page.keyboard.press('Enter');
  await frame.locator('input[value="a"]').waitFor();
  await frame.locator('input[value="a"]').focus();
  await page.keyboard.press('ArrowDown'); // radio group: moves to and selects b
  assert.ok(await frame.locator('input[value="b"]').isChecked());
  await page.keyboard.press('Tab');
  assert.equal(await frame.locator(':focus').getAttribute('id'), 'check');
  await page.keyboard.press('Enter');
  await frame.locator('.result').waitFor();
  const f = await scoFrame(page);
  assert.ok(await f.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1),
    'no horizontal scrolling on a phone');
  await page.done();
});

test('escaping: <script> in texts is shown as text and never runs', async () => {
  const { page, frame } = await openLms('1.2');
  await frame.locator('#start').click();
  await answer(frame, RIGHT[0]);
  await answer(frame, RIGHT[1]);
  assert.match(await frame.locator('.prompt').textContent(), /<script>alert\(1\)<\/script>/);
  await answer(frame, 'a', false);
  assert.match(await frame.locator('.option.is-correct').textContent(), /<\/script><b>bold\?<\/b> stays text/);
  assert.match(await frame.locator('.feedback').first().textContent(), /<img src=x onerror=alert\(2\)>/);
  const f = await scoFrame(page);
  assert.equal(await f.evaluate(() => document.querySelectorAll('#main script, #main img[onerror], #main b').length), 0);
  await page.done();
});

/** WCAG contrast of every visible text in the frame against its background. */
async function lowContrast(f) {
  return f.evaluate(() => {
    const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => {
      const ch = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
    };
    const bg = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const bad = [];
    for (const el of document.querySelectorAll('body *')) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      const r = el.getBoundingClientRect();
      if (!own || !r.width || getComputedStyle(el).visibility === 'hidden' || el.closest('[hidden], .sr-only')) continue;
      const a = lum(rgb(getComputedStyle(el).color)), b = lum(bg(el));
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (ratio < 4.5) bad.push(`${el.tagName}.${el.className}: ${ratio.toFixed(2)} "${el.textContent.trim().slice(0, 30)}"`);
    }
    return bad;
  });
}

test('accessibility: AA contrast, visible focus, live announcement, reduced motion, CSP', async () => {
  const { page, frame } = await openLms('1.2');
  const f = await scoFrame(page);
  assert.deepEqual(await lowContrast(f), [], 'start screen');
  await frame.locator('#start').click();
  await answer(frame, 'b', false);
  await frame.locator('.other-btn').click();
  assert.deepEqual(await lowContrast(f), [], 'answered question');
  await f.waitForFunction(() => document.getElementById('announce').textContent !== '');
  assert.match(await frame.locator('#announce').textContent(), /^Incorrect\. The correct answer: A full copy/);
  assert.equal(await frame.locator('#announce').getAttribute('aria-live'), 'assertive');
  assert.equal(await frame.locator('#main [lang]:not([lang="en"]):not(.expl-other)').count(), 0);
  // Keyboard focus is visible.
  await frame.locator('#next').focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const outline = await f.evaluate(() => { const s = getComputedStyle(document.activeElement); return [document.activeElement.id, s.outlineStyle, s.outlineWidth]; });
  assert.deepEqual(outline, ['next', 'solid', '3px']);
  for (let i = 1; i < 5; i++) { await frame.locator('#next').click(); await answer(frame, 'a', false); }
  await frame.locator('#next').click();
  await frame.locator('#score').waitFor();
  assert.deepEqual(await lowContrast(f), [], 'summary');
  // prefers-reduced-motion: no transitions.
  assert.notEqual(await f.evaluate(() => getComputedStyle(document.querySelector('.btn')).transitionDuration), '0s');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  assert.equal(await f.evaluate(() => getComputedStyle(document.querySelector('.btn')).transitionDuration), '0s');
  // The page's Content-Security-Policy refuses inline script.
  const ran = await f.evaluate(() => new Promise((done) => {
    const sc = document.createElement('script');
    sc.textContent = 'window.__inline = 1';
    document.body.appendChild(sc);
    setTimeout(() => done(window.__inline === 1), 200);
  }));
  assert.equal(ran, false, 'inline script must be blocked by the CSP');
  page.problems.splice(0, page.problems.length, ...page.problems.filter((p) => !/Content Security Policy/.test(p)));
  await page.done();
});

// ---------------------------------------------------------------- SCORM 2004

test('2004: all correct gives completed, passed, raw 100 and scaled 1', async () => {
  const { page, frame } = await openLms('2004');
  await frame.locator('#start').click();
  await answer(frame, RIGHT[0]);
  let s = await lms(page);
  assert.equal(s.last['cmi.completion_status'], 'incomplete');
  assert.equal(s.last['cmi.success_status'], 'unknown');
  assert.equal(s.last['cmi.exit'], 'suspend');
  for (let i = 1; i < 5; i++) await answer(frame, RIGHT[i]);
  await frame.locator('#score').waitFor();
  s = await lms(page);
  assert.equal(s.last['cmi.completion_status'], 'completed');
  assert.equal(s.last['cmi.success_status'], 'passed');
  assert.equal(s.last['cmi.score.raw'], '100');
  assert.equal(Number(s.last['cmi.score.scaled']), 1);
  assert.equal(s.last['cmi.learner_preference.language'], 'en');
  const it = interactions(s.last);
  assert.deepEqual(it.map((x) => x.id), IDS);
  assert.deepEqual(it.map((x) => x.response), ['a', 'a[,]b', 'a', 'b', 'a']);
  assert.deepEqual(it.map((x) => x.pattern), ['a', 'a[,]b', 'a', 'b', 'a']);
  assert.deepEqual(it.map((x) => x.result), Array(5).fill('correct'));
  for (const x of it) {
    assert.match(x.response, /^[\w.]+(\[,\][\w.]+)*$/, 'CMIShortIdentifier responses');
    assert.match(x.latency, /^PT\d+H\d+M\d+S$/);
    assert.match(x.time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    assert.match(x.description, /^\{lang=en\}/);
  }
  await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
  await page.waitForFunction(() => window.lmsCalls.includes('Terminate'));
  s = await lms(page);
  assert.match(s.last['cmi.session_time'], /^PT\d+H\d+M\d+S$/);
  assert.equal(s.last['cmi.exit'], 'normal');
  moodleRules('2004', s.log);
  await page.done();
});

test('2004: wrong answers give the right percentage and failed; resume in Kiswahili', async () => {
  let { page, frame } = await openLms('2004');
  await frame.locator('button[data-lang="sw"]').click();
  await frame.locator('#start').click();
  await answer(frame, 'b');
  await answer(frame, 'a');
  let s = await lms(page);
  assert.equal(s.last['cmi.learner_preference.language'], 'sw');
  assert.match(interactions(s.last)[0].description, /^\{lang=sw\}Kila GPU/);
  await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
  await page.waitForFunction(() => window.lmsCalls.includes('Terminate'));
  s = await lms(page);
  assert.equal(s.last['cmi.exit'], 'suspend');
  await page.done();
  ({ page, frame } = await openLms('2004', { init: { suspend_data: s.last['cmi.suspend_data'], learner_preference: { language: 'sw' } } }));
  assert.match(await frame.locator('.qnum').textContent(), /Swali 3 kati ya 5/);
  for (const g of ['a', 'b', 'a']) await answer(frame, g);
  await frame.locator('#score').waitFor();
  s = await lms(page);
  assert.equal(s.last['cmi.score.raw'], '60');
  assert.equal(s.last['cmi.success_status'], 'failed');
  assert.equal(s.last['cmi.completion_status'], 'completed');
  assert.deepEqual(interactions(s.last).map((x) => x.result), ['correct', 'correct', 'correct']);
  moodleRules('2004', s.log);
  await page.done();
});

// ---------------------------------------------------------------- no pass mark

test('no pass mark: 1.2 reports completed, 2004 completed with success unknown', async () => {
  for (const v of ['1.2', '2004']) {
    const { page, frame } = await openLms(v, { pkg: v === '1.2' ? 'nopass12' : 'nopass2004' });
    await frame.locator('#start').click();
    for (const g of ['b', 'a', 'a', 'b', 'a']) await answer(frame, g);
    await frame.locator('#score').waitFor();
    const s = await lms(page);
    if (v === '1.2') {
      assert.equal(s.last['cmi.core.lesson_status'], 'completed');
      assert.equal(s.last['cmi.core.score.raw'], '60');
    } else {
      assert.equal(s.last['cmi.completion_status'], 'completed');
      assert.equal(s.last['cmi.success_status'], 'unknown');
      assert.equal(s.last['cmi.score.raw'], '60');
    }
    assert.match(await frame.locator('#verdict').textContent(), /Completed/);
    moodleRules(v, s.log);
    await page.done();
  }
});

// ---------------------------------------------------------------- standalone

test('standalone: file:// without an LMS works, keeps progress, and offers "try again"', async () => {
  const dir = pkg['12'];
  const url = pathToFileURL(path.join(dir, 'index.html')).href;
  const page = await newPage({ allowed: [pathToFileURL(dir).href + '/'] });
  await page.goto(url);
  await page.locator('#notice').waitFor();
  assert.match(await page.locator('#notice').textContent(), /Not connected to a course/);
  await page.locator('#start').click();
  await answer(page, RIGHT[0]);
  await answer(page, RIGHT[1]);
  await page.reload();
  await page.locator('.qnum').waitFor();
  assert.match(await page.locator('.qnum').textContent(), /Question 3 of 5/);
  for (let i = 2; i < 5; i++) await answer(page, RIGHT[i]);
  await page.locator('#score').waitFor();
  assert.match(await page.locator('#score').textContent(), /100%/);
  await page.locator('#again').click();
  assert.match(await page.locator('.qnum').textContent(), /Question 1 of 5/);
  assert.equal(await page.locator('input:disabled').count(), 0);
  await page.done();
});

// ---------------------------------------------------------------- pictures

test('screenshots of the player in each language', async () => {
  mkdirSync(SHOTS, { recursive: true });
  for (const lang of ['en', 'sw']) {
    const { page, frame } = await openLms('1.2', { height: 1320 }, { viewport: { width: 800, height: 1320 } });
    if (lang === 'sw') await frame.locator('button[data-lang="sw"]').click();
    await frame.locator('#start').click();
    await answer(frame, 'b', false);
    // The committed copies are rewritten only with UPDATE=1 (or when missing).
    const committed = path.join(SHOTS, `scorm-player-${lang}.png`);
    const file = process.env.UPDATE || !existsSync(committed) ? committed
      : path.join(tmpdir(), `qbc-scorm-player-${lang}-${process.pid}.png`);
    await page.locator('#sco').screenshot({ path: file, animations: 'disabled' });
    assert.ok(statSync(file).size > 1000);
    await page.done();
  }
});

// ---------------------------------------------------------- every question type

/** Answers the types bank (browser/types/types.qb): good = right answers,
 * else wrong ones; stays on each question to check what it shows. */
async function answerTypes(frame, good) {
  // KaTeX runs on every formula shown: rendered, or a visible error.
  const mathOk = async () => {
    const spans = await frame.locator('span.math').evaluateAll((xs) => xs.map((x) => ({
      tex: x.getAttribute('data-tex'), katex: !!x.querySelector('.katex'), error: x.classList.contains('math-error'),
      text: x.textContent })));
    for (const m of spans) {
      assert.ok(m.tex !== null, 'every formula went through KaTeX');
      if (m.tex === 'a^b^c') assert.ok(m.error && /a\^b\^c/.test(m.text) && /Double superscript/.test(m.text), 'a malformed formula shows its error: ' + m.text);
      else assert.ok(m.katex && !m.error, 'rendered: ' + m.tex);
    }
    return spans.length;
  };
  let formulas = 0;
  const check = async () => { await frame.locator('#check').click(); await frame.locator('.result').waitFor(); formulas += await mathOk(); };
  const next = () => frame.locator('#next').click();
  await frame.locator('#start').click();
  // 1. true-false (answer: false)
  await frame.locator(`input[value="${good ? 'b' : 'a'}"]`).check();
  await check();
  if (!good) assert.match(await frame.locator('.feedback').first().textContent(), /No, at 100/);
  await next();
  // 2. multiple, partial credit: two right, one wrong = 1 of 3
  for (const l of good ? ['a', 'b', 'c'] : ['a', 'b', 'd']) await frame.locator(`input[value="${l}"]`).check();
  await check();
  if (!good) assert.match(await frame.locator('.result').textContent(), /Partly correct: 1 of 3/);
  await next();
  // 3. short answer: case and spaces ignored; a listed wrong answer's feedback.
  // Its prompt has a sound, played from the package.
  assert.equal(await frame.locator('.prompt audio[controls]').count(), 1);
  assert.match(await frame.locator('.prompt audio').textContent(), /a kettle whistling/);
  assert.equal(await frame.locator('.prompt audio').evaluate((a) => new Promise((ok) => {
    if (a.readyState >= 1) return ok(true);
    a.addEventListener('loadedmetadata', () => ok(true));
    a.addEventListener('error', () => ok(false));
    a.preload = 'auto';
    a.load();
  })), true, 'the sound loads');
  await frame.locator('.answer-box').fill(good ? '  Evaporation ' : 'boiling');
  await check();
  if (!good) {
    assert.match(await frame.locator('.answer-feedback').textContent(), /only at the boiling point/);
    assert.match(await frame.locator('.correct-answer').textContent(), /evaporation/);
  }
  await next();
  // 4. numeric: a decimal comma; not a number is refused first
  if (!good) {
    await frame.locator('.answer-box').fill('abc');
    await frame.locator('#check').click();
    assert.equal(await frame.locator('.input-error').isVisible(), true);
    assert.equal(await frame.locator('.result').count(), 0);
  }
  await frame.locator('.answer-box').fill(good ? '9,8' : '12');
  assert.match(await frame.locator('.unit').textContent(), /m\/s²/);
  await check();
  assert.equal(await frame.locator('.expl-text .katex-display').count(), 1, 'display math');
  if (!good) {
    assert.match(await frame.locator('.answer-feedback').textContent(), /Recall 9.8/);
    assert.match(await frame.locator('.correct-answer').textContent(), /9\.81 ± 0\.05/);
  }
  await next();
  // 5. matching: a select per item; the distractor is offered
  const sel = frame.locator('.match-select');
  assert.equal(await sel.count(), 3);
  assert.equal(await sel.first().locator('option').count(), 5, 'placeholder, three sides and the distractor');
  await sel.nth(0).selectOption({ label: 'solid' });
  await sel.nth(1).selectOption({ label: good ? 'liquid' : 'gas' });
  // The language switch keeps what was chosen.
  await frame.locator('button[data-lang="sw"]').click();
  await frame.locator('button[data-lang="en"]').click();
  assert.equal(await frame.locator('#check').isDisabled(), true);
  await sel.nth(2).selectOption({ label: good ? 'gas' : 'liquid' });
  await check();
  if (!good) assert.match(await frame.locator('.result').textContent(), /Partly correct: 1 of 3/);
  await next();
  // 6. cloze: a typed gap and a choice gap, inline
  await frame.locator('.gap-input').fill(good ? 'evaporate' : 'melts');
  await frame.locator('.gap-select').selectOption({ label: 'condenses' });
  await check();
  if (!good) assert.match(await frame.locator('.result').textContent(), /Partly correct: 1 of 2/);
  assert.match(await frame.locator('.expl-text').textContent(), /condensation/);
  await next();
  await frame.locator('#score').waitFor();
  assert.ok(formulas >= 4, 'the formulas were seen: ' + formulas);
  assert.ok(await frame.locator('span.math').count() >= 1, 'math on the results screen too');
  await mathOk();
}

for (const v of ['1.2', '2004']) {
  const resp = v === '1.2' ? 'student_response' : 'learner_response';
  test(`${v}: every question type answered right`, async () => {
    const { page, frame } = await openLms(v, { pkg: v === '1.2' ? 'types12' : 'types2004' });
    await answerTypes(frame, true);
    const s = await lms(page);
    assert.equal(s.last[v === '1.2' ? 'cmi.core.score.raw' : 'cmi.score.raw'], '100');
    const it = interactions(s.last);
    assert.deepEqual(it.map((x) => x.id), ['tf', 'multi', 'short', 'num', 'match', 'gaps']);
    assert.deepEqual(it.map((x) => x.type), ['true-false', 'choice', 'fill-in', 'numeric', 'matching', 'fill-in']);
    assert.deepEqual(it.map((x) => x.result), Array(6).fill('correct'));
    const F = v === '1.2' ? ',' : '[,]', P = v === '1.2' ? '.' : '[.]';
    assert.deepEqual(it.map((x) => x.response), [v === '1.2' ? 'f' : 'false', ['a', 'b', 'c'].join(F), '  Evaporation ', '9.8',
      ['a', 'a', 'b', 'b', 'c', 'c'].reduce((o, x, i) => o + (i % 2 ? P + x : (i ? F : '') + x), ''), ['evaporate', 'condenses'].join('[,]')]);
    assert.deepEqual(it[2].patterns, ['evaporation', 'uvukizi']);
    assert.equal(it[3].pattern, v === '1.2' ? '9.76:9.86' : '9.76[:]9.86');
    assert.equal(it[4].pattern, ['a', 'a', 'b', 'b', 'c', 'c'].reduce((o, x, i) => o + (i % 2 ? P + x : (i ? F : '') + x), ''));
    moodleRules(v, s.log);
    await page.done();
  });

  test(`${v}: every question type answered wrong, with partial credit and resume`, async () => {
    const pk = v === '1.2' ? 'types12' : 'types2004';
    const { page, frame } = await openLms(v, { pkg: pk });
    await answerTypes(frame, false);
    let s = await lms(page);
    // tf 0, multiple 1/3, short 0, numeric 0, matching 1/3, cloze 1/2
    const raw = '19.44'; // 100 * (1/3 + 1/3 + 1/2) / 6, to the hundredth
    assert.equal(s.last[v === '1.2' ? 'cmi.core.score.raw' : 'cmi.score.raw'], raw);
    assert.match(await frame.locator('#score').textContent(), new RegExp(raw + '%'));
    assert.equal(await frame.locator('.review-item', { hasText: '1 of 3' }).count(), 2, 'the results say "1 of 3"');
    const it = interactions(s.last);
    assert.deepEqual(it.map((x) => x.result), Array(6).fill(v === '1.2' ? 'wrong' : 'incorrect'));
    assert.equal(it[2].response, 'boiling');
    assert.equal(it[3].response, '12');
    moodleRules(v, s.log);
    // Resume: the saved state brings every answer back, typed ones too.
    const state = s.last['cmi.suspend_data'];
    assert.match(state, /\.7:boiling/);
    const before = await (await scoFrame(page)).evaluate(() => window.qbPlayer.state());
    await page.done();
    const init = { suspend_data: state };
    const again = await openLms(v, { pkg: pk, init });
    const sco = await scoFrame(again.page);
    assert.equal(await sco.evaluate(() => window.qbPlayer.state()), before);
    assert.match(await again.frame.locator('#score').textContent(), new RegExp(raw + '%'));
    await again.page.done();
  });
}

test('1.2: every type at its longest saved answer matches what qbc computed', async () => {
  const { page, frame } = await openLms('1.2', { pkg: 'types12' });
  const f = await scoFrame(page);
  const data = await f.evaluate(() => ({ max: window.QB_DATA.maxState, qs: window.QB_DATA.questions }));
  await frame.locator('button[data-lang="sw"]').click();
  await frame.locator('#start').click();
  const long = (n) => 'x'.repeat(n);
  for (const q of data.qs) {
    if (q.type === 'true-false') await frame.locator('input[value="a"]').check();
    else if (q.type === 'multiple') for (const o of q.options) await frame.locator(`input[value="${o.id}"]`).check();
    else if (q.type === 'short-answer') await frame.locator('.answer-box').fill(long(q.cap));
    else if (q.type === 'numeric') await frame.locator('.answer-box').fill('1' + '0'.repeat(q.cap - 1));
    else if (q.type === 'matching') for (const s of await frame.locator('.match-select').all()) await s.selectOption({ index: 1 });
    else {
      for (const [i, g] of q.gaps.entries()) {
        if (g.choice) await frame.locator('.gap-select').selectOption({ index: 1 });
        else await frame.locator('.gap-input').nth(0).fill(long(g.cap));
        void i;
      }
    }
    assert.equal(await frame.locator('.answer-box').evaluateAll((b) => b.every((x) => x.value.length <= +x.maxLength)), true);
    await frame.locator('#check').click();
    await frame.locator('.result').waitFor();
    if (q !== data.qs[data.qs.length - 1]) await frame.locator('#next').click();
  }
  const s = await lms(page);
  assert.equal(s.last['cmi.suspend_data'].length, data.max, s.last['cmi.suspend_data']);
  moodleRules('1.2', s.log);
  await page.done();
});

for (const v of ['1.2', '2004']) {
  test(`${v}: a drawn, shuffled pool: 3 of 6, kept on resume, author ids in the records`, async () => {
    const pk = v === '1.2' ? 'pool12' : 'pool2004';
    let { page, frame } = await openLms(v, { pkg: pk });
    await frame.locator('#start').click();
    assert.match(await frame.locator('.qnum').textContent(), /Question 1 of 3/);
    const order = async () => frame.locator('.option input').evaluateAll((xs) => xs.map((x) => x.value).join(''));
    const seen = [];
    // Answer the first two correctly: the right option is always "a".
    for (let i = 0; i < 2; i++) {
      const o = await order();
      assert.equal(o.length, 5);
      assert.equal(o[4], 'e', 'the pinned option stays last');
      assert.deepEqual([...o].sort().join(''), 'abcde');
      assert.equal(await frame.locator('.option .letter').evaluateAll((xs) => xs.map((x) => x.textContent).join('')), 'ABCDE', 'letters follow the order shown');
      seen.push([await frame.locator('.prompt').textContent(), o]);
      await answer(frame, 'a');
    }
    const third = [await frame.locator('.prompt').textContent(), await order()];
    let s = await lms(page);
    const state = s.last['cmi.suspend_data'];
    const [fmt, , , seed, drawn] = state.split('|');
    assert.equal(fmt, '2');
    assert.match(seed, /^[0-9a-z]{6}$/);
    assert.equal(drawn.length, 3 * 6, 'three drawn keys: ' + state);
    const it = interactions(s.last);
    assert.deepEqual(it.map((x) => [x.response, x.pattern, x.result]), Array(2).fill(['a', 'a', 'correct']));
    assert.equal(new Set(it.map((x) => x.id)).size, 2);
    moodleRules(v, s.log);
    await page.done();
    // Resume: the same three questions, in the same order, options too.
    ({ page, frame } = await openLms(v, { pkg: pk, init: { suspend_data: state } }));
    assert.equal(await frame.locator('.prompt').textContent(), third[0]);
    assert.equal(await order(), third[1]);
    await frame.locator('#prev').click();
    assert.equal(await frame.locator('.prompt').textContent(), seen[1][0]);
    assert.equal(await order(), seen[1][1]);
    assert.ok(await frame.locator('input[value="a"]').isDisabled());
    await frame.locator('#next').click();
    await answer(frame, 'b');
    await frame.locator('#score').waitFor();
    s = await lms(page);
    assert.equal(s.last[v === '1.2' ? 'cmi.core.score.raw' : 'cmi.score.raw'], '66.67', 'two of the three drawn, to the hundredth');
    assert.equal(await frame.locator('.review-item').count(), 3);
    await page.done();
  });
}

test('screenshots of the new question types in the player', async () => {
  mkdirSync(SHOTS, { recursive: true });
  const { page, frame } = await openLms('1.2', { pkg: 'types12', height: 900 }, { viewport: { width: 800, height: 900 } });
  await frame.locator('#start').click();
  const shots = { 5: 'matching', 6: 'cloze' };
  for (let q = 1; q <= 6; q++) {
    // Partly right answers, so the marks, "1 of 3" and the answers show.
    if (await frame.locator('.option input').count()) await frame.locator('.option input').first().check();
    if (await frame.locator('.answer-box').count()) await frame.locator('.answer-box').fill('9.81');
    const sel = await frame.locator('.match-select').all();
    for (const [i, s] of sel.entries()) await s.selectOption({ label: ['solid', 'gas', 'liquid'][i] });
    if (await frame.locator('.gap-input').count()) await frame.locator('.gap-input').fill('evaporate');
    if (await frame.locator('.gap-select').count()) await frame.locator('.gap-select').selectOption({ label: 'melts' });
    await frame.locator('#check').click();
    await frame.locator('.result').waitFor();
    if (shots[q]) {
      const committed = path.join(SHOTS, `scorm-player-${shots[q]}.png`);
      const file = process.env.UPDATE || !existsSync(committed) ? committed
        : path.join(tmpdir(), `qbc-scorm-player-${shots[q]}-${process.pid}.png`);
      await page.locator('#sco').screenshot({ path: file, animations: 'disabled' });
      assert.ok(statSync(file).size > 1000);
    }
    await frame.locator('#next').click();
  }
  await page.done();
});

test('standalone: "try again" starts a new attempt with a new seed and draw', async () => {
  const dir = pkg.pool12;
  const page = await newPage({ allowed: [pathToFileURL(dir).href + '/'] });
  await page.goto(pathToFileURL(path.join(dir, 'index.html')).href);
  await page.locator('#start').click();
  const attempt = async () => {
    const state = await page.evaluate(() => window.qbPlayer.state());
    for (let i = 0; i < 3; i++) await answer(page, 'a', true);
    await page.locator('#score').waitFor();
    assert.match(await page.locator('#score').textContent(), /100%/);
    return state.split('|');
  };
  const first = await attempt();
  await page.locator('#again').click();
  assert.match(await page.locator('.qnum').textContent(), /Question 1 of 3/);
  assert.equal(await page.locator('input:disabled').count(), 0);
  const second = await attempt();
  assert.notEqual(second[3], first[3], 'a new seed');
  assert.equal(second[4].length, 18, 'three drawn questions again');
  await page.done();
});
