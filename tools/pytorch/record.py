#!/usr/bin/env python3
"""PyTorch's recorded answers: run each chapter's PyTorch companion and keep what torch answered.

  record.py --write   runs chapters/NN_name.py for every chapter that has one, with every PyTorch
                      found (below), and writes docs/recorded/pytorch/<series>/NN_name.json, the
                      series being the torch's major.minor: 1.13, 2.6 (tools/book record-pytorch)
  record.py --check   runs them again with every PyTorch found and compares each one's answers
                      with its series' committed record: exit 0 when they agree, 1 naming each
                      chapter and expression that differs, 77 (skipped) when no PyTorch is found
  record.py --diff A B  every answer where the committed records of series A and B differ

The PyTorches asked: the system's python3 (Debian 12's python3-torch is 1.13), and the PyTorch 2
of a Debian 13 root (python3-torch 2.6), which `tools/book pytorch2-root` makes once with
mmdebstrap at ROOT (default ~/.cache/stridebook/pytorch2-root, or $STRIDEBOOK_PYTORCH2_ROOT). A
companion runs in that root by chroot, in a mount namespace of its own with /proc mounted (torch
reads it); this needs root, or sudo.

A record names the torch it was made with; the chapters read the records
(chapters/book/pytorch_record.h) and never need torch themselves. Standard library only.
"""

import argparse
import atexit
import concurrent.futures
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SKIPPED = 77
RECORDS = os.path.join("docs", "recorded", "pytorch")


def default_pytorch2_root():
    return os.environ.get("STRIDEBOOK_PYTORCH2_ROOT") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "stridebook",
        "pytorch2-root")


def series_of(version):
    """The record series of a torch version: "1.13.0a0" -> "1.13", "2.6.0+debian" -> "2.6"."""
    return ".".join(version.split("+")[0].split(".")[:2])


class Torch:
    """One PyTorch to ask: the command that runs a python script with it, and its version."""

    def __init__(self, where, command, version, stage=None):
        self.where = where        # "the system's python3", "the PyTorch 2 root at ..."
        self.command = command    # argv prefix; the script's path follows
        self.version = version
        self.series = series_of(version)
        self.stage = stage        # a root's folder the companions are copied into, or None

    def script(self, path, root):
        """The path of a checkout's file as this PyTorch's python sees it."""
        if self.stage is None:
            return path
        return "/" + os.path.basename(self.stage) + "/" + os.path.relpath(path, root)


def system_torch(preferred=None):
    """The first python that imports torch, as a Torch, or (None, reason)."""
    tried = []
    for py in [preferred, "/usr/bin/python3", shutil.which("python3")]:
        if not py or py in tried:
            continue
        tried.append(py)
        run = subprocess.run([py, "-c", "import torch; print(torch.__version__)"],
                             capture_output=True, text=True)
        if run.returncode == 0:
            return Torch(f"{py}", [py], run.stdout.strip()), None
    return None, ("no python imports torch (tried " + ", ".join(tried) + "); "
                  "Debian's is python3-torch")


def root_command(root):
    """The argv prefix that runs python3 inside ROOT: chroot, in a private mount namespace where
    /proc is mounted (torch reads /proc; the mount ends with the namespace)."""
    inner = 'mount -t proc proc "$0/proc" && exec chroot "$0" /usr/bin/python3 "$@"'
    argv = ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", inner, root]
    if os.geteuid() != 0:
        argv = ["sudo", "-n"] + argv
    return argv


