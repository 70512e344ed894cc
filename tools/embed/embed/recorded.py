"""The recorded GPU runs (docs/recorded/gpu, tools/gpu/record.py), read beside this build's run."""

import os

import gpu_runs

from .chapters import measurements
from .common import STATUSES, load_json, rel


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


def read_recorded_runs(book):
    """The recorded runs, and the seed's quoted timings their section sets beside them (read only
    when there is a run to show)."""
    args = book.args
    book.runs = load_recorded(args.recorded, book.claims, book.problems, args.root)
    book.seed_text = ""
    if book.runs:
        seed_path = args.seed_timings or os.path.join(args.docs, gpu_runs.SEED_FILE)
        try:
            with open(seed_path, encoding="utf-8") as f:
                seed_text = f.read()
            gpu_runs.seed_timings(seed_text)
            gpu_runs.seed_low_rank(seed_text)
            book.seed_text = seed_text
        except (OSError, ValueError) as e:
            book.problems.add(rel(seed_path, args.root),
                              f"the seed's quoted timings cannot be read: {e}")
