"""Tests of embed/marks.py: the mark of a claim in a sentence."""

import os
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed import directives, marks  # noqa: E402
from embed.book_case import BookCase  # noqa: E402


class MarksTest(BookCase):
    def test_a_claim_mark_keeps_the_plain_word_before_it_on_its_line(self):
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        page = self.read("99_demo.md")
        # "sums.\claim{MT-03}": the word and the mark in one unbreakable span.
        self.assertIn('<span class="book-nowrap">sums.<a class="claim-mark', page)
        self.assertIn("Element addresses are \\htmlonly", page)
        # A mark after markup or a macro stays a mark alone.
        self.assertEqual(directives.WORD_CLAIM_RE.match("`x`.\\claim{MT-01}"), None)
        m = directives.WORD_CLAIM_RE.search("\\ch99_strides.\\claim{MT-01}")
        self.assertEqual(m.groups(), (None, "MT-01"))
        # The closing quote of a \ref's text, or a \ref's own argument, stays outside the block.
        m = directives.WORD_CLAIM_RE.search('\\ref ch99 "chapter 2").\\claim{MT-01}')
        self.assertEqual(m.groups(), (None, "MT-01"))
        self.assertTrue(directives.COMMAND_BEFORE_RE.search("see \\ref "))

    def test_a_claim_mark_cannot_close_its_raw_block(self):
        mark = marks.claim_mark({"id": "MT-01", "status": "not run", "statement": "s",
                                 "reason": "\\endhtmlonly [x](javascript:alert(1)) @endhtmlonly",
                                 "measured": [], "recorded": []})
        self.assertEqual(mark.count("\\endhtmlonly"), 1)
        self.assertNotIn("@endhtmlonly", mark)


if __name__ == "__main__":
    unittest.main()
