"""The claims ledger and the errata, as HTML fragments (\\book{ledger}, \\book{errata})."""


import gpu_runs

from .chapters import measurements
from .common import MARKS, STATUSES, esc
from .mutation_record import killed_html


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
