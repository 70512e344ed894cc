"""Tests of embed/tryit.py: Try it blocks and Explorer links."""

import json
import os
from html import escape as esc
import shutil
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed.book_case import BookCase, PAGE  # noqa: E402


class TryItTest(BookCase):
    def asked(self):
        """The request the fake explorer of explore_answering read last."""
        with open(os.path.join(self.root, "request"), encoding="utf-8") as f:
            return json.loads(f.read())

    def embed_page(self, tail, answer):
        """Runs the embedding tool on a page of PAGE + tail, with an explorer that answers
        `answer`: (exit status, standard error)."""
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + tail)
        return self.run_embed("--explore", self.explore_answering(answer))

    def test_a_tryit_block_asks_for_the_expression_and_shows_the_report_escaped(self):
        explore = self.explore_answering({"results": [], "report": "step 1: x.t() <a>\n"})
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + '\n\\tryit "x.t()"\n\nDone.\n')
        rc, err = self.run_embed("--explore", explore)
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.asked(), {"expression": "x.t()"})
        page = self.read("99_demo.md")
        self.assertIn("\\htmlinclude[block] tryit.99_demo.", page)
        name = [f for f in os.listdir(os.path.join(self.pages, "fragments")) if f.startswith("tryit.")][0]
        block = self.read("fragments", name)
        self.assertIn("$ strided-explore &quot;x.t()&quot;</span>\nstep 1: x.t() &lt;a&gt;</pre>", block)

    def test_a_tryit_block_runs_one_expression(self):
        rc, err = self.embed_page('\n\\tryit "x.t()" --svg p.svg\n', self.EXPLORED)
        self.assertEqual(rc, 1)
        self.assertIn("a Try it block runs one expression", err)

    def test_a_failing_tryit_expression_fails_the_build(self):
        explore = self.explore_answering({"error": True, "message": "bad expression", "column": 1,
                                          "report": "error at column 1: bad expression\n"
                                                    "  nonsense\n  ^~~~~~~~\n"})
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\tryit nonsense\n")
        rc, err = self.run_embed("--explore", explore)
        self.assertEqual(rc, 1)
        self.assertIn("99_demo.md", err)
        self.assertIn("strided-explore nonsense fails: error at column 1: bad expression", err)

    def test_an_explorer_that_does_not_answer_one_line_of_json_fails_the_build(self):
        self.write(os.path.join(self.docs, "99_demo.md"), PAGE + "\n\\tryit 'arange(4)'\n")
        for body, words in (('echo "step 1: arange(4)"\n', "answered what is not JSON"),
                            ("echo '{}'; echo '{}'\n", "answered 2 lines, not one"),
                            ('echo "no --jsonl here" >&2\nexit 2\n', "exited 2: no --jsonl here")):
            rc, err = self.run_embed("--explore", self.fake_explore(body))
            self.assertEqual(rc, 1)
            self.assertIn(words, err)

    def test_an_explore_link_opens_the_expression_in_the_explorer(self):
        explore = self.explore_answering(self.EXPLORED)
        self.write(os.path.join(self.docs, "99_demo.md"),
                   PAGE + "\nSee \\explore{arange(12).view(3, 4).t()} there.\n\nDone.\n")
        rc, err = self.run_embed("--explore", explore)
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.asked(), {"expression": "arange(12).view(3, 4).t()"})
        page = self.read("99_demo.md")
        self.assertIn('href="explorer.html#arange(12).view(3,%204).t()"', page)
        self.assertIn("<code>arange(12).view(3, 4).t()</code>", page)

    def test_an_explore_link_the_explorer_cannot_read_fails_but_a_refusal_may_be_shown(self):
        self.write(os.path.join(self.docs, "99_demo.md"),
                   PAGE + "\nSee \\explore{arange(6).vew(4)}.\n\nDone.\n")
        unread = self.explore_answering({"error": True, "message": "unknown method 'vew'",
                                         "column": 10})
        rc, err = self.run_embed("--explore", unread)
        self.assertEqual(rc, 1)
        self.assertIn("strided-explore cannot read it: unknown method 'vew'", err)
        refused = self.explore_answering({"error": True, "column": 10,
                                          "message": "view(): shape '[4]' is invalid"})
        rc, err = self.run_embed("--explore", refused)
        self.assertEqual(rc, 0, err)

    def test_an_explore_link_to_a_jsonl_request_is_asked_with_jsonl(self):
        request = '{"grad":{"start":{"shape":[3]},"ops":[{"op":"add_","other":1}]}}'
        self.write(os.path.join(self.docs, "99_demo.md"),
                   PAGE + "\nSee \\explore{" + request + "} there.\n\nDone.\n")
        # The fake program answers only when asked with --jsonl, and reads the request from stdin.
        answers = self.fake_explore('[ "$1" = --jsonl ] || exit 3\nread line\n'
                                    'echo \'{"error":true,"message":"a leaf Variable that requires '
                                    'grad is being used in an in-place operation."}\'\n')
        rc, err = self.run_embed("--explore", answers)
        self.assertEqual(rc, 0, err)
        page = self.read("99_demo.md")
        self.assertIn('href="explorer.html#%7B%22grad%22', page)
        self.assertIn("<code>" + esc(request) + "</code>", page)
        bad = self.fake_explore('echo \'{"error":true,"message":"bad input: unknown op \\"add__\\""}\'\n')
        rc, err = self.run_embed("--explore", bad)
        self.assertEqual(rc, 1)
        self.assertIn("strided-explore --jsonl cannot answer it", err)

    def test_a_tryit_block_shows_pytorchs_recorded_answer_beside_the_librarys(self):
        self.with_companion(self.tryit_record())
        explore = self.explore_answering(self.EXPLORED)
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
        explore = self.explore_answering(self.EXPLORED)
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
        rc, err = self.embed_page("\n\\tryit 'arange(4).view(2, 2)'\n\nDone.\n", self.EXPLORED)
        self.assertEqual(rc, 1)
        self.assertIn("chapter 99_demo, Try it arange(4).view(2, 2): stride() is '(2, 1)' here but "
                      "'(1, 2)' in PyTorch 2.6.0's recorded answer", err)

    def test_a_tryit_with_no_recorded_answer_fails(self):
        self.with_companion()
        rc, err = self.embed_page("\n\\tryit 'arange(4).view(2, 2)'\n\nDone.\n", self.EXPLORED)
        self.assertEqual(rc, 1)
        self.assertIn("chapter 99_demo, Try it arange(4).view(2, 2): no PyTorch answer recorded", err)

    def test_a_tryit_where_the_versions_differ_shows_both_and_needs_a_note(self):
        earlier = self.tryit_record(strides=[1, 2])
        key = "Try it arange(4).view(2, 2)"
        explore = self.explore_answering(self.EXPLORED)
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


if __name__ == "__main__":
    unittest.main()
