"""The chapters' reports (what each program wrote with --emit) and the claims they check."""

import os
import re

from .common import STATUSES, load_json, rel
from .directives import ID, NAME_RE


def chapter_slug(name):
    """'01_memory_topology' -> 'ch01': the prefix of the chapter's value aliases."""
    m = re.match(r"^([0-9]{2})_", name)
    return "ch" + m.group(1) if m else None


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


def read_chapters(book):
    """The chapters, in order of their names, and the claims they check."""
    book.chapters = load_chapters(book.args, book.problems)
    book.chapters.sort(key=lambda c: c["name"])
    book.chapters_by_name = {c["name"]: c for c in book.chapters}
    book.claims = check_claims(book.chapters, book.problems, book.args.root)


def check_claims_cited(book):
    """A claim that is checked must be cited by a page: a check the reader never meets backs
    nothing."""
    for cid, c in book.claims.items():
        if not c["cited_in"]:
            ch = book.chapters_by_name[c["chapter"]]
            book.problems.add(rel(ch["source"], book.args.root),
                              f"claim {cid} is checked but no page cites it (add \\claim{{{cid}}} to "
                              f"{rel(ch['page'], book.args.root)})")
