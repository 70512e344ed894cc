#!/usr/bin/env python3
"""The explorer compiled to WebAssembly answers as the native one does, byte for byte.

strided-explore.js (the wasm preset, tools/explore/wasm_main.cpp) is run under node through
wasm_explore.js, the native strided-explore as itself, on the same inputs:
  - --jsonl: every request of the conformance suite (tests/conformance/*.jsonl), each expression
    below as an expression request ({"expression": ...}, what a Try it block asks), and lines
    that are not requests (not JSON, a NUL byte, too long, nested too deep), all in one stream:
    the two streams of answers must be the same bytes;
  - expressions: the command of every Try it block of the pages (docs/*.md) and expressions that
    fail (syntax, PyTorch's refusals, a budget): standard output, standard error, the exit status
    and the --svg picture must be the same bytes.
Standard library only.
"""

import argparse
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

TRYIT_RE = re.compile(r"^\\tryit\s+(.+?)\s*$", re.M)

# Expressions each part of the explorer refuses, with its message and caret.
FAILING = [
    "arange(24).view(5, 6)",
    "arange(6).reshape(2, 3).t().view(6)",
    "arange(24).reshape(2, 3, 4)[0, 5]",
    "arange(24).permute(1, 0)",
    "arange(6)[::-1]",
    "zeros(2, 3).expand(3, 3)",
    "arange(10).foo()",
    "arange(",
    "arange(99999999999999999999)",
    "zeros(100000, 100000)",
    "arange(1 << 30)",
    "tensor([[1, 2], [3]])",
    "",
]
# Expressions none of the pages shows, over the language's other corners.
MORE = [
    "arange(24).reshape(2, 3, 4).permute(2, 0, 1)[1:, ::2]",
    "arange(24).view(4, 6)[:, ::2].t()",
    "rand(2, 3, seed=7).mT",
    "randn(4, seed=1).to(dtype=torch.float16)",
    "empty_strided((2, 3), (1, 2))",
    "ones(2, 1, 3).squeeze().unsqueeze(0).flatten()",
    "arange(12, dtype=torch.float64).view(3, 4)[..., None].movedim(2, 0)",
    "arange(10).as_strided((3, 3), (1, 1))",
    "tensor([True, False]).expand(3, 2).contiguous()",
    "arange(16).view(4, 4).diagonal(-1).narrow(0, 1, 2)",
    "arange(8).unflatten(0, (2, 4)).flip(1).select(1, 0).clone()",
]


def bad_lines():
    """Lines a --jsonl client may send that are not requests."""
    deep = "[" * 70 + "]" * 70
    return [b"not json", b"{}", b'{"start":{"shape":[2]}} extra', b"\x00",
            b'{"start":{"shape":' + deep.encode() + b"}}", b"", b" ",
            b'{"start":{"shape":[2,3],"dtype":"float32"},"ops":[{"op":"t"}]}',
            b"x" * (1 << 20 | 7)]


def requests(root):
    out = []
    for path in sorted(glob.glob(os.path.join(root, "tests", "conformance", "*.jsonl"))):
        with open(path, encoding="utf-8") as f:
            for line in f:
                # grad_cases.jsonl holds the library's autograd programs, not explorer requests.
                case = json.loads(line) if line.strip() else {}
                if "request" in case:
                    out.append(json.dumps(case["request"], separators=(",", ":")).encode())
    return out


def tryit_expressions(root):
    out = []
    for path in sorted(glob.glob(os.path.join(root, "docs", "*.md"))):
        with open(path, encoding="utf-8") as f:
            for command in TRYIT_RE.findall(f.read()):
                words = shlex.split(command)
                for i, w in enumerate(words):
                    if not w.startswith("--") and (i == 0 or words[i - 1] != "--svg"):
                        out.append(w)
                        break
    return out


def run_native(native, expression, svg):
    p = subprocess.run([native, expression, "--svg", svg], capture_output=True, timeout=120)
    return p.stdout, p.stderr, p.returncode


def run_wasm(node, driver, module, expression, svg):
    p = subprocess.run([node, driver, module, expression, svg], capture_output=True, timeout=120)
    return p.stdout, p.stderr, p.returncode


def read(path):
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        data = f.read()
    os.remove(path)
    return data


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--native", required=True, help="the native strided-explore")
    ap.add_argument("--module", required=True, help="strided-explore.js, the wasm build")
    ap.add_argument("--node", default="node")
    ap.add_argument("--root", required=True, help="the checkout (for the suite and the pages)")
    args = ap.parse_args(argv)
    os.environ.setdefault("NODE_PATH", "/usr/share/nodejs")
    driver = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wasm_explore.js")
    problems = []

    expressions = tryit_expressions(args.root) + MORE + FAILING
    reqs = requests(args.root) + [json.dumps({"expression": e}).encode() for e in expressions]
    stream = b"\n".join(reqs + bad_lines()) + b"\n"
    native = subprocess.run([args.native, "--jsonl"], input=stream, capture_output=True,
                            timeout=600).stdout
    wasm = subprocess.run([args.node, driver, args.module, "--jsonl"], input=stream,
                          capture_output=True, timeout=600)
    if wasm.returncode != 0:
        problems.append(f"--jsonl: node exited {wasm.returncode}: {wasm.stderr.decode()[-500:]}")
    answers_n, answers_w = native.split(b"\n"), wasm.stdout.split(b"\n")
    if native != wasm.stdout:
        diff = next((i for i, (a, b) in enumerate(zip(answers_n, answers_w)) if a != b),
                    min(len(answers_n), len(answers_w)))
        problems.append(f"--jsonl: the answers differ first at line {diff + 1}: native "
                        f"{answers_n[diff][:300] if diff < len(answers_n) else b'(none)'!r}, wasm "
                        f"{answers_w[diff][:300] if diff < len(answers_w) else b'(none)'!r}")
    lines = native.count(b"\n")
    if lines != len(reqs) + len(bad_lines()):
        problems.append(f"--jsonl: {lines} answers to "
                        f"{len(reqs) + len(bad_lines())} lines")

    with tempfile.TemporaryDirectory() as tmp:
        svg = os.path.join(tmp, "picture.svg")
        for e in expressions:
            n = run_native(args.native, e, svg) + (read(svg),)
            w = run_wasm(args.node, driver, args.module, e, svg) + (read(svg),)
            for name, a, b in zip(("standard output", "standard error", "exit status", "picture"),
                                  n, w):
                if a != b:
                    problems.append(f"{e!r}: the {name} differs: native {str(a)[:300]}, "
                                    f"wasm {str(b)[:300]}")
            if n[2] not in (0, 2):
                problems.append(f"{e!r}: the native program exited {n[2]}: {n[1][:300]!r}")

    for p in problems:
        print(f"check_wasm_explore: {p}")
    print(f"check_wasm_explore: {len(reqs) - len(expressions)} conformance requests, "
          f"{len(expressions)} expression requests and {len(bad_lines())} other lines through "
          f"--jsonl, {len(expressions)} expressions; {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
