#!/usr/bin/env python3
"""Every mutant of tools/mutate/mutants.py still applies: its `find` text occurs exactly once in its
file, and replacing it changes the file. A reformat or an edit that moves the text would otherwise
be noticed only by a full `tools/book mutate`, which the reader's tests do not run. Also checks
that IDs are unique and that each mutant says what rule it breaks. Standard library only.
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from mutants import MUTANTS  # noqa: E402


class MutantsApply(unittest.TestCase):
    def test_each_find_text_occurs_once(self):
        for m in MUTANTS:
            with self.subTest(mutant=m["id"]):
                path = os.path.join(ROOT, m["file"])
                self.assertTrue(os.path.isfile(path), f"{m['file']} does not exist")
                text = open(path, encoding="utf-8").read()
                self.assertEqual(text.count(m["find"]), 1,
                                 f"{m['id']}: its text occurs {text.count(m['find'])} times in "
                                 f"{m['file']} (it must occur once)")
                self.assertNotEqual(m["find"], m["replace"], f"{m['id']} changes nothing")

    def test_ids_unique_and_rules_said(self):
        ids = [m["id"] for m in MUTANTS]
        self.assertEqual(len(ids), len(set(ids)), "mutant IDs repeat")
        for m in MUTANTS:
            self.assertTrue(m.get("rule", "").strip(), f"{m['id']} says no rule")


if __name__ == "__main__":
    unittest.main()
