#!/usr/bin/env python3
"""Use the site's search box in headless Chromium, over file://, as a reader would.

  - each of a few words the title-only search missed (contiguous, permute, memset, as_strided, and
    the claim ID MT-03), typed one key at a time, gives at least one result;
  - for every chapter (a page made from docs/NN_*.md), a word found in its prose and on no other
    page finds that page;
  - Enter, the arrow keys and a click go to the result's page and section anchor, which exists
    there; Escape closes the list;
  - nothing is requested from outside the site, and no page logs an error (check_browser's rules);
  - each error message of the errors page (its div.book-error-entry blocks), pasted whole into the
    box, gives that entry's section as the first result, and so does the message without its
    Python type and with other numbers in it, as a reader's own traceback has them;
  - screenshots of the open list at 1400 and 420 px, light and dark (--screenshots DIR).
That every page's header holds the search box is check_browser's, which loads every page anyway.
The pages' words are read from their HTML, as the index was made (search_index.py).

Standard library only; Chromium is driven by check_browser.Browser.
"""

import base64
import collections
import html.parser
import json
import os
import re
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_browser import (Browser, browser_arguments, find_chromium, report,  # noqa: E402
                           problems_in_events)

QUERIES = ["contiguous", "permute", "memset", "as_strided", "MT-03"]
# Questions readers bring about PyTorch's own ops and boundaries, each with the page that answers
# it (chapter 10, Strides in the wild): that page must be among the first three results.
TOPICS = [("einsum", "ch10.html"), ("flatten_parameters", "ch10.html"),
          ("pin_memory", "ch10.html"), ("parameters_to_vector", "ch10.html"),
          ("layer_norm", "ch10.html"), ("from_dlpack", "ch10.html")]
# A chapter page: Doxygen keeps the Markdown file's name (docs/03_contiguity.md) as an anchor.
CHAPTER_ANCHOR = re.compile(r'id="md_pages_[0-9]{2}_')

RESULTS = """(() => {
  const list = document.getElementById('book-search-results');
  return JSON.stringify({
    hidden: list.hidden,
    note: (list.querySelector('.book-search-note') || {}).textContent || '',
    items: Array.from(list.querySelectorAll('a.book-search-result')).map((a) => ({
      href: a.href,
      title: a.querySelector('.book-search-section').textContent,
      marks: a.querySelectorAll('mark').length,
      active: a.classList.contains('active'),
    })),
  });
})()"""

# The prose of a page (its paragraphs), and all the text of its contents. Formulas are not
# prose: the search index leaves them out, so a word met only in TeX (\\partial) is no word of the
# page's. "all" counts collapsed text and TeX too, which only makes a word less likely to count as
# one page's own.
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr"}
TEX = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]", re.S)


