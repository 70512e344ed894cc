#!/usr/bin/env python3
"""Check the site's navigation in headless Chromium, as a reader meets it on each chapter page.

The reading order is taken from the site's own tree view (navtreedata.js: the front page, then its
pages in the order the sidebar lists them), so this check and the embed tool that writes the links
agree only if both follow the front page. On every chapter page (chNN.html), at each width
(1400 and 420 px by default):
  - the title reads "Chapter N · ..." with N from the file name, and so does its tree-view entry;
  - there are previous/next links at the top and at the bottom, pointing to the pages before and
    after it in that order, and they fit inside the window;
  - the right-arrow key goes to the next page (and does nothing while the search box has focus);
  - every glossary link (a.book-term) points to an anchor that exists on its page;
  - no request leaves the site, and no console error or uncaught exception occurs.
Screenshots: DIR/nav-chNN-WIDTH-light.png (top of the page) and DIR/nav-chNN-WIDTH-dark.png (the
bottom links, with the theme's dark mode switched on), for a person to look at.

Uses the Browser of check_browser.py. Standard library only.
"""

import base64
import json
import os
import re
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_browser import (WAIT_MATHJAX, Browser, browser_arguments,  # noqa: E402
                           find_chromium, problems_in_events, report)

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


def anchors_of(browser, path, timeout):
    """Every id of a page, as the browser sees it once the page has loaded."""
    load(browser, path, timeout)
    return set(json.loads(browser.evaluate(
        "JSON.stringify([...document.querySelectorAll('[id]')].map((e) => e.id))", timeout)))


def load(browser, path, timeout):
    browser.events.clear()
    browser.send("Page.navigate", {"url": file_url(path)})
    browser.wait_event("Page.loadEventFired", timeout)


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


def check_chapter(browser, site, page, number, prev, nxt, anchors, shots, timeout):
    problems = []
    load(browser, os.path.join(site, page), timeout)
    browser.evaluate(WAIT_MATHJAX, timeout)  # the screenshots show the page as a reader sees it
    info = json.loads(browser.evaluate(INSPECT, timeout))
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
    for href in info["terms"]:
        target, _, anchor = href.partition("#")
        if anchor not in anchors.get(target, set()):
            problems.append(f"glossary link {href} goes to no anchor")
    if shots:
        stem = os.path.join(shots, f"nav-{page[:-5]}-{info['width']}")
        screenshot(browser, stem + "-light.png")
        browser.evaluate("document.documentElement.classList.add('dark-mode');"
                         "document.querySelector('nav.book-nav-bottom').scrollIntoView(); 0")
        screenshot(browser, stem + "-dark.png")
    problems += problems_in_events(browser.events, page)
    browser.events.clear()

    # The search box keeps its arrow keys; elsewhere the right arrow turns the page. A page that
    # turns does so at once (a file: load), so a second without a load means it stayed.
    if nxt:
        searchable = browser.evaluate("(() => { const f = document.querySelector('#top input');"
                                      " if (f) f.focus(); return !!f; })()")
        if searchable and right_arrow_goes_to(browser, 0.5):
            problems.append("the right arrow turned the page while the search box had focus")
            load(browser, os.path.join(site, page), timeout)
        browser.evaluate("document.activeElement && document.activeElement.blur(); 0")
        went = right_arrow_goes_to(browser, timeout)
        # The page, not its fragment: the Explorer page writes its expression into the hash.
        if (went or "").split("#")[0] != file_url(os.path.join(site, nxt)):
            problems.append(f"the right arrow went to {went or 'nowhere'}, not {nxt}")
    return problems  # what the next page loads is checked as that page


def main(argv=None):
    ap = browser_arguments(__doc__.split("\n")[0], "save the nav-*.png screenshots here")
    ap.add_argument("--widths", type=int, nargs="+", default=[1400, 420])
    ap.add_argument("--height", type=int, default=900)
    args = ap.parse_args(argv)

    chromium = find_chromium(args.chromium, "check_navigation")
    if not chromium:
        return 1
    order = reading_order(args.site)
    files = [f for f, _ in order]
    chapters = sorted(f for f in os.listdir(args.site) if CHAPTER_RE.match(f))
    failures = []
    for f, title in order:
        m = CHAPTER_RE.match(f)
        if m and not title.startswith(f"Chapter {int(m.group(1))} \u00b7 "):
            failures.append(f"tree view: {f} is listed as {title!r}")
    numbers = [int(CHAPTER_RE.match(f).group(1)) for f in files if CHAPTER_RE.match(f)]
    if numbers != sorted(numbers) or len(numbers) != len(chapters):
        failures.append(f"tree view lists the chapters as {numbers}, not all of {chapters} in order")
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)

    browser = Browser(chromium, args.widths[0], args.height)
    try:
        browser.open_session()
        browser.send("Emulation.setFocusEmulationEnabled", {"enabled": True})
        for page in chapters:
            if page not in files:
                failures.append(f"{page}: not in the tree view")
        # The pages glossary links point to, read once: their anchors as the browser sees them.
        targets = set()
        for page in chapters:
            with open(os.path.join(args.site, page), encoding="utf-8") as f:
                targets |= set(re.findall(r'<a href="([^"#]+)#[^"]*" class="book-term"', f.read()))
        anchors = {t: anchors_of(browser, os.path.join(args.site, t), args.timeout)
                   for t in sorted(targets) if os.path.exists(os.path.join(args.site, t))}
        for width in args.widths:
            browser.resize(width, args.height)
            for page in chapters:
                if page not in files:
                    continue
                i = files.index(page)
                prev = files[i - 1] if i > 0 else None
                nxt = files[i + 1] if i + 1 < len(files) else None
                try:
                    problems = check_chapter(browser, args.site, page,
                                             int(CHAPTER_RE.match(page).group(1)), prev, nxt,
                                             anchors, args.screenshots, args.timeout)
                except (TimeoutError, RuntimeError) as e:
                    problems = [str(e)]
                print(f"check_navigation: {page} at {width} px: {'ok' if not problems else 'FAILED'}")
                failures += [f"{page} at {width} px: {p}" for p in problems]
    finally:
        browser.close()
    return report("check_navigation", failures,
                  f"{len(chapters)} chapters at {len(args.widths)} widths", args.screenshots)


if __name__ == "__main__":
    sys.exit(main())
