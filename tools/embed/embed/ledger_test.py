"""Tests of embed/ledger.py: the ledger and the errata."""

import json
import os
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed import chapters, ledger  # noqa: E402
from embed.book_case import BookCase, PAGE, claim  # noqa: E402


class LedgerTest(BookCase):
    def embedded_ledger_row(self, cid):
        """Saves the report, runs the embed tool (which must succeed) and returns cid's ledger row."""
        self.save_report()
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        ledger = self.read("fragments", "book.ledger.html")
        row = ledger[ledger.index(f'<tr id="{cid}"'):]
        return row[:row.index("</tr>")]

    def test_a_recorded_value_is_shown_as_measured_never_as_passed(self):
        self.report["claims"][0] = claim("MT-01", measured=[
            {"what": "ratio", "measured": "1.5", "expected": ">= 1.15", "compared": True, "ok": True},
            {"what": "noise A vs A", "measured": "1.05", "compared": False}])
        row = self.embedded_ledger_row("MT-01")
        self.assertIn("<summary>1 compared, 1 measured</summary>", row)
        self.assertIn('<li><code>noise A vs A</code>: 1.05 <span class="measured">(measured)</span></li>', row)
        self.assertIn('<code>ratio</code>: 1.5 <span class="expected">(expected &gt;= 1.15)</span>', row)
        values = row[row.index("<details>"):]
        self.assertNotIn("\u2713", values)
        self.assertNotIn("ok", values)
        self.assertIn("noise A vs A: 1.05 (measured)", self.read("99_demo.md"))  # the mark's hover
        mt = {c["id"]: c for c in json.loads(self.read("claims.json"))["claims"]}["MT-01"]
        self.assertEqual(mt["measured"], [
            {"what": "ratio", "measured": "1.5", "expected": ">= 1.15", "compared": True, "ok": True},
            {"what": "noise A vs A", "measured": "1.05", "compared": False}])

    def test_a_quoted_figure_names_its_source_and_a_quoted_claim_is_never_passed(self):
        self.report["claims"][0] = claim("MT-01", status="quoted", kind="quoted", measured=[
            {"what": "bytes", "measured": "16", "expected": "16", "compared": True, "ok": True},
            {"what": "the seed's add(3)", "measured": "1.5 ms", "compared": False,
             "quoted": "nikitaved, PyTorch for Scientists!, In[14]"}])
        row = self.embedded_ledger_row("MT-01")
        self.assertIn("<summary>1 compared, 1 quoted</summary>", row)
        self.assertIn("(quoted from nikitaved, PyTorch for Scientists!, In[14])", row)
        self.assertIn("\u275d quoted", row)
        self.assertIn("no rule of the library enters it", row)
        self.assertNotIn("\u2713", row)
        page = self.read("99_demo.md")
        self.assertIn("the seed&#x27;s add(3): 1.5 ms (quoted from nikitaved", page)
        self.assertIn('class="claim-mark claim-quoted"', page)

    def test_a_value_without_an_expected_value_is_a_record_whatever_it_says(self):
        # An older report (no "compared") or a comparison that names no expected value: neither
        # may be counted as a passed comparison.
        for m in ({"what": "t", "measured": "2", "expected": "", "ok": True},
                  {"what": "t", "measured": "2", "compared": True, "ok": True},
                  {"what": "t", "measured": "2", "expected": "2", "compared": False, "ok": True}):
            self.assertEqual(chapters.measurement(m), {"what": "t", "measured": "2", "compared": False})
            self.assertIn("(measured)", ledger.measured_html({"measured": [m]}))
        self.assertEqual(chapters.measurement({"what": "t", "measured": "2", "expected": "3", "ok": False}),
                         {"what": "t", "measured": "2", "expected": "3", "compared": True, "ok": False})
        self.assertIn("\u2717 <code>t</code>",
                      ledger.measured_html({"measured": [{"what": "t", "measured": "2", "expected": "3",
                                                         "compared": True, "ok": False}]}))

    def test_errata_are_listed_in_catalogue_order(self):
        self.report["claims"].append(claim("ER-03.memset", seed_says="one too many"))
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\nAnd\\claim{ER-03.memset}\n")
        self.save_report()
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        errata = self.read("fragments", "book.errata.html")
        self.assertLess(errata.index("ER-03.memset"), errata.index("ER-14"))


if __name__ == "__main__":
    unittest.main()
