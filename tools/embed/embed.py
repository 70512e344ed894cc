#!/usr/bin/env python3
"""The embed step of the book: chapter outputs -> pages Doxygen can render.

Reads what each chapter program wrote with --emit (report.json, values.json, fragments) and the
Markdown pages of docs/, and writes into --pages:
  *.md            the pages, with claim marks, output inclusions and the chapter list filled in
  fragments/      every chapter output as an HTML fragment, escaped (chapter output is untrusted)
  values.doxy     ALIASES for the values sentences quote: \\ch01_name in a page becomes the value
  footer.html     the page footer (a copy of docs/footer.html)
  sources/        each chapter's sources, every //! [name] block shifted left to its own margin
                  (what \\snippet shows: Doxygen 1.9.4 cannot trim indentation itself); a
                  chapter's section files keep their folder: sources/06_performance/unary.cpp
  claims.json     every claim with its status, measured values and the pages that cite it

It fails (exit 1, one line per problem naming the file and the claim) when the text and the checks
drift apart: a claim ID in the text that no chapter checks, a check that no page cites, an output or
value a page refers to that is missing or older than its chapter's source, a claim that failed, a
recorded GPU run of an unknown format or naming a claim no chapter checks, or a claim's sentence
whose numbers are not its statement's (a number of the statement that neither the sentence's
paragraph nor what its section shows says, or a shape or size that differs from the statement's;
see check_claim_numbers and docs/claim_numbers.txt, its reviewed exceptions).

Directives in docs/*.md (nothing else is touched):
  \\claim{MT-03}        the mark of a sentence stating claim MT-03 (status, link to the ledger)
  \\output{name}        an output of this page's chapter; \\output{01_memory_topology/name} elsewhere
  \\book{chapters}      the list of chapter pages, in order
  \\book{ledger}        the claims ledger table
  \\book{errata}        the errata table
  \\book{gpu_runs}      a section for each recorded GPU run (docs/recorded/gpu; see gpu_runs.py)
  \\chNN_name           a value of chapter NN (a Doxygen alias, checked here first)
  \\tryit ARGS          (a line of its own) runs `strided-explore ARGS` now and shows the command
                       with its real output (text, or an SVG drawing); a failing command fails
  \\explore{EXPR}      a link that opens EXPR in the Explorer page (explorer.html#EXPR), shown as
                       code; EXPR must run in strided-explore, or be refused by an op (a refusal
                       is worth showing), never fail to parse
  \\terms FORM, ...    (a line of its own, under a heading with an {#anchor}) makes that heading a
                       glossary entry: the first use of any FORM on a chapter page links to it

PyTorch beside the C++: a chapter whose program has a companion beside it (chapters/NN_name.py,
its listings between `# [name]` markers) shows each \\snippet of its page in two tabs, PyTorch
first, then C++ (docs/listing-tabs.js remembers the reader's choice); a listing with no PyTorch
form fails.
Each \\tryit of such a chapter shows PyTorch's recorded answer (docs/recorded/pytorch/NN_name.json,
written by tools/book record-pytorch) beside the explorer's, and fails when the two disagree on the
shape, strides, storage offset, contiguity or values, or when no answer is recorded.

Navigation, made here so that no page carries it by hand: a chapter page's title gets its number
from the file's prefix ("Chapter 4 · Title" for 04_*.md); every page the front page lists with
\\subpage (in that order, after the front page itself) gets previous/next links at its top and
bottom; and a \\ref to a chapter's anchor whose text names a chapter number must name that one.

Standard library only.
"""

import argparse
import html
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import urllib.parse
import xml.etree.ElementTree as ET
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_runs  # noqa: E402
import versions  # noqa: E402

ID = r"[A-Z]{2}-[0-9]{2}(?:\.[a-z0-9]+)?"
CLAIM_RE = re.compile(r"\\claim\{([^}]*)\}")
# A claim mark with the word it follows ("strides.\claim{CT-01}"): Doxygen puts a space before a
# raw block, where a line may break and leave the mark alone at the start of the next line, so a
# plain word (no markup, no macro) goes into the mark's block with it, the two held on one line.
# Group 1 is that word, or None where the mark follows markup or a space; group 2 the ID.
WORD_CLAIM_RE = re.compile(r"(?:(?<![^\s(])([A-Za-z0-9][^\s\\`*_\[\]<>&{}|#$@\"]*))?"
                           r"\\claim\{([^}]*)\}")
# A word that is a command's argument ("\ref ch02.") stays where the command can read it.
COMMAND_BEFORE_RE = re.compile(r"[\\@]\w+\s+$")
OUTPUT_RE = re.compile(r"\\output\{([^}]*)\}")
BOOK_RE = re.compile(r"\\book\{([^}]*)\}")
SNIPPET_RE = re.compile(r"\\snippet(?:\{[^}]*\})?\s+(\S+)\s+(\S+)")
MARKER_RE = re.compile(r"^\s*//!\s*\[([^\]]+)\]\s*$")
PY_MARKER_RE = re.compile(r"^\s*#\s*\[([^\]]+)\]\s*$")  # a companion's listing: # [name]
EXPLORE_RE = re.compile(r"\\explore\{([^{}]+)\}")
# What strided-explore says of an expression it cannot read, as against an op's refusal.
EXPLORE_UNREAD_RE = re.compile(r"unknown method|unknown function|unexpected|did you mean|"
                               r"expected an?|bad input")
TRYIT_RE = re.compile(r"^\\tryit\s+(.+?)\s*$")
REF_TEXT_OPEN_RE = re.compile(r'\\ref\s+\S+\s+"[^"]*$')
VALUE_RE = re.compile(r"\\(ch[0-9]{2}_[a-z0-9_]+)")
BARE_ID_RE = re.compile(r"(?<![\w{#-])(" + ID + r")(?![\w-])")
PAGE_ID_RE = re.compile(r"^#\s+(.*?)\s*\{#([A-Za-z0-9_]+)\}\s*$")
HEADING_ID_RE = re.compile(r"^#+\s+(.*?)\s*\{#([A-Za-z0-9_]+)\}\s*$")
TERMS_RE = re.compile(r"^\\terms\s+(.+?)\s*$")
SUBPAGE_RE = re.compile(r"\\subpage\s+([A-Za-z0-9_]+)")
CHAPTER_REF_RE = re.compile(r'\\ref\s+ch([0-9]{2})\w*\s+"[Cc]hapter\s+([0-9]+)"')
NAME_RE = re.compile(r"^[a-z0-9_]+$")
STATUSES = ("passed", "failed", "not run", "inconclusive", "quoted")
MARKS = {"passed": "\u2713", "failed": "\u2717", "not run": "\u25cb", "inconclusive": "~",
         "quoted": "\u275d"}


class Problems:
    """Every problem found, reported together so one build shows all of them."""

    def __init__(self):
        self.items = []

    def add(self, where, message):
        self.items.append(f"{where}: {message}")


def esc(text):
    return html.escape(str(text), quote=True)


def rel(path, root):
    try:
        return os.path.relpath(path, root)
    except ValueError:
        return path


# ---- reading the chapters' reports ----------------------------------------------------------------

def chapter_slug(name):
    """'01_memory_topology' -> 'ch01': the prefix of the chapter's value aliases."""
    m = re.match(r"^([0-9]{2})_", name)
    return "ch" + m.group(1) if m else None


def load_json(path, problems, where):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        problems.add(where, f"{path} is missing")
    except (OSError, ValueError) as e:
        problems.add(where, f"{path} cannot be read: {e}")
    return None


def load_chapters(args, problems):
    """The chapters of --chapter NAME=SOURCE, in order. A chapter named more than once has several
    sources: the first is its program, the others its section files (chapters/NAME/*.cpp); its
    report and outputs must be newer than every one of them."""
    chapters = []
    by_name = {}
    for spec in args.chapter:
        name, _, source = spec.partition("=")
        if name in by_name:
            by_name[name]["sources"].append(source)
            continue
        by_name[name] = {"name": name, "source": source, "sources": [source]}
    for spec in by_name.values():
        name, source = spec["name"], spec["source"]
        where = rel(source, args.root)
        if not NAME_RE.match(name) or not chapter_slug(name):
            problems.add(where, f"chapter name '{name}' must look like 01_memory_topology")
            continue
        out = os.path.join(args.out, name)
        report_path = os.path.join(out, "report.json")
        if not os.path.exists(report_path):
            problems.add(where, f"chapter {name} has no report ({report_path} is missing: "
                                "run the chapter with --emit)")
            continue
        newest = max(spec["sources"], key=os.path.getmtime)
        if os.path.getmtime(report_path) < os.path.getmtime(newest):
            problems.add(rel(newest, args.root),
                         f"the report of chapter {name} ({report_path}) is older than its "
                         "source: run the chapter again")
        report = load_json(report_path, problems, where)
        if report is None:
            continue
        if report.get("chapter") != name:
            problems.add(where, f"{report_path} belongs to chapter {report.get('chapter')!r}, not {name}")
            continue
        page = os.path.join(args.docs, name + ".md")
        chapters.append({"name": name, "source": source, "sources": spec["sources"],
                         "newest": os.path.getmtime(newest), "out": out, "report": report,
                         "page": page, "slug": chapter_slug(name)})
    return chapters


def source_key(ch, path):
    """How a page's \\snippet names a chapter's source: the program by its file name
    (06_performance.cpp), a section file by its path from the chapters folder
    (06_performance/unary.cpp)."""
    return os.path.relpath(path, os.path.dirname(ch["source"])).replace(os.sep, "/")


def check_claims(chapters, problems, root):
    """All claims by ID, unique across the book; failed claims are problems."""
    claims = {}
    for ch in chapters:
        where = rel(ch["source"], root)
        for c in ch["report"].get("claims", []):
            cid = c.get("id", "")
            if not re.fullmatch(ID, cid):
                problems.add(where, f"claim ID {cid!r} is not of the form MT-03")
                continue
            if cid in claims:
                problems.add(where, f"claim {cid} is checked by chapters {claims[cid]['chapter']} "
                                    f"and {ch['name']}")
                continue
            status = c.get("status")
            if status not in STATUSES:
                problems.add(where, f"claim {cid} has an unknown status {status!r}")
                continue
            if status == "failed":
                bad = [m for m in c.get("measured", []) if not m.get("ok", True)]
                detail = "; ".join(f"{m['what']}: {m['measured']} (expected {m['expected']})"
                                   for m in bad) or c.get("reason", "")
                problems.add(where, f"claim {cid} failed: {detail}")
            claims[cid] = dict(c, measured=measurements(c), chapter=ch["name"], cited_in=[],
                               recorded=[])
    return claims


