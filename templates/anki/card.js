/* qbc multiple-choice cards: pick an option on the front (click, tap or
 * the option's letter key); the back marks the right option(s) and the
 * pick.
 *
 * Anki shows the front, then the back (which contains the front through
 * {{FrontSide}}).  Desktop and AnkiMobile keep one page, so a global
 * survives; AnkiDroid loads a new page, so the pick also goes to
 * sessionStorage.  Plain ES5 for old Android WebViews.  Everything this
 * script shows comes from the note's own fields (read as text, never as
 * HTML) or from the static labels in the Data field. */
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

  function save(id, picks) {
    window.qbcPick = { id: id, picks: picks.slice() };
    try { window.sessionStorage.setItem(PREFIX + id, JSON.stringify(picks)); } catch (e) { /* no storage */ }
  }

  function load(id) {
    var g = window.qbcPick;
    if (g && g.id === id) return g.picks.slice();
    try {
      var s = window.sessionStorage.getItem(PREFIX + id);
      var v = s ? JSON.parse(s) : null;
      if (v && typeof v.length === 'number') return v;
    } catch (e) { /* no storage */ }
    return [];
  }

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

  /* Labels the options (and the answer and feedback lists) with their
   * keys instead of the numbers write_anki.c puts in .qb-num. */
  function relabel(root) {
    var nums = root.querySelectorAll('.qb-num');
    for (var i = 0; i < nums.length; i++) {
      var n = /^[0-9]+$/.test(nums[i].textContent) ? parseInt(nums[i].textContent, 10) : 0;
      if (n >= 1 && n <= KEYS.length) nums[i].textContent = KEYS.charAt(n - 1).toUpperCase();
    }
  }

  /* The option index for a keydown, or -1. */
  function keyIndex(e) {
    if (e.ctrlKey || e.altKey || e.metaKey || !e.key || e.key.length !== 1) return -1;
    var n = KEYS.indexOf(e.key.toLowerCase());
    return n >= 0 ? n : /^[1-9]$/.test(e.key) ? parseInt(e.key, 10) - 1 : -1;
  }

  function optionsOf(card) {
    var list = card.querySelector('.qb-options');
    return { list: list, items: list ? list.querySelectorAll('.qb-option') : [] };
  }

  function initFront(card) {
    var id = card.getAttribute('data-qid') || '';
    var o = optionsOf(card);
    if (!o.list) return;
    var multiple = o.list.getAttribute('data-type') === 'multiple';
    var picks = [];
    forget(id);
    card.className += ' qb-js';
    relabel(card);
    o.list.setAttribute('role', multiple ? 'group' : 'radiogroup');

    function render() {
      for (var i = 0; i < o.items.length; i++) {
        var on = has(picks, i);
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
      save(id, picks);
      render();
    }

    for (var i = 0; i < o.items.length; i++) {
      (function (li, n) {
        li.setAttribute('role', multiple ? 'checkbox' : 'radio');
        li.setAttribute('tabindex', '0');
        if (n < KEYS.length) li.setAttribute('aria-keyshortcuts', KEYS.charAt(n).toUpperCase());
        li.addEventListener('click', function () { pick(n); });
        li.addEventListener('keydown', function (e) {
          if (e.key === ' ' || e.key === 'Enter') {
            e.preventDefault();
            e.stopPropagation();
            pick(n);
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
        pick(n);
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

  function initBack(front, back) {
    setKeys(null); /* 1-4 answer the card on the back: leave them to Anki */
    var id = back.getAttribute('data-qid') || '';
    var dataEl = back.querySelector('.qb-data');
    var data;
    try { data = JSON.parse(dataEl ? dataEl.textContent : ''); } catch (e) { return; }
    var L = data.labels || {};
    var correct = data.correct || [];
    var picks = load(id);
    var o = optionsOf(front);
    front.className += ' qb-answered';
    relabel(front);
    relabel(back);

    var right = picks.length > 0 && picks.length === correct.length;
    for (var i = 0; i < o.items.length; i++) {
      var li = o.items[i], c = has(correct, i), p = has(picks, i);
      if (p !== c) right = false;
      li.classList.add(c ? 'qb-is-correct' : 'qb-is-wrong');
      li.classList.remove('qb-selected');
      if (p) li.classList.add('qb-picked');
      li.setAttribute('aria-disabled', 'true');
      if (c && p) badge(li, CHECK + ' ' + L.correct + ' \u00b7 ' + L.your_answer);
      else if (c) badge(li, CHECK + ' ' + L.correct_answer);
      else if (p) badge(li, CROSS + ' ' + L.incorrect + ' \u00b7 ' + L.your_answer);
    }

    var fb = back.querySelectorAll('.qb-feedback .qb-fb');
    for (var k = 0; k < fb.length; k++) {
      var n = parseInt(fb[k].getAttribute('data-i'), 10);
      if (has(picks, n)) {
        fb[k].classList.add('qb-picked');
        var you = document.createElement('span');
        you.className = 'qb-you';
        you.textContent = arrowBack(fb[k]) + ' ' + L.your_answer;
        fb[k].insertBefore(you, fb[k].querySelector('.qb-fb-text'));
      }
    }

    var result = back.querySelector('.qb-result');
    if (result) {
      if (!picks.length) {
        result.textContent = L.no_answer;
      } else {
        result.textContent = (right ? CHECK + ' ' + L.correct : CROSS + ' ' + L.incorrect);
        result.classList.add(right ? 'qb-ok' : 'qb-bad');
      }
    }
    back.className += ' qb-js';
  }

  function init() {
    var back = document.querySelector('.qb-card.qb-back');
    var front = document.querySelector('.qb-card.qb-front');
    applyDir();
    if (back && front) initBack(front, back);
    else if (front) initFront(front);
  }

  /* The script sits inside the front, before the back's elements: on a
   * page that is still loading (AnkiDroid), wait for the rest. */
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
