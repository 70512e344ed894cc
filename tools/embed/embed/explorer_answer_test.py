"""Tests of embed/explorer_answer.py: asking strided-explore --jsonl, and its fields as the pages
word them."""

import json
import os
import sys
import unittest

if __package__ in (None, ""):  # run as a file: the package is one folder up
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from embed import explorer_answer  # noqa: E402
from embed.book_case import BookCase  # noqa: E402


class ExplorerAnswerTest(BookCase):
    def test_the_last_step_is_read_as_pytorch_prints_it(self):
        self.assertEqual(explorer_answer.last_step(self.EXPLORED),
                         {"shape": "(2, 2)", "strides": "(2, 1)", "storage_offset": "0",
                          "dtype": "int64", "is_contiguous": "True",
                          "repr": "tensor([[0, 1],\n\n        [2, 3]])"})

    def test_each_step_is_a_row_of_the_steps_table(self):
        rows = explorer_answer.step_rows(self.EXPLORED)
        self.assertEqual(rows[0], {"text": "arange(4)", "shape": "(4,)", "strides": "(1,)",
                                   "storage_offset": "0", "is_contiguous": "yes", "memory": "new"})
        self.assertEqual(rows[1]["memory"], "view")
        written = {"results": [dict(self.EXPLORED["results"][1], memory="in_place",
                                    is_contiguous=False, shape=[], stride=[])]}
        self.assertEqual(explorer_answer.step_rows(written)[0],
                         {"text": "arange(4).view(2, 2)", "shape": "()", "strides": "()",
                          "storage_offset": "0", "is_contiguous": "no", "memory": "in place"})

    def test_steps_the_print_budget_left_out_end_the_results_as_an_error(self):
        cut = {"results": [dict(self.EXPLORED["results"][0]),
                           {"error": True, "message": "steps 2 to 9 not shown: the print budget"}]}
        del cut["results"][0]["repr"]
        self.assertEqual(len(explorer_answer.step_rows(cut)), 1)
        self.assertNotIn("repr", explorer_answer.last_step(cut))  # a row PyTorch's then fails
        self.assertEqual(explorer_answer.messages(cut), ["steps 2 to 9 not shown: the print budget"])
        self.assertEqual(explorer_answer.last_step({"results": []}), {})

    def test_messages_are_the_answers_own_and_its_results(self):
        self.assertEqual(explorer_answer.messages({"error": True, "message": "bad input: x"}),
                         ["bad input: x"])
        self.assertEqual(explorer_answer.messages(self.EXPLORED), [])

    def test_ask_sends_one_line_and_reads_one_answer(self):
        explore = self.explore_answering(self.EXPLORED)
        answer, why = explorer_answer.ask(explore, {"expression": "arange(4).view(2, 2)"})
        self.assertIsNone(why)
        self.assertEqual(answer, self.EXPLORED)
        with open(os.path.join(self.root, "request"), encoding="utf-8") as f:
            self.assertEqual(json.loads(f.read()), {"expression": "arange(4).view(2, 2)"})
        answer, why = explorer_answer.ask(explore, '{"grad":{"start":{"shape":[2]}}}')
        self.assertIsNotNone(answer)
        with open(os.path.join(self.root, "request"), encoding="utf-8") as f:
            self.assertEqual(f.read(), '{"grad":{"start":{"shape":[2]}}}\n')  # as written

    def test_ask_says_why_when_no_answer_came(self):
        for body, words in (('echo "[1]"\n', "not a JSON object"),
                            ("exit 0\n", "answered 0 lines"),
                            ('echo "no" >&2\nexit 2\n', "exited 2: no")):
            answer, why = explorer_answer.ask(self.fake_explore(body), {"expression": "x"})
            self.assertIsNone(answer)
            self.assertIn(words, why)
        answer, why = explorer_answer.ask(os.path.join(self.root, "missing"), {"expression": "x"})
        self.assertIsNone(answer)
        self.assertIn("No such file", why)


if __name__ == "__main__":
    unittest.main()
