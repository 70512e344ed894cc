#!/usr/bin/env python3
"""No two source files of one target keep a private name alike: the unity build's safety check.

The default build compiles each target's sources in batches, one translation unit a batch
(CMakeLists.txt, CMAKE_UNITY_BUILD). Two files of a target that each define a function or type of
the same name in an anonymous namespace then meet in one translation unit: where the two
signatures are alike the batch fails to compile, and where they differ the calls of one file may
silently pick the other's overload. Which files share a batch changes as files come and go, so
this check does not wait for the clash: it reads a build that compiled every file on its own (the
asan preset) and lists, target by target, each name that two object files define in an anonymous
namespace (from `nm -C`).

  unity_names.py BUILD_DIR [--skip GLOB]...   exit 1 and list the clashes, if any
  unity_names.py --self-test                  compile two files that clash and two that do not

A target's object files are those under <dir>/CMakeFiles/<target>.dir/. --skip leaves out object
files that a unity build compiles on their own anyway (SKIP_UNITY_BUILD_INCLUSION). Standard
library only; needs binutils' nm.
"""

import argparse
import fnmatch
import os
import re
import subprocess
import sys
import tempfile

ANON = re.compile(r"\(anonymous namespace\)::([A-Za-z_]\w*)")


def private_names(obj):
    """The names an object file defines directly inside an anonymous namespace."""
    out = subprocess.run(["nm", "-C", "--defined-only", obj], capture_output=True, text=True,
                         check=True).stdout
    names = set()
    for line in out.splitlines():
        m = ANON.search(line)
        if m:
            names.add(m.group(1))
    return names


def targets(build_dir, skip):
    """{target directory: [object files]} for every target with two or more object files."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(build_dir):
        objs = [os.path.join(dirpath, f) for f in filenames
                if f.endswith(".o") and not any(fnmatch.fnmatch(f, g) for g in skip)]
        if not objs:
            continue
        # The target is the nearest enclosing <name>.dir folder.
        d = dirpath
        while d and not d.endswith(".dir") and d != build_dir:
            d = os.path.dirname(d)
        if d.endswith(".dir"):
            found.setdefault(d, []).extend(objs)
    return {t: sorted(o) for t, o in found.items() if len(o) > 1}


def clashes(build_dir, skip):
    """[(target, name, [object files])], sorted."""
    result = []
    for target, objs in sorted(targets(build_dir, skip).items()):
        owners = {}
        for obj in objs:
            for name in private_names(obj):
                owners.setdefault(name, []).append(obj)
        for name, files in sorted(owners.items()):
            if len(files) > 1:
                result.append((os.path.relpath(target, build_dir), name, files))
    return result


def self_test():
    """Two files of one target that define the same private name clash; a third does not."""
    with tempfile.TemporaryDirectory() as tmp:
        tdir = os.path.join(tmp, "lib", "CMakeFiles", "demo.dir")
        os.makedirs(tdir)
        sources = {
            "a.cpp": "namespace { int twice(int x) { return 2 * x; } }\nint a(int x) { return twice(x); }\n",
            "b.cpp": "namespace { double twice(double x) { return x + x; } }\n"
                     "double b(double x) { return twice(x); }\n",
            "c.cpp": "namespace { int thrice(int x) { return 3 * x; } }\nint c(int x) { return thrice(x); }\n",
        }
        for name, text in sources.items():
            src = os.path.join(tmp, name)
            with open(src, "w") as f:
                f.write(text)
            subprocess.run(["c++", "-O0", "-c", src, "-o", os.path.join(tdir, name + ".o")],
                           check=True)
        got = [(t, n, sorted(os.path.basename(f) for f in fs)) for t, n, fs in clashes(tmp, [])]
        want = [(os.path.join("lib", "CMakeFiles", "demo.dir"), "twice", ["a.cpp.o", "b.cpp.o"])]
        if got != want:
            print(f"self-test FAILED: got {got}, expected {want}")
            return 1
        skipped = clashes(tmp, ["b.cpp.o"])
        if skipped:
            print(f"self-test FAILED: --skip b.cpp.o still reports {skipped}")
            return 1
    print("self-test passed: a clash is found, a skipped file is left out")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build_dir", nargs="?")
    ap.add_argument("--skip", action="append", default=[], help="object file names to leave out")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args(argv)
    if args.self_test:
        return self_test()
    if not args.build_dir:
        ap.error("give BUILD_DIR or --self-test")
    found = clashes(os.path.abspath(args.build_dir), args.skip)
    for target, name, files in found:
        print(f"{target}: '{name}' is defined in an anonymous namespace by "
              + ", ".join(os.path.basename(f) for f in files)
              + " (rename one: a unity build puts them in one translation unit)")
    if found:
        return 1
    print("no two files of one target define the same private name")
    return 0


if __name__ == "__main__":
    sys.exit(main())
