"""A chapter's outputs as escaped HTML fragments, and its values as Doxygen aliases."""

import json
import os

from .common import esc, rel
from .directives import NAME_RE
from .svg import sanitize_svg, svg_width


def fragment_html(chapter, output, problems, root):
    """An output of a chapter as an HTML block, every piece of chapter text escaped."""
    path = os.path.join(chapter["out"], output["file"])
    where = rel(path, root)
    caption = output.get("caption", "")
    kind = output.get("kind")
    with open(path, encoding="utf-8") as f:
        body = f.read()
    if kind == "text":
        inner = f'<pre class="book-output">{esc(body.rstrip())}</pre>'
        if caption:
            inner = f'<div class="book-output-caption">{esc(caption)}</div>\n' + inner
        return f'<div class="book-text">{inner}</div>\n'
    if kind == "table":
        try:
            t = json.loads(body)
        except ValueError as e:
            problems.add(where, f"table is not JSON: {e}")
            return None
        if (not isinstance(t, dict) or not isinstance(t.get("header", []), list)
                or not isinstance(t.get("rows", []), list)
                or not all(isinstance(r, list) for r in t.get("rows", []))):
            problems.add(where, "table is not an object with a list \"header\" and a list of "
                                "lists \"rows\"")
            return None
        head = "".join(f"<th>{esc(h)}</th>" for h in t.get("header", []))
        rows = "\n".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>"
                         for r in t.get("rows", []))
        cap = f"<caption>{esc(t.get('caption') or caption)}</caption>" if (t.get("caption") or caption) else ""
        return (f'<div class="book-table-wrap"><table class="book-table">{cap}\n'
                f"<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}\n</tbody></table></div>\n")
    if kind == "figure":
        svg = sanitize_svg(body, where, problems)
        if svg is None:
            return None
        cap = f"<figcaption>{esc(caption)}</figcaption>" if caption else ""
        # The drawn width, for book.css: a figure shrinks to the text column down to a legible
        # fraction of it, and scrolls (with a cue) past that.
        width = svg_width(svg)
        style = f' style="--figure-width: {width:g}px"' if width else ""
        return (f'<figure class="book-figure"{style}><div class="book-scroll">{svg}</div>'
                f'{cap}</figure>\n')
    problems.add(where, f"output {output.get('name')!r} has an unknown kind {kind!r}")
    return None


FORBIDDEN_IN_VALUES = set("\\@#$%`*_\n\r")


def alias_value(text):
    """A value for a Doxygen alias: HTML special characters as entities; None if unsafe."""
    if any(ch in FORBIDDEN_IN_VALUES for ch in text):
        return None
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def collect_outputs(book):
    """Each chapter's outputs that are newer than its sources, and its values as aliases. A file in
    a chapter's folder that its report does not list is left from an older run: a problem, so that
    no page can show it."""
    args, problems = book.args, book.problems
    book.fragments = {}
    book.values = {}
    for ch in book.chapters:
        listed = {o["file"] for o in ch["report"].get("outputs", [])}
        for o in ch["report"].get("outputs", []):
            if not NAME_RE.match(o.get("name", "")):
                problems.add(rel(ch["source"], args.root), f"output name {o.get('name')!r} is not a-z0-9_")
                continue
            key = f"{ch['name']}.{o['name']}"
            path = os.path.join(ch["out"], o["file"])
            if not os.path.exists(path):
                continue  # reported if a page uses it
            if os.path.getmtime(path) < ch["newest"]:
                problems.add(rel(path, args.root), f"output {o['name']!r} (claim {o.get('claim') or '-'}) "
                                                   "is older than the chapter's source")
                continue
            book.fragments[key] = {"chapter": ch, "output": o, "used": False}
        for fname in sorted(os.listdir(ch["out"])):
            if fname.endswith((".txt", ".svg", ".table.json")) and fname not in listed:
                problems.add(rel(os.path.join(ch["out"], fname), args.root),
                             "a file the chapter's report does not list (left from an older run?)")
        for vname, text in ch["report"].get("values", {}).items():
            alias = f"{ch['slug']}_{vname}"
            v = alias_value(str(text))
            if v is None:
                problems.add(rel(ch["source"], args.root),
                             f"value {vname} = {text!r} holds a character a sentence cannot quote safely")
                continue
            book.values[alias] = v


def render_fragments(book):
    """The HTML of each output a page used (the pages have marked them), and only those."""
    book.frag_html = {}
    for key, fr in book.fragments.items():
        if fr["used"]:
            html_text = fragment_html(fr["chapter"], fr["output"], book.problems, book.args.root)
            if html_text is not None:
                book.frag_html[key] = html_text
