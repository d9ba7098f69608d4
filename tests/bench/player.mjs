// tests/bench/player.mjs - part of `make bench` (measures, asserts nothing):
// how long a SCORM package's player takes to become interactive in
// Chromium, standalone (no LMS), from the start of navigation to the
// moment its start button is visible and enabled, as the page's own clock
// (performance.now()) reads it.  Best of RUNS fresh pages.
//
// usage: node tests/bench/player.mjs PACKAGE.zip [RUNS]
// prints the best time in seconds.
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { launch, tempDir, unzip } from '../browser/lib.mjs';

const [zip, runsArg] = process.argv.slice(2);
const runs = Number(runsArg || 3);
const tmp = tempDir('qbc-bench-player-');
const browser = await launch();
try {
  unzip(zip, tmp.dir);
  const url = pathToFileURL(path.join(tmp.dir, 'index.html')).href;
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    // The page's clock when the button is first seen ready (checked on
    // every animation frame).
    const ready = await page.waitForFunction(() => {
      const b = document.getElementById('start');
      return b && !b.disabled && b.offsetParent !== null ? performance.now() : false;
    }, null, { polling: 'raf', timeout: 60000 });
    const ms = await ready.jsonValue();
    best = Math.min(best, ms);
    await context.close();
  }
  console.log((best / 1000).toFixed(3));
} finally {
  await browser.close();
  tmp.cleanup();
}
