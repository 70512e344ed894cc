"""Tests of embed/chapters.py: a chapter's report, its age and its claims."""

import os
import sys
import time
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed.book_case import BookCase, PAGE, claim  # noqa: E402


class ChaptersTest(BookCase):
    def test_an_output_older_than_a_section_file_fails(self):
        part = self.with_section_file()
        os.utime(part, None)  # the section file changed after the chapter ran
        old = time.time() - 50
        os.utime(os.path.join(self.chout, "grid.svg"), (old, old))
        os.utime(os.path.join(self.chout, "report.json"), None)
        rc, err = self.run_embed("--chapter", f"99_demo={part}")
        self.assertEqual(rc, 1, err)
        self.assertIn("older than the chapter's source", err)

    def test_removing_a_claim_id_from_the_text_fails_naming_the_source_and_the_claim(self):
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE.replace("\\claim{MT-03}", ""))
        self.assertFails("99_demo.cpp", "claim MT-03 is checked but no page cites it")

    def test_a_report_older_than_the_source_fails(self):
        old = time.time() - 200
        os.utime(os.path.join(self.chout, "report.json"), (old, old))
        self.assertFails("99_demo.cpp", "older than its source")

    def test_a_missing_report_fails(self):
        os.remove(os.path.join(self.chout, "report.json"))
        self.assertFails("99_demo.cpp", "no report")

    def test_a_failed_claim_fails_the_build_with_its_values(self):
        self.report["claims"][0] = claim("MT-01", status="failed", measured=[
            {"what": "strides", "measured": "(1, 2)", "expected": "(3, 1)", "compared": True,
             "ok": False}])
        self.save_report()
        self.assertFails("99_demo.cpp", "claim MT-01 failed", "strides: (1, 2) (expected (3, 1))")


if __name__ == "__main__":
    unittest.main()
