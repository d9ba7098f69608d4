/* qbc multiple-choice cards: pick an option on the front (click, tap or
 * the option's letter key); the back marks the right option(s) and the
 * pick.
 *
 * Anki shows the front, then the back (which contains the front through
 * {{FrontSide}}).  Desktop and AnkiMobile keep one page, so a global
 * survives; AnkiDroid loads a new page, so the pick also goes to
 * sessionStorage.  Plain ES5 for old Android WebViews.  Everything this
 * script shows comes from the note's own fields (moved, never parsed as
 * HTML) or from the static labels script (window.qbcLabels, one catalogue
 * per written language, loaded before this file).
 *
 * A note holds only its texts (write_anki.c): each option list is
 * <ol class=qb-options [data-type=T]><li [data-ok]>text<small>feedback
 * </small></li></ol> (no data-type: single).  This script adds the keys,
 * the marks, the words and the headings.
 *
 * A parameterised question's note ("qbc drawn") shows the first draw of
 * its pool in its fields; its Draws field (.qb-draws, hidden) holds the
 * others' fields as JSON text.  Each review the front picks a draw at
 * random (another than the last one shown) and puts its fields in place
 * before anything else; the back shows the same draw: the index is kept
 * like the pick, in a global and in sessionStorage, keyed by the note's
 * ID and the Draws text itself, so an edited pool never lends its index
 * to another.  Without the script the card shows the first draw. */
