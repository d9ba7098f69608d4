/* print.js - the paper versions of qbc's offline HTML file (write_html.c).
 *
 * Runs after the player (templates/scorm/player.js).  A "Print" button in
 * the player's header opens a print screen: a worksheet (no answers) or an
 * answer key (answers and explanations), in one language or all side by
 * side, in a numbered version: version 0 is the bank's order, every other
 * number a shuffled version (the bank's question order, options and draw
 * shuffled as the bank allows, from the number; a question with variables
 * in a draw of its pool, version 0 in its first) with its own key, the
 * same every time it is printed.  The choices live in the address
 * (#print=worksheet|key&lang=<code>|both&version=N), so a printed version
 * can be named, reopened and printed headless:
 *
 *     chromium --headless --print-to-pdf=key.pdf 'bank.html#print=key&lang=both&version=3'
 *
 * Texts are the player's data: bank HTML rendered and escaped by qbc,
 * inserted as HTML; everything else is inserted as text. */
(function () {
  'use strict';

  var D = window.QB_DATA, P = window.qbPlayer;
  var app = document.getElementById('app');
  if (!D || !P || !app) return;
  var bar = app.querySelector('.bar');
  var view = document.createElement('div');
  view.id = 'print';
  view.className = 'print';
  view.hidden = true;
  document.body.appendChild(view);
  // The version the file was built to print (qbc build --seed N), else 0.
  var built = window.QB_LOCAL && +window.QB_LOCAL.version >= 0 ? +window.QB_LOCAL.version : 0;
  var opt = { what: 'worksheet', lang: D.defaultLang, version: built };

  /* ------------------------------------------------------------ helpers */

  function lab(l, key, vars) {
    var s = (D.labels[l] && D.labels[l][key]) || (D.labels[D.defaultLang] && D.labels[D.defaultLang][key]) || key;
    return s.replace(/\{(\w+)\}/g, function (m, k) { return vars && vars[k] !== undefined ? String(vars[k]) : m; });
  }
  function ui() { return P.lang(); }
  function node(tag, cls, kids, attrs) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    [].concat(kids === undefined ? [] : kids).forEach(function (k) {
      if (k === null || k === undefined) return;
      e.appendChild(typeof k === 'string' ? document.createTextNode(k) : k);
    });
    return e;
  }
  function rich(tag, cls, htmlText) { var e = node(tag, cls); e.innerHTML = htmlText || ''; return e; }
  function tr(map, l) { return !map ? '' : map[l] !== undefined ? map[l] : map[D.defaultLang] || ''; }
  function dirOf(l) { return (D.dirs && D.dirs[l]) || 'ltr'; }
  function letterOf(l, i) {
    var list = (lab(l, 'letters') || '').split(' ').filter(Boolean);
    return list[i] || String.fromCharCode(65 + i);
  }
  function isChoice(q) { return q.type === 'single' || q.type === 'multiple' || q.type === 'true-false'; }
  function seed() { return 'print:' + opt.version; }

  /* -------------------------------------------------- a version's order */

  /* The questions of this version: version 0 every question in the bank's
   * order; another version those an attempt with its seed gets (the
   * bank's draw, shuffled when the bank shuffles its questions).  A
   * question with variables shows the numbers of a draw of its pool, as
   * an attempt with the seed would (version 0: its first draw); the key
   * gives that draw's answers. */
  function questions() {
    var list = opt.version === 0 ? D.questions.slice() : P.drawQuestions(seed());
    return list.map(function (q) { return P.drawn ? P.drawn(q, opt.version === 0 ? null : seed()) : q; });
  }
  /* The options of q in this version: as written in version 0, else as
   * an attempt with its seed shows them (shuffled when q shuffles, pinned
   * options in place). */
  function options(q) { return opt.version === 0 ? q.options : P.optionOrder(q, seed()); }
  /* A matching question's right sides, one per distinct text, in an order
   * of the version (never the pairs' order). */
  function rights(q) {
    return P.shuffled(q.options.filter(function (o) { return o.rid === o.id && o.match; }), seed() + ':' + q.key + ':right');
  }
  function pairs(q) { return q.options.filter(function (o) { return o.text !== null; }); }
  function numText(l, x) {
    return String(Number(Number(x).toPrecision(15))).replace('.', lab(l, 'decimalMark'));
  }

  /* ------------------------------------------------------- one question */

  function answerLine(l, value) {
    return node('p', 'pq-answer', [node('strong', '', '✓ ' + lab(l, 'correctOption') + lab(l, 'colon')), value]);
  }
  function blank(cls) { return node('span', 'pq-blank' + (cls ? ' ' + cls : ''), ' '); }

  function choiceBody(q, l, key, out) {
    var shown = options(q), right = [];
    var list = node('ol', 'pq-options');
    shown.forEach(function (o, i) {
      var text = q.type === 'true-false' ? node('span', '', lab(l, o.id === 'a' ? 'true' : 'false')) : rich('span', '', tr(o.text, l));
      var mark = key ? (o.correct ? '✓' : '') : '☐';
      if (o.correct) right.push(letterOf(l, i));
      var parts = [node('span', 'pq-box', mark), node('span', 'pq-letter', letterOf(l, i) + '.'), text];
      // marks (issue 36): the key says what each option earns
      if (key && q.marks) parts.push(node('span', 'pq-share', '(' + o.markText + ')'));
      list.appendChild(node('li', 'pq-option' + (key && o.correct ? ' is-correct' : ''), parts));
    });
    out.push(node('p', 'pq-hint', lab(l, q.type === 'multiple' ? 'chooseMany' : 'chooseOne')), list);
    if (key) out.push(answerLine(l, right.join(lab(l, 'listSep'))));
  }

  function typedBody(q, l, key, out) {
    var unit = q.unit ? ' ' + q.unit : '';
    if (!key) { out.push(node('p', 'pq-typed', [blank('pq-wide'), unit])); return; }
    var v;
    if (q.type === 'short-answer') {
      v = q.options.filter(function (o) { return o.correct; }).map(function (o) { return tr(o.text, l); })
        .filter(function (t, i, all) { return all.indexOf(t) === i; }).join(lab(l, 'listSep'));
      out.push(node('p', 'pq-answer', [node('strong', '', '✓ ' + lab(l, 'acceptedAnswers') + lab(l, 'colon')), v]));
      return;
    }
    // the further answers that earn part of the mark, with their credit
    v = [numKey(q.num, l) + unit].concat((q.num.more || []).filter(function (m) { return m.credit > 0; })
      .map(function (m) { return numKey(m, l) + unit + ' (' + numText(l, m.credit) + '%)'; }));
    out.push(answerLine(l, v.join(lab(l, 'listSep'))));
  }
  /* An accepted number (a numeric question's or gap's) in language l. */
  function numKey(n, l) {
    return n.range ? numText(l, n.min) + ' – ' + numText(l, n.max)
      : numText(l, n.value) + (n.tol ? ' ± ' + numText(l, n.tol) : '');
  }

  function matchingBody(q, l, key, out) {
    var rs = rights(q), letterOfRid = {};
    rs.forEach(function (r, i) { letterOfRid[r.rid] = letterOf(l, i); });
    out.push(node('p', 'pq-hint', lab(l, 'matchPrompt')));
    var left = node('ol', 'pq-left'), right = node('ol', 'pq-right');
    pairs(q).forEach(function (p) {
      left.appendChild(node('li', '', [rich('span', '', tr(p.text, l)), ' ',
        key ? node('strong', 'pq-fill', '→ ' + letterOfRid[p.rid]) : blank()]));
    });
    rs.forEach(function (r, i) {
      right.appendChild(node('li', '', [node('span', 'pq-letter', letterOf(l, i) + '.'), rich('span', '', tr(r.match, l))]));
    });
    out.push(node('div', 'pq-match', [left, right]));
    if (key) {
      out.push(answerLine(l, pairs(q).map(function (p, i) { return (i + 1) + ' → ' + letterOfRid[p.rid]; })
        .join(lab(l, 'listSep'))));
    }
  }

  /* A cloze prompt with its gaps numbered: blanks (and the choices of a
   * choice gap) on the worksheet, the answers in the key. */
  function clozePrompt(q, l, key) {
    var box = rich('div', 'pq-prompt', tr(q.prompt, l)), right = [];
    Array.prototype.forEach.call(box.querySelectorAll('span.gap'), function (span) {
      var i = +span.getAttribute('data-gap'), g = q.gaps[i];
      if (!g) return;
      var answers = g.answers[l] || g.answers[D.defaultLang] || [];
      // A choice gap's right choice; every answer a typed gap accepts in
      // this language, so that a teacher marking by hand marks none wrong.
      var ans = g.choice ? answers[g.right[l] !== undefined ? g.right[l] : g.right[D.defaultLang]]
        : g.num ? numKey(g.num, l) : answers.filter(function (t, k) { return answers.indexOf(t) === k; }).join(' / ');
      right.push('(' + (i + 1) + ') ' + ans);
      span.appendChild(node('span', 'pq-gapno', '(' + (i + 1) + ')'));
      span.appendChild(key ? node('strong', 'pq-fill', ' ' + ans + ' ') : blank());
      if (g.choice && !key) {
        var sorted = answers.slice().sort(function (x, y) { return x.localeCompare(y, l); });
        span.appendChild(node('span', 'pq-choices', '[' + sorted.join(' / ') + ']'));
      }
    });
    return { box: box, right: right };
  }

  function column(q, n, l, key) {
    var out = [];
    if (q.type === 'cloze') {
      var c = clozePrompt(q, l, key);
      out.push(c.box);
      if (key) out.push(answerLine(l, c.right.join(lab(l, 'listSep'))));
    } else {
      out.push(rich('div', 'pq-prompt', tr(q.prompt, l)));
      if (isChoice(q)) choiceBody(q, l, key, out);
      else if (q.type === 'matching') matchingBody(q, l, key, out);
      else typedBody(q, l, key, out);
    }
    if (key && q.explanation) {
      out.push(node('div', 'pq-expl', [node('strong', '', lab(l, 'explanation') + lab(l, 'colon')),
        rich('div', '', tr(q.explanation, l))]));
    }
    return node('div', 'pq-lang', [node('p', 'pq-num', n + '.')].concat(out), { lang: l, dir: dirOf(l) });
  }

  /* --------------------------------------------------------- the sheet */

  function sheet() {
    var key = opt.what === 'key', langs = opt.lang === 'both' ? D.langs : [opt.lang];
    var doc = node('article', 'sheet' + (langs.length > 1 ? ' sheet-cols' : ''), [], { id: 'sheet' });
    var head = node('header', 'sheet-head');
    langs.forEach(function (l) {
      var what = lab(l, key ? 'answerKey' : 'worksheet') + ' · ' + lab(l, 'printVersion') + ' ' + opt.version;
      head.appendChild(node('div', 'sheet-head-lang', [node('h1', '', tr(D.title, l)), node('p', 'sheet-what', what),
        key ? null : node('p', 'sheet-name', [lab(l, 'nameLine') + lab(l, 'colon'), blank('pq-wide')])],
        { lang: l, dir: dirOf(l) }));
    });
    doc.appendChild(head);
    var list = node('div', 'pq-list'), shown = null;
    questions().forEach(function (q, i) {
      // A passage once, before the questions read with it that follow
      // one another (again where another question came between).
      var passage = q.passage && D.passages && D.passages[q.passage];
      if (passage && q.passage !== shown) {
        list.appendChild(node('section', 'pq-passage', langs.map(function (l) {
          return node('div', 'pq-lang', [rich('div', 'pq-passage-text', tr(passage, l))], { lang: l, dir: dirOf(l) });
        }), { 'data-passage': q.passage }));
      }
      shown = passage ? q.passage : null;
      list.appendChild(node('section', 'pq', langs.map(function (l) { return column(q, i + 1, l, key); }),
        { 'data-qid': q.id }));
    });
    doc.appendChild(list);
    return doc;
  }

  /* ---------------------------------------------------- the print screen */

  function radios(name, choices, value, onpick) {
    return choices.map(function (c) {
      var id = 'print-' + name + '-' + c[0];
      var input = node('input', '', [], { type: 'radio', name: 'print-' + name, id: id, value: c[0] });
      input.checked = c[0] === value;
      input.addEventListener('change', function () { onpick(c[0]); });
      return node('label', 'print-choice', [input, ' ' + c[1]], { 'for': id });
    });
  }

  function render() {
    var l = ui();
    view.textContent = '';
    view.setAttribute('lang', l);
    view.setAttribute('dir', dirOf(l));
    var langChoices = D.langs.map(function (c) { return [c, D.langNames[c] || c]; });
    if (D.langs.length > 1) langChoices.push(['both', lab(l, 'bothLanguages')]);
    var version = node('input', 'answer-box print-version', [], {
      type: 'number', id: 'print-version', min: '0', max: '999999', step: '1', inputmode: 'numeric' });
    version.value = String(opt.version);
    version.addEventListener('change', function () {
      var v = parseInt(version.value, 10);
      opt.version = isNaN(v) || v < 0 ? 0 : Math.min(v, 999999);
      update();
    });
    var form = node('section', 'card print-form', [
      node('h1', '', lab(l, 'printTitle')),
      node('fieldset', 'print-group', [node('legend', '', lab(l, 'printWhat'))].concat(radios('what',
        [['worksheet', lab(l, 'worksheet')], ['key', lab(l, 'answerKey')]], opt.what, function (v) { opt.what = v; update(); }))),
      node('fieldset', 'print-group', [node('legend', '', lab(l, 'language'))].concat(radios('lang',
        langChoices, opt.lang, function (v) { opt.lang = v; update(); }))),
      node('p', 'print-group', [node('label', '', lab(l, 'printVersion'), { 'for': 'print-version' }), ' ', version,
        node('span', 'hint', ' ' + versionHint(l))]),
      node('div', 'nav', [
        button('btn', 'print-back', lab(l, 'backToQuiz'), close),
        button('btn primary', 'print-now', lab(l, 'printNow'), function () { window.print(); })])
    ]);
    view.appendChild(form);
    view.appendChild(sheet());
    if (P.renderMath) P.renderMath(view);
  }
  /* What a version other than 0 changes for this bank, as print() does
   * it: the draw, the question order, the options of the questions that
   * shuffle, a matching question's second column; or that it changes
   * nothing. */
  function versionHint(l) {
    var what = [];
    if (D.draw > 0) what.push(lab(l, 'printChangeDraw'));
    if (D.shuffleQuestions) what.push(lab(l, 'printChangeQuestions'));
    if (D.questions.some(function (q) { return q.shuffle && q.type !== 'matching'; })) what.push(lab(l, 'printChangeOptions'));
    if (D.questions.some(function (q) { return q.type === 'matching'; })) what.push(lab(l, 'printChangeMatching'));
    if (D.questions.some(function (q) { return q.draws && q.draws.length > 1; })) what.push(lab(l, 'printChangeNumbers'));
    return what.length ? lab(l, 'printVersionChanges', { what: what.join(lab(l, 'listSep')) }) : lab(l, 'printVersionNone');
  }
  function button(cls, id, text, onclick) {
    var b = node('button', cls, text, { type: 'button', id: id });
    b.addEventListener('click', onclick);
    return b;
  }

  function update() {
    var h = '#print=' + opt.what + '&lang=' + encodeURIComponent(opt.lang) + '&version=' + opt.version;
    try { window.history.replaceState(null, '', h); } catch (e) { /* a file: URL may refuse */ }
    render();
  }

  function open(focus) {
    app.hidden = true;
    view.hidden = false;
    document.body.classList.add('print-open');
    update();
    if (focus) { var h = view.querySelector('h1'); if (h) { h.setAttribute('tabindex', '-1'); h.focus(); } }
  }
  function close() {
    view.hidden = true;
    app.hidden = false;
    document.body.classList.remove('print-open');
    try { window.history.replaceState(null, '', window.location.pathname + window.location.search); } catch (e) { /* kept */ }
    if (openBtn) openBtn.focus();
  }

  /* The address's choices, if it asks for the print screen. */
  function fromHash() {
    var m = /^#print(=|&|$)(.*)/.exec(window.location.hash);
    if (!m) return false;
    ((m[1] === '=' ? 'what=' : '') + m[2]).split('&').forEach(function (kv) {
      var p = kv.split('='), v = decodeURIComponent(p[1] || '');
      if (p[0] === 'what' && (v === 'worksheet' || v === 'key')) opt.what = v;
      if (p[0] === 'lang' && (v === 'both' || D.langs.indexOf(v) >= 0)) opt.lang = v;
      if (p[0] === 'version' && /^\d{1,6}$/.test(v)) opt.version = +v;
    });
    return true;
  }

  var openBtn = bar ? button('lang-btn print-btn', 'print-open', '', function () { opt.lang = ui(); open(true); }) : null;
  function relabel() { if (openBtn) { openBtn.textContent = lab(ui(), 'print'); openBtn.setAttribute('lang', ui()); } }
  if (openBtn) {
    bar.appendChild(openBtn);
    relabel();
    // The player sets the page's language when the learner switches.
    new MutationObserver(function () { relabel(); if (!view.hidden) render(); })
      .observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  }
  opt.lang = ui();
  if (fromHash()) open(false);
  window.addEventListener('hashchange', function () { if (fromHash()) open(false); });
})();