def measurement(m):
    """One measured value as the ledger and claims.json keep it: a comparison (its expected value
    and verdict, "compared": true) or a plain record ("compared": false, no expected value, no
    verdict), so that a value that was never compared cannot be read as passed. A record quoted
    from a source rather than measured keeps the source ("quoted"). A report from before
    "compared" existed marks a record by its empty expected value."""
    if m.get("compared", True) and m.get("expected"):
        return {"what": m["what"], "measured": m["measured"], "expected": m["expected"],
                "compared": True, "ok": bool(m.get("ok", False))}
    if m.get("quoted"):
        return {"what": m["what"], "measured": m["measured"], "compared": False,
                "quoted": m["quoted"]}
    return {"what": m["what"], "measured": m["measured"], "compared": False}


def measurements(c):
    return [measurement(m) for m in c.get("measured", [])]


def load_recorded(recorded_dir, claims, problems, root):
    """The recorded GPU runs of docs/recorded/gpu/*.json (tools/gpu/record.py; gpu_runs.FORMAT),
    shown beside this run.

    A recorded status is kept apart from the claim's own status: it never makes a claim passed
    here, and a claim that failed there is shown as failed there without failing this build. A
    recorded claim that no chapter checks in this build, or that this build states otherwise, is a
    problem: the record is older than the book and must be made again.
    """
    if not recorded_dir or not os.path.isdir(recorded_dir):
        return []
    runs = []
    for fname in sorted(os.listdir(recorded_dir)):
        if not fname.endswith(".json"):
            continue
        path = os.path.join(recorded_dir, fname)
        where = rel(path, root)
        record = load_json(path, problems, where)
        if record is None:
            continue
        if not isinstance(record, dict) or record.get("format") != gpu_runs.FORMAT:
            got = record.get("format") if isinstance(record, dict) else None
            problems.add(where, f"unknown format {got!r} of a recorded GPU run (this build reads "
                                f"format {gpu_runs.FORMAT}): record it again with tools/gpu/record.py")
            continue
        prov = record.get("provenance", {})
        run = {"file": fname, "anchor": gpu_runs.anchor(fname), "gpu": prov.get("gpu", "unknown GPU"),
               "cpu": prov.get("cpu", ""), "commit": prov.get("commit", "unknown"),
               "date": prov.get("date", ""), "cuda_runtime": prov.get("cuda_runtime", ""),
               "claims": [], "record": record}
        runs.append(run)
        for c in record.get("claims", []):
            cid = c.get("id", "")
            if cid not in claims:
                problems.add(where, f"recorded claim {cid} has no check in this build "
                                    "(record the run again, or remove it)")
                continue
            if c.get("statement") != claims[cid]["statement"]:
                # The claim was restated since the run: its status there judged another sentence.
                problems.add(where, f"recorded claim {cid} states {c.get('statement')!r}, this build's "
                                    f"check states {claims[cid]['statement']!r} (record the run again)")
                continue
            status = c.get("status")
            if status not in STATUSES:
                problems.add(where, f"recorded claim {cid} has an unknown status {status!r}")
                continue
            seen = {"id": cid, "statement": c["statement"],
                    "status": status, "reason": c.get("reason", ""), "measured": measurements(c)}
            run["claims"].append(seen)
            claims[cid]["recorded"].append({
                "file": fname, "anchor": run["anchor"], "gpu": run["gpu"], "commit": run["commit"],
                "date": run["date"], "status": status, "reason": seen["reason"],
                "measured": seen["measured"]})
    return runs


# ---- fragments ----------------------------------------------------------------------------------------

SVG_NS = "http://www.w3.org/2000/svg"
SVG_TAGS = {"svg", "g", "rect", "line", "polyline", "polygon", "path", "circle", "ellipse", "text",
            "tspan", "title", "desc", "defs", "marker", "clipPath", "linearGradient", "stop"}
SVG_ATTRS = {
    "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "dx", "dy", "width", "height",
    "viewBox", "preserveAspectRatio", "d", "points", "transform", "fill", "fill-opacity",
    "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-dasharray", "stroke-linecap",
    "stroke-linejoin", "opacity", "font-size", "font-family", "font-weight", "font-style",
    "text-anchor", "dominant-baseline", "alignment-baseline", "class", "id", "role", "aria-label",
    "aria-labelledby", "aria-describedby", "marker-start", "marker-mid", "marker-end", "markerWidth",
    "markerHeight", "refX", "refY", "orient", "markerUnits", "clip-path", "offset", "stop-color",
    "stop-opacity", "gradientUnits", "letter-spacing", "textLength", "lengthAdjust",
    "vector-effect", "shape-rendering", "version", "visibility", "display",
}
# No "style": CSS escapes (\\75 rl() and functions such as image-set('...') can reach outside the
# page, and the book's figures need none of it.
DATA_ATTR_RE = re.compile(r"^data-[a-z][a-z0-9-]*$")  # inert: no browser acts on data-* attributes
URL_RE = re.compile(r"url\(\s*([^)]*)\)", re.I)


def sanitize_svg(text, where, problems):
    """Parse an SVG and write it again from an allowlist: no scripts, no outside references.

    Writing the parsed tree escapes every text and attribute; anything not on the list is refused
    (a problem), never passed through.
    """
    if re.search(r"<!(DOCTYPE|ENTITY)", text, re.I):
        # Entities expand before the allowlist sees the text; the figures never need them.
        problems.add(where, "figure has a DOCTYPE or entity declaration")
        return None
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        problems.add(where, f"figure is not well-formed SVG: {e}")
        return None
    ok = True
    for el in root.iter():
        tag = el.tag
        if not isinstance(tag, str) or not tag.startswith("{" + SVG_NS + "}"):
            problems.add(where, f"figure has a non-SVG element {tag!r}")
            ok = False
            continue
        local = tag[len(SVG_NS) + 2:]
        if local not in SVG_TAGS:
            problems.add(where, f"figure has a disallowed element <{local}>")
            ok = False
        for attr, value in el.attrib.items():
            name = attr
            if attr == "{http://www.w3.org/XML/1998/namespace}space":
                continue
            if name not in SVG_ATTRS and not DATA_ATTR_RE.match(name):
                problems.add(where, f"figure has a disallowed attribute {name!r} on <{local}>")
                ok = False
                continue
            low = value.lower()
            for target in URL_RE.findall(value):
                if not target.strip(" '\"").startswith("#"):
                    problems.add(where, f"figure refers outside itself: {value!r}")
                    ok = False
            if "javascript:" in low or "expression(" in low or "@import" in low or "\\" in value:
                problems.add(where, f"figure attribute {name!r} holds {value!r}")
                ok = False
    if not ok:
        return None
    theme_classes(root)
    ET.register_namespace("", SVG_NS)
    return ET.tostring(root, encoding="unicode")


# Colours that mean "the page's background" and "the page's ink" in a figure drawn for paper
# (gnuplot's charts, say): in the page they take the theme's colours through these classes (see
# book.css), so a chart follows dark mode like the text around it. Any other colour is data.
THEME_FILL = {"#ffffff": "bg", "white": "bg", "black": "ink", "#000000": "ink", "gray": "muted"}
THEME_STROKE = {"black": "ink-line", "#000000": "ink-line", "gray": "muted-line"}


def theme_classes(root):
    for el in root.iter():
        classes = el.get("class", "").split()
        if classes:
            continue  # the figure chose its own classes (the library's pictures do)
        fill = el.get("fill", "").lower()
        stroke = el.get("stroke", "").lower()
        # Only a white *rectangle* is a background: white text on a dark bar is data.
        if fill in THEME_FILL and (THEME_FILL[fill] != "bg" or el.tag.endswith("}rect")):
            classes.append(THEME_FILL[fill])
        if stroke in THEME_STROKE:
            classes.append(THEME_STROKE[stroke])
        if classes:
            el.set("class", " ".join(classes))


def svg_width(svg):
    """The width a figure is drawn for, in px: its width attribute, else its viewBox's."""
    head = svg[:svg.find(">") + 1]
    m = re.search(r'\swidth="([0-9.]+)(px)?"', head)
    if m:
        return float(m.group(1))
    m = re.search(r'\sviewBox="[-0-9.]+[ ,]+[-0-9.]+[ ,]+([0-9.]+)', head)
    return float(m.group(1)) if m else None


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


# ---- snippets -----------------------------------------------------------------------------------------

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


# ---- values ----------------------------------------------------------------------------------------

FORBIDDEN_IN_VALUES = set("\\@#$%`*_\n\r")


def alias_value(text):
    """A value for a Doxygen alias: HTML special characters as entities; None if unsafe."""
    if any(ch in FORBIDDEN_IN_VALUES for ch in text):
        return None
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


# ---- the pages ---------------------------------------------------------------------------------------

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


def claim_title(c):
    parts = [f"{c['id']} {c['status']}"]
    if c.get("reason"):
        parts.append(c["reason"])
    for m in measurements(c):
        s = f"{m['what']}: {m['measured']}"
        s += (f" (expected {m['expected']})" if m["compared"]
              else f" (quoted from {m['quoted']})" if m.get("quoted") else " (measured)")
        parts.append(s)
    for r in c.get("recorded", []):
        parts.append(f"recorded on {r['gpu']} at {r['commit']}: {r['status']}")
    return " \u2014 ".join(parts)


def doxygen_safe(text):
    """HTML-escaped text that Doxygen cannot read as a command either: inside \\htmlonly a
    backslash or at-sign from chapter output (\\endhtmlonly) would end the raw block early."""
    return esc(text).replace("\\", "&#92;").replace("@", "&#64;")


