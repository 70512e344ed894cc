#!/usr/bin/env python3
"""What a reader would see wrong on a page of the built site, in headless Chromium: the checks
check_site.py runs on every page it loads, and the Browser every browser check drives.

For each top-level .html page of the site:
  - no console error, no uncaught exception, no failed load;
  - no request leaves the site (only file:, data: and about: URLs are fetched);
  - MathJax has typeset every formula: after its queue has drained, each TeX source Doxygen wrote
    became an SVG (class MathJax_SVG), no MathJax error is shown, and no raw TeX delimiter
    (\\( \\[ \\f$ \\f[) is left in the visible text;
  - what a reader sees is laid out right (LAYOUT below): every table's header cells stand over
    their columns; no figure, table or code block reaches past the text column unless it scrolls
    inside its own box; every figure's grid shows the values its storage row holds at the same
    offsets; no title in the side tree runs past its edge; no formula, inline or displayed,
    reaches past the column unless it scrolls in its own box; the window never scrolls as a
    whole (the header and search box stay), the text never scrolls sideways as a whole, and a
    chapter ends on its machine note, visible once its text is scrolled to the end;
  - in dark mode (switched on after the checks above at the first width, on the same load),
    figures take the page's colours: no white box, their text keeps a contrast of at least 4.5
    against the page, and their links at least 3;
  - the header holds the book's search box, with the theme's dark-mode toggle beside it, and not
    Doxygen's title-only search (every page but the one-page edition, print.html, which has no
    header);
  - a screenshot is saved (--screenshots DIR/<page>-<width>[-dark].png) for a human to look at.

Every page is loaded once at each --widths (1400 and 420 px: a desktop and a phone); the dark
checks run on the first width's load.

Chromium is driven through the DevTools protocol over a pipe (--remote-debugging-pipe: commands on
fd 3, replies on fd 4, NUL-terminated JSON), so console messages and requests are caught as events
rather than scraped from logs. Runs as root in CI: --no-sandbox, with a fresh --user-data-dir.
Standard library only.
"""

import argparse
import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse

WAIT_MATHJAX = """
new Promise((resolve) => {
  if (typeof MathJax === 'undefined' || !MathJax.Hub) { resolve('no-mathjax'); return; }
  MathJax.Hub.Queue(() => resolve('done'));
})"""

INSPECT = r"""
(() => {
  const text = document.body ? document.body.innerText : '';
  const raw = ['\\(', '\\[', '\\f$', '\\f['].filter((d) => text.includes(d));
  return JSON.stringify({
    sources: document.querySelectorAll('script[type^="math/tex"]').length,
    typeset: document.querySelectorAll('.MathJax_SVG').length,
    errors: document.querySelectorAll('.MathJax_Error, .MathJax_SVG merror, [data-mjx-error]').length
            + (text.includes('Math Processing Error') ? 1 : 0),
    raw: raw,
    title: document.title,
    hasContents: !!document.querySelector('div.contents'),
  });
})()"""


