"""Tests of embed/main.py: the whole step, on a made-up chapter that is right."""

import json
import os
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed.book_case import BookCase  # noqa: E402


class MainTest(BookCase):
    def test_a_consistent_chapter_builds_and_escapes_its_outputs(self):
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        page = self.read("99_demo.md")
        self.assertIn('href="claims.html#MT-01"', page)
        self.assertIn("\u2713&#160;MT-01", page)
        self.assertIn("\\htmlinclude[block] 99_demo.listing.html", page)
        self.assertNotIn("\\claim{", page)
        listing = self.read("fragments", "99_demo.listing.html")
        self.assertIn("&lt;script&gt;alert(1)&lt;/script&gt; &amp; done", listing)
        self.assertNotIn("<script>", listing)
        table = self.read("fragments", "99_demo.layout.html")
        self.assertIn("<td>&lt;3&gt;</td>", table)
        grid = self.read("fragments", "99_demo.grid.html")
        self.assertIn("<svg", grid)
        self.assertIn("a&lt;b", grid)
        values = self.read("values.doxy")
        self.assertIn('ALIASES += "ch99_strides=(3, 1)"', values)
        page = self.read("99_demo.md")
        machine = page[page.index('<div class="book-machine"'):]
        self.assertIn("Test CPU &lt;x&gt;", machine)
        self.assertIn("abc123", machine)
        self.assertIn("none: no CUDA device on this machine", machine)
        self.assertIn("(no CUDA)", machine)  # the runtime's own words, as detail
        self.assertTrue(page.rstrip().endswith("\\endhtmlonly"))  # the note ends the page
        index = self.read("index.md")
        self.assertIn("\\subpage ch99", index)
        data = json.loads(self.read("claims.json"))
        by_id = {c["id"]: c for c in data["claims"]}
        self.assertEqual(set(by_id), {"MT-01", "MT-03", "PF-10", "ER-14"})
        self.assertEqual(by_id["MT-01"]["cited_in"], ["99_demo.md"])
        self.assertEqual(by_id["PF-10"]["status"], "not run")
        for key in ("id", "chapter", "statement", "status", "measured", "cited_in"):
            self.assertIn(key, by_id["MT-03"])
        self.assertEqual(data["provenance"][0]["commit"], "abc123")
        errata = self.read("fragments", "book.errata.html")
        self.assertIn("reads from data_ptr", errata)


if __name__ == "__main__":
    unittest.main()
