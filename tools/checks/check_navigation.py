#!/usr/bin/env python3
"""The site's navigation as a reader meets it on each chapter page: checks that check_site.py runs
on each page it has loaded (no page is loaded here twice).

The reading order is taken from the site's own tree view (navtreedata.js: the front page, then its
pages in the order the sidebar lists them), so this check and the embed tool that writes the links
agree only if both follow the front page. On every chapter page (chNN.html), at each width:
  - the title reads "Chapter N · ..." with N from the file name, and so does its tree-view entry;
  - there are previous/next links at the top and at the bottom, pointing to the pages before and
    after it in that order, and they fit inside the window;
  - the right-arrow key goes to the next page (and does nothing while the search box has focus);
  - every glossary link (a.book-term) points to an anchor that exists on its page (as the browser
    sees that page: check_site.py collects every page's ids as it loads it);
  - no request leaves the site, and no console error or uncaught exception occurs.
Screenshots: DIR/nav-chNN-WIDTH-dark.png (the bottom links, with the theme's dark mode switched
on), for a person to look at; the top of each page is check_site's own screenshot.

Uses the Browser of check_browser.py. Standard library only.
"""

import base64
import json
import os
import re
import time
import urllib.parse

CHAPTER_RE = re.compile(r"^ch([0-9]{2})\.html$")

INSPECT = r"""
(() => {
  const navs = [...document.querySelectorAll('nav.book-nav')].map((n) => {
    const r = n.getBoundingClientRect();
    const link = (rel) => { const a = n.querySelector(`a[rel="${rel}"]`);
                            return a ? a.getAttribute('href') : null; };
    return {prev: link('prev'), next: link('next'), left: r.left, right: r.right,
            overflow: [...n.querySelectorAll('a')].some((a) => a.scrollWidth > a.clientWidth + 1)};
  });
  const title = document.querySelector('div.header .title');
  return JSON.stringify({
    title: title ? title.textContent.trim() : '',
    navs: navs,
    width: window.innerWidth,
    terms: [...document.querySelectorAll('a.book-term')].map((a) => a.getAttribute('href')),
  });
})()"""


def file_url(path):
    return "file://" + urllib.parse.quote(os.path.abspath(path))