# What a reader would see wrong in the layout, as a list of sentences. Run after MathJax.
LAYOUT = r"""
(() => {
  const problems = [];
  const say = (el, what) => {
    const id = el.closest('[id]') ? '#' + el.closest('[id]').id : '';
    const cap = el.querySelector && el.querySelector('caption, figcaption, title');
    problems.push(what + (cap ? ' ("' + cap.textContent.trim().slice(0, 50) + '")' : '') +
                  (id ? ' near ' + id : ''));
  };
  const block = document.querySelector('div.contents div.textblock') ||
                document.querySelector('div.contents');
  if (!block) return JSON.stringify(problems);
  // The column: the text block and the page padding around it (the theme lets code blocks use
  // that padding on a phone), never the table of contents beside it.
  const pad = getComputedStyle(document.querySelector('div.contents') || block);
  const colRight = block.getBoundingClientRect().right + parseFloat(pad.paddingRight);
  const colLeft = block.getBoundingClientRect().left - parseFloat(pad.paddingLeft);

  // 1. Header cells over their columns (rows without spans).
  for (const t of block.querySelectorAll('table')) {
    const rows = [...t.rows].filter(r => r.offsetParent !== null);
    if (rows.length < 2) continue;
    const head = rows[0];
    if ([...head.cells].some(c => c.colSpan > 1)) continue;
    for (const r of rows.slice(1)) {
      if (r.cells.length !== head.cells.length || [...r.cells].some(c => c.colSpan > 1)) continue;
      for (let i = 0; i < r.cells.length; i++) {
        const dh = head.cells[i].getBoundingClientRect(), db = r.cells[i].getBoundingClientRect();
        if (Math.abs(dh.left - db.left) > 1 || Math.abs(dh.width - db.width) > 1) {
          say(t, 'table header "' + head.cells[i].textContent.trim() + '" is not over its column ' +
                 '(header ' + Math.round(dh.left) + '+' + Math.round(dh.width) + ' px, column ' +
                 Math.round(db.left) + '+' + Math.round(db.width) + ' px)');
          i = r.cells.length; break;
        }
      }
      if (problems.length) break;
    }
  }

  // 2. Nothing past the text column, unless a box of its own scrolls it.
  const scrolls = (el) => {
    for (let a = el; a && a !== block; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if ((ox === 'auto' || ox === 'scroll') && a.getBoundingClientRect().right <= colRight + 1 &&
          a.getBoundingClientRect().left >= colLeft - 1)
        return true;
    }
    return false;
  };
  // A formula counts as one box: a displayed one (MathJax's display box, which may scroll), or an
  // inline one (its span); the SVG inside either is MathJax's business.
  const boxes = 'figure, svg, table, pre, div.fragment, img, .book-output, .MathJax_SVG_Display, ' +
                'span.MathJax_SVG';
  for (const el of block.querySelectorAll(boxes)) {
    if (el.tagName.toLowerCase() === 'svg' && el.closest('.MathJax_SVG')) continue;
    if (el.matches('span.MathJax_SVG') && el.closest('.MathJax_SVG_Display')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    if ((r.right > colRight + 1 || r.left < colLeft - 1) && !scrolls(el))
      say(el, el.tagName.toLowerCase() + ' reaches ' + Math.round(r.right - colRight) +
              ' px past the text column and does not scroll');
  }

  // 3. A figure's grid shows the values its storage row holds at the same offsets.
  for (const svg of block.querySelectorAll('figure svg')) {
    const stored = {};
    for (const g of svg.querySelectorAll('g.storage[data-offset]')) {
      const v = g.querySelector('text.value');
      if (v) stored[g.dataset.offset] = v.textContent;
    }
    for (const g of svg.querySelectorAll('g.logical[data-offset]')) {
      const v = g.querySelector('text.value');
      const s = stored[g.dataset.offset];
      if (v && s !== undefined && v.textContent !== s) {
        say(svg.closest('figure') || svg, 'a figure draws ' + v.textContent +
            ' for the element at storage offset ' + g.dataset.offset + ', whose storage cell holds ' + s);
        break;
      }
    }
  }

  // 4. A range of two numbers in a table cell ("0.955–0.990") reads on one line: broken after its
  // dash, in a narrow column, it reads as two numbers.
  for (const td of block.querySelectorAll('td')) {
    const text = td.textContent.replace(/\u2060/g, '').trim();
    if (!/^-?[0-9][0-9.,]*[\u00d7%]?\s?[\u2013-]\s?-?[0-9][0-9.,]*[\u00d7%]?$/.test(text)) continue;
    const range = document.createRange();
    range.selectNodeContents(td);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (tops.size > 1) {
      say(td.closest('table'), 'the range "' + text + '" breaks over ' + tops.size + ' lines');
      break;
    }
  }

  // 5. Every title in the side tree ends inside it (the tree cuts off, it does not scroll).
  for (const a of document.querySelectorAll('#nav-tree .item a')) {
    const item = a.closest('.item');
    const over = a.getBoundingClientRect().right - item.getBoundingClientRect().right;
    if (a.textContent.trim().length > 1 && over > 1) {
      problems.push('the side tree cuts off "' + a.textContent.trim() + '" (' + Math.round(over) +
                    ' px past its edge)');
      break;
    }
  }

  // 7. The versions page's table fits its column at every width: on a narrow screen its rows
  // stack (docs/book.css), as a difference with its answers, rather than scroll sideways.
  for (const t of block.querySelectorAll('table.book-versions')) {
    const wrap = t.closest('.book-table-wrap') || t;
    if (wrap.scrollWidth > wrap.clientWidth + 1)
      say(t, 'the table of differences is ' + (wrap.scrollWidth - wrap.clientWidth) +
             ' px wider than its column: its rows do not stack');
  }

  // 6. The window itself never scrolls, nor does the text sideways as a whole (only a box of
  // its own may); a chapter's text ends on its machine note.
  const page = document.scrollingElement;
  const text = document.body.classList.contains('book-print') ? page :
               (document.getElementById('doc-content') || page);
  if (text.scrollWidth > text.clientWidth + 1)
    problems.push('the text is ' + (text.scrollWidth - text.clientWidth) + ' px wider than the ' +
                  'window: the whole page scrolls sideways');
  // The one-page edition (print.html) is one long document: there the window does scroll.
  if (!document.body.classList.contains('book-print') && page.scrollHeight > window.innerHeight + 1)
    problems.push('the page is ' + (page.scrollHeight - window.innerHeight) +
                  ' px taller than the window: scrolling it moves the header and search box away');
  const note = block.querySelector('.book-machine');
  if (note) {
    const box = document.getElementById('doc-content') || page;
    box.scrollTop = box.scrollHeight;
    const r = note.getBoundingClientRect();
    const bottom = box === page ? window.innerHeight : box.getBoundingClientRect().bottom;
    if (r.bottom > bottom + 1 || r.height === 0)
      problems.push('the machine note is not in view after scrolling to the end (' +
                    Math.round(r.bottom - bottom) + ' px below)');
    box.scrollTop = 0;
  } else if (/^ch\d+\.html$/.test(location.pathname.split('/').pop())) {
    problems.push('a chapter page without its machine note');
  }
  return JSON.stringify(problems);
})()"""

