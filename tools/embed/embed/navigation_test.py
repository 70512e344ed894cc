"""Tests of embed/navigation.py: chapter numbers and previous/next links."""

import os
import re
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed.book_case import BookCase, PAGE  # noqa: E402


class NavigationTest(BookCase):
    def test_a_chapter_is_numbered_from_its_file_name_wherever_it_is_named(self):
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        self.assertTrue(self.read("99_demo.md").startswith("# Chapter 99 \u00b7 Demo {#ch99}\n"))
        self.assertIn(">Chapter 99 \u00b7 Demo</a>", self.read("fragments", "book.ledger.html"))
        self.assertTrue(self.read("index.md").startswith("# Book {#mainpage}"))  # not a chapter

    def test_previous_and_next_follow_the_front_pages_order_at_top_and_bottom(self):
        page = self.with_glossary(PAGE)
        bars = re.findall(r'<nav class="book-nav book-nav-(top|bottom)".*?</nav>', page)
        self.assertEqual(bars, ["top", "bottom"])
        self.assertIn('rel="prev" href="index.html"', page)
        self.assertIn('rel="next" href="glossary.html"', page)
        self.assertIn("Chapter 99 \u00b7 Demo", self.read("glossary.md"))  # the glossary's "previous"
        self.assertEqual(page.split("\n")[2][:len("\\htmlonly[block]<nav")], "\\htmlonly[block]<nav")
        self.assertTrue(page.rstrip().endswith("</nav>\\endhtmlonly"))
        index = self.read("index.md")
        self.assertIn('rel="next" href="ch99.html"', index)
        self.assertNotIn('rel="prev"', index)
        self.assertNotIn('rel="next"', self.read("glossary.md"))


if __name__ == "__main__":
    unittest.main()