(function () {
  'use strict';
  var PREFIX = 'qbc:pick:';
  var CHECK = '\u2713', CROSS = '\u2717';
  /* The option keys, home row first: letters that Anki leaves to the card.
   * Anki desktop handles its shortcuts before the card sees them: the
   * reviewer's (qt/aqt/reviewer.py _shortcutKeys: 1-4 answer, 5-7 audio,
   * e i m o r u v, Space, Enter, * = - ! @, Ctrl+...) and the main
   * window's (qt/aqt/main.py setupKeys: a b d s t y); AnkiDroid takes z.
   * tests/browser/anki.test.mjs keeps that list.  Without the script the
   * options keep their numbers (write_anki.c), and the digits still pick
   * where they reach the card. */
  var KEYS = 'fghjklqwpxcn';
  /* A touch screen (AnkiDroid, AnkiMobile) has no letter keys: there the
   * options are lettered A B C... and the hint says to tap. */
  var TOUCH = !!(window.matchMedia && window.matchMedia('(pointer: coarse)').matches);

  /* The picks (option indices as written) and the order the front
   * showed them in (shuffled options). */
  function save(id, picks, order, typed) {
    var v = { picks: picks.slice(), order: order.slice(), typed: typed || '' };
    window.qbcPick = { id: id, picks: v.picks, order: v.order, typed: v.typed };
    try { window.sessionStorage.setItem(PREFIX + id, JSON.stringify(v)); } catch (e) { /* no storage */ }
  }

  function load(id) {
    var g = window.qbcPick;
    if (g && g.id === id) return { picks: g.picks.slice(), order: g.order.slice(), typed: g.typed };
    try {
      var s = window.sessionStorage.getItem(PREFIX + id);
      var v = s ? JSON.parse(s) : null;
      if (v && v.picks && typeof v.picks.length === 'number') return { picks: v.picks, order: v.order || [], typed: v.typed || '' };
    } catch (e) { /* no storage */ }
    return { picks: [], order: [], typed: '' };
  }

  /* Shows a prepared list's items in order (indices as written) and gives
   * each its key by shown position. */
  function arrange(list, order) {
    if (!list || order.length !== list.children.length) return;
    var byIndex = {};
    for (var i = 0; i < list.children.length; i++) byIndex[list.children[i].getAttribute('data-i')] = list.children[i];
    for (var k = 0; k < order.length; k++) if (byIndex[order[k]]) list.appendChild(byIndex[order[k]]);
    for (var p = 0; p < list.children.length; p++) {
      var num = list.children[p].querySelector('.qb-num');
      if (num) num.textContent = keyName(p);
    }
  }

  /* A new order for each view: options not pinned (data-pin) change
   * places among themselves; pinned ones stay where they are written. */
  function shuffled(list) {
    var order = [], free = [];
    for (var i = 0; i < list.children.length; i++) {
      order.push(i);
      if (!list.children[i].hasAttribute('data-pin')) free.push(i);
    }
    var mixed = free.slice();
    for (var j = mixed.length - 1; j > 0; j--) {
      var r = Math.floor(Math.random() * (j + 1)), t = mixed[j];
      mixed[j] = mixed[r];
      mixed[r] = t;
    }
    for (var k = 0; k < free.length; k++) order[free[k]] = mixed[k];
    return order;
  }

  /* ---- draws (parameterised questions) ---- */
  var DRAW = 'qbc:draw:';

  /* A short signature of a text (FNV-1a, 32 bits). */
  function signature(s) {
    var h = 0x811c9dc5;
    for (var i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = (h + ((h << 1) + (h << 4) + (h << 7) + (h << 8) + (h << 24))) >>> 0;
    }
    return s.length + ':' + h;
  }

  /* The draws of the card's note: { list: [{q, o, e, t}, ...], sig }, or
   * null (not parameterised, or nothing to draw from). */
  function drawsOf() {
    var el = document.querySelector('.qb-draws');
    if (!el) return null;
    var text = el.textContent, list = null;
    try { list = JSON.parse(text); } catch (e) { return null; }
    if (!list || typeof list.length !== 'number' || list.length < 1) return null;
    return { list: list, sig: signature(text) };
  }

  /* The draw last shown for note id with draws of signature sig, or -1. */
  function lastDraw(id, sig, n) {
    var g = window.qbcDraw, v = null;
    if (g && g.id === id && g.sig === sig) v = g;
    else {
      try { v = JSON.parse(window.sessionStorage.getItem(DRAW + id) || 'null'); } catch (e) { v = null; }
      if (!v || v.sig !== sig) v = null;
    }
    var k = v ? v.k : -1;
    return typeof k === 'number' && k >= 0 && k < n && Math.floor(k) === k ? k : -1;
  }

  function keepDraw(id, sig, k) {
    window.qbcDraw = { id: id, sig: sig, k: k };
    try { window.sessionStorage.setItem(DRAW + id, JSON.stringify({ sig: sig, k: k })); } catch (e) { /* no storage */ }
  }

  /* html (qbc's own rendering of a field, from the Draws JSON) as nodes. */
  function nodes(html) {
    var box = document.createElement('div');
    box.innerHTML = html;
    return box;
  }

  function setContent(target, html) {
    if (!target) return;
    var box = nodes(html);
    while (target.firstChild) target.removeChild(target.firstChild);
    while (box.firstChild) target.appendChild(box.firstChild);
  }

  /* Draw d's fields in place of the note's own: the front's question and
   * options (also the back's copy of the front), and on the back its
   * options, explanation and translations. */
  function applyDraw(front, back, d) {
    if (typeof d.q === 'string') setContent(front.querySelector('.qb-question'), d.q);
    if (typeof d.o === 'string') {
      var q = front.querySelector('.qb-question');
      while (q && q.nextSibling) front.removeChild(q.nextSibling);
      var box = nodes(d.o);
      while (box.firstChild) front.appendChild(box.firstChild);
    }
    if (!back) return;
    if (typeof d.o === 'string') setContent(back.querySelector('.qb-feedback'), d.o);
    if (typeof d.e === 'string') setContent(back.querySelector('.qb-explanation .qb-body'), d.e);
    if (typeof d.t === 'string') setContent(back.querySelector('.qb-translations'), d.t);
  }

  /* Shows a draw: a new one on the front (another than the last shown,
   * when there are two or more), the front's on the back (the first when
   * it is not known). */
  function showDraw(front, back) {
    var draws = drawsOf();
    if (!draws || !front) return;
    var id = front.getAttribute('data-qid') || '', n = draws.list.length;
    var last = lastDraw(id, draws.sig, n), k;
    if (back) k = last >= 0 ? last : 0;
    else {
      k = Math.floor(Math.random() * (last >= 0 && n > 1 ? n - 1 : n));
      if (last >= 0 && n > 1 && k >= last) k++;
      keepDraw(id, draws.sig, k);
    }
    var d = draws.list[k];
    if (k > 0 && d && typeof d === 'object') applyDraw(front, back, d);
    front.setAttribute('data-draw', String(k));
    if (back) back.setAttribute('data-draw', String(k));
    /* A page whose formulas were typeset already: typeset the new ones. */
    var mj = window.MathJax;
    if (k > 0 && mj && mj.typesetPromise && document.querySelector('mjx-container')) {
      try { mj.typesetPromise([front.parentNode]).then(null, function () {}); } catch (e) { /* leave the TeX */ }
    }
  }

  function indexOf(li) { return parseInt(li.getAttribute('data-i'), 10); }

  function forget(id) {
    window.qbcPick = null;
    try { window.sessionStorage.removeItem(PREFIX + id); } catch (e) { /* no storage */ }
  }

  function has(list, x) { return list.indexOf(x) >= 0; }

  /* Right to left or left to right, from a BCP 47 tag alone (the front of
   * a card has no other data): a script subtag decides (pa-Arab is RTL,
   * ar-Latn LTR), else the language. */
  var RTL_SCRIPTS = ['adlm', 'arab', 'hebr', 'mand', 'mend', 'nkoo', 'rohg', 'samr', 'syrc', 'thaa'];
  var RTL_LANGS = ['ar', 'ckb', 'dv', 'fa', 'he', 'iw', 'ji', 'ps', 'sd', 'syr', 'ug', 'ur', 'yi'];
  function dirOf(tag) {
    var parts = String(tag || '').toLowerCase().split('-');
    for (var i = 1; i < parts.length && parts[i].length > 1; i++)
      if (/^[a-z]{4}$/.test(parts[i])) return has(RTL_SCRIPTS, parts[i]) ? 'rtl' : 'ltr';
    return has(RTL_LANGS, parts[0]) ? 'rtl' : 'ltr';
  }

  /* Each side of the card, and each other language behind a "Show in"
   * toggle, reads in its own direction; the toggle's label is in the
   * card's language.  A dir already written by qbc is kept. */
  function applyDir() {
    var els = document.querySelectorAll('.qb-card[lang], .qb-translation[lang]');
    for (var i = 0; i < els.length; i++)
      if (!els[i].getAttribute('dir')) els[i].setAttribute('dir', dirOf(els[i].getAttribute('lang')));
    var toggles = document.querySelectorAll('.qb-card[lang] .qb-translation > summary');
    for (var k = 0; k < toggles.length; k++) {
      var card = toggles[k].parentNode;
      while (!card.classList.contains('qb-card')) card = card.parentNode;
      if (!toggles[k].getAttribute('lang')) toggles[k].setAttribute('lang', card.getAttribute('lang'));
      if (!toggles[k].getAttribute('dir')) toggles[k].setAttribute('dir', card.getAttribute('dir'));
    }
  }

  /* An arrow from a note back to the option it is about. */
  function arrowBack(el) {
    return window.getComputedStyle(el).direction === 'rtl' ? '\u2192' : '\u2190';
  }

  /* Only one keydown handler at a time, even though Anki runs this file
   * again for every card. */
  function setKeys(handler) {
    if (window.qbcKeys) document.removeEventListener('keydown', window.qbcKeys);
    window.qbcKeys = handler;
    if (handler) document.addEventListener('keydown', handler);
  }

  function labelsFor(lang) {
    var all = window.qbcLabels || {};
    if (all[lang]) return all[lang];
    for (var k in all) if (Object.prototype.hasOwnProperty.call(all, k)) return all[k];
    return {};
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  /* The option's key on the card: a letter for the first KEYS.length
   * (on a touch screen A, B, C... for the first 26). */
  function keyName(n) {
    if (TOUCH) return n < 26 ? String.fromCharCode(65 + n) : String(n + 1);
    return n < KEYS.length ? KEYS.charAt(n).toUpperCase() : String(n + 1);
  }

  /* Gives each <li> of an option list its index, its key and a .qb-text
   * around its text (the feedback stays a sibling).  Runs once per list. */
  function prepare(list) {
    if (!list || list.getAttribute('data-ready')) return list ? list.children : [];
    list.setAttribute('data-ready', '1');
    var items = list.children;
    for (var i = 0; i < items.length; i++) {
      var li = items[i], text = el('span', 'qb-text'), fb = null;
      while (li.firstChild) {
        var c = li.firstChild;
        li.removeChild(c);
        if (c.nodeType === 1 && c.tagName === 'SMALL' && !fb) { fb = c; fb.className = 'qb-fb-text'; }
        else text.appendChild(c);
      }
      li.setAttribute('data-i', String(i));
      li.appendChild(el('span', 'qb-num', keyName(i)));
      li.appendChild(document.createTextNode(' '));
      li.appendChild(text);
      if (fb) li.appendChild(fb);
    }
    return items;
  }

  /* A feedback list on the back: a mark and a word before each option. */
  function markList(list, L) {
    var items = prepare(list);
    if (!list || list.classList.contains('qb-fb-list')) return items;
    list.classList.add('qb-fb-list');
    for (var i = 0; i < items.length; i++) {
      var li = items[i], ok = li.hasAttribute('data-ok');
      li.classList.add('qb-fb', ok ? 'qb-fb-correct' : 'qb-fb-wrong');
      var first = li.firstChild;
      li.insertBefore(el('span', 'qb-mark', ok ? CHECK : CROSS), first).setAttribute('aria-hidden', 'true');
      li.insertBefore(document.createTextNode(' '), first);
      li.insertBefore(el('span', 'qb-word', ok ? L.correct : L.incorrect), first);
      li.insertBefore(document.createTextNode(' '), first);
    }
    return items;
  }

  function heading(section, text) {
    if (section && !section.querySelector('.qb-h')) section.insertBefore(el('h3', 'qb-h', text), section.firstChild);
  }

  /* The option index for a keydown, or -1. */
  function keyIndex(e) {
    if (e.ctrlKey || e.altKey || e.metaKey || !e.key || e.key.length !== 1) return -1;
    var n = KEYS.indexOf(e.key.toLowerCase());
    return n >= 0 ? n : /^[1-9]$/.test(e.key) ? parseInt(e.key, 10) - 1 : -1;
  }

  function optionsOf(card) {
    var list = card.querySelector('.qb-options');
    var items = prepare(list);
    for (var i = 0; i < items.length; i++) items[i].classList.add('qb-option');
    return { list: list, items: items };
  }

  /* Short-answer and numeric: the learner types; the list (the accepted
   * answers) stays hidden on the front. */
  function isTyped(list) {
    var t = list && list.getAttribute('data-type');
    return t === 'short-answer' || t === 'numeric';
  }

  /* input/README.md's rule: NFC, trimmed, runs of space as one, case
   * folded unless case-sensitive. */
  function normalise(s, keepCase) {
    s = String(s);
    if (s.normalize) s = s.normalize('NFC');
    s = s.replace(/^\s+|\s+$/g, '').replace(/\s+/g, ' ');
    return keepCase ? s : s.toLowerCase();
  }

  /* A typed number: "3.5", "3,5", "-2", " 1e3 "; NaN otherwise. */
  function number(s) {
    s = String(s).replace(/^\s+|\s+$/g, '').replace(',', '.');
    return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s) ? parseFloat(s) : NaN;
  }

  function initTyped(card, list, id, L) {
    var numeric = list.getAttribute('data-type') === 'numeric';
    var box = el('p', 'qb-typed');
    var label = el('label', null, numeric ? L.typeNumber : L.typeAnswer);
    var input = el('input');
    input.type = 'text';
    input.id = 'qb-typed-' + Math.floor(Math.random() * 1e9);
    label.setAttribute('for', input.id);
    input.setAttribute('autocomplete', 'off');
    input.setAttribute('autocapitalize', 'off');
    input.setAttribute('spellcheck', 'false');
    if (numeric) input.setAttribute('inputmode', 'decimal');
    box.appendChild(label);
    box.appendChild(document.createTextNode(' '));
    box.appendChild(input);
    /* The unit: the accepted answer's last word, unless it is a number
     * or a tolerance in percent ("3,19 ± 2%"). */
    var unit = numeric && list.children[0] ? /\s(\S+)$/.exec(list.children[0].textContent) : null;
    if (unit && isNaN(number(unit[1])) && !/^[-+]?[\d.,]+%$/.test(unit[1])) box.appendChild(el('span', 'qb-unit', ' ' + unit[1]));
    list.parentNode.insertBefore(box, list.nextSibling);
    input.addEventListener('input', function () { save(id, [], [], input.value); });
    setKeys(null);
  }

  /* Matching: the right sides, sorted so that their order tells nothing. */
  function rightSides(list) {
    var r = [];
    for (var i = 0; i < list.children.length; i++) {
      var m = list.children[i].querySelector('.qb-match');
      if (m) r.push({ i: indexOf(list.children[i]), text: m.textContent });
    }
    r.sort(function (a, b) { return a.text < b.text ? -1 : a.text > b.text ? 1 : 0; });
    return r;
  }

  /* For each left item a labelled select of the right sides; picks[k] is
   * the pair index chosen for the k-th left item (-1: none). */
  function initMatching(card, list, id, L) {
    var rights = rightSides(list), lefts = [], picks = [];
    for (var i = 0; i < list.children.length; i++) if (list.children[i].hasAttribute('data-ok')) lefts.push(list.children[i]);
    var box = el('div', 'qb-matcher');
    box.appendChild(el('p', 'qb-hint', L.matchPrompt));
    for (var k = 0; k < lefts.length; k++) {
      (function (li, k) {
        var row = el('p', 'qb-match-row');
        var sel = el('select');
        sel.id = 'qb-m-' + k + '-' + Math.floor(Math.random() * 1e9);
        var lab = el('label', null, null);
        lab.setAttribute('for', sel.id);
        var t = li.querySelector('.qb-text');
        for (var c = t.firstChild; c; c = c.nextSibling) {
          if (!(c.nodeType === 1 && c.classList.contains('qb-match'))) lab.appendChild(c.cloneNode(true));
        }
        sel.appendChild(el('option', null, '\u2014'));
        for (var r = 0; r < rights.length; r++) {
          var op = el('option', null, rights[r].text);
          op.value = String(rights[r].i);
          sel.appendChild(op);
        }
        picks.push(-1);
        sel.addEventListener('change', function () {
          picks[k] = sel.value === '' || sel.selectedIndex === 0 ? -1 : parseInt(sel.value, 10);
          save(id, picks, [], '');
        });
        row.appendChild(lab);
        row.appendChild(document.createTextNode(' '));
        row.appendChild(sel);
        box.appendChild(row);
      })(lefts[k], k);
    }
    list.parentNode.insertBefore(box, list.nextSibling);
    setKeys(null);
  }

  function initFront(card) {
    var id = card.getAttribute('data-qid') || '';
    var o = optionsOf(card);
    if (!o.list) return;
    if (o.list.getAttribute('data-type') === 'matching') {
      forget(id);
      card.className += ' qb-js';
      initMatching(card, o.list, id, labelsFor(card.getAttribute('lang')));
      return;
    }
    if (isTyped(o.list)) {
      forget(id);
      card.className += ' qb-js';
      initTyped(card, o.list, id, labelsFor(card.getAttribute('lang')));
      return;
    }
    var multiple = o.list.getAttribute('data-type') === 'multiple';
    var picks = [], order = [];
    for (var z = 0; z < o.items.length; z++) order.push(z);
    if (o.list.hasAttribute('data-shuffle')) {
      order = shuffled(o.list);
      arrange(o.list, order);
    }
    var L = labelsFor(card.getAttribute('lang'));
    forget(id);
    card.className += ' qb-js';
    var hint = TOUCH ? (multiple ? L.tapMultiple : L.tapSingle) : null;
    o.list.parentNode.insertBefore(el('p', 'qb-hint', hint || (multiple ? L.hintMultiple : L.hintSingle)), o.list);
    o.list.setAttribute('role', multiple ? 'group' : 'radiogroup');

    function render() {
      for (var i = 0; i < o.items.length; i++) {
        var on = has(picks, indexOf(o.items[i]));
        o.items[i].setAttribute('aria-checked', on ? 'true' : 'false');
        if (on) o.items[i].classList.add('qb-selected');
        else o.items[i].classList.remove('qb-selected');
      }
    }

    function pick(i) {
      if (i < 0 || i >= o.items.length) return;
      if (multiple) {
        var at = picks.indexOf(i);
        if (at >= 0) picks.splice(at, 1); else picks.push(i);
        picks.sort(function (a, b) { return a - b; });
      } else {
        picks = [i];
      }
      save(id, picks, order);
      render();
    }

    for (var i = 0; i < o.items.length; i++) {
      (function (li, n) {
        li.setAttribute('role', multiple ? 'checkbox' : 'radio');
        li.setAttribute('tabindex', '0');
        if (n < KEYS.length && !TOUCH) li.setAttribute('aria-keyshortcuts', KEYS.charAt(n).toUpperCase());
        li.addEventListener('click', function () { pick(indexOf(li)); });
        li.addEventListener('keydown', function (e) {
          if (e.key === ' ' || e.key === 'Enter') {
            e.preventDefault();
            e.stopPropagation();
            pick(indexOf(li));
          }
        });
      })(o.items[i], i);
    }
    setKeys(function (e) {
      /* Anki desktop keeps the page: once another card is shown, step aside. */
      if (!document.body.contains(card)) { setKeys(null); return; }
      var t = e.target, tag = t && t.tagName;
      if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || (t && t.isContentEditable)) return;
      var n = keyIndex(e);
      if (n >= 0 && n < o.items.length) {
        e.preventDefault();
        pick(indexOf(o.items[n]));
      }
    });
    render();
  }

  function badge(li, text) {
    var b = document.createElement('span');
    b.className = 'qb-badge';
    b.textContent = text;
    li.appendChild(b);
  }

  /* The back's headings and its translations' toggles ("Show in ..."),
   * their options marked; also the whole script of a back without a front
   * (the cloze note type, whose gaps Anki's own cloze filter reveals). */
  function relabel(back, L) {
    heading(back.querySelector('.qb-explanation'), L.explanation);
    var tr = back.querySelectorAll('.qb-translation');
    for (var t = 0; t < tr.length; t++) {
      var other = tr[t].getAttribute('lang'), sum = tr[t].querySelector('summary');
      if (sum && L.showIn && L.showIn[other]) sum.textContent = L.showIn[other];
      markList(tr[t].querySelector('.qb-options'), labelsFor(other));
    }
  }

  function initBack(front, back) {
    setKeys(null); /* 1-4 answer the card on the back: leave them to Anki */
    var id = back.getAttribute('data-qid') || '';
    var lang = back.getAttribute('lang');
    var L = labelsFor(lang);
    var saved = load(id), picks = saved.picks;
    var o = optionsOf(front);
    arrange(o.list, saved.order);
    var correct = [];
    for (var j = 0; j < o.items.length; j++) if (o.items[j].hasAttribute('data-ok')) correct.push(indexOf(o.items[j]));
    front.className += ' qb-js qb-answered';
    var matching = o.list && o.list.getAttribute('data-type') === 'matching';
    var pairsRight = 0, pairs = 0;
    if (matching) {
      /* picks[k]: the pair chosen for the k-th left item; right if it is
       * that item's own pair. */
      var chosen = saved.picks, k2 = 0;
      var fbItems = markList(back.querySelector('.qb-feedback .qb-options'), L);
      for (var q = 0; q < fbItems.length; q++) {
        if (!fbItems[q].hasAttribute('data-ok')) continue;
        var own = indexOf(fbItems[q]), got = k2 < chosen.length ? chosen[k2] : -1;
        k2++;
        pairs++;
        if (got === own) pairsRight++;
        var mark = el('span', 'qb-badge', got === own ? CHECK + ' ' + L.correct
          : CROSS + ' ' + (got < 0 ? L.noAnswer : L.incorrect));
        mark.classList.add(got === own ? 'qb-pair-ok' : 'qb-pair-bad');
        fbItems[q].appendChild(mark);
      }
      picks = [];
      for (var g2 = 0; g2 < chosen.length; g2++) if (chosen[g2] >= 0) picks.push(chosen[g2]);
    }
    var typed = isTyped(o.list);
    if (typed) {
      /* The typed answer is "picked" when it matches an option (accepted
       * or listed wrong); a number is right within [lo, hi]. */
      picks = [];
      var value = saved.typed || '';
      if (o.list.getAttribute('data-type') === 'numeric') {
        var x = number(value);
        var lo = parseFloat(o.list.getAttribute('data-lo')), hi = parseFloat(o.list.getAttribute('data-hi'));
        if (!isNaN(x) && x >= lo && x <= hi) picks = [0];
        else if (!isNaN(x)) { /* the further answer with the best credit that holds x */
          var best = -1;
          for (var k = 1; k < o.items.length; k++) {
            var it = o.items[k], c2 = parseFloat(it.getAttribute('data-credit'));
            if (x >= parseFloat(it.getAttribute('data-lo')) && x <= parseFloat(it.getAttribute('data-hi')) && c2 > best) {
              best = c2;
              picks = [indexOf(it)];
            }
          }
        }
      } else {
        var keep = o.list.hasAttribute('data-case');
        for (var m = 0; m < o.items.length; m++) {
          var t = o.items[m].querySelector('.qb-text');
          if (value && t && normalise(t.textContent, keep) === normalise(value, keep)) { picks = [indexOf(o.items[m])]; break; }
        }
      }
      var yours = el('p', 'qb-typed qb-your-typed');
      yours.appendChild(el('span', 'qb-word', L.yourAnswer + (L.colon || ': ')));
      yours.appendChild(el('span', 'qb-typed-value', value));
      back.insertBefore(yours, back.querySelector('.qb-feedback'));
    }

    var right = matching ? pairs > 0 && pairsRight === pairs
      : typed ? picks.length === 1 && has(correct, picks[0])
      : picks.length > 0 && picks.length === correct.length;
    for (var i = 0; i < o.items.length; i++) {
      var li = o.items[i], c = has(correct, indexOf(li)), p = has(picks, indexOf(li));
      if (p !== c && !typed && !matching) right = false;
      li.classList.add(c ? 'qb-is-correct' : 'qb-is-wrong');
      li.classList.remove('qb-selected');
      if (p) li.classList.add('qb-picked');
      li.setAttribute('aria-disabled', 'true');
      if (c && p) badge(li, CHECK + ' ' + L.correct + ' \u00b7 ' + L.yourAnswer);
      else if (c) badge(li, CHECK + ' ' + L.correctAnswer);
      else if (p) badge(li, CROSS + ' ' + L.incorrect + ' \u00b7 ' + L.yourAnswer);
    }

    var fbSection = back.querySelector('.qb-feedback');
    heading(fbSection, L.feedback);
    var fbList = fbSection ? fbSection.querySelector('.qb-options') : null;
    var fb = markList(fbList, L);
    arrange(fbList, saved.order);
    for (var k = 0; k < fb.length && !matching; k++) {
      if (has(picks, indexOf(fb[k]))) {
        fb[k].classList.add('qb-picked');
        fb[k].insertBefore(el('span', 'qb-you', arrowBack(fb[k]) + ' ' + L.yourAnswer), fb[k].querySelector('.qb-fb-text'));
      }
    }
    /* feedback-wrong: for a wrong pick whose option has no feedback. */
    var fbw = fbSection ? fbSection.querySelector('.qb-fbw') : null;
    if (fbw) {
      var need = false;
      for (var w = 0; w < fb.length; w++) {
        var x = indexOf(fb[w]);
        if (has(picks, x) && !has(correct, x) && !fb[w].querySelector('.qb-fb-text')) need = true;
      }
      if (typed && !right && (saved.typed || '') && !picks.length) need = true;
      if (need) fbw.classList.add('qb-shown');
    }
    relabel(back, L);

    var result = back.querySelector('.qb-result');
    if (result) {
      if (typed ? !normalise(saved.typed || '', true) : !picks.length) {
        result.textContent = L.noAnswer;
      } else {
        result.textContent = (right ? CHECK + ' ' + L.correct : CROSS + ' ' + L.incorrect);
        result.classList.add(right ? 'qb-ok' : 'qb-bad');
        /* Partial credit (multiple): max(0, right picks - wrong picks)
         * of the correct options, as input/README.md scores it. */
        if (!right && o.list && o.list.hasAttribute('data-marks') && L.partialScore) {
          /* Marks (issue 36): the sum of what the picks earn, from 0 to 1,
           * in percent, as the SCORM player says it. */
          var sum = 0;
          for (var s = 0; s < o.items.length; s++)
            if (has(picks, indexOf(o.items[s]))) sum += Number(o.items[s].getAttribute('data-mark')) || 0;
          result.textContent += ' \u00b7 ' + L.partialScore.replace('{n}', String(Math.round(10000 * Math.min(1, Math.max(0, sum))) / 100))
            .replace('{total}', '100');
        } else if (!right && matching && o.list.getAttribute('data-scoring') === 'partial' && L.partialScore) {
          result.textContent += ' \u00b7 ' + L.partialScore.replace('{n}', String(pairsRight))
            .replace('{total}', String(pairs));
        } else if (!right && o.list && o.list.getAttribute('data-scoring') === 'partial' && L.partialScore) {
          var got = 0;
          for (var g = 0; g < picks.length; g++) got += has(correct, picks[g]) ? 1 : -1;
          result.textContent += ' \u00b7 ' + L.partialScore.replace('{n}', String(Math.max(0, got)))
            .replace('{total}', String(correct.length));
        }
      }
    }
    back.className += ' qb-js';
  }

  function init() {
    var back = document.querySelector('.qb-card.qb-back');
    var front = document.querySelector('.qb-card.qb-front');
    showDraw(front, back);
    applyDir();
    if (back && front) initBack(front, back);
    else if (front) initFront(front);
    else if (back) relabel(back, labelsFor(back.getAttribute('lang')));
  }

  /* The script sits inside the front, before the back's elements: on a
   * page that is still loading (AnkiDroid), wait for the rest. */
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
