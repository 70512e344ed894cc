#!/usr/bin/env python3
"""Check the explorer in the page (docs/explorer.js) in headless Chromium, as a reader meets it.

At each width (1400 and 420 px by default):
  - the Explorer page opened from file:// with an expression in its address's hash shows, in the
    page, exactly what the native strided-explore prints for it, and the picture --svg draws;
  - typing another expression into its field answers it as the native program does, and keeps it in
    the hash; an expression PyTorch refuses shows the native program's error, caret and all, and
    for a layout rule's refusal the library's explanation after it, set apart (span.book-live-why);
  - on the first chapter page with a Try it block, Edit opens an editor below the block, whose
    frozen output stays, and an expression typed there is answered as the native program answers
    it (that every Try it block of every chapter page has an Edit button which leaves its command
    line in view is check_site.py's, on the loads it makes anyway: tryit_problems here);
  - a --jsonl line typed into the field (a gradient request) shows the native `--jsonl` answer,
    one field a line and wrapped, and an error answer as an error;
  - no request leaves the site, and no console error or uncaught exception occurs.
Screenshots: DIR/explorer-WIDTH.png, DIR/explorer-why-WIDTH.png (an explained refusal) and
DIR/explorer-tryit-WIDTH.png and DIR/explorer-jsonl-WIDTH.png (a gradient request refused), for a
person to look at.
Uses the Browser of check_browser.py. Standard library only.
"""

import glob
import json
import os
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_browser import (Browser, browser_arguments, find_chromium, report,  # noqa: E402
                           problems_in_events)
from check_navigation import screenshot  # noqa: E402

FIRST = "arange(24).view(4,6)[:, ::2].t()"
TYPED = "arange(24).reshape(2, 3, 4).permute(2, 0, 1)[1:, ::2]"
REFUSED = "arange(24).view(5, 6)"
EXPLAINED = "arange(12).view(3, 4).t().view(12)"  # refused, with the library's explanation
EDITED = "arange(12).view(3, 4)[1:, ::3]"
# --jsonl lines typed into the field: a gradient request answered, and one autograd refuses.
GRAD = '{"grad":{"start":{"shape":[3]},"ops":[{"op":"exp"},{"op":"clone"},{"op":"mul_","other":2}]}}'
GRAD_REFUSED = '{"grad":{"start":{"shape":[3]},"ops":[{"op":"exp"},{"op":"mul_","other":2}]}}'


def native(program, expression, svg=None):
    """What the native program writes: (standard output, standard error) as text, and the SVG."""
    args = [program, expression] + (["--svg", svg] if svg else [])
    p = subprocess.run(args, capture_output=True, text=True, timeout=60)
    picture = None
    if svg and os.path.exists(svg):
        with open(svg, encoding="utf-8") as f:
            picture = f.read()
        os.remove(svg)
    return p.stdout, p.stderr, picture


# Waits until EXPRESSION (JavaScript, evaluated again every 50 ms) is truthy; its value, or null.
def until(js, timeout_ms=15000):
    return (f"new Promise((resolve) => {{ const t0 = Date.now(); (function poll() {{"
            f" let v = null; try {{ v = ({js}); }} catch (e) {{}}"
            f" if (v || Date.now() - t0 > {timeout_ms}) resolve(v || null);"
            f" else setTimeout(poll, 50); }})(); }})")


def type_into(browser, selector, text):
    """Selects what the field holds and types TEXT over it, as a reader's keyboard would."""
    browser.evaluate(f"(() => {{ const f = document.querySelector({json.dumps(selector)});"
                     f" f.focus(); f.select(); return 0; }})()")
    browser.send("Input.insertText", {"text": text})


def shown(browser, selector, expected, timeout):
    """The text of SELECTOR once it equals EXPECTED (or what it shows after the wait)."""
    sel = json.dumps(selector)
    got = browser.evaluate(until(f"document.querySelector({sel}).textContent === "
                                 f"{json.dumps(expected)}"), timeout=timeout)
    if got:
        return expected
    return browser.evaluate(f"document.querySelector({sel}).textContent")


def native_jsonl(program, line):
    """The native --jsonl answer to LINE, each top-level field on a line of its own, as the page
    lays it out (explorer.js, fieldPerLine): the split is at the commas between the fields."""
    answer = subprocess.run([program, "--jsonl"], input=line + "\n", capture_output=True,
                            text=True, timeout=60).stdout.strip()
    out, depth, in_string, escaped = [], 0, False, False
    for c in answer:
        out.append(c)
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
        elif c == "," and depth == 1:
            out.append("\n ")
    return "".join(out)


def desc_of(svg_text):
    start, end = svg_text.find("<desc>"), svg_text.find("</desc>")
    return svg_text[start + 6:end] if start >= 0 else None


