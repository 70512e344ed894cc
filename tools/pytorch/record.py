#!/usr/bin/env python3
"""PyTorch's recorded answers: run each chapter's PyTorch companion and keep what torch answered.

  record.py --write   runs chapters/NN_name.py for every chapter that has one and writes
                      docs/recorded/pytorch/NN_name.json (tools/book record-pytorch)
  record.py --check   runs them again and compares their answers with the committed record:
                      exit 0 when they agree, 1 naming each chapter and expression that differs,
                      77 (skipped) when no python here imports torch

A record names the torch it was made with; the chapters read it (chapters/book/pytorch_record.h)
and never need torch themselves. Standard library only: torch is needed by the companions, which
run under the first of --python, /usr/bin/python3 and python3 that imports it.
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SKIPPED = 77


def torch_python(preferred=None):
    """(python, torch version) for the first python that imports torch, or (None, reason)."""
    tried = []
    for py in [preferred, "/usr/bin/python3", shutil.which("python3")]:
        if not py or py in tried:
            continue
        tried.append(py)
        run = subprocess.run([py, "-c", "import torch; print(torch.__version__)"],
                             capture_output=True, text=True)
        if run.returncode == 0:
            return py, run.stdout.strip()
    return None, ("no python imports torch (tried " + ", ".join(tried) + "); "
                  "Debian's is python3-torch")


def companions(root):
    return sorted(glob.glob(os.path.join(root, "chapters", "[0-9][0-9]_*.py")))


def run_companion(python, path):
    """The companion's answers as JSON; raises RuntimeError with its stderr when it fails."""
    run = subprocess.run([python, path], capture_output=True, text=True, cwd=os.path.dirname(path))
    if run.returncode != 0:
        raise RuntimeError(f"{os.path.relpath(path, ROOT)} exited {run.returncode}:\n{run.stderr}")
    return json.loads(run.stdout)


def record_of(python, version, path):
    answers = run_companion(python, path)
    return {
        "torch": version,
        "companion": os.path.relpath(path, ROOT),
        "made_by": "tools/book record-pytorch",
        "chapter": answers["chapter"],
        "expressions": answers["expressions"],
        "tryits": answers["tryits"],
    }


def dumps(record):
    """The record as JSON with one answer a line, so that a change shows as one changed line."""
    out = ["{"]
    for key in ("torch", "companion", "made_by", "chapter"):
        out.append(f"  {json.dumps(key)}: {json.dumps(record[key], ensure_ascii=False)},")
    out.append('  "expressions": {')
    groups = list(record["expressions"].items())
    for g, (group, answers) in enumerate(groups):
        out.append(f"    {json.dumps(group)}: {{")
        items = list(answers.items())
        for i, (expr, a) in enumerate(items):
            comma = "," if i + 1 < len(items) else ""
            out.append(f"      {json.dumps(expr, ensure_ascii=False)}: "
                       f"{json.dumps(a, ensure_ascii=False)}{comma}")
        out.append("    }" + ("," if g + 1 < len(groups) else ""))
    out.append("  },")
    out.append('  "tryits": {')
    items = list(record["tryits"].items())
    for i, (expr, a) in enumerate(items):
        comma = "," if i + 1 < len(items) else ""
        out.append(f"    {json.dumps(expr, ensure_ascii=False)}: "
                   f"{json.dumps(a, ensure_ascii=False)}{comma}")
    out.append("  }")
    out.append("}")
    return "\n".join(out) + "\n"


def differences(chapter, recorded, fresh):
    """One line per answer that differs between the committed record and a fresh run."""
    lines = []
    if recorded.get("torch") != fresh.get("torch"):
        lines.append(f"{chapter}: recorded with torch {recorded.get('torch')}, run with "
                     f"torch {fresh.get('torch')}")
    for section in ("expressions", "tryits"):
        old, new = recorded.get(section, {}), fresh.get(section, {})
        if section == "expressions":
            pairs = [(f"{g} / {e}", old.get(g, {}).get(e), new.get(g, {}).get(e))
                     for g in sorted(set(old) | set(new))
                     for e in sorted(set(old.get(g, {})) | set(new.get(g, {})))]
        else:
            pairs = [(f"Try it {e}", old.get(e), new.get(e)) for e in sorted(set(old) | set(new))]
        for name, a, b in pairs:
            if a != b:
                lines.append(f"chapter {chapter}, {name}: recorded {json.dumps(a)}, "
                             f"PyTorch answers {json.dumps(b)}")
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="write docs/recorded/pytorch/*.json")
    mode.add_argument("--check", action="store_true", help="compare a fresh run with the record")
    ap.add_argument("--python", help="a python that imports torch")
    ap.add_argument("--root", default=ROOT, help="the checkout (default: this one)")
    args = ap.parse_args(argv)

    python, version = torch_python(args.python)
    if python is None:
        print(f"record-pytorch: skipped: {version}", file=sys.stderr)
        return SKIPPED
    out_dir = os.path.join(args.root, "docs", "recorded", "pytorch")
    problems = []
    for path in companions(args.root):
        chapter = os.path.splitext(os.path.basename(path))[0]
        try:
            fresh = record_of(python, version, path)
        except (RuntimeError, ValueError) as e:
            problems.append(str(e))
            continue
        target = os.path.join(out_dir, chapter + ".json")
        if args.write:
            os.makedirs(out_dir, exist_ok=True)
            with open(target, "w", encoding="utf-8") as f:
                f.write(dumps(fresh))
            n = sum(len(a) for a in fresh["expressions"].values()) + len(fresh["tryits"])
            print(f"record-pytorch: {os.path.relpath(target, args.root)}: {n} answers of "
                  f"torch {version}")
            continue
        if not os.path.exists(target):
            problems.append(f"chapter {chapter}: no record {os.path.relpath(target, args.root)} "
                            "(run tools/book record-pytorch)")
            continue
        with open(target, encoding="utf-8") as f:
            recorded = json.load(f)
        diff = differences(chapter, recorded, fresh)
        problems += diff
        if not diff:
            print(f"record-pytorch: chapter {chapter}: torch {version} gives every recorded answer")
    for p in problems:
        print(f"record-pytorch: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
