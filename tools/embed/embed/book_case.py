"""What the tests of the embed step share: a made-up chapter, its report and its page, right as
made here, which each test breaks one way (each broken case must stop the build, exit 1, with a
message naming the file and the claim)."""

import contextlib
import io
import json
import os
import shutil
import tempfile
import time
import unittest

from .main import main

# tools/embed: the tests read the repository's own files from there (the mutant catalogue, the seed)
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">'
       '<title>t &amp; u</title><rect x="0" y="0" width="10" height="10" fill="currentColor"/>'
       '<text x="1" y="9">a&lt;b</text></svg>')

PAGE = """# Demo {#ch99}

A tensor is a storage and a layout.\\claim{MT-01} Its strides are \\ch99_strides.

Element addresses are sums.\\claim{MT-03}

\\output{listing}

\\output{grid}

\\output{layout}

\\snippet 99_demo.cpp shown

A GPU sentence.\\claim{PF-10} The seed's dump reads past the end.\\claim{ER-14}
"""


def claim(cid, status="passed", measured=None, **extra):
    return dict({"id": cid, "section": "s", "statement": f"Statement of {cid}.", "kind": "exact",
                 "needs_gpu": False, "status": status, "reason": "",
                 "measured": measured or [{"what": "x", "measured": "1", "expected": "1", "compared": True,
                                           "ok": True}],
                 "outputs": [], "seconds": 0.0}, **extra)




