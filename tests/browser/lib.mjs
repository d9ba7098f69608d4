// tests/browser/lib.mjs - shared helpers for the real-client tests:
// running qbc, unpacking packages, and starting Debian's Chromium through
// playwright-core with the flags this closed network needs.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const TESTS = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const ROOT = path.dirname(TESTS);
export const QBC = process.env.QBC || path.join(ROOT, 'build', 'qbc');

/** A fresh temporary folder; removed by the returned cleanup function. */
export function tempDir(prefix = 'qbc-browser-') {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs qbc with args; returns {status, stdout, stderr}. */
export function qbc(args, opts = {}) {
  const r = spawnSync(QBC, args, {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', SOURCE_DATE_EPOCH: process.env.SOURCE_DATE_EPOCH || '1764680000', ...(opts.env || {}) },
    cwd: opts.cwd || ROOT,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Unzips zipPath into dir with the Debian unzip tool. */
export function unzip(zipPath, dir) {
  execFileSync('unzip', ['-q', '-o', zipPath, '-d', dir]);
}

/** Answers an HTTP request with file, typed by its extension; 404 when it
 * is missing or not a file. */
export function sendFile(res, file) {
  if (!file || !existsSync(file) || !statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.woff2': 'font/woff2' };
  res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
  res.end(readFileSync(file));
}

/** Answers whatever question the SCORM player shows in frame (right or
 * wrong does not matter): the first option, 1 in a box, the first choice
 * of every list, x in every gap. */
export async function answerAny(frame) {
  if (await frame.locator('.option input').count()) await frame.locator('.option input').first().check();
  if (await frame.locator('.answer-box').count()) await frame.locator('.answer-box').fill('1');
  for (const s of await frame.locator('.match-select, .gap-select').all()) await s.selectOption({ index: 1 });
  for (const t of await frame.locator('.gap-input').all()) await t.fill('x');
}

/** Launches headless Chromium (Debian's /usr/bin/chromium). */
export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--allow-file-access-from-files'],
  });
}

/** A local HTTP server on 127.0.0.1 answering with handler, and Chromium:
 * {base, browser, close}. */
export async function serveAndLaunch(handler) {
  const server = http.createServer(handler);
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const browser = await launch();
  return {
    base: `http://127.0.0.1:${server.address().port}`, browser,
    close: async () => { await browser.close(); server.close(); },
  };
}

const AGAIN = path.join(TESTS, 'node_modules', 'scorm-again', 'dist');

const LMS_JS = `
const cfg = JSON.parse(decodeURIComponent(location.hash.slice(1)));
const v12 = cfg.v === '1.2';
const api = v12 ? new Scorm12API({ autocommit: false, logLevel: 4 })
                : new Scorm2004API({ autocommit: false, logLevel: 4 });
if (cfg.init) api.loadFromJSON(cfg.init, '');
window.lmsLog = [];
api.on(v12 ? 'LMSSetValue.cmi.*' : 'SetValue.cmi.*', (el, value) => window.lmsLog.push([el, value]));
if (v12) window.API = api; else window.API_1484_11 = api;
document.getElementById('sco').src = '/pkg/' + encodeURIComponent(cfg.pkg) + '/index.html';
`;
const LMS_HTML = (v) => `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>LMS</title>
<script src="/lms/${v === '1.2' ? 'scorm12' : 'scorm2004'}.js"></script></head>
<body style="margin:0"><iframe id="sco" title="Quiz" style="width:100%;height:1000px;border:0"></iframe>
<script src="/host.js"></script></body></html>`;

/** A stand-in LMS and Chromium: scorm-again's SCORM 1.2 or 2004 API on a
 * host page whose frame (#sco) opens a package, every value the package
 * sets logged in window.lmsLog.  pkgs maps a name to an unzipped
 * package's folder, served under /pkg/<name>/.  Returns
 * {base, browser, close}; lmsUrl() is a host page's address. */
export async function serveScormLms(pkgs) {
  return serveAndLaunch((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (p === '/host12.html' || p === '/host2004.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(LMS_HTML(p === '/host12.html' ? '1.2' : '2004'));
    } else if (p === '/favicon.ico') {
      res.writeHead(204); res.end();
    } else if (p === '/host.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(LMS_JS);
    } else if (p === '/lms/scorm12.js' || p === '/lms/scorm2004.js') {
      sendFile(res, path.join(AGAIN, path.basename(p)));
    } else {
      const m = p.match(/^\/pkg\/([^/]+)\/(.+)$/);
      if (m && pkgs[m[1]] && !m[2].includes('..')) sendFile(res, path.join(pkgs[m[1]], m[2]));
      else { res.writeHead(404); res.end(); }
    }
  });
}

/** The stand-in LMS's page for SCORM v ('1.2' or '2004') playing the
 * package called name; init: the CMI values it starts with (scorm-again's
 * loadFromJSON(), e.g. {suspend_data} to resume an attempt). */
export function lmsUrl(base, v, name, init) {
  return `${base}/host${v === '1.2' ? '12' : '2004'}.html#` + encodeURIComponent(JSON.stringify({ v, pkg: name, init }));
}

/** The last value the stand-in LMS got for each element. */
export async function lmsValues(page) {
  return page.evaluate(() => { const o = {}; for (const [k, x] of window.lmsLog) o[k] = x; return o; });
}

/** Reads an unzipped .apkg (dir) the way Anki would import it: copies its
 * media under their real names into mediaDir and returns one note type's
 * CSS and templates (the one called typeName, else the first) and its
 * notes' fields by name.  Needs sqlite3. */
export function readApkg(dir, mediaDir, typeName) {
  const media = JSON.parse(readFileSync(path.join(dir, 'media'), 'utf8'));
  mkdirSync(mediaDir, { recursive: true });
  for (const [num, name] of Object.entries(media)) copyFileSync(path.join(dir, num), path.join(mediaDir, name));
  const sql = (q) => JSON.parse(execFileSync('sqlite3', ['-json', path.join(dir, 'collection.anki2'), q], { encoding: 'utf8' }) || '[]');
  const [{ models }] = sql('select models from col');
  const types = Object.values(JSON.parse(models));
  const nt = typeName ? types.find((m) => m.name === typeName) : types[0];
  const fieldNames = nt.flds.map((f) => f.name);
  const notes = sql(`select flds, tags from notes where mid = ${Number(nt.id)} order by id`).map((n) => {
    const vals = n.flds.split('\x1f');
    return { fields: Object.fromEntries(fieldNames.map((f, i) => [f, vals[i]])), tags: n.tags };
  });
  return { css: nt.css, qfmt: nt.tmpls[0].qfmt, afmt: nt.tmpls[0].afmt, fieldNames, notes, media };
}

/** Anki's template substitution, for the syntax the qbc templates use:
 * {{Field}}, {{#Field}}..{{/Field}}, {{^Field}}..{{/Field}}, and, for the
 * card of gap card.n on card.side ('front' or 'back'), {{cloze:Field}}
 * (cloze() below).  Field values go in as they are (they are HTML); an
 * unknown field is an error, as in Anki. */
export function fillCard(tmpl, fields, card = { n: 1, side: 'front' }) {
  const value = (f) => {
    if (!(f in fields)) throw new Error(`unknown field ${f}`);
    return fields[f];
  };
  const s = tmpl.replace(/\{\{([#^])([^}]+)\}\}([\s\S]*?)\{\{\/\2\}\}/g,
    (_, kind, f, body) => ((kind === '#') === (value(f).trim() !== '') ? body : ''));
  return s.replace(/\{\{([^#^/}][^}]*)\}\}/g, (_, f) => (card && f.startsWith('cloze:') ? cloze(value(f.slice(6)), card) : value(f)));
}

/** Anki's {{cloze:Field}} for the card of gap card.n (1-based), as its
 * cloze.rs renders it: on the front, the gap of that number becomes
 * <span class="cloze">[...]</span> ([hint] when it has a hint), every
 * other gap shows its answer; on the back, the gap shows its answer in
 * <span class="cloze">, the others their answers.  The answer is the text
 * up to the first "::", the hint the rest. */
export function cloze(text, card) {
  return text.replace(/\{\{c(\d+)::([\s\S]*?)\}\}/g, (_, num, body) => {
    const i = body.indexOf('::');
    const answer = i < 0 ? body : body.slice(0, i), hint = i < 0 ? null : body.slice(i + 2);
    if (Number(num) !== card.n) return answer;
    if (card.side === 'front') return `<span class="cloze">[${hint ?? '...'}]</span>`;
    return `<span class="cloze">${answer}</span>`;
  });
}
