#!/usr/bin/env python3
"""Every mutant of tools/mutate/mutants.py still applies: its function is defined in its file, its
`find` text occurs exactly once in that function's body, and replacing it changes the text. A
reformat or an edit that moves the text would otherwise be noticed only by a full
`tools/book mutate`, which the reader's tests do not run. Also checks that IDs are unique and that
each mutant says what rule it breaks. Standard library only.
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import cpp_functions  # noqa: E402
from mutants import MUTANTS  # noqa: E402


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


class MutantsApply(unittest.TestCase):
    def test_each_find_text_occurs_once_in_its_function(self):
        for m in MUTANTS:
            with self.subTest(mutant=m["id"]):
                path = os.path.join(ROOT, m["file"])
                self.assertTrue(os.path.isfile(path), f"{m['file']} does not exist")
                text = read(path)
                self.assertTrue(cpp_functions.bodies(text, m["function"]),
                                f"{m['id']}: {m['file']} defines no function {m['function']}")
                n = len(cpp_functions.occurrences(text, m["function"], m["find"]))
                self.assertEqual(n, 1, f"{m['id']}: its text occurs {n} times in "
                                       f"{m['function']} of {m['file']} (it must occur once)")
                self.assertNotEqual(m["find"], m["replace"], f"{m['id']} changes nothing")

    def test_ids_unique_and_rules_said(self):
        ids = [m["id"] for m in MUTANTS]
        self.assertEqual(len(ids), len(set(ids)), "mutant IDs repeat")
        for m in MUTANTS:
            self.assertTrue(m.get("rule", "").strip(), f"{m['id']} says no rule")
            self.assertTrue(m.get("function", "").strip(), f"{m['id']} names no function")


if __name__ == "__main__":
    unittest.main()