def claim_mark(c, word=None):
    """The mark of claim c, as a raw HTML block; with the word it follows (WORD_CLAIM_RE), the
    word too, in a span that keeps the two on one line."""
    status = c["status"]
    cls = "claim-" + status.replace(" ", "-")
    mark = (f'<a class="claim-mark {cls}" href="claims.html#{esc(c["id"])}" '
            f'title="{doxygen_safe(claim_title(c))}">{MARKS[status]}&#160;{esc(c["id"])}</a>')
    if word:
        mark = f'<span class="book-nowrap">{doxygen_safe(word)}{mark}</span>'
    return f"\\htmlonly{mark}\\endhtmlonly"


def base_id(cid):
    return cid.split(".", 1)[0]


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


def explorer_answer(out):
    """The last step of strided-explore's text report: {shape, strides, storage_offset,
    is_contiguous, dtype, repr}, each as the report prints it; {} when it has no step."""
    steps = re.split(r"^step [0-9]+: .*$", out, flags=re.M)
    if len(steps) < 2:
        return {}
    last = steps[-1]
    answer = {}
    for key, pattern in (("shape", r"^  shape +(\(.*?\))"), ("strides", r"^  strides +(\(.*?\))"),
                         ("storage_offset", r"^  storage offset +(-?[0-9]+)"),
                         ("dtype", r"^  dtype +(\w+)"),
                         ("is_contiguous", r"^  contiguous +(yes|no)")):
        m = re.search(pattern, last, re.M)
        if m:
            answer[key] = m.group(1)
    if "is_contiguous" in answer:  # as PyTorch prints it
        answer["is_contiguous"] = "True" if answer["is_contiguous"] == "yes" else "False"
    # The values: the lines under "  values", blank ones included (a 3-d tensor's blocks are
    # apart), up to the next heading of two spaces.
    m = re.search(r"^  values\n((?:(?:    .*)?\n)+?)(?=  \S|\Z)", last + "\n", re.M)
    if m:
        answer["repr"] = "\n".join(l[4:] for l in m.group(1).rstrip("\n").split("\n"))
    return answer


def py_tuple(values):
    return str(tuple(values))


def pytorch_side(record, command):
    """PyTorch's recorded answer for a Try it block, as the explorer words it, or None."""
    a = (record or {}).get("tryits", {}).get(command)
    if a is None:
        return None
    record.setdefault("_shown", set()).add(command)  # see unshown_tryits
    return {"pytorch": a.get("pytorch", ""), "shape": py_tuple(a["shape"]),
            "strides": py_tuple(a["strides"]), "storage_offset": str(a["storage_offset"]),
            "dtype": a["dtype"], "is_contiguous": str(bool(a["is_contiguous"])),
            "repr": a.get("repr", "")}


def unshown_tryits(record):
    """The Try it answers of a chapter's record that no \\tryit of its page showed: an answer
    recorded for a block the page no longer has would back nothing."""
    if not isinstance(record, dict):
        return []
    shown = record.get("_shown", set())
    return sorted(c for c in record.get("tryits", {}) if c not in shown)


TRYIT_ROWS = (("shape", "shape"), ("strides", "stride()"), ("storage_offset", "storage_offset()"),
              ("is_contiguous", "is_contiguous()"), ("dtype", "dtype"), ("repr", "values"))


def tryit_pair_html(ours, theirs, torch_version, before=None, before_version=""):
    """The table of a Try it block: PyTorch's recorded answer beside the library's, row by row;
    BEFORE, PyTorch 1.13's answer where it differs from the newer one, in a column of its own."""
    rows = "".join(
        f'<tr><th scope="row">{esc(label)}</th>'
        + (f'<td><code>{esc(before.get(key, ""))}</code></td>' if before else "")
        + f'<td><code>{esc(theirs.get(key, ""))}</code></td>'
        f'<td><code>{esc(ours.get(key, ""))}</code></td></tr>'
        for key, label in TRYIT_ROWS)
    return ('<div class="book-table-wrap book-tryit-pair"><table class="book-table">'
            f'<caption>Try it: <code>{esc(theirs["pytorch"])}</code></caption>'
            '<thead><tr><th scope="col"></th>'
            + (f'<th scope="col">PyTorch {esc(before_version)} (recorded)</th>' if before else "")
            + f'<th scope="col">PyTorch {esc(torch_version)} (recorded)</th>'
            '<th scope="col">strided-explore (this build)</th></tr></thead>'
            f"<tbody>{rows}</tbody></table></div>")


def explorer_steps(out):
    """Each step of strided-explore's text report: {text, shape, strides, storage_offset,
    is_contiguous, memory}, memory one word (new, view, copy, same) as the report's first word."""
    steps = []
    parts = re.split(r"^step [0-9]+: (.*)$", out, flags=re.M)
    for text, body in zip(parts[1::2], parts[2::2]):
        step = {"text": text.strip()}
        for key, pattern in (("shape", r"^  shape +(\(.*?\))"), ("strides", r"^  strides +(\(.*?\))"),
                             ("storage_offset", r"^  storage offset +(-?[0-9]+)"),
                             ("is_contiguous", r"^  contiguous +(yes|no)"),
                             ("memory", r"^  memory +(new tensor|view|copy|the same tensor)")):
            m = re.search(pattern, body, re.M)
            step[key] = m.group(1) if m else ""
        step["memory"] = {"new tensor": "new", "the same tensor": "self"}.get(step["memory"],
                                                                              step["memory"])
        steps.append(step)
    return steps


