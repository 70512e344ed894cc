"""Tests of embed/svg.py: figures rewritten from an allowlist."""

import os
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed.book_case import BookCase, SVG  # noqa: E402


class SvgTest(BookCase):
    def test_a_script_in_a_figure_is_refused(self):
        self.write(os.path.join(self.chout, "grid.svg"),
                   SVG.replace("</svg>", "<script>alert(1)</script></svg>"))
        self.assertFails("grid.svg", "disallowed element <script>")

    def test_an_event_handler_or_outside_reference_in_a_figure_is_refused(self):
        self.write(os.path.join(self.chout, "grid.svg"),
                   SVG.replace('<rect ', '<rect onclick="x()" stroke="url(https://e.x/a)" '))
        err = self.assertFails("grid.svg", "onclick")
        self.assertIn("refers outside itself", err)

    def test_css_and_entities_in_a_figure_are_refused(self):
        for evil, expected in [
                ('<rect style="background-image:\\75 rl(https://e.x/a.png)" ', "'style'"),
                ('<rect clip-path="\\75 rl(https://e.x/a.png)" ', "holds"),
        ]:
            self.write(os.path.join(self.chout, "grid.svg"), SVG.replace("<rect ", evil, 1))
            self.assertFails("grid.svg", expected)
        self.write(os.path.join(self.chout, "grid.svg"),
                   '<!DOCTYPE svg [<!ENTITY a "b">]>' + SVG)
        self.assertFails("grid.svg", "DOCTYPE or entity")


if __name__ == "__main__":
    unittest.main()
