#!/usr/bin/python3
"""The library's layers and the one direction its includes may go.

    python3 lib/check_layers.py [lib/strided]      # exit 1, naming each offending include

lib/strided/ holds one folder per layer, lowest first in LAYERS. A file may include headers of its
own layer and of the layers below it, never above: the layout algebra knows nothing of storage,
the tensor knows nothing of the engine that walks it, and the models and pictures sit on top. The
umbrella header strided/strided.h, outside every layer, may include any of them. A folder that is
not a layer, or a file outside the folders, is an error too, so the rule cannot be skipped by
adding one. A test (*_test.cpp) may include any layer: it builds its cases with whatever is
handy, and it is not part of the library.

--self-test builds a small tree with one include going up and checks that it is reported.
"""
import os
import re
import sys
import tempfile

# Lowest first. One home for the order; the folder names are the layer names.
LAYERS = ["core", "layout", "tensor", "memory", "engine", "autograd", "models", "pictures"]
UMBRELLA = "strided.h"
INCLUDE = re.compile(r'^\s*#\s*include\s+"strided/([^"]+)"', re.M)


def violations(root):
    """Yields one message per include that goes up a layer, or per file outside the layers."""
    rank = {name: i for i, name in enumerate(LAYERS)}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, root)
        for name in sorted(filenames):
            if not name.endswith((".h", ".cpp")):
                continue
            rel = os.path.normpath(os.path.join(rel_dir, name))
            if rel == UMBRELLA:
                continue
            layer = rel.split(os.sep)[0] if os.sep in rel else None
            if layer not in rank:
                yield f"{rel}: not in a layer folder (the layers are {', '.join(LAYERS)})"
                continue
            if name.endswith("_test.cpp"):
                continue
            with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                text = f.read()
            for m in INCLUDE.finditer(text):
                target = m.group(1)
                line = text.count("\n", 0, m.start()) + 1
                if target == UMBRELLA:
                    yield f"{rel}:{line}: includes the umbrella header {UMBRELLA}"
                    continue
                to = target.split("/")[0] if "/" in target else None
                if to not in rank:
                    yield f"{rel}:{line}: includes strided/{target}, which is in no layer"
                elif rank[to] > rank[layer]:
                    yield (f"{rel}:{line}: the {layer} layer includes strided/{target} from the "
                           f"{to} layer above it (order: {' < '.join(LAYERS)})")


def self_test():
    with tempfile.TemporaryDirectory() as root:
        def put(rel, text):
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        put("core/shape.h", "#pragma once\n")
        put("layout/layout.h", '#include "strided/core/shape.h"\n')
        put("engine/ops.h", '#include "strided/layout/layout.h"\n')
        assert list(violations(root)) == [], list(violations(root))
        put("layout/layout.cpp", '#include "strided/layout/layout.h"\n#include "strided/engine/ops.h"\n')
        found = list(violations(root))
        assert len(found) == 1 and found[0].startswith("layout/layout.cpp:2:"), found
        put("stray.h", "")
        assert any(v.startswith("stray.h: not in a layer") for v in violations(root))
    print("check_layers self-test: an upward include and a stray file are reported")


def main(argv):
    if argv[1:] == ["--self-test"]:
        self_test()
        return 0
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "strided")
    found = list(violations(root))
    for v in found:
        print(v)
    if found:
        return 1
    print(f"{root}: every include goes down or across ({' < '.join(LAYERS)})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