def tryit_steps_html(shown, steps, theirs=None, torch_version="", before=None, before_version=""):
    """A Try it block at a glance: one row a step (what the step added to the expression, its
    shape, strides, storage offset, contiguity, and whether it made a view, a copy or the tensor
    itself), then PyTorch's recorded answer for the last step, which the build has compared."""
    rows = []
    previous = ""
    for st in steps:
        text = st["text"]
        added = text[len(previous):] if previous and text.startswith(previous) else text
        previous = text
        rows.append(f'<tr><td><code>{esc(added)}</code></td><td><code>{esc(st["shape"])}</code></td>'
                    f'<td><code>{esc(st["strides"])}</code></td><td>{esc(st["storage_offset"])}</td>'
                    f'<td>{esc(st["is_contiguous"])}</td><td>{esc(st["memory"])}</td></tr>')
    for answer, version in ((before, before_version), (theirs, torch_version)):
        if answer:
            rows.append(f'<tr class="book-tryit-pytorch"><td>PyTorch {esc(version)} (recorded)</td>'
                        f'<td><code>{esc(answer["shape"])}</code></td>'
                        f'<td><code>{esc(answer["strides"])}</code></td>'
                        f'<td>{esc(answer["storage_offset"])}</td>'
                        f'<td>{"yes" if answer["is_contiguous"] == "True" else "no"}</td><td></td></tr>')
    expr = theirs["pytorch"] if theirs else shown
    href = "explorer.html#" + urllib.parse.quote(shown, safe="()[],:.=_-'*/ ").replace(" ", "%20")
    return (f'<p class="book-tryit-title"><strong>Try it:</strong> <code>{esc(expr)}</code> '
            f'<a class="book-explore-open" href="{esc(href)}">open in the Explorer</a></p>'
            '<div class="book-table-wrap book-tryit-steps"><table class="book-table">'
            '<thead><tr><th scope="col">step</th><th scope="col">shape</th>'
            '<th scope="col">stride()</th><th scope="col">offset</th>'
            '<th scope="col">contiguous</th><th scope="col">memory</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def tryit(command, at, page, line_no, args, problems, tryits, record=None):
    """Runs one explorer command for a "Try it" block; returns the line that includes its output.
    RECORD, the page's chapter's PyTorch record when it has one, puts PyTorch's answer beside."""
    if not args.explore:
        problems.add(at, "\\tryit needs strided-explore, and this build has none")
        return ""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        problems.add(at, f"\\tryit {command}: {e}")
        return ""
    try:
        run = subprocess.run([args.explore, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        problems.add(at, f"strided-explore {command}: {e}")
        return ""
    if run.returncode != 0:
        problems.add(at, f"strided-explore {command} exited {run.returncode}: "
                         f"{(run.stderr or run.stdout).strip()[:500]}")
        return ""
    shown = "$ strided-explore " + command
    out = run.stdout
    if out.lstrip().startswith("<svg"):
        svg = sanitize_svg(out, at, problems)
        if svg is None:
            return ""
        body = (f'<figure class="book-figure book-tryit">{svg}<figcaption><code>{esc(shown)}</code>'
                "</figcaption></figure>\n")
    else:
        body = (f'<div class="book-tryit"><pre class="book-output"><span class="book-prompt">'
                f"{esc(shown)}</span>\n{esc(out.rstrip())}</pre></div>\n")
    if record is not None:
        expression = argv[0] if argv else ""
        theirs = pytorch_side(record, expression)
        if theirs is None:
            problems.add(at, f"chapter {page}, Try it {expression}: no PyTorch answer recorded "
                             f"in docs/recorded/pytorch/{versions.REFERENCE}/{page}.json (add it to "
                             f"chapters/{page}.py, then run tools/book record-pytorch)")
            return ""
        ours = explorer_answer(out)
        for key, label in TRYIT_ROWS:
            if ours.get(key) != theirs[key]:
                problems.add(at, f"chapter {page}, Try it {expression}: {label} is "
                                 f"{ours.get(key)!r} here but {theirs[key]!r} in PyTorch "
                                 f"{record.get('torch')}'s recorded answer")
        earlier = record.get("_earlier")
        before = pytorch_side(earlier, expression) if earlier else None
        before = before if before != theirs else None
        steps = tryit_steps_html(expression, explorer_steps(out), theirs, record.get("torch", ""),
                                 before, (earlier or {}).get("torch", ""))
        full = tryit_pair_html(ours, theirs, record.get("torch", ""), before,
                               (earlier or {}).get("torch", "")) + body
        body = (steps + '<details class="book-tryit-full"><summary>Every step in full, and the '
                "values beside PyTorch's</summary>\n" + full + "</details>\n")
    key = f"tryit.{page}.{line_no}"
    tryits[key] = body
    return f"\\htmlinclude[block] {key}.html"


def explore_link(expr, at, args, problems):
    """\\explore{EXPR}: a link to the Explorer with EXPR in its address, once EXPR is known to
    run there (or to be refused by an op, which a link to an error may want to show)."""
    if args.explore:
        try:
            run = subprocess.run([args.explore, expr], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, timeout=60)
            if run.returncode != 0 and (run.returncode != 2 or EXPLORE_UNREAD_RE.search(run.stderr)):
                problems.add(at, f"\\explore{{{expr}}}: strided-explore cannot read it: "
                                 f"{run.stderr.strip()[:300]}")
        except (OSError, subprocess.TimeoutExpired) as e:
            problems.add(at, f"\\explore{{{expr}}}: {e}")
    href = "explorer.html#" + urllib.parse.quote(expr, safe="()[],:.=_-'*/ ").replace(" ", "%20")
    return (f'\\htmlonly<a class="book-explore" href="{esc(href)}" title="Open in the Explorer">'
            f"<code>{esc(expr)}</code></a>\\endhtmlonly")


def process_page(path, chapters_by_name, claims, values, fragments, problems, args, book_blocks,
                 snippets, tryits, companions=None, records=None):
    where = rel(path, args.root)
    name = os.path.splitext(os.path.basename(path))[0]
    own = chapters_by_name.get(name)
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out_lines = []
    bases = {base_id(cid) for cid in claims}
    last = next((l.strip() for l in reversed(lines) if l.strip()), "")
    if own and re.match(r"\\(?:output|tryit|snippet|htmlinclude|htmlonly)\b", last):
        problems.add(f"{where}:{len(lines)}", "a chapter ends on prose, not on an output, a snippet "
                     "or a try-it block: close it with a paragraph (what it established, what comes "
                     "next)")
    for n, line in enumerate(lines, 1):
        at = f"{where}:{n}"

        def claim_sub(m):
            cid = m.group(2).strip()
            if cid not in claims:
                problems.add(at, f"claim {cid} is cited but no chapter checks it")
                return m.group(0)
            cited = claims[cid]["cited_in"]
            if os.path.basename(path) not in cited:
                cited.append(os.path.basename(path))
            word = m.group(1)
            if word and COMMAND_BEFORE_RE.search(m.string[:m.start(1)]):
                return word + claim_mark(claims[cid])
            return claim_mark(claims[cid], word)

        def output_sub(m):
            ref = m.group(1).strip()
            chap_name, _, out_name = ref.rpartition("/")
            chap = chapters_by_name.get(chap_name) if chap_name else own
            if chap is None:
                problems.add(at, f"output {ref!r}: no chapter "
                                 f"{chap_name or '(this page is no chapter page)'}")
                return m.group(0)
            key = f"{chap['name']}.{out_name}"
            listed = {o.get("name"): o for o in chap["report"].get("outputs", [])}
            if out_name not in listed:
                problems.add(at, f"output {out_name!r} of chapter {chap['name']} is missing "
                                 f"(its report lists no such output; see {chap['out']})")
                return m.group(0)
            if key not in fragments:
                path = os.path.join(chap["out"], listed[out_name].get("file", ""))
                if not os.path.exists(path):
                    problems.add(at, f"output {out_name!r} of chapter {chap['name']} "
                                     f"(claim {listed[out_name].get('claim') or '-'}) is missing: {path}")
                return m.group(0)  # an output older than its source is reported where it is found
            fragments[key]["used"] = True
            return f"\\htmlinclude[block] {key}.html"

        # A number value that starts a line and is followed by "." or ")" becomes, once Doxygen
        # has put it in, a Markdown list item ("2. The last dim…" renders as a numbered
        # list that says 1): the line must start with a word instead.
        lead = re.match(r"\s*\\([A-Za-z_][A-Za-z0-9_]*)[.)](\s|$)", line)
        if lead and re.fullmatch(r"[0-9]{1,9}", str(values.get(lead.group(1), ""))):
            problems.add(at, f"\\{lead.group(1)} starts the line and is followed by "
                             f"{line.strip()[len(lead.group(1)) + 1]!r}: Markdown reads it as a "
                             "numbered list item; reflow the paragraph")

        def value_sub(m):
            alias = m.group(1)
            if alias not in values:
                problems.add(at, f"value \\{alias} is quoted but no chapter recorded it")
            return m.group(0)

        def book_sub(m):
            what = m.group(1).strip()
            if what not in book_blocks:
                problems.add(at, f"unknown directive \\book{{{what}}}")
                return m.group(0)
            return book_blocks[what]

        if REF_TEXT_OPEN_RE.search(line):
            # Doxygen reads a \ref's text only to the end of its line: the quotation stays open
            # and every quote after it on the page is paired wrongly (marks come out as raw HTML).
            problems.add(at, "a \\ref's quoted text must end on the line it starts")
        tabs = None
        for m in SNIPPET_RE.finditer(line):
            fname, block = m.group(1), m.group(2)
            known = snippets.get(fname)
            if known is None:
                problems.add(at, f"\\snippet {fname}: not a chapter's source")
            elif block not in known:
                problems.add(at, f"\\snippet {fname} {block}: no //! [{block}] block in {fname}")
            companion = (companions or {}).get(fname)
            if companion is not None and line.strip() == m.group(0):
                py_name, py_blocks = companion
                if block in py_blocks:
                    tabs = listing_tabs(line, py_name, block)
                else:
                    chapter = fname.rsplit(".", 1)[0]
                    problems.add(at, f"chapter {chapter}, listing {block}: no PyTorch form "
                                     f"(no # [{block}] block in chapters/{py_name})")

        # Bare IDs in prose ("see ER-14") must name checks too, but only \claim{} counts as a citation.
        stripped = CLAIM_RE.sub("", line)
        for m in BARE_ID_RE.finditer(stripped):
            cid = m.group(1)
            if cid not in claims and cid not in bases:
                problems.add(at, f"claim {cid} is mentioned but no chapter checks it")
        for m in CHAPTER_REF_RE.finditer(line):
            if int(m.group(1)) != int(m.group(2)):
                problems.add(at, f"{m.group(0)} names chapter {int(m.group(2))}, but ch{m.group(1)} "
                                 f"is chapter {int(m.group(1))}")
        if TERMS_RE.match(line.strip()):
            continue  # read by glossary_terms; the entry's heading is what the reader sees
        m = TRYIT_RE.match(line.strip())
        if m:
            record = (records or {}).get(name) if own else None
            line = tryit(m.group(1), at, name, n, args, problems, tryits, record)
            out_lines.append(line)
            continue
        if tabs is not None:
            out_lines.append(tabs)
            continue
        line = WORD_CLAIM_RE.sub(claim_sub, line)
        line = OUTPUT_RE.sub(output_sub, line)
        VALUE_RE.sub(value_sub, line)
        line = BOOK_RE.sub(book_sub, line)
        line = EXPLORE_RE.sub(lambda m: explore_link(m.group(1).strip(), at, args, problems), line)
        out_lines.append(line)
    return "\n".join(out_lines)


# ---- the numbers of a claim and of its sentence ------------------------------------------------
#
# A reader must never find the prose beside a mark saying other numbers than the claim that was
# checked. So every number of a claim's statement must be found in what the reader sees with the
# mark: the paragraph that carries it (values put in), the code, outputs, tables and displayed
# formulas shown earlier in its section or right after the paragraph, or in words ("twice",
# "three times"). And a shape (32³, 2×3×4) or a size (4 KiB) in the marked sentence, or in the
# caption of one of the claim's outputs, must be one the statement has, when the statement has one
# of that kind. What the tool cannot read is said in docs/claim_numbers.txt, one reviewed line each.
# The check reads the Markdown with the run's values, outputs and snippets, which is what Doxygen
# renders, so a failure names the page's line and the claim before anything is rendered; the
# browser checks (tools/checks) would have to find the same paragraphs and sections again in
# Doxygen's HTML, and could only fail the tests, not the build.

SUPERSCRIPT_DIGITS = str.maketrans("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079",
                                   "0123456789")
SUPERSCRIPT_FROM_DIGITS = {v: k for k, v in SUPERSCRIPT_DIGITS.items()}
SUPERSCRIPT_RE = re.compile("[\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079]+")
# A number as the book writes one: 0x3E8, 65,536, 1.5, -1 (or −1, U+2212), 2^26 (or 2²⁶, 2^{26},
# 2<sup>26</sup>), once number_text has made these one. Digits inside a name (float32, i0) are no
# number; a minus is a sign only where no operand stands before it ("N−1" is N minus 1, "dim −1"
# is −1).
NUMBER = (r"(?P<sign>(?<![\w)\]])-)?(?<![\w.])"
          r"(?P<digits>0x[0-9A-Fa-f]+|[0-9]{1,3}(?:,[0-9]{3})+(?![0-9])|[0-9]+(?:\.[0-9]+)?)"
          r"(?:\^(?P<exp>[0-9]+))?(?![\w])")
NUMBER_RE = re.compile(NUMBER)
# Numbers in words, as the prose says them: "twice as long", "three times as many", "the fourth
# line": whole words, any case, found in the text around a claim (a statement's numbers are its
# digits).
NUMBER_WORDS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "sixteen": "16", "once": "1", "twice": "2", "thrice": "3", "double": "2", "half": "2",
    "first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "sixth": "6",
}
NUMBER_WORD_RE = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")\b", re.I)
SIZE_UNITS = {"KiB": 1024, "MiB": 1024 ** 2, "GiB": 1024 ** 3, "kB": 1000, "KB": 1000,
              "MB": 1000 ** 2, "GB": 1000 ** 3}
# A size is a count of bytes with its unit; 716 GB/s is a rate, not a size.
SIZE_RE = re.compile(r"(?<![\w.])([0-9]+(?:\.[0-9]+)?)\s*(" + "|".join(SIZE_UNITS) + r")\b(?!\s*/)")
TIMES_RE = re.compile(r"\s*[×·]\s*")


def number_text(text):
    """Text with every way of writing a number made one: entities decoded, TeX's \\times and \\cdot
    as × and ·, thousands groups (65{,}536, 65\\,536, thin spaces) as 65,536, exponents
    (2^{26}, 2<sup>26</sup>, 2²⁶) as 2^26, U+2212 as -, and claim IDs (PF-03) dropped."""
    t = html.unescape(text)
    t = re.sub(r"\\times(?![A-Za-z])", "×", t)
    t = re.sub(r"\\cdot(?![A-Za-z])", "·", t)
    t = re.sub(r"([0-9])(?:\{,\}|\\,|[\u2009\u202f\u00a0])(?=[0-9]{3}(?![0-9]))", r"\1,", t)
    t = re.sub(r"\^\{\s*([0-9]+)\s*\}", r"^\1", t)
    t = re.sub(r"<sup>\s*([0-9]+)\s*</sup>", r"^\1", t)
    t = SUPERSCRIPT_RE.sub(lambda m: "^" + m.group(0).translate(SUPERSCRIPT_DIGITS), t)
    t = t.replace("\u2212", "-")
    return re.sub(ID, " ", t)


def number_key(digits, sign=""):
    """One number's canonical form: 65,536 and 65536 alike, 1.50 as 1.5, hex in lower case."""
    if digits.lower().startswith("0x"):
        return sign + "0x" + digits[2:].lower()
    d = Decimal(digits.replace(",", ""))
    return format((-d if sign else d).normalize(), "f")


def as_written(text):
    """A number or shape from number_text as a reader would write it: 32^3 as 32³."""
    return re.sub(r"\^([0-9]+)", lambda m: m.group(1).translate(SUPERSCRIPT_FROM_DIGITS), text)


def number_tokens(text):
    """The numbers of a text made by number_text: (as written, canonical key, the keys that say
    the same number, start, end). A power is found as itself (2^26) or as its value (67108864)."""
    out = []
    for m in NUMBER_RE.finditer(text):
        key = number_key(m.group("digits"), m.group("sign") or "")
        same = {key}
        if m.group("exp") and int(m.group("exp")) <= 64 and not key.startswith(("0x", "-0x")):
            value = Decimal(key) ** int(m.group("exp"))
            same = {f"{key}^{m.group('exp')}", format(value.normalize(), "f")}
            key = f"{key}^{m.group('exp')}"
        out.append((as_written(m.group(0).strip()), key, same, m.start(), m.end()))
    return out


def statement_numbers(statement):
    """The numbers a claim's statement states: {key: (as written, keys that say it)}, in order.
    Only numbers in digits: a statement's "one" or "second" is as often no number at all."""
    found = {}
    for shown, key, same, _, _ in number_tokens(number_text(statement)):
        found.setdefault(key, (shown, same))
    return found


def context_numbers(text):
    """Every number a reader finds in a text, in any of its forms: each number, a power's base and
    value, both readings of 64,512 (a thousands group or a list), the product of a chain
    2·3·4 or 1024×1024 (and N^k for a chain of k equal factors), and the numbers in words."""
    text = number_text(text)
    tokens = number_tokens(text)
    found = set()
    for _, key, same, start, end in tokens:
        found |= same
        if "^" in key:
            found.add(key.split("^")[0])
        digits = text[start:end].lstrip("-").split("^")[0]
        if "," in digits:
            found |= {number_key(p) for p in digits.split(",")}
    i = 0
    while i < len(tokens):
        j = i
        while j + 1 < len(tokens) and TIMES_RE.fullmatch(text[tokens[j][4]:tokens[j + 1][3]]):
            j += 1
        factors = [tokens[k][1] for k in range(i, j + 1)]
        if j > i and all(re.fullmatch(r"-?[0-9.]+", f) for f in factors):
            product = Decimal(1)
            for f in factors:
                product *= Decimal(f)
            found.add(format(product.normalize(), "f"))
            if len(set(factors)) == 1:
                found.add(f"{factors[0]}^{len(factors)}")
        i = j + 1
    for m in NUMBER_WORD_RE.finditer(text):
        found.add(NUMBER_WORDS[m.group(1).lower()])
        if m.group(1).lower() == "half":
            found.add("0.5")
    return found


def byte_count(number, unit):
    """'64', 'KiB' -> '65536': a size's key, in bytes, so that 64 KiB and 0.0625 MiB agree."""
    return format((Decimal(number) * SIZE_UNITS[unit]).normalize(), "f")


def quantities(text):
    """The shapes and sizes a text names, by kind: {"shape of 3": {"32×32×32", ...}, "size":
    {"4 KiB", ...}} as canonical strings. A shape is a chain N×M(×K…) or a square or cube, N² or
    N³; a size a number of bytes with its unit (KiB, MiB, GiB, kB, MB, GB), counted in bytes."""
    text = number_text(text)
    tokens = number_tokens(text)
    found = {}
    i = 0
    while i < len(tokens):
        j = i
        while j + 1 < len(tokens) and text[tokens[j][4]:tokens[j + 1][3]].strip() == "×":
            j += 1
        dims = [tokens[k][1] for k in range(i, j + 1)]
        if j == i and re.fullmatch(r"[0-9]+\^[23]", dims[0]):
            base, exp = dims[0].split("^")
            dims = [base] * int(exp)
        if len(dims) > 1 and all(re.fullmatch(r"[0-9]+", d) for d in dims):
            shown = as_written(text[tokens[i][3]:tokens[j][4]])
            found.setdefault(f"shape of {len(dims)}", {})["×".join(dims)] = shown
        i = j + 1
    for m in SIZE_RE.finditer(text):
        found.setdefault("size", {})[byte_count(m.group(1), m.group(2))] = m.group(0)
    return found


def contradictions(text, statement):
    """The shapes and sizes of a text that differ from every one of their kind in the statement
    (nothing is said of a kind the statement never names): [(key, as written, the statement's)],
    key being "shape:32×32×32" or "size:4096"."""
    ours = quantities(statement)
    bad = []
    for kind, items in quantities(text).items():
        if kind not in ours:
            continue
        for key, shown in items.items():
            if key not in ours[kind]:
                bad.append((("size:" if kind == "size" else "shape:") + key, shown.strip(),
                            ", ".join(s.strip() for s in ours[kind].values())))
    return bad


def note_key(text):
    """The key of a number as a line of docs/claim_numbers.txt names it: a number as
    statement_numbers keys it ("1.5", "2^26"), or a shape or size as contradictions does
    ("shape:64×64×64", "size:65536"); None if it is none of these, or several."""
    text = number_text(text).strip()
    size = SIZE_RE.fullmatch(text)
    if size:
        return "size:" + byte_count(size.group(1), size.group(2))
    shapes = [k for kind, items in quantities(text).items() if kind != "size" for k in items]
    if len(shapes) == 1 and re.fullmatch(r"[0-9]+(?:\^[23]|(?:\s*×\s*[0-9]+)+)", text):
        return "shape:" + shapes[0]
    tokens = number_tokens(text)
    if len(tokens) == 1 and tokens[0][0] == text:
        return tokens[0][1]
    return None


def load_claim_numbers(path, claims, problems, root):
    """docs/claim_numbers.txt: lines 'ID NUMBER: how', each a reviewed exception to the check, by
    (claim, note_key(NUMBER)). NUMBER is a number of the statement that the claim's sentence says
    in a way the check cannot read, or a shape or size that the sentence names beside the
    statement's for a reason the line gives."""
    notes = {}
    if not path:
        return notes
    where = rel(path, root)
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        problems.add(where, f"cannot be read: {e}")
        return notes
    for n, line in enumerate(lines, 1):
        at = f"{where}:{n}"
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = re.fullmatch(rf"({ID})\s+([^:]+?)\s*:\s*(\S.*)", line.strip())
        if not m:
            problems.add(at, "a line must read 'ID NUMBER: how the sentence says it'")
            continue
        cid, number, how = m.groups()
        key = note_key(number)
        if cid not in claims:
            problems.add(at, f"claim {cid} is not checked by any chapter")
        elif key is None:
            problems.add(at, f"{number!r} is not one number, shape (64³, 2×3) or size (4 KiB)")
        elif (cid, key) in notes:
            problems.add(at, f"{cid} {number} is noted twice")
        else:
            notes[(cid, key)] = {"at": at, "number": number, "how": how, "used": False}
    return notes


def output_text(chapter, output):
    """What a reader sees of a chapter output, as text: a listing's lines, a table's caption and
    cells, a figure's caption and the words and numbers it draws."""
    with open(os.path.join(chapter["out"], output["file"]), encoding="utf-8") as f:
        body = f.read()
    caption = output.get("caption", "")
    kind = output.get("kind")
    if kind == "table":
        try:
            t = json.loads(body)
            rows = [t.get("caption") or caption, *t.get("header", [])]
            rows += [" | ".join(map(str, r)) for r in t.get("rows", [])]
            return "\n".join(map(str, rows))
        except (ValueError, AttributeError, TypeError):
            return caption
    if kind == "figure":
        try:
            shown = [el.text or "" for el in ET.fromstring(body).iter() if isinstance(el.tag, str)
                     and el.tag.rsplit("}", 1)[-1] in ("text", "tspan", "title")]
        except ET.ParseError:
            shown = []
        return "\n".join([caption, *shown])
    return caption + "\n" + body


def page_blocks(lines):
    """A page as the reader meets it: [{"kind": "prose" or "shown", "section", "line", "text"}].

    Prose is a paragraph (or a list); what is shown is a snippet, an output, a try-it block, a
    fenced code block, a table, a displayed formula or raw HTML, each with its directive line
    kept as its text (check_claim_numbers puts in what it shows). A heading starts a section."""
    blocks, para = [], []
    section = 0

    def flush():
        if para:
            text = "\n".join(l for _, l in para)
            s = text.strip()
            kind = "shown" if s.startswith("\\f[") and s.endswith("\\f]") else "prose"
            blocks.append({"kind": kind, "section": section, "line": para[0][0], "text": text})
            para.clear()

    i = 0
    while i < len(lines):
        s = lines[i].strip()
        if s.startswith(("```", "~~~")):
            flush()
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith(s[:3]):
                j += 1
            blocks.append({"kind": "shown", "section": section, "line": i + 1,
                           "text": "\n".join(lines[i + 1:j])})
            i = j + 1
            continue
        if s.startswith("|"):
            flush()
            j = i
            while j < len(lines) and lines[j].strip().startswith("|"):
                j += 1
            blocks.append({"kind": "shown", "section": section, "line": i + 1,
                           "text": "\n".join(lines[i:j])})
            i = j
            continue
        if HEADING_ID_RE.match(s) or re.match(r"#+\s", s):
            flush()
            section += 1
        elif not s:
            flush()
        elif re.match(r"\\(?:snippet|output|tryit|htmlonly|htmlinclude|book|terms)\b", s):
            flush()
            blocks.append({"kind": "shown", "section": section, "line": i + 1, "text": s})
        else:
            para.append((i + 1, lines[i]))
        i += 1
    flush()
    return blocks


def reader_text(text, values):
    """Prose as the reader gets it, for its numbers: values put in, \\ref and link targets and
    URLs (whose digits the reader never reads as numbers) dropped."""
    text = VALUE_RE.sub(lambda m: html.unescape(values.get(m.group(1), m.group(0))), text)
    text = re.sub(r'\\ref\s+\S+(?:\s+"([^"]*)")?', lambda m: m.group(1) or "", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"https?://\S+", " ", text)
    return re.sub(r"<(?!/?sup>)[^>]*>", " ", text)  # 2<sup>26</sup> is a number for number_text


def check_claim_numbers(path, lines, own, chapters_by_name, claims, values, sources, tryits,
                        notes, problems, root):
    """The check described above, for one page; problems name the page's line and the claim."""
    where = rel(path, root)
    name = os.path.splitext(os.path.basename(path))[0]

    def shown_text(block):
        s = block["text"].strip()
        m = SNIPPET_RE.match(s)
        if m and m.group(1) in sources:
            return snippet_block(sources[m.group(1)], m.group(2))
        m = OUTPUT_RE.match(s)
        if m:
            chap_name, _, out_name = m.group(1).strip().rpartition("/")
            chap = chapters_by_name.get(chap_name) if chap_name else own
            listed = {o.get("name"): o for o in chap["report"].get("outputs", [])} if chap else {}
            output = listed.get(out_name)
            if output and os.path.exists(os.path.join(chap["out"], output.get("file", ""))):
                return output_text(chap, output)
            return ""  # a missing output is reported by process_page
        if TRYIT_RE.match(s):
            body = tryits.get(f"tryit.{name}.{block['line']}", "")
            return html.unescape(re.sub(r"<[^>]*>", " ", body))
        return reader_text(block["text"], values)

    def own_text(block):
        """What the page itself says, the same on every machine: no value, output or try-it."""
        s = block["text"].strip()
        m = SNIPPET_RE.match(s)
        if m and m.group(1) in sources:
            return snippet_block(sources[m.group(1)], m.group(2))
        if OUTPUT_RE.match(s) or TRYIT_RE.match(s):
            return ""
        return reader_text(VALUE_RE.sub(" ", CLAIM_RE.sub(" ", block["text"])), {})

    blocks = page_blocks(lines)
    for bi, block in enumerate(blocks):
        if block["kind"] != "prose" or "\\claim{" not in block["text"]:
            continue
        shown = [b for b in blocks[:bi]
                 if b["kind"] == "shown" and b["section"] == block["section"]]
        for b in blocks[bi + 1:]:
            if b["kind"] != "shown":
                break
            shown.append(b)
        paragraph = reader_text(CLAIM_RE.sub(" ", block["text"]), values)
        have = context_numbers("\n".join([paragraph] + [shown_text(b) for b in shown]))
        # A line of docs/claim_numbers.txt is no longer needed once the page's own text says its
        # number; a value or an output of this run that happens to equal it (a timing of 1.50)
        # may not on another machine.
        fixed = context_numbers("\n".join(own_text(b) for b in [block] + shown))
        start = 0
        for m in CLAIM_RE.finditer(block["text"]):
            cid = m.group(1).strip()
            sentence = reader_text(CLAIM_RE.sub(" ", block["text"][start:m.start()]), values)
            start = m.end()
            if cid not in claims:
                continue  # reported by process_page
            at = f"{where}:{block['line'] + block['text'][:m.start()].count(chr(10))}"
            statement = claims[cid]["statement"]
            for key, (written, same) in statement_numbers(statement).items():
                note = notes.get((cid, key))
                if note:
                    note["used"] = True
                    if same & fixed:
                        problems.add(note["at"], f"claim {cid}'s sentence ({at}) says {written} "
                                                 "already: remove this line")
                    continue
                if same & have:
                    continue
                problems.add(at, f"claim {cid} states {written}, which its paragraph does not say, "
                                 "nor what its section shows up to the paragraph's end: say it, or "
                                 "note in docs/claim_numbers.txt how the sentence says it")
            for key, said, stated in contradictions(sentence, statement):
                note = notes.get((cid, key))
                if note:
                    note["used"] = True
                    continue
                problems.add(at, f"claim {cid}: the sentence says {said} where the statement "
                                 f"says {stated}")


def check_caption_numbers(chapters, claims, notes, problems, root):
    """The captions of a claim's outputs name no shape or size that contradicts its statement."""
    for ch in chapters:
        for o in ch["report"].get("outputs", []):
            cid = o.get("claim")
            if cid not in claims:
                continue
            captions = [o.get("caption", "")]
            if o.get("kind") == "table":
                try:
                    with open(os.path.join(ch["out"], o["file"]), encoding="utf-8") as f:
                        captions.append(str(json.load(f).get("caption") or ""))
                except (OSError, ValueError, AttributeError):
                    pass  # reported where the table is rendered
            for key, said, stated in contradictions("\n".join(captions), claims[cid]["statement"]):
                note = notes.get((cid, key))
                if note:
                    note["used"] = True
                    continue
                problems.add(rel(ch["source"], root),
                             f"the caption of output {o.get('name')!r} says {said} where the "
                             f"statement of claim {cid} says {stated}")


# ---- generated blocks: chapter list, ledger, errata, footer ------------------------------------------

def chapter_link(ch, page_ids):
    pid = page_ids.get(ch["name"])
    title = ch.get("title") or ch["report"].get("title", ch["name"])
    return f'<a href="{esc(pid)}.html">{esc(title)}</a>' if pid else esc(title)


def measured_html(c):
    """A claim's values: each comparison with what it expected (✗ when it did not hold), each
    plain record as *measured*, never with a mark: only a comparison can pass or fail."""
    items, counts = [], {"compared": 0, "measured": 0, "quoted": 0}
    for m in measurements(c):
        counts["compared" if m["compared"] else "quoted" if m.get("quoted") else "measured"] += 1
        s = f"<code>{esc(m['what'])}</code>: {esc(m['measured'])}"
        if m.get("quoted"):
            items.append(f'<li>{s} <span class="measured">(quoted from {esc(m["quoted"])})</span></li>')
            continue
        if not m["compared"]:
            items.append(f'<li>{s} <span class="measured">(measured)</span></li>')
            continue
        s += f" <span class=\"expected\">(expected {esc(m['expected'])})</span>"
        if not m["ok"]:
            s = "\u2717 " + s
        items.append(f"<li>{s}</li>")
    if not items:
        return ""
    summary = ", ".join(f"{n} {word}" for word, n in counts.items() if n)
    return f"<details><summary>{summary}</summary><ul>{''.join(items)}</ul></details>"


def status_html(status, reason=""):
    cls = "claim-" + status.replace(" ", "-")
    s = f'<span class="claim-status {cls}">{MARKS[status]} {esc(status)}</span>'
    if reason:
        s += f'<div class="claim-reason">{esc(reason)}</div>'
    return s


def recorded_html(c):
    """Each recorded run's status of a claim and the values it judged there, under the local
    status, linking to the run's section (\\book{gpu_runs})."""
    return "".join(
        f'<div class="claim-recorded"><a href="#{esc(r["anchor"])}">recorded on {esc(r["gpu"])}</a> '
        f'at <code>{esc(r["commit"])}</code>, <span class="book-nowrap">{esc(r["date"][:10])}</span>: '
        f'{status_html(r["status"], r.get("reason", ""))}{gpu_runs.judged_html(r["measured"])}</div>'
        for r in c.get("recorded", []))


def machine_text(prov):
    gpu = prov.get("gpu", "no GPU")
    return f"{prov.get('cpu', 'unknown CPU')}; {gpu}"


def breakable_id(cid):
    """A claim ID for a table cell: it may break after its dot ("VW-19.<wbr>tensorsplitindices"),
    and nowhere else, so that a long sub-ID does not widen the ID column past the statement's."""
    return esc(cid).replace(".", ".<wbr>")


def ledger_html(chapters, claims, page_ids, mutants=None):
    rows = []
    for ch in chapters:
        prov = ch["report"].get("provenance", {})
        for c in ch["report"].get("claims", []):
            cid = c["id"]
            if cid not in claims:
                continue
            c = claims[cid]
            rows.append(
                f'<tr id="{esc(cid)}"><td class="claim-id">{breakable_id(cid)}</td>'
                f"<td>{esc(c['statement'])}</td><td>{chapter_link(ch, page_ids)}</td>"
                f"<td>{esc(c.get('kind', ''))}</td>"
                f"<td>{status_html(c['status'], c.get('reason', ''))}{recorded_html(c)}</td>"
                f"<td>{measured_html(c)}</td><td>{killed_html(c, mutants)}</td>"
                f"<td>{esc(machine_text(prov))}</td></tr>")
    counts = {s: sum(1 for c in claims.values() if c["status"] == s) for s in STATUSES}
    # "failed" never reaches a built ledger (a failure stops the build): count what can be shown.
    summary = ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s] or s != "failed")
    kills = ""
    if mutants is not None:
        judged = [c for c in claims.values() if c.get("kind") in ("exact", "model")]
        killed = sum(1 for c in judged if c.get("killed_by"))
        kills = (f'<p class="ledger-summary">Broken rules: {len(mutants.get("mutants", []))} '
                 f"mutants of the library (tools/book mutate, recorded at commit "
                 f'<code>{esc(mutants.get("commit", "?"))}</code>) make {killed} of the '
                 f"{len(judged)} exact and model claims fail; the column <em>Fails if</em> "
                 "names them. A claim no mutant makes fail says <em>no mutant yet</em>.</p>\n")
    pytorch = pytorch_versions_text([ch["report"] for ch in chapters])
    answers = (f'<p class="ledger-summary">What PyTorch does is checked against its answers '
               f'recorded from PyTorch {esc(pytorch)}; the page <a href="versions.html">PyTorch '
               "1.13 and PyTorch 2</a> shows every answer on which they differ.</p>\n"
               if pytorch else "")
    return (f'<p class="ledger-summary">{len(claims)} claims: {esc(summary)}.</p>\n' + kills + answers +
            '<div class="book-table-wrap"><table class="book-table ledger">\n<thead><tr><th>ID</th><th>Claim</th><th>Chapter</th>'
            "<th>Kind</th><th>Status</th><th>Measured</th><th>Fails if</th><th>Machine</th></tr>"
            "</thead>\n<tbody>\n"
            + "\n".join(rows) + "\n</tbody></table></div>\n")


