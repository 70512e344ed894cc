#!/usr/bin/env python3
"""Render the book's site: run Doxygen, refuse any warning, and copy a trimmed MathJax beside it.

Doxygen 1.9.4 does not count configuration warnings (an unknown key, for instance) towards
WARN_AS_ERROR, so every line of its output that says "warning:" fails the build here. MathJax 2.7.9
comes from Debian's libjs-mathjax; only the parts an SVG-output page loads are copied, so that the
site works offline and carries no test pages with broken links.

Standard library only.
"""

import argparse
import os
import shutil
import subprocess
import sys

# What MathJax 2 loads for TeX input and SVG output (the configuration Doxygen writes).
MATHJAX_PARTS = [
    "MathJax.js",
    "extensions",
    "jax/input/TeX",
    "jax/output/SVG",
    "jax/element",
    "localization/en",
]


def copy_mathjax(source, dest):
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    for part in MATHJAX_PARTS:
        src = os.path.join(source, part)
        dst = os.path.join(dest, part)
        if os.path.isdir(src):
            shutil.copytree(src, dst)
        elif os.path.isfile(src):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
        else:
            raise FileNotFoundError(f"MathJax part {src} is missing (is libjs-mathjax installed?)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--doxygen", default="doxygen")
    ap.add_argument("--doxyfile", required=True)
    ap.add_argument("--html", required=True, help="the HTML folder the Doxyfile writes")
    ap.add_argument("--mathjax", required=True, help="Debian's MathJax folder")
    ap.add_argument("--log", help="where to keep Doxygen's output")
    args = ap.parse_args(argv)

    if os.path.isdir(args.html):
        shutil.rmtree(args.html)  # no page of an older build may survive into this one
    run = subprocess.run([args.doxygen, args.doxyfile], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    if args.log:
        with open(args.log, "w", encoding="utf-8") as f:
            f.write(run.stdout)
    warnings = [line for line in run.stdout.splitlines() if "warning:" in line.lower()
                or "error:" in line.lower()]
    if run.returncode != 0 or warnings:
        sys.stderr.write(run.stdout)
        print(f"render: doxygen exited {run.returncode} with {len(warnings)} warning(s); "
              "the site is not built", file=sys.stderr)
        if os.path.isdir(args.html):
            shutil.rmtree(args.html)
        return 1
    copy_mathjax(args.mathjax, os.path.join(args.html, "mathjax"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
