"""Tests of embed/mutation_record.py: the mutation record on the ledger, and its staleness."""

import json
import os
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed.book_case import BookCase, HERE  # noqa: E402


class MutationRecordTest(BookCase):
    def mutation_record(self, **change):
        sys.path.insert(0, os.path.join(HERE, "..", "mutate"))
        import mutants
        sys.path.pop(0)
        claims = {c["id"]: mutants.statement_digest(c["statement"])
                  for c in self.report["claims"] if c.get("kind", "exact") in ("exact", "model")}
        record = {"format": 1, "catalogue": mutants.catalogue_digest(), "commit": "abc123",
                  "claims": claims,
                  "mutants": [{"id": "slice-start", "rule": "slice ignores its start",
                               "kills": ["MT-01"]}]}
        record.update(change)
        path = os.path.join(self.root, "record.json")
        self.write(path, json.dumps(record))
        return path

    def test_the_mutants_that_kill_a_claim_are_on_the_ledger_and_in_claims_json(self):
        rc, err = self.run_embed("--mutants", self.mutation_record())
        self.assertEqual(rc, 0, err)
        ledger = self.read("fragments", "book.ledger.html")
        self.assertIn("fails if slice ignores its start", ledger)
        self.assertIn("no mutant yet", ledger)  # MT-03: the record says nothing kills it
        data = json.loads(self.read("claims.json"))
        by_id = {c["id"]: c for c in data["claims"]}
        self.assertEqual(by_id["MT-01"]["killed_by"],
                         [{"id": "slice-start", "rule": "slice ignores its start"}])
        self.assertEqual(by_id["MT-03"]["killed_by"], [])

    def test_a_claim_reworded_since_the_mutation_record_fails_the_build(self):
        record = self.mutation_record()  # made for the wording as it was
        self.report["claims"][0]["statement"] += " (reworded)"
        self.save_report()
        rc, err = self.run_embed("--mutants", record)
        self.assertEqual(rc, 1, err)
        self.assertIn("claim MT-01 is worded differently", err)
        self.assertIn("run tools/book mutate", err)

    def test_an_exact_claim_that_needs_a_gpu_is_left_out_of_the_record(self):
        record = self.mutation_record()  # made before the claim needed a GPU: it names MT-01
        self.report["claims"][0]["needs_gpu"] = True
        self.save_report()
        rc, err = self.run_embed("--mutants", record)
        self.assertEqual(rc, 0, err)  # the record's extra MT-01 names a claim that still exists
        path = os.path.join(self.root, "record.json")
        data = json.load(open(path))
        del data["claims"]["MT-01"]  # as tools/book mutate writes it: --kind exact,model
        self.write(path, json.dumps(data))
        rc, err = self.run_embed("--mutants", path)
        self.assertEqual(rc, 0, err)
        self.assertNotIn("MT-01 is new", err)

    def test_a_record_of_another_mutant_catalogue_fails_the_build(self):
        rc, err = self.run_embed("--mutants", self.mutation_record(catalogue="0" * 16))
        self.assertEqual(rc, 1, err)
        self.assertIn("mutant catalogue", err)

    def test_a_missing_mutation_record_fails_the_build(self):
        rc, err = self.run_embed("--mutants", os.path.join(self.root, "nothing.json"))
        self.assertEqual(rc, 1, err)
        self.assertIn("no mutation record", err)


if __name__ == "__main__":
    unittest.main()
