#!/usr/bin/env python3
"""Open every page of the built site in headless Chromium, once at each width, and check on it
everything a reader would see: the page itself (check_browser.py), and on chapter pages the
navigation (check_navigation.py) and the listings' tabs (check_tabs.py).

One Chromium session loads each top-level .html page once at each --widths (1400 and 420 px: a
desktop and a phone), in file order, and on that load runs, in this order:
  1. check_browser's checks: formulas typeset, layout, header; a screenshot;
  2. on a chapter page, check_navigation's: title, previous/next links, glossary links, and that
     the search box keeps the arrow keys; and check_explorer's: an Edit button on every Try it
     block, leaving its command line in view;
  3. on a page with tabs, check_tabs': PyTorch or C++ shown as the last choice says, both tabs in
     every listing, a click on C++ switching all of them, the left arrow switching back;
  4. at the first width, dark mode on, and check_browser's dark checks (the figures' colours),
     with their screenshots;
  5. on a chapter page, the right arrow, which asks for the next page in the reading order; where
     that page is the next to visit, the load the arrow started is that page's load.
The events of each load (console errors, uncaught exceptions, failed loads, requests that leave
the site) are checked once all of that has run. The tree view's list of chapters is checked once,
and every glossary link once every page's ids have been seen.

Loading each page once for all these checks, rather than once per check, is what keeps the site's
checks within a minute on two cores. Standard library only.
"""

import json
import os
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_browser  # noqa: E402
import check_explorer  # noqa: E402
import check_navigation  # noqa: E402
import check_tabs  # noqa: E402


class Site:
    """The pass over the site: what is known of it, and the problems found, page by page."""

    def __init__(self, browser, args):
        self.b, self.args = browser, args
        self.site = args.site
        self.pages = sorted(f for f in os.listdir(self.site) if f.endswith(".html"))
        if args.pages:
            self.pages = [p for p in self.pages if p in args.pages]
        self.neighbours = check_navigation.neighbours(self.site)
        tabbed = check_tabs.companion_pages(args.root, os.path.join(args.root, "docs"))
        self.listings = dict(tabbed)
        self.tab_order = [p for p, _ in tabbed]
        self.terms, self.ids = {}, {}
        self.failures = 0
        self.asked_for = None  # the page the last one's right arrow is loading

    def say(self, where, problems, note=""):
        status = "ok" if not problems else "FAILED"
        print(f"check_site: {where}: {note}{status}")
        for p in problems:
            print(f"check_site: {where}: {p}")
        self.failures += bool(problems)

    def chosen(self, page, width_index):
        """For a page with tabs: whether it is to arrive just after C++ was chosen; else None."""
        if page not in self.listings:
            return None
        return check_tabs.chosen_before(self.tab_order.index(page), width_index)

    def visit(self, page, width_index, forget_after, next_page):
        """Loads and checks one page. forget_after: the next page with tabs is to arrive as to a
        reader who never chose, so the choice is forgotten here, before this page's last step
        (the right arrow) asks for another page. next_page: the page visited next, which is
        loaded by that arrow when it asks for it, instead of loaded once more."""
        path = os.path.join(self.site, page)
        url = "file://" + urllib.parse.quote(os.path.abspath(path))
        width = self.b.width
        chosen = self.chosen(page, width_index)
        if self.asked_for == page:
            state = check_browser.await_page(self.b, self.args.timeout)
        else:
            state = check_browser.load_page(self.b, path, self.args.timeout)
        self.asked_for = None
        info, problems = check_browser.check_loaded(self.b, path, state, self.args.screenshots,
                                                    self.args.timeout)
        if width_index == 0:
            self.ids[page] = set(json.loads(self.b.evaluate(check_navigation.IDS)))
        chapter = page in self.neighbours
        if chapter:
            prev, nxt = self.neighbours[page]
            found, self.terms[page] = check_navigation.check_chapter(self.b, page, prev, nxt)
            problems += found + check_explorer.tryit_problems(self.b)
            if nxt:
                turned = check_navigation.search_box_keeps_arrows(self.b)
                if turned:  # the page went away: back to it for the checks still to come
                    problems += turned
                    check_browser.load_page(self.b, path, self.args.timeout)
        if chosen is not None:
            problems += check_tabs.check_page(self.b, page, self.listings[page], chosen,
                                              self.args.screenshots, self.args.timeout)
        dark = []
        if width_index == 0:
            dark = check_browser.check_dark(self.b, path, self.args.screenshots, self.args.timeout)
            if chapter:
                check_navigation.dark_screenshot(self.b, page, self.args.screenshots)
        problems += check_browser.late_events(self.b, url)
        if forget_after:
            self.b.evaluate("localStorage.clear(); 0")
        if chapter and self.neighbours[page][1]:
            nxt = self.neighbours[page][1]
            turned = check_navigation.right_arrow_turns_to(self.b, self.site, nxt,
                                                           self.args.timeout)
            problems += turned
            if not turned and nxt == next_page:
                self.asked_for = nxt
        note = f"{info.get('typeset', 0)}/{info.get('sources', 0)} formulas typeset"
        if chosen is not None:
            note += ", tabs " + ("after choosing C++" if chosen else "with no choice yet")
        self.say(f"{page} ({width} px)", problems, note + ": ")
        if width_index == 0:
            self.say(f"{page} ({width} px, dark)", dark)


