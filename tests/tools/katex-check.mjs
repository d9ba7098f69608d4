#!/usr/bin/env node
// tests/tools/katex-check.mjs - renders every formula of a bank with the
// KaTeX the SCORM player uses (Debian's libjs-katex), as the player does
// (display formulas in display mode, throwOnError), and reports each one
// KaTeX rejects.
//
//   qbc dump --json BANK.qb | node tests/tools/katex-check.mjs [NAME]
//
// Reads the dump on standard input: every *_html text holds markup.c's
// <span class="math inline|display">\(...\) or \[...\]</span>.  Prints one
// line per failure, "NAME: question ID (LANG, FIELD): $TEX$: MESSAGE",
// then "N formulas, N failed"; exits 1 when a formula fails, 2 when the
// input or KaTeX cannot be read.  KATEX names another katex.js.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
let katex;
try {
  katex = require(process.env.KATEX || '/usr/share/javascript/katex/katex.js');
} catch (e) {
  console.error(`katex-check: cannot load KaTeX (Debian package libjs-katex): ${e.message}`);
  process.exit(2);
}
const name = process.argv[2] || 'bank';
let dump;
try {
  dump = JSON.parse(readFileSync(0, 'utf8'));
} catch (e) {
  console.error(`katex-check: ${name}: not a qbc dump --json: ${e.message}`);
  process.exit(2);
}

const MATH = /<span class="math (inline|display)"[^>]*>([\s\S]*?)<\/span>/g;
const unescape = (s) => s.replace(/&(lt|gt|quot|amp|#39);/g, (_, e) =>
  ({ lt: '<', gt: '>', quot: '"', amp: '&', '#39': "'" })[e]);
let count = 0;
const failures = [];

// Walks the dump; where is the question id (or "bank") and the field path.
function walk(v, where, field, lang) {
  if (typeof v === 'string') {
    if (!/_html$/.test(field)) return;
    for (const m of v.matchAll(MATH)) {
      const display = m[1] === 'display';
      const tex = unescape(m[2]).replace(/^\\[([]/, '').replace(/\\[)\]]$/, '');
      count++;
      try {
        katex.renderToString(tex, { displayMode: display, throwOnError: true });
      } catch (e) {
        const d = display ? '$$' : '$';
        failures.push(`${name}: ${where} (${lang || '?'}, ${field}): ${d}${tex}${d}: ${e.message}`);
      }
    }
  } else if (Array.isArray(v)) {
    v.forEach((x) => walk(x, where, field, lang));
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (/_html$/.test(k)) walk(x, where, k, lang);
      else if (/_html$/.test(field) && typeof x === 'string') walk(x, where, field, k);
      else walk(x, where, field && !/_html$/.test(field) ? `${field}.${k}` : k, lang);
    }
  }
}

walk({ title_html: dump.title_html, description_html: dump.description_html }, 'bank', '', null);
for (const q of dump.questions || []) walk(q, `question ${q.id}`, '', null);
for (const f of failures) console.log(f);
console.log(`${count} formulas, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
