"""Tests of embed/claim_numbers.py: the check that a claim's sentence says its statement's numbers."""

import os
import sys
import time
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed.book_case import BookCase  # noqa: E402


class ClaimNumbersTest(BookCase):
    NUMBERS_PAGE = """# Demo {#ch99}

## Earlier {#ch99_earlier}

\\snippet 99_demo.cpp numbers

## The section {#ch99_section}

A tensor is a storage and a layout.\\claim{MT-01}

\\snippet 99_demo.cpp shown

SENTENCE\\claim{MT-03}

\\output{listing}

A later paragraph says 17408 and 6 and 7.

\\output{grid}

\\output{layout}

A GPU sentence.\\claim{PF-10} The seed's dump reads past the end.\\claim{ER-14}
"""

    def numbers_case(self, statement, sentence, notes=None, caption=None):
        """MT-03 stated as STATEMENT and said by SENTENCE, in a section whose snippet 'shown' holds
        `int x = 1; int y = x;` and after which the output 'listing' is shown; an earlier section
        shows 17408 and 4096. Returns embed's exit code and messages."""
        self.write(self.src, "int main() {\n    //! [shown]\n    int x = 1;\n      int y = x;\n"
                             "    //! [shown]\n    //! [numbers]\n    int n = 17408 + 4096;\n"
                             "    //! [numbers]\n}\n")
        old = time.time() - 100
        os.utime(self.src, (old, old))
        self.report["claims"][1]["statement"] = statement
        if caption is not None:
            self.report["outputs"][1]["caption"] = caption
        self.save_report()
        self.write(os.path.join(self.docs, "99_demo.md"),
                   self.NUMBERS_PAGE.replace("SENTENCE", sentence))
        extra = []
        if notes is not None:
            path = os.path.join(self.root, "claim_numbers.txt")
            self.write(path, "# reviewed\n" + notes)
            extra = ["--claim-numbers", path]
        return self.run_embed(*extra)

    def test_a_sentence_that_contradicts_its_statements_shape_fails(self):
        # The defect that asked for this check: text of a 32³ cube beside a caption of 64³.
        rc, err = self.numbers_case("An add over a 32³ cube reads 32768 floats.",
                                    "An add over a 64³ cube reads 32768 floats.")
        self.assertEqual(rc, 1, err)
        self.assertIn("99_demo.md:13: claim MT-03: the sentence says 64³ where the statement says 32³",
                      err)
        for said in ("a 64×64×64 cube", "4 MiB", "a 2×4 matrix"):
            rc, err = self.numbers_case("A 32×32×32 cube of float32 (128 KiB), a 2×3 matrix.",
                                        f"A 32³ cube takes 128 KiB; {said} is the case; 2×3.")
            self.assertEqual(rc, 1, said)
            self.assertIn("claim MT-03: the sentence says", err)
        rc, err = self.numbers_case("A 32×32×32 cube of float32 (128 KiB), a 2×3 matrix.",
                                    "A 32³ cube of float32 takes 131,072 bytes, 128 KiB; a 2×3 one.")
        self.assertEqual(rc, 0, err)

    def test_a_caption_that_contradicts_its_claims_statement_fails(self):
        rc, err = self.numbers_case("An add over a 32³ cube.", "An add over a 32³ cube.",
                                    caption="add over a 64³ cube")
        self.assertEqual(rc, 1, err)
        self.assertIn("99_demo.cpp: the caption of output 'grid' says 64³ where the statement of "
                      "claim MT-03 says 32³", err)

    def test_a_number_of_the_statement_missing_from_the_sentence_fails(self):
        # The other defect: "close to 3072 misses" beside a claim of 17408.
        rc, err = self.numbers_case("The blocked loop misses 17408 times.",
                                    "The blocked loop misses close to 3072 times.")
        self.assertEqual(rc, 1, err)
        self.assertIn("99_demo.md:13: claim MT-03 states 17408, which its paragraph does not say", err)
        self.assertFalse(os.path.exists(self.pages))

    def test_only_the_paragraph_and_what_its_section_shows_up_to_its_end_count(self):
        # 17408 is in a later paragraph and in an earlier section's snippet; 6 and 7 in a later
        # paragraph of the same section: none of them is beside the mark.
        for number in ("17408", "4096", "6", "7"):
            rc, err = self.numbers_case(f"It is {number}.", "It is that number.")
            self.assertEqual(rc, 1, number)
            self.assertIn(f"claim MT-03 states {number}", err)
        # The snippet before the paragraph shows 1; the output right after it shows 0 ("<script>"
        # has none, but "alert(1)" has 1); words count.
        rc, err = self.numbers_case("x is 1, and an add reads 2 floats and 3 lines.",
                                    "x is as shown; an add reads twice, three times as many.")
        self.assertEqual(rc, 0, err)

    def test_numbers_are_found_in_every_form_a_reader_meets_them(self):
        self.report["values"]["lines"] = "65536"
        self.report["values"]["neg"] = "\u22121"
        statement = ("A 1024×1024 matrix misses 65,536 lines, 2^26 bytes, stride −1, "
                     "strides (2·3·4, 3·4, 4, 1) = (24, 12, 4, 1), ratio 1.50, 0x3E8.")
        for sentence in (
                "A 1024 \\f$\\times\\f$ 1024 matrix misses \\ch99_lines lines, \\f$2^{26}\\f$ bytes, "
                "stride \\ch99_neg, strides \\f$(2 \\cdot 3 \\cdot 4, 3 \\cdot 4, 4, 1)\\f$, ratio "
                "1.5, 0x3e8.",
                "A 1024² matrix misses 65\\,536 lines, 67,108,864 bytes, stride -1, strides "
                "(24, 12, 4, 1), 2·3·4 and 3·4, ratio 1.5, 0x3E8.",
                "A 1024×1024 matrix misses 65{,}536 lines, 2<sup>26</sup> bytes, stride \u22121, "
                "strides (24,12,4,1), i.e. 2·3·4 and 3·4, ratio 1.5, 0x3E8."):
            rc, err = self.numbers_case(statement, sentence)
            self.assertEqual(rc, 0, f"{sentence}\n{err}")
        rc, err = self.numbers_case(statement, "A 1024×1024 matrix, 2^26 bytes, stride 1 (24, 12, "
                                               "4, 1), 2·3·4 and 3·4, ratio 1.5, 0x3E8: 65,536.")
        self.assertEqual(rc, 1, err)
        self.assertIn("claim MT-03 states -1", err)  # a sign is part of the number

    def test_a_noted_paraphrase_passes_and_a_note_no_longer_needed_fails(self):
        statement = "The blocked loop misses 17408 times, a 32³ cube."
        sentence = "The blocked loop misses \\ch99_strides times, over a 32³ cube (64 KiB)."
        rc, err = self.numbers_case(statement, sentence)
        self.assertEqual(rc, 1, err)
        self.assertIn("claim MT-03 states 17408", err)
        rc, err = self.numbers_case(statement, sentence,
                                    notes="MT-03 17408: said by the mark's hover\n")
        self.assertEqual(rc, 0, err)
        rc, err = self.numbers_case(statement, sentence.replace("\\ch99_strides", "17,408"),
                                    notes="MT-03 17408: said by the mark's hover\n")
        self.assertEqual(rc, 1, err)
        self.assertIn("claim_numbers.txt:2: claim MT-03's sentence (docs/99_demo.md:13) says 17408 "
                      "already: remove this line", err)
        # A value of this run that happens to equal the number (a timing of 1.50 beside a floor of
        # 1.5) may differ on another machine: only the page's own text makes a line unneeded.
        self.report["values"]["ratio"] = "1.50"
        rc, err = self.numbers_case("The loop takes at least 1.5 times as long.",
                                    "The loop takes \\ch99_ratio times as long.",
                                    notes="MT-03 1.5: the floor, left to the mark\n")
        self.assertEqual(rc, 0, err)
        # A shape or size of the sentence that the statement lacks: allowed by a note, once it is
        # one that contradicts.
        statement = "A 32³ cube misses 17408 times in 32 KiB."
        sentence = "A 32³ cube, 64 KiB of lines, misses 17408 times in 32 KiB."
        rc, err = self.numbers_case(statement, sentence)
        self.assertEqual(rc, 1, err)
        self.assertIn("the sentence says 64 KiB where the statement says 32 KiB", err)
        rc, err = self.numbers_case(statement, sentence,
                                    notes="MT-03 64 KiB: the cube's lines, not a cache\n")
        self.assertEqual(rc, 0, err)

    def test_a_note_must_name_a_number_a_claim_and_a_reason(self):
        statement = "The blocked loop misses 17408 times."
        sentence = "The blocked loop misses 17408 times."
        for note, words in (("MT-03 99: never said\n", "99 is neither a number of claim MT-03"),
                            ("MT-77 17408: no such claim\n", "claim MT-77 is not checked"),
                            ("MT-03 17408\n", "a line must read"),
                            ("MT-03 a lot: said\n", "'a lot' is not one number"),
                            ("MT-03 1 2: two\n", "'1 2' is not one number")):
            rc, err = self.numbers_case(statement, sentence, notes=note)
            self.assertEqual(rc, 1, note)
            self.assertIn("claim_numbers.txt:2", err)
            self.assertIn(words, err)


if __name__ == "__main__":
    unittest.main()
