"""One page of docs/ rewritten for Doxygen: claim marks, outputs, snippets, Try it blocks,
\\book{} blocks; every directive that names something missing is a problem."""

import os
import re

from .common import rel
from .claim_numbers import check_claim_numbers
from .directives import (BARE_ID_RE, BOOK_RE, CHAPTER_REF_RE, CLAIM_RE, COMMAND_BEFORE_RE, EXPLORE_RE,
                         OUTPUT_RE, REF_TEXT_OPEN_RE, SNIPPET_RE, TERMS_RE, TRYIT_RE, VALUE_RE,
                         WORD_CLAIM_RE)
from .ledger import pytorch_versions_text
from .machine_note import machine_note_html
from .marks import base_id, claim_mark
from .snippets import listing_tabs
from .tryit import explore_link, tryit


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


def directive_blocks(page_ids, chapters):
    """What each \\book{NAME} becomes: the chapter list in the page, the rest a fragment that
    the last step writes."""
    return {
        "chapters": "\n".join(f"- \\subpage {page_ids[c['name']]}" for c in chapters
                              if page_ids.get(c["name"])),
        "ledger": "\\htmlinclude[block] book.ledger.html",
        "errata": "\\htmlinclude[block] book.errata.html",
        "gpu_runs": "\\htmlinclude[block] book.gpu_runs.html",
        "versions": "\\htmlinclude[block] book.versions.html",
    }


def render_pages(book):
    """Every page of docs/, in order of file name (pages: file -> text; tryits: fragment -> HTML).
    Its claims' numbers are checked as soon as it is rendered, against its Try it blocks; a
    chapter page ends on the machine its claims were checked on."""
    args = book.args
    blocks = directive_blocks(book.page_ids, book.chapters)
    book.pages, book.tryits = {}, {}
    for fname in sorted(os.listdir(args.docs)):
        if not fname.endswith(".md"):
            continue
        path = os.path.join(args.docs, fname)
        book.pages[fname] = process_page(path, book.chapters_by_name, book.claims, book.values,
                                         book.fragments, book.problems, args, blocks, book.snippets,
                                         book.tryits, book.companions, book.records)
        own = book.chapters_by_name.get(fname[:-3])
        with open(path, encoding="utf-8") as f:
            check_claim_numbers(path, f.read().split("\n"), own, book.chapters_by_name, book.claims,
                                book.values, book.sources, book.tryits, book.notes, book.problems,
                                args.root)
        if own is not None:
            report = own["report"]
            book.pages[fname] += ("\n\\htmlonly[block]\n"
                                  + machine_note_html(report.get("provenance", {}),
                                                      report.get("claims", []),
                                                      pytorch_versions_text([report]))
                                  + "\\endhtmlonly\n")
