// tests/browser/scorm-moodle.test.mjs - the SCORM 1.2 player against
// Moodle's own runtime, mod/scorm/datamodels/scorm_12.js, which is stricter
// than scorm-again (shared/docs/scorm-moodle.md §10).  Moodle's code is
// GPL and not part of this repository, so the test runs only when
// MOODLE_DIR names a Moodle source tree; otherwise it is skipped.
//
//   MOODLE_DIR=/path/to/moodle QBC=$PWD/../build/qbc node --test browser/scorm-moodle.test.mjs
//
// The host page defines what Moodle's player page defines around
// scorm_12.js (the values mod/scorm/datamodels/scorm_12.php prints, with
// "SCORM standards mode" on: CMIString4096 for suspend_data), and records
// the data Moodle would POST to datamodel.php instead of sending it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { TESTS, launch, qbc, tempDir, unzip } from './lib.mjs';

const MOODLE_JS = process.env.MOODLE_DIR
  ? path.join(process.env.MOODLE_DIR, 'mod', 'scorm', 'datamodels', 'scorm_12.js') : '';
const skip = !MOODLE_JS || !existsSync(MOODLE_JS) ? 'MOODLE_DIR not set to a Moodle source tree' : false;

const STUBS = `
var cfg = JSON.parse(decodeURIComponent(location.hash.slice(1) || '{}'));
var cfgwwwroot = location.origin, scormid = 1, scoid = 1, attempt = 1, viewmode = 'normal', currentorg = '',
    sesskey = 'x', cmid = 1, scormdebugging = false, scormauto = 0, autocommit = false, masteryoverride = true, hidetoc = 0;
var cmistring256 = '^[\\\\u0000-\\\\uFFFF]{0,255}$', cmistring4096 = '^[\\\\u0000-\\\\uFFFF]{0,4096}$';
var def = {'cmi.core.student_id': 's1', 'cmi.core.student_name': 'Doe, Jane', 'cmi.core.lesson_location': '',
  'cmi.core.credit': 'credit', 'cmi.core.lesson_status': '', 'cmi.core.entry': cfg.suspend ? 'resume' : 'ab-initio',
  'cmi.core.score.raw': '', 'cmi.core.score.max': '', 'cmi.core.score.min': '', 'cmi.core.total_time': '00:00:00',
  'cmi.core.lesson_mode': 'normal', 'cmi.core.exit': '', 'cmi.suspend_data': cfg.suspend || '', 'cmi.launch_data': '',
  'cmi.comments': '', 'cmi.student_data.mastery_score': '80', 'cmi.student_data.max_time_allowed': '',
  'cmi.student_data.time_limit_action': ''};
var cmiobj = cfg.lang ? 'cmi.student_preference.language = ' + JSON.stringify(cfg.lang) + ';' : '';
// As scorm_reconstitute_array_element() prints the attempt's interactions.
var cmiint = (cfg.ids || []).map(function (id, n) {
  return 'cmi.interactions_' + n + ' = new Object(); cmi.interactions_' + n + '.id = ' + JSON.stringify(id) + ';';
}).join('\\n') + (cfg.ids ? 'cmi.interactions._count = ' + cfg.ids.length + ';' : '');
var M = { mod_scorm: { connectPrereqCallback: { success: function () {} } } };
function YUI() { return { use: function () {} }; }
function NewHttpReq() { return {}; }
window.posts = [];
function DoRequest(req, url, params) { window.posts.push(params); return 'true\\n0'; }
function underscore(str) { str = String(str).replace(/.N/g, '.'); return str.replace(/\\./g, '__'); }
`;
const AFTER = `
window.calls = [];
['LMSInitialize', 'LMSGetValue', 'LMSSetValue', 'LMSCommit', 'LMSFinish'].forEach(function (fn) {
  var orig = API[fn];
  API[fn] = function (a, b) { var r = orig.apply(this, arguments); window.calls.push([fn, a, b, r, API.LMSGetLastError()]); return r; };
});
document.getElementById('sco').src = '/pkg/index.html';
`;

let tmp, server, base, browser, pkgDir;

