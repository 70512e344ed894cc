"""The glossary: \\terms lines make headings entries; a term's first use on a chapter page links
to its entry."""

import os
import re

from .common import doxygen_safe, esc, rel
from .directives import HEADING_ID_RE, TERMS_RE
from .navigation import html_name, page_heading


def glossary_terms(docs, problems, root):
    """The glossary's entries, from every '\\terms form, form' line of docs/*.md: each form maps
    to the heading above its line (its text and {#anchor}) and that page's file."""
    terms = {}
    for fname in sorted(os.listdir(docs)):
        if not fname.endswith(".md"):
            continue
        path = os.path.join(docs, fname)
        page = page_heading(path)
        heading = None
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                h = HEADING_ID_RE.match(line.strip())
                if h:
                    heading = h.groups()
                m = TERMS_RE.match(line.strip())
                if not m:
                    continue
                at = f"{rel(path, root)}:{n}"
                if not page or not heading or heading[1] == page[1]:
                    problems.add(at, "\\terms must follow a heading with an {#anchor}, below the title")
                    continue
                for form in (x.strip() for x in m.group(1).split(",")):
                    if form in terms:
                        problems.add(at, f"glossary form {form!r} belongs to {terms[form]['name']!r} "
                                         "already")
                    elif form:
                        terms[form] = {"name": heading[0], "anchor": heading[1],
                                       "href": f"{html_name(page[1])}#{heading[1]}"}
    return terms


# Where a glossary link never goes: fenced code, headings, table rows, block commands (a snippet's
# block names are words too), raw HTML (claim marks, figures, <details>), math, inline code,
# Markdown links, \ref with its text, any other command (a value such as \ch05_lanes_per_warp),
# HTML tags, and emphasis of several words (Doxygen drops an emphasis that holds a tag, and such
# a span is often a title: *Demystifying PyTorch's Strides Format*), and a quotation in straight
# double quotes (Doxygen copies "..." as written, so a link inside one would show as raw HTML, and
# a quoted source's words are not the book's use of a term). A protected span is matched
# where it starts, so a term inside it is never seen. The pattern runs with DOTALL for the spans of
# several lines: the rest of a line is [^\n]*, never .*
PROTECTED = "|".join([
    r"^[ \t]*(?:```|~~~).*?^[ \t]*(?:```|~~~)[ \t]*$",
    r"^[ \t]*#[^\n]*",
    r"^[ \t]*\|[^\n]*",
    r"^[ \t]*\\(?:snippet|htmlinclude|include|verbinclude|dontinclude|image)\b[^\n]*",
    r"\\htmlonly.*?\\endhtmlonly",
    r"\\f\$.*?\\f\$", r"\\f\[.*?\\f\]", r"\\f\{.*?\\f\}",
    r"`[^`]*`",
    r"\[[^\]]*\]\([^)]*\)",
    r'\\ref\s+\S+(?:\s+"[^"]*")?',
    r"\\\w+",
    r"<[^>]*>",
    r"(?<![\w*])\*(?=\S)[^*]*?\s[^*]*?(?<=\S)\*(?![\w*])",
    r'"[^"\\\n<>]*(?:\n[^"\\\n<>]*)?"',  # over one line break at most, never over a command or tag
])


def link_terms(text, terms):
    """The first use of each glossary entry on the page, in any of its forms, linked to it.

    Forms are matched whole-word and as written (lower case stays lower case), the longest first,
    so "storage offset" is one use of its own entry, not a use of "storage"; a form may run over a
    line break. An emphasised term, *dense*, is linked with its stars inside the link, where
    Doxygen still reads them. The link is plain HTML, which Doxygen passes through as written."""
    if not terms:
        return text
    forms = sorted(terms, key=len, reverse=True)
    alt = "|".join(r"\s+".join(map(re.escape, f.split())) for f in forms)
    # The term comes first: it starts with a letter or a star, where no protected span but a
    # several-word emphasis can start, and a term that is exactly an emphasis must win over it.
    pattern = re.compile(rf"(?P<term>(?P<em>\*)?(?<![\w\\-])(?P<form>{alt})(?![\w-])(?(em)\*))"
                         rf"|(?P<skip>{PROTECTED})", re.M | re.S)
    used = set()

    def sub(m):
        if m.group("term") is None:
            return m.group(0)
        entry = terms[" ".join(m.group("form").split())]
        if entry["anchor"] in used:
            return m.group(0)
        used.add(entry["anchor"])
        return (f'<a class="book-term" href="{esc(entry["href"])}" '
                f'title="{doxygen_safe(entry["name"])}: see the glossary">{m.group("term")}</a>')

    return pattern.sub(sub, text)


def link_chapter_terms(book):
    """The glossary's entries, from every page, linked from the chapter pages. (A title is a
    heading, where no link goes, so numbering it first changes nothing here.)"""
    terms = glossary_terms(book.args.docs, book.problems, book.args.root)
    for ch in book.chapters:
        fname = ch["name"] + ".md"
        if fname in book.pages:
            book.pages[fname] = link_terms(book.pages[fname], terms)
