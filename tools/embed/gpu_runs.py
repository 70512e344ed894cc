"""Recorded GPU runs (docs/recorded/gpu/*.json, written by tools/gpu/record.py), as the site shows them.

A recorded run is the GPU half of the book run on another machine. The ledger shows its status and
judged values beside this machine's status (never instead of it); \\book{gpu_runs} shows each run
whole: the machine, its GPU claims, the seed notebook's GPU timings beside the library's and
PyTorch's on that GPU, the goals, the GPU tests, compute-sanitizer's verdicts and the chapters run
there. Every number comes from the record (or, for the seed's timings, from the seed's quote file);
a step the record lacks is said to be *not run*.

Standard library only.
"""

import html
import importlib.util
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def _record_module():
    """tools/gpu/record.py, which writes the records: its format number and AGAINST_PYTORCH (the
    library's benchmark beside PyTorch's experiment of the same work) are read from there."""
    spec = importlib.util.spec_from_file_location(
        "gpu_record", os.path.join(HERE, os.pardir, "gpu", "record.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_RECORD = _record_module()
FORMAT = _RECORD.FORMAT
AGAINST_PYTORCH = _RECORD.AGAINST_PYTORCH

# The line of each seed cell where its GPU timings start: In[15] times x.max(-1), x.max(-2) on the
# CPU first, then on the GPU.
SEED_FIRST_GPU_LINE = {"In[15]": 2}
SEED_FILE = os.path.join("recorded", "seeds", "pytorch-for-scientists.txt")

UNITS = (("ms ", 1.0), ("\u03bcs ", 1e-3), ("us ", 1e-3), ("ns ", 1e-6), ("s ", 1e3))


def esc(text):
    return html.escape(str(text), quote=True)


# ---- the seed's quoted timings ----------------------------------------------------------------------

def seed_timings(text):
    """The %timeit means of a quote file, in ms, by cell in the order printed: {"In[14]": [1.5, ...]}.

    Reads the file as the chapters do (chapters/book/quotes.cpp, QuotedTimings::parse): "#" lines
    are comments, "[In[14]] what it times" starts a cell, and each other line is a %timeit line,
    "1.5 ms ± 161 ns per loop (...)", whose mean is its first number in its unit. Raises
    ValueError naming a line it cannot read."""
    cells, cell = {}, None
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            first = line.find("]")
            close = line.find("]", first + 1)  # "[In[14]]": the second ']'
            end = line.find("] ")
            if first < 0 or close < 0 or (end >= 0 and end < close):
                raise ValueError(f"a quote file's cell header must read [In[N]] ...: {line}")
            cell = line[1:close]
            cells.setdefault(cell, [])
            continue
        if cell is None:
            raise ValueError(f"a %timeit line before any cell: {line}")
        m = re.match(r"[0-9.]+", line)
        if not m:
            raise ValueError(f"not a %timeit line (no number first): {line}")
        rest = line[m.end():]
        if not rest.startswith(" "):
            raise ValueError(f"not a %timeit line (no unit after the number): {line}")
        for unit, scale in UNITS:
            if rest[1:].startswith(unit):
                cells[cell].append(float(m.group(0)) * scale)
                break
        else:
            raise ValueError(f"not a %timeit line (unknown unit): {line}")
    return cells


def seed_low_rank(text):
    """In[21]'s means by k, {2: 0.0386, ...}: its header names the k of each line in order
    ("... for k = 2, 4, 8, 16, 32"), so a run that timed other k than the seed's is matched by k,
    not by position. Empty where the file quotes no In[21]; ValueError where the header's k do
    not match its lines one for one."""
    lines = seed_timings(text).get("In[21]")
    if lines is None:
        return {}
    m = re.search(r"^\[In\[21\]\].*\bk = ([0-9, ]+)$", text, re.M)
    ks = [int(k) for k in m.group(1).split(",")] if m else []
    if len(ks) != len(lines):
        raise ValueError(f"In[21]'s header names {len(ks)} values of k for {len(lines)} lines")
    return dict(zip(ks, lines))


def seed_pytorch(text):
    """The PyTorch version the quote file's comment says the seed ran ("2.8.0.dev20250521+cu128")."""
    m = re.search(r"^#.*?PyTorch ([0-9][^\s;,)]*)", text, re.M)
    return m.group(1) if m else ""


# ---- numbers as the site writes them ------------------------------------------------------------------

def short(value):
    """A measured number to three significant digits (1.00137 -> 1.00, 14.6172 -> 14.6), whole
    digits kept (1234.6 -> 1235)."""
    if value == 0 or not math.isfinite(value):
        return f"{value:g}"
    # The digits of the rounded value: 0.9997 is 1.00, not 1.000.
    digits = max(0, 2 - math.floor(math.log10(abs(float(f"{value:.3g}")))))
    return f"{value:.{digits}f}"


def short_text(text):
    """A measured value as text with each decimal number in it to three significant digits;
    integers and words unchanged."""
    return re.sub(r"(?<![\w.])-?[0-9]+\.[0-9]+(?:e[-+]?[0-9]+)?(?![\w.])",
                  lambda m: short(float(m.group(0))), str(text))


def time_text(ms):
    """A time in ms, as μs below one millisecond once rounded: 0.0386 -> "38.6 μs", 4.38 ->
    "4.38 ms", 0.9996 -> "1.00 ms"."""
    us = short(ms * 1e3)
    return f"{us}\u00a0\u03bcs" if float(us) < 1000 else f"{short(ms)}\u00a0ms"


def ratio_text(r):
    return f"{short(r)}\u00d7"


def goal_value(value, sense, bound=None):
    """A goal's value: a bandwidth fraction as a percentage, a time ratio as a multiple; with more
    digits where the usual ones would show it equal to a bound it is not equal to (a time ratio
    of 1.0004 against a bound of 1 is "1.0004×", not "1.000×")."""
    scale, digits, unit = (100, 1, "%") if sense == "bandwidth" else (1, 3, "\u00d7")
    while (bound is not None and value != bound and digits < 9
           and round(value * scale, digits) == round(bound * scale, digits)):
        digits += 1
    return f"{value * scale:.{digits}f}{unit}"


def goal_bound(bound, sense):
    return (f"\u2265\u00a0{bound * 100:g}%" if sense == "bandwidth"
            else f"\u2264\u00a0{bound:g}\u00d7")


# ---- loading -------------------------------------------------------------------------------------------

def anchor(fname):
    return "gpu-run-" + re.sub(r"[^a-z0-9]+", "-", os.path.splitext(fname)[0].lower()).strip("-")


def judged(measured):
    """The values a check compared with what it expected: the ones that make its status."""
    return [m for m in measured if m.get("compared")]


def judged_html(measured):
    items = []
    for m in judged(measured):
        mark = "" if m.get("ok") else "\u2717 "
        items.append(f"<li>{mark}{esc(m['what'])}: <span title=\"{esc(m['measured'])}\">"
                     f"{esc(short_text(m['measured']))}</span> "
                     f"<span class=\"expected\">(expected {esc(m['expected'])})</span></li>")
    return f'<ul class="gpu-judged">{"".join(items)}</ul>' if items else ""


# ---- the section of each run -----------------------------------------------------------------------------

def table(cls, head, rows, caption=""):
    # The caption is a paragraph above the table's scrolling box: on a phone it wraps to the column
    # instead of scrolling away with the table.
    cap = f'<p class="gpu-caption">{caption}</p>' if caption else ""
    return (f'{cap}<div class="book-table-wrap"><table class="book-table {cls}"><thead><tr>'
            + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
            + "</tbody></table></div>")


def not_run(what):
    return f'<p class="gpu-not-run"><span class="claim-status claim-not-run">\u25cb not run</span>: {what}</p>'


def or_unrecorded(value):
    return esc(value) if value not in (None, "", 0) else '<span class="gpu-not-run">not recorded</span>'


def machine_html(p):
    # strided-cuda-info's output, its command line first: set as the terminal printed it.
    info = "".join(f'<br><code class="gpu-info">{esc(line)}</code>'
                   for line in p.get("device_info", []))
    rows = [
        ("GPU", f"{or_unrecorded(p.get('gpu'))}, {or_unrecorded(p.get('memory'))}{info}"),
        ("Driver", or_unrecorded(p.get("driver"))),
        ("CUDA", or_unrecorded(p.get("cuda_runtime"))),
        ("Power limit", or_unrecorded(p.get("power_limit"))),
        ("SM clock", f"{or_unrecorded(p.get('sm_clock_before'))} before the run, "
                     f"{or_unrecorded(p.get('sm_clock_after'))} after it; at most "
                     f"{or_unrecorded(p.get('sm_clock_max'))}"),
        ("Memory clock", or_unrecorded(p.get("memory_clock"))),
        ("Processor", f"{or_unrecorded(p.get('cpu'))}, {or_unrecorded(p.get('cpu_threads'))} "
                      "hardware threads"),
        ("System", or_unrecorded(p.get("os"))),
        ("Compiler", f"{or_unrecorded(p.get('compiler'))}, flags <code>{esc(p.get('flags', ''))}</code>"),
        ("Architectures", or_unrecorded(p.get("architectures"))),
        ("nvcc", or_unrecorded(p.get("nvcc"))),
        ("PyTorch", or_unrecorded(p.get("torch"))),
        ("Commit", f"<code>{or_unrecorded(p.get('commit'))}</code>, run {or_unrecorded(p.get('date'))}"),
        ("Sizes", or_unrecorded(p.get("sizes"))),
    ]
    return ('<dl class="gpu-machine">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
            + "</dl>")


def claims_html(run, status_html):
    if not run["claims"]:
        return not_run("no GPU claim was recorded")
    rows = [(f'<a class="claim-id" href="#{esc(c["id"])}">{esc(c["id"])}</a>', esc(c["statement"]),
             status_html(c["status"], c.get("reason", "")), judged_html(c["measured"]))
            for c in run["claims"]]
    return table("gpu-claims", ("ID", "Claim", "Status there", "Judged values"), rows)


def seed_rows(rec):
    """(cell, work, library benchmark, PyTorch experiment, k) for each row of the seed table; k is
    In[21]'s inner size, None elsewhere."""
    by = {b.get("name"): b for b in rec.get("bench", [])}
    rows = [(seed, _RECORD.against_pytorch_what(what, by.get(ours)), ours, theirs, None)
            for seed, what, ours, theirs in AGAINST_PYTORCH if seed]
    # In[21]: (2048×k)@(k×2048) for each k that the benchmarks or PyTorch's experiments ran.
    ks = {int(m.group(1)) for b in rec.get("bench", [])
          for m in [re.fullmatch(r"BM_matmul_low_rank/([0-9]+)", b.get("name", ""))] if m}
    ks |= {int(m.group(1)) for e in rec.get("pytorch", {}).get("experiments", [])
           for m in [re.fullmatch(r"low_rank_([0-9]+)", e.get("id", ""))] if m}
    rows += [("In[21]", f"k = {k}", f"BM_matmul_low_rank/{k}", f"low_rank_{k}", k) for k in sorted(ks)]
    return rows


def seed_table_html(rec, seed, seed_k, seed_torch):
    bench = {b["name"]: b for b in rec.get("bench", [])}
    torch = {e["id"]: e for e in rec.get("pytorch", {}).get("experiments", [])}
    rows_in = seed_rows(rec)
    if not rows_in:
        return not_run("neither the benchmarks nor PyTorch's experiments were recorded")
    out, firsts, index = [], {}, {}

    def cell(ms, group, col, first_row, missing):
        # Each time over the first row of its cell, in the same column: none when that one is missing.
        if first_row:
            firsts[(group, col)] = ms
        if ms is None:
            return f'<span class="gpu-not-run">{missing}</span>', ""
        first = firsts.get((group, col))
        return time_text(ms), ratio_text(ms / first) if first else ""

    for group, what, ours, theirs, inner in rows_in:
        k = index.get(group, SEED_FIRST_GPU_LINE.get(group, 0))
        first_row = group not in index
        index[group] = k + 1
        lines = seed.get(group, [])
        quoted = seed_k.get(inner) if inner is not None else lines[k] if k < len(lines) else None
        b = bench.get(ours, {})
        cells = [*cell(quoted, group, 0, first_row, "not quoted"),
                 *cell(b.get("ms"), group, 1, first_row, "not run"),
                 *cell(torch.get(theirs, {}).get("median_ms"), group, 2, first_row, "not run")]
        if b.get("error"):
            cells[2] = f'<span class="gpu-not-run" title="{esc(b["error"])}">error</span>'
        out.append([esc(group) if first_row else "", esc(what), *cells])
    gpu = rec.get("provenance", {}).get("gpu", "the GPU above")
    caption = (f"The seed's GPU cells. <em>Seed</em>: the means the seed notebook printed, with "
               f"PyTorch {esc(seed_torch or '(version not recorded)')} on a GPU it does not name, "
               f"not the {esc(gpu)}. <em>Library</em>: its CUDA benchmark of the same work; "
               f"<em>PyTorch</em>: PyTorch {esc(rec.get('pytorch', {}).get('torch', ''))}'s median, "
               f"into a preallocated output; both on the {esc(gpu)}. <em>×</em>: the time over the "
               "first row of its cell, in the same column.")
    return table("gpu-seed", ("Cell", "Work", "Seed", "\u00d7", "Library", "\u00d7", "PyTorch", "\u00d7"),
                 out, caption)


def goals_html(rec):
    goals = rec.get("goals")
    if not goals:
        return not_run("no goal was computed")
    # A goal's status is met, missed or inconclusive (the range over the two sides' repetitions on
    # both sides of the bound: tools/bench/goals.py), or not run.
    cls = {"met": "claim-passed", "missed": "claim-failed", "inconclusive": "claim-inconclusive",
           "not run": "claim-not-run"}
    mark = {"met": "\u2713", "missed": "\u2717", "inconclusive": "~", "not run": "\u25cb"}
    rows = []
    for g in goals:
        status = g.get("status", "not run")
        has = "value" in g and status != "not run"
        rng = g.get("range") if has else None
        rows.append((esc(g["what"]),
                     goal_value(g["value"], g["sense"], g["bound"]) if has else "\u2014",
                     # Word joiners keep the range on one line in a narrow column.
                     (goal_value(rng[0], g["sense"], g["bound"]) + "\u2060\u2013\u2060"
                      + goal_value(rng[1], g["sense"], g["bound"])) if rng else "\u2014",
                     goal_bound(g["bound"], g["sense"]) if has else "\u2014",
                     f'<span class="claim-status {cls.get(status, "claim-not-run")}">'
                     f'{mark.get(status, "")} {esc(status)}</span>'))
    caption = ("Each value is a quotient of two medians, each over its own side's timings: the "
               "library's benchmarks were run several times over, and PyTorch's kernels timed in "
               "several samples. The range runs from the least to the greatest quotient those "
               "timings give. A goal is met when its whole range meets the bound, missed when none "
               "of it does, and inconclusive when the range holds the bound.")
    return table("gpu-goals", ("Goal", "Value", "Range", "Bound", "Status"), rows, caption)


def tests_html(rec, status_html):
    ct = rec.get("ctest_gpu") or {}
    if not ct.get("ran"):
        return not_run("the GPU tests")
    rows = [(f"<code>{esc(t['name'])}</code>", status_html(t["status"]) if t["status"] in
             ("passed", "failed", "not run") else esc(t["status"]), f"{t['seconds']:g}\u00a0s")
            for t in ct.get("tests", [])]
    body = (table("gpu-tests", ("Test", "Status", "Time"), rows) if rows
            else not_run("ctest listed no test"))
    cut = ("" if ct.get("exit") not in ("124", "137") else
           " It was stopped by its cap: a test missing below did not run.")
    return (f"<p><code>{esc(ct.get('command', ''))}</code> exited with {or_unrecorded(ct.get('exit'))}.{cut}</p>"
            + body + "<details><summary>ctest's output</summary>"
            f"<pre class=\"book-output\">{esc(ct.get('output', ''))}</pre></details>")


def sanitizer_html(rec):
    runs = rec.get("sanitizer")
    if not runs:
        return not_run("compute-sanitizer")
    cls = {"clean": "claim-passed", "errors": "claim-failed", "not finished": "claim-not-run",
           "not run": "claim-not-run"}
    def cases(s):
        c = s.get("test_cases")
        if not c:
            return "not counted"
        text = f"{c['passed']} passed" + (f", {c['failed']} failed" if c["failed"] else "")
        return text + (f", {c['skipped']} left out" if c["skipped"] else "")

    rows = [(esc(s["tool"]), f"<code>{esc(s['program'])}</code>",
             f'<span class="claim-status {cls.get(s["verdict"], "claim-not-run")}">{esc(s["verdict"])}</span>',
             esc(cases(s)), esc(s.get("summary") or f"exit {s.get('exit')}"))
            for s in runs]
    return table("gpu-sanitizer", ("Tool", "Program", "Verdict", "Test cases", "Summary"), rows)


def chapters_html(rec, chapter_link):
    runs = rec.get("chapters")
    if not runs:
        return not_run("the chapters")
    rows = []
    for r in runs:
        counts = ", ".join(f"{n} {s}" for s, n in sorted(r.get("statuses", {}).items()))
        # Each failed claim links to its place in the ledger, with the values it judged there where
        # the run recorded them.
        judged_there = r.get("failed_judged", {})
        failed = "".join(f'<div><a href="#{esc(c)}">{esc(c)}</a>{judged_html(judged_there.get(c, []))}</div>'
                         for c in r.get("failed", []))
        # A chapter cut short by its cap, or skipped, is said so: its counts are not a whole run.
        outcome = r.get("outcome", "finished")
        if outcome == "not run":
            counts = "not run (no time left)"
        elif outcome == "not finished":
            counts = "not finished (stopped by its cap)" + (f": {counts} before" if counts else "")
        rows.append((chapter_link(r["chapter"]), or_unrecorded(r.get("exit")),
                     esc(counts) or "no claim", failed or "none"))
    return table("gpu-chapters", ("Chapter", "Exit", "Statuses", "Failed"), rows)


def run_html(run, seed, seed_k, seed_torch, status_html, chapter_link):
    rec = run["record"]
    p = rec.get("provenance", {})
    return (f'<section class="gpu-run" id="{esc(run["anchor"])}">'
            f'<h2>{esc(run["gpu"])}, commit <code>{esc(run["commit"])}</code>, {esc(run["date"])}</h2>'
            "<h3>The machine</h3>" + machine_html(p)
            + "<h3>Its GPU claims</h3>" + claims_html(run, status_html)
            + "<h3>The seed's GPU timings beside the library's and PyTorch's</h3>"
            + seed_table_html(rec, seed, seed_k, seed_torch)
            + "<h3>Goals</h3>" + goals_html(rec)
            + "<h3>GPU tests</h3>" + tests_html(rec, status_html)
            + "<h3>compute-sanitizer</h3>" + sanitizer_html(rec)
            + "<h3>Every chapter, at the test sizes</h3>" + chapters_html(rec, chapter_link)
            + "</section>\n")


def gpu_runs_html(runs, seed_text, status_html, chapter_link):
    """The \\book{gpu_runs} fragment: one section for each recorded run, or a line saying none is."""
    if not runs:
        return '<p class="gpu-not-run">No GPU run is recorded.</p>\n'
    seed = seed_timings(seed_text)
    seed_k = seed_low_rank(seed_text)
    torch = seed_pytorch(seed_text)
    return "".join(run_html(r, seed, seed_k, torch, status_html, chapter_link) for r in runs)