class BookCase(unittest.TestCase):
    """The made-up chapter 99_demo in a folder of its own, and how to run the step on it."""

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="embed-test-")
        self.docs = os.path.join(self.root, "docs")
        self.out = os.path.join(self.root, "out")
        self.pages = os.path.join(self.root, "pages")
        self.src = os.path.join(self.root, "chapters", "99_demo.cpp")
        self.chout = os.path.join(self.out, "99_demo")
        for d in (self.docs, self.chout, os.path.dirname(self.src)):
            os.makedirs(d)
        self.write(self.src, "int main() {\n    //! [shown]\n    int x = 1;\n      int y = x;\n    //! [shown]\n}\n")
        old = time.time() - 100
        os.utime(self.src, (old, old))
        self.report = {
            "format": 1, "chapter": "99_demo", "title": "Demo", "source": self.src,
            "provenance": {"compiler": "GCC 12", "flags": "-O2", "cpu": "Test CPU <x>", "cpu_threads": 2,
                           "gpu": "no GPU", "gpu_reason": "no CUDA", "cuda_runtime": "none",
                           "gpu_plain": "no CUDA device on this machine",
                           "commit": "abc123", "date": "2025-01-01T00:00:00Z"},
            "sections": [{"id": "s", "title": "S"}],
            "claims": [claim("MT-01"), claim("MT-03"),
                       claim("PF-10", status="not run", measured=[], reason="no CUDA device"),
                       claim("ER-14", seed_says="reads from data_ptr")],
            "outputs": [
                {"name": "listing", "kind": "text", "file": "listing.txt", "caption": "", "claim": "MT-03"},
                {"name": "grid", "kind": "figure", "file": "grid.svg", "caption": "A grid", "claim": "MT-03"},
                {"name": "layout", "kind": "table", "file": "layout.table.json", "caption": "", "claim": ""},
            ],
            "values": {"strides": "(3, 1)"},
        }
        self.write(os.path.join(self.chout, "listing.txt"), "<script>alert(1)</script> & done\n")
        self.write(os.path.join(self.chout, "grid.svg"), SVG)
        self.write(os.path.join(self.chout, "layout.table.json"),
                   json.dumps({"caption": "", "header": ["dim", "stride"], "rows": [["0", "<3>"]]}))
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE)
        self.write(os.path.join(self.docs, "index.md"), "# Book {#mainpage}\n\n\\book{chapters}\n")
        self.save_report()

    def tearDown(self):
        shutil.rmtree(self.root)

    def write(self, path, text):
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def read(self, *parts):
        with open(os.path.join(self.pages, *parts), encoding="utf-8") as f:
            return f.read()

    def save_report(self):
        self.write(os.path.join(self.chout, "report.json"), json.dumps(self.report))

    def run_embed(self, *extra):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = main(["--docs", self.docs, "--out", self.out, "--pages", self.pages,
                             "--root", self.root, "--chapter", f"99_demo={self.src}", *extra])
        return rc, err.getvalue()

    def assertFails(self, *words):
        rc, err = self.run_embed()
        self.assertEqual(rc, 1, err)
        for w in words:
            self.assertIn(w, err)
        self.assertFalse(os.path.exists(self.pages), "a failed build must leave no pages")
        return err

    def fake_explore(self, body):
        path = os.path.join(self.root, "fake-explore")
        self.write(path, "#!/bin/sh\n" + body)
        os.chmod(path, 0o755)
        return path

    def with_section_file(self, block="part"):
        """99_demo.cpp and a section file chapters/99_demo/part.cpp, its listing on the page."""
        part = os.path.join(self.root, "chapters", "99_demo", "part.cpp")
        os.makedirs(os.path.dirname(part))
        self.write(part, f"void part() {{\n  //! [{block}]\n  int z = 2;\n  //! [{block}]\n}}\n")
        old = time.time() - 100
        os.utime(part, (old, old))
        self.write(os.path.join(self.docs, "99_demo.md"),
                   PAGE + "\n\\snippet 99_demo/part.cpp part\n\nDone.\n")
        return part

    COMPANION = ("import torch\nfor n in [1]:\n    # [shown]\n    x = torch.ones(n)\n      # deeper\n"
                 "    # [shown]\n")

    # strided-explore --jsonl's answer to {"expression": "arange(4).view(2, 2)"}, abridged.
    EXPLORED = {
        "results": [
            {"text": "arange(4)", "shape": [4], "stride": [1], "storage_offset": 0,
             "is_contiguous": True, "shares_storage": True, "shares_prev": False, "numel": 4,
             "dtype": "int64", "memory": "new", "values": [0, 1, 2, 3],
             "repr": "tensor([0, 1, 2, 3])"},
            {"text": "arange(4).view(2, 2)", "shape": [2, 2], "stride": [2, 1],
             "storage_offset": 0, "is_contiguous": True, "shares_storage": True,
             "shares_prev": True, "numel": 4, "dtype": "int64", "memory": "view",
             "values": [0, 1, 2, 3], "repr": "tensor([[0, 1],\n\n        [2, 3]])"}],
        "report": "step 1: arange(4)\n  shape           (4,)\n\nstep 2: arange(4).view(2, 2)\n"
                  "  shape           (2, 2)\n  values\n    tensor([[0, 1],\n\n"
                  "            [2, 3]])\n"}

    def explore_answering(self, answer):
        """A strided-explore that answers one --jsonl line with ANSWER (a dict, or a line as it
        is), and keeps the request it read in the file `request` beside it."""
        line = answer if isinstance(answer, str) else json.dumps(answer)
        request = os.path.join(self.root, "request")
        return self.fake_explore('[ "$1" = --jsonl ] || exit 3\nIFS= read -r line\n'
                                 f"printf '%s\\n' \"$line\" > '{request}'\n"
                                 "cat <<'EOF'\n" + line + "\nEOF\n")

    def with_companion(self, tryits=None, earlier_tryits=None, expressions=None,
                       earlier_expressions=None, notes=None):
        """The companion, with its records of PyTorch 2.6 and 1.13 (1.13's answers as 2.6's
        unless given) and the differences noted between them."""
        self.write(os.path.splitext(self.src)[0] + ".py", self.COMPANION)
        for series, torch, t, e in (
                ("2.6", "2.6.0", tryits, expressions),
                ("1.13", "1.13.0a0", earlier_tryits if earlier_tryits is not None else tryits,
                 earlier_expressions if earlier_expressions is not None else expressions)):
            os.makedirs(os.path.join(self.docs, "recorded", "pytorch", series))
            record = {"torch": torch, "chapter": "99_demo", "expressions": e or {},
                      "tryits": t or {}}
            self.write(os.path.join(self.docs, "recorded", "pytorch", series, "99_demo.json"),
                       json.dumps(record))
        self.write(os.path.join(self.docs, "recorded", "pytorch", "differences.json"),
                   json.dumps(notes or {}))

    def tryit_record(self, **change):
        answer = {"pytorch": "torch.arange(4).view(2, 2)", "shape": [2, 2], "strides": [2, 1],
                  "storage_offset": 0, "is_contiguous": True, "dtype": "int64",
                  "values": [0, 1, 2, 3], "repr": "tensor([[0, 1],\n\n        [2, 3]])"}
        return {"arange(4).view(2, 2)": dict(answer, **change)}

    GLOSSARY = ("# Glossary {#glossary}\n\n## Stride {#gl_stride}\n\\terms stride, strides\n\n"
                "One step.\n\n## Storage offset {#gl_offset}\n\\terms storage offset\n\nWhere.\n")

    def with_glossary(self, page):
        self.write(os.path.join(self.docs, "glossary.md"), self.GLOSSARY)
        self.write(os.path.join(self.docs, "index.md"),
                   "# Book {#mainpage}\n\n\\book{chapters}\n- \\subpage glossary\n")
        self.write(os.path.join(self.docs, "99_demo.md"), page)
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        return self.read("99_demo.md")
