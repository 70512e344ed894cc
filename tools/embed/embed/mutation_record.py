"""The mutation record of tools/book mutate: which broken rules make which claims fail, and
whether the record still describes this build."""

import os
import sys

from .common import Problems, esc, load_json, rel


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
    # tools/mutate, beside tools/embed (this file is tools/embed/embed/mutation_record.py)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "mutate"))
    try:
        import mutants as catalogue  # the catalogue the record must have been made from
    finally:
        sys.path.pop(0)
    if record.get("catalogue") != catalogue.catalogue_digest():
        problems.add(where, "the mutant catalogue (tools/mutate/mutants.py) changed since this "
                            "record was made: run tools/book mutate")
    recorded = record.get("claims", {})
    for cid, c in sorted(claims.items()):
        if not mutated(c):
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


def mutated(c):
    """Whether tools/book mutate runs the claim: its exact and model claims (--kind exact,model),
    which leave out a claim that needs a GPU whatever it checks (it is not run without one)."""
    return c.get("kind") in ("exact", "model") and not c.get("needs_gpu")


def killed_html(c, record):
    if c.get("kind") == "quoted":
        # Arithmetic on a source's figures: no rule of the library enters it, so none can break it.
        return '<span class="claim-unkilled">no rule of the library enters it</span>'
    if record is None or not mutated(c):
        return "—"
    rules = c.get("killed_by", [])
    if not rules:
        return '<span class="claim-unkilled">no mutant yet</span>'
    items = "".join(f'<li>fails if {esc(r["rule"])}</li>' for r in rules)
    n = len(rules)
    return (f"<details><summary>{n} broken rule{'s' if n > 1 else ''}</summary>"
            f"<ul>{items}</ul></details>")


def read_mutation_record(book):
    """The record, for the ledger's column. A draft build (--mutants-pending) says what is stale
    as warnings, so that new claims can be written before tools/book mutate has run."""
    args = book.args
    if args.mutants_pending:
        pending = Problems()
        book.mutants = load_mutants(args.mutants, book.claims, pending, args.root)
        for item in pending.items:
            print(f"embed: warning (draft build, -DBOOK_MUTANTS_PENDING=ON): {item}", file=sys.stderr)
    else:
        book.mutants = load_mutants(args.mutants, book.claims, book.problems, args.root)