before(async () => {
  if (skip) return;
  tmp = tempDir('qbc-moodle-');
  const bank = path.join(tmp.dir, 'bank');
  cpSync(path.join(TESTS, 'scorm', 'demo.qb'), path.join(bank, 'demo.qb'));
  cpSync(path.join(TESTS, 'scorm', 'media'), path.join(bank, 'media'), { recursive: true });
  const r = qbc(['build', '-o', path.join(tmp.dir, 'out'), '--format', 'scorm12', path.join(bank, 'demo.qb')]);
  assert.equal(r.status, 0, r.stderr);
  pkgDir = path.join(tmp.dir, 'pkg');
  mkdirSync(pkgDir);
  unzip(path.join(tmp.dir, 'out', 'demo.scorm12.zip'), pkgDir);
  server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const send = (type, body) => { res.writeHead(200, { 'content-type': type }); res.end(body); };
    if (p === '/host.html') {
      return send('text/html', '<!DOCTYPE html><html><head><title>Moodle</title><script src="/stubs.js"></script>' +
        '<script src="/scorm_12.js"></script></head><body><iframe id="sco" title="Quiz"></iframe>' +
        '<script src="/after.js"></script></body></html>');
    }
    if (p === '/stubs.js') return send('text/javascript', STUBS);
    if (p === '/after.js') return send('text/javascript', AFTER);
    if (p === '/scorm_12.js') return send('text/javascript', readFileSync(MOODLE_JS));
    const f = p.startsWith('/pkg/') && !p.includes('..') ? path.join(pkgDir, p.slice(5)) : '';
    if (!f || !existsSync(f)) { res.writeHead(404); return res.end(); }
    const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png' };
    return send(types[path.extname(f)] || 'application/octet-stream', readFileSync(f));
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

/** One launch: answers, then leaves the page.  Returns the API calls and
 * the elements Moodle would have stored (the POSTs merged, last wins). */
async function session(cfg, answers, lang) {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !/favicon/.test(m.location().url)) problems.push(m.text()); });
  await page.goto(base + '/host.html#' + encodeURIComponent(JSON.stringify(cfg)));
  const fr = page.frameLocator('#sco');
  await fr.locator('#main h1, #main h2').first().waitFor();
  if (lang) await fr.locator(`button[data-lang="${lang}"]`).click();
  if (await fr.locator('#start').count()) await fr.locator('#start').click();
  for (const a of answers) {
    for (const l of a) await fr.locator(`input[value="${l}"]`).check();
    await fr.locator('#check').click();
    await fr.locator('#next').click();
  }
  await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
  await page.waitForFunction(() => window.calls.some((c) => c[0] === 'LMSFinish'));
  const { calls, posts } = await page.evaluate(() => ({ calls: window.calls, posts: window.posts }));
  await page.close();
  const stored = {};
  for (const p of posts)
    for (const kv of p.split('&')) {
      const [k, v] = kv.split('=');
      if (k.startsWith('cmi__')) stored[k.replace(/__/g, '.')] = decodeURIComponent(v);
    }
  assert.deepEqual(problems, []);
  const refused = calls.filter((c) => c[0] !== 'LMSGetValue' && (c[3] !== 'true' || c[4] !== '0'));
  assert.deepEqual(refused, [], 'Moodle refused: ' + JSON.stringify(refused));
  return { calls, stored };
}

test('Moodle scorm_12.js (standards mode): half-way, resume in Kiswahili, grade', { skip }, async () => {
  const s1 = await session({}, ['b', 'ab'], 'sw');
  assert.equal(s1.stored['cmi.core.lesson_status'], 'incomplete');
  assert.equal(s1.stored['cmi.core.exit'], 'suspend');
  assert.equal(s1.stored['cmi.student_preference.language'], 'sw');
  assert.equal(s1.stored['cmi.interactions_0.id'], 'first-question');
  assert.equal(s1.stored['cmi.interactions_0.result'], 'wrong');
  assert.equal(s1.stored['cmi.interactions_1.student_response'], 'a,b');
  assert.equal(s1.stored['cmi.core.score.raw'], undefined);
  const suspend = s1.stored['cmi.suspend_data'];
  assert.match(suspend, /^2\|sw\|/);

  const s2 = await session({ suspend, lang: 'sw', ids: ['first-question', 'gradient-sync'] }, ['a', 'b', 'a']);
  assert.equal(s2.stored['cmi.interactions_2.id'], 'script-text', 'new interactions follow the restored ones');
  assert.equal(s2.stored['cmi.interactions_0.id'] ?? 'first-question', 'first-question', 'earlier interactions are not overwritten');
  assert.equal(s2.stored['cmi.interactions_1.id'] ?? 'gradient-sync', 'gradient-sync');
  assert.equal(s2.stored['cmi.core.score.raw'], '80');
  assert.equal(s2.stored['cmi.core.lesson_status'], 'passed');
  assert.equal(s2.stored['cmi.core.exit'], '');
  assert.match(s2.stored['cmi.core.total_time'], /^\d{2,4}:\d{2}:\d{2}/);
});
