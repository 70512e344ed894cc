#!/usr/bin/env python3
"""cpp_functions finds a function's body by its name, past the C++ that could mislead it."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cpp_functions as cf  # noqa: E402

SOURCE = r'''
int64_t wrap(int64_t a);  // a declaration: no body
int64_t wrap(int64_t a) { return a < 0 ? a + 1 : a; }
Layout slice_geometry(const Layout& layout, int64_t dim) {
  const char* s = "} not the end {";  // nor is this }
  /* nor { this */
  if (dim < 0) dim += wrap(dim);
  auto f = [&](int64_t x) { return x + 1; };
  return Layout(f(dim));
}
Tensor::Tensor(Storage storage, Layout layout) : storage_(std::move(storage)), layout_{layout} {
  check(layout_);
}
int64_t Tensor::size(int64_t d) const noexcept(false) { return sizes()[wrap(d)]; }
Shape squeeze(IntList a) { return a.vec(); }
Shape squeeze(IntList a, int64_t d) { return a.vec(); }
'''


class Definitions(unittest.TestCase):
    def test_names_and_bodies(self):
        names = [n for n, _, _ in cf.definitions(SOURCE)]
        self.assertEqual(names, ["wrap", "slice_geometry", "Tensor::Tensor", "Tensor::size",
                                 "squeeze", "squeeze"])

    def test_a_body_runs_to_its_own_brace(self):
        (b, e), = cf.bodies(SOURCE, "slice_geometry")
        body = SOURCE[b:e]
        self.assertTrue(body.startswith("{\n  const char*"))
        self.assertTrue(body.endswith("return Layout(f(dim));\n}"))

    def test_qualified_and_plain_names(self):
        self.assertEqual(len(cf.bodies(SOURCE, "Tensor::size")), 1)
        self.assertEqual(len(cf.bodies(SOURCE, "size")), 1)
        self.assertEqual(cf.bodies(SOURCE, "Other::size"), [])
        self.assertIn("check(layout_)", SOURCE[slice(*cf.bodies(SOURCE, "Tensor::Tensor")[0])])

    def test_occurrences_count_every_overload_and_nothing_outside(self):
        self.assertEqual(len(cf.occurrences(SOURCE, "squeeze", "return a.vec();")), 2)
        self.assertEqual(len(cf.occurrences(SOURCE, "wrap", "wrap(")), 0)  # calls lie elsewhere
        self.assertEqual(len(cf.occurrences(SOURCE, "slice_geometry", "wrap(dim)")), 1)

    def test_enclosing_is_the_innermost_named_definition(self):
        at = SOURCE.index("x + 1")  # inside a lambda, inside slice_geometry
        self.assertEqual(cf.enclosing(SOURCE, at), "slice_geometry")
        self.assertIsNone(cf.enclosing(SOURCE, SOURCE.index("int64_t wrap(int64_t a);")))


if __name__ == "__main__":
    unittest.main()
