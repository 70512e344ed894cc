"""Tests of embed/number_forms.py: numbers in the forms prose writes them."""

import os
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed import number_forms  # noqa: E402
from embed.book_case import BookCase  # noqa: E402


class NumberFormsTest(BookCase):
    def test_number_helpers(self):
        self.assertEqual(list(number_forms.statement_numbers("t[i0,…,iN−1] of float32 at (0,2,2) is "
                                                      "−1, 65,536 and 2^26 (MT-03), x.add_(1)")),
                         ["1", "0", "2", "-1", "65536", "2^26"])  # iN−1: N minus 1
        self.assertIn("67108864", number_forms.statement_numbers("2^26")["2^26"][1])
        found = number_forms.context_numbers("a 32³ cube, 2·3·4 and 1024 \\times 1024, half, (64,512)")
        for key in ("32^3", "32768", "32", "24", "1048576", "1024^2", "2", "0.5", "64512", "64",
                    "512"):
            self.assertIn(key, found)
        self.assertEqual(number_forms.contradictions("64³ and 32³ and 2×3", "a 32×32×32 cube"),
                         [("shape:64×64×64", "64³", "32×32×32")])
        self.assertEqual(number_forms.contradictions("a 2×3 matrix, 8 MiB", "a 32³ cube"), [])
        # A rate is no size: 716 GB/s beside a 16 MiB output contradicts nothing.
        self.assertEqual(number_forms.contradictions("716 GB/s, 16 MiB", "a 16 MiB output"), [])
        self.assertEqual(number_forms.contradictions("716 GB, 16 MiB", "a 16 MiB output"),
                         [("size:716000000000", "716 GB", "16 MiB")])


if __name__ == "__main__":
    unittest.main()