class PageText(html.parser.HTMLParser):
    """The text of div.contents ("all") and of its div.textblock's own paragraphs ("prose")."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, classes) of the open elements
        self.all, self.prose = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append((tag, set((dict(attrs).get("class") or "").split())))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        tags = [t for t, _ in self.stack]
        if not any(t == "div" and "contents" in c for t, c in self.stack):
            return
        self.all.append(data)
        if "script" in tags or "style" in tags:
            return
        for i in range(len(self.stack) - 1, 0, -1):
            tag, classes = self.stack[i]
            parent, parent_classes = self.stack[i - 1]
            if tag == "p" and parent == "div" and "textblock" in parent_classes:
                self.prose.append(data)
                return


def page_texts(path):
    parser = PageText()
    with open(path, encoding="utf-8") as f:
        parser.feed(f.read())
    return {"prose": TEX.sub(" ", " ".join(parser.prose)), "all": "".join(parser.all)}


class Reader:
    def __init__(self, browser, site, timeout):
        self.b, self.site, self.timeout = browser, site, timeout
        self.problems = []

    def url(self, page):
        return "file://" + urllib.parse.quote(os.path.abspath(os.path.join(self.site, page)))

    def js(self, expression):
        return self.b.evaluate(expression, timeout=self.timeout)

    def collect(self):
        """The problems in the events seen so far (outside requests, console errors)."""
        time.sleep(0.05)
        self.js("0")  # let late events arrive
        self.problems += problems_in_events(self.b.events, "")
        self.b.events.clear()

    def open(self, page):
        self.collect()
        self.b.send("Page.navigate", {"url": self.url(page)})
        self.b.wait_event("Page.loadEventFired", self.timeout)

    def wait(self, condition, what, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while time.monotonic() < deadline:
            try:
                value = self.js(condition)
            except RuntimeError:  # the page is being replaced by the next one
                value = None
            if value:
                return value
            time.sleep(0.05)
        raise TimeoutError(f"timed out waiting for {what}")

    def type(self, text):
        """Types into the search box one key at a time; returns the list once it has settled."""
        self.js("(() => { const f = document.getElementById('book-search-field');"
                " f.value = ''; f.focus(); })()")
        for ch in text:
            self.b.send("Input.insertText", {"text": ch})
        state = self.wait(f"""(() => {{ const r = {RESULTS};
            return JSON.parse(r).note.startsWith('Loading') ? '' : r; }})()""", "search results")
        return json.loads(state)

    def paste(self, text):
        """Pastes text into the search box at once; returns the list once it has settled."""
        self.js("(() => { const f = document.getElementById('book-search-field');"
                " f.value = ''; f.focus(); })()")
        self.b.send("Input.insertText", {"text": text})
        state = self.wait(f"""(() => {{ const r = {RESULTS};
            return JSON.parse(r).note.startsWith('Loading') ? '' : r; }})()""", "search results")
        return json.loads(state)

    def key(self, key, code=None):
        codes = {"Enter": 13, "Escape": 27, "ArrowDown": 40, "ArrowUp": 38}
        for kind in ("keyDown", "keyUp"):
            self.b.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key,
                                                   "windowsVirtualKeyCode": codes[key]})

    def click(self, selector):
        box = json.loads(self.js(f"""JSON.stringify((() => {{
            const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();
            return [r.left + r.width / 2, r.top + Math.min(r.height / 2, 10)]; }})())"""))
        for kind in ("mousePressed", "mouseReleased"):
            self.b.send("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1],
                                                     "button": "left", "clickCount": 1})

    def landed(self, href):
        """Waits until the page is HREF, loaded; whether its anchor exists there."""
        self.wait(f"location.href === {json.dumps(href)} && document.readyState === 'complete'",
                  f"navigation to {href}")
        anchor = urllib.parse.urlsplit(href).fragment
        return not anchor or self.js(f"!!document.getElementById({json.dumps(anchor)})")

    def shot(self, folder, page, width):
        """The open result list on `page` at `width`, light then dark (the theme's class, on the
        same load): search-WIDTH-light.png and search-WIDTH-dark.png. Returns the results."""
        self.b.send("Emulation.setDeviceMetricsOverride",
                    {"width": width, "height": 760, "deviceScaleFactor": 1, "mobile": False})
        self.open(page)
        results = self.type("contiguous")
        for mode in ("light", "dark"):
            if mode == "dark":
                self.js("document.documentElement.classList.add('dark-mode')")
            time.sleep(0.3)  # the theme's transitions
            data = self.b.send("Page.captureScreenshot", {"format": "png"}, timeout=self.timeout)
            with open(os.path.join(folder, f"search-{width}-{mode}.png"), "wb") as f:
                f.write(base64.b64decode(data["data"]))
        return results


# The errors page's entries: each div.book-error-entry, the anchor of the heading before it, and
# the exception lines of its recorded sessions (">>> expression" lines are what was typed).
ENTRIES = """JSON.stringify(Array.from(document.querySelectorAll('div.book-error-entry')).map((d) => {
  let h = d.previousElementSibling;
  while (h && !/^H[1-3]$/.test(h.tagName)) h = h.previousElementSibling;
  const a = h && h.querySelector('a.anchor');
  const lines = Array.from(d.querySelectorAll('pre.book-output')).flatMap(
      (p) => p.textContent.split('\\n'));
  return {anchor: a ? a.id : '',
          messages: lines.filter((l) => /^[A-Za-z]+Error: /.test(l))};
}))"""


def variants(message):
    """A message as pasted: whole, without its Python type, and with its numbers changed (a
    reader's sizes are not the page's)."""
    bare = re.sub(r"^[A-Za-z]+Error: ", "", message)
    return [message, bare, re.sub(r"[0-9]+", lambda m: str(int(m.group(0)) + 7), bare)]


def errors_page(site, pages):
    for p in pages:
        with open(os.path.join(site, p), encoding="utf-8") as f:
            if "book-error-entry" in f.read():
                return p
    return None


def distinctive_words(texts, chapters):
    """For each chapter, a word of its prose that no other page has: the most frequent such word
    of seven letters or more (ties alphabetically), so that the choice is stable, or of six or
    five letters where a page of short words has none that long. The search stems words
    ("recording" finds "recorded"), so no other page may have a word that begins with the same
    five letters either: a stem shared with a long page would push this one off the list."""
    stems = {p: {w.lower()[:5] for w in re.findall(r"[A-Za-z]{5,}", t["all"])}
             for p, t in texts.items()}
    chosen = {}
    for page in chapters:
        for length in (7, 6, 5):
            prose = collections.Counter(
                w.lower() for w in re.findall(r"[A-Za-z]{%d,}" % length, texts[page]["prose"]))
            unique = [w for w in prose if not any(w[:5] in stems[o] for o in texts if o != page)]
            if unique:
                chosen[page] = min(unique, key=lambda w: (-prose[w], w))
                break
    return chosen


def main(argv=None):
    ap = browser_arguments(__doc__.split("\n")[0], "save the open result list here (search-*.png)")
    args = ap.parse_args(argv)

    chromium = find_chromium(args.chromium, "check_search")
    if not chromium:
        return 1
    # print.html, the one-page edition, holds every chapter's anchors but is no chapter page (and
    # has no search box: the search index leaves it out).
    pages = sorted(f for f in os.listdir(args.site) if f.endswith(".html") and f != "print.html")
    chapters = []
    for p in pages:
        with open(os.path.join(args.site, p), encoding="utf-8") as f:
            if CHAPTER_ANCHOR.search(f.read()):
                chapters.append(p)
    failures = []
    if not chapters:
        failures.append("no chapter page found (no md_pages_NN_ anchor)")

    browser = Browser(chromium, 1400, 900)
    r = Reader(browser, args.site, args.timeout)
    try:
        browser.open_session()
        texts = {page: page_texts(os.path.join(args.site, page)) for page in pages}

        r.open("index.html")
        for q in QUERIES:
            res = r.type(q)
            titles = [i["title"] for i in res["items"]]
            print(f"check_search: {q!r}: {len(titles)} result(s): {'; '.join(titles[:4])}")
            if not res["items"]:
                failures.append(f"{q!r} gives no result ({res['note'] or 'list hidden'})")
            elif not res["items"][0]["marks"]:
                failures.append(f"{q!r}: the first result marks no match")
            # A claim ID leads first to the claim itself, not to every claim of its prefix.
            if re.fullmatch(r"[A-Z]{2}-[0-9]{2}", q) and res["items"] and \
                    not res["items"][0]["href"].endswith("#" + q):
                failures.append(f"{q!r}: the first result is {res['items'][0]['href']}, not the claim")

        for q, page in TOPICS:
            res = r.type(q)
            found = [urllib.parse.urlsplit(i["href"]).path.rsplit("/", 1)[-1] for i in res["items"]]
            print(f"check_search: {q!r} finds {found[:3]}")
            if page not in found[:3]:
                failures.append(f"{q!r}: {page} is not among the first three results {found[:3]}")

        # Each word is typed into the search box of the page the last one led to: every page has
        # the box, and a reader searches from wherever they are.
        words = distinctive_words(texts, chapters)
        for page in chapters:
            if page not in words:
                failures.append(f"{page}: no word of its prose is on this page alone")
                continue
            res = r.type(words[page])
            found = [urllib.parse.urlsplit(i["href"]).path.rsplit("/", 1)[-1] for i in res["items"]]
            print(f"check_search: {page}: {words[page]!r} finds {found}")
            if page not in found:
                failures.append(f"{page}: {words[page]!r}, a word of its prose, does not find it")
                continue
            # A click on the result goes to its section.
            href = res["items"][found.index(page)]["href"]
            r.click(f"#book-search-result-{found.index(page)}")
            if not r.landed(href):
                failures.append(f"{page}: the clicked result's anchor is not on {href}")

        # A pasted error message lands on its entry of the errors page.
        errors = errors_page(args.site, pages)
        pasted = 0
        if not errors:
            failures.append("no errors page (no div.book-error-entry) to paste messages from")
        else:
            r.open(errors)
            # The errors page sends a reader on to the chapter of layouts in PyTorch's own ops.
            if not json.loads(r.js("JSON.stringify(Array.from(document.querySelectorAll("
                                   "'.contents a[href]')).some((a) => "
                                   "a.getAttribute('href').startsWith('ch10.html')))")):
                failures.append(f"{errors}: no link to ch10.html, Strides in the wild")
            entries = json.loads(r.js(ENTRIES))
            for e in entries:
                if not e["anchor"] or not e["messages"]:
                    failures.append(f"{errors}: an error entry without an anchor or a message: {e}")
                    continue
                for message in e["messages"]:
                    for text in variants(message):
                        res = r.paste(text)
                        first = res["items"][0]["href"] if res["items"] else "no result"
                        pasted += 1
                        if not first.endswith(f"{errors}#{e['anchor']}"):
                            failures.append(f"pasting {text[:70]!r}…: the first result is {first}, "
                                            f"not {errors}#{e['anchor']}")
            print(f"check_search: {pasted} pasted messages of {len(entries)} error entries")

        # Enter goes to the first result, the arrow keys choose another; Escape closes the list.
        r.open("index.html")
        res = r.type("MT-03")
        if res["items"]:
            href = res["items"][0]["href"]
            r.key("Enter")
            if not r.landed(href):
                failures.append(f"Enter on 'MT-03': no anchor at {href}")
            print(f"check_search: Enter on 'MT-03' went to {href.rsplit('/', 1)[-1]}")
        res = r.type("contiguous")
        if len(res["items"]) >= 2:
            r.key("ArrowDown")
            state = json.loads(r.js(RESULTS))
            if not state["items"][1]["active"]:
                failures.append("ArrowDown did not select the second result")
            href = state["items"][1]["href"]
            r.key("Enter")
            if not r.landed(href):
                failures.append(f"ArrowDown, Enter: no anchor at {href}")
        res = r.type("memset")
        r.key("Escape")
        if not json.loads(r.js(RESULTS))["hidden"]:
            failures.append("Escape did not close the list")

        if args.screenshots:
            os.makedirs(args.screenshots, exist_ok=True)
            for width in (1400, 420):
                res = r.shot(args.screenshots, (chapters or ["index.html"])[0], width)
                if not res["items"]:
                    failures.append(f"search-{width}: no results shown")
        r.collect()
    except (TimeoutError, RuntimeError) as e:
        failures.append(str(e))
    finally:
        browser.close()
    failures += r.problems
    return report("check_search", failures, f"{len(QUERIES)} queries, {len(chapters)} chapters",
                  args.screenshots, prefix="FAILED: ")


if __name__ == "__main__":
    sys.exit(main())