def root_torch(root):
    """The PyTorch of a Debian root made by `tools/book pytorch2-root`, or (None, reason)."""
    make = "make it with tools/book pytorch2-root (mmdebstrap: about 3 minutes, 1.2 GB)"
    if not os.path.exists(os.path.join(root, "usr", "bin", "python3")):
        return None, f"no PyTorch 2 root at {root}: {make}"
    command = root_command(root)
    run = subprocess.run(command + ["-c", "import torch; print(torch.__version__)"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return None, (f"the root at {root} cannot run torch ({run.stderr.strip()[-300:]}); "
                      f"remove it and {make}")
    # A staging folder of this run's own: two runs at once (two checkouts) never overwrite each
    # other's companions. It goes when this run ends.
    staged = tempfile.mkdtemp(prefix="stridebook-", dir=root)
    atexit.register(shutil.rmtree, staged, True)
    return Torch(f"the PyTorch 2 root at {root}", command, run.stdout.strip(), stage=staged), None


def torches(python=None, pytorch2_root=None):
    """Every PyTorch found, and the reasons of those not found."""
    found, missing = [], []
    for torch, reason in (system_torch(python), root_torch(pytorch2_root or
                                                           default_pytorch2_root())):
        (found.append(torch) if torch else missing.append(reason))
    return found, missing


def companions(root):
    return sorted(glob.glob(os.path.join(root, "chapters", "[0-9][0-9]_*.py")))


def stage(torch, root):
    """Copies the companions and the module they import into a root's /stridebook."""
    if torch.stage is None:
        return
    shutil.rmtree(torch.stage, ignore_errors=True)
    os.makedirs(os.path.join(torch.stage, "chapters"))
    os.makedirs(os.path.join(torch.stage, "tools", "pytorch"))
    for path in companions(root):
        shutil.copy(path, os.path.join(torch.stage, "chapters"))
    shutil.copy(os.path.join(root, "tools", "pytorch", "answers.py"),
                os.path.join(torch.stage, "tools", "pytorch"))


def run_companion(torch, path, root=ROOT):
    """The companion's answers as JSON; raises RuntimeError with its stderr when it fails."""
    run = subprocess.run(torch.command + [torch.script(path, root)], capture_output=True,
                         text=True, cwd=os.path.dirname(path))
    if run.returncode != 0:
        raise RuntimeError(f"{os.path.relpath(path, root)} exited {run.returncode} under torch "
                           f"{torch.version}:\n{run.stderr}")
    return json.loads(run.stdout)


def record_of(torch, path, root=ROOT):
    answers = run_companion(torch, path, root)
    return {
        "torch": torch.version,
        "companion": os.path.relpath(path, root),
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


def record_path(root, series, chapter):
    return os.path.join(root, RECORDS, series, chapter + ".json")


def read_record(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def diff_series(root, a, b):
    """Every answer where the committed records of series A and B differ, one line each."""
    lines = []
    for path in sorted(glob.glob(os.path.join(root, RECORDS, a, "[0-9][0-9]_*.json"))):
        chapter = os.path.splitext(os.path.basename(path))[0]
        other = record_path(root, b, chapter)
        if not os.path.exists(other):
            lines.append(f"chapter {chapter}: no record of series {b}")
            continue
        for line in differences(chapter, read_record(path), read_record(other)):
            lines.append(line)
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help=f"write {RECORDS}/<series>/*.json")
    mode.add_argument("--check", action="store_true", help="compare a fresh run with the record")
    mode.add_argument("--root-version", action="store_true",
                      help="print the PyTorch 2 root's torch version (exit 1 when it has none)")
    mode.add_argument("--diff", nargs=2, metavar=("A", "B"),
                      help="the answers where the records of series A and B differ")
    ap.add_argument("--python", help="a python that imports torch (the system's)")
    ap.add_argument("--pytorch2-root", help="the Debian 13 root of tools/book pytorch2-root "
                                            "(default: " + default_pytorch2_root() + ")")
    ap.add_argument("--root", default=ROOT, help="the checkout (default: this one)")
    args = ap.parse_args(argv)

    if args.diff:
        lines = diff_series(args.root, *args.diff)
        for line in lines:
            print(line)
        return 1 if lines else 0

    if args.root_version:
        torch, reason = root_torch(args.pytorch2_root or default_pytorch2_root())
        print(torch.version if torch else reason, file=sys.stdout if torch else sys.stderr)
        return 0 if torch else 1

    found, missing = torches(args.python, args.pytorch2_root)
    if not found:
        for reason in missing:
            print(f"record-pytorch: skipped: {reason}", file=sys.stderr)
        return SKIPPED
    problems = []
    # Every companion of every PyTorch at once, a core each: most of a companion's time is torch's
    # import, which waits on nothing the others do. The results are read back in order.
    for torch in found:
        stage(torch, args.root)
    jobs = [(torch, path) for torch in found for path in companions(args.root)]

    def run(job):
        try:
            return record_of(job[0], job[1], args.root), None
        except (RuntimeError, ValueError) as e:
            return None, str(e)

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        results = list(pool.map(run, jobs))
    for torch in found:
        print(f"record-pytorch: torch {torch.version} ({torch.where})")
        for (job_torch, path), (fresh, error) in zip(jobs, results):
            if job_torch is not torch:
                continue
            chapter = os.path.splitext(os.path.basename(path))[0]
            if error:
                problems.append(error)
                continue
            target = record_path(args.root, torch.series, chapter)
            if args.write:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "w", encoding="utf-8") as f:
                    f.write(dumps(fresh))
                n = sum(len(a) for a in fresh["expressions"].values()) + len(fresh["tryits"])
                print(f"record-pytorch: {os.path.relpath(target, args.root)}: {n} answers of "
                      f"torch {torch.version}")
                continue
            if not os.path.exists(target):
                problems.append(f"chapter {chapter}: no record {os.path.relpath(target, args.root)} "
                                f"of torch {torch.series} (run tools/book record-pytorch)")
                continue
            diff = differences(chapter, read_record(target), fresh)
            problems += diff
            if not diff:
                print(f"record-pytorch: chapter {chapter}: torch {torch.version} gives every "
                      "recorded answer")
    # Recording needs every series; a check of what is here passes without the others.
    if args.write:
        problems += missing
    else:
        for reason in missing:
            print(f"record-pytorch: not checked: {reason}", file=sys.stderr)
    for p in problems:
        print(f"record-pytorch: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
