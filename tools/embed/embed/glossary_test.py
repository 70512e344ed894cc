"""Tests of embed/glossary.py: glossary entries and the links to them."""

import os
import re
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed import glossary  # noqa: E402
from embed.book_case import BookCase, PAGE  # noqa: E402


class GlossaryTest(BookCase):
    def test_the_first_use_of_a_term_in_prose_links_to_the_glossary_and_no_other(self):
        page = self.with_glossary(
            "# Demo {#ch99}\n\n## Strides first {#ch99_s}\n\n`strides` and \\f$stride\\f$ and "
            "[stride](x.html) and \\ref ch99_s \"stride\" and *a stride title* come first.\n\n"
            "A tensor is a storage and a layout.\\claim{MT-01} Its strides are \\ch99_strides, its\n"
            "storage\noffset too; a stride is a step.\\claim{MT-03}\n\n\\snippet 99_demo.cpp shown\n\n"
            "\\output{listing}\n\\output{grid}\n\\output{layout}\n\n"
            "A GPU sentence.\\claim{PF-10} Then *strides* again.\\claim{ER-14}\n")
        links = re.findall(r'<a class="book-term" href="([^"]*)"[^>]*>(.*?)</a>', page, re.S)
        self.assertEqual(links, [("glossary.html#gl_stride", "strides"),
                                 ("glossary.html#gl_offset", "storage\noffset")])
        self.assertIn("`strides` and \\f$stride\\f$ and [stride](x.html)", page)
        self.assertIn("## Strides first {#ch99_s}", page)
        self.assertNotIn("\\terms", self.read("glossary.md"))
        self.assertIn("## Stride {#gl_stride}", self.read("glossary.md"))

    def test_a_term_inside_a_quotation_is_not_linked_there(self):
        page = self.with_glossary(PAGE.replace("Its strides are", 'A source says "the strides are\nsteps"; its strides are'))
        self.assertIn('"the strides are\nsteps"', page)
        self.assertIn('title="Stride: see the glossary">strides</a> are', page)

    def test_a_quotation_never_reaches_into_a_mark_after_it(self):
        text = ('It is refused ("\\ch01_error", its words), a copy.\\htmlonly<a title="x shares '
                'the storage">✓</a>\\endhtmlonly Then the strides.')
        terms = {"storage": {"anchor": "gl_storage", "href": "glossary.html#gl_storage", "name": "Storage"},
                 "strides": {"anchor": "gl_stride", "href": "glossary.html#gl_stride", "name": "Stride"}}
        out = glossary.link_terms(text, terms)
        self.assertIn('<a title="x shares the storage">', out)
        self.assertIn('>strides</a>.', out)

    def test_an_emphasised_term_is_linked_with_its_stars_inside(self):
        page = self.with_glossary(PAGE.replace("Its strides are", "Its *strides* are"))
        self.assertIn('title="Stride: see the glossary">*strides*</a>', page)

    def test_a_term_outside_a_heading_with_an_anchor_fails(self):
        self.write(os.path.join(self.docs, "glossary.md"), "# Glossary {#glossary}\n\\terms x\n")
        self.assertFails("glossary.md:2", "\\terms must follow a heading")


if __name__ == "__main__":
    unittest.main()
