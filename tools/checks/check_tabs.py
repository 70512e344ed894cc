#!/usr/bin/env python3
"""The listings' PyTorch and C++ tabs as a reader meets them: checks that check_site.py runs on
each page it has loaded (no page is loaded here).

For every chapter with a PyTorch companion (chapters/NN_name.py in --root), on its page chNN.html,
at each width:
  - every listing of its Markdown page (each \\snippet of docs/NN_name.md) is a tab group with two
    tabs, PyTorch then C++, and two panels, each holding a non-empty listing;
  - a reader who never chose sees PyTorch in every listing, and the tab bar fits the window;
  - clicking C++ in one listing shows C++ in all of them, and the choice survives going to
    another page (localStorage, as a file:// page keeps it): the next such page, loaded after the
    click, shows C++ in every listing;
  - the left arrow on a focused tab switches back to PyTorch without turning the page;
  - no request leaves the site, and no console error or uncaught exception occurs (check_site's).
Each page is loaded once at each width: in one of the two it arrives as to a reader who never
chose (PyTorch shown), in the other just after C++ was chosen on the page before (C++ shown);
the two alternate from page to page, and swap between the widths, so every page is seen both ways.
Screenshots: DIR/tabs-chNN-WIDTH-{pytorch,cpp}.png (the first listing), for a person to look at.
Standard library only.
"""

import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_navigation import screenshot  # noqa: E402

SNIPPET_RE = re.compile(r"^\s*\\snippet\s+(\S+)\s+(\S+)\s*$", re.M)

# What the page shows now: each tab group's tabs (label, selected) and which panels are visible.
STATE = r"""
(() => JSON.stringify([...document.querySelectorAll('div.book-tabs')].map((g) => {
  const bar = g.querySelector('.book-tab-bar').getBoundingClientRect();
  return {
    listing: g.getAttribute('data-listing'),
    tabs: [...g.querySelectorAll('button.book-tab')].map((b) =>
      [b.textContent.trim(), b.getAttribute('aria-selected') === 'true']),
    panels: [...g.querySelectorAll('div.book-tab-panel')].map((p) => ({
      lang: p.getAttribute('data-lang'),
      visible: p.getClientRects().length > 0,
      code: (p.querySelector('div.fragment') || {textContent: ''}).textContent.trim().length,
    })),
    fits: bar.left >= 0 && bar.right <= window.innerWidth + 1,
  };
})))()"""


def shown(state):
    """The language each group shows ('pytorch', 'cpp', or '?' when not exactly one panel)."""
    out = []
    for g in state:
        visible = [p["lang"] for p in g["panels"] if p["visible"]]
        out.append(visible[0] if len(visible) == 1 else "?")
    return out


def press(browser, key, code):
    for kind in ("keyDown", "keyUp"):
        browser.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key,
                                                "windowsVirtualKeyCode": code})


def choose_cpp(browser):
    """A click on the C++ tab of the page's last listing, as a reader's."""
    browser.evaluate("(() => { const g = [...document.querySelectorAll('div.book-tabs')].pop();"
                     " g.querySelector('button.book-tab[data-lang=\"cpp\"]').click(); })(); 0")


def chosen_before(index, width_index):
    """Whether the tab page of this index, at this width, arrives just after C++ was chosen."""
    return (index + width_index) % 2 == 1


def check_page(browser, page, listings, chosen, shots, timeout):
    """Checks one loaded page; `chosen` says whether C++ was chosen just before, on another page
    (else the reader never chose). Leaves C++ chosen."""
    problems = []
    state = json.loads(browser.evaluate(STATE, timeout))
    names = [g["listing"] for g in state]
    if names != listings:
        problems.append(f"tab groups for listings {names}, not the page's listings {listings}")
    for g in state:
        if [t[0] for t in g["tabs"]] != ["PyTorch", "C++"]:
            problems.append(f"listing {g['listing']}: tabs {[t[0] for t in g['tabs']]}, "
                            "not PyTorch, C++")
        if [p["lang"] for p in g["panels"]] != ["pytorch", "cpp"]:
            problems.append(f"listing {g['listing']}: panels {[p['lang'] for p in g['panels']]}")
        for p in g["panels"]:
            if p["code"] == 0:
                problems.append(f"listing {g['listing']}: the {p['lang']} panel holds no code")
        if not g["fits"]:
            problems.append(f"listing {g['listing']}: the tab bar does not fit the window")
    if chosen and set(shown(state)) != {"cpp"}:
        problems.append(f"after C++ was chosen on another page the listings show {shown(state)}, "
                        "not C++")
    if not chosen and set(shown(state)) != {"pytorch"}:
        problems.append(f"before any choice the listings show {shown(state)}, not PyTorch")
    stem = os.path.join(shots, f"tabs-{page[:-5]}-{browser.evaluate('window.innerWidth')}") \
        if shots else None

    def shot(lang):
        if stem:
            browser.evaluate("document.querySelector('div.book-tabs').scrollIntoView(); 0")
            screenshot(browser, f"{stem}-{lang}.png")

    if not chosen:
        shot("pytorch")
    else:
        shot("cpp")
        # The left arrow on a focused tab goes back to PyTorch, and does not turn the page.
        browser.evaluate("document.querySelector('button.book-tab[data-lang=\"cpp\"]').focus(); 0")
        before = browser.evaluate("location.href")
        press(browser, "ArrowLeft", 37)
        state = json.loads(browser.evaluate(STATE, timeout))
        if browser.evaluate("location.href") != before:
            problems.append("the left arrow on a tab turned the page")
        elif set(shown(state)) != {"pytorch"}:
            problems.append(f"the left arrow on the C++ tab left the listings showing {shown(state)}")
        shot("pytorch")

    # A click on C++ in the last listing switches every listing (and is what the next page sees).
    choose_cpp(browser)
    state = json.loads(browser.evaluate(STATE, timeout))
    if set(shown(state)) != {"cpp"}:
        problems.append(f"after choosing C++ the listings show {shown(state)}")
    if any(t[1] != (t[0] == "C++") for g in state for t in g["tabs"]):
        problems.append("after choosing C++ the tabs' aria-selected does not say so")
    if not chosen:
        shot("cpp")
    return problems


def companion_pages(root, docs):
    """(page file, listings in page order) for each chapter with a PyTorch companion."""
    out = []
    for py in sorted(glob.glob(os.path.join(root, "chapters", "[0-9][0-9]_*.py"))):
        name = os.path.splitext(os.path.basename(py))[0]
        with open(os.path.join(docs, name + ".md"), encoding="utf-8") as f:
            listings = [m.group(2) for m in SNIPPET_RE.finditer(f.read())]
        out.append((f"ch{name[:2]}.html", listings))
    return out