def errata_html(chapters, claims, page_ids):
    """The errata in catalogue order (ER-01, ER-02, ER-03.memset, ER-03.permute, ...)."""
    by_name = {ch["name"]: ch for ch in chapters}
    rows = []
    for cid in sorted((c for c in claims if c.startswith("ER-")), key=lambda c: (int(c[3:5]), c[5:])):
        c = claims[cid]
        ch = by_name[c["chapter"]]
        rows.append(
            f'<tr id="{esc(cid)}"><td class="claim-id"><a href="claims.html#{esc(cid)}">{breakable_id(cid)}</a></td>'
            f"<td>{esc(c.get('seed_says', ''))}</td><td>{esc(c['statement'])}</td>"
            f"<td>{chapter_link(ch, page_ids)}</td><td>{status_html(c['status'])}</td></tr>")
    return ('<div class="book-table-wrap"><table class="book-table errata">\n<thead><tr><th>Erratum</th>'
            "<th>The seed says</th><th>What holds (checked)</th><th>Chapter</th><th>Status</th></tr>"
            "</thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody></table></div>\n")


def pytorch_versions_text(reports):
    """Which PyTorches answered, from the chapters' reports: "2.6.0, which the library follows,
    and 1.13.0a0", or "" where no chapter compared with PyTorch."""
    pairs = {(e.get("torch"), e.get("earlier_torch"))
             for r in reports for e in r.get("pytorch_versions", []) if e.get("torch")}
    if not pairs:
        return ""
    return "; ".join(f"{now}, which the library follows, and {before}" for now, before in
                     sorted(pairs))