def check_explorer(browser, site, program, shots, tmp, timeout):
    problems = []
    path = os.path.abspath(os.path.join(site, "explorer.html"))
    url = "file://" + urllib.parse.quote(path) + "#" + urllib.parse.quote(FIRST, safe="()[],:")
    browser.events.clear()
    browser.send("Page.navigate", {"url": url})
    browser.wait_event("Page.loadEventFired", timeout)
    out, _, svg = native(program, FIRST, os.path.join(tmp, "first.svg"))
    got = shown(browser, "#book-explorer-output", out.rstrip("\n"), timeout)
    if got != out.rstrip("\n"):
        problems.append(f"explorer.html#{FIRST} shows {got[:300]!r}, not the native answer "
                        f"{out[:300]!r}")
    if browser.evaluate("document.getElementById('book-explorer-input').value") != FIRST:
        problems.append("the field does not hold the hash's expression")
    # A screen reader reads a field's description even from a hidden element.
    described = browser.evaluate(
        "(() => { const id = document.getElementById('book-explorer-input')"
        ".getAttribute('aria-describedby'); const d = id && document.getElementById(id);"
        " return d ? d.textContent.trim() + (d.offsetParent === null ? ' (hidden)' : '') : null;"
        " })()")
    if described and described.endswith("(hidden)"):
        problems.append(f"the field is described by hidden text: {described!r}")
    pic = browser.evaluate("(() => { const d = document.querySelector('#book-explorer-picture "
                           "svg desc'); return d ? d.textContent : null; })()")
    html_desc = desc_of(svg or "")
    unescaped = (html_desc or "").replace("&lt;", "<").replace("&gt;", ">").replace(
        "&quot;", '"').replace("&#39;", "'").replace("&amp;", "&")
    if pic != unescaped:
        problems.append(f"the picture describes {pic!r}, the native --svg {unescaped!r}")
    if shots:
        screenshot(browser, os.path.join(shots, f"explorer-{browser.width}.png"))

    type_into(browser, "#book-explorer-input", TYPED)
    out, _, _ = native(program, TYPED)
    got = shown(browser, "#book-explorer-output", out.rstrip("\n"), timeout)
    if got != out.rstrip("\n"):
        problems.append(f"typed {TYPED!r}: the page shows {got[:300]!r}, not the native answer")
    h = browser.evaluate("decodeURIComponent(location.hash.slice(1))")
    if h != TYPED:
        problems.append(f"typed {TYPED!r}: the hash holds {h!r}")

    type_into(browser, "#book-explorer-input", REFUSED)
    _, err, _ = native(program, REFUSED)
    got = shown(browser, "#book-explorer-output", err.rstrip("\n"), timeout)
    if got != err.rstrip("\n") or "^" not in got:
        problems.append(f"typed {REFUSED!r}: the page shows {got[:300]!r}, not the native "
                        f"error {err[:300]!r}")
    if browser.evaluate("document.querySelector('#book-explorer-picture').hidden") is not True:
        problems.append(f"typed {REFUSED!r}: a picture is still shown")

    # A refusal by a layout rule: PyTorch's message, then the library's explanation, set apart.
    type_into(browser, "#book-explorer-input", EXPLAINED)
    _, err, _ = native(program, EXPLAINED)
    got = shown(browser, "#book-explorer-output", err.rstrip("\n"), timeout)
    if got != err.rstrip("\n") or "\nwhy: " not in got:
        problems.append(f"typed {EXPLAINED!r}: the page shows {got[:400]!r}, not the native "
                        f"error with its explanation {err[:400]!r}")
    why = browser.evaluate("(() => { const w = document.querySelector('#book-explorer-output "
                           ".book-live-why'); return w ? w.textContent : null; })()")
    if not why or not why.startswith("why: ") or "cannot merge" not in why or "\ninstead: " not in why:
        problems.append(f"typed {EXPLAINED!r}: the explanation is not set apart: {why!r}")
    if shots:
        screenshot(browser, os.path.join(shots, f"explorer-why-{browser.width}.png"))

    # A --jsonl line: the native program's answer, a field a line, wrapped; a refusal as an error.
    for line, refused in ((GRAD, False), (GRAD_REFUSED, True)):
        type_into(browser, "#book-explorer-input", line)
        expected = native_jsonl(program, line)
        got = shown(browser, "#book-explorer-output", expected, timeout)
        if got != expected:
            problems.append(f"typed {line!r}: the page shows {got[:300]!r}, not the native "
                            f"--jsonl answer {expected[:300]!r}")
        state = browser.evaluate("(() => { const o = document.querySelector('#book-explorer-output');"
                                 " return [o.classList.contains('book-live-error'),"
                                 " getComputedStyle(o).whiteSpace]; })()")
        if state != [refused, "pre-wrap"]:
            problems.append(f"typed {line!r}: error mark and wrapping are {state}, not "
                            f"[{str(refused).lower()}, 'pre-wrap']")
    if shots:
        screenshot(browser, os.path.join(shots, f"explorer-jsonl-{browser.width}.png"))
    problems += problems_in_events(browser.events, url)
    return problems


