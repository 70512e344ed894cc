#!/usr/bin/env python3
"""Tests of the embed tool: a made-up chapter, its report and its page, broken one way at a time.

Each broken case must stop the build (exit 1) with a message naming the file and the claim.
"""

import contextlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import embed  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">'
       '<title>t &amp; u</title><rect x="0" y="0" width="10" height="10" fill="currentColor"/>'
       '<text x="1" y="9">a&lt;b</text></svg>')

PAGE = """# Demo {#ch99}

A tensor is a storage and a layout.\\claim{MT-01} Its strides are \\ch99_strides.

Element addresses are sums.\\claim{MT-03}

\\output{listing}

\\output{grid}

\\output{layout}

\\snippet 99_demo.cpp shown

A GPU sentence.\\claim{PF-10} The seed's dump reads past the end.\\claim{ER-14}
"""


def claim(cid, status="passed", measured=None, **extra):
    return dict({"id": cid, "section": "s", "statement": f"Statement of {cid}.", "kind": "exact",
                 "needs_gpu": False, "status": status, "reason": "",
                 "measured": measured or [{"what": "x", "measured": "1", "expected": "1", "compared": True,
                                           "ok": True}],
                 "outputs": [], "seconds": 0.0}, **extra)


class EmbedTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="embed-test-")
        self.docs = os.path.join(self.root, "docs")
        self.out = os.path.join(self.root, "out")
        self.pages = os.path.join(self.root, "pages")
        self.src = os.path.join(self.root, "chapters", "99_demo.cpp")
        self.chout = os.path.join(self.out, "99_demo")
        for d in (self.docs, self.chout, os.path.dirname(self.src)):
            os.makedirs(d)
        self.write(self.src, "int main() {\n    //! [shown]\n    int x = 1;\n      int y = x;\n    //! [shown]\n}\n")
        old = time.time() - 100
        os.utime(self.src, (old, old))
        self.report = {
            "format": 1, "chapter": "99_demo", "title": "Demo", "source": self.src,
            "provenance": {"compiler": "GCC 12", "flags": "-O2", "cpu": "Test CPU <x>", "cpu_threads": 2,
                           "gpu": "no GPU", "gpu_reason": "no CUDA", "cuda_runtime": "none",
                           "gpu_plain": "no CUDA device on this machine",
                           "commit": "abc123", "date": "2025-01-01T00:00:00Z"},
            "sections": [{"id": "s", "title": "S"}],
            "claims": [claim("MT-01"), claim("MT-03"),
                       claim("PF-10", status="not run", measured=[], reason="no CUDA device"),
                       claim("ER-14", seed_says="reads from data_ptr")],
            "outputs": [
                {"name": "listing", "kind": "text", "file": "listing.txt", "caption": "", "claim": "MT-03"},
                {"name": "grid", "kind": "figure", "file": "grid.svg", "caption": "A grid", "claim": "MT-03"},
                {"name": "layout", "kind": "table", "file": "layout.table.json", "caption": "", "claim": ""},
            ],
            "values": {"strides": "(3, 1)"},
        }
        self.write(os.path.join(self.chout, "listing.txt"), "<script>alert(1)</script> & done\n")
        self.write(os.path.join(self.chout, "grid.svg"), SVG)
        self.write(os.path.join(self.chout, "layout.table.json"),
                   json.dumps({"caption": "", "header": ["dim", "stride"], "rows": [["0", "<3>"]]}))
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE)
        self.write(os.path.join(self.docs, "index.md"), "# Book {#mainpage}\n\n\\book{chapters}\n")
        self.save_report()

    def tearDown(self):
        shutil.rmtree(self.root)

    def write(self, path, text):
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def read(self, *parts):
        with open(os.path.join(self.pages, *parts), encoding="utf-8") as f:
            return f.read()

    def save_report(self):
        self.write(os.path.join(self.chout, "report.json"), json.dumps(self.report))

    def run_embed(self, *extra):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = embed.main(["--docs", self.docs, "--out", self.out, "--pages", self.pages,
                             "--root", self.root, "--chapter", f"99_demo={self.src}", *extra])
        return rc, err.getvalue()

    def assertFails(self, *words):
        rc, err = self.run_embed()
        self.assertEqual(rc, 1, err)
        for w in words:
            self.assertIn(w, err)
        self.assertFalse(os.path.exists(self.pages), "a failed build must leave no pages")
        return err

    # ---- the good case ------------------------------------------------------------------------

    def test_a_consistent_chapter_builds_and_escapes_its_outputs(self):
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        page = self.read("99_demo.md")
        self.assertIn('href="claims.html#MT-01"', page)
        self.assertIn("\u2713&#160;MT-01", page)
        self.assertIn("\\htmlinclude[block] 99_demo.listing.html", page)
        self.assertNotIn("\\claim{", page)
        listing = self.read("fragments", "99_demo.listing.html")
        self.assertIn("&lt;script&gt;alert(1)&lt;/script&gt; &amp; done", listing)
        self.assertNotIn("<script>", listing)
        table = self.read("fragments", "99_demo.layout.html")
        self.assertIn("<td>&lt;3&gt;</td>", table)
        grid = self.read("fragments", "99_demo.grid.html")
        self.assertIn("<svg", grid)
        self.assertIn("a&lt;b", grid)
        values = self.read("values.doxy")
        self.assertIn('ALIASES += "ch99_strides=(3, 1)"', values)
        page = self.read("99_demo.md")
        machine = page[page.index('<div class="book-machine"'):]
        self.assertIn("Test CPU &lt;x&gt;", machine)
        self.assertIn("abc123", machine)
        self.assertIn("none: no CUDA device on this machine", machine)
        self.assertIn("(no CUDA)", machine)  # the runtime's own words, as detail
        self.assertTrue(page.rstrip().endswith("\\endhtmlonly"))  # the note ends the page
        index = self.read("index.md")
        self.assertIn("\\subpage ch99", index)
        data = json.loads(self.read("claims.json"))
        by_id = {c["id"]: c for c in data["claims"]}
        self.assertEqual(set(by_id), {"MT-01", "MT-03", "PF-10", "ER-14"})
        self.assertEqual(by_id["MT-01"]["cited_in"], ["99_demo.md"])
        self.assertEqual(by_id["PF-10"]["status"], "not run")
        for key in ("id", "chapter", "statement", "status", "measured", "cited_in"):
            self.assertIn(key, by_id["MT-03"])
        self.assertEqual(data["provenance"][0]["commit"], "abc123")
        errata = self.read("fragments", "book.errata.html")
        self.assertIn("reads from data_ptr", errata)

    def test_snippets_are_shown_from_a_copy_moved_to_their_own_margin(self):
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.read("sources", "99_demo.cpp"),
                         "int main() {\n    //! [shown]\nint x = 1;\n  int y = x;\n    //! [shown]\n}\n")

    def test_a_snippet_the_source_lacks_fails(self):
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\snippet 99_demo.cpp gone\n")
        self.assertFails("99_demo.md", "no //! [gone] block in 99_demo.cpp")

    # ---- a chapter of several files -------------------------------------------------------------

    def with_section_file(self, block="part"):
        """99_demo.cpp and a section file chapters/99_demo/part.cpp, its listing on the page."""
        part = os.path.join(self.root, "chapters", "99_demo", "part.cpp")
        os.makedirs(os.path.dirname(part))
        self.write(part, f"void part() {{\n  //! [{block}]\n  int z = 2;\n  //! [{block}]\n}}\n")
        old = time.time() - 100
        os.utime(part, (old, old))
        self.write(os.path.join(self.docs, "99_demo.md"),
                   PAGE + "\n\\snippet 99_demo/part.cpp part\n\nDone.\n")
        return part

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

    def test_an_output_older_than_a_section_file_fails(self):
        part = self.with_section_file()
        os.utime(part, None)  # the section file changed after the chapter ran
        old = time.time() - 50
        os.utime(os.path.join(self.chout, "grid.svg"), (old, old))
        os.utime(os.path.join(self.chout, "report.json"), None)
        rc, err = self.run_embed("--chapter", f"99_demo={part}")
        self.assertEqual(rc, 1, err)
        self.assertIn("older than the chapter's source", err)

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

    # ---- drift between text, checks and outputs --------------------------------------------------

    def test_removing_a_check_fails_naming_the_page_and_the_claim(self):
        self.report["claims"] = [c for c in self.report["claims"] if c["id"] != "MT-03"]
        self.save_report()
        self.assertFails("99_demo.md:5", "claim MT-03 is cited but no chapter checks it")

    def test_removing_a_claim_id_from_the_text_fails_naming_the_source_and_the_claim(self):
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE.replace("\\claim{MT-03}", ""))
        self.assertFails("99_demo.cpp", "claim MT-03 is checked but no page cites it")

    def test_removing_a_referenced_output_fails_naming_the_output_and_its_claim(self):
        os.remove(os.path.join(self.chout, "grid.svg"))
        self.assertFails("99_demo.md:9", "output 'grid'", "claim MT-03", "missing")

    def test_an_output_the_chapter_never_made_fails(self):
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\output{nothing}\n")
        self.assertFails("99_demo.md", "output 'nothing'", "missing")

    def test_an_output_older_than_the_source_fails(self):
        os.utime(self.src, None)  # the source changed after the chapter ran
        old = time.time() - 50
        os.utime(os.path.join(self.chout, "grid.svg"), (old, old))
        os.utime(os.path.join(self.chout, "report.json"), None)
        self.assertFails("grid.svg", "older than the chapter's source", "MT-03")

    def test_a_report_older_than_the_source_fails(self):
        old = time.time() - 200
        os.utime(os.path.join(self.chout, "report.json"), (old, old))
        self.assertFails("99_demo.cpp", "older than its source")

    def test_a_missing_report_fails(self):
        os.remove(os.path.join(self.chout, "report.json"))
        self.assertFails("99_demo.cpp", "no report")

    def test_a_failed_claim_fails_the_build_with_its_values(self):
        self.report["claims"][0] = claim("MT-01", status="failed", measured=[
            {"what": "strides", "measured": "(1, 2)", "expected": "(3, 1)", "compared": True,
             "ok": False}])
        self.save_report()
        self.assertFails("99_demo.cpp", "claim MT-01 failed", "strides: (1, 2) (expected (3, 1))")

    def test_a_bare_id_in_prose_must_name_a_check(self):
        self.write(os.path.join(self.docs, "index.md"), "# Book {#mainpage}\n\nSee MT-77.\n")
        self.assertFails("index.md:3", "claim MT-77 is mentioned but no chapter checks it")

    def test_a_quoted_value_must_exist(self):
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\nIt is \\ch99_nothing.\n")
        self.assertFails("99_demo.md", "value \\ch99_nothing")

    # ---- the mutation record ------------------------------------------------------------------

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

    def test_a_record_of_another_mutant_catalogue_fails_the_build(self):
        rc, err = self.run_embed("--mutants", self.mutation_record(catalogue="0" * 16))
        self.assertEqual(rc, 1, err)
        self.assertIn("mutant catalogue", err)

    def test_a_missing_mutation_record_fails_the_build(self):
        rc, err = self.run_embed("--mutants", os.path.join(self.root, "nothing.json"))
        self.assertEqual(rc, 1, err)
        self.assertIn("no mutation record", err)

    def test_a_value_starting_a_line_before_a_full_stop_is_refused(self):
        # "\\ch99_count. Next" would render as "2. Next", a numbered list item.
        self.report["values"]["count"] = "2"
        self.save_report()
        self.write(os.path.join(self.docs, "99_demo.md"),
                   PAGE + "\nThe count is\n\\ch99_count. That is all.\n")
        self.assertFails("99_demo.md", "\\ch99_count starts the line", "numbered list")

    def test_a_value_that_could_inject_markup_is_refused(self):
        self.report["values"]["evil"] = "\\htmlonly<script>"
        self.save_report()
        self.assertFails("99_demo.cpp", "value evil")

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

    def test_a_table_that_is_not_an_object_of_lists_is_a_problem_not_a_crash(self):
        for body in ("[1, 2]", '{"rows": [1]}', '{"header": "h"}'):
            problems = embed.Problems()
            path = os.path.join(self.chout, "bad_table.json")
            self.write(path, body)
            out = embed.fragment_html({"out": self.chout},
                                      {"file": "bad_table.json", "kind": "table", "name": "t"},
                                      problems, self.root)
            self.assertIsNone(out)

    # ---- measured, not compared -------------------------------------------------------------------

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
            self.assertEqual(embed.measurement(m), {"what": "t", "measured": "2", "compared": False})
            self.assertIn("(measured)", embed.measured_html({"measured": [m]}))
        self.assertEqual(embed.measurement({"what": "t", "measured": "2", "expected": "3", "ok": False}),
                         {"what": "t", "measured": "2", "expected": "3", "compared": True, "ok": False})
        self.assertIn("\u2717 <code>t</code>",
                      embed.measured_html({"measured": [{"what": "t", "measured": "2", "expected": "3",
                                                         "compared": True, "ok": False}]}))

    def test_a_claim_mark_keeps_the_plain_word_before_it_on_its_line(self):
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        page = self.read("99_demo.md")
        # "sums.\claim{MT-03}": the word and the mark in one unbreakable span.
        self.assertIn('<span class="book-nowrap">sums.<a class="claim-mark', page)
        self.assertIn("Element addresses are \\htmlonly", page)
        # A mark after markup or a macro stays a mark alone.
        self.assertEqual(embed.WORD_CLAIM_RE.match("`x`.\\claim{MT-01}"), None)
        m = embed.WORD_CLAIM_RE.search("\\ch99_strides.\\claim{MT-01}")
        self.assertEqual(m.groups(), (None, "MT-01"))
        # The closing quote of a \ref's text, or a \ref's own argument, stays outside the block.
        m = embed.WORD_CLAIM_RE.search('\\ref ch99 "chapter 2").\\claim{MT-01}')
        self.assertEqual(m.groups(), (None, "MT-01"))
        self.assertTrue(embed.COMMAND_BEFORE_RE.search("see \\ref "))

    def test_a_claim_mark_cannot_close_its_raw_block(self):
        mark = embed.claim_mark({"id": "MT-01", "status": "not run", "statement": "s",
                                 "reason": "\\endhtmlonly [x](javascript:alert(1)) @endhtmlonly",
                                 "measured": [], "recorded": []})
        self.assertEqual(mark.count("\\endhtmlonly"), 1)
        self.assertNotIn("@endhtmlonly", mark)

    # ---- try it --------------------------------------------------------------------------------------

    def fake_explore(self, body):
        path = os.path.join(self.root, "fake-explore")
        self.write(path, "#!/bin/sh\n" + body)
        os.chmod(path, 0o755)
        return path

    def test_a_tryit_block_shows_the_real_output_escaped(self):
        explore = self.fake_explore('echo "ran: $1 <$2>"\n')
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + '\n\\tryit "x.t()" --strides\n\nDone.\n')
        rc, err = self.run_embed("--explore", explore)
        self.assertEqual(rc, 0, err)
        page = self.read("99_demo.md")
        self.assertIn("\\htmlinclude[block] tryit.99_demo.", page)
        name = [f for f in os.listdir(os.path.join(self.pages, "fragments")) if f.startswith("tryit.")][0]
        block = self.read("fragments", name)
        self.assertIn("$ strided-explore &quot;x.t()&quot; --strides", block)
        self.assertIn("ran: x.t() &lt;--strides&gt;", block)

    def test_a_failing_tryit_command_fails_the_build(self):
        explore = self.fake_explore('echo "bad expression" >&2\nexit 2\n')
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\tryit nonsense\n")
        rc, err = self.run_embed("--explore", explore)
        self.assertEqual(rc, 1)
        self.assertIn("99_demo.md", err)
        self.assertIn("exited 2: bad expression", err)

    def test_an_explore_link_opens_the_expression_in_the_explorer(self):
        explore = self.fake_explore('exit 0\n')
        self.write(os.path.join(self.docs, "99_demo.md"),
                   PAGE + "\nSee \\explore{arange(12).view(3, 4).t()} there.\n\nDone.\n")
        rc, err = self.run_embed("--explore", explore)
        self.assertEqual(rc, 0, err)
        page = self.read("99_demo.md")
        self.assertIn('href="explorer.html#arange(12).view(3,%204).t()"', page)
        self.assertIn("<code>arange(12).view(3, 4).t()</code>", page)

    def test_an_explore_link_the_explorer_cannot_read_fails_but_a_refusal_may_be_shown(self):
        self.write(os.path.join(self.docs, "99_demo.md"),
                   PAGE + "\nSee \\explore{arange(6).vew(4)}.\n\nDone.\n")
        unread = self.fake_explore("echo \"error at column 10: unknown method 'vew'\" >&2\nexit 2\n")
        rc, err = self.run_embed("--explore", unread)
        self.assertEqual(rc, 1)
        self.assertIn("cannot read it", err)
        refused = self.fake_explore('echo "error at column 10: view(): shape is invalid" >&2\nexit 2\n')
        rc, err = self.run_embed("--explore", refused)
        self.assertEqual(rc, 0, err)

    # ---- PyTorch beside the C++ ------------------------------------------------------------------

    COMPANION = ("import torch\nfor n in [1]:\n    # [shown]\n    x = torch.ones(n)\n      # deeper\n"
                 "    # [shown]\n")
    EXPLORED = ("step 1: arange(4)\n  shape           (4,)\n  values\n    tensor([0, 1, 2, 3])\n"
                "step 2: arange(4).view(2, 2)\n  shape           (2, 2)\n"
                "  strides         (2, 1)    shape:stride (2,2):(2,1)\n  storage offset  0\n"
                "  dtype           int64, 4 elements\n  contiguous      yes  (non-overlapping)\n"
                "  values\n    tensor([[0, 1],\n\n            [2, 3]])\n  where each element lives\n")

    def with_companion(self, tryits=None, earlier_tryits=None, expressions=None,
                       earlier_expressions=None, notes=None):
        """The companion, with its records of PyTorch 2.6 and 1.13 (1.13's answers as 2.6's
        unless given) and the differences noted between them."""
        self.write(os.path.splitext(self.src)[0] + ".py", self.COMPANION)
        for series, torch, t, e in (
                ("2.6", "2.6.0", tryits, expressions),
                ("1.13", "1.13.0a0", earlier_tryits if earlier_tryits is not None else tryits,
                 earlier_expressions if earlier_expressions is not None else expressions)):
            os.makedirs(os.path.join(self.docs, "recorded", "pytorch", series))
            record = {"torch": torch, "chapter": "99_demo", "expressions": e or {},
                      "tryits": t or {}}
            self.write(os.path.join(self.docs, "recorded", "pytorch", series, "99_demo.json"),
                       json.dumps(record))
        self.write(os.path.join(self.docs, "recorded", "pytorch", "differences.json"),
                   json.dumps(notes or {}))

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

    def test_a_companion_without_its_record_fails(self):
        self.write(os.path.splitext(self.src)[0] + ".py", self.COMPANION)
        self.assertFails("99_demo.py", "no record", "tools/book record-pytorch")

    def tryit_record(self, **change):
        answer = {"pytorch": "torch.arange(4).view(2, 2)", "shape": [2, 2], "strides": [2, 1],
                  "storage_offset": 0, "is_contiguous": True, "dtype": "int64",
                  "values": [0, 1, 2, 3], "repr": "tensor([[0, 1],\n\n        [2, 3]])"}
        return {"arange(4).view(2, 2)": dict(answer, **change)}

    def test_a_tryit_block_shows_pytorchs_recorded_answer_beside_the_librarys(self):
        self.with_companion(self.tryit_record())
        explore = self.fake_explore("cat <<'EOF'\n" + self.EXPLORED + "EOF\n")
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\tryit 'arange(4).view(2, 2)'\n\nDone.\n")
        rc, err = self.run_embed("--explore", explore)
        self.assertEqual(rc, 0, err)
        name = [f for f in os.listdir(os.path.join(self.pages, "fragments")) if f.startswith("tryit.")][0]
        block = self.read("fragments", name)
        self.assertIn("PyTorch 2.6.0 (recorded)", block)
        self.assertNotIn("PyTorch 1.13.0a0", block)  # 1.13 answered the same: one column
        self.assertIn("<code>torch.arange(4).view(2, 2)</code>", block)
        self.assertIn("<th scope=\"row\">stride()</th><td><code>(2, 1)</code></td><td><code>(2, 1)</code>", block)
        self.assertLess(block.index("book-tryit-pair"), block.index("$ strided-explore"))

    def test_a_tryit_block_shows_one_row_a_step_and_keeps_the_rest_behind_a_toggle(self):
        self.with_companion(self.tryit_record())
        explored = self.EXPLORED.replace("  storage offset  0\n  dtype",
                                         "  storage offset  0\n  memory          view: shares\n  dtype")
        explore = self.fake_explore("cat <<'EOF'\n" + explored + "EOF\n")
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\tryit 'arange(4).view(2, 2)'\n\nDone.\n")
        rc, err = self.run_embed("--explore", explore)
        self.assertEqual(rc, 0, err)
        name = [f for f in os.listdir(os.path.join(self.pages, "fragments")) if f.startswith("tryit.")][0]
        block = self.read("fragments", name)
        steps = block[block.index("book-tryit-steps"):block.index("</table>")]
        # step 1 as written, step 2 as what it added; then PyTorch's last step
        self.assertIn("<td><code>arange(4)</code></td><td><code>(4,)</code></td>", steps)
        self.assertIn("<td><code>.view(2, 2)</code></td><td><code>(2, 2)</code></td>"
                      "<td><code>(2, 1)</code></td><td>0</td><td>yes</td><td>view</td>", steps)
        self.assertIn('<tr class="book-tryit-pytorch"><td>PyTorch 2.6.0 (recorded)</td>', steps)
        self.assertIn('href="explorer.html#arange(4).view(2,%202)"', block)
        toggle = block.index('<details class="book-tryit-full">')
        self.assertLess(toggle, block.index("book-tryit-pair"))
        self.assertLess(toggle, block.index("$ strided-explore"))

    def test_a_changed_recorded_answer_fails_naming_chapter_and_expression(self):
        self.with_companion(self.tryit_record(strides=[1, 2]))
        explore = self.fake_explore("cat <<'EOF'\n" + self.EXPLORED + "EOF\n")
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\tryit 'arange(4).view(2, 2)'\n\nDone.\n")
        rc, err = self.run_embed("--explore", explore)
        self.assertEqual(rc, 1)
        self.assertIn("chapter 99_demo, Try it arange(4).view(2, 2): stride() is '(2, 1)' here but "
                      "'(1, 2)' in PyTorch 2.6.0's recorded answer", err)

    def test_a_tryit_with_no_recorded_answer_fails(self):
        self.with_companion()
        explore = self.fake_explore("cat <<'EOF'\n" + self.EXPLORED + "EOF\n")
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\tryit 'arange(4).view(2, 2)'\n\nDone.\n")
        rc, err = self.run_embed("--explore", explore)
        self.assertEqual(rc, 1)
        self.assertIn("chapter 99_demo, Try it arange(4).view(2, 2): no PyTorch answer recorded", err)

    def test_a_tryit_where_the_versions_differ_shows_both_and_needs_a_note(self):
        earlier = self.tryit_record(strides=[1, 2])
        key = "Try it arange(4).view(2, 2)"
        explore = self.fake_explore("cat <<'EOF'\n" + self.EXPLORED + "EOF\n")
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\tryit 'arange(4).view(2, 2)'\n\nDone.\n")
        self.with_companion(self.tryit_record(), earlier_tryits=earlier)
        rc, err = self.run_embed("--explore", explore)
        self.assertEqual(rc, 1)
        self.assertIn(f"chapter 99_demo, {key}: the records differ", err)
        self.assertIn("differences.json does not say what differs", err)
        shutil.rmtree(os.path.join(self.docs, "recorded", "pytorch"))
        self.with_companion(self.tryit_record(), earlier_tryits=earlier,
                            notes={"99_demo": {key: "the strides changed"}})
        rc, err = self.run_embed("--explore", explore)
        self.assertEqual(rc, 0, err)
        name = [f for f in os.listdir(os.path.join(self.pages, "fragments")) if f.startswith("tryit.")][0]
        block = self.read("fragments", name)
        self.assertLess(block.index("PyTorch 1.13.0a0 (recorded)"), block.index("PyTorch 2.6.0 (recorded)"))
        self.assertIn("<td><code>(1, 2)</code></td><td><code>(2, 1)</code></td>", block)
        versions_page = self.read("fragments", "book.versions.html")
        self.assertIn("the strides changed", versions_page)
        self.assertIn("its Try it block", versions_page)

    def test_the_versions_page_is_a_row_per_noted_difference_with_its_claims(self):
        now = {"g": {"x.squeeze((0, 1))": {"shape": [], "strides": [], "storage_offset": 0,
                                           "is_contiguous": True, "dtype": "float32"},
                     "same": {"value": 3}}}
        before = {"g": {"x.squeeze((0, 1))": {"error": "TypeError: squeeze() received an "
                                                       "invalid combination of arguments"},
                        "same": {"value": 3}}}
        key = "g / x.squeeze((0, 1))"
        self.with_companion(expressions=now, earlier_expressions=before,
                            notes={"99_demo": {key: "squeeze takes a tuple of dims"}})
        with open(os.path.join(self.out, "99_demo", "report.json"), encoding="utf-8") as f:
            report = json.load(f)
        report["pytorch_versions"] = [{"chapter": "99_demo", "compared": {key: ["MT-03"]}}]
        self.write(os.path.join(self.out, "99_demo", "report.json"), json.dumps(report))
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        table = self.read("fragments", "book.versions.html")
        self.assertEqual(table.count("<tr>"), 2, table)  # the header and one row: "same" agrees
        self.assertIn("squeeze takes a tuple of dims", table)
        self.assertIn("TypeError: squeeze() received an invalid combination of arguments", table)
        self.assertIn("shape (), strides (), offset 0, float32", table)
        self.assertIn('<a href="claims.html#MT-03">MT-03</a>', table)
        self.assertIn("<dt>PyTorch 1.13.0a0</dt>", table)
        self.assertIn("<dt>PyTorch 2.11</dt><dd><code>not recorded</code>", table)
        self.assertIn("The records hold 2 answers of PyTorch 2.6.0. PyTorch 1.13.0a0 answered 1 of "
                      "them otherwise", table)
        self.assertIn("0 of these differences are a tensor's layout", table)

    def test_a_long_answer_reworded_at_its_end_shows_the_end(self):
        import versions
        words = "RuntimeError: " + "one of the variables was modified in place; " * 4 + "Hint: "
        texts = versions.shown_texts([{"error": words + "anomaly(True)."}, None,
                                      {"error": words + "anomaly(True, check_nan=False)."}])
        self.assertTrue(texts[0].startswith("\u2026") and texts[0].endswith("anomaly(True)."), texts)
        self.assertTrue(texts[2].endswith("anomaly(True, check_nan=False)."), texts)
        self.assertEqual(texts[1], "not recorded")

    def test_a_note_without_a_difference_fails(self):
        same = {"g": {"same": {"value": 3}}}
        self.with_companion(expressions=same, notes={"99_demo": {"g / same": "nothing, really"}})
        self.assertFails("differences.json", "chapter 99_demo, g / same: noted as a difference, "
                         "but the records agree")

    def test_an_answer_of_2_6_that_1_13_lacks_fails(self):
        self.with_companion(expressions={"g": {"new": {"value": 1}}}, earlier_expressions={"g": {}})
        self.assertFails("differences.json", "chapter 99_demo, g / new: PyTorch 2.6 answers it "
                         "and 1.13's record has no answer")

    def test_a_recorded_tryit_the_page_does_not_show_fails(self):
        record = self.tryit_record()
        record["arange(6)[::2]"] = dict(record["arange(4).view(2, 2)"], pytorch="torch.arange(6)[::2]")
        self.with_companion(record)
        explore = self.fake_explore("cat <<'EOF'\n" + self.EXPLORED + "EOF\n")
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\tryit 'arange(4).view(2, 2)'\n\nDone.\n")
        rc, err = self.run_embed("--explore", explore)
        self.assertEqual(rc, 1)
        self.assertIn("chapter 99_demo: PyTorch's recorded answer for the Try it block "
                      "'arange(6)[::2]' is shown by no \\tryit of docs/99_demo.md", err)

    def test_the_explorers_last_step_is_read_as_pytorch_prints_it(self):
        a = embed.explorer_answer(self.EXPLORED)
        self.assertEqual(a, {"shape": "(2, 2)", "strides": "(2, 1)", "storage_offset": "0",
                             "dtype": "int64", "is_contiguous": "True",
                             "repr": "tensor([[0, 1],\n\n        [2, 3]])"})

    def test_errata_are_listed_in_catalogue_order(self):
        self.report["claims"].append(claim("ER-03.memset", seed_says="one too many"))
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\nAnd\\claim{ER-03.memset}\n")
        self.save_report()
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        errata = self.read("fragments", "book.errata.html")
        self.assertLess(errata.index("ER-03.memset"), errata.index("ER-14"))

    # ---- navigation: numbers, previous/next, glossary --------------------------------------------

    GLOSSARY = ("# Glossary {#glossary}\n\n## Stride {#gl_stride}\n\\terms stride, strides\n\n"
                "One step.\n\n## Storage offset {#gl_offset}\n\\terms storage offset\n\nWhere.\n")

    def with_glossary(self, page):
        self.write(os.path.join(self.docs, "glossary.md"), self.GLOSSARY)
        self.write(os.path.join(self.docs, "index.md"),
                   "# Book {#mainpage}\n\n\\book{chapters}\n- \\subpage glossary\n")
        self.write(os.path.join(self.docs, "99_demo.md"), page)
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        return self.read("99_demo.md")

    def test_a_chapter_is_numbered_from_its_file_name_wherever_it_is_named(self):
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        self.assertTrue(self.read("99_demo.md").startswith("# Chapter 99 \u00b7 Demo {#ch99}\n"))
        self.assertIn(">Chapter 99 \u00b7 Demo</a>", self.read("fragments", "book.ledger.html"))
        self.assertTrue(self.read("index.md").startswith("# Book {#mainpage}"))  # not a chapter

    def test_previous_and_next_follow_the_front_pages_order_at_top_and_bottom(self):
        page = self.with_glossary(PAGE)
        bars = re.findall(r'<nav class="book-nav book-nav-(top|bottom)".*?</nav>', page)
        self.assertEqual(bars, ["top", "bottom"])
        self.assertIn('rel="prev" href="index.html"', page)
        self.assertIn('rel="next" href="glossary.html"', page)
        self.assertIn("Chapter 99 \u00b7 Demo", self.read("glossary.md"))  # the glossary's "previous"
        self.assertEqual(page.split("\n")[2][:len("\\htmlonly[block]<nav")], "\\htmlonly[block]<nav")
        self.assertTrue(page.rstrip().endswith("</nav>\\endhtmlonly"))
        index = self.read("index.md")
        self.assertIn('rel="next" href="ch99.html"', index)
        self.assertNotIn('rel="prev"', index)
        self.assertNotIn('rel="next"', self.read("glossary.md"))

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

    def test_a_ref_whose_text_runs_over_a_line_break_fails(self):
        self.write(os.path.join(self.docs, "99_demo.md"),
                   PAGE + '\nSee \\ref ch99 "the demo\nchapter" here.\n\nDone.\n')
        self.assertFails("99_demo.md", "quoted text must end on the line it starts")

    def test_a_quotation_never_reaches_into_a_mark_after_it(self):
        text = ('It is refused ("\\ch01_error", its words), a copy.\\htmlonly<a title="x shares '
                'the storage">✓</a>\\endhtmlonly Then the strides.')
        terms = {"storage": {"anchor": "gl_storage", "href": "glossary.html#gl_storage", "name": "Storage"},
                 "strides": {"anchor": "gl_stride", "href": "glossary.html#gl_stride", "name": "Stride"}}
        out = embed.link_terms(text, terms)
        self.assertIn('<a title="x shares the storage">', out)
        self.assertIn('>strides</a>.', out)

    def test_an_emphasised_term_is_linked_with_its_stars_inside(self):
        page = self.with_glossary(PAGE.replace("Its strides are", "Its *strides* are"))
        self.assertIn('title="Stride: see the glossary">*strides*</a>', page)

    def test_a_term_outside_a_heading_with_an_anchor_fails(self):
        self.write(os.path.join(self.docs, "glossary.md"), "# Glossary {#glossary}\n\\terms x\n")
        self.assertFails("glossary.md:2", "\\terms must follow a heading")

    def test_a_reference_naming_the_wrong_chapter_number_fails(self):
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + '\nAs \\ref ch99 "chapter 98" says.\n')
        self.assertFails("99_demo.md:17", "names chapter 98, but ch99 is chapter 99")

    def test_a_chapter_that_ends_on_an_output_fails(self):
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\output{listing}\n")
        self.assertFails("99_demo.md", "a chapter ends on prose")

    # ---- the numbers of a claim and of its sentence ------------------------------------------------

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

    def test_number_helpers(self):
        self.assertEqual(list(embed.statement_numbers("t[i0,…,iN−1] of float32 at (0,2,2) is "
                                                      "−1, 65,536 and 2^26 (MT-03), x.add_(1)")),
                         ["1", "0", "2", "-1", "65536", "2^26"])  # iN−1: N minus 1
        self.assertIn("67108864", embed.statement_numbers("2^26")["2^26"][1])
        found = embed.context_numbers("a 32³ cube, 2·3·4 and 1024 \\times 1024, half, (64,512)")
        for key in ("32^3", "32768", "32", "24", "1048576", "1024^2", "2", "0.5", "64512", "64",
                    "512"):
            self.assertIn(key, found)
        self.assertEqual(embed.contradictions("64³ and 32³ and 2×3", "a 32×32×32 cube"),
                         [("shape:64×64×64", "64³", "32×32×32")])
        self.assertEqual(embed.contradictions("a 2×3 matrix, 8 MiB", "a 32³ cube"), [])
        # A rate is no size: 716 GB/s beside a 16 MiB output contradicts nothing.
        self.assertEqual(embed.contradictions("716 GB/s, 16 MiB", "a 16 MiB output"), [])
        self.assertEqual(embed.contradictions("716 GB, 16 MiB", "a 16 MiB output"),
                         [("size:716000000000", "716 GB", "16 MiB")])

    # ---- recorded GPU runs ------------------------------------------------------------------------

    SEED = ("# PyTorch 9.9.0 (a made-up seed)\n"
            "[In[13]] CPU\n49.1 ms \u00b1 54.3 \u03bcs per loop\n"
            "[In[14]] the same on the GPU\n2 ms \u00b1 1 ns per loop\n3 ms \u00b1 1 ns per loop\n"
            "5 ms \u00b1 1 ns per loop\n7 ms \u00b1 1 ns per loop\n"
            "[In[15]] CPU, then GPU\n1 s \u00b1 1 ns per loop\n2 s \u00b1 1 ns per loop\n"
            "40 \u03bcs \u00b1 1 ns per loop\n60 \u03bcs \u00b1 1 ns per loop\n")

    def gpu_record(self, claims, **parts):
        """A recorded GPU run of tools/gpu/record.py's format, with every part present unless a
        keyword replaces it (None drops it)."""
        rec = {
            "format": 1,
            "provenance": {"gpu": "NVIDIA H100", "driver": "555.42", "memory": "81559 MiB",
                           "power_limit": "700.00 W", "sm_clock_max": "1980 MHz",
                           "memory_clock": "2619 MHz", "sm_clock_before": "345 MHz",
                           "sm_clock_after": "1755 MHz", "device_info": ["device 0: NVIDIA H100"],
                           "commit": "def456", "date": "2025-02-02T03:04:05Z",
                           "cuda_runtime": "CUDA runtime 12.4", "cpu": "Test Xeon", "cpu_threads": 16,
                           "os": "Test OS", "compiler": "GCC 12", "flags": "-O2", "sizes": "seed sizes",
                           "architectures": "sm_90", "nvcc": "12.4.131", "torch": "2.3.0+cu124"},
            "ctest_gpu": {"ran": True, "command": "ctest -L gpu", "exit": "0",
                          "tests": [{"name": "cuda.elementwise_gpu", "status": "passed", "seconds": 6.4}],
                          "output": "1/1 Test #1: cuda.elementwise_gpu <ok>"},
            "sanitizer": [{"tool": "memcheck", "program": "cuda.reduce_gpu", "exit": "0",
                           "verdict": "clean", "summary": "ERROR SUMMARY: 0 errors",
                           "test_cases": {"passed": 8, "failed": 0, "skipped": 1}},
                          {"tool": "racecheck", "program": "cuda.matmul_gpu", "exit": "124",
                           "verdict": "not finished", "summary": ""}],
            "chapters": [{"chapter": "99_demo", "exit": "1", "statuses": {"passed": 25, "failed": 1},
                          "failed": ["MT-03"],
                          "failed_judged": {"MT-03": [{"what": "bytes", "measured": "96",
                                                       "expected": "== 64", "compared": True,
                                                       "ok": False}]}}],
            "claims": claims,
            "bench": [{"name": "BM_add3_contiguous_flat", "ms": 0.25, "gb_per_s": 4000.0},
                      {"name": "BM_add3_permuted", "ms": 0.5, "gb_per_s": 2000.0},
                      {"name": "BM_add3_stride5", "error": "out of memory"},
                      {"name": "BM_matmul_low_rank/2", "ms": 0.0125}],
            "pytorch": {"torch": "2.3.0+cu124", "cuda": "12.4", "device": "NVIDIA H100",
                        "experiments": [{"id": "add3_contiguous", "seed": "In[14]", "what": "w",
                                         "median_ms": 0.2, "min_ms": 0.19, "max_ms": 0.21, "bytes": 1},
                                        {"id": "add3_permuted", "seed": "In[14]", "what": "w",
                                         "median_ms": 0.3, "min_ms": 0.29, "max_ms": 0.31, "bytes": 1}]},
            "goals": [{"id": "add_vs_copy", "what": "add(3) against a copy", "value": 0.9618,
                       "bound": 0.9, "sense": "bandwidth", "status": "met"},
                      {"id": "pytorch_add3_contiguous", "what": "add(3), contiguous: no slower",
                       "value": 1.25, "bound": 1.0, "sense": "time", "status": "missed"},
                      {"id": "pytorch_add3_permuted", "what": "add(3), permuted: no slower",
                       "value": 0.99, "range": [0.9403, 1.0404], "bound": 1.0, "sense": "time",
                       "status": "inconclusive"},
                      {"id": "transpose_vs_copy", "what": "transpose against a copy", "status": "not run"}],
        }
        for k, v in parts.items():
            if v is None:
                rec.pop(k)
            else:
                rec[k] = v
        return rec

    def recorded(self, claims, name="nvidia-h100.json", **parts):
        rec = os.path.join(self.root, "recorded")
        os.makedirs(rec, exist_ok=True)
        os.makedirs(os.path.join(self.docs, "recorded", "seeds"), exist_ok=True)
        self.write(os.path.join(self.docs, "recorded", "seeds", "pytorch-for-scientists.txt"), self.SEED)
        self.write(os.path.join(self.docs, "claims.md"),
                   "# Claims {#claims}\n\n\\book{ledger}\n\n## GPU runs {#gpu_runs}\n\n\\book{gpu_runs}\n")
        record = parts.pop("record", None) or self.gpu_record(claims, **parts)
        self.write(os.path.join(rec, name), json.dumps(record))
        return rec

    RATIO = [{"what": "p / c: median time A (s)", "measured": "0.000795", "compared": False},
             {"what": "p / c: ratio B/A", "measured": "1.00137", "expected": "in [0.67, 1.5]",
              "compared": True, "ok": True}]

    def test_a_recorded_gpu_run_is_shown_but_never_makes_a_claim_passed_here(self):
        rec = self.recorded([claim("PF-10", measured=self.RATIO)])
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 0, err)
        data = json.loads(self.read("claims.json"))
        pf = {c["id"]: c for c in data["claims"]}["PF-10"]
        self.assertEqual(pf["status"], "not run")
        self.assertEqual(pf["recorded"][0]["status"], "passed")
        self.assertEqual(pf["recorded"][0]["gpu"], "NVIDIA H100")
        self.assertEqual(data["recorded_runs"][0]["commit"], "def456")
        ledger = self.read("fragments", "book.ledger.html")
        self.assertIn('<a href="#gpu-run-nvidia-h100">recorded on NVIDIA H100</a> at <code>def456</code>, '
                      '<span class="book-nowrap">2025-02-02</span>', ledger)
        page = self.read("99_demo.md")
        self.assertIn("\u25cb&#160;PF-10", page)  # the mark stays "not run"
        self.assertIn("recorded on NVIDIA H100 at def456: passed", page)

    def test_a_recorded_run_of_an_unknown_format_fails_naming_the_file(self):
        rec = self.recorded([claim("PF-10")], record=dict(self.gpu_record([claim("PF-10")]), format=2))
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 1)
        self.assertIn("recorded/nvidia-h100.json: unknown format 2", err)
        # A chapter's report.json, the old form of a recorded run, has no format 1 of a GPU run.
        rec = self.recorded([claim("PF-10")], record={"chapter": "99_demo", "claims": [claim("PF-10")]})
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 1)
        self.assertIn("unknown format None", err)

    def test_a_recorded_claim_without_a_check_fails(self):
        rec = self.recorded([claim("PF-99")])
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 1)
        self.assertIn("nvidia-h100.json", err)
        self.assertIn("recorded claim PF-99", err)

    def test_a_recorded_claim_restated_since_fails(self):
        rec = self.recorded([claim("MT-01", statement="An older sentence.")])
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 1)
        self.assertIn("recorded claim MT-01 states 'An older sentence.'", err)
        self.assertIn("record the run again", err)

    def test_a_recorded_status_never_changes_the_local_status_or_the_counts(self):
        self.recorded([])
        rc, err = self.run_embed()
        self.assertEqual(rc, 0, err)
        summary = re.search(r'<p class="ledger-summary">[^<]*</p>',
                            self.read("fragments", "book.ledger.html")).group(0)
        failed = [dict(self.RATIO[1], measured="3.25308", expected="in [0, 2]", ok=False)]
        rec = self.recorded([claim("MT-01", status="failed", measured=failed),
                             claim("PF-10", status="failed", measured=failed)])
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 0, err)  # a claim that failed there does not fail this build
        ledger = self.read("fragments", "book.ledger.html")
        self.assertIn(summary, ledger)
        data = {c["id"]: c for c in json.loads(self.read("claims.json"))["claims"]}
        self.assertEqual(data["MT-01"]["status"], "passed")
        self.assertEqual(data["PF-10"]["status"], "not run")
        self.assertEqual(data["MT-01"]["recorded"][0]["status"], "failed")
        row = re.search(r'<tr id="MT-01">.*?</tr>', ledger).group(0)
        self.assertIn("claim-passed", row)  # this machine's status first ...
        self.assertIn('\u2717 failed</span>', row.split('class="claim-recorded"')[1])  # ... then theirs
        self.assertIn("\u2713&#160;MT-01", self.read("99_demo.md"))

    def test_the_ledger_shows_a_recorded_runs_judged_values(self):
        rec = self.recorded([claim("PF-10", measured=self.RATIO)])
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 0, err)
        row = re.search(r'<tr id="PF-10">.*?</tr>', self.read("fragments", "book.ledger.html")).group(0)
        there = row.split('class="claim-recorded"')[1]
        self.assertIn('p / c: ratio B/A: <span title="1.00137">1.00</span> '
                      '<span class="expected">(expected in [0.67, 1.5])</span>', there)
        self.assertNotIn("median time", there)  # a value only recorded is not judged

    def section(self, rec):
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 0, err)
        html_text = self.read("fragments", "book.gpu_runs.html")
        self.assertIn("\\htmlinclude[block] book.gpu_runs.html", self.read("claims.md"))
        return {part.split("</h3>")[0]: part for part in html_text.split("<h3>")[1:]}

    def test_the_gpu_runs_section_renders_each_table(self):
        parts = self.section(self.recorded([claim("PF-10", status="failed", measured=self.RATIO)]))
        self.assertEqual(list(parts), ["The machine", "Its GPU claims",
                                       "The seed's GPU timings beside the library's and PyTorch's",
                                       "Goals", "GPU tests", "compute-sanitizer",
                                       "Every chapter, at the test sizes"])
        machine = parts["The machine"]
        for value in ("555.42", "700.00 W", "345 MHz before the run, 1755 MHz after it; at most 1980 MHz",
                      "2619 MHz", "Test Xeon, 16 hardware", "<code>-O2</code>", "sm_90", "12.4.131",
                      "2.3.0+cu124", "def456", "seed sizes", "CUDA runtime 12.4"):
            self.assertIn(value, machine)
        claims_part = parts["Its GPU claims"]
        self.assertIn('<a class="claim-id" href="#PF-10">PF-10</a>', claims_part)
        self.assertIn("\u2717 failed", claims_part)
        self.assertIn("(expected in [0.67, 1.5])", claims_part)
        seed = parts["The seed's GPU timings beside the library's and PyTorch's"]
        rows = re.findall(r"<tr>(.*?)</tr>", seed)
        cells = [re.findall(r"<td>(.*?)</td>", r) for r in rows[1:]]
        # In[14]: the seed's 2 and 3 ms, the library's 0.25 and 0.5 ms, PyTorch's 0.2 and 0.3 ms,
        # each over its column's first row.
        self.assertEqual(cells[0], ["In[14]", "add(3), contiguous", "2.00\u00a0ms", "1.00\u00d7",
                                    "250\u00a0\u03bcs", "1.00\u00d7", "200\u00a0\u03bcs", "1.00\u00d7"])
        self.assertEqual(cells[1][2:], ["3.00\u00a0ms", "1.50\u00d7", "500\u00a0\u03bcs", "2.00\u00d7",
                                        "300\u00a0\u03bcs", "1.50\u00d7"])
        self.assertIn("error", cells[2][4])  # the benchmark that failed says so
        # In[15]: the GPU lines are the third and fourth.
        in15 = [c for c in cells if c[1].startswith("amax(-")]
        self.assertEqual([c[2] for c in in15], ["40.0\u00a0\u03bcs", "60.0\u00a0\u03bcs"])
        self.assertEqual(in15[1][3], "1.50\u00d7")
        # In[21]: one row for each k the run timed; the seed's file here quotes no such cell.
        in21 = [c for c in cells if c[1].startswith("k = ")]
        self.assertEqual([c[1] for c in in21], ["k = 2"])
        self.assertIn("not quoted", in21[0][2])
        self.assertIn("PyTorch 9.9.0", seed)  # the seed's version, from its file
        goals = parts["Goals"]
        # A record made before goals had a range shows none.
        self.assertIn("<td>96.2%</td><td>\u2014</td><td>\u2265\u00a090%</td>", goals)
        self.assertIn("<td>1.250\u00d7</td><td>\u2014</td><td>\u2264\u00a01\u00d7</td>", goals)
        self.assertIn("\u2717 missed", goals)
        # A range that holds the bound is inconclusive, never met.
        self.assertIn("<td>0.990\u00d7</td><td>0.940\u00d7\u2060\u2013\u20601.040\u00d7</td>", goals)
        self.assertIn('<span class="claim-status claim-inconclusive">~ inconclusive</span>', goals)
        tests = parts["GPU tests"]
        self.assertIn("<code>cuda.elementwise_gpu</code>", tests)
        self.assertIn("6.4\u00a0s", tests)
        self.assertIn("<details><summary>ctest's output</summary>", tests)
        self.assertIn("&lt;ok&gt;", tests)
        sanitizer = parts["compute-sanitizer"]
        self.assertIn("ERROR SUMMARY: 0 errors", sanitizer)
        self.assertIn(">not finished<", sanitizer)
        self.assertIn("<td>8 passed, 1 left out</td>", sanitizer)  # a filter's cases are said
        self.assertIn("<td>not counted</td>", sanitizer)
        chapters = parts["Every chapter, at the test sizes"]
        self.assertIn("1 failed, 25 passed", chapters)
        self.assertIn('<a href="#MT-03">MT-03</a>', chapters)
        self.assertIn("\u2717 bytes: <span title=\"96\">96</span>", chapters)  # what it judged there
        self.assertIn("(expected == 64)", chapters)
        self.assertIn('<a href="ch99.html">', chapters)

    def test_the_gpu_runs_section_says_not_run_for_a_missing_step(self):
        parts = self.section(self.recorded([], ctest_gpu={"ran": False, "tests": [], "output": ""},
                                           sanitizer=[], chapters=None, bench=[], pytorch={},
                                           goals=[{"id": "g", "what": "a goal", "status": "not run"}]))
        for name in ("Its GPU claims", "GPU tests", "compute-sanitizer", "Every chapter, at the test sizes"):
            self.assertIn("not run", parts[name], name)
        self.assertIn("<td>a goal</td><td>\u2014</td><td>\u2014</td>", parts["Goals"])
        self.assertIn("\u25cb not run", parts["Goals"])
        seed = parts["The seed's GPU timings beside the library's and PyTorch's"]
        row = re.findall(r"<td>(.*?)</td>", re.findall(r"<tr>(.*?)</tr>", seed)[1])
        self.assertEqual(row[2], "2.00\u00a0ms")  # the seed's own time is still shown
        self.assertIn("not run", row[4])
        self.assertIn("not run", row[6])

    def test_the_gpu_runs_numbers_never_look_equal_to_a_bound_they_miss(self):
        g = embed.gpu_runs
        self.assertEqual(g.goal_value(1.0004, "time", 1.0), "1.0004\u00d7")
        self.assertEqual(g.goal_value(1.013, "time", 1.0), "1.013\u00d7")
        self.assertEqual(g.goal_value(0.89996, "bandwidth", 0.9), "89.996%")
        self.assertEqual(g.goal_value(0.93, "bandwidth", 0.8), "93.0%")
        # A time that rounds to 1000 μs is written in ms.
        self.assertEqual(g.time_text(0.9996), "1.00\u00a0ms")
        self.assertEqual(g.time_text(0.0386), "38.6\u00a0\u03bcs")

    def test_a_chapter_cut_short_or_skipped_is_said_so(self):
        parts = self.section(self.recorded([], chapters=[
            {"chapter": "06_performance", "exit": "124", "outcome": "not finished",
             "statuses": {"passed": 2}, "failed": []},
            {"chapter": "07_matmul", "exit": "skipped", "outcome": "not run", "statuses": {},
             "failed": []}]))
        chapters = parts["Every chapter, at the test sizes"]
        self.assertIn("not finished (stopped by its cap): 2 passed before", chapters)
        self.assertIn("not run (no time left)", chapters)

    def test_no_recorded_run_says_so(self):
        self.recorded([])
        os.remove(os.path.join(self.root, "recorded", "nvidia-h100.json"))
        rc, err = self.run_embed("--recorded", os.path.join(self.root, "recorded"))
        self.assertEqual(rc, 0, err)
        self.assertIn("No GPU run is recorded", self.read("fragments", "book.gpu_runs.html"))

    def test_the_seed_parser_reads_the_quote_file_as_the_chapters_do(self):
        with open(os.path.join(HERE, os.pardir, os.pardir, "docs", "recorded", "seeds",
                               "pytorch-for-scientists.txt"), encoding="utf-8") as f:
            text = f.read()
        cells = embed.gpu_runs.seed_timings(text)
        self.assertEqual(cells["In[14]"], [1.5, 1.5, 4.38, 1.53])
        self.assertEqual([round(t, 6) for t in cells["In[15]"]], [0.0483, 0.318, 0.018, 0.0264])
        self.assertEqual(len(cells["In[21]"]), 5)
        self.assertTrue(embed.gpu_runs.seed_pytorch(text).startswith("2.8"))
        self.assertEqual(embed.gpu_runs.seed_timings("[In[1]] x\n2 s \u00b1 1\n3 ns \u00b1 1\n"),
                         {"In[1]": [2000.0, 3e-6]})
        for bad in ("1 ms before any cell", "[In[1]] x\nabc", "[In[1]] x\n1ms", "[In[1]] x\n1 h per loop",
                    "[In[1] x\n"):
            with self.assertRaises(ValueError, msg=bad):
                embed.gpu_runs.seed_timings(bad)

    def test_the_seeds_low_rank_lines_are_matched_by_k_not_by_position(self):
        text = "[In[21]] (2048\u00d7k) @ (k\u00d72048) for k = 2, 8\n1 ms \u00b1 1\n3 ms \u00b1 1\n"
        self.assertEqual(embed.gpu_runs.seed_low_rank(text), {2: 1.0, 8: 3.0})
        self.assertEqual(embed.gpu_runs.seed_low_rank("[In[14]] x\n1 ms \u00b1 1\n"), {})
        with self.assertRaises(ValueError):
            embed.gpu_runs.seed_low_rank("[In[21]] for k = 2, 8\n1 ms \u00b1 1\n")
        # A run that timed k = 8 alone is shown beside the seed's k = 8, not its first line.
        rec = {"bench": [{"name": "BM_matmul_low_rank/8", "ms": 0.5}], "pytorch": {}}
        html = embed.gpu_runs.seed_table_html(rec, embed.gpu_runs.seed_timings(text),
                                                embed.gpu_runs.seed_low_rank(text), "x")
        row = re.search(r"<td>k = 8</td><td>([^<]*)</td>", html)
        self.assertEqual(row.group(1), embed.gpu_runs.time_text(3.0))

    def test_an_unreadable_seed_file_fails(self):
        rec = self.recorded([])
        self.write(os.path.join(self.docs, "recorded", "seeds", "pytorch-for-scientists.txt"),
                   "[In[14]] x\nfast\n")
        rc, err = self.run_embed("--recorded", rec)
        self.assertEqual(rc, 1)
        self.assertIn("pytorch-for-scientists.txt: the seed's quoted timings cannot be read", err)


