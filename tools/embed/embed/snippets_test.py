"""Tests of embed/snippets.py: listings, their margins, and their PyTorch tabs."""

import os
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed.book_case import BookCase, PAGE  # noqa: E402


class SnippetsTest(BookCase):
    def test_snippets_are_shown_from_a_copy_moved_to_their_own_margin(self):
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.read("sources", "99_demo.cpp"),
                         "int main() {\n    //! [shown]\nint x = 1;\n  int y = x;\n    //! [shown]\n}\n")

    def test_a_snippet_the_source_lacks_fails(self):
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\snippet 99_demo.cpp gone\n")
        self.assertFails("99_demo.md", "no //! [gone] block in 99_demo.cpp")

    def test_a_section_files_listing_is_shown_by_its_path(self):
        part = self.with_section_file()
        rc, err = self.run_embed("--chapter", f"99_demo={part}")
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.read("sources", "99_demo", "part.cpp"),
                         "void part() {\n  //! [part]\nint z = 2;\n  //! [part]\n}\n")
        self.assertIn("\\snippet 99_demo/part.cpp part", self.read("99_demo.md"))

    def test_a_listing_of_a_section_file_not_given_fails(self):
        self.with_section_file()
        self.assertFails("99_demo.md", "\\snippet 99_demo/part.cpp: not a chapter's source")

    def test_one_listing_name_in_two_files_of_a_chapter_fails(self):
        part = self.with_section_file(block="shown")
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE)
        rc, err = self.run_embed("--chapter", f"99_demo={part}")
        self.assertEqual(rc, 1, err)
        self.assertIn("listing shown of chapter 99_demo is also a //! [shown] block of 99_demo.cpp",
                      err)

    def test_a_section_file_with_the_companion_shows_tabs(self):
        self.with_companion()
        part = self.with_section_file()
        self.write(os.path.splitext(self.src)[0] + ".py",
                   self.COMPANION + "# [part]\nz = 2\n# [part]\n")
        rc, err = self.run_embed("--chapter", f"99_demo={part}")
        self.assertEqual(rc, 0, err)
        page = self.read("99_demo.md")
        self.assertIn("\\snippet 99_demo.py part", page)
        self.assertEqual(page.count('<div class="book-tabs"'), 2)

    def test_each_listing_shows_pytorch_first_then_cpp_in_tabs(self):
        self.with_companion()
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        page = self.read("99_demo.md")
        tabs = page[page.index('<div class="book-tabs"'):]
        self.assertLess(tabs.index('data-lang="pytorch"'), tabs.index('data-lang="cpp"'))
        self.assertLess(tabs.index("\\snippet 99_demo.py shown"), tabs.index("\\snippet 99_demo.cpp shown"))
        self.assertIn('aria-selected="true">PyTorch</button>', tabs)
        # The companion is shown as \\snippet shows the C++: beside it, each block at its margin.
        self.assertIn("x = torch.ones(n)\n  # deeper\n", self.read("sources", "99_demo.py"))

    def test_a_listing_with_no_pytorch_form_fails_naming_chapter_and_listing(self):
        self.with_companion()
        self.write(os.path.splitext(self.src)[0] + ".py", "import torch\n")
        self.assertFails("99_demo.md", "chapter 99_demo, listing shown: no PyTorch form")


if __name__ == "__main__":
    unittest.main()
