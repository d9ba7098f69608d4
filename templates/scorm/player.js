/* player.js - the quiz player of qbc's SCORM packages (SCORM 1.2 and 2004).
 *
 * Static file, copied into every package.  The bank comes from data.js
 * (window.QB_DATA), written by qbc: texts are HTML rendered by md4c with raw
 * HTML escaped, so inserting them with innerHTML is safe.  No network
 * request, no eval, no framework.
 *
 * Saved state (cmi.suspend_data, or localStorage without an LMS), format 1:
 *     1|<lang>|<pos>|<key>.<fp>.<answer>,...
 * <answer>: option letters (single, multiple, true-false: a = true); a
 * typed text as "<length>:<text>" (short-answer, numeric); one right-side
 * letter per pair (matching); per gap a choice letter or a typed text
 * (cloze).  Answers keyed by a short hash of the question id (survives questions
 * being added, removed or reordered) and checked against a fingerprint of
 * the options; <pos> is a question key, "" (start) or "*" (summary).  qbc
 * computes the largest such string at build time (QB_DATA.maxState) with
 * the same rules: keep write_scorm.c and serialize() in step.
 *
 * A parameterised question (numbers drawn for each attempt) comes with
 * its pool: the question object is its first draw, and "draws" holds, for
 * each draw, the members that differ from the first's (texts, options,
 * the accepted number, fp).  The attempt's seed picks one draw per
 * question (drawIndex()), so the saved state needs nothing more: a resume
 * shows the same numbers, "Try again" (a new seed) a new draw. */
