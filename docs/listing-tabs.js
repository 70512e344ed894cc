/* A chapter's listings in two tabs, PyTorch and C++ (tools/embed makes them from the chapter's
   PyTorch companion). Choosing a language shows it in every listing of the page and is remembered
   across pages in localStorage, PyTorch until the reader chooses. A browser that keeps no storage
   for a file:// page (or refuses it) still switches; the choice then lasts for the page. The left
   and right arrow keys move between the two tabs of a focused tab bar (and not to the previous or
   next page, which nav.js does elsewhere). Without this script both forms show, each named. */
(function () {
  var KEY = 'stridebook.listing-language';
  var LANGS = ['pytorch', 'cpp'];

  function stored() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function store(lang) {
    try { window.localStorage.setItem(KEY, lang); } catch (e) { /* kept for this page only */ }
  }

  function show(lang) {
    var groups = document.querySelectorAll('div.book-tabs');
    for (var i = 0; i < groups.length; i++) {
      var g = groups[i];
      g.setAttribute('data-active', lang);
      var tabs = g.querySelectorAll('button.book-tab');
      for (var j = 0; j < tabs.length; j++) {
        var on = tabs[j].getAttribute('data-lang') === lang;
        tabs[j].setAttribute('aria-selected', on ? 'true' : 'false');
        tabs[j].tabIndex = on ? 0 : -1;
      }
      var panels = g.querySelectorAll('div.book-tab-panel');
      for (var k = 0; k < panels.length; k++) {
        panels[k].hidden = panels[k].getAttribute('data-lang') !== lang;
      }
    }
  }

  function choose(lang, focusIn) {
    show(lang);
    store(lang);
    if (focusIn) {
      var tab = focusIn.querySelector('button.book-tab[data-lang="' + lang + '"]');
      if (tab) tab.focus();
    }
  }

  document.addEventListener('click', function (e) {
    var tab = e.target.closest ? e.target.closest('button.book-tab') : null;
    if (tab) choose(tab.getAttribute('data-lang'));
  });
  document.addEventListener('keydown', function (e) {
    var tab = e.target.closest ? e.target.closest('button.book-tab') : null;
    if (!tab || (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight')) return;
    e.preventDefault();  // nav.js leaves a handled key alone
    var at = LANGS.indexOf(tab.getAttribute('data-lang'));
    var next = LANGS[(at + (e.key === 'ArrowRight' ? 1 : LANGS.length - 1)) % LANGS.length];
    choose(next, tab.closest('div.book-tabs'));
  }, true);
  // Another page (another window) chose: follow it.
  window.addEventListener('storage', function (e) {
    if (e.key === KEY && LANGS.indexOf(e.newValue) >= 0) show(e.newValue);
  });

  var lang = stored();
  show(LANGS.indexOf(lang) >= 0 ? lang : 'pytorch');
})();
