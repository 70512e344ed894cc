"""Page titles, chapter numbers and previous/next links, made here so no page carries them by hand."""


import os

from .common import doxygen_safe, rel
from .directives import PAGE_ID_RE, SUBPAGE_RE


def page_heading(path):
    """(title, page ID) of a page's first line, '# Title {#id}'; None when it has none."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = PAGE_ID_RE.match(line.strip())
            if m:
                return m.group(1), m.group(2)
            if line.strip():
                break
    return None


def chapter_title(title, name):
    """How a chapter is named wherever the site names it: its number is its file's prefix, so
    renaming 04_indexing.md to 05_indexing.md renumbers it everywhere at once."""
    return f"Chapter {int(name[:2])} \u00b7 {title}"


def number_title(text, name):
    """A chapter page with its number in its title (docs/*.md keep their plain titles)."""
    first, sep, rest = text.partition("\n")
    m = PAGE_ID_RE.match(first.strip())
    if not m:
        return text
    return f"# {chapter_title(m.group(1), name)} {{#{m.group(2)}}}{sep}{rest}"


def html_name(pid):
    """The file Doxygen writes for a page: the main page is index.html."""
    return "index.html" if pid == "mainpage" else pid + ".html"


def nav_bar(prev, nxt, where):
    """Previous/next links of one page; rel= is what docs/nav.js follows on an arrow key."""
    links = []
    for target, rel_, cls, label in ((prev, "prev", "book-nav-prev", "\u2190 Previous"),
                                     (nxt, "next", "book-nav-next", "Next \u2192")):
        if target:
            pid, title = target
            links.append(f'<a class="{cls}" rel="{rel_}" href="{html_name(pid)}">'
                         f'<span class="book-nav-dir">{label}</span>'
                         f'<span class="book-nav-title">{doxygen_safe(title)}</span></a>')
    return (f'\\htmlonly[block]<nav class="book-nav book-nav-{where}" aria-label="Previous and '
            f'next page">{"".join(links)}</nav>\\endhtmlonly')


def add_navigation(pages):
    """Previous/next links at the top and bottom of the front page and of every page it lists
    with \\subpage, in the order it lists them: the tree view's order, so the two never disagree."""
    heads = {}
    for fname, text in pages.items():
        m = PAGE_ID_RE.match(text.partition("\n")[0].strip())
        if m:
            heads[m.group(2)] = (fname, m.group(1))
    if "mainpage" not in heads:
        return
    order = ["mainpage"] + [pid for pid in SUBPAGE_RE.findall(pages[heads["mainpage"][0]])
                            if pid in heads]
    for i, pid in enumerate(order):
        prev = (order[i - 1], heads[order[i - 1]][1]) if i > 0 else None
        nxt = (order[i + 1], heads[order[i + 1]][1]) if i + 1 < len(order) else None
        fname = heads[pid][0]
        first, _, rest = pages[fname].partition("\n")
        pages[fname] = (f"{first}\n\n{nav_bar(prev, nxt, 'top')}\n{rest.rstrip()}\n\n"
                        f"{nav_bar(prev, nxt, 'bottom')}\n")


def name_chapter_pages(book):
    """Every chapter has its page; its page ID and its numbered title, for links to it."""
    book.page_ids = {}
    for ch in book.chapters:
        if not os.path.exists(ch["page"]):
            book.problems.add(rel(ch["source"], book.args.root),
                              f"chapter {ch['name']} has no page {ch['page']}")
            continue
        heading = page_heading(ch["page"])
        if not heading:
            book.problems.add(rel(ch["page"], book.args.root),
                              "the first line must be '# Title {#page_id}'")
            continue
        ch["title"] = chapter_title(heading[0], ch["name"])
        book.page_ids[ch["name"]] = heading[1]


def link_pages(book):
    """Previous/next links on the front page and the pages it lists (add_navigation)."""
    add_navigation(book.pages)


def number_chapter_titles(book):
    """Each chapter page's title with its chapter number."""
    for ch in book.chapters:
        fname = ch["name"] + ".md"
        if fname in book.pages:
            book.pages[fname] = number_title(book.pages[fname], ch["name"])