# The header: the book's search box (docs/header.html) with the theme's toggle beside it, which the
# theme adds on jQuery's ready (after the load event, at times), and no Doxygen search.
HEADER = """JSON.stringify({
  field: document.querySelectorAll('#book-search-field').length,
  toggle: !!document.querySelector('#book-search doxygen-awesome-dark-mode-toggle'),
  doxygenSearch: !!(document.getElementById('MSearchResultsWindow') || window.searchBox),
})"""


def header_problems(browser, timeout=5.0):
    """What is wrong with the page's header, as a list of sentences."""
    deadline = time.monotonic() + timeout
    while True:
        header = json.loads(browser.evaluate(HEADER))
        if header["toggle"] or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    if header["field"] != 1 or not header["toggle"] or header["doxygenSearch"]:
        return [f"header: {header} (want one search field, the theme's toggle beside it, "
                "no Doxygen search)"]
    return []


# In dark mode: figures must not stay white boxes, and their own text must read on the page.
DARK = r"""
(() => {
  const problems = [];
  const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const bg = rgb(getComputedStyle(document.body).backgroundColor);
  if (lum(bg) > 0.4) return JSON.stringify(['dark mode did not darken the page']);
  document.querySelectorAll('figure svg').forEach((svg, n) => {
    const box = svg.getBoundingClientRect();
    for (const r of svg.querySelectorAll('rect')) {
      const b = r.getBoundingClientRect();
      const fill = getComputedStyle(r).fill;
      const c = rgb(fill);
      if (b.width * b.height > 0.5 * box.width * box.height && fill !== 'none' &&
          !fill.startsWith('rgba(0, 0, 0, 0)') && c.length >= 3 && lum(c) > 0.8) {
        problems.push('figure ' + (n + 1) + ' is a white box in dark mode');
        break;
      }
    }
    // A line joining an element to its cell must show against the page: contrast at least 3,
    // the usual floor for graphics, counted on its colour blended by its opacity.
    for (const p of svg.querySelectorAll('path.link')) {
      const cs = getComputedStyle(p), c = rgb(cs.stroke), a = parseFloat(cs.strokeOpacity);
      if (c.length < 3) continue;
      const seen = c.slice(0, 3).map((v, i) => a * v + (1 - a) * bg[i]);
      if (contrast(seen, bg) < 3) {
        problems.push('figure ' + (n + 1) + ': its links have contrast ' +
                      contrast(seen, bg).toFixed(1) + ' against the dark page');
        break;
      }
    }
    for (const t of svg.querySelectorAll('text.ink, text.muted, g.ink text')) {
      if (t.closest('g.logical, g.storage')) continue;  // cells keep their own light tint
      const c = rgb(getComputedStyle(t).fill);
      if (c.length >= 3 && contrast(c, bg) < 4.5) {
        problems.push('figure ' + (n + 1) + ': text "' + t.textContent.slice(0, 30) +
                      '" has contrast ' + contrast(c, bg).toFixed(1) + ' against the dark page');
        break;
      }
    }
  });
  return JSON.stringify(problems);
})()"""


