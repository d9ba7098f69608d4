/* player.js - the quiz player of qbc's SCORM packages (SCORM 1.2 and 2004).
 *
 * Static file, copied into every package.  The bank comes from data.js
 * (window.QB_DATA), written by qbc: texts are HTML rendered by md4c with raw
 * HTML escaped, so inserting them with innerHTML is safe.  No network
 * request, no eval, no framework.
 *
 * Saved state (cmi.suspend_data, or localStorage without an LMS), format 1:
 *     1|<lang>|<pos>|<key>.<fp>.<letters>,...
 * answers keyed by a short hash of the question id (survives questions
 * being added, removed or reordered) and checked against a fingerprint of
 * the options; <pos> is a question key, "" (start) or "*" (summary).  qbc
 * computes the largest such string at build time (QB_DATA.maxState) with
 * the same rules: keep write_scorm.c and serialize() in step. */
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
    answers: {},        // key -> {letters: 'ac', correct: bool}
    pending: {},        // key -> letters chosen but not yet checked
    shownAt: {},        // key -> Date.now() when the question was shown
    other: {},          // 'key:lang' -> other-language explanation open
    resumed: false,
    nextInteraction: 0
  };
  var byKey = {};
  D.questions.forEach(function (q, i) { q.index = i; byKey[q.key] = q; });

  function correctLetters(q) {
    return q.options.filter(function (o) { return o.correct; })
      .map(function (o) { return o.id; }).join('');
  }

  function serialize() {
    var ans = [];
    D.questions.forEach(function (q) {
      var a = S.answers[q.key];
      if (a) ans.push(q.key + '.' + q.fp + '.' + a.letters);
    });
    return D.stateFormat + '|' + S.lang + '|' + S.pos + '|' + ans.join(',');
  }

  /* Reads a saved state; anything unknown is ignored, never fatal. */
  function restore(str) {
    if (typeof str !== 'string' || !str) return false;
    var parts = str.split('|');
    if (parts.length !== 4 || parts[0] !== String(D.stateFormat)) return false;
    var found = false;
    if (parts[3]) {
      parts[3].split(',').forEach(function (entry) {
        var f = entry.split('.');
        var q = byKey[f[0]];
        if (f.length !== 3 || !q || f[1] !== q.fp || !validLetters(q, f[2])) return;
        S.answers[q.key] = { letters: f[2], correct: f[2] === correctLetters(q) };
        found = true;
      });
    }
    if (D.langs.indexOf(parts[1]) >= 0) S.lang = parts[1];
    if (parts[2] === '*' && allAnswered()) S.pos = '*';
    else if (byKey[parts[2]]) S.pos = parts[2];
    else if (found) S.pos = firstOpenKey();
    return found || S.pos !== '';
  }

  function validLetters(q, letters) {
    if (!letters || (q.type === 'single' && letters.length !== 1)) return false;
    var ids = q.options.map(function (o) { return o.id; }).join('');
    var last = -1;
    for (var i = 0; i < letters.length; i++) {
      var at = ids.indexOf(letters.charAt(i));
      if (at <= last) return false; // unknown, repeated or out of order
      last = at;
    }
    return true;
  }

  function answeredCount() { return Object.keys(S.answers).length; }
  function allAnswered() { return answeredCount() === D.questions.length; }
  function correctCount() {
    return Object.keys(S.answers).filter(function (k) { return S.answers[k].correct; }).length;
  }
  function firstOpenKey() {
    for (var i = 0; i < D.questions.length; i++)
      if (!S.answers[D.questions[i].key]) return D.questions[i].key;
    return '*';
  }
  /* Percentage correct, an integer 0..100: Moodle grades from score.raw. */
  function scoreRaw() {
    return D.questions.length ? Math.round(100 * correctCount() / D.questions.length) : 0;
  }
  function isPassed() { return D.passMark === null || scoreRaw() >= D.passMark; }

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
      lms.set(M.score + 'raw', String(scoreRaw()));
      if (!V12) lms.set('cmi.score.scaled', (scoreRaw() / 100).toFixed(2));
    }
  }

  /* The interaction record of one answer, as a function that (re)writes it
   * at a fixed index with fixed values, so a failed write can be retried. */
  function interaction(q, letters, correct) {
    var n = 'cmi.interactions.' + (S.nextInteraction++) + '.';
    var values = [[n + 'id', q.id], [n + 'type', 'choice']];
    if (!V12) {
      var text = (q.promptText[S.lang] || '').replace(/^\{+/, '');
      values.push([n + 'description', '{lang=' + S.lang + '}' + Array.from(text).slice(0, 250).join('')]);
    }
    values.push([n + 'weighting', '1'],
      [n + M.response, response(letters)],
      [n + 'correct_responses.0.pattern', response(correctLetters(q))],
      [n + 'result', correct ? 'correct' : (V12 ? 'wrong' : 'incorrect')],
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

  function notice(msg, isError) {
    noticeKey = msg;
    noticeBox.textContent = msg;
    noticeBox.className = 'notice' + (isError ? ' notice-error' : '');
    noticeBox.hidden = false;
    noticeBox.setAttribute('lang', S.lang);
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
    if (noticeKey && !noticeBox.hidden) notice(L(lms.failed ? 'saveError' : (lms.api ? 'saved' : 'standalone')), lms.failed);
    main.textContent = '';
    main.setAttribute('lang', S.lang);
    if (S.pos === '') renderStart();
    else if (S.pos === '*') renderSummary();
    else renderQuestion(byKey[S.pos]);
    if (moveFocus) {
      var h = main.querySelector('h1, h2');
      if (h) { h.setAttribute('tabindex', '-1'); h.focus(); }
    }
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
      el('p', { 'class': 'meta', lang: S.lang, text: L('questionCount', { total: D.questions.length }) +
        (D.passMark !== null ? ' · ' + L('passInfo', { pass: D.passMark }) : '') }),
      el('button', {
        type: 'button', 'class': 'btn primary', id: 'start', lang: S.lang,
        text: any ? L('resume') : L('start'),
        onclick: function () { go(any ? firstOpenKey() : D.questions[0].key); }
      })
    ]));
  }

  function optionState(q, o) {
    var a = S.answers[q.key];
    if (!a) return null;
    return { chosen: a.letters.indexOf(o.id) >= 0, correct: o.correct };
  }

  function renderQuestion(q) {
    var a = S.answers[q.key];
    var multi = q.type === 'multiple';
    var name = 'q-' + q.key;
    var pending = S.pending[q.key] || '';
    var list = el('div', { 'class': 'options' });
    q.options.forEach(function (o) {
      var st = optionState(q, o);
      var id = name + '-' + o.id;
      var input = el('input', {
        type: multi ? 'checkbox' : 'radio', name: name, id: id, value: o.id,
        checked: a ? st.chosen : pending.indexOf(o.id) >= 0, disabled: !!a,
        onchange: function () { updatePending(q); }
      });
      var marks = [];
      if (st && st.correct) marks.push(el('span', { 'class': 'mark mark-ok', lang: S.lang, text: '✓ ' + L('correctOption') }));
      if (st && st.chosen) marks.push(el('span', { 'class': 'mark ' + (st.correct ? 'mark-chosen-ok' : 'mark-bad'), lang: S.lang,
        text: (st.correct ? '' : '✗ ') + L('yourChoice') }));
      var cls = 'option' + (st ? (st.correct ? ' is-correct' : (st.chosen ? ' is-wrong' : '')) : '');
      var row = el('div', { 'class': cls }, [
        input,
        el('label', { 'for': id }, [
          el('span', { 'class': 'letter', 'aria-hidden': 'true', text: o.id.toUpperCase() }),
          html('span', 'opt-text', o.text)
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

    var card = el('section', { 'class': 'card' }, [
      el('h2', { 'class': 'qnum', lang: S.lang, text: L('questionOf', { n: q.index + 1, total: D.questions.length }) }),
      fs
    ]);

    if (a) {
      card.appendChild(el('p', { 'class': 'result ' + (a.correct ? 'result-ok' : 'result-bad'), lang: S.lang },
        [el('span', { 'class': 'result-icon', 'aria-hidden': 'true', text: a.correct ? '✓' : '✗' }),
         el('strong', { text: a.correct ? L('correct') : L('wrong') })]));
      if (q.explanation) card.appendChild(explanation(q));
    }

    var nav = el('div', { 'class': 'nav' });
    if (q.index > 0)
      nav.appendChild(el('button', { type: 'button', 'class': 'btn', id: 'prev', lang: S.lang, text: L('previous'),
        onclick: function () { go(D.questions[q.index - 1].key); } }));
    if (!a) {
      nav.appendChild(el('button', { type: 'button', 'class': 'btn primary', id: 'check', lang: S.lang,
        text: L('check'), disabled: !pending, onclick: function () { check(q); } }));
    } else if (q.index + 1 < D.questions.length) {
      nav.appendChild(el('button', { type: 'button', 'class': 'btn primary', id: 'next', lang: S.lang, text: L('next'),
        onclick: function () { go(D.questions[q.index + 1].key); } }));
    } else {
      nav.appendChild(el('button', { type: 'button', 'class': 'btn primary', id: 'next', lang: S.lang, text: L('results'),
        onclick: function () { go(allAnswered() ? '*' : firstOpenKey()); } }));
    }
    card.appendChild(nav);
    main.appendChild(card);
  }

  function explanation(q) {
    var box = el('div', { 'class': 'explanation' }, [
      el('h3', { lang: S.lang, text: L('explanation') }),
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

  function chosenLetters(q) {
    var boxes = main.querySelectorAll('input[name="q-' + q.key + '"]');
    var s = '';
    Array.prototype.forEach.call(boxes, function (b) { if (b.checked) s += b.value; });
    return s;
  }

  function updatePending(q) {
    S.pending[q.key] = chosenLetters(q);
    var b = document.getElementById('check');
    if (b) b.disabled = !S.pending[q.key];
  }

  function optionTexts(q, letters) {
    return q.options.filter(function (o) { return letters.indexOf(o.id) >= 0; })
      .map(function (o) { var d = document.createElement('div'); d.innerHTML = tx(o.text); return d.textContent; })
      .join('; ');
  }

  function check(q) {
    if (S.answers[q.key]) return;
    var letters = chosenLetters(q);
    if (!letters || !validLetters(q, letters)) return;
    var correct = letters === correctLetters(q);
    S.answers[q.key] = { letters: letters, correct: correct };
    delete S.pending[q.key];
    render(false);
    var r = main.querySelector('.result');
    if (r) { r.setAttribute('tabindex', '-1'); r.focus(); }
    announce(L(correct ? 'announceCorrect' : 'announceWrong', { answer: optionTexts(q, correctLetters(q)) }));
    save(interaction(q, letters, correct));
  }

  function renderSummary() {
    var raw = scoreRaw();
    var verdict = D.passMark === null ? L('completed') : (isPassed() ? L('passed') : L('failed'));
    var items = D.questions.map(function (q) {
      var a = S.answers[q.key];
      var ok = a && a.correct;
      return el('li', { 'class': 'review-item ' + (ok ? 'is-correct' : 'is-wrong') }, [
        el('p', { 'class': 'review-result', lang: S.lang }, [
          el('span', { 'aria-hidden': 'true', text: ok ? '✓ ' : '✗ ' }),
          el('strong', { text: ok ? L('correct') : L('wrong') })
        ]),
        html('div', 'review-prompt', q.prompt),
        el('p', { 'class': 'review-line', lang: S.lang, text: L('yourAnswer') + ': ' + (a ? optionTexts(q, a.letters) : L('notAnswered')) }),
        ok ? null : el('p', { 'class': 'review-line', lang: S.lang, text: L('correctOption') + ': ' + optionTexts(q, correctLetters(q)) }),
        el('button', { type: 'button', 'class': 'btn link', lang: S.lang, text: L('backToQuestion', { n: q.index + 1 }),
          onclick: function () { go(q.key); } })
      ]);
    });
    var card = el('section', { 'class': 'card summary' }, [
      el('h1', { lang: S.lang, text: L('summary') }),
      el('p', { 'class': 'score', id: 'score', lang: S.lang, text: L('score', { score: raw }) }),
      el('p', { 'class': 'meta', lang: S.lang, text: L('scoreDetail', { correct: correctCount(), total: D.questions.length }) }),
      el('p', { 'class': 'verdict ' + (isPassed() ? 'result-ok' : 'result-bad'), id: 'verdict', lang: S.lang }, [
        el('span', { 'aria-hidden': 'true', text: isPassed() ? '✓ ' : '✗ ' }), el('strong', { text: verdict }),
        D.passMark !== null ? el('span', { text: '(' + L('passInfo', { pass: D.passMark }) + ')' }) : null]),
      el('h2', { lang: S.lang, text: L('review') }),
      el('ol', { 'class': 'review' }, items)
    ]);
    if (!lms.api) {
      card.appendChild(el('div', { 'class': 'nav' }, [el('button', {
        type: 'button', 'class': 'btn primary', id: 'again', lang: S.lang, text: L('tryAgain'),
        onclick: function () { S.answers = {}; S.pending = {}; S.shownAt = {}; S.other = {}; go(D.questions[0].key); }
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
    window.addEventListener('pagehide', finish);
    window.addEventListener('beforeunload', finish);
  }

  // Test and debugging hook: read-only views of the state.
  window.qbPlayer = {
    state: serialize,
    score: scoreRaw,
    lang: function () { return S.lang; }
  };

  start();
})();
