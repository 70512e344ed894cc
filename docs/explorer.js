/* The explorer in the page: strided-explore compiled to WebAssembly (strided-explore.js, built by
   the wasm preset from the same sources as the native program) answers in the page what the
   program answers in a terminal, byte for byte.
   - On the Explorer page (explorer.html), the expression in the field is evaluated as the reader
     types; it lives in the address's hash (explorer.html#arange(12).view(3,4).t()), which is
     evaluated on load, so a link shows an expression.
   - Every Try it block (tools/embed writes div.book-tryit or figure.book-tryit, each with the
     command it ran) gets an "Edit" button: the frozen output stays, as the build checked it, and
     an editor below it evaluates the reader's expression in place.
   The module is one script with the WebAssembly inside, loaded only when needed: nothing leaves
   the page, and it works from file://. Its budgets (tools/explore/budget.h) bound each answer. */
(function () {
  'use strict';

  var here = document.currentScript ? document.currentScript.src : '';
  var base = here.replace(/[^\/]*$/, '');
  var loading = null;

  // The module, loaded once: a <script> (file:// allows it, where a fetch would be refused).
  function module() {
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var s = document.createElement('script');
        s.src = base + 'strided-explore.js';
        s.onload = function () {
          window.StridedExplore().then(resolve, reject);
        };
        s.onerror = function () { reject(new Error('strided-explore.js could not be loaded')); };
        document.head.appendChild(s);
      });
    }
    return loading;
  }

  // A --jsonl answer with each of its top-level fields on a line of its own, its text otherwise
  // the program's own (its numbers as it wrote them).
  function fieldPerLine(line) {
    var out = '', depth = 0, inString = false;
    for (var i = 0; i < line.length; i++) {
      var c = line[i];
      out += c;
      if (inString) {
        if (c === '\\') { out += line[++i] || ''; } else if (c === '"') { inString = false; }
      } else if (c === '"') {
        inString = true;
      } else if (c === '{' || c === '[') {
        depth++;
      } else if (c === '}' || c === ']') {
        depth--;
      } else if (c === ',' && depth === 1) {
        out += '\n ';
      }
    }
    return out;
  }

  // What `strided-explore EXPRESSION [--svg FILE]` writes: {status, stdout, stderr, svg}. A line
  // that opens with "{" is a --jsonl request (a gradient request, say): the answer is the line
  // `strided-explore --jsonl` writes for it, laid out one field a line; an error answer (PyTorch's
  // refusal, or bad input) is shown as an error.
  function explore(m, expression, withSvg) {
    if (/^\s*\{/.test(expression)) {
      var line = expression.replace(/[\r\n]+/g, ' ') + '\n';
      var bytes = new TextEncoder().encode(line).length;
      var answer = m.UTF8ToString(m.ccall('explore_jsonl', 'number', ['string', 'number'],
                                          [line, bytes])).replace(/\n$/, '');
      var failed = true;
      try { failed = JSON.parse(answer).error === true; } catch (e) { /* shown as it is */ }
      var text = fieldPerLine(answer) + '\n';
      return failed ? {status: 2, stdout: '', stderr: text, svg: '', jsonl: true}
                    : {status: 0, stdout: text, stderr: '', svg: '', jsonl: true};
    }
    var at = m.ccall('explore_expression', 'number', ['string', 'number'],
                     [expression, withSvg ? 1 : 0]);
    return JSON.parse(m.UTF8ToString(at));
  }

  // The library's picture, inline so that the theme's colours reach it (book.css), with anything
  // that could run or load removed: the expression, from the address, is in its title.
  function picture(svgText) {
    var doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
    var svg = doc.documentElement;
    if (!svg || svg.nodeName !== 'svg') return null;
    var bad = svg.querySelectorAll('script, foreignObject, a, image, use, style');
    for (var i = 0; i < bad.length; i++) bad[i].parentNode.removeChild(bad[i]);
    var all = [svg].concat(Array.prototype.slice.call(svg.querySelectorAll('*')));
    all.forEach(function (el) {
      Array.prototype.slice.call(el.attributes).forEach(function (a) {
        if (/^on/i.test(a.name) || /href$/i.test(a.name)) el.removeAttribute(a.name);
      });
    });
    return document.importNode(svg, true);
  }

  // Shows one answer: the report, or the error with its caret; and, when asked, the picture. The
  // last step is marked, so that an output box that scrolls (a Try it editor's) can show it first:
  // it is the step the reader just changed.
  function show(answer, out, figure) {
    var failed = answer.status !== 0;
    var text = (failed ? answer.stderr : answer.stdout).replace(/\n$/, '');
    var last = failed ? -1 : text.lastIndexOf('\nstep ');
    // A layout rule's refusal ends with the library's explanation ("why: ...", "instead: ..."),
    // set apart from PyTorch's message above it.
    var why = failed ? text.indexOf('\nwhy: ') : -1;
    var mark = null;
    out.textContent = '';
    if (why >= 0) {
      var explained = document.createElement('span');
      explained.className = 'book-live-why';
      explained.textContent = text.slice(why + 1);
      out.appendChild(document.createTextNode(text.slice(0, why + 1)));
      out.appendChild(explained);
    } else if (last < 0) {
      out.textContent = text;
    } else {
      mark = document.createElement('span');
      mark.className = 'book-live-last';
      mark.textContent = text.slice(last + 1);
      out.appendChild(document.createTextNode(text.slice(0, last + 1)));
      out.appendChild(mark);
    }
    out.classList.toggle('book-live-error', failed);
    out.classList.toggle('book-live-jsonl', !!answer.jsonl);  // long messages wrap
    if (out.classList.contains('book-live-scroll')) {
      out.scrollTop = mark ? Math.max(0, mark.offsetTop - 8) : 0;
    }
    if (!figure) return;
    figure.textContent = '';
    var svg = !failed && answer.svg ? picture(answer.svg) : null;
    if (svg) figure.appendChild(svg);
    figure.hidden = !svg;
  }

  // Evaluates FIELD's expression as it changes (at most once per frame), into OUT (and FIGURE).
  function live(field, out, figure, changed) {
    var pending = false;
    function run() {
      pending = false;
      module().then(function (m) {
        show(explore(m, field.value, !!figure), out, figure);
        field.removeAttribute('aria-busy');
        if (changed) changed(field.value);
      }, function (e) {
        out.textContent = 'The explorer could not start: ' + e.message;
        out.classList.add('book-live-error');
      });
    }
    function schedule() {
      if (pending) return;
      pending = true;
      field.setAttribute('aria-busy', 'true');
      window.requestAnimationFrame(run);
    }
    field.addEventListener('input', schedule);
    return schedule;
  }

  // ---- the Explorer page ------------------------------------------------------------------------
  function hashExpression() {
    var h = window.location.hash.replace(/^#/, '');
    if (!h) return null;
    try { return decodeURIComponent(h); } catch (e) { return h; }
  }
  function hashOf(expression) {
    return '#' + encodeURI(expression).replace(/#/g, '%23');
  }

  function explorerPage(root) {
    var field = root.querySelector('#book-explorer-input');
    var out = root.querySelector('#book-explorer-output');
    var figure = root.querySelector('#book-explorer-picture');
    var from = hashExpression();
    if (from !== null) field.value = from;
    var run = live(field, out, figure, function (expression) {
      if (hashExpression() !== expression && window.history.replaceState) {
        window.history.replaceState(null, '', hashOf(expression));
      }
    });
    window.addEventListener('hashchange', function () {
      var e = hashExpression();
      if (e !== null && e !== field.value) {
        field.value = e;
        run();
      }
    });
    root.classList.add('book-explorer-ready');
    // The field was described by the no-JavaScript note; hidden now, it must not be read out.
    field.removeAttribute('aria-describedby');
    run();
  }

  // ---- live Try it blocks -----------------------------------------------------------------------
  // The arguments of the shown command ("$ strided-explore 'x.t()' --strides"), split as a POSIX
  // shell splits them (tools/embed ran them through shlex).
  function shellWords(s) {
    var words = [], word = null, i = 0;
    while (i < s.length) {
      var c = s[i];
      if (c === "'") {
        var end = s.indexOf("'", i + 1);
        if (end < 0) end = s.length;
        word = (word || '') + s.slice(i + 1, end);
        i = end + 1;
      } else if (c === '"') {
        i++;
        word = word || '';
        while (i < s.length && s[i] !== '"') {
          if (s[i] === '\\' && i + 1 < s.length && '"\\$`'.indexOf(s[i + 1]) >= 0) i++;
          word += s[i++];
        }
        i++;
      } else if (c === '\\' && i + 1 < s.length) {
        word = (word || '') + s[i + 1];
        i += 2;
      } else if (/\s/.test(c)) {
        if (word !== null) words.push(word);
        word = null;
        i++;
      } else {
        word = (word || '') + c;
        i++;
      }
    }
    if (word !== null) words.push(word);
    return words;
  }

  var PROMPT = '$ strided-explore ';

  function tryitExpression(block) {
    var shown = block.querySelector('.book-prompt, figcaption code');
    var text = shown ? shown.textContent : '';
    if (text.indexOf(PROMPT) !== 0) return null;
    // The expression is the one argument that is neither an option nor --svg's file.
    var words = shellWords(text.slice(PROMPT.length));
    for (var i = 0; i < words.length; i++) {
      if (words[i] === '--svg') i++;
      else if (words[i].slice(0, 2) !== '--') return words[i];
    }
    return null;
  }

  var editors = 0;

  function liveTryit(block) {
    var expression = tryitExpression(block);
    if (expression === null) return;
    var n = ++editors;
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'book-tryit-edit';
    button.textContent = 'Edit';
    button.setAttribute('aria-expanded', 'false');
    button.setAttribute('aria-controls', 'book-live-' + n);
    button.title = 'Change the expression and see the answer here, computed in this page';
    block.classList.add('book-tryit-live');
    // A compact Try it (a table of steps, the transcript behind a toggle) carries its Edit button
    // on its title line, and opens its editor below the table, where the reader is.
    var full = block.closest('details.book-tryit-full');
    var table = full ? full.previousElementSibling : null;
    var title = table ? table.previousElementSibling : null;
    var after = block;
    if (title && title.classList.contains('book-tryit-title')) {
      title.appendChild(button);
      after = table;
    } else {
      block.insertBefore(button, block.firstChild);
    }
    var editor = null;
    button.addEventListener('click', function () {
      if (!editor) {
        editor = document.createElement('div');
        editor.className = 'book-live';
        editor.id = 'book-live-' + n;
        var label = document.createElement('label');
        label.className = 'book-live-label';
        label.htmlFor = 'book-live-input-' + n;
        label.textContent = 'strided-explore';
        var field = document.createElement('input');
        field.type = 'text';
        field.id = 'book-live-input-' + n;
        field.className = 'book-live-input';
        field.value = expression;
        field.spellcheck = false;
        field.autocomplete = 'off';
        field.setAttribute('autocapitalize', 'off');
        var link = document.createElement('a');
        link.className = 'book-live-open';
        link.textContent = 'open in the Explorer';
        var out = document.createElement('pre');
        out.className = 'book-output book-live-output book-live-scroll';
        out.setAttribute('aria-live', 'polite');
        var row = document.createElement('div');
        row.className = 'book-live-row';
        row.appendChild(label);
        row.appendChild(field);
        editor.appendChild(row);
        editor.appendChild(out);
        editor.appendChild(link);
        after.parentNode.insertBefore(editor, after.nextSibling);
        live(field, out, null, function (e) { link.href = base + 'explorer.html' + hashOf(e); })();
        field.focus();
        field.setSelectionRange(field.value.length, field.value.length);
        button.setAttribute('aria-expanded', 'true');
        button.textContent = 'Close';
        return;
      }
      editor.hidden = !editor.hidden;
      button.setAttribute('aria-expanded', editor.hidden ? 'false' : 'true');
      button.textContent = editor.hidden ? 'Edit' : 'Close';
      if (!editor.hidden) editor.querySelector('input').focus();
    });
  }

  function start() {
    // Not in the one-page edition, which is for paper.
    if (document.body.classList.contains('book-print')) return;
    var root = document.getElementById('book-explorer');
    if (root) explorerPage(root);
    var blocks = document.querySelectorAll('.book-tryit');
    for (var i = 0; i < blocks.length; i++) liveTryit(blocks[i]);
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
