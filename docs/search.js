/* The search box in every page's header (docs/header.html): the whole text of the book, offline.
 *
 * tools/embed/search_index.py indexes every section of every page at build time with lunr
 * (Debian's python3-lunr); this queries the index with lunr.js (Debian's libjs-lunr). Both files
 * are scripts that assign globals, because a page opened from file:// may load a script but not
 * fetch a JSON file; they are loaded when the reader first uses the box, so that pages which are
 * only read do not parse a few hundred KB of index on every load. Looks: docs/search.css.
 */
(function () {
  'use strict';

  // This script lies at the site's root, beside the index, lunr.min.js and every page.
  const base = document.currentScript.src.replace(/[^/]*$/, '');
  // Words as search_index.py cuts the pages (its TOKEN_RE); a claim ID may be half typed (MT-0).
  const WORD = /[A-Za-z]{2}-[0-9]{1,2}(?![0-9])|[\p{L}\p{N}_]+/gu;
  const MAX_RESULTS = 12;
  const SNIPPET = 170;  // characters of text shown around the first match

  let box, field, list;
  let index = null, docs = null, loading = null, active = -1;

  function load() {
    if (!loading) {
      const script = (name) => new Promise((resolve, reject) => {
        const s = document.createElement('script');
        s.src = base + name;
        s.onload = resolve;
        s.onerror = () => reject(new Error(name + ' could not be loaded'));
        document.head.appendChild(s);
      });
      loading = Promise.all([script('lunr.min.js'), script('search-index.js')]).then(() => {
        index = lunr.Index.load(window.BOOK_SEARCH.index);
        docs = window.BOOK_SEARCH.docs;
      });
    }
    return loading;
  }

  const stem = (word) => lunr.stemmer(new lunr.Token(word)).toString();

  // Every word of a short query is required (a long one is pasted: see search); the last one,
  // while still being typed, is a prefix. The index holds stems without stop words, single
  // letters or bare numbers, so the query drops them too (but for the word being typed: "is" may
  // become is_contiguous).
  function queryTerms(query) {
    const words = query.toLowerCase().match(WORD) || [];
    const typing = !/\s$/.test(query);
    const terms = [];
    words.forEach((w, i) => {
      const last = typing && i === words.length - 1;
      if (/^[0-9]+$/.test(w)) return;
      if (!last && (w.length < 2 || !lunr.stopWordFilter(new lunr.Token(w)))) return;
      terms.push({ term: stem(w), last: last });
    });
    return terms;
  }

  // A query of this many words or more is pasted text, an error message most often: its numbers
  // and names are the reader's own ("tensor a (3)", "SplitBackward0"), so no word is required and
  // the sections that hold the most of them come first (an error's entry, whose message is a field
  // of its own in the index, above all).
  const PASTED = 6;

  function search(query) {
    const terms = queryTerms(query);
    if (!terms.length) return [];
    // Built clause by clause rather than index.search(query): what a reader types ("t[:, 1]",
    // "x.view(-1)") is not lunr's query syntax and would throw.
    const pasted = terms.length >= PASTED;
    // Pasted text is matched against what sections say, not their titles: a claim's row in the
    // ledger is titled by its ID, and "AG-07.version" would rank a pasted "... is at version 1"
    // above the message's own entry.
    // (lunr takes a clause's fields only when the key is there: undefined would match nothing.)
    const run = (presence) => index.query((q) => {
      terms.forEach((t) => {
        const clause = {
          usePipeline: false,
          presence: presence,
          wildcard: t.last ? lunr.Query.wildcard.TRAILING : lunr.Query.wildcard.NONE,
        };
        if (pasted) clause.fields = ['body', 'message'];
        q.term(t.term, clause);
      });
    });
    let results = run(pasted ? lunr.Query.presence.OPTIONAL : lunr.Query.presence.REQUIRED);
    // A few words that no section holds together: the sections that hold most of them.
    if (!results.length && terms.length >= 3) results = run(lunr.Query.presence.OPTIONAL);
    return results.slice(0, MAX_RESULTS);
  }

  // Whether a word of the text is one the index matched: by its stem, or by a part of an
  // identifier (is_contiguous_strict matched "contiguous"), as search_index.py indexed it.
  function matches(word, matched) {
    const w = word.toLowerCase();
    return matched.has(stem(w)) || (w.includes('_') && w.split('_').some((p) => matched.has(stem(p))));
  }

  // Appends text[start, end) to el, each word the index matched in a <mark>.
  function appendMarked(el, text, matched, start = 0, end = text.length) {
    let at = start;
    for (const m of text.matchAll(WORD)) {
      if (m.index < start || !matches(m[0], matched)) continue;
      if (m.index + m[0].length > end) break;
      const mark = document.createElement('mark');
      mark.textContent = m[0];
      el.append(text.slice(at, m.index), mark);
      at = m.index + m[0].length;
    }
    el.append(text.slice(at, end));
  }

  // The stored text around the first match; its beginning when the match lies beyond what the
  // store keeps of a long section, or is in the title only.
  function snippet(text, matched) {
    const first = Array.from(text.matchAll(WORD)).find((m) => matches(m[0], matched));
    let start = 0;
    if (first && first.index > SNIPPET / 3) {
      start = text.lastIndexOf(' ', first.index - SNIPPET / 3) + 1;
    }
    let end = Math.min(text.length, start + SNIPPET);
    if (end < text.length) end = Math.max(text.lastIndexOf(' ', end), start + 1);
    const out = document.createElement('span');
    out.className = 'book-search-snippet';
    if (start > 0) out.append('… ');
    appendMarked(out, text, matched, start, end);
    if (end < text.length) out.append(' …');
    return out;
  }

  function item(result, i) {
    const [file, anchor, page, section, text] = docs[Number(result.ref)];
    const a = document.createElement('a');
    a.className = 'book-search-result';
    a.id = 'book-search-result-' + i;
    a.href = base + file + (anchor ? '#' + anchor : '');
    a.setAttribute('role', 'option');
    const head = document.createElement('span');
    head.className = 'book-search-head';
    const title = document.createElement('span');
    title.className = 'book-search-section';
    const matched = new Set(Object.keys(result.matchData.metadata));
    appendMarked(title, section || page, matched);
    head.append(title);
    if (section) {
      const where = document.createElement('span');
      where.className = 'book-search-page';
      where.textContent = page;
      head.append(where);
    }
    a.append(head, snippet(text, matched));
    a.addEventListener('mousemove', () => select(i, false));
    a.addEventListener('click', close);  // a result on this page only scrolls: close the list
    return a;
  }

  function note(text) {
    const p = document.createElement('div');
    p.className = 'book-search-note';
    p.textContent = text;
    list.replaceChildren(p);
    open();
  }

  function update() {
    const query = field.value;
    if (query.trim().length < 2) {
      close();
      return;
    }
    if (!index) {
      note('Loading the index…');
      load().then(update, (e) => note(e.message));
      return;
    }
    const results = search(query);
    active = -1;
    if (!results.length) {
      note('No matches for “' + query.trim() + '”');
      return;
    }
    list.replaceChildren(...results.map(item));
    list.scrollTop = 0;
    select(0, false);
    open();
  }

  // Marks result i as the one Enter opens; the arrow keys also scroll it into the list's view
  // (not the mouse, which would make the list jump under the pointer).
  function select(i, scroll) {
    const items = list.querySelectorAll('.book-search-result');
    if (!items.length) return;
    active = (i + items.length) % items.length;
    items.forEach((el, k) => el.classList.toggle('active', k === active));
    field.setAttribute('aria-activedescendant', items[active].id);
    if (scroll) items[active].scrollIntoView({ block: 'nearest' });
  }

  function open() {
    list.hidden = false;
    field.setAttribute('aria-expanded', 'true');
  }

  function close() {
    list.hidden = true;
    field.setAttribute('aria-expanded', 'false');
    field.removeAttribute('aria-activedescendant');
  }

  function onKey(e) {
    const items = list.querySelectorAll('.book-search-result');
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (list.hidden) update();
      else select(active + (e.key === 'ArrowDown' ? 1 : -1), true);
      e.preventDefault();
    } else if (e.key === 'Enter') {
      if (!list.hidden && items.length) {
        const target = items[Math.max(active, 0)];
        close();
        window.location.href = target.href;
      }
      e.preventDefault();
    } else if (e.key === 'Escape') {
      if (list.hidden) field.value = '';
      close();
      e.preventDefault();
    }
  }

  function init() {
    box = document.getElementById('book-search');
    if (!box) return;
    field = document.getElementById('book-search-field');
    list = document.getElementById('book-search-results');
    const frame = document.getElementById('MSearchBox');
    field.addEventListener('input', update);
    field.addEventListener('keydown', onKey);
    field.addEventListener('focus', () => {
      frame.classList.add('MSearchBoxActive');  // the theme's focus ring
      load().catch(() => {});                   // (errors are shown when the reader types)
      if (field.value.trim().length >= 2) update();
    });
    field.addEventListener('blur', () => frame.classList.remove('MSearchBoxActive'));
    document.addEventListener('mousedown', (e) => {
      if (!box.contains(e.target)) close();
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