def reading_order(site):
    """The pages the tree view lists under the front page, in its order, with their titles."""
    with open(os.path.join(site, "navtreedata.js"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("[", text.index("var NAVTREE"))
    tree, _ = json.JSONDecoder().raw_decode(text, start)  # a JavaScript array literal, JSON-shaped
    root = tree[0]
    pages = [("index.html", root[0])]
    for child in root[2] or []:
        if "#" not in child[1]:
            pages.append((child[1], child[0]))
    return pages


# Every id of the page, as the browser sees it once the page has loaded.
IDS = "JSON.stringify([...document.querySelectorAll('[id]')].map((e) => e.id))"


def tree_problems(site):
    """What is wrong with the tree view's list of chapters, as sentences."""
    order = reading_order(site)
    files = [f for f, _ in order]
    chapters = sorted(f for f in os.listdir(site) if CHAPTER_RE.match(f))
    problems = []
    for f, title in order:
        m = CHAPTER_RE.match(f)
        if m and not title.startswith(f"Chapter {int(m.group(1))} \u00b7 "):
            problems.append(f"tree view: {f} is listed as {title!r}")
    numbers = [int(CHAPTER_RE.match(f).group(1)) for f in files if CHAPTER_RE.match(f)]
    if numbers != sorted(numbers) or len(numbers) != len(chapters):
        problems.append(f"tree view lists the chapters as {numbers}, not all of {chapters} in order")
    problems += [f"{page}: not in the tree view" for page in chapters if page not in files]
    return problems


def neighbours(site):
    """{chapter page: (the page before it, the page after it)} in the reading order."""
    files = [f for f, _ in reading_order(site)]
    return {page: (files[i - 1] if i > 0 else None, files[i + 1] if i + 1 < len(files) else None)
            for i, page in enumerate(files) if CHAPTER_RE.match(page)}


def glossary_problems(terms, ids):
    """terms: {page: [href of each glossary link]}; ids: {page: set of its ids}."""
    problems = []
    for page, hrefs in sorted(terms.items()):
        for href in hrefs:
            target, _, anchor = href.partition("#")
            if anchor not in ids.get(target, set()):
                problems.append(f"{page}: glossary link {href} goes to no anchor")
    return problems


# The events that say a page asked to go elsewhere (window.location.href = ...), with the URL, as
# soon as the renderer asks: the check need not wait for the next page to load.
NAVIGATION_EVENTS = ("Page.frameRequestedNavigation", "Page.frameStartedNavigating")


def right_arrow_goes_to(browser, timeout):
    """Press the right-arrow key as a reader would; the URL the page then asks to go to, or None
    when no navigation is asked for within `timeout` seconds. The key's handlers run before
    Input.dispatchKeyEvent returns, and a page asks to navigate at once, so a short timeout is
    enough to say it stayed."""
    browser.events.clear()
    for kind in ("keyDown", "keyUp"):
        browser.send("Input.dispatchKeyEvent", {"type": kind, "key": "ArrowRight",
                                                "code": "ArrowRight", "windowsVirtualKeyCode": 39})
    deadline = time.monotonic() + timeout
    while True:
        for e in browser.events:
            if e.get("method") in NAVIGATION_EVENTS:
                return e["params"].get("url")
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        try:
            browser.events.append(browser._read(time.monotonic() + min(left, 0.05)))
        except TimeoutError:
            pass


def screenshot(browser, path):
    shot = browser.send("Page.captureScreenshot", {"format": "png"})
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def check_chapter(browser, page, prev, nxt):
    """Checks a loaded chapter page's title, links and glossary links; returns (problems, the
    page's glossary links) for glossary_problems once every page has been seen."""
    number = int(CHAPTER_RE.match(page).group(1))
    problems = []
    info = json.loads(browser.evaluate(INSPECT))
    if not info["title"].startswith(f"Chapter {number} \u00b7 "):
        problems.append(f"title is {info['title']!r}, not 'Chapter {number} \u00b7 ...'")
    if len(info["navs"]) != 2:
        problems.append(f"{len(info['navs'])} previous/next bars, not 2 (top and bottom)")
    for i, nav in enumerate(info["navs"]):
        where = "top" if i == 0 else "bottom"
        if nav["prev"] != prev or nav["next"] != nxt:
            problems.append(f"{where} links go to {nav['prev']} / {nav['next']}, not {prev} / {nxt}")
        if nav["left"] < 0 or nav["right"] > info["width"] + 1 or nav["overflow"]:
            problems.append(f"{where} links do not fit a {info['width']} px window")
    if not info["terms"]:
        problems.append("no glossary link")
    return problems, info["terms"]


def dark_screenshot(browser, page, shots):
    """The bottom links in dark mode (switched on by the caller), for a person to look at."""
    if shots:
        browser.evaluate("document.querySelector('nav.book-nav-bottom').scrollIntoView(); 0")
        screenshot(browser, os.path.join(shots, f"nav-{page[:-5]}-{browser.width}-dark.png"))


def search_box_keeps_arrows(browser):
    """The search box keeps its arrow keys: with it focused, the right arrow must not turn the page.
    Returns the problems; leaves nothing focused."""
    problems = []
    searchable = browser.evaluate("(() => { const f = document.querySelector('#top input');"
                                  " if (f) f.focus(); return !!f; })()")
    if searchable and right_arrow_goes_to(browser, 0.25):
        problems.append("the right arrow turned the page while the search box had focus")
    browser.evaluate("document.activeElement && document.activeElement.blur(); 0")
    return problems


def right_arrow_turns_to(browser, site, nxt, timeout):
    """Elsewhere the right arrow turns the page to the next one: the last check of a page, since
    the page then asks to go. Returns the problems."""
    # Nothing focused: a focused control (a listing's tab) keeps its arrow keys too.
    browser.evaluate("document.activeElement && document.activeElement.blur(); 0")
    went = right_arrow_goes_to(browser, timeout)
    # The page, not its fragment: the Explorer page writes its expression into the hash.
    if (went or "").split("#")[0] != file_url(os.path.join(site, nxt)):
        return [f"the right arrow went to {went or 'nowhere'}, not {nxt}"]
    return []