def main(argv=None):
    ap = check_browser.browser_arguments(__doc__.split("\n")[0], "save the screenshots here")
    ap.add_argument("--root", required=True, help="the checkout (its chapters/ and docs/)")
    ap.add_argument("--pages", nargs="*", help="only these pages (file names)")
    ap.add_argument("--widths", default="1400,420",
                    help="window widths to check every page at, comma-separated")
    ap.add_argument("--only-width", type=int,
                    help="check at this one of --widths only (the site's checks run as one test "
                         "per width, side by side); the dark checks, the tree view and the "
                         "glossary links go with the first width")
    ap.add_argument("--height", type=int, default=800)
    args = ap.parse_args(argv)

    chromium = check_browser.find_chromium(args.chromium, "check_site")
    if not chromium:
        return 1
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)
    widths = [int(w) for w in args.widths.split(",")]
    if args.only_width is not None and args.only_width not in widths:
        ap.error(f"--only-width {args.only_width} is not one of --widths {args.widths}")
    shown = [w for w in range(len(widths)) if args.only_width in (None, widths[w])]
    browser = check_browser.Browser(chromium, widths[0], args.height)
    site = Site(browser, args)
    if not site.pages:
        print(f"check_site: no pages in {args.site}", file=sys.stderr)
        return 1
    tabbed = [p for p in site.tab_order if p in site.pages]
    if len(tabbed) < 2 and not args.pages:
        site.say("tabs", ["fewer than two pages with tabs: a choice cannot be carried over"])
    if 0 in shown:
        site.say("tree view", check_navigation.tree_problems(args.site))
    t0 = time.monotonic()
    try:
        browser.open_session()
        browser.send("Emulation.setFocusEmulationEnabled", {"enabled": True})
        visits = [(page, w) for w in shown for page in site.pages]
        tab_visits = [(k, site.chosen(p, w)) for k, (p, w) in enumerate(visits)
                      if site.chosen(p, w) is not None]

        def forget_after(k):  # whether the first page with tabs after visit k arrives unchosen
            later = [chosen for j, chosen in tab_visits if j > k]
            return bool(later) and not later[0]

        # The first load opens the site's storage and makes the choice the first page with tabs
        # is to arrive with, on another page with tabs where there is one.
        first = visits[tab_visits[0][0]][0] if tab_visits else site.pages[0]
        start = next((p for p in tabbed if p != first), first)
        check_browser.load_page(browser, os.path.join(args.site, start), args.timeout)
        browser.evaluate("localStorage.clear(); 0")
        if tab_visits and tab_visits[0][1]:
            check_tabs.choose_cpp(browser)
        for k, (page, w) in enumerate(visits):
            if k == 0 or w != visits[k - 1][1]:
                browser.resize(widths[w], args.height)
            following = visits[k + 1][0] if k + 1 < len(visits) and visits[k + 1][1] == w \
                else None
            try:
                site.visit(page, w, forget_after(k), following)
            except (TimeoutError, RuntimeError) as e:
                site.asked_for = None
                site.say(f"{page} ({widths[w]} px)", [str(e)])
    finally:
        browser.close()
    if not args.pages and 0 in shown:
        site.say("glossary links", check_navigation.glossary_problems(site.terms, site.ids))
    print(f"check_site: {len(site.pages)} pages at {', '.join(str(widths[w]) for w in shown)} px"
          + (" and in dark mode" if 0 in shown else "") + ", "
          f"{len(site.neighbours)} chapters' navigation, {len(tabbed)} pages' tabs, "
          f"{site.failures} checks with problems in {time.monotonic() - t0:.0f} s"
          + (f"; screenshots in {args.screenshots}" if args.screenshots else ""))
    return 1 if site.failures else 0


if __name__ == "__main__":
    sys.exit(main())
