#!/usr/bin/env python3
"""Open every page of the built site in headless Chromium and check what a reader would see.

For each top-level .html page of the site:
  - no console error, no uncaught exception, no failed load;
  - no request leaves the site (only file:, data: and about: URLs are fetched);
  - MathJax has typeset every formula: after its queue has drained, each TeX source Doxygen wrote
    became an SVG (class MathJax_SVG), no MathJax error is shown, and no raw TeX delimiter
    (\\( \\[ \\f$ \\f[) is left in the visible text;
  - a screenshot is saved (--screenshots DIR/<page>.png) for a human to look at.

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

    def open_session(self):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = self.send("Target.attachToTarget",
                             {"targetId": target["targetId"], "flatten": True}, session=False)
        self.session = attached["sessionId"]
        for domain in ("Runtime", "Log", "Network", "Page"):
            self.send(f"{domain}.enable")
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


def check_page(browser, path, shot_dir, timeout):
    url = "file://" + urllib.parse.quote(os.path.abspath(path))
    browser.events.clear()
    browser.send("Page.navigate", {"url": url})
    browser.wait_event("Page.loadEventFired", timeout)
    state = browser.evaluate(WAIT_MATHJAX, timeout=timeout)
    info = json.loads(browser.evaluate(INSPECT))
    problems = []
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
    time.sleep(0.05)  # let late console events arrive before reading them
    try:
        browser.send("Runtime.evaluate", {"expression": "0"})
    except Exception:
        pass
    problems += problems_in_events(browser.events, url)
    if shot_dir:
        shot = browser.send("Page.captureScreenshot", {"format": "png"}, timeout=timeout)
        name = os.path.splitext(os.path.basename(path))[0] + ".png"
        with open(os.path.join(shot_dir, name), "wb") as f:
            f.write(base64.b64decode(shot["data"]))
    return info, problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("site", help="the site folder (build/<preset>/book/html)")
    ap.add_argument("--chromium", default="chromium")
    ap.add_argument("--screenshots", help="save one PNG per page here")
    ap.add_argument("--pages", nargs="*", help="only these pages (file names)")
    ap.add_argument("--width", type=int, default=1100)
    ap.add_argument("--height", type=int, default=800)
    ap.add_argument("--timeout", type=float, default=30.0)
    args = ap.parse_args(argv)

    chromium = shutil.which(args.chromium) or (args.chromium if os.path.exists(args.chromium) else None)
    if not chromium:
        print(f"check_browser: {args.chromium} not found (install Debian's chromium)", file=sys.stderr)
        return 1
    pages = sorted(f for f in os.listdir(args.site) if f.endswith(".html"))
    if args.pages:
        pages = [p for p in pages if p in args.pages]
    if not pages:
        print(f"check_browser: no pages in {args.site}", file=sys.stderr)
        return 1
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)

    failures = 0
    browser = Browser(chromium, args.width, args.height)
    try:
        browser.open_session()
        for page in pages:
            try:
                info, problems = check_page(browser, os.path.join(args.site, page),
                                            args.screenshots, args.timeout)
            except (TimeoutError, RuntimeError) as e:
                info, problems = {"typeset": 0, "sources": 0}, [str(e)]
            status = "ok" if not problems else "FAILED"
            print(f"check_browser: {page}: {info.get('typeset', 0)}/{info.get('sources', 0)} "
                  f"formulas typeset: {status}")
            for p in problems:
                print(f"check_browser: {page}: {p}")
            failures += bool(problems)
    finally:
        browser.close()
    print(f"check_browser: {len(pages)} pages, {failures} with problems"
          + (f"; screenshots in {args.screenshots}" if args.screenshots else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
