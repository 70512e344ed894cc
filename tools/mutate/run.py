#!/usr/bin/env python3
"""tools/book mutate: run every chapter's exact and model claims against each mutant of the library
(tools/mutate/mutants.py) and record which claims each one makes fail.

A ✓ in the book is a promise that its check would have failed had the rule behind it been broken.
This is the evidence: a copy of the source tree is built once (build/mutate), then for each mutant
one file of the copy is edited, the chapters are rebuilt and run with `--kind exact,model
--statuses`, and every claim that no longer passes is said to be killed by that mutant. A chapter
that crashes or runs past its time limit under a mutant kills all of its claims that were run.

  run.py --record FILE        run every mutant and write the record (docs/recorded/mutants.json)
  run.py --check FILE --only ID,...
                              run these mutants and fail unless each kills exactly the claims the
                              record says (tools/book test runs a fixed sample this way)

The record holds, besides the kills, a digest of the mutant catalogue and of each claim's
statement, so that the embed tool can refuse a build whose claims or mutants changed since.
Standard library only.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from mutants import MUTANTS, catalogue_digest, statement_digest  # noqa: E402

KINDS = "exact,model"
CHAPTER_TIMEOUT = 120  # seconds; the unmutated chapters run these claims in about 1 s


def say(msg):
    print(f"mutate: {msg}", flush=True)


def copy_tree(dest):
    """The tracked files of the checkout (its committed and uncommitted state), fuzz corpus aside."""
    files = subprocess.run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], check=True, capture_output=True).stdout
    for rel in files.decode().split("\0"):
        if not rel or rel.startswith("fuzz/corpus/") or not os.path.isfile(os.path.join(ROOT, rel)):
            continue
        src, dst = os.path.join(ROOT, rel), os.path.join(dest, rel)
        if os.path.exists(dst) and open(src, "rb").read() == open(dst, "rb").read():
            continue  # unchanged: keep its timestamp, so ninja rebuilds nothing for it
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)


def chapters(src):
    return sorted(f[:-4] for f in os.listdir(os.path.join(src, "chapters"))
                  if f[:2].isdigit() and f.endswith(".cpp"))


def build(obj, names):
    targets = [f"chapter_{n}" for n in names]
    r = subprocess.run(["cmake", "--build", obj, "--target", *targets], capture_output=True,
                       text=True)
    return r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]


def run_chapters(obj, names, known=()):
    """{claim: status} over every chapter, and the chapters that crashed or timed out. A chapter
    that broke counts every claim of `known` it lists as crashed."""
    statuses, broken = {}, {}
    for n in names:
        exe = os.path.join(obj, "chapters", f"chapter_{n}")
        listed = subprocess.run([exe, "--list"], capture_output=True, text=True)
        try:
            r = subprocess.run([exe, "--kind", KINDS, "--statuses"], capture_output=True, text=True,
                               timeout=CHAPTER_TIMEOUT)
            out = r.stdout
            if r.returncode not in (0, 1):
                broken[n] = f"exit code {r.returncode}"
        except subprocess.TimeoutExpired:
            out, broken[n] = "", f"ran past {CHAPTER_TIMEOUT} s"
        got = dict(line.split("\t", 1) for line in out.splitlines() if "\t" in line)
        if n in broken:  # it said nothing reliable: every claim it runs counts as failed
            ids = [line.split("\t", 1)[0] for line in listed.stdout.splitlines() if "\t" in line]
            got = {cid: got.get(cid, "crashed") for cid in ids if cid in known}
        statuses.update({cid: st.strip() for cid, st in got.items()})
    return statuses, broken


def claim_statements(obj, names):
    out = {}
    for n in names:
        exe = os.path.join(obj, "chapters", f"chapter_{n}")
        listed = subprocess.run([exe, "--list"], capture_output=True, text=True, check=True)
        for line in listed.stdout.splitlines():
            cid, _, statement = line.partition("\t")
            out[cid] = statement
    return out


def apply(src, m):
    path = os.path.join(src, m["file"])
    text = open(path, encoding="utf-8").read()
    n = text.count(m["find"])
    if n != 1:
        raise SystemExit(f"mutate: mutant {m['id']}: its text occurs {n} times in {m['file']} "
                         "(it must occur once); update tools/mutate/mutants.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(m["find"], m["replace"]))
    return path, text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build", "mutate"))
    ap.add_argument("--record", help="run every mutant and write the record here")
    ap.add_argument("--check", help="compare the mutants run (--only) with this record")
    ap.add_argument("--only", help="comma-separated mutant IDs (default: all)")
    args = ap.parse_args(argv)
    if bool(args.record) == bool(args.check):
        ap.error("give one of --record FILE or --check FILE")

    chosen = MUTANTS
    if args.only:
        wanted = args.only.split(",")
        unknown = [w for w in wanted if w not in {m["id"] for m in MUTANTS}]
        if unknown:
            ap.error(f"unknown mutant(s): {', '.join(unknown)}")
        chosen = [m for m in MUTANTS if m["id"] in wanted]
    record = None
    if args.check:
        with open(args.check, encoding="utf-8") as f:
            record = json.load(f)
        if record.get("catalogue") != catalogue_digest():
            say(f"{args.check} was made from another mutant catalogue: run tools/book mutate")
            return 1

    src, obj = os.path.join(args.build_dir, "src"), os.path.join(args.build_dir, "obj")
    t0 = time.monotonic()
    copy_tree(src)
    if not os.path.exists(os.path.join(obj, "CMakeCache.txt")):
        subprocess.run(["cmake", "-S", src, "-B", obj, "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DSTRIDED_ENABLE_CUDA=OFF"],
                       check=True, capture_output=True)
    names = chapters(src)
    ok, log = build(obj, names)
    if not ok:
        print(log, file=sys.stderr)
        say("the unmutated copy does not build")
        return 1
    statements = claim_statements(obj, names)
    base, broken = run_chapters(obj, names)
    failing = sorted(c for c, st in base.items() if st != "passed")
    if broken or failing:
        say(f"the unmutated chapters do not pass: {failing or broken}")
        return 1
    say(f"copy built; {len(base)} exact and model claims pass unmutated "
        f"({time.monotonic() - t0:.0f} s)")

    results = []
    for i, m in enumerate(chosen, 1):
        t1 = time.monotonic()
        path, original = apply(src, m)
        try:
            ok, log = build(obj, names)
            if not ok:
                print(log, file=sys.stderr)
                raise SystemExit(f"mutate: mutant {m['id']} does not compile; fix it in "
                                 "tools/mutate/mutants.py")
            got, broken = run_chapters(obj, names, set(base))
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
        killed = sorted(c for c in base if got.get(c, "crashed") != "passed")
        results.append({"id": m["id"], "rule": m["rule"], "file": m["file"], "kills": killed,
                        **({"broken_chapters": broken} if broken else {})})
        say(f"[{i}/{len(chosen)}] {m['id']}: kills {len(killed)} claim(s)"
            + (f", chapters broken: {broken}" if broken else "") + f" ({time.monotonic() - t1:.0f} s)")
    build(obj, names)  # leave the copy built unmutated

    if args.check:
        recorded = {r["id"]: r for r in record.get("mutants", [])}
        bad = 0
        for r in results:
            want = recorded.get(r["id"], {}).get("kills")
            if want is None:
                say(f"{r['id']}: not in the record; run tools/book mutate")
                bad += 1
            elif sorted(want) != r["kills"]:
                more = sorted(set(r["kills"]) - set(want))
                fewer = sorted(set(want) - set(r["kills"]))
                say(f"{r['id']} ({r['rule']}) no longer kills what the record says: "
                    + (f"now also {', '.join(more)}; " if more else "")
                    + (f"no longer {', '.join(fewer)}" if fewer else "")
                    + " — run tools/book mutate")
                bad += 1
        say(f"{len(results)} mutants checked against {args.check}: "
            + ("as recorded" if not bad else f"{bad} differ"))
        return 1 if bad else 0

    killed_any = {c for r in results for c in r["kills"]}
    survivors = sorted(c for c in base if c not in killed_any)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    out = {
        "format": 1,
        "catalogue": catalogue_digest(),
        "commit": commit,
        "kinds": KINDS,
        "claims": {c: statement_digest(statements[c]) for c in sorted(base)},
        "mutants": results,
        "not_killed": survivors,
    }
    with open(args.record, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    say(f"{len(results)} mutants; {len(base) - len(survivors)} of {len(base)} exact and model "
        f"claims killed by at least one; record written to {args.record} "
        f"({time.monotonic() - t0:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
