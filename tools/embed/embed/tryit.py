""""Try it" blocks (\\tryit) and Explorer links (\\explore): the explorer asked now, through
its --jsonl answers (explorer_answer.py), PyTorch's recorded answer beside it."""

import shlex
import urllib.parse

import versions

from .common import esc
from .directives import EXPLORE_UNREAD_RE
from .explorer_answer import ask, last_step, messages, py_tuple, step_rows


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
    """Asks the explorer about one expression for a "Try it" block; returns the line that
    includes the block. The block shows `strided-explore COMMAND` and the report it prints, which
    the --jsonl answer carries beside its fields. RECORD, the page's chapter's PyTorch record when
    it has one, puts PyTorch's answer beside."""
    if not args.explore:
        problems.add(at, "\\tryit needs strided-explore, and this build has none")
        return ""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        problems.add(at, f"\\tryit {command}: {e}")
        return ""
    if len(argv) != 1:
        problems.add(at, f"\\tryit {command}: a Try it block runs one expression, quoted as one "
                         "word: \\tryit 'arange(6).view(2, 3)'")
        return ""
    expression = argv[0]
    answer, why = ask(args.explore, {"expression": expression})
    if answer is None:
        problems.add(at, f"strided-explore --jsonl, asked about {command}: {why}")
        return ""
    if answer.get("error"):
        problems.add(at, f"strided-explore {command} fails: "
                         f"{(answer.get('report') or answer.get('message', '')).strip()[:500]}")
        return ""
    shown = "$ strided-explore " + command
    body = (f'<div class="book-tryit"><pre class="book-output"><span class="book-prompt">'
            f"{esc(shown)}</span>\n{esc(answer.get('report', '').rstrip())}</pre></div>\n")
    if record is not None:
        theirs = pytorch_side(record, expression)
        if theirs is None:
            problems.add(at, f"chapter {page}, Try it {expression}: no PyTorch answer recorded "
                             f"in docs/recorded/pytorch/{versions.REFERENCE}/{page}.json (add it to "
                             f"chapters/{page}.py, then run tools/book record-pytorch)")
            return ""
        ours = last_step(answer)
        for key, label in TRYIT_ROWS:
            if ours.get(key) != theirs[key]:
                problems.add(at, f"chapter {page}, Try it {expression}: {label} is "
                                 f"{ours.get(key)!r} here but {theirs[key]!r} in PyTorch "
                                 f"{record.get('torch')}'s recorded answer")
        earlier = record.get("_earlier")
        before = pytorch_side(earlier, expression) if earlier else None
        before = before if before != theirs else None
        steps = tryit_steps_html(expression, step_rows(answer), theirs, record.get("torch", ""),
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
    run there (or to be refused by an op, which a link to an error may want to show). EXPR is an
    expression, asked as {"expression": EXPR}, or a --jsonl request (a gradient request, say),
    asked as it is written."""
    if args.explore:
        request = expr if expr.startswith("{") else {"expression": expr}
        answer, why = ask(args.explore, request)
        said = "strided-explore --jsonl cannot answer it" if expr.startswith("{") else \
            "strided-explore cannot read it"
        if answer is None:
            problems.add(at, f"\\explore{{{expr}}}: {said}: {why}")
        else:
            for message in messages(answer):
                if EXPLORE_UNREAD_RE.search(message) or message.startswith("internal error"):
                    problems.add(at, f"\\explore{{{expr}}}: {said}: {message.strip()[:300]}")
    href = "explorer.html#" + urllib.parse.quote(expr, safe="()[],:.=_-'*/ ").replace(" ", "%20")
    return (f'\\htmlonly<a class="book-explore" href="{esc(href)}" title="Open in the Explorer">'
            f"<code>{esc(expr)}</code></a>\\endhtmlonly")
