"""Tests of embed/machine_note.py: the machine a chapter ran on, said for a reader."""

import os
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed import machine_note  # noqa: E402
from embed.book_case import claim  # noqa: E402


class MachineNoteTest(unittest.TestCase):
    """The note that ends a chapter says what this machine checked, and no more."""
    PROV = {"cpu": "A CPU", "cpu_threads": 2, "os": "Linux", "compiler": "GCC", "flags": "-O2",
            "blas": "OpenBLAS", "gpu": "no GPU", "sizes": "sizes smaller than the seed's",
            "commit": "abc", "date": "today"}

    def test_a_page_whose_claims_all_ran_says_they_were_checked_here(self):
        note = machine_note.machine_note_html(self.PROV, [claim("MT-01")])
        self.assertIn("The claims on this page were checked on this machine, and its numbers were "
                      "measured here", note)
        self.assertNotIn("not run", note.split("</p>")[0])

    def test_claims_not_run_are_excepted_in_the_title(self):
        note = machine_note.machine_note_html(self.PROV, [claim("MT-01"), claim("PF-10", "not run")])
        self.assertIn("but for those marked <em>not run</em>", note.split("</p>")[0])

    def test_quoted_claims_are_excepted_too(self):
        note = machine_note.machine_note_html(self.PROV,
                                       [claim("PF-10", "not run"), claim("ER-12", "quoted")])
        self.assertIn("but for those marked <em>not run</em> or <em>quoted</em>",
                      note.split("</p>")[0])

    def test_each_compiler_flag_stays_on_one_line(self):
        note = machine_note.machine_note_html(dict(self.PROV, flags="-O2 -g -DNDEBUG"), [claim("MT-01")])
        self.assertIn('<span class="book-nowrap">-DNDEBUG</span>', note)

    def test_the_timing_sizes_are_said_only_where_the_page_has_timings(self):
        self.assertNotIn("Timings", machine_note.machine_note_html(self.PROV, [claim("MT-01")]))
        timed = machine_note.machine_note_html(self.PROV, [claim("PF-01", kind="timing (CPU)")])
        self.assertIn("<dt>Timings</dt><dd>sizes smaller than the seed&#x27;s</dd>", timed)


if __name__ == "__main__":
    unittest.main()
