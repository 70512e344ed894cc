"""Tests of versions.py: the versions page."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import versions  # noqa: E402


class VersionsTest(unittest.TestCase):
    def test_a_long_answer_reworded_at_its_end_shows_the_end(self):
        words = "RuntimeError: " + "one of the variables was modified in place; " * 4 + "Hint: "
        texts = versions.shown_texts([{"error": words + "anomaly(True)."}, None,
                                      {"error": words + "anomaly(True, check_nan=False)."}])
        self.assertTrue(texts[0].startswith("\u2026") and texts[0].endswith("anomaly(True)."), texts)
        self.assertTrue(texts[2].endswith("anomaly(True, check_nan=False)."), texts)
        self.assertEqual(texts[1], "not recorded")


if __name__ == "__main__":
    unittest.main()