def machine_note_html(prov, claims=(), pytorch=""):
    """The machine a chapter ran on, said for a reader, at the end of the chapter's page.

    Every measured number on the page came from this run; a reader comparing with their own
    machine needs the processor, its caches, the system, the compiler and its flags, the BLAS, the
    GPU (or why there was none, plainly first and in the CUDA runtime's words as detail) and the
    commit. claims are the chapter's (its report's): the sizes its timings ran at are said only
    where it has timings, and the title excepts the claims marked not run or quoted (not checked
    here) only where the page has some.
    """
    p = prov
    kinds = {c.get("kind") for c in claims}
    statuses = {c.get("status") for c in claims}
    gpu = p.get("gpu", "no GPU")
    if gpu == "no GPU":
        plain = p.get("gpu_plain") or "no usable CUDA device"
        detail = p.get("gpu_reason", "")
        gpu_html = (f"none: {esc(plain)}; its GPU claims are <em>not run</em>"
                    + (f' <span class="book-machine-detail">({esc(detail)})</span>' if detail else ""))
    else:
        gpu_html = f'{esc(gpu)}, {esc(p.get("cuda_runtime", ""))}'
    caches = p.get("caches", "")
    rows = [
        ("Processor", f'{esc(p.get("cpu", "unknown CPU"))}, {esc(p.get("cpu_threads", "?"))} '
                      "hardware threads" + (f"; caches {esc(caches)}" if caches else "")),
        ("System", esc(p.get("os", "unknown"))),
        # Each flag on one line: a browser may break "-DNDEBUG" after its hyphen.
        ("Compiler", f'{esc(p.get("compiler", ""))}, flags <code>'
                     + " ".join(f'<span class="book-nowrap">{esc(f)}</span>'
                                for f in str(p.get("flags", "")).split()) + "</code>"),
        ("BLAS", esc(p.get("blas", "unknown"))),
        *([("PyTorch", f'its answers recorded from PyTorch {esc(pytorch)} '
                       '(<a href="versions.html">where they differ</a>); no PyTorch ran here')]
          if pytorch else []),
        *([("CPU kernels", f'{esc(p["cpu_capability"])}: the build of the element-wise, copy and '
                           "reduction loops chosen for this processor at start-up")]
          if p.get("cpu_capability") else []),
        ("GPU", gpu_html),
        *([("Timings", esc(p["sizes"]))]
          if p.get("sizes") and any(str(k).startswith("timing") for k in kinds) else []),
        ("Commit", f'<code>{esc(p.get("commit", "unknown"))}</code>, run {esc(p.get("date", ""))}'),
    ]
    items = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
    # A claim not run, or quoted from a source, was not checked here.
    unchecked = [f"<em>{s}</em>" for s in ("not run", "quoted") if s in statuses]
    title = ("The claims on this page were checked on this machine"
             + (", but for those marked " + " or ".join(unchecked) if unchecked else "")
             + ", and its numbers were measured here, save those it gives as a source's or as a "
             "recorded run's:")
    return ('<div class="book-machine" id="machine"><p class="book-machine-title">'
            f'{title}</p><dl>{items}</dl></div>\n')


