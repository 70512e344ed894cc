""""Try it" blocks (\\tryit) and Explorer links (\\explore): the explorer run now, PyTorch's
recorded answer beside it."""

import shlex
import subprocess
import urllib.parse

import versions

from .common import esc
from .directives import EXPLORE_UNREAD_RE
from .explorer_text import explorer_answer, explorer_steps
from .svg import sanitize_svg


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
            if expr.startswith("{"):  # a --jsonl request: answered, or refused by an op
                run = subprocess.run([args.explore, "--jsonl"], input=expr + "\n",
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     timeout=60)
                answer = run.stdout.strip()
                if run.returncode != 0 or answer.count("\n") or \
                        EXPLORE_UNREAD_RE.search(answer) or "internal error" in answer:
                    problems.add(at, f"\\explore{{{expr}}}: strided-explore --jsonl cannot "
                                     f"answer it: {(answer or run.stderr).strip()[:300]}")
            else:
                run = subprocess.run([args.explore, expr], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, timeout=60)
                if run.returncode != 0 and (run.returncode != 2 or
                                            EXPLORE_UNREAD_RE.search(run.stderr)):
                    problems.add(at, f"\\explore{{{expr}}}: strided-explore cannot read it: "
                                     f"{run.stderr.strip()[:300]}")
        except (OSError, subprocess.TimeoutExpired) as e:
            problems.add(at, f"\\explore{{{expr}}}: {e}")
    href = "explorer.html#" + urllib.parse.quote(expr, safe="()[],:.=_-'*/ ").replace(" ", "%20")
    return (f'\\htmlonly<a class="book-explore" href="{esc(href)}" title="Open in the Explorer">'
            f"<code>{esc(expr)}</code></a>\\endhtmlonly")
