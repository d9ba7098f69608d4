/* qbc preview: the page's script.
 *
 * It asks the server for the state (/api/wait?v=N answers as soon as a
 * build newer than N is published: a long poll) and shows, for the chosen
 * question and language, the Anki card and the SCORM player.  The card is
 * the package's own note type (templates, CSS, script) filled with the
 * package's own note fields, the way Anki fills them (cardHtml() below);
 * the player is the package's own index.html, with a stand-in LMS (API)
 * in this window that the player finds, as it finds Moodle's.  An update
 * keeps the chosen question, language and scroll position; only a part
 * whose content changed is drawn again.  A question with variables shows
 * one draw of its pool in the player, with a "next draw" button there
 * (player.js drawBar(), in the bank's language) that the stand-in LMS
 * enables (API.qbcDraws).  The page's own words are the
 * state's "ui" (in the language of qbc's messages, from its catalogues);
 * English, as index.html has them, until the first state comes. */
(function () {
  'use strict';

  var state = null;        // the last state from the server
  var sel = { bank: 0, qid: null, lang: null, gap: 1 };
  var drawn = { front: null, back: null, player: null };
  var $ = function (id) { return document.getElementById(id); };

  /* ------------------------------------------------ the page's own words */

  // English, for what the script writes before the first state.
  var EN = {
    title: 'qbc preview', titleOf: 'qbc preview: {title}', connecting: 'connecting…', live: 'live: up to date',
    updatedAt: 'updated at {time}', offline: 'not connected: is qbc preview still running?',
    errorsShown: 'Errors: the page shows the last version that built',
    errorsOnly: 'The bank has errors: fix them to see its questions', warnings: 'Warnings',
    stMissing: 'missing', stStale: 'stale', stNew: 'new', stStaleLong: 'may be stale: qbc check warns',
    stNewLong: 'new: not in the revision record yet', stReviewedLong: 'reviewed: in the revision record, not stale',
    gap: 'Gap {n}', nothingYet: 'Nothing yet: answer the question in the player.',
    lessonStatus: 'Lesson status: {status}; score: {score}', notAttempted: 'not attempted',
    scoreLater: 'set once every question is answered'
  };

  /* The words of key, with each {name} replaced by vars[name]. */
  function say(key, vars) {
    var ui = state && state.ui && state.ui.text;
    var s = (ui && ui[key]) || EN[key] || key;
    return s.replace(/\{(\w+)\}/g, function (m, k) { return vars && k in vars ? String(vars[k]) : m; });
  }

  var spoken = null; // the "ui" the page's words are in
  /* index.html's words (data-t: the text, data-t-title: the title) and
   * the page's language and direction, once per language. */
  function speak() {
    var ui = state && state.ui;
    if (!ui || spoken === JSON.stringify(ui)) return;
    spoken = JSON.stringify(ui);
    document.documentElement.lang = ui.lang;
    document.documentElement.dir = ui.dir;
    Array.prototype.forEach.call(document.querySelectorAll('[data-t]'), function (e) {
      var key = e.getAttribute('data-t');
      if (key !== 'ankiHint') { e.textContent = say(key); return; }
      // The package's extension stays code: {apkg} in the words.
      var parts = say(key).split('{apkg}');
      while (e.firstChild) e.removeChild(e.firstChild);
      parts.forEach(function (p, i) {
        if (i) e.appendChild(el('code', { text: '.apkg' }));
        e.appendChild(document.createTextNode(p));
      });
    });
    Array.prototype.forEach.call(document.querySelectorAll('[data-t-title]'), function (e) {
      e.setAttribute('title', say(e.getAttribute('data-t-title')));
    });
  }

  /* ---------------------------------------------------- Anki's templates */

  /* Anki's {{cloze:Field}} for gap n on side ('front'/'back'), as its
   * cloze.rs renders it: gap n becomes <span class="cloze">[...]</span>
   * ([hint] with a hint) on the front and its answer on the back, every
   * other gap its answer. */
  function cloze(text, n, side) {
    return String(text).replace(/\{\{c(\d+)::([\s\S]*?)\}\}/g, function (_, num, body) {
      var i = body.indexOf('::');
      var answer = i < 0 ? body : body.slice(0, i), hint = i < 0 ? null : body.slice(i + 2);
      if (Number(num) !== n) return answer;
      if (side === 'front') return '<span class="cloze">[' + (hint === null ? '...' : hint) + ']</span>';
      return '<span class="cloze">' + answer + '</span>';
    });
  }

  /* Anki's substitution for the syntax the note types use: {{Field}},
   * {{#Field}}..{{/Field}}, {{^Field}}..{{/Field}}, {{cloze:Field}},
   * {{FrontSide}}.  Field values go in as they are (they are HTML). */
  function fill(tmpl, fields, n, side) {
    var has = function (f) { return f in fields && String(fields[f]).trim() !== ''; };
    var s = tmpl.replace(/\{\{([#^])([^}]+)\}\}([\s\S]*?)\{\{\/\2\}\}/g, function (_, kind, f, body) {
      return (kind === '#') === has(f) ? body : '';
    });
    return s.replace(/\{\{([^#^/}][^}]*)\}\}/g, function (_, f) {
      if (f.indexOf('cloze:') === 0) return cloze(fields[f.slice(6)] || '', n, side);
      return f in fields ? fields[f] : '';
    });
  }

  function bank() { return state && state.banks[sel.bank]; }
  function question(b) {
    b = b || bank();
    if (!b || !b.questions) return null;
    for (var i = 0; i < b.questions.length; i++) if (b.questions[i].id === sel.qid) return b.questions[i];
    return null;
  }

  /* The card HTML (what Anki puts in the card's <div id="qa">) of question
   * qid in lang, side 'front' or 'back', gap n (cloze), from the package's
   * note type and note; null when there is none. */
  function cardHtml(qid, lang, side, n) {
    var b = bank(), q = null;
    for (var i = 0; b && b.questions && i < b.questions.length; i++) if (b.questions[i].id === qid) q = b.questions[i];
    var note = q && q.notes[lang], t = note && b.anki[note.type];
    if (!t) return null;
    var front = fill(t.qfmt, note.fields, n || 1, 'front');
    if (side === 'front') return front;
    var f = Object.assign({}, note.fields, { FrontSide: front });
    return fill(t.afmt, f, n || 1, 'back');
  }

  /* ---------------------------------------------------------- the views */

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k.slice(0, 2) === 'on') e.addEventListener(k.slice(2), attrs[k]);
      else e.setAttribute(k, attrs[k]);
    });
    (kids || []).forEach(function (k) { if (k) e.appendChild(k); });
    return e;
  }

  // A state's words: its short one in the list, its long one as a title.
  var STATUS = { missing: ['stMissing', 'stMissing'], stale: ['stStale', 'stStaleLong'],
    'new': ['stNew', 'stNewLong'], reviewed: [null, 'stReviewedLong'] };

  function drawList(b) {
    var body = $('qlist').tBodies[0];
    var rows = [];
    (b.questions || []).forEach(function (q) {
      var langs = b.langs.map(function (l) {
        var st = STATUS[q.status[l]] || [null, null];
        return el('span', { 'class': 'st ' + q.status[l], title: b.langNames[l] + ': ' + (st[1] ? say(st[1]) : q.status[l]),
          text: l + (st[0] ? ' ' + say(st[0]) : '') });
      });
      rows.push(el('tr', { 'data-qid': q.id, 'aria-selected': String(q.id === sel.qid), onclick: function () { choose(q.id); } }, [
        el('td', {}, [el('button', { type: 'button', text: q.id, onclick: function (e) { e.stopPropagation(); choose(q.id); } })]),
        el('td', { text: q.type }),
        el('td', { text: q.tags.join(' ') }),
        el('td', {}, langs)
      ]));
    });
    // Replace the rows in place: the list keeps its scroll position.
    while (body.firstChild) body.removeChild(body.firstChild);
    rows.forEach(function (r) { body.appendChild(r); });
  }

  function options(select, values, names, current) {
    var same = select.options.length === values.length &&
      values.every(function (v, i) { return select.options[i].value === v; });
    if (!same) {
      while (select.firstChild) select.removeChild(select.firstChild);
      values.forEach(function (v) { select.appendChild(el('option', { value: v, text: names[v] || v })); });
    }
    select.value = current;
  }

  /* Writes a card document into frame (served from the package's media
   * folder, so the card's own script and style load as in Anki). */
  /* done (optional) runs once the frame holds the card and its scripts have
   * run (the back is written after the front, as Anki shows them, so that a
   * card whose script draws numbers shows the front's draw on the back);
   * prepare (optional) is given the frame's window before the card is
   * written. */
  function writeCard(frame, which, html, css, done, prepare) {
    var night = $('night').checked;
    var base = bank().base + 'anki/';
    // document.open() gives the frame this page's address: the base makes
    // the card's media names resolve in the package's media folder.
    var doc = '<!DOCTYPE html><html><head><meta charset="utf-8"><base href="' + base + '"><style>' + css + '</style></head>' +
      '<body class="card card' + sel.gap + (night ? ' nightMode night_mode' : '') + '"><div id="qa">' +
      html + '</div></body></html>';
    if (drawn[which] === doc) { if (done) done(); return; }
    drawn[which] = doc;
    var go = function () {
      frame.setAttribute('data-ready', '1');
      var d = frame.contentDocument;
      d.open();
      if (prepare) prepare(frame.contentWindow);
      d.write(doc);
      d.close();
      // the card's script is a file of the package: it runs by the load
      if (!done) return;
      if (d.readyState === 'complete') done();
      else frame.contentWindow.addEventListener('load', function () { done(); }, { once: true });
    };
    if (frame.getAttribute('src') !== base) {
      frame.onload = function () { frame.onload = null; go(); };
      frame.setAttribute('src', base);
    } else if (frame.getAttribute('data-ready')) {
      go();
    } else {
      frame.onload = function () { frame.onload = null; go(); };
    }
  }

  function drawCard(force) {
    var b = bank(), q = question(b);
    if (!q) return;
    var note = q.notes[sel.lang];
    var gaps = note ? note.cards : 1;
    $('gap-label').hidden = gaps <= 1;
    var nums = [], names = {};
    for (var i = 1; i <= gaps; i++) { nums.push(String(i)); names[i] = say('gap', { n: i }); }
    if (sel.gap > gaps) sel.gap = 1;
    options($('gap'), nums, names, String(sel.gap));
    var t = note && b.anki[note.type];
    $('card-none').hidden = !!t;
    $('front').hidden = $('back').hidden = !t;
    if (!t) return;
    if (force) drawn.front = drawn.back = null;
    var backHtml = cardHtml(q.id, sel.lang, 'back', sel.gap);
    writeCard($('front'), 'front', cardHtml(q.id, sel.lang, 'front', sel.gap), t.css, function () {
      // In Anki both sides share one window; here each has its own: the
      // back is given the draw the front's script kept (card.js's qbcDraw).
      writeCard($('back'), 'back', backHtml, t.css, null, function (w) {
        try { w.qbcDraw = $('front').contentWindow.qbcDraw; } catch (e) { /* none */ }
      });
    });
  }

  /* ------------------------------------------------ the stand-in LMS */

  var lms = { values: {}, rows: {} };

  function lmsRows() {
    var body = $('lms').tBodies[0];
    while (body.firstChild) body.removeChild(body.firstChild);
    Object.keys(lms.rows).forEach(function (n) {
      var r = lms.rows[n];
      body.appendChild(el('tr', {}, [el('td', { text: (r.id || '') + (r.type ? ' (' + r.type + ')' : '') }),
        el('td', { text: r.student_response || '' }), el('td', { text: r.result || '' }),
        el('td', { text: r.weighting ? r.weighting : '' })]));
    });
    if (!body.firstChild) body.appendChild(el('tr', {}, [el('td', { colspan: '4', text: say('nothingYet') })]));
    var v = lms.values, score = v['cmi.core.score.raw'];
    $('lms-status').textContent = say('lessonStatus', { status: v['cmi.core.lesson_status'] || say('notAttempted'),
      score: score !== undefined ? score + ' %' : say('scoreLater') });
  }

  /* The player's data (its own data.js) in the frame. */
  function playerData() {
    try { return $('player').contentWindow.QB_DATA || null; } catch (e) { return null; }
  }

  /* The saved state that opens the player on the chosen question. */
  function resumeState() {
    var d = playerData(), key = '';
    (d ? d.questions : []).forEach(function (q) { if (q.id === sel.qid) key = q.key; });
    return key ? '2|' + sel.lang + '|' + key + '|||' : '';
  }

  window.API = {
    // The draw the player shows of each question with variables, by id:
    // its first (0) until the player's "next draw" button moves it on.
    // Kept across a restart and an edit, so the numbers stay put.
    qbcDraws: {},
    // A new player starts afresh: what the one before wrote as it left
    // (it saves on pagehide) is not this attempt's.
    LMSInitialize: function () { lms.values = {}; lms.rows = {}; lmsRows(); return 'true'; },
    LMSFinish: function () { return 'true'; },
    LMSCommit: function () { return 'true'; },
    LMSGetLastError: function () { return '0'; },
    LMSGetErrorString: function () { return ''; },
    LMSGetDiagnostic: function () { return ''; },
    LMSGetValue: function (k) {
      if (k === 'cmi.suspend_data' && lms.values[k] === undefined) return resumeState();
      if (k === 'cmi.core.student_preference.language') return sel.lang;
      if (k === 'cmi.interactions._count') return String(Object.keys(lms.rows).length);
      if (k === 'cmi.core.entry') return 'resume';
      return lms.values[k] !== undefined ? lms.values[k] : '';
    },
    LMSSetValue: function (k, v) {
      lms.values[k] = String(v);
      var m = /^cmi\.interactions\.(\d+)\.([a-z_]+)$/.exec(k);
      if (m) (lms.rows[m[1]] = lms.rows[m[1]] || {})[m[2]] = String(v);
      if (m || /^cmi\.core\.(score\.raw|lesson_status)$/.test(k)) lmsRows();
      return 'true';
    }
  };

  function drawPlayer(force) {
    var b = bank();
    $('player-none').hidden = !b || !!b.scormBuild;
    $('player').hidden = !$('player-none').hidden;
    if (!b || !b.scormBuild || !sel.qid) return;
    var src = b.base + 'scorm/index.html?q=' + encodeURIComponent(sel.qid) + '&lang=' +
      encodeURIComponent(sel.lang) + '&build=' + b.scormBuild;
    if (!force && drawn.player === src) return;
    drawn.player = src;
    $('player').setAttribute('src', src);
  }

  /* ------------------------------------------------------- the page */

  function drawDiags(b) {
    var text = b.diagnostics || '';
    $('diags').hidden = text === '';
    $('diags').className = 'diags' + (b.failed ? '' : ' warnings-only');
    $('diags-h').textContent = say(b.failed ? (b.questions ? 'errorsShown' : 'errorsOnly') : 'warnings');
    if ($('diag-text').textContent !== text) $('diag-text').textContent = text;
  }

  function draw() {
    speak();
    var b = bank();
    if (!b) return;
    $('bank-label').hidden = state.banks.length < 2;
    var ids = state.banks.map(function (x, i) { return String(i); }), names = {};
    state.banks.forEach(function (x, i) { names[i] = x.id || x.file || 'bank ' + (i + 1); });
    options($('bank'), ids, names, String(sel.bank));
    $('title').textContent = say('titleOf', { title: b.title || b.id || '' });
    drawDiags(b);
    if (!b.questions) return;
    if (!sel.lang || b.langs.indexOf(sel.lang) < 0) sel.lang = b.defaultLang || b.langs[0];
    if (!question(b) && b.questions.length) sel.qid = b.questions[0].id;
    options($('lang'), b.langs, b.langNames, sel.lang);
    drawList(b);
    drawCard(false);
    drawPlayer(false);
  }

  function choose(qid) {
    sel.qid = qid;
    sel.gap = 1;
    draw();
  }

  $('lang').addEventListener('change', function () { sel.lang = this.value; draw(); });
  $('bank').addEventListener('change', function () { sel.bank = Number(this.value); sel.qid = null; draw(); });
  $('gap').addEventListener('change', function () { sel.gap = Number(this.value); drawCard(true); });
  $('night').addEventListener('change', function () { drawCard(true); });
  $('restart').addEventListener('click', function () { drawPlayer(true); });
  $('reveal').addEventListener('click', function () { drawn.back = null; drawCard(false); });
  $('night').checked = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;

  /* The long poll: each answer is a state newer than the last. */
  function poll() {
    var v = state ? state.version : 0;
    fetch('/api/wait?v=' + v, { cache: 'no-store' }).then(function (r) {
      if (!r.ok) throw new Error('HTTP ' + r.status);
      return r.json();
    }).then(function (s) {
      if (!state || s.version !== state.version) {
        state = s;
        draw();
        $('live').textContent = say('live');
        $('live').title = say('updatedAt', { time: new Date().toLocaleTimeString() });
      }
      poll();
    }).catch(function () {
      $('live').textContent = say('offline');
      setTimeout(poll, 1000);
    });
  }
  poll();

  // For tests and the curious: the card as served.
  window.qbcPreview = {
    cardHtml: cardHtml,
    state: function () { return state; },
    selection: function () { return { bank: sel.bank, qid: sel.qid, lang: sel.lang, gap: sel.gap }; }
  };
})();
