#!/usr/bin/env python3
"""Build the site's full-text search index, so that the search box (docs/search.js) finds any word.

Doxygen 1.9.4's own search finds page titles only. This reads every page Doxygen wrote, cuts it into
sections (each h1/h2/h3 with what follows it, and each row of the claims ledger, which has its own
anchor), and indexes their prose, code and output blocks and claim IDs with lunr, and the words of
each error message of the errors page (div.book-error-entry) in a field of their own (Debian's
python3-lunr, a port of lunr.js 2.3.9). The index and a small store (page, anchor, titles, text to
show) go into html/search-index.js, which assigns a global: a page opened from file:// may load a
script but not fetch a JSON file. lunr.js itself (lunr.min.js of Debian's libjs-lunr) is copied
beside it.

The text is cut into words here, not by lunr, and the page cuts a query the same way (TOKEN_RE,
mirrored in docs/search.js): lunr would split `MT-03` at its hyphen and keep `t.contiguous()` whole.

Standard library and lunr only.
"""

import argparse
import html.parser
import json
import os
import re
import sys

# A claim ID (MT-03; a sub-claim's suffix is a word of its own), else a run of letters, digits and
# underscores. docs/search.js cuts queries with the same rule.
TOKEN_RE = re.compile(r"[A-Z]{2}-[0-9]{2}|[^\W]+")
CLAIM_ID_RE = re.compile(r"^[A-Z]{2}-[0-9]{2}")
HEADINGS = {"h1", "h2", "h3"}
# Block elements: their edges separate words ("</td><td>" is a gap the reader sees).
BLOCKS = {"p", "div", "li", "ul", "ol", "td", "th", "tr", "table", "pre", "br", "summary", "details",
          "dt", "dd", "dl", "figure", "figcaption", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6"}
VOID = {"br", "img", "hr", "input", "meta", "link", "col", "area", "wbr", "source"}
SNIPPET_CHARS = 400  # text kept per section for the result list (the index holds every word):
                     # all of it would double the file

# TeX in \( \) and \[ \] is MathJax's source until the page typesets it; for the index and the
# snippets keep its words (memset, data_ptr) and a few symbols, drop the markup.
TEX_RE = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)
TEX_SYMBOLS = {"sigma": "σ", "ge": "≥", "le": "≤", "cdot": "·", "dots": "…", "ldots": "…",
               "cdots": "…", "times": "×", "in": "∈", "neq": "≠", "sum": "Σ", "prod": "Π",
               "to": "→", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉"}


def tex_to_text(tex):
    tex = re.sub(r"\\([A-Za-z]+)", lambda m: TEX_SYMBOLS.get(m.group(1), " "), tex)
    tex = re.sub(r"\\[,;:! ]", " ", tex)
    tex = re.sub(r"(?<!\\)[{}]", "", tex)
    tex = re.sub(r"\\(.)", r"\1", tex)
    return tex


def clean(text):
    text = TEX_RE.sub(lambda m: tex_to_text(m.group(1) or m.group(2)), text)
    return re.sub(r"\s+", " ", text).strip()


def shorten(text):
    if len(text) <= SNIPPET_CHARS:
        return text
    return text[:SNIPPET_CHARS].rsplit(" ", 1)[0] + " …"


def tokens(text):
    """The words lunr indexes: claim IDs whole; identifiers whole and by their parts, so that
    `contiguous` finds is_contiguous_strict; no single characters (t, s, i: every section has them)
    and no bare numbers (the measured values: many terms, and a reader searches for words)."""
    out = []
    for tok in TOKEN_RE.findall(text):
        if len(tok) < 2 or tok.isdigit():
            continue
        out.append(tok)
        if "_" in tok.strip("_"):
            out += [part for part in tok.split("_") if len(part) > 1]
    return out


def distinct(words):
    """Each word once, by its stem: an error message is a set of words. Counted with repeats, the
    longer of two messages that share words would outrank the shorter one for the shorter one's
    own words ("The expanded size of the tensor ... Tensor sizes" for "The size of tensor a ...")."""
    from lunr.stemmer import stemmer
    from lunr.token import Token
    seen, out = set(), []
    for w in words:
        key = str(stemmer(Token(w.lower())))
        if key not in seen:
            seen.add(key)
            out.append(w)
    return out


class Section:
    def __init__(self, anchor, title):
        self.anchor, self.title = anchor, title
        self.parts, self.ids = [], []
        self.message = []  # the words of an error message the section is the entry of

    def message_text(self):
        return clean("".join(self.message))

    def text(self):
        return clean("".join(self.parts))


class PageParser(html.parser.HTMLParser):
    """Sections of one Doxygen page: only div.contents is read; its table of contents, scripts,
    styles, figures' SVG and what the ledger repeats are skipped."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.sections = []
        self.stack = []           # open sections; a ledger row is pushed over its section
        self.in_title = False
        self.contents = 0         # depth of nested divs inside div.contents (0: outside)
        self.skip = None          # [tag, depth] of the element being skipped
        self.heading = None       # [tag, anchor, text parts] while inside a heading
        self.claim_mark = False
        self.listing = False      # a Doxygen related-pages list: not a page of the book
        self.entry = 0            # depth of the div.book-error-entry being read (0: none)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "div" and "title" in classes and not self.contents:
            self.in_title = True
        if self.skip:
            if tag == self.skip[0] and tag not in VOID:
                self.skip[1] += 1
            return
        if not self.contents:
            if tag == "div" and "contents" in classes:
                self.contents = 1
                self.stack = [Section("", self.title.strip())]
                self.sections.append(self.stack[0])
            return
        if tag == "div":
            self.contents += 1
            if "directory" in classes:
                self.listing = True
            # An error's words on the errors page: indexed in a field of their own, so that a
            # message pasted into the search box finds its entry first.
            if "book-error-entry" in classes and not self.entry:
                self.entry = self.contents
        # In the ledger and the errata, span.expected repeats the measured value beside it, and a
        # row's td.claim-id is its ID, which is already the row's title.
        # (nav: the previous/next links name other pages, whose own sections hold those words)
        if (tag in ("script", "style", "svg", "nav") or (tag == "div" and "toc" in classes)
                or (tag == "span" and "expected" in classes)
                or (tag == "td" and "claim-id" in classes)):
            self.skip = [tag, 1]
            return
        if tag in HEADINGS:
            self.heading = [tag, a.get("id", ""), []]
        elif tag == "a" and self.heading is not None and "anchor" in classes and a.get("id"):
            self.heading[1] = a["id"]
        elif tag == "a" and "claim-mark" in classes:
            self.claim_mark = True
            self.add(" ")  # the mark follows its sentence's full stop; CSS gives it the gap
        elif tag == "tr" and a.get("id"):
            row = Section(a["id"], a["id"])  # the title holds the claim ID
            self.sections.append(row)
            self.stack.append(row)
        if tag in BLOCKS:
            self.add(" ")

    def handle_startendtag(self, tag, attrs):
        if tag in BLOCKS and self.contents and not self.skip:
            self.add(" ")

    def handle_endtag(self, tag):
        if tag == "div" and self.in_title:
            self.in_title = False
        if self.skip:
            if tag == self.skip[0]:
                self.skip[1] -= 1
                if not self.skip[1]:
                    self.skip = None
            return
        if not self.contents:
            return
        if tag == "div":
            if self.entry == self.contents:
                self.entry = 0
            self.contents -= 1
        if tag in BLOCKS:
            self.add(" ")
        if self.heading is not None and tag == self.heading[0]:
            _, anchor, parts = self.heading
            self.heading = None
            section = Section(anchor, clean("".join(parts)))
            self.sections.append(section)
            self.stack = [section]
        elif tag == "a" and self.claim_mark:
            self.claim_mark = False
        elif tag == "tr" and len(self.stack) > 1:
            self.stack.pop()

    def handle_data(self, data):
        if self.in_title:
            self.title += data
        if not self.contents or self.skip:
            return
        if self.heading is not None:
            self.heading[2].append(data)
            return
        if self.claim_mark:
            found = TOKEN_RE.findall(data)
            self.stack[-1].ids += [t for t in found if CLAIM_ID_RE.match(t)]
        self.add(data)

    def add(self, text):
        if self.stack:
            self.stack[-1].parts.append(text)
            if self.entry:
                self.stack[-1].message.append(text)


def page_sections(path):
    """(page title, [Section]) of one page; no sections for Doxygen's own listing pages."""
    parser = PageParser()
    with open(path, encoding="utf-8") as f:
        parser.feed(f.read())
    parser.close()
    if parser.listing:
        return parser.title.strip(), []
    # A section with neither text nor a title of its own (the page top before its first heading,
    # when there is nothing there) would be a result that shows nothing.
    return parser.title.strip(), [s for s in parser.sections if s.text() or s.anchor]


def build(site):
    """The serialized lunr index and the store: [file, anchor, page title, section title, text]."""
    from lunr import lunr  # Debian's python3-lunr; imported here so --help works without it

    docs, store = [], []
    for name in sorted(os.listdir(site)):
        # print.html, the one-page edition, repeats every page: a result there would be a second
        # copy of one found on its own page.
        if not name.endswith(".html") or name == "print.html":
            continue
        title, sections = page_sections(os.path.join(site, name))
        for s in sections:
            text = s.text()
            ref = str(len(store))
            # The page title is a title only for the section that opens the page; a heading
            # repeats it on every section otherwise and drowns the sections' own titles.
            section_title = s.title if s.anchor else ""
            # The claim IDs of a section's marks are words of its body already; in its title too,
            # they rank the sentences that make the claim above those that mention it.
            docs.append({"ref": ref, "title": tokens(s.title) + s.ids, "body": tokens(text),
                         "message": distinct(tokens(s.message_text()))})
            store.append([name, s.anchor, title, section_title, shorten(text)])
    if not docs:
        raise ValueError(f"no page with text in {site}")
    index = lunr(ref="ref", fields=[dict(field_name="title", boost=5), "body",
                                    dict(field_name="message", boost=10)], documents=docs)
    return index.serialize(), store


def write(site, lunr_js):
    """Writes html/search-index.js and copies lunr.min.js into the site; returns the index's size
    and its number of sections."""
    index, store = build(site)
    out = os.path.join(site, "search-index.js")
    payload = json.dumps({"index": index, "docs": store}, ensure_ascii=False, separators=(",", ":"))
    with open(out, "w", encoding="utf-8") as f:
        f.write("// The site's search index (tools/embed/search_index.py), for docs/search.js.\n")
        f.write(f"window.BOOK_SEARCH = {payload};\n")
    # lunr.min.js names a source map that the site does not ship; a reader's developer tools would
    # report it missing.
    with open(lunr_js, encoding="utf-8") as f:
        code = f.read()
    with open(os.path.join(site, "lunr.min.js"), "w", encoding="utf-8") as f:
        f.write(re.sub(r"\n//# sourceMappingURL=\S*\s*$", "\n", code))
    return os.path.getsize(out), len(store)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("site", help="the HTML folder Doxygen wrote")
    ap.add_argument("--lunr-js", required=True,
                    help="Debian's lunr.min.js (libjs-lunr), copied into the site")
    args = ap.parse_args(argv)
    size, n = write(args.site, args.lunr_js)
    print(f"search index: {n} sections, {size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
