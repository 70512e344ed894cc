"""The embed step of the book: chapter outputs -> pages Doxygen can render.

Reads what each chapter program wrote with --emit (report.json, values.json, fragments) and the
Markdown pages of docs/, and writes into --pages:
  *.md            the pages, with claim marks, output inclusions and the chapter list filled in
  fragments/      every chapter output as an HTML fragment, escaped (chapter output is untrusted)
  values.doxy     ALIASES for the values sentences quote: \\ch01_name in a page becomes the value
  footer.html     the page footer (a copy of docs/footer.html)
  sources/        each chapter's sources, every //! [name] block shifted left to its own margin
                  (what \\snippet shows: Doxygen 1.9.4 cannot trim indentation itself); a
                  chapter's section files keep their folder: sources/06_performance/unary.cpp
  claims.json     every claim with its status, measured values and the pages that cite it

It fails (exit 1, one line per problem naming the file and the claim) when the text and the checks
drift apart: a claim ID in the text that no chapter checks, a check that no page cites, an output or
value a page refers to that is missing or older than its chapter's source, a claim that failed, a
recorded GPU run of an unknown format or naming a claim no chapter checks, or a claim's sentence
whose numbers are not its statement's (a number of the statement that neither the sentence's
paragraph nor what its section shows says, or a shape or size that differs from the statement's;
see check_claim_numbers and docs/claim_numbers.txt, its reviewed exceptions).

Directives in docs/*.md (nothing else is touched):
  \\claim{MT-03}        the mark of a sentence stating claim MT-03 (status, link to the ledger)
  \\output{name}        an output of this page's chapter; \\output{01_memory_topology/name} elsewhere
  \\book{chapters}      the list of chapter pages, in order
  \\book{ledger}        the claims ledger table
  \\book{errata}        the errata table
  \\book{gpu_runs}      a section for each recorded GPU run (docs/recorded/gpu; see gpu_runs.py)
  \\chNN_name           a value of chapter NN (a Doxygen alias, checked here first)
  \\tryit 'EXPR'        (a line of its own) asks strided-explore --jsonl about the expression EXPR
                       now ({"expression": EXPR}) and shows `strided-explore 'EXPR'` with the
                       report it prints, which the answer carries; an expression that fails fails
  \\explore{EXPR}      a link that opens EXPR in the Explorer page (explorer.html#EXPR), shown as
                       code; EXPR (an expression, or a --jsonl request) must run in
                       strided-explore --jsonl, or be refused by an op (a refusal is worth
                       showing), never fail to parse
  \\terms FORM, ...    (a line of its own, under a heading with an {#anchor}) makes that heading a
                       glossary entry: the first use of any FORM on a chapter page links to it

PyTorch beside the C++: a chapter whose program has a companion beside it (chapters/NN_name.py,
its listings between `# [name]` markers) shows each \\snippet of its page in two tabs, PyTorch
first, then C++ (docs/listing-tabs.js remembers the reader's choice); a listing with no PyTorch
form fails.
Each \\tryit of such a chapter shows PyTorch's recorded answer (docs/recorded/pytorch/NN_name.json,
written by tools/book record-pytorch) beside the explorer's, and fails when the two disagree on the
shape, strides, storage offset, contiguity or values, or when no answer is recorded.

Navigation, made here so that no page carries it by hand: a chapter page's title gets its number
from the file's prefix ("Chapter 4 · Title" for 04_*.md); every page the front page lists with
\\subpage (in that order, after the front page itself) gets previous/next links at its top and
bottom; and a \\ref to a chapter's anchor whose text names a chapter number must name that one.

Standard library only.
"""

import argparse
import os
import sys

from . import (chapters, claim_numbers, fragments, glossary, mutation_record, navigation, page,
               pytorch_records, recorded, snippets)
from .common import Book
from .write import write_site

# The steps, in order: each reads what the ones before it made (see Book) and adds to it. Every
# step runs even when an earlier one found problems, so one build reports all of them.
STEPS = (
    chapters.read_chapters,
    recorded.read_recorded_runs,
    mutation_record.read_mutation_record,
    claim_numbers.read_claim_numbers,
    navigation.name_chapter_pages,
    fragments.collect_outputs,
    snippets.read_sources,
    pytorch_records.read_records,
    page.render_pages,
    pytorch_records.compare_versions,
    pytorch_records.check_tryits_shown,
    claim_numbers.check_notes_used,
    navigation.number_chapter_titles,
    glossary.link_chapter_terms,
    navigation.link_pages,
    chapters.check_claims_cited,
    fragments.render_fragments,
)


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", required=True, help="the folder of the Markdown pages (docs/)")
    ap.add_argument("--out", required=True, help="where chapters emitted (build/book/out)")
    ap.add_argument("--pages", required=True, help="where to write the pages (build/book/pages)")
    ap.add_argument("--chapter", action="append", default=[], metavar="NAME=SOURCE",
                    help="a chapter and a source file of it (repeat; a chapter of several files "
                         "is named once per file, its program first)")
    ap.add_argument("--recorded", help="the folder of the recorded GPU runs (docs/recorded/gpu, "
                                       "written by tools/gpu/record.py)")
    ap.add_argument("--seed-timings", help="the seed notebook's quoted timings, which the GPU runs' "
                                           "section sets beside the library's (default: "
                                           "DOCS/recorded/seeds/pytorch-for-scientists.txt)")
    ap.add_argument("--mutants", help="the record of tools/book mutate (which mutants kill which "
                                      "claims); the build fails when it is stale")
    ap.add_argument("--mutants-pending", action="store_true",
                    help="a draft build: a mutation record that is stale only because claims are "
                         "new or reworded is a warning, not a failure (configure with "
                         "-DBOOK_MUTANTS_PENDING=ON while writing; tools/book mutate before "
                         "committing, since every other build still fails)")
    ap.add_argument("--claim-numbers", help="the reviewed exceptions to the check that a claim's "
                                            "sentence carries its statement's numbers "
                                            "(docs/claim_numbers.txt)")
    ap.add_argument("--footer", help="the page footer, copied beside the pages")
    ap.add_argument("--explore", help="the strided-explore program, for \\tryit blocks")
    ap.add_argument("--pytorch", help="the folder of PyTorch's recorded answers, NN_name.json "
                                      "(default: DOCS/recorded/pytorch)")
    ap.add_argument("--root", default=os.getcwd(), help="paths in messages are relative to this")
    return ap.parse_args(argv)


def main(argv=None):
    book = Book(parse_args(argv))
    for step in STEPS:
        step(book)
    if book.problems.items:
        for p in book.problems.items:
            print(f"embed: error: {p}", file=sys.stderr)
        print(f"embed: {len(book.problems.items)} problem(s); the book is not built", file=sys.stderr)
        return 1
    # Written only when nothing is wrong: a failed build leaves no half-made site.
    write_site(book)
    return 0
