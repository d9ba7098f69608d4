// tests/translate/xliff-tools.mjs - an XLIFF 2.0 file of qbc through a
// translator's JavaScript library and back, as a tool built on it saves
// it: the npm `xliff` package (xliff2js, targets filled, js2xliff) or
// ilib-xliff (deserialize, targets filled, serialize).
//
//   node xliff-tools.mjs xliff|ilib IN OUT keep|fill
//
// keep writes the units as read; fill gives every unit a target: its
// source with each "e" of its text an "é" (placeholders kept as the
// library gives them), a stand-in for a translator's work that keeps
// every piece of markup.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../package.json', import.meta.url));
const [tool, inPath, outPath, mode] = process.argv.slice(2);
const text = fs.readFileSync(inPath, 'utf8');
const fill = (s) => s.replace(/e/g, 'é');

if (tool === 'xliff') {
  const xliff = (await import(require.resolve('xliff'))).default;
  const js = await xliff.xliff2js(text);
  if (mode === 'fill') {
    for (const file of Object.values(js.resources)) {
      for (const unit of Object.values(file)) {
        const src = unit.source;
        unit.target = Array.isArray(src)
          ? src.map((p) => (typeof p === 'string' ? fill(p) : structuredClone(p)))
          : fill(src);
      }
    }
  }
  fs.writeFileSync(outPath, await xliff.js2xliff(js));
} else if (tool === 'ilib') {
  const { Xliff } = require('ilib-xliff');
  const x = new Xliff({ version: 2.0 });
  x.deserialize(text);
  if (mode === 'fill') {
    for (const tu of x.getTranslationUnits()) tu.target = fill(tu.source);
  }
  fs.writeFileSync(outPath, x.serialize());
} else {
  console.error('usage: xliff-tools.mjs xliff|ilib IN OUT keep|fill');
  process.exit(2);
}