class MachineNoteTest(unittest.TestCase):
    """The note that ends a chapter says what this machine checked, and no more."""
    PROV = {"cpu": "A CPU", "cpu_threads": 2, "os": "Linux", "compiler": "GCC", "flags": "-O2",
            "blas": "OpenBLAS", "gpu": "no GPU", "sizes": "sizes smaller than the seed's",
            "commit": "abc", "date": "today"}

    def test_a_page_whose_claims_all_ran_says_they_were_checked_here(self):
        note = embed.machine_note_html(self.PROV, [claim("MT-01")])
        self.assertIn("The claims on this page were checked on this machine, and its numbers were "
                      "measured here", note)
        self.assertNotIn("not run", note.split("</p>")[0])

    def test_claims_not_run_are_excepted_in_the_title(self):
        note = embed.machine_note_html(self.PROV, [claim("MT-01"), claim("PF-10", "not run")])
        self.assertIn("but for those marked <em>not run</em>", note.split("</p>")[0])

    def test_quoted_claims_are_excepted_too(self):
        note = embed.machine_note_html(self.PROV,
                                       [claim("PF-10", "not run"), claim("ER-12", "quoted")])
        self.assertIn("but for those marked <em>not run</em> or <em>quoted</em>",
                      note.split("</p>")[0])

    def test_each_compiler_flag_stays_on_one_line(self):
        note = embed.machine_note_html(dict(self.PROV, flags="-O2 -g -DNDEBUG"), [claim("MT-01")])
        self.assertIn('<span class="book-nowrap">-DNDEBUG</span>', note)

    def test_the_timing_sizes_are_said_only_where_the_page_has_timings(self):
        self.assertNotIn("Timings", embed.machine_note_html(self.PROV, [claim("MT-01")]))
        timed = embed.machine_note_html(self.PROV, [claim("PF-01", kind="timing (CPU)")])
        self.assertIn("<dt>Timings</dt><dd>sizes smaller than the seed&#x27;s</dd>", timed)


if __name__ == "__main__":
    unittest.main(verbosity=1)
