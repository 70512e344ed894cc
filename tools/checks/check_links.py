#!/usr/bin/env python3
"""Check a built site: every local link and resource resolves, and nothing is loaded from outside.

For every .html file under the site folder:
  - every href/src/data that names a local file must name one that exists, and a #fragment must
    name an id (or <a name>) in that file;
  - no resource the page *loads* (script, stylesheet, image, frame, object, media, @import or
    url() in a style) may come from another host or scheme; plain hyperlinks to other sites are
    reported too, because the book promises to work offline and cites its sources by name, with
    one exception: the Sources page (sources.html) gives each source document's address, and a
    hyperlink (never a load) to one of the addresses it lists may appear on any page (the one-page
    edition repeats them). So every address outside the site is in one place, for a reader to
    follow when online.
Every .css and .js file is also searched for loads from outside (url(http...), @import, fetch,
XMLHttpRequest to an absolute URL).

Exit 0 when clean; otherwise one line per problem, naming the page, and exit 1. Standard library only.
"""

import html.parser
import os
import re
import sys
import urllib.parse

LOADING = {  # tag -> attributes whose URL the browser fetches
    "script": ("src",), "link": ("href",), "img": ("src", "srcset"), "iframe": ("src",),
    "frame": ("src",), "embed": ("src",), "object": ("data",), "source": ("src", "srcset"),
    "video": ("src", "poster"), "audio": ("src",), "track": ("src",), "input": ("src",),
    "image": ("href", "xlink:href"), "use": ("href", "xlink:href"),
}
SOURCES_PAGE = "sources.html"
CSS_URL_RE = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)|@import\s+['\"]([^'\"]+)['\"]", re.I)
JS_OUTSIDE_RE = re.compile(r"""(?:fetch|open|importScripts|src\s*=)\s*\(?\s*['"](?:https?:)?//""", re.I)


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.refs = []  # (tag, attr, url, loads)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("id", "name"):
            if a.get(key) and (key == "id" or tag == "a"):
                self.ids.add(a[key])
        loads = LOADING.get(tag, ())
        for attr, value in attrs:
            if value is None:
                continue
            if attr in loads or attr in ("href", "src", "data", "xlink:href", "action"):
                urls = [u.strip().split(" ")[0] for u in value.split(",")] if attr == "srcset" else [value]
                for u in urls:
                    self.refs.append((tag, attr, u.strip(), attr in loads))
            if attr == "style":
                for m in CSS_URL_RE.finditer(value):
                    self.refs.append((tag, "style", (m.group(1) or m.group(2)).strip(), True))

    handle_startendtag = handle_starttag


def is_outside(url):
    p = urllib.parse.urlsplit(url)
    if p.scheme in ("http", "https", "ftp", "ws", "wss") or url.startswith("//"):
        return True
    return False


def check_site(root):
    problems = []
    pages = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            path = os.path.join(dirpath, f)
            if f.endswith(".html"):
                p = Page()
                with open(path, encoding="utf-8", errors="replace") as fh:
                    p.feed(fh.read())
                pages[os.path.realpath(path)] = p
            elif f.endswith((".css", ".js")):
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                for m in CSS_URL_RE.finditer(text) if f.endswith(".css") else []:
                    url = (m.group(1) or m.group(2)).strip()
                    if is_outside(url):
                        problems.append(f"{os.path.relpath(path, root)}: loads {url} from outside")
                for m in JS_OUTSIDE_RE.finditer(text) if f.endswith(".js") else []:
                    problems.append(f"{os.path.relpath(path, root)}: may load from outside: "
                                    f"{text[m.start():m.end() + 40]!r}")
    if not pages:
        problems.append(f"{root}: no HTML pages found")
    cited = set()  # the addresses the Sources page gives: hyperlinks only
    sources = pages.get(os.path.realpath(os.path.join(root, SOURCES_PAGE)))
    for tag, attr, url, loads in (sources.refs if sources else []):
        if tag == "a" and attr == "href" and not loads and is_outside(url):
            cited.add(url)
    for path, page in sorted(pages.items()):
        where = os.path.relpath(path, root)
        for tag, attr, url, loads in page.refs:
            if tag == "a" and attr == "href" and not loads and url in cited:
                continue
            if not url or url.startswith(("javascript:", "data:", "mailto:")):
                # Doxygen's search box frame starts as javascript:void(0), which loads nothing.
                if url.startswith("javascript:") and loads and url != "javascript:void(0)":
                    problems.append(f"{where}: <{tag} {attr}> runs {url!r}")
                continue
            if is_outside(url):
                verb = "loads" if loads else "links to"
                problems.append(f"{where}: <{tag} {attr}> {verb} {url} outside the site")
                continue
            p = urllib.parse.urlsplit(url)
            if p.scheme and p.scheme != "file":
                problems.append(f"{where}: <{tag} {attr}> uses the scheme {p.scheme}: {url}")
                continue
            target = path if not p.path else os.path.realpath(
                os.path.join(os.path.dirname(path), urllib.parse.unquote(p.path)))
            if not os.path.exists(target):
                problems.append(f"{where}: <{tag} {attr}> {url}: {os.path.relpath(target, root)} "
                                "does not exist")
                continue
            # The Explorer's hash is an expression for it to evaluate (explorer.js), not an id.
            if p.fragment and target.endswith(".html") and os.path.basename(target) != "explorer.html":
                frag = urllib.parse.unquote(p.fragment)
                tp = pages.get(target)
                if tp is not None and frag not in tp.ids:
                    problems.append(f"{where}: <{tag} {attr}> {url}: no id {frag!r} in "
                                    f"{os.path.relpath(target, root)}")
    return problems, len(pages)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: check_links.py SITE_DIR", file=sys.stderr)
        return 2
    problems, n = check_site(argv[0])
    for p in problems:
        print(f"check_links: {p}")
    print(f"check_links: {n} pages, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