# ---- navigation: chapter numbers, previous/next, glossary links ----------------------------------

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


# ---- mutation record -----------------------------------------------------------------------------

def load_mutants(path, claims, problems, root):
    """The record of tools/book mutate: for each claim, the broken rules under which it fails.

    The record must describe this build: made from the current mutant catalogue, and for the
    claims as they are worded now. An exact or model claim that is new or reworded since, or a
    record of another catalogue, fails the build (run tools/book mutate); a claim no mutant kills
    is shown as such, never hidden.
    """
    if not path:
        return None
    where = rel(path, root)
    if not os.path.exists(path):
        problems.add(where, "no mutation record: run tools/book mutate")
        return None
    record = load_json(path, problems, where)
    if record is None:
        return None
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mutate"))
    try:
        import mutants as catalogue  # the catalogue the record must have been made from
    finally:
        sys.path.pop(0)
    if record.get("catalogue") != catalogue.catalogue_digest():
        problems.add(where, "the mutant catalogue (tools/mutate/mutants.py) changed since this "
                            "record was made: run tools/book mutate")
    recorded = record.get("claims", {})
    for cid, c in sorted(claims.items()):
        if c.get("kind") not in ("exact", "model"):
            continue
        digest = catalogue.statement_digest(c["statement"])
        if cid not in recorded:
            problems.add(where, f"claim {cid} is new since the mutation record: run tools/book mutate")
        elif recorded[cid] != digest:
            problems.add(where, f"claim {cid} is worded differently from when the mutation record "
                                "was made: run tools/book mutate")
    for cid in sorted(set(recorded) - set(claims)):
        problems.add(where, f"the mutation record names claim {cid}, which no chapter checks now: "
                            "run tools/book mutate")
    for c in claims.values():
        c["killed_by"] = []
    for m in record.get("mutants", []):
        for cid in m.get("kills", []):
            if cid in claims:
                claims[cid]["killed_by"].append({"id": m["id"], "rule": m["rule"]})
    return record


def killed_html(c, record):
    if c.get("kind") == "quoted":
        # Arithmetic on a source's figures: no rule of the library enters it, so none can break it.
        return '<span class="claim-unkilled">no rule of the library enters it</span>'
    if record is None or c.get("kind") not in ("exact", "model"):
        return "—"
    rules = c.get("killed_by", [])
    if not rules:
        return '<span class="claim-unkilled">no mutant yet</span>'
    items = "".join(f'<li>fails if {esc(r["rule"])}</li>' for r in rules)
    n = len(rules)
    return (f"<details><summary>{n} broken rule{'s' if n > 1 else ''}</summary>"
            f"<ul>{items}</ul></details>")


