"""Tests of embed/page.py: the directives of a page and what they must name."""

import os
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed.book_case import BookCase, PAGE  # noqa: E402


class PageTest(BookCase):
    def test_removing_a_check_fails_naming_the_page_and_the_claim(self):
        self.report["claims"] = [c for c in self.report["claims"] if c["id"] != "MT-03"]
        self.save_report()
        self.assertFails("99_demo.md:5", "claim MT-03 is cited but no chapter checks it")

    def test_removing_a_referenced_output_fails_naming_the_output_and_its_claim(self):
        os.remove(os.path.join(self.chout, "grid.svg"))
        self.assertFails("99_demo.md:9", "output 'grid'", "claim MT-03", "missing")

    def test_an_output_the_chapter_never_made_fails(self):
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\output{nothing}\n")
        self.assertFails("99_demo.md", "output 'nothing'", "missing")

    def test_a_bare_id_in_prose_must_name_a_check(self):
        self.write(os.path.join(self.docs, "index.md"), "# Book {#mainpage}\n\nSee MT-77.\n")
        self.assertFails("index.md:3", "claim MT-77 is mentioned but no chapter checks it")

    def test_a_quoted_value_must_exist(self):
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\nIt is \\ch99_nothing.\n")
        self.assertFails("99_demo.md", "value \\ch99_nothing")

    def test_a_value_starting_a_line_before_a_full_stop_is_refused(self):
        # "\\ch99_count. Next" would render as "2. Next", a numbered list item.
        self.report["values"]["count"] = "2"
        self.save_report()
        self.write(os.path.join(self.docs, "99_demo.md"),
                   PAGE + "\nThe count is\n\\ch99_count. That is all.\n")
        self.assertFails("99_demo.md", "\\ch99_count starts the line", "numbered list")

    def test_a_ref_whose_text_runs_over_a_line_break_fails(self):
        self.write(os.path.join(self.docs, "99_demo.md"),
                   PAGE + '\nSee \\ref ch99 "the demo\nchapter" here.\n\nDone.\n')
        self.assertFails("99_demo.md", "quoted text must end on the line it starts")

    def test_a_reference_naming_the_wrong_chapter_number_fails(self):
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + '\nAs \\ref ch99 "chapter 98" says.\n')
        self.assertFails("99_demo.md:17", "names chapter 98, but ch99 is chapter 99")

    def test_a_chapter_that_ends_on_an_output_fails(self):
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\output{listing}\n")
        self.assertFails("99_demo.md", "a chapter ends on prose")


if __name__ == "__main__":
    unittest.main()
