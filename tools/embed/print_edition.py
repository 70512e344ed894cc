#!/usr/bin/env python3
"""Write the one-page edition of the book (print.html) from the rendered site, for printing to PDF.

The pages are Doxygen's own, in reading order: the front page, then the pages in the order the tree
view lists them (the front page's \\subpage list: every chapter, the glossary, the errata and the
claims ledger). Each page's text (its header and contents block) is copied into one document whose
head keeps the site's stylesheets and MathJax and drops the navigation scripts (the tree view, the
search, the theme's buttons), which have nothing to drive on a page made for paper. Links between
the pages become links within the document. book.css's print rules lay it out for paper.

Standard library only.
"""

import argparse
import json
import os
import re
import sys

BODY_RE = re.compile(r'<div class="header">.*?<!-- contents -->', re.S)
HEAD_RE = re.compile(r"<head>(.*?)</head>", re.S)
SCRIPT_SRC_RE = re.compile(r'<script type="text/javascript"( async="async")? src="([^"]*)"></script>\n?')
INLINE_SCRIPT_RE = re.compile(r'<script type="text/javascript">.*?</script>\n?', re.S)
HREF_RE = re.compile(r'href="([A-Za-z0-9_]+)\.html(#[^"]*)?"')


def reading_order(html_dir):
    """index.html, then the pages the tree view lists under it, in its order (navtreedata.js holds
    a JavaScript array literal that is also JSON; entries with a # are sections of a page)."""
    with open(os.path.join(html_dir, "navtreedata.js"), encoding="utf-8") as f:
        text = f.read()
    tree, _ = json.JSONDecoder().raw_decode(text, text.index("[", text.index("var NAVTREE")))
    return ["index.html"] + [url for _, url, _ in tree[0][2] or [] if "#" not in url]


def print_head(page_html):
    """The page's head, keeping the stylesheets and MathJax, without the navigation scripts."""
    head = HEAD_RE.search(page_html).group(1)
    head = SCRIPT_SRC_RE.sub(lambda m: m.group(0) if m.group(2).startswith("mathjax/") else "", head)
    head = INLINE_SCRIPT_RE.sub("", head)
    return re.sub(r"<title>.*?</title>", "<title>Stridebook: the whole book</title>", head)


def page_body(name, page_html):
    m = BODY_RE.search(page_html)
    if not m:
        raise ValueError(f"{name}: no Doxygen header and contents block")
    return m.group(0)


def relink(body, names):
    """Links to a page of the edition point into the edition: page.html#a -> #a, page.html -> #print-page."""
    def sub(m):
        page, anchor = m.group(1), m.group(2)
        # explorer.html#EXPR (the link of an \explore) carries an expression, not a section: it opens
        # the Explorer, which the printed page cannot hold.
        if page + ".html" not in names or (page == "explorer" and anchor):
            return m.group(0)
        return f'href="{anchor}"' if anchor else f'href="#print-{page}"'
    return HREF_RE.sub(sub, body)


def build(html_dir):
    names = reading_order(html_dir)
    pages = {}
    for name in names:
        with open(os.path.join(html_dir, name), encoding="utf-8") as f:
            pages[name] = f.read()
    sections = []
    for name in names:
        stem = name[:-5]
        sections.append(f'<section class="book-print-page" id="print-{stem}">\n'
                        f"{relink(page_body(name, pages[name]), set(names))}\n</section>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>" + print_head(pages[names[0]]) + "</head>\n"
            '<body class="book-print">\n<div id="doc-content">\n' + "\n".join(sections)
            + "\n</div>\n</body>\n</html>\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--html", required=True, help="the rendered site (build/<preset>/book/html)")
    args = ap.parse_args(argv)
    try:
        text = build(args.html)
    except (OSError, ValueError, AttributeError, IndexError, TypeError) as e:
        print(f"print_edition: {e}", file=sys.stderr)
        return 1
    with open(os.path.join(args.html, "print.html"), "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