# ---- main ------------------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", required=True, help="the folder of the Markdown pages (docs/)")
    ap.add_argument("--out", required=True, help="where chapters emitted (build/book/out)")
    ap.add_argument("--pages", required=True, help="where to write the pages (build/book/pages)")
    ap.add_argument("--chapter", action="append", default=[], metavar="NAME=SOURCE",
                    help="a chapter and a source file of it (repeat; a chapter of several files "
                         "is named once per file, its program first)")
    ap.add_argument("--recorded", help="the folder of the recorded GPU runs (docs/recorded/gpu, "
                                       "written by tools/gpu/record.py)")
    ap.add_argument("--seed-timings", help="the seed notebook's quoted timings, which the GPU runs' "
                                           "section sets beside the library's (default: "
                                           "DOCS/recorded/seeds/pytorch-for-scientists.txt)")
    ap.add_argument("--mutants", help="the record of tools/book mutate (which mutants kill which "
                                      "claims); the build fails when it is stale")
    ap.add_argument("--mutants-pending", action="store_true",
                    help="a draft build: a mutation record that is stale only because claims are "
                         "new or reworded is a warning, not a failure (configure with "
                         "-DBOOK_MUTANTS_PENDING=ON while writing; tools/book mutate before "
                         "committing, since every other build still fails)")
    ap.add_argument("--claim-numbers", help="the reviewed exceptions to the check that a claim's "
                                            "sentence carries its statement's numbers "
                                            "(docs/claim_numbers.txt)")
    ap.add_argument("--footer", help="the page footer, copied beside the pages")
    ap.add_argument("--explore", help="the strided-explore program, for \\tryit blocks")
    ap.add_argument("--pytorch", help="the folder of PyTorch's recorded answers, NN_name.json "
                                      "(default: DOCS/recorded/pytorch)")
    ap.add_argument("--root", default=os.getcwd(), help="paths in messages are relative to this")
    args = ap.parse_args(argv)

    problems = Problems()
    chapters = load_chapters(args, problems)
    chapters.sort(key=lambda c: c["name"])
    chapters_by_name = {c["name"]: c for c in chapters}
    claims = check_claims(chapters, problems, args.root)
    runs = load_recorded(args.recorded, claims, problems, args.root)
    seed_text = ""
    if runs:
        seed_path = args.seed_timings or os.path.join(args.docs, gpu_runs.SEED_FILE)
        try:
            with open(seed_path, encoding="utf-8") as f:
                seed_text = f.read()
            gpu_runs.seed_timings(seed_text)
            gpu_runs.seed_low_rank(seed_text)
        except (OSError, ValueError) as e:
            problems.add(rel(seed_path, args.root), f"the seed's quoted timings cannot be read: {e}")
            seed_text = ""
    if args.mutants_pending:
        pending = Problems()
        mutants = load_mutants(args.mutants, claims, pending, args.root)
        for item in pending.items:
            print(f"embed: warning (draft build, -DBOOK_MUTANTS_PENDING=ON): {item}", file=sys.stderr)
    else:
        mutants = load_mutants(args.mutants, claims, problems, args.root)
    notes = load_claim_numbers(args.claim_numbers, claims, problems, args.root)
    check_caption_numbers(chapters, claims, notes, problems, args.root)

    # Every chapter must have its page.
    page_ids = {}
    for ch in chapters:
        if not os.path.exists(ch["page"]):
            problems.add(rel(ch["source"], args.root), f"chapter {ch['name']} has no page {ch['page']}")
            continue
        heading = page_heading(ch["page"])
        if not heading:
            problems.add(rel(ch["page"], args.root), "the first line must be '# Title {#page_id}'")
            continue
        ch["title"] = chapter_title(heading[0], ch["name"])
        page_ids[ch["name"]] = heading[1]

    # Fragments, escaped, and the values as aliases.
    fragments = {}
    frag_html = {}
    values = {}
    for ch in chapters:
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
            fragments[key] = {"chapter": ch, "output": o, "used": False}
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
            values[alias] = v

    book_blocks = {
        "chapters": "\n".join(f"- \\subpage {page_ids[c['name']]}" for c in chapters
                              if page_ids.get(c["name"])),
        "ledger": "\\htmlinclude[block] book.ledger.html",
        "errata": "\\htmlinclude[block] book.errata.html",
        "gpu_runs": "\\htmlinclude[block] book.gpu_runs.html",
        "versions": "\\htmlinclude[block] book.versions.html",
    }

    # The chapters' sources, as \\snippet shows them, and their PyTorch companions with PyTorch's
    # recorded answers, where a chapter has them.
    sources = {}
    snippets = {}
    companions = {}
    records = {}  # chapter -> its record of PyTorch 2.6, the one the library follows
    series_records = {}  # chapter -> {series: record}: what the versions page compares
    record_dir = args.pytorch or os.path.join(args.docs, "recorded", "pytorch")
    for ch in chapters:
        # One name is one listing of the chapter, whichever of its files holds it: the
        # companion pairs its # [name] block with it by that name alone.
        held_by = {}
        for path in ch["sources"]:
            with open(path, encoding="utf-8") as f:
                text, names = dedented_source(f.read())
            fname = source_key(ch, path)
            sources[fname] = text
            snippets[fname] = names
            for block in sorted(names):
                if block in held_by:
                    problems.add(rel(path, args.root),
                                 f"listing {block} of chapter {ch['name']} is also a //! [{block}] "
                                 f"block of {held_by[block]}: give one of them another name")
                held_by.setdefault(block, fname)
        py = os.path.splitext(ch["source"])[0] + ".py"
        if os.path.exists(py):
            with open(py, encoding="utf-8") as f:
                py_text, py_names = dedented_source(f.read(), PY_MARKER_RE)
            py_name = os.path.basename(py)
            sources[py_name] = py_text
            for path in ch["sources"]:
                companions[source_key(ch, path)] = (py_name, py_names)
            series = {}
            for version in (versions.REFERENCE, versions.EARLIER, versions.LATER):
                record_path = os.path.join(record_dir, version, ch["name"] + ".json")
                if os.path.exists(record_path):
                    series[version] = load_json(record_path, problems, rel(record_path, args.root))
                elif version != versions.LATER:  # 2.11's was recorded once, for six chapters
                    problems.add(rel(py, args.root),
                                 f"chapter {ch['name']} has a PyTorch companion but no record "
                                 f"{rel(record_path, args.root)}: run tools/book record-pytorch")
            series_records[ch["name"]] = series
            if series.get(versions.REFERENCE):
                records[ch["name"]] = series[versions.REFERENCE]
                records[ch["name"]]["_earlier"] = series.get(versions.EARLIER)

    # The pages.
    pages = {}
    tryits = {}
    for fname in sorted(os.listdir(args.docs)):
        if fname.endswith(".md"):
            path = os.path.join(args.docs, fname)
            pages[fname] = process_page(path, chapters_by_name, claims, values, fragments, problems,
                                        args, book_blocks, snippets, tryits, companions, records)
            with open(path, encoding="utf-8") as f:
                check_claim_numbers(path, f.read().split("\n"), chapters_by_name.get(fname[:-3]),
                                    chapters_by_name, claims, values, sources, tryits, notes,
                                    problems, args.root)
            own = chapters_by_name.get(fname[:-3])
            if own is not None:  # a chapter page ends on the machine its claims were checked on
                pages[fname] += ("\n\\htmlonly[block]\n"
                                 + machine_note_html(own["report"].get("provenance", {}),
                                                     own["report"].get("claims", []),
                                                     pytorch_versions_text([own["report"]]))
                                 + "\\endhtmlonly\n")

    notes_path = os.path.join(record_dir, "differences.json")
    notes_where = rel(notes_path, args.root)
    version_notes = load_json(notes_path, problems, notes_where) if os.path.exists(notes_path) else {}
    version_rows = versions.rows_of(chapters, series_records, version_notes or {}, problems,
                                    notes_where)
    version_names = {}
    for series in series_records.values():
        for version, record in series.items():
            version_names.setdefault(version, (record or {}).get("torch", version))

    for name, record in sorted((records or {}).items()):
        for command in unshown_tryits(record):
            problems.add(f"docs/recorded/pytorch/{versions.REFERENCE}/{name}.json",
                         f"chapter {name}: PyTorch's recorded answer for the Try it block "
                         f"{command!r} is shown by no \\tryit of docs/{name}.md: remove it "
                         f"from chapters/{name}.py, or show it")

    for (cid, _), note in notes.items():
        if not note["used"]:
            problems.add(note["at"], f"{note['number']} is neither a number of claim {cid}'s "
                                     "statement that its sentence lacks nor a shape or size of "
                                     "its sentence that the statement lacks: remove this line")

    terms = glossary_terms(args.docs, problems, args.root)
    for ch in chapters:
        fname = ch["name"] + ".md"
        if fname in pages:
            pages[fname] = link_terms(number_title(pages[fname], ch["name"]), terms)
    add_navigation(pages)

    for cid, c in claims.items():
        if not c["cited_in"]:
            ch = chapters_by_name[c["chapter"]]
            problems.add(rel(ch["source"], args.root),
                         f"claim {cid} is checked but no page cites it (add \\claim{{{cid}}} to "
                         f"{rel(ch['page'], args.root)})")

    for key, fr in fragments.items():
        if fr["used"]:
            html_text = fragment_html(fr["chapter"], fr["output"], problems, args.root)
            if html_text is not None:
                frag_html[key] = html_text

    if problems.items:
        for p in problems.items:
            print(f"embed: error: {p}", file=sys.stderr)
        print(f"embed: {len(problems.items)} problem(s); the book is not built", file=sys.stderr)
        return 1

    # Write everything only when nothing is wrong: a failed build leaves no half-made site.
    if os.path.isdir(args.pages):
        shutil.rmtree(args.pages)
    frag_dir = os.path.join(args.pages, "fragments")
    os.makedirs(frag_dir)
    for fname, text in pages.items():
        with open(os.path.join(args.pages, fname), "w", encoding="utf-8") as f:
            f.write(text)
    src_dir = os.path.join(args.pages, "sources")
    os.makedirs(src_dir)
    for fname, text in sources.items():
        os.makedirs(os.path.dirname(os.path.join(src_dir, fname)), exist_ok=True)
        with open(os.path.join(src_dir, fname), "w", encoding="utf-8") as f:
            f.write(text)
    for key, text in list(frag_html.items()) + list(tryits.items()):
        with open(os.path.join(frag_dir, key + ".html"), "w", encoding="utf-8") as f:
            f.write(text)
    with open(os.path.join(frag_dir, "book.ledger.html"), "w", encoding="utf-8") as f:
        f.write(ledger_html(chapters, claims, page_ids, mutants))
    with open(os.path.join(frag_dir, "book.errata.html"), "w", encoding="utf-8") as f:
        f.write(errata_html(chapters, claims, page_ids))
    by_name = {ch["name"]: ch for ch in chapters}
    with open(os.path.join(frag_dir, "book.gpu_runs.html"), "w", encoding="utf-8") as f:
        f.write(gpu_runs.gpu_runs_html(
            runs, seed_text, status_html,
            lambda name: chapter_link(by_name[name], page_ids) if name in by_name else esc(name)))
    with open(os.path.join(frag_dir, "book.versions.html"), "w", encoding="utf-8") as f:
        f.write(versions.summary_html(versions.summary(series_records), version_names))
        f.write(versions.versions_html(
            version_rows, version_names,
            lambda name: chapter_link(by_name[name], page_ids) if name in by_name else esc(name),
            lambda cid: f'<a href="claims.html#{esc(cid)}">{esc(cid)}</a>'))
    with open(os.path.join(args.pages, "values.doxy"), "w", encoding="utf-8") as f:
        f.write("# Values quoted in sentences, from the chapters' runs (generated by tools/embed).\n")
        for alias in sorted(values):
            f.write(f'ALIASES += "{alias}={values[alias]}"\n')
    if args.footer:
        shutil.copy(args.footer, os.path.join(args.pages, "footer.html"))

    provenance = [ch["report"].get("provenance", {}) | {"chapter": ch["name"]} for ch in chapters]
    ledger = {
        "provenance": provenance,
        "recorded_runs": [{k: v for k, v in r.items() if k not in ("claims", "record")}
                          for r in runs],
        "claims": [{
            "id": cid, "chapter": c["chapter"], "statement": c["statement"], "status": c["status"],
            "reason": c.get("reason", ""), "kind": c.get("kind", ""), "measured": c.get("measured", []),
            "cited_in": c["cited_in"], "recorded": c["recorded"],
            **({"killed_by": c["killed_by"]} if "killed_by" in c else {}),
            **({"seed_says": c["seed_says"]} if c.get("seed_says") else {}),
        } for cid, c in sorted(claims.items())],
    }
    with open(os.path.join(args.pages, "claims.json"), "w", encoding="utf-8") as f:
        json.dump(ledger, f, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
