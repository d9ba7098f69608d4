/* lms.js - the local "LMS" of qbc's offline HTML file (write_html.c).
 *
 * The player (templates/scorm/player.js) saves through a SCORM 1.2 API; in
 * the offline file there is no course, so this script, which runs before
 * it, gives it one backed by localStorage:
 *
 *   qbc-html:<bank>:r<revision>  the player's saved state (cmi.suspend_data)
 *   qbc-html:<bank>:lang         the learner's language
 *
 * A new revision of the file starts from the newest earlier revision's
 * state: the player keeps each answer whose question key and content
 * fingerprint still match (the writer hashes each question's whole
 * content), so answers to unchanged questions survive and an answer to a
 * changed question is dropped.  The earlier revisions' states are removed
 * once the new one is saved.  Without localStorage (a browser that
 * refuses it for files) the quiz still works, for this visit only. */
(function () {
  'use strict';

  var D = window.QB_DATA, C = window.QB_LOCAL || { revision: 1 };
  var PREFIX = 'qbc-html:' + D.bank + ':';
  var KEY = PREFIX + 'r' + C.revision, LANG = PREFIX + 'lang';
  var store = null;
  try { store = window.localStorage; store.getItem(KEY); } catch (e) { store = null; }

  function get(k) { try { return store ? store.getItem(k) : null; } catch (e) { return null; } }
  function put(k, v) { try { if (store) store.setItem(k, v); return true; } catch (e) { return false; } }
  /* The keys of this bank's other revisions, newest first. */
  function others() {
    var out = [];
    for (var i = 0; store && i < store.length; i++) {
      var k = store.key(i), m = k && k.indexOf(PREFIX + 'r') === 0 && /^\d+$/.exec(k.slice(PREFIX.length + 1));
      if (m && k !== KEY) out.push({ key: k, n: +m[0] });
    }
    return out.sort(function (a, b) { return b.n - a.n; });
  }

  var own = get(KEY), older = own === null ? others() : [];
  var values = {
    'cmi.suspend_data': own !== null ? own : (older.length ? get(older[0].key) || '' : ''),
    'cmi.student_preference.language': get(LANG) || '',
    'cmi.interactions._count': '0'
  };
  var cleaned = own !== null;

  function commit() {
    var ok = put(KEY, values['cmi.suspend_data']);
    if (values['cmi.student_preference.language']) ok = put(LANG, values['cmi.student_preference.language']) && ok;
    if (ok && !cleaned) {
      others().forEach(function (o) { try { store.removeItem(o.key); } catch (e) { /* kept */ } });
      cleaned = true;
    }
    // Without storage there is nothing to retry: the quiz goes on.
    return ok || !store ? 'true' : 'false';
  }

  window.API = {
    qbcNewAttempts: true, // the player offers "Try again", as without an LMS
    LMSInitialize: function () { return 'true'; },
    LMSGetValue: function (el) { return values[el] !== undefined ? values[el] : ''; },
    LMSSetValue: function (el, v) {
      var n = /^cmi\.interactions\.(\d+)\./.exec(el);
      if (n) values['cmi.interactions._count'] = String(Math.max(+values['cmi.interactions._count'], +n[1] + 1));
      if (el === 'cmi.suspend_data' || el === 'cmi.student_preference.language' || n) values[el] = String(v);
      return 'true';
    },
    LMSCommit: commit,
    LMSFinish: commit,
    LMSGetLastError: function () { return '0'; },
    LMSGetErrorString: function () { return ''; },
    LMSGetDiagnostic: function () { return ''; }
  };
  // The player ends its session when the page is hidden; a page the
  // browser brings back from its cache starts a new one.
  window.addEventListener('pageshow', function (e) { if (e.persisted) window.location.reload(); });
})();
