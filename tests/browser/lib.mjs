// tests/browser/lib.mjs - shared helpers for the real-client tests:
// running qbc, unpacking packages, and starting Debian's Chromium through
// playwright-core with the flags this closed network needs.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
