"""The check that a claim's sentence says its statement's numbers.

A reader must never find the prose beside a mark saying other numbers than the claim that was
checked. So every number of a claim's statement must be found in what the reader sees with the
mark: the paragraph that carries it (values put in), the code, outputs, tables and displayed
formulas shown earlier in its section or right after the paragraph, or in words ("twice",
"three times"). And a shape (32³, 2×3×4) or a size (4 KiB) in the marked sentence, or in the
caption of one of the claim's outputs, must be one the statement has, when the statement has one
of that kind. What the tool cannot read is said in docs/claim_numbers.txt, one reviewed line each.
The check reads the Markdown with the run's values, outputs and snippets, which is what Doxygen
renders, so a failure names the page's line and the claim before anything is rendered; the
browser checks (tools/checks) would have to find the same paragraphs and sections again in
Doxygen's HTML, and could only fail the tests, not the build. (number_forms.py reads the numbers.)
"""

import html
import json
import os
import re
import xml.etree.ElementTree as ET

from .common import rel
from .directives import CLAIM_RE, HEADING_ID_RE, ID, OUTPUT_RE, SNIPPET_RE, TRYIT_RE, VALUE_RE
from .number_forms import context_numbers, contradictions, note_key, statement_numbers
from .snippets import snippet_block


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


def read_claim_numbers(book):
    """The reviewed exceptions, then the captions of the claims' outputs, which need no page."""
    args = book.args
    book.notes = load_claim_numbers(args.claim_numbers, book.claims, book.problems, args.root)
    check_caption_numbers(book.chapters, book.claims, book.notes, book.problems, args.root)


def check_notes_used(book):
    """A line of docs/claim_numbers.txt that excused nothing in this build is stale."""
    for (cid, _), note in book.notes.items():
        if not note["used"]:
            book.problems.add(note["at"], f"{note['number']} is neither a number of claim {cid}'s "
                                          "statement that its sentence lacks nor a shape or size "
                                          "of its sentence that the statement lacks: remove this "
                                          "line")