class Browser:
    """A Chromium process and one page session, over the DevTools pipe."""

    def __init__(self, chromium, width, height):
        self.profile = tempfile.mkdtemp(prefix="book-chromium-")
        cmd_r, self.cmd_w = os.pipe()    # we write commands, Chromium reads fd 3
        self.out_r, out_w = os.pipe()    # Chromium writes fd 4, we read
        args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-extensions",
                "--disable-dev-shm-usage", "--mute-audio", "--hide-scrollbars",
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost",
                f"--user-data-dir={self.profile}", f"--window-size={width},{height}",
                "--remote-debugging-pipe", "about:blank"]

        def child_fds():
            os.dup2(cmd_r, 3)
            os.dup2(out_w, 4)

        self.proc = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=child_fds,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(cmd_r)
        os.close(out_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None
        self.width, self.height = width, height

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.cmd_w)
        os.close(self.out_r)
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no reply from Chromium")
            ready, _, _ = select.select([self.out_r], [], [], left)
            if ready:
                chunk = os.read(self.out_r, 1 << 20)
                if not chunk:
                    err = self.proc.stderr.read().decode(errors="replace") if self.proc.poll() is not None else ""
                    raise RuntimeError("Chromium closed the pipe" + (f": {err[-2000:]}" if err else ""))
                self.buf += chunk
        msg, _, self.buf = self.buf.partition(b"\0")
        return json.loads(msg)

    def send(self, method, params=None, session=True, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_event(self, name, timeout):
        deadline = time.monotonic() + timeout
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == name:
                    return self.events.pop(i)
            self.events.append(self._read(deadline))

    def resize(self, width, height):
        self.width, self.height = width, height
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def open_session(self):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = self.send("Target.attachToTarget",
                             {"targetId": target["targetId"], "flatten": True}, session=False)
        self.session = attached["sessionId"]
        for domain in ("Runtime", "Log", "Network", "Page"):
            self.send(f"{domain}.enable")
        # Lifecycle events name the navigation (loaderId) whose load they report: a load asked for
        # is told apart from one a page's own script asked for just before (check_navigation's
        # arrow key).
        self.send("Page.setLifecycleEventsEnabled", {"enabled": True})
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": self.height, "deviceScaleFactor": 1,
                   "mobile": False})

    def evaluate(self, expression, timeout=30):
        r = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                           "returnByValue": True}, timeout=timeout)
        if "exceptionDetails" in r:
            raise RuntimeError(f"evaluate: {r['exceptionDetails'].get('text')}")
        return r.get("result", {}).get("value")


def problems_in_events(events, page_url):
    problems = []
    for e in events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            problems.append(f"console {p['type']}: {text}")
        elif m == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            desc = d.get("exception", {}).get("description") or d.get("text")
            at = f"{os.path.basename(d.get('url', ''))}:{d.get('lineNumber', 0) + 1}"
            problems.append(f"uncaught exception at {at}: {desc}")
        elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            entry = p["entry"]
            problems.append(f"console error ({entry.get('source')}): {entry.get('text')} {entry.get('url', '')}")
        elif m == "Network.requestWillBeSent":
            url = p.get("request", {}).get("url", "")
            scheme = urllib.parse.urlsplit(url).scheme
            if scheme not in ("file", "data", "about", "blob"):
                problems.append(f"request outside the site: {url}")
        elif m == "Network.loadingFailed" and not p.get("canceled"):
            problems.append(f"failed load: {p.get('errorText')} ({p.get('type')})")
    return problems


def load_page(browser, path, timeout):
    """Navigates to the page and waits for its load event and for MathJax's queue to drain;
    returns MathJax's state ('done' or 'no-mathjax')."""
    url = "file://" + urllib.parse.quote(os.path.abspath(path))
    browser.events.clear()
    r = browser.send("Page.navigate", {"url": url})
    browser.frame = r.get("frameId", getattr(browser, "frame", None))
    return wait_loaded(browser, timeout, lambda loader: loader == r.get("loaderId"))


def await_page(browser, timeout):
    """Waits for the page the current one asked for (a script's navigation, the arrow key's) to
    load, and for MathJax's queue to drain; returns MathJax's state. The events that came since
    the request are the new page's, and are kept."""
    old = getattr(browser, "loader", None)
    return wait_loaded(browser, timeout, lambda loader: loader != old)


