/* The left and right arrow keys follow the page's previous and next links (rel="prev" and
   rel="next", written by tools/embed), as in mdBook: not while the reader types in a field (the
   search box), and not with a modifier held, which the browser keeps for itself. */
document.addEventListener('keydown', function (e) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  var rel = e.key === 'ArrowLeft' ? 'prev' : e.key === 'ArrowRight' ? 'next' : null;
  var t = document.activeElement;
  if (!rel || (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)))) return;
  var link = document.querySelector('a[rel="' + rel + '"]');
  if (link) {
    e.preventDefault();
    window.location.href = link.href;
  }
});