# How many Try it blocks have an Edit button over the visible part of their first line (the
# command): the range from the block's first character to its first newline, clipped by the block.
COVERED_COMMANDS = """(() => {
  let covered = 0;
  for (const block of document.querySelectorAll('.book-tryit')) {
    const button = block.querySelector('button.book-tryit-edit');
    const pre = block.querySelector('pre');
    if (!button || !pre) continue;
    const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let node = walker.nextNode(), started = false;
    while (node) {
      if (!started) { range.setStart(node, 0); started = true; }
      const nl = node.textContent.indexOf('\\n');
      if (nl >= 0) { range.setEnd(node, nl); break; }
      range.setEnd(node, node.textContent.length);
      node = walker.nextNode();
    }
    if (!started) continue;
    const box = pre.getBoundingClientRect(), b = button.getBoundingClientRect();
    for (const r of range.getClientRects()) {
      const left = Math.max(r.left, box.left), right = Math.min(r.right, box.right);
      if (b.left < right && b.right > left && b.top < r.bottom && b.bottom > r.top) { covered++; break; }
    }
  }
  return covered;
})()"""


def tryit_problems(browser):
    """On a loaded chapter page: an Edit button per Try it block, none covering its command line
    (check_site.py runs this on every chapter page it loads, at each width)."""
    problems = []
    counts = json.loads(browser.evaluate(
        "JSON.stringify([document.querySelectorAll('.book-tryit').length,"
        " document.querySelectorAll('button.book-tryit-edit').length])"))
    if counts[0] != counts[1]:
        problems.append(f"{counts[0]} Try it blocks, {counts[1]} Edit buttons")
    covered = browser.evaluate(COVERED_COMMANDS)
    if covered:
        problems.append(f"the Edit button covers the command line of {covered} Try it block(s)")
    return problems


def check_tryits(browser, site, program, shots, timeout):
    """On the first chapter page with a Try it block: Edit opens an editor below the block, whose
    frozen output stays, and an expression typed there is answered as the native program does."""
    problems = []
    pages = sorted(os.path.basename(p) for p in glob.glob(os.path.join(site, "ch[0-9]*.html")))
    with_tryit = [p for p in pages
                  if 'class="book-tryit' in open(os.path.join(site, p), encoding="utf-8").read()]
    if not with_tryit:
        return ["no chapter page has a Try it block"]
    page = with_tryit[0]
    path = os.path.abspath(os.path.join(site, page))
    url = "file://" + urllib.parse.quote(path)
    browser.events.clear()
    browser.send("Page.navigate", {"url": url})
    browser.wait_event("Page.loadEventFired", timeout)
    frozen = browser.evaluate("document.querySelector('.book-tryit pre').textContent")
    browser.evaluate("(() => { const b = document.querySelector('button.book-tryit-edit');"
                     " b.scrollIntoView({block: 'center'}); b.click(); return 0; })()")
    type_into(browser, ".book-live-input", EDITED)
    out, _, _ = native(program, EDITED)
    got = shown(browser, ".book-live-output", out.rstrip("\n"), timeout)
    if got != out.rstrip("\n"):
        problems.append(f"{page}: Try it edited to {EDITED!r} shows {got[:300]!r}, not "
                        "the native answer")
    if browser.evaluate("document.querySelector('.book-tryit pre').textContent") != frozen:
        problems.append(f"{page}: editing a Try it block changed its frozen output")
    if shots:
        browser.evaluate("document.querySelector('.book-live').scrollIntoView(); 0")
        screenshot(browser, os.path.join(shots, f"explorer-tryit-{browser.width}.png"))
    problems += [f"{page}: {p}" for p in problems_in_events(browser.events, url)]
    return problems


def main(argv=None):
    ap = browser_arguments(__doc__.split("\n")[0], "save the explorer-*.png screenshots here")
    ap.add_argument("--explore", required=True, help="the native strided-explore")
    ap.add_argument("--widths", type=int, nargs="+", default=[1400, 420])
    ap.add_argument("--height", type=int, default=900)
    ap.add_argument("--tmp", default=None, help="a folder for the native program's pictures")
    args = ap.parse_args(argv)

    chromium = find_chromium(args.chromium, "check_explorer")
    if not chromium:
        return 1
    tmp = args.tmp or os.path.join(args.site, "..", "explorer-check")
    os.makedirs(tmp, exist_ok=True)
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)
    failures = []
    browser = Browser(chromium, args.widths[0], args.height)
    try:
        browser.open_session()
        for width in args.widths:
            browser.resize(width, args.height)
            for name, check in (("explorer.html", lambda: check_explorer(
                    browser, args.site, args.explore, args.screenshots, tmp, args.timeout)),
                                ("Try it blocks", lambda: check_tryits(
                    browser, args.site, args.explore, args.screenshots, args.timeout))):
                try:
                    problems = check()
                except (TimeoutError, RuntimeError) as e:
                    problems = [str(e)]
                print(f"check_explorer: {name} at {width} px: {'ok' if not problems else 'FAILED'}")
                failures += [f"{name} at {width} px: {p}" for p in problems]
    finally:
        browser.close()
    return report("check_explorer", failures, f"the Explorer and the Try it blocks at "
                  f"{len(args.widths)} widths", args.screenshots)


if __name__ == "__main__":
    sys.exit(main())
