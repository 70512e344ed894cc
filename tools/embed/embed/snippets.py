"""The chapters' sources as \\snippet shows them, and the PyTorch companions beside them."""


import os

from .common import esc, rel
from .directives import MARKER_RE, PY_MARKER_RE


def dedented_source(text, marker=MARKER_RE):
    """The source with each //! [name] ... //! [name] block moved left by its common indent.

    Only leading blanks inside blocks change; every other character, and every line outside a
    block, is kept, so what the page shows is the code that ran. Returns (text, set of names).
    """
    lines = text.split("\n")
    names = set()
    open_at = {}
    blocks = []
    for n, line in enumerate(lines):
        m = marker.match(line)
        if not m:
            continue
        name = m.group(1)
        if name in open_at:
            blocks.append((open_at.pop(name) + 1, n))
            names.add(name)
        else:
            open_at[name] = n
    for begin, end in blocks:
        body = [lines[i] for i in range(begin, end) if lines[i].strip()]
        indent = min((len(l) - len(l.lstrip(" ")) for l in body), default=0)
        for i in range(begin, end):
            if lines[i].strip() and not marker.match(lines[i]):
                lines[i] = lines[i][indent:]
    return "\n".join(lines), names


def snippet_block(text, name):
    """The lines of the first //! [name] block of a source, as \\snippet shows them."""
    shown, inside = [], False
    for line in text.split("\n"):
        m = MARKER_RE.match(line)
        if m and m.group(1) == name:
            if inside:
                break  # Doxygen shows the first block of that name
            inside = True
        elif inside:
            shown.append(line)
    return "\n".join(shown)


def listing_tabs(line, py_name, block):
    """A \\snippet line as two tabs, PyTorch first: the companion's block, then the C++ one.
    Without script both show, one under the other, each under its name."""
    return (
        '\\htmlonly[block]<div class="book-tabs" data-listing="' + esc(block) + '">'
        '<div class="book-tab-bar" role="tablist">'
        '<button type="button" role="tab" class="book-tab" data-lang="pytorch" '
        'aria-selected="true">'
        "PyTorch</button>"
        '<button type="button" role="tab" class="book-tab" data-lang="cpp" aria-selected="false">'
        "C++</button></div>"
        '<div class="book-tab-panel" role="tabpanel" data-lang="pytorch">\\endhtmlonly\n'
        f"\\snippet {py_name} {block}\n"
        '\\htmlonly[block]</div><div class="book-tab-panel" role="tabpanel" data-lang="cpp">'
        "\\endhtmlonly\n"
        f"{line.strip()}\n"
        "\\htmlonly[block]</div></div>\\endhtmlonly")


def source_key(ch, path):
    """How a page's \\snippet names a chapter's source: the program by its file name
    (06_performance.cpp), a section file by its path from the chapters folder
    (06_performance/unary.cpp)."""
    return os.path.relpath(path, os.path.dirname(ch["source"])).replace(os.sep, "/")


def companion_path(ch):
    """Where a chapter's PyTorch companion is, if it has one: beside its program, as .py."""
    return os.path.splitext(ch["source"])[0] + ".py"


def read_sources(book):
    """The chapters' sources as \\snippet shows them (sources: file -> text, snippets: file ->
    its listings' names), and their PyTorch companions (companions: C++ file -> (companion's
    file, its listings' names))."""
    book.sources, book.snippets, book.companions = {}, {}, {}
    for ch in book.chapters:
        # One name is one listing of the chapter, whichever of its files holds it: the
        # companion pairs its # [name] block with it by that name alone.
        held_by = {}
        for path in ch["sources"]:
            with open(path, encoding="utf-8") as f:
                text, names = dedented_source(f.read())
            fname = source_key(ch, path)
            book.sources[fname] = text
            book.snippets[fname] = names
            for block in sorted(names):
                if block in held_by:
                    book.problems.add(rel(path, book.args.root),
                                      f"listing {block} of chapter {ch['name']} is also a //! [{block}] "
                                      f"block of {held_by[block]}: give one of them another name")
                held_by.setdefault(block, fname)
        py = companion_path(ch)
        if os.path.exists(py):
            with open(py, encoding="utf-8") as f:
                py_text, py_names = dedented_source(f.read(), PY_MARKER_RE)
            py_name = os.path.basename(py)
            book.sources[py_name] = py_text
            for path in ch["sources"]:
                book.companions[source_key(ch, path)] = (py_name, py_names)