(function () {
  'use strict';

  var D = window.QB_DATA;
  var V12 = D.scorm === '1.2';
  var STORE_KEY = 'qbc-scorm:' + D.bank;
  var MAX_TRIES = 5;

  /* ---------------------------------------------------------------- state */

  var S = {
    lang: D.defaultLang,
    pos: '',            // '' start, question key, '*' summary
    seed: '',           // fixes this attempt's draw and orders ('' none)
    answers: {},        // key -> graded(): {value, score, correct, n, total}
    pending: {},        // key -> the value being answered, not yet checked
    shownAt: {},        // key -> Date.now() when the question was shown
    other: {},          // 'key:lang' -> other-language explanation open
    resumed: false,
    update: null,       // a saved state from another version of the quiz:
                        // {changed: [keys], removed: n}, see restore()
    nextInteraction: 0
  };
  var base = {};  // key -> the bank's question (parameterised: with its draws)
  D.questions.forEach(function (q) { base[q.key] = q; });
  var byKey = base; // key -> the question as this attempt shows it (its draw)
  var Q = []; // this attempt's questions, in the order shown

  /* A pseudo-random generator seeded by a string (mulberry32). */
  function rng(str) {
    var h = 2166136261;
    for (var i = 0; i < str.length; i++) h = Math.imul(h ^ str.charCodeAt(i), 16777619) >>> 0;
    return function () {
      h = (h + 0x6D2B79F5) >>> 0;
      var t = Math.imul(h ^ (h >>> 15), h | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  function shuffled(list, seed) {
    var r = rng(seed), out = list.slice();
    for (var j = out.length - 1; j > 0; j--) {
      var k = Math.floor(r() * (j + 1)), t = out[j]; out[j] = out[k]; out[k] = t;
    }
    return out;
  }
  function needsSeed() {
    return D.shuffleQuestions || D.draw > 0 ||
      D.questions.some(function (q) { return q.shuffle || q.type === 'matching' || q.draws; });
  }
  /* The draw of parameterised q that an attempt with seed gets: picked
   * from the seed (seed null: draw 0, the first); under the preview's
   * stand-in LMS, the draw it asks for (its "next draw" button). */
  function drawIndex(q, seed) {
    var n = q.draws ? q.draws.length : 0;
    if (!n) return 0;
    var fixed = seed === S.seed && lms.api && lms.api.qbcDraws;
    if (fixed && typeof fixed === 'object') {
      var k = Number(fixed[q.id]) || 0;
      return k >= 0 && k < n ? Math.floor(k) : 0;
    }
    return seed === null ? 0 : Math.floor(rng(seed + ':vars:' + q.key)() * n) % n;
  }
  /* Question q (the bank's) as draw k shows it: its members with those
   * of the draw over them; q itself when it is not parameterised. */
  function withDraw(q, k) {
    if (!q.draws) return q;
    var o = {}, d = q.draws[k] || {};
    Object.keys(q).forEach(function (name) { if (name !== 'draws') o[name] = q[name]; });
    Object.keys(d).forEach(function (name) { o[name] = d[name]; });
    o.draw = k;
    o.ndraws = q.draws.length;
    return o;
  }
  function newSeed() {
    var s = '';
    for (var i = 0; i < 6; i++) s += Math.floor(Math.random() * 36).toString(36);
    return s;
  }
  /* Sets this attempt's questions: the saved drawn keys, else a new draw
   * (N from the bank, or N per first tag) from the seed; the order is
   * shuffled from the seed when the bank asks for it. */
  function makeAttempt(drawn) {
    var list = [];
    if (D.draw > 0 && drawn) {
      for (var i = 0; i + D.keyLen <= drawn.length; i += D.keyLen) {
        var q = base[drawn.substr(i, D.keyLen)];
        if (q && list.indexOf(q) < 0) list.push(q);
      }
    }
    if (!list.length) list = drawQuestions(S.seed);
    // Each parameterised question in the draw of this attempt.
    Q = list.map(function (q) { return withDraw(q, drawIndex(q, S.seed)); });
    byKey = {};
    D.questions.forEach(function (q) { byKey[q.key] = q; });
    Q.forEach(function (q, i) { q.index = i; byKey[q.key] = q; });
  }
  /* The questions a seed draws, in the order it gives them. */
  function drawQuestions(seed) {
    var list = D.questions.slice();
    if (D.draw > 0) {
      var groups = {}, names = [], picked = {};
      list.forEach(function (q) {
        var g = D.drawPerTag ? q.tag : '';
        if (!groups[g]) { groups[g] = []; names.push(g); }
        groups[g].push(q);
      });
      names.forEach(function (g) {
        shuffled(groups[g], seed + ':draw:' + g).slice(0, D.draw).forEach(function (q) { picked[q.key] = 1; });
      });
      list = list.filter(function (q) { return picked[q.key]; });
    }
    return D.shuffleQuestions ? shuffled(list, seed + ':order') : list;
  }
  function inAttempt(key) { return byKey[key] && Q.indexOf(byKey[key]) >= 0; }
  /* The options of q in the order shown: shuffled from the seed when q
   * shuffles, pinned options kept in place. */
  function shownOptions(q) { return optionOrder(q, S.seed); }
  function optionOrder(q, seed) {
    if (!q.shuffle) return q.options;
    var mixed = shuffled(q.options.filter(function (o) { return !o.pinned; }), seed + ':' + q.key), k = 0;
    return q.options.map(function (o) { return o.pinned ? o : mixed[k++]; });
  }

  function correctLetters(q) {
    return q.options.filter(function (o) { return o.correct; })
      .map(function (o) { return o.id; }).join('');
  }
  function isChoice(q) { return q.type === 'single' || q.type === 'multiple' || q.type === 'true-false'; }
  function isTyped(q) { return q.type === 'short-answer' || q.type === 'numeric'; }
  function pairs(q) { return q.options.filter(function (o) { return o.text !== null; }); }
  function letter(i) { return String.fromCharCode(97 + i); }
  /* The letter shown before the option at position i: the catalogue's
   * (Arabic أ ب ج …), else A B C …; saved answers keep letter(). */
  function optionLetter(i) {
    var list = ((D.labels[S.lang] && D.labels[S.lang].letters) || '').split(' ').filter(Boolean);
    return list[i] || letter(i).toUpperCase();
  }
  /* A number as the language writes it: plain digits and the catalogue's
   * decimal mark ("0,1" in French and Arabic). */
  function numText(x) { return plainNumber(x).replace('.', L('decimalMark')); }
  /* Text as HTML (a learner's typed answer next to a bank's HTML). */
  function esc(t) {
    return String(t).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  }

  /* A typed text in the saved state: "<length>:<text>" (no escaping). */
  function typed(text) { return text.length + ':' + text; }
  /* Reads a typed text at s[at]: [text, next index] or null. */
  function readTyped(s, at, cap) {
    var m = /^(\d{1,3}):/.exec(s.slice(at, at + 4));
    if (!m) return null;
    var n = +m[1], from = at + m[0].length;
    if (n > cap || from + n > s.length) return null;
    return [s.substr(from, n), from + n];
  }

  /* The saved answer of q (the part after "<key>.<fp>.") from its value. */
  function encode(q, v) {
    if (isChoice(q)) return v;
    if (isTyped(q)) return typed(v);
    if (q.type === 'matching') return v.join('');
    return q.gaps.map(function (g, i) { return g.choice ? letter(v[i]) : typed(v[i]); }).join('');
  }
  /* Reads the saved answer of q at s[at]: [value, next index] or null. */
  function decode(q, s, at) {
    var m;
    if (isChoice(q)) {
      m = /^[a-z]+/.exec(s.slice(at));
      return m && validLetters(q, m[0]) ? [m[0], at + m[0].length] : null;
    }
    if (isTyped(q)) {
      var t = readTyped(s, at, q.cap);
      return t && t[0] ? t : null;
    }
    if (q.type === 'matching') {
      var n = pairs(q).length, v = s.substr(at, n).split('');
      var rids = q.options.map(function (o) { return o.rid; });
      if (v.length !== n || v.some(function (r) { return rids.indexOf(r) < 0; })) return null;
      return [v, at + n];
    }
    var out = [];
    for (var i = 0; i < q.gaps.length; i++) {
      var g = q.gaps[i];
      if (g.choice) {
        var k = s.charCodeAt(at) - 97;
        if (!(k >= 0 && k < 26)) return null;
        out.push(k);
        at++;
      } else {
        var r = readTyped(s, at, g.cap);
        if (!r) return null;
        out.push(r[0]);
        at = r[1];
      }
    }
    return [out, at];
  }

  function serialize() {
    var ans = [];
    Q.forEach(function (q) {
      var a = S.answers[q.key];
      if (a) ans.push(q.key + '.' + q.fp + '.' + encode(q, a.value));
    });
    var drawn = D.draw > 0 ? Q.map(function (q) { return q.key; }).join('') : '';
    return D.stateFormat + '|' + S.lang + '|' + S.pos + '|' + S.seed + '|' + drawn + '|' + ans.join(',');
  }

  /* Reads a saved state; anything unknown is ignored, never fatal. */
  function restore(str) {
    if (typeof str !== 'string' || !str) return false;
    var parts = str.split('|');
    // Format 1 (before seeds and draws): 1|lang|pos|answers.
    var v1 = parts[0] === '1' && parts.length >= 4;
    if (!v1 && (parts.length < 6 || parts[0] !== String(D.stateFormat))) return false;
    if (!v1 && /^[0-9a-z]{6}$/.test(parts[3])) S.seed = parts[3];
    if (!S.seed && needsSeed()) S.seed = newSeed();
    makeAttempt(v1 ? '' : parts[4]);
    var list = parts.slice(v1 ? 3 : 5).join('|'); // typed answers may hold '|'
    var found = false, changed = [], removed = 0;
    for (var at = 0; at < list.length;) {
      var m = /^([0-9a-f]+)\.([0-9a-f]+)\./.exec(list.slice(at, at + 80));
      var q = m && byKey[m[1]];
      var d = q && m[2] === q.fp ? decode(q, list, at + m[0].length) : null;
      if (d && (d[1] === list.length || list.charAt(d[1]) === ',')) {
        if (inAttempt(q.key)) S.answers[q.key] = graded(q, d[0]);
        found = true;
        at = d[1] + 1;
      } else {
        // An answer to a question that changed (its fingerprint) or was
        // removed since it was saved: dropped, and the learner told.
        if (m && !q) removed++;
        else if (m && m[2] !== q.fp && inAttempt(q.key) && changed.indexOf(q.key) < 0) changed.push(q.key);
        // Skip to the next entry that starts a known question.
        var next = list.indexOf(',', at + 1);
        while (next >= 0 && !/^[0-9a-f]+\.[0-9a-f]+\./.test(list.slice(next + 1, next + 40))) next = list.indexOf(',', next + 1);
        at = next < 0 ? list.length : next + 1;
      }
    }
    changed = changed.filter(function (k) { return !S.answers[k]; });
    if (changed.length || removed) S.update = { changed: changed, removed: removed };
    if (D.langs.indexOf(parts[1]) >= 0) S.lang = parts[1];
    if (parts[2] === '*' && allAnswered()) S.pos = '*';
    else if (inAttempt(parts[2])) S.pos = parts[2];
    else if (found) S.pos = firstOpenKey();
    return found || S.pos !== '';
  }

  /* ---------------------------------------------------------------- grading */

  /* The short-answer rule (qb_answer_normalise in the compiler). */
  function norm(s, cs) {
    s = String(s).normalize('NFC').trim().replace(/\s+/g, ' ');
    return cs ? s : s.toLowerCase();
  }
  /* A typed number: '.' or ',' as the decimal mark; null if not a number. */
  function parseNumber(s) {
    var t = String(s).replace(/[\s\u00a0\u202f]/g, '').replace(/\u2212/g, '-');
    if (/^[+-]?\d*,\d+$/.test(t)) t = t.replace(',', '.');
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return null;
    return Number(t);
  }
  /* The listed answer of a short-answer question that s matches, in any
   * language, or null. */
  function matchedAnswer(q, s) {
    var n = norm(s, q.caseSensitive);
    for (var i = 0; i < q.options.length; i++) {
      var o = q.options[i];
      for (var l in o.text) if (norm(o.text[l], q.caseSensitive) === n) return o;
    }
    return null;
  }
  /* x (a parsed number or null) within an accepted number's bounds. */
  function numRight(num, x) {
    var eps = 1e-9 * Math.max(1, Math.abs(num.value));
    return x !== null && x >= num.min - eps && x <= num.max + eps;
  }
  function gapRight(q, g, v) {
    if (g.choice) return v === g.right[D.defaultLang];
    if (g.num) return numRight(g.num, parseNumber(v));
    var n = norm(v, q.caseSensitive);
    return Object.keys(g.answers).some(function (l) {
      return g.answers[l].some(function (x) { return norm(x, q.caseSensitive) === n; });
    });
  }

  /* The further answer of numeric q (its credit, percent) that the typed
   * v earns most with, or null: the best that holds the number. */
  function numMore(q, v) {
    var x = parseNumber(v), best = null;
    if (x === null) return null;
    (q.num.more || []).forEach(function (m) {
      if (numRight(m, x) && (!best || m.credit > best.credit)) best = m;
    });
    return best;
  }

  /* {value, score 0..1, correct, n, total}: the scoring rule of the
   * bank's documentation (all-or-nothing, or partial credit). */
  function graded(q, v) {
    var n = 0, total = 1;
    if (q.type === 'multiple') {
      var right = correctLetters(q);
      total = right.length;
      v.split('').forEach(function (c) { n += right.indexOf(c) >= 0 ? 1 : -1; });
      n = Math.max(0, n);
      if (v !== right) n = Math.min(n, total - 1);
    } else if (isChoice(q)) {
      n = v === correctLetters(q) ? 1 : 0;
    } else if (q.type === 'short-answer') {
      var o = matchedAnswer(q, v);
      n = o && o.correct ? 1 : 0;
    } else if (q.type === 'numeric') {
      n = numRight(q.num, parseNumber(v)) ? 1 : 0;
      var m = n ? null : numMore(q, v);
      if (m) return { value: v, score: m.credit / 100, correct: m.credit >= 100, n: m.credit, total: 100 };
    } else if (q.type === 'matching') {
      var ps = pairs(q);
      total = ps.length;
      ps.forEach(function (p, i) { if (v[i] === p.rid) n++; });
    } else {
      total = q.gaps.length;
      q.gaps.forEach(function (g, i) { if (gapRight(q, g, v[i])) n++; });
    }
    if (q.marks && isChoice(q)) return markGraded(q, v);
    var correct = n === total;
    var score = correct ? 1 : (q.partial ? n / total : 0);
    return { value: v, score: score, correct: correct, n: n, total: total };
  }
  /* A question with marks (negative marking, partial credit): the sum of
   * what the picked options earn (write_scorm.c gives each option's share
   * of the mark, qb_choice_share()), never below 0 nor above 1, as Moodle
   * grades it; the count the learner sees is that score in percent. */
  function markGraded(q, v) {
    var sum = 0;
    q.options.forEach(function (o) { if (v.indexOf(o.id) >= 0) sum += o.mark; });
    var score = Math.min(1, Math.max(0, sum));
    var correct = v === correctLetters(q);
    return { value: v, score: correct ? 1 : score, correct: correct,
      n: correct ? 100 : Math.round(100 * score * 100) / 100, total: 100 };
  }

  function validLetters(q, letters) {
    if (!letters || (q.type !== 'multiple' && letters.length !== 1)) return false;
    var ids = q.options.map(function (o) { return o.id; }).join('');
    var last = -1;
    for (var i = 0; i < letters.length; i++) {
      var at = ids.indexOf(letters.charAt(i));
      if (at <= last) return false; // unknown, repeated or out of order
      last = at;
    }
    return true;
  }

  function answeredCount() { return Object.keys(S.answers).length; } // only the attempt's
  function allAnswered() { return answeredCount() === Q.length; }
  function correctCount() {
    return Object.keys(S.answers).filter(function (k) { return S.answers[k].correct; }).length;
  }
  function scoreSum() {
    return Object.keys(S.answers).reduce(function (t, k) { return t + S.answers[k].score; }, 0);
  }
  function firstOpenKey() {
    for (var i = 0; i < Q.length; i++)
      if (!S.answers[Q[i].key]) return Q[i].key;
    return '*';
  }
  /* Percentage correct, unrounded.  The pass mark is compared with it
   * (59.5% fails a 60% mark). */
  function scoreMean() { return Q.length ? 100 * scoreSum() / Q.length : 0; }
  function isPassed() { return D.passMark === null || scoreMean() >= D.passMark - 1e-9; }
  /* The percentage the LMS gets and the learner sees: the mean to the
   * hundredth (87.88, as Moodle's own quiz shows it; Moodle grades from
   * score.raw), except that a failing mean is never rounded up to the pass
   * mark (59.996 gives 59.99, not 60), so that Moodle's own comparison
   * with the mastery score says what the player says. */
  function scoreRaw() {
    var m = scoreMean(), r = Math.round(m * 100 + 1e-7) / 100;
    if (!isPassed() && r >= D.passMark) r = Math.floor(m * 100 + 1e-7) / 100;
    return r;
  }
  /* x with at most n decimals and no trailing zeros: "87.88", "60". */
  function fixed(x, n) { return String(Number(x.toFixed(n))); }

  /* ------------------------------------------------------------ the LMS API */

  function findApi(win, name) {
    for (var n = 0; win && n < 500; n++) {
      try { if (win[name]) return win[name]; } catch (e) { /* cross-origin */ }
      var up;
      try { up = win.parent; } catch (e) { up = null; }
      if (!up || up === win) break;
      win = up;
    }
    return null;
  }

  function discover() {
    var name = V12 ? 'API' : 'API_1484_11';
    var api = findApi(window, name);
    try {
      if (!api && window.opener) api = findApi(window.opener, name);
    } catch (e) { /* opener from another origin */ }
    return api;
  }

  var M = V12 ? {
    init: 'LMSInitialize', get: 'LMSGetValue', set: 'LMSSetValue', commit: 'LMSCommit',
    finish: 'LMSFinish', err: 'LMSGetLastError',
    pref: 'cmi.student_preference.language', status: 'cmi.core.lesson_status',
    score: 'cmi.core.score.', exit: 'cmi.core.exit', session: 'cmi.core.session_time',
    location: 'cmi.core.lesson_location', response: 'student_response', time: 'time'
  } : {
    init: 'Initialize', get: 'GetValue', set: 'SetValue', commit: 'Commit',
    finish: 'Terminate', err: 'GetLastError',
    pref: 'cmi.learner_preference.language', status: 'cmi.completion_status',
    score: 'cmi.score.', exit: 'cmi.exit', session: 'cmi.session_time',
    location: 'cmi.location', response: 'learner_response', time: 'timestamp'
  };

  var lms = {
    api: null,
    live: false,     // initialised and not yet finished
    failed: false,   // the last save did not go through
    retry: null,
    delay: 2000,
    queue: [],       // interaction writes to (re)try
    get: function (el) {
      if (!this.live) return '';
      try {
        var v = this.api[M.get](el);
        var code = String(this.api[M.err]());
        // 403 (scorm-again: not initialised) and "" (Moodle) both mean no data.
        return code === '0' && v != null ? String(v) : '';
      } catch (e) { return ''; }
    },
    set: function (el, value) {
      if (!this.live) return false;
      try {
        var ok = String(this.api[M.set](el, String(value))) === 'true';
        return ok;
      } catch (e) { return false; }
    },
    commit: function () {
      if (!this.live) return false;
      try { return String(this.api[M.commit]('')) === 'true'; } catch (e) { return false; }
    }
  };

  function pad(n, w) { n = String(n); while (n.length < (w || 2)) n = '0' + n; return n; }
  /* 1.2 CMITimespan HH:MM:SS; 2004 ISO 8601 duration. */
  function span(ms) {
    var s = Math.max(0, Math.round(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
    if (V12) return pad(Math.min(h, 9999)) + ':' + pad(m) + ':' + pad(sec);
    return 'PT' + h + 'H' + m + 'M' + sec + 'S';
  }
  /* 1.2 CMITime HH:MM:SS; 2004 timestamp YYYY-MM-DDThh:mm:ss (local). */
  function stamp(d) {
    var t = pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds());
    if (V12) return t;
    return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) + 'T' + t;
  }
  /* A choice response: 1.2 "a,c", 2004 "a[,]c". */
  function response(letters) { return letters.split('').join(V12 ? ',' : '[,]'); }

  var started = Date.now();

  function writeStatus() {
    var done = allAnswered();
    if (V12) {
      var st = 'incomplete';
      if (done) st = D.passMark === null ? 'completed' : (isPassed() ? 'passed' : 'failed');
      lms.set(M.status, st);
    } else {
      lms.set('cmi.completion_status', done ? 'completed' : 'incomplete');
      lms.set('cmi.success_status',
        !done || D.passMark === null ? 'unknown' : (isPassed() ? 'passed' : 'failed'));
    }
    if (done) {
      // Only when finished: with a mastery score, Moodle turns any raw
      // score into passed/failed at LMSFinish ("mastery score overrides").
      lms.set(M.score + 'min', '0');
      lms.set(M.score + 'max', '100');
      lms.set(M.score + 'raw', fixed(scoreRaw(), 2));
      if (!V12) lms.set('cmi.score.scaled', fixed(scoreRaw() / 100, 4));
    }
  }

  /* x without binary noise (9.860000000000001 -> 9.86). */
  function clean(x) { return Number(Number(x).toPrecision(15)); }
  /* x in plain decimal notation (1e+31 -> 10000...): 1.2's numeric. */
  function plainNumber(x) {
    return clean(x).toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  }
  /* 2004 CMIDecimal, which Moodle checks for numeric responses. */
  function decimal(x) {
    var s = String(clean(x));
    return /^-?([0-9]{1,5})(\.[0-9]{1,18})?$/.test(s) ? s : null;
  }
  function cut(s) { return Array.from(s).slice(0, V12 ? 255 : 250).join('').replace(/\[,\]/g, ','); }
  /* The interaction type, the learner's response and the correct
   * patterns of an answer, in the formats of SCORM 1.2 and 2004 (null:
   * not written, a value Moodle would refuse). */
  function record(q, v) {
    var fields = V12 ? ',' : '[,]', pair = V12 ? '.' : '[.]';
    var cs = !V12 && q.caseSensitive ? '{case_matters=true}' : '';
    if (q.type === 'true-false') {
      var tf = function (l) { return l === 'a' ? (V12 ? 't' : 'true') : (V12 ? 'f' : 'false'); };
      return { type: 'true-false', response: tf(v), patterns: [tf(correctLetters(q))] };
    }
    if (isChoice(q)) return { type: 'choice', response: response(v), patterns: [response(correctLetters(q))] };
    if (q.type === 'short-answer') {
      var seen = {}, pats = [];
      q.options.forEach(function (o) {
        if (!o.correct) return;
        for (var l in o.text) if (!seen[o.text[l]]) { seen[o.text[l]] = 1; pats.push(cs + cut(o.text[l])); }
      });
      return { type: 'fill-in', response: cut(v), patterns: pats };
    }
    if (q.type === 'numeric') {
      var x = parseNumber(v), lo = decimal(q.num.min), hi = decimal(q.num.max);
      var pat = V12 ? (q.num.min === q.num.max ? plainNumber(q.num.min) : plainNumber(q.num.min) + ':' + plainNumber(q.num.max))
                    : (lo !== null && hi !== null ? lo + '[:]' + hi : null);
      return { type: 'numeric', response: V12 ? cut(plainNumber(x)) : decimal(x), patterns: pat === null ? [] : [pat] };
    }
    if (q.type === 'matching') {
      var ps = pairs(q);
      return { type: 'matching',
        response: ps.map(function (p, i) { return p.id + pair + v[i]; }).join(fields),
        patterns: [ps.map(function (p) { return p.id + pair + p.rid; }).join(fields)] };
    }
    var texts = q.gaps.map(function (g, i) { return g.choice ? gapChoice(g, v[i]) : v[i]; });
    // a number gap's pattern is its number (a range's middle), as the LMS compares text
    var right = q.gaps.map(function (g) { return g.num ? plainNumber(g.num.value) : gapAnswer(g); });
    if (!V12 && q.gaps.length > 10) return { type: 'fill-in', response: null, patterns: [] };
    // Gaps are separated by "[,]" in both versions (1.2 has no multi-part
    // fill-in form; Moodle keeps its 255 characters).
    var join = function (a) { var t = a.map(cut).join('[,]'); return V12 ? t.slice(0, 255) : t; };
    return { type: 'fill-in', response: join(texts), patterns: [cs + join(right)] };
  }
  function gapChoice(g, i) { var a = g.answers[S.lang] || g.answers[D.defaultLang]; return a[i] !== undefined ? a[i] : ''; }

  /* The interaction record of one answer, as a function that (re)writes it
   * at a fixed index with fixed values, so a failed write can be retried. */
  function interaction(q, v, correct) {
    var n = 'cmi.interactions.' + (S.nextInteraction++) + '.';
    var rec = record(q, v);
    var values = [[n + 'id', q.id], [n + 'type', rec.type]];
    if (!V12) {
      var text = (q.promptText[S.lang] || '').replace(/^\{+/, '');
      values.push([n + 'description', '{lang=' + S.lang + '}' + Array.from(text).slice(0, 250).join('')]);
    }
    values.push([n + 'weighting', '1']);
    if (rec.response !== null) values.push([n + M.response, rec.response]);
    rec.patterns.forEach(function (p, i) { values.push([n + 'correct_responses.' + i + '.pattern', p]); });
    values.push([n + 'result', correct ? 'correct' : (V12 ? 'wrong' : 'incorrect')],
      [n + 'latency', span(Date.now() - (S.shownAt[q.key] || started))],
      [n + M.time, stamp(new Date())]);
    return function () {
      var ok = true;
      values.forEach(function (kv) { ok = lms.set(kv[0], kv[1]) && ok; });
      return ok;
    };
  }

  /* Saves everything and commits; on failure shows a notice and retries. */
  function save(write) {
    var state = serialize();
    if (!lms.api) {
      try { window.localStorage.setItem(STORE_KEY, state); } catch (e) { /* private mode */ }
      return;
    }
    if (write) lms.queue.push({ fn: write, tries: 0 });
    var ok = true;
    // Interactions not yet accepted by the LMS are written again (at most
    // MAX_TRIES times each: a value the LMS always refuses is dropped).
    lms.queue = lms.queue.filter(function (w) {
      if (w.fn()) return false;
      ok = false;
      return ++w.tries < MAX_TRIES;
    });
    ok = lms.set('cmi.suspend_data', state) && ok;
    ok = lms.set(M.pref, S.lang) && ok;
    if (S.pos) ok = lms.set(M.location, S.pos) && ok; // 2004 rejects ""
    writeStatus();
    ok = lms.set(M.exit, allAnswered() ? (V12 ? '' : 'normal') : 'suspend') && ok;
    ok = lms.commit() && ok;
    if (ok) {
      if (lms.failed) notice(L('saved'), false);
      lms.failed = false;
      lms.delay = 2000;
    } else {
      lms.failed = true;
      notice(L('saveError'), true);
      if (!lms.retry && lms.live) {
        lms.retry = window.setTimeout(function () {
          lms.retry = null;
          lms.delay = Math.min(lms.delay * 2, 30000);
          save();
        }, lms.delay);
      }
    }
  }

  function finish() {
    if (!lms.live) return;
    lms.set(M.session, span(Date.now() - started));
    save();
    try { lms.api[M.finish](''); } catch (e) { /* nothing more to do */ }
    lms.live = false;
  }

  /* ------------------------------------------------------------- rendering */

  var main = document.getElementById('main');
  var langsBox = document.getElementById('langs');
  var announcer = document.getElementById('announce');
  var noticeBox = document.getElementById('notice');
  var noticeKey = null;

  function L(name, vars) {
    var s = (D.labels[S.lang] && D.labels[S.lang][name]) || name;
    return s.replace(/\{(\w+)\}/g, function (m, k) {
      return vars && vars[k] !== undefined ? String(vars[k]) : m;
    });
  }
  // The name of language l in the active language ("Kiingereza" in
  // Kiswahili), else its own name.
  function langIn(l) {
    var names = D.labels[S.lang] && D.labels[S.lang].languageNames;
    return (names && names[l]) || D.langNames[l] || l;
  }
  /* Right to left or left to right: the language's catalogue says (the
   * writer puts each catalogue's "dir" in QB_DATA); for a language without
   * one, the BCP 47 tag does: a script subtag decides (pa-Arab is RTL,
   * ar-Latn LTR), else the language. */
  var RTL_SCRIPTS = ['adlm', 'arab', 'hebr', 'mand', 'mend', 'nkoo', 'rohg', 'samr', 'syrc', 'thaa'];
  var RTL_LANGS = ['ar', 'ckb', 'dv', 'fa', 'he', 'iw', 'ji', 'ps', 'sd', 'syr', 'ug', 'ur', 'yi'];
  function dirOf(l) {
    var own = (D.dirs && D.dirs[l]) || (D.labels[l] && D.labels[l].dir);
    if (own === 'rtl' || own === 'ltr') return own;
    var parts = String(l).toLowerCase().split('-');
    for (var i = 1; i < parts.length && parts[i].length > 1; i++)
      if (/^[a-z]{4}$/.test(parts[i])) return RTL_SCRIPTS.indexOf(parts[i]) >= 0 ? 'rtl' : 'ltr';
    return RTL_LANGS.indexOf(parts[0]) >= 0 ? 'rtl' : 'ltr';
  }
  function tx(map, lang) {
    if (!map) return '';
    var l = lang || S.lang;
    return map[l] !== undefined ? map[l] : map[D.defaultLang] || '';
  }

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) {
      var v = attrs[k];
      if (v === null || v === undefined || v === false) return;
      if (k === 'text') e.textContent = v;
      else if (k === 'html') e.innerHTML = v;   // md4c output, escaped by qbc
      else if (k === 'onclick') e.addEventListener('click', v);
      else if (k === 'onchange') e.addEventListener('change', v);
      else e.setAttribute(k, v === true ? '' : v);
    });
    if (attrs && attrs.lang && !attrs.dir) e.setAttribute('dir', dirOf(attrs.lang));
    (kids || []).forEach(function (k) { if (k) e.appendChild(k); });
    return e;
  }
  function html(tag, cls, map, lang) {
    var l = lang || S.lang;
    return el(tag, { 'class': cls, lang: l, html: tx(map, l) });
  }

  function notice(msg, isError, key) {
    noticeKey = key || msg;
    noticeBox.textContent = msg;
    noticeBox.className = 'notice' + (isError ? ' notice-error' : '');
    noticeBox.hidden = false;
    noticeBox.setAttribute('lang', S.lang);
  }

  /* What a new version of the quiz did to the saved answers: how many
   * were kept, which questions changed and are to be answered again (by
   * their numbers), how many were removed. */
  function updateText() {
    var u = S.update, nums = u.changed.map(function (k) { return byKey[k].index + 1; })
      .sort(function (a, b) { return a - b; });
    return [L('updated', { kept: answeredCount() }),
      nums.length ? L('updatedChanged', { list: nums.join(L('listSep')) }) : null,
      u.removed ? L('updatedRemoved', { n: u.removed }) : null].filter(Boolean).join(' ');
  }

  function announce(msg) {
    announcer.setAttribute('lang', S.lang);
    announcer.textContent = '';
    window.setTimeout(function () { announcer.textContent = msg; }, 50);
  }

  function renderLangs() {
    langsBox.textContent = '';
    langsBox.setAttribute('aria-label', L('language'));
    langsBox.setAttribute('lang', S.lang);
    langsBox.hidden = D.langs.length < 2;
    D.langs.forEach(function (l) {
      langsBox.appendChild(el('button', {
        type: 'button', 'class': 'lang-btn', lang: l, 'aria-pressed': String(l === S.lang),
        'data-lang': l, text: D.langNames[l] || l,
        onclick: function () { setLang(l); }
      }));
    });
  }

  function setLang(l) {
    if (l === S.lang || D.langs.indexOf(l) < 0) return;
    S.lang = l;
    render(false);
    var b = langsBox.querySelector('[data-lang="' + l + '"]');
    if (b) b.focus();
    save();
  }

  function render(moveFocus) {
    document.documentElement.lang = S.lang;
    document.documentElement.dir = dirOf(S.lang);
    document.title = tx(D.title);
    var bar = document.getElementById('bar-title');
    bar.textContent = tx(D.title);
    bar.setAttribute('lang', S.lang);
    renderLangs();
    if (noticeKey === 'updated' && !noticeBox.hidden) notice(updateText(), false, 'updated');
    else if (noticeKey && !noticeBox.hidden) notice(L(lms.failed ? 'saveError' : (lms.api ? 'saved' : 'standalone')), lms.failed);
    main.textContent = '';
    main.setAttribute('lang', S.lang);
    if (S.pos === '') renderStart();
    else if (S.pos === '*') renderSummary();
    else renderQuestion(byKey[S.pos]);
    renderMath(main);
    if (moveFocus) {
      var h = main.querySelector('h1, h2');
      if (h) { h.setAttribute('tabindex', '-1'); h.focus(); }
    }
  }

  /* Typesets every formula (markup.c writes <span class="math inline|display">
   * with the TeX source between \( \) or \[ \]) with KaTeX, which qbc
   * packs only when the bank has math.  A formula KaTeX rejects shows its
   * source and the error, never a blank. */
  function texOf(span) { return span.textContent.replace(/^\\[([]/, '').replace(/\\[)\]]$/, ''); }
  function renderMath(root) {
    if (!window.katex) return;
    Array.prototype.forEach.call(root.querySelectorAll('span.math'), function (span) {
      if (span.getAttribute('data-tex') !== null) return;
      var tex = texOf(span);
      var display = span.classList.contains('display');
      span.setAttribute('data-tex', tex);
      try {
        window.katex.render(tex, span, { displayMode: display, throwOnError: true });
      } catch (e) {
        span.textContent = '';
        span.classList.add('math-error');
        span.appendChild(el('code', { text: tex }));
        span.appendChild(el('span', { 'class': 'math-error-msg', text: ' ⚠ ' + (e && e.message ? e.message : String(e)) }));
      }
    });
  }

  function go(pos) {
    S.pos = pos;
    if (byKey[pos] && !S.shownAt[pos]) S.shownAt[pos] = Date.now();
    render(true);
    save();
  }

  function renderStart() {
    var any = answeredCount() > 0;
    main.appendChild(el('section', { 'class': 'card start' }, [
      el('h1', { lang: S.lang, text: tx(D.title) }),
      D.description ? html('div', 'desc', D.description) : null,
      el('p', { 'class': 'meta', lang: S.lang, text: L('questionCount', { total: Q.length }) +
        (D.passMark !== null ? ' · ' + L('passInfo', { pass: D.passMark }) : '') }),
      el('button', {
        type: 'button', 'class': 'btn primary', id: 'start', lang: S.lang,
        text: any ? L('resume') : L('start'),
        onclick: function () { go(any ? firstOpenKey() : Q[0].key); }
      })
    ]));
  }

  function optionState(q, o) {
    var a = S.answers[q.key];
    if (!a) return null;
    return { chosen: a.value.indexOf(o.id) >= 0, correct: o.correct };
  }
  function optionHtml(q, o) {
    if (q.type === 'true-false') return el('span', { 'class': 'opt-text', lang: S.lang, text: L(o.id === 'a' ? 'true' : 'false') });
    return html('span', 'opt-text', o.text);
  }

  /* The options of single, multiple and true-false. */
  function choiceInputs(q, a) {
    var multi = q.type === 'multiple';
    var name = 'q-' + q.key;
    var pending = S.pending[q.key] || '';
    var list = el('div', { 'class': 'options' });
    shownOptions(q).forEach(function (o, pos) {
      var st = optionState(q, o);
      var id = name + '-' + o.id;
      var input = el('input', {
        type: multi ? 'checkbox' : 'radio', name: name, id: id, value: o.id,
        checked: a ? st.chosen : pending.indexOf(o.id) >= 0, disabled: !!a,
        onchange: function () { updatePending(q); }
      });
      var marks = [];
      if (st && st.correct) marks.push(el('span', { 'class': 'mark mark-ok', lang: S.lang,
        text: '✓ ' + L('correctOption') + (st.chosen ? L('listSep').replace(/\s+$/, '') : '') }));
      if (st && st.chosen) marks.push(el('span', { 'class': 'mark ' + (st.correct ? 'mark-chosen-ok' : 'mark-bad'), lang: S.lang,
        text: (st.correct ? '' : '✗ ') + L('yourChoice') }));
      var cls = 'option' + (st ? (st.correct ? ' is-correct' : (st.chosen ? ' is-wrong' : '')) : '');
      var row = el('div', { 'class': cls }, [
        input,
        el('label', { 'for': id }, [
          el('span', { 'class': 'letter', 'aria-hidden': 'true', text: optionLetter(pos) }),
          optionHtml(q, o)
        ])
      ]);
      // Screen readers hear the marks and the feedback with the option.
      var described = [];
      if (marks.length) {
        row.appendChild(el('div', { 'class': 'marks', id: id + '-marks' }, marks));
        described.push(id + '-marks');
      }
      if (a && o.feedback) {
        var fb = html('div', 'feedback', o.feedback);
        fb.id = id + '-fb';
        row.appendChild(fb);
        described.push(fb.id);
      }
      if (described.length) input.setAttribute('aria-describedby', described.join(' '));
      list.appendChild(row);
    });
    var fs = el('fieldset', { 'class': 'question' }, [
      el('legend', { 'class': 'prompt' }, [html('span', '', q.prompt)]),
      el('p', { 'class': 'hint', lang: S.lang, text: multi ? L('chooseMany') : L('chooseOne') }),
      list
    ]);
    if (!multi) fs.setAttribute('role', 'radiogroup');
    return fs;
  }

  /* A text box for short-answer and numeric. */
  function typedInput(q, a) {
    var id = 'q-' + q.key + '-input';
    var input = el('input', {
      type: 'text', id: id, 'class': 'answer-box', maxlength: String(q.cap), autocomplete: 'off',
      spellcheck: 'false', inputmode: q.type === 'numeric' ? 'decimal' : null, disabled: !!a,
      lang: S.lang
    });
    input.value = a ? a.value : (S.pending[q.key] || '');
    input.addEventListener('input', function () { updatePending(q); });
    input.addEventListener('keydown', function (e) { if (e.key === 'Enter') check(q); });
    var row = el('div', { 'class': 'typed' }, [input]);
    if (q.unit) row.appendChild(el('span', { 'class': 'unit', text: q.unit }));
    return el('div', { 'class': 'question' }, [
      el('div', { 'class': 'prompt', id: id + '-prompt' }, [html('div', '', q.prompt)]),
      el('label', { 'for': id, 'class': 'hint', lang: S.lang, text: q.type === 'numeric' ? L('typeNumber') : L('typeAnswer') }),
      row,
      el('p', { 'class': 'hint input-error', id: id + '-error', lang: S.lang, hidden: true, text: L('notANumber') })
    ]);
  }

  /* Right-hand choices of a matching question, one per distinct right
   * side, in an order fixed by the question (never the pairs' order). */
  function rights(q) {
    var out = q.options.filter(function (o) { return o.rid === o.id && o.match; });
    return shuffled(out, S.seed + ':' + q.key);
  }
  /* The text of bank HTML, a formula as its TeX without the \( \)
   * delimiters (for announcements and drop-down entries). */
  function plain(h) {
    var d = document.createElement('div');
    d.innerHTML = h || '';
    Array.prototype.forEach.call(d.querySelectorAll('span.math'), function (m) {
      m.textContent = texOf(m);
    });
    return d.textContent;
  }

  function matchingInputs(q, a) {
    var pending = S.pending[q.key] || [];
    var rows = pairs(q).map(function (p, i) {
      var id = 'q-' + q.key + '-m' + i;
      var sel = el('select', { id: id, 'class': 'match-select', disabled: !!a, lang: S.lang });
      sel.appendChild(el('option', { value: '', text: L('matchChoose') }));
      rights(q).forEach(function (r) {
        sel.appendChild(el('option', { value: r.rid, text: plain(tx(r.match)) }));
      });
      sel.value = a ? a.value[i] : (pending[i] || '');
      sel.addEventListener('change', function () { updatePending(q); });
      var cls = 'match-row' + (a ? (a.value[i] === p.rid ? ' is-correct' : ' is-wrong') : '');
      var row = el('div', { 'class': cls }, [el('label', { 'for': id, 'class': 'match-left' }, [html('span', '', p.text)]), sel]);
      if (a && a.value[i] !== p.rid) {
        row.appendChild(el('p', { 'class': 'mark mark-ok', lang: S.lang }, [
          el('span', { text: '✓ ' + L('correctOption') + L('colon') }), html('span', '', p.match)]));
      }
      return row;
    });
    return el('div', { 'class': 'question' }, [
      el('div', { 'class': 'prompt' }, [html('div', '', q.prompt)]),
      el('p', { 'class': 'hint', lang: S.lang, text: L('matchPrompt') }),
      el('div', { 'class': 'matches' }, rows)
    ]);
  }

  function clozeInputs(q, a) {
    var pending = S.pending[q.key] || [];
    var box = html('div', 'prompt cloze', q.prompt);
    Array.prototype.forEach.call(box.querySelectorAll('span.gap'), function (span) {
      var i = +span.getAttribute('data-gap'), g = q.gaps[i];
      if (!g) return;
      var id = 'q-' + q.key + '-g' + i, input;
      var v = a ? a.value[i] : pending[i];
      if (g.choice) {
        input = el('select', { id: id, 'class': 'gap-select', disabled: !!a, 'aria-label': L('gap', { n: i + 1 }) });
        input.appendChild(el('option', { value: '', text: L('matchChoose') }));
        // In alphabetical order, so that the right choice's place (first
        // in the bank) tells nothing; the value stays its index.
        (g.answers[S.lang] || g.answers[D.defaultLang]).map(function (t, k) { return { t: t, k: k }; })
          .sort(function (x, y) { return x.t.localeCompare(y.t, S.lang) || x.k - y.k; })
          .forEach(function (c) { input.appendChild(el('option', { value: String(c.k), text: c.t })); });
        input.value = v === undefined || v === '' ? '' : String(v);
      } else {
        input = el('input', { type: 'text', id: id, 'class': 'gap-input', maxlength: String(g.cap), autocomplete: 'off',
          spellcheck: 'false', inputmode: g.num ? 'decimal' : null, disabled: !!a, 'aria-label': L('gap', { n: i + 1 }) });
        input.value = v || '';
        input.addEventListener('keydown', function (e) { if (e.key === 'Enter') check(q); });
      }
      input.addEventListener(g.choice ? 'change' : 'input', function () { updatePending(q); });
      span.appendChild(input);
      if (a) {
        var ok = gapRight(q, g, v);
        span.className = 'gap ' + (ok ? 'is-correct' : 'is-wrong');
        if (!ok) span.appendChild(el('span', { 'class': 'gap-answer', lang: S.lang,
          text: '✓ ' + gapAnswer(g) }));
      }
    });
    return el('div', { 'class': 'question' }, [box]);
  }

  /* The value being answered, from the page: null while incomplete. */
  function collect(q) {
    var pre = '#q-' + q.key;
    if (isChoice(q)) return chosenLetters(q) || null;
    if (isTyped(q)) {
      var t = document.getElementById('q-' + q.key + '-input');
      return t && t.value.trim() ? t.value : null;
    }
    var v = [], done = true;
    if (q.type === 'matching') {
      pairs(q).forEach(function (p, i) { var e = main.querySelector(pre + '-m' + i); v.push(e ? e.value : ''); if (!v[i]) done = false; });
    } else {
      q.gaps.forEach(function (g, i) {
        var e = main.querySelector(pre + '-g' + i);
        var x = e ? e.value : '';
        if (g.choice) v.push(x === '' ? '' : +x); else v.push(x);
        if (x === '' || (!g.choice && !x.trim())) done = false;
      });
    }
    return { value: v, done: done };
  }

  /* The feedback shown after answering: the answer's own, else the
   * question's default for a wrong answer. */
  function feedbackOf(q, a) {
    var own = null;
    if (q.type === 'short-answer') { var o = matchedAnswer(q, a.value); own = o && o.feedback; }
    if (q.type === 'numeric' && !a.correct) { var m = numMore(q, a.value); own = m && m.feedback; }
    if (isChoice(q)) {
      if (q.options.some(function (o) { return a.value.indexOf(o.id) >= 0 && o.feedback; })) return null; // shown with the options
    }
    return own || (a.correct ? null : q.feedbackWrong);
  }

  /* An accepted number in words: '9.81 ± 0.05 (9.76 – 9.86)'. */
  function numAnswer(num, unit) {
    var f = numText;
    var u = unit ? ' ' + unit : '';
    if (num.range) return f(num.min) + ' – ' + f(num.max) + u;
    if (num.tol) return f(num.value) + ' ± ' + f(num.tol) + u + ' (' + f(num.min) + ' – ' + f(num.max) + ')';
    return f(num.value) + u;
  }
  /* A gap's right answer in words. */
  function gapAnswer(g) {
    if (g.choice) return gapChoice(g, g.right[S.lang]);
    if (g.num) return numAnswer(g.num, null);
    return (g.answers[S.lang] || [])[0] || '';
  }
  /* The correct answer in words, for typed questions. */
  function correctText(q) {
    if (q.type === 'short-answer') {
      return q.options.filter(function (o) { return o.correct; })
        .map(function (o) { return o.text[S.lang] !== undefined ? o.text[S.lang] : o.text[D.defaultLang]; })
        .filter(function (t, i, all) { return all.indexOf(t) === i; }).join(' · ');
    }
    if (q.type === 'numeric') {
      // the further answers that earn something, with their credit
      return [numAnswer(q.num, q.unit)].concat((q.num.more || []).filter(function (m) { return m.credit > 0; })
        .map(function (m) { return numAnswer(m, q.unit) + ' (' + numText(m.credit) + '%)'; })).join(L('listSep'));
    }
    if (q.type === 'matching') return pairs(q).map(function (p) { return plain(tx(p.text)) + ' → ' + plain(tx(p.match)); }).join(L('listSep'));
    if (q.type === 'cloze') return q.gaps.map(gapAnswer).join(L('listSep'));
    return optionTexts(q, correctLetters(q));
  }
  /* The correct answer as the question shows it: options and matching
   * sides as their HTML (formulas typeset by renderMath), the rest as
   * escaped text. */
  function correctHtml(q) {
    if (isChoice(q)) return optionHtmls(q, correctLetters(q));
    if (q.type === 'matching') return pairs(q).map(function (p) { return tx(p.text) + ' → ' + tx(p.match); }).join(esc(L('listSep')));
    return esc(correctText(q));
  }
  function answerHtml(q, a) {
    if (isChoice(q)) return optionHtmls(q, a.value);
    if (q.type === 'matching') {
      return pairs(q).map(function (p, i) {
        var r = q.options.filter(function (o) { return o.id === a.value[i]; })[0];
        return tx(p.text) + ' → ' + (r ? tx(r.match) : '');
      }).join(esc(L('listSep')));
    }
    return esc(answerText(q, a));
  }
  function answerText(q, a) {
    if (isChoice(q)) return optionTexts(q, a.value);
    if (isTyped(q)) return a.value + (q.unit ? ' ' + q.unit : '');
    if (q.type === 'matching') {
      return pairs(q).map(function (p, i) {
        var r = q.options.filter(function (o) { return o.id === a.value[i]; })[0];
        return plain(tx(p.text)) + ' → ' + (r ? plain(tx(r.match)) : '');
      }).join(L('listSep'));
    }
    return q.gaps.map(function (g, i) { return g.choice ? gapChoice(g, a.value[i]) : a.value[i]; }).join(L('listSep'));
  }
  /* "Correct", "Partly correct: 1 of 3", "Incorrect": a count only where
   * the question scores partially ("0 of 2" would read as a partial
   * score on an all-or-nothing question). */
  function resultLabel(q, a) {
    if (a.correct) return L('correct');
    if (a.score > 0) return L('partlyCorrect') + L('colon') + L('partialScore', { n: a.n, total: a.total });
    return L('wrong') + (q.partial && a.total > 1 ? ' (' + L('partialScore', { n: a.n, total: a.total }) + ')' : '');
  }

  function renderQuestion(q) {
    var a = S.answers[q.key];
    var body = isChoice(q) ? choiceInputs(q, a) : isTyped(q) ? typedInput(q, a)
      : q.type === 'matching' ? matchingInputs(q, a) : clozeInputs(q, a);
    var card = el('section', { 'class': 'card' }, [
      el('h1', { 'class': 'qnum', lang: S.lang, text: L('questionOf', { n: q.index + 1, total: Q.length }) }),
      drawBar(q),
      passageOf(q),
      body
    ]);
    var pending = S.pending[q.key];

    if (a) {
      card.appendChild(el('p', { 'class': 'result ' + (a.correct ? 'result-ok' : 'result-bad'), lang: S.lang },
        [el('span', { 'class': 'result-icon', 'aria-hidden': 'true', text: a.correct ? '✓' : (a.score > 0 ? '◐' : '✗') }),
         el('strong', { text: resultLabel(q, a) })]));
      var fb = feedbackOf(q, a);
      if (fb) card.appendChild(html('div', 'feedback answer-feedback', fb));
      if (!isChoice(q) && !a.correct) {
        card.appendChild(el('p', { 'class': 'correct-answer', lang: S.lang }, [
          el('strong', { text: L(q.type === 'short-answer' ? 'acceptedAnswers' : 'correctOption') + L('colon') }),
          el('span', { html: correctHtml(q) })]));
      }
      if (q.explanation) card.appendChild(explanation(q));
    }

    var nav = el('div', { 'class': 'nav' });
    if (q.index > 0)
      nav.appendChild(el('button', { type: 'button', 'class': 'btn', id: 'prev', lang: S.lang, text: L('previous'),
        onclick: function () { go(Q[q.index - 1].key); } }));
    if (!a) {
      nav.appendChild(el('button', { type: 'button', 'class': 'btn primary', id: 'check', lang: S.lang,
        text: L('check'), disabled: !ready(q, pending), onclick: function () { check(q); } }));
    } else if (q.index + 1 < Q.length) {
      nav.appendChild(el('button', { type: 'button', 'class': 'btn primary', id: 'next', lang: S.lang, text: L('next'),
        onclick: function () { go(Q[q.index + 1].key); } }));
    } else {
      nav.appendChild(el('button', { type: 'button', 'class': 'btn primary', id: 'next', lang: S.lang, text: L('results'),
        onclick: function () { go(allAnswered() ? '*' : firstOpenKey()); } }));
    }
    card.appendChild(nav);
    main.appendChild(card);
  }

  /* Under the preview's stand-in LMS (templates/preview/preview.js), a
   * parameterised question says which draw it shows and has a button for
   * the next one; a learner never sees either. */
  function drawBar(q) {
    var fixed = lms.api && lms.api.qbcDraws;
    if (!q.ndraws || !fixed || typeof fixed !== 'object') return null;
    return el('p', { 'class': 'draw-bar', lang: S.lang }, [
      el('span', { id: 'draw-of', text: L('drawOf', { n: q.draw + 1, total: q.ndraws }) }),
      el('button', { type: 'button', 'class': 'btn', id: 'next-draw', lang: S.lang, text: L('nextDraw'),
        onclick: function () {
          fixed[q.id] = (q.draw + 1) % q.ndraws;
          var d = withDraw(base[q.key], drawIndex(base[q.key], S.seed));
          d.index = q.index;
          Q[q.index] = d;
          byKey[q.key] = d;
          delete S.answers[q.key];
          delete S.pending[q.key];
          render(false);
          var b = document.getElementById('next-draw');
          if (b) b.focus();
          save();
        } })
    ]);
  }

  /* True when the pending answer can be checked. */
  function ready(q, p) {
    if (!p) return false;
    if (isChoice(q) || isTyped(q)) return !!String(p).trim();
    var n = q.type === 'matching' ? pairs(q).length : q.gaps.length;
    for (var i = 0; i < n; i++) if (p[i] === undefined || p[i] === '' || (typeof p[i] === 'string' && !p[i].trim())) return false;
    return true;
  }

  /* The passage the question is read with (a reading, a picture, a
   * sound), above it; null when it has none. */
  function passageOf(q) {
    var map = q.passage && D.passages && D.passages[q.passage];
    return map ? html('div', 'passage', map) : null;
  }

  function explanation(q) {
    var box = el('div', { 'class': 'explanation' }, [
      el('h2', { lang: S.lang, text: L('explanation') }),
      html('div', 'expl-text', q.explanation)
    ]);
    D.langs.forEach(function (l) {
      if (l === S.lang) return;
      var k = q.key + ':' + l;
      var open = !!S.other[k];
      var id = 'other-' + q.key + '-' + l;
      box.appendChild(el('button', {
        type: 'button', 'class': 'btn link other-btn', 'aria-expanded': String(open), 'aria-controls': id,
        lang: S.lang, text: L(open ? 'hideIn' : 'showIn', { lang: langIn(l) }),
        onclick: function () { S.other[k] = !open; render(false); var b = document.querySelector('[aria-controls="' + id + '"]'); if (b) b.focus(); }
      }));
      var other = html('div', 'expl-other', q.explanation, l);
      other.id = id;
      other.hidden = !open;
      box.appendChild(other);
    });
    return box;
  }

  /* The ticked options' letters in bank order, whatever order the
   * shuffled options are shown in (grading and the saved state expect
   * bank order). */
  function chosenLetters(q) {
    var s = '';
    q.options.forEach(function (o) {
      var b = document.getElementById('q-' + q.key + '-' + o.id);
      if (b && b.checked) s += o.id;
    });
    return s;
  }

  function updatePending(q) {
    var box = document.getElementById('q-' + q.key + '-input');
    S.pending[q.key] = isChoice(q) ? chosenLetters(q) : isTyped(q) ? (box ? box.value : '') : collect(q).value;
    var err = document.getElementById('q-' + q.key + '-input-error');
    if (err) err.hidden = true;
    var b = document.getElementById('check');
    if (b) b.disabled = !ready(q, S.pending[q.key]);
  }

  function optionTexts(q, letters) {
    return q.options.filter(function (o) { return letters.indexOf(o.id) >= 0; })
      .map(function (o) { return q.type === 'true-false' ? L(o.id === 'a' ? 'true' : 'false') : plain(tx(o.text)); })
      .join(L('listSep'));
  }
  function optionHtmls(q, letters) {
    return q.options.filter(function (o) { return letters.indexOf(o.id) >= 0; })
      .map(function (o) { return q.type === 'true-false' ? esc(L(o.id === 'a' ? 'true' : 'false')) : tx(o.text); })
      .join(esc(L('listSep')));
  }

  function check(q) {
    if (S.answers[q.key]) return;
    var c = collect(q), v = isChoice(q) || isTyped(q) ? c : (c.done ? c.value : null);
    if (v === null || (isChoice(q) && !validLetters(q, v))) return;
    if (q.type === 'numeric' && parseNumber(v) === null) {
      var err = document.getElementById('q-' + q.key + '-input-error');
      if (err) err.hidden = false;
      var box = document.getElementById('q-' + q.key + '-input');
      if (box) { box.setAttribute('aria-describedby', 'q-' + q.key + '-input-error'); box.focus(); }
      return;
    }
    var a = graded(q, v);
    S.answers[q.key] = a;
    delete S.pending[q.key];
    render(false);
    var r = main.querySelector('.result');
    if (r) { r.setAttribute('tabindex', '-1'); r.focus(); }
    announce(a.correct ? L('announceCorrect', { answer: correctText(q) })
      : (a.score > 0 ? resultLabel(q, a) + '. ' : '') + L('announceWrong', { answer: correctText(q) }));
    save(interaction(q, v, a.correct));
  }

  /* The prompt in the review; a cloze prompt's gaps hold the learner's
   * answers (a blank line where there is none). */
  function reviewPrompt(q, a) {
    var box = html('div', 'review-prompt', q.prompt);
    if (q.type === 'cloze') {
      Array.prototype.forEach.call(box.querySelectorAll('span.gap'), function (span) {
        var i = +span.getAttribute('data-gap'), g = q.gaps[i];
        if (!g) return;
        var v = a ? (g.choice ? gapChoice(g, a.value[i]) : a.value[i]) : '';
        span.className = 'gap review-gap' + (a ? (gapRight(q, g, a.value[i]) ? ' is-correct' : ' is-wrong') : '');
        span.textContent = v || '_____';
      });
    }
    return box;
  }

  function renderSummary() {
    var raw = scoreRaw();
    var verdict = D.passMark === null ? L('completed') : (isPassed() ? L('passed') : L('failed'));
    var items = Q.map(function (q) {
      var a = S.answers[q.key];
      var ok = a && a.correct;
      var part = a && !ok && (q.partial || q.marks) && a.score > 0;
      return el('li', { 'class': 'review-item ' + (ok ? 'is-correct' : 'is-wrong') }, [
        el('p', { 'class': 'review-result', lang: S.lang }, [
          el('span', { 'aria-hidden': 'true', text: ok ? '✓ ' : (part ? '◐ ' : '✗ ') }),
          el('strong', { text: a ? resultLabel(q, a) : L('wrong') })
        ]),
        reviewPrompt(q, a),
        el('p', { 'class': 'review-line', lang: S.lang }, [el('span', { text: L('yourAnswer') + L('colon') }),
          a ? el('span', { html: answerHtml(q, a) }) : el('span', { text: L('notAnswered') })]),
        ok ? null : el('p', { 'class': 'review-line', lang: S.lang }, [el('span', { text: L('correctOption') + L('colon') }),
          el('span', { html: correctHtml(q) })]),
        el('button', { type: 'button', 'class': 'btn link', lang: S.lang, text: L('backToQuestion', { n: q.index + 1 }),
          onclick: function () { go(q.key); } })
      ]);
    });
    var card = el('section', { 'class': 'card summary' }, [
      el('h1', { lang: S.lang, text: L('summary') }),
      el('p', { 'class': 'score', id: 'score', lang: S.lang, text: L('score', { score: numText(raw) }) }),
      el('p', { 'class': 'meta', lang: S.lang, text: L('scoreDetail', { correct: correctCount(), total: Q.length }) }),
      el('p', { 'class': 'verdict ' + (isPassed() ? 'result-ok' : 'result-bad'), id: 'verdict', lang: S.lang }, [
        el('span', { 'aria-hidden': 'true', text: isPassed() ? '✓ ' : '✗ ' }), el('strong', { text: verdict }),
        D.passMark !== null ? el('span', { text: '(' + L('passInfo', { pass: D.passMark }) + ')' }) : null]),
      el('h2', { lang: S.lang, text: L('review') }),
      el('ol', { 'class': 'review' }, items)
    ]);
    // A new attempt without an LMS, or with one that allows it (the
    // offline HTML file's local store, templates/html/lms.js).
    if (!lms.api || lms.api.qbcNewAttempts === true) {
      card.appendChild(el('div', { 'class': 'nav' }, [el('button', {
        type: 'button', 'class': 'btn primary', id: 'again', lang: S.lang, text: L('tryAgain'),
        onclick: function () {
          // A new attempt: a new seed, so a new draw and order.
          S.answers = {}; S.pending = {}; S.shownAt = {}; S.other = {};
          if (needsSeed()) S.seed = newSeed();
          makeAttempt('');
          go(Q[0].key);
        }
      })]));
    }
    main.appendChild(card);
  }

  /* ----------------------------------------------------------------- start */

  function browserLang() {
    var prefs = (navigator.languages && navigator.languages.length) ? navigator.languages : [navigator.language || ''];
    for (var i = 0; i < prefs.length; i++) {
      var p = String(prefs[i]).toLowerCase();
      for (var j = 0; j < D.langs.length; j++) {
        var l = D.langs[j].toLowerCase();
        if (p === l || p.split('-')[0] === l.split('-')[0]) return D.langs[j];
      }
    }
    return null;
  }

  function start() {
    lms.api = discover();
    var saved = '';
    if (lms.api) {
      var ok = false;
      try { ok = String(lms.api[M.init]('')) === 'true'; } catch (e) { ok = false; }
      lms.live = true;
      if (!ok) { lms.failed = true; notice(L('saveError'), true); }
      saved = lms.get('cmi.suspend_data');
    } else {
      try { saved = window.localStorage.getItem(STORE_KEY) || ''; } catch (e) { saved = ''; }
    }
    var pref = lms.get(M.pref);
    S.resumed = restore(saved);
    if (!Q.length) {
      if (needsSeed()) S.seed = newSeed();
      makeAttempt('');
    }
    if (pref && D.langs.indexOf(pref) >= 0) S.lang = pref;
    else if (!S.resumed) S.lang = browserLang() || D.defaultLang;
    var count = parseInt(lms.get('cmi.interactions._count'), 10);
    S.nextInteraction = isNaN(count) ? answeredCount() : count;
    if (byKey[S.pos]) S.shownAt[S.pos] = Date.now();
    render(false);
    if (!lms.api) notice(L('standalone'), false);
    else if (!saved) {
      // First launch: mark the attempt as started and store the language.
      save();
    }
    if (S.update) notice(updateText(), false, 'updated');
    window.addEventListener('pagehide', finish);
    window.addEventListener('beforeunload', finish);
  }

  // Test and debugging hook: read-only views of the state.
  window.qbPlayer = {
    state: serialize,
    score: scoreRaw,
    lang: function () { return S.lang; },
    // for the offline file's paper versions (templates/html/print.js):
    // the questions and option orders of a seed, as an attempt gets them
    drawQuestions: drawQuestions,
    optionOrder: optionOrder,
    // q as a printed version with seed shows it: its draw (seed null: draw 0)
    drawn: function (q, seed) { return withDraw(q, drawIndex(q, seed)); },
    shuffled: shuffled,
    renderMath: renderMath
  };

  start();
})();
