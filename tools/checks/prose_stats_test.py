#!/usr/bin/env python3
"""Tests of prose_stats.py on a made-up chapter page: what counts as running prose, and the budget."""

import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import prose_stats  # noqa: E402

PAGE = """<html><body><div class="header">Not prose. Not this either.</div>
<div class="contents">
<div class="toc"><ul><li>Table of contents items are skipped</li><li>So is this</li></ul></div>
<p>A stride is a step. It counts elements, not bytes, as martinlwx says. <code>x.t()</code>
swaps two.</p>
<ul><li>One item of four words.</li></ul>
<pre>code. is. skipped.</pre>
<table><tr><td>A cell. Another cell.</td></tr></table>
<details><summary>Note</summary><p>A collapsed note by nikitaved is skipped.</p></details>
<div class="book-machine"><p>The machine note is skipped.</p></div>
<p>""" + " ".join(["word"] * 45) + """.</p>
</div></body></html>"""


class ProseStatsTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        with open(os.path.join(self.dir, "ch01.html"), "w", encoding="utf-8") as f:
            f.write(PAGE)

    def test_only_the_running_prose_counts(self):
        s = prose_stats.page_stats(os.path.join(self.dir, "ch01.html"))
        # "A stride is a step." (5), "It counts ... says." (8), "<code> swaps two." (3: the code
        # is one word), the item (5), the long one (45).
        self.assertEqual(s["sentences"], 5, s)
        self.assertEqual(s["words"], 5 + 8 + 3 + 5 + 45, s)
        self.assertEqual(s["long"], 1)
        self.assertEqual(s["longest"], 45)
        self.assertEqual(s["sources"], 1)  # martinlwx; nikitaved is in a collapsed note

    def test_the_budget_fails_a_page_over_it(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            self.assertEqual(prose_stats.main([self.dir, "--max-average", "13", "--max-long", "1"]), 1)
            self.assertEqual(prose_stats.main([self.dir, "--max-average", "14", "--max-long", "1"]), 0)
            self.assertEqual(prose_stats.main([self.dir, "--max-long", "0"]), 1)
        self.assertIn("13.2 words each, 1 over 40", out.getvalue())

    def test_each_page_has_its_own_budget_of_words_and_of_sources(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            self.assertEqual(prose_stats.main([self.dir, "--max-page-average", "13"]), 1)
            self.assertEqual(prose_stats.main([self.dir, "--max-page-average", "14"]), 0)
            self.assertEqual(prose_stats.main([self.dir, "--max-sources", "0"]), 1)
            self.assertEqual(prose_stats.main([self.dir, "--max-sources", "1"]), 0)
        self.assertIn("ch01.html: sources named 1 times, more than 0", out.getvalue())


if __name__ == "__main__":
    unittest.main()