def wait_loaded(browser, timeout, ours):
    """Waits for the load of the main frame's navigation whose loaderId `ours` accepts (lifecycle
    events name it), then for MathJax."""
    deadline = time.monotonic() + timeout
    while True:
        e = browser.wait_event("Page.lifecycleEvent", max(0.0, deadline - time.monotonic()))
        p = e.get("params", {})
        if (p.get("name") == "load" and p.get("frameId") == getattr(browser, "frame", None)
                and ours(p.get("loaderId"))):
            browser.loader = p.get("loaderId")
            break
    browser.events = [e for e in browser.events if e.get("method") != "Page.lifecycleEvent"]
    return browser.evaluate(WAIT_MATHJAX, timeout=timeout)


def late_events(browser, url):
    """The problems in the events of the page so far, once late console events have arrived."""
    time.sleep(0.05)  # let late console events arrive before reading them
    try:
        browser.send("Runtime.evaluate", {"expression": "0"})
    except Exception:
        pass
    problems = problems_in_events(browser.events, url)
    browser.events.clear()
    return problems


def save_screenshot(browser, path, shot_dir, timeout, dark):
    if not shot_dir:
        return
    shot = browser.send("Page.captureScreenshot", {"format": "png"}, timeout=timeout)
    name = (os.path.splitext(os.path.basename(path))[0] + f"-{browser.width}"
            + ("-dark" if dark else "") + ".png")
    with open(os.path.join(shot_dir, name), "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def check_loaded(browser, path, state, shot_dir, timeout):
    """Checks a page loaded by load_page (MathJax's `state`): formulas, layout and header, then
    saves its screenshot. Returns (MathJax's counts, problems)."""
    info = json.loads(browser.evaluate(INSPECT))
    problems = json.loads(browser.evaluate(LAYOUT))
    if info["sources"] and state != "done":
        problems.append("the page has formulas but MathJax did not load")
    if info["typeset"] < info["sources"]:
        problems.append(f"{info['sources']} formulas, only {info['typeset']} typeset")
    if info["errors"]:
        problems.append(f"{info['errors']} MathJax error(s) shown")
    if info["raw"]:
        problems.append(f"raw TeX left in the text: {' '.join(info['raw'])}")
    if not info["hasContents"]:
        problems.append("no Doxygen contents block: the page did not render")
    if os.path.basename(path) != "print.html":
        problems += header_problems(browser)
    save_screenshot(browser, path, shot_dir, timeout, False)
    return info, problems


def check_dark(browser, path, shot_dir, timeout):
    """Switches the theme's dark mode on (doxygen-awesome's own switch: the class its toggle sets
    on <html>) and checks the figures' colours; saves the dark screenshot. Returns problems."""
    browser.evaluate("document.documentElement.classList.add('dark-mode')")
    problems = json.loads(browser.evaluate(DARK))
    save_screenshot(browser, path, shot_dir, timeout, True)
    return problems


def report(tool, failures, counted, screenshots=None, prefix=""):
    """The close of a browser check: each failure on a line, then one summary line ("3 pages at
    2 widths, 0 problem(s)"); returns the exit code, 1 when anything failed."""
    for f in failures:
        print(f"{tool}: {prefix}{f}")
    print(f"{tool}: {counted}, {len(failures)} problem(s)"
          + (f"; screenshots in {screenshots}" if screenshots else ""))
    return 1 if failures else 0


def browser_arguments(description, screenshots_help):
    """The command line the site's browser checks share: the site, Chromium, screenshots, timeout."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("site", help="the site folder (build/<preset>/book/html)")
    ap.add_argument("--chromium", default="chromium")
    # Screenshots are for a person to look at, not part of any check: saved where --screenshots
    # or the environment's BOOK_SCREENSHOTS says (tools/book test --all sets it), else not taken.
    ap.add_argument("--screenshots", default=os.environ.get("BOOK_SCREENSHOTS") or None,
                    help=screenshots_help + " (default: $BOOK_SCREENSHOTS, else none)")
    ap.add_argument("--timeout", type=float, default=30.0)
    return ap


def find_chromium(name, tool):
    """Chromium's path, or None after saying, as `tool`, that it is missing."""
    found = shutil.which(name) or (name if os.path.exists(name) else None)
    if not found:
        print(f"{tool}: {name} not found (install Debian's chromium)", file=sys.stderr)
    return found
