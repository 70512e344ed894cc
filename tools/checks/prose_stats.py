#!/usr/bin/env python3
"""How the chapter pages read: words a sentence, long sentences, and how often a source is named.

Counted on the built pages (build/<preset>/book/html/chNN.html), on the running prose a reader
reads: paragraphs and list items of the page's text, without code, tables, figures, formulas,
the machine note and collapsed notes (<details>); inline code counts as one word. A sentence ends at ".", "!" or "?" followed by
a space or the end of the block; a word is a run of letters or digits (a number is one word).

  prose_stats.py SITE                  print the counts, page by page and in all
  prose_stats.py SITE --show-long     also print each sentence over 40 words, with its page
  prose_stats.py SITE --max-average W --max-long N [--max-page-average P] [--max-sources S]
                                       also fail (exit 1) when the sentences of all chapter pages
                                       average more than W words, or more than N run over 40, or
                                       when one page averages more than P words, or names a
                                       source more than S times in its running prose

Standard library only (html.parser).
"""

import argparse
import glob
import html.parser
import os
import re
import sys

LONG = 40  # words: a sentence longer than this is "long"
SKIP = {"pre", "code", "table", "figure", "svg", "details", "script", "style", "math"}
SKIP_CLASSES = {"book-machine", "fragment", "MathJax", "MathJax_SVG_Display", "book-tabs",
                "book-tryit", "book-output", "navbar", "book-nav", "claim-mark", "formulaDsp",
                "toc", "book-tryit-steps", "book-tryit-title"}
# The five documents the book grew from, as the prose names them.
SOURCES = re.compile(r"martinlwx|nikitaved|r-nn|PyTorch for Scientists|Demystifying PyTorch|"
                     r"Taking PyTorch For Granted|Notes on PyTorch Tensor|Chinese notes")
WORD = re.compile(r"[A-Za-z0-9\u00c0-\u024f]+(?:['’][A-Za-z]+)?")
SENTENCE_END = re.compile(r"(?<=[.!?])[\"”’)]*\s+(?=[A-Z(`“\"])")


class Prose(html.parser.HTMLParser):
    """The text of the <p> and <li> blocks inside div.contents, less the skipped parts."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []      # (tag, skipped, opens div.contents) of the open elements
        self.blocks = []
        self.current = None  # the text of the open <p> or <li>
        self.in_contents = 0

    def skipping(self):
        return any(entry[1] for entry in self.stack)

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "img", "hr", "input", "meta", "link"):
            return
        classes = set((dict(attrs).get("class") or "").split())
        skip = tag in SKIP or bool(classes & SKIP_CLASSES)
        # Inline code in a sentence counts as one word ("Code"), so that a sentence that begins
        # with it still begins a sentence.
        if tag == "code" and self.current is not None and not self.skipping():
            self.current.append(" Code ")
        if "contents" in classes:
            self.in_contents += 1
        self.stack.append((tag, skip, "contents" in classes))
        if tag in ("p", "li") and self.in_contents and not self.skipping() and self.current is None:
            self.current = []

    def handle_endtag(self, tag):
        while self.stack:
            open_tag, _, contents = self.stack.pop()
            if contents:
                self.in_contents -= 1
            if open_tag in ("p", "li") and self.current is not None and not self.skipping():
                text = " ".join("".join(self.current).split())
                if text:
                    self.blocks.append(text)
                self.current = None
            if open_tag == tag:
                break

    def handle_data(self, data):
        if self.current is not None and not self.skipping():
            self.current.append(data)


def sentences(block):
    return [s for s in SENTENCE_END.split(block) if WORD.search(s)]


def page_stats(path):
    parser = Prose()
    with open(path, encoding="utf-8") as f:
        parser.feed(f.read())
    all_sentences = [s for b in parser.blocks for s in sentences(b)]
    lengths = [len(WORD.findall(s)) for s in all_sentences]
    text = " ".join(parser.blocks)
    return {"sentences": len(lengths), "words": sum(lengths),
            "long_sentences": [s for s, n in zip(all_sentences, lengths) if n > LONG],
            "long": sum(1 for n in lengths if n > LONG), "longest": max(lengths, default=0),
            "sources": len(SOURCES.findall(text))}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("site", help="the built site (build/<preset>/book/html)")
    ap.add_argument("--max-average", type=float, help="fail above this many words a sentence")
    ap.add_argument("--max-long", type=int, help=f"fail above this many sentences over {LONG} words")
    ap.add_argument("--max-page-average", type=float,
                    help="fail when a chapter page averages above this many words a sentence")
    ap.add_argument("--max-sources", type=int,
                    help="fail when a chapter page names a source more often than this")
    ap.add_argument("--show-long", action="store_true", help=f"print each sentence over {LONG} words")
    args = ap.parse_args(argv)
    pages = sorted(glob.glob(os.path.join(args.site, "ch[0-9][0-9].html")))
    if not pages:
        print(f"prose_stats: no chapter pages in {args.site}", file=sys.stderr)
        return 1
    total = {"sentences": 0, "words": 0, "long": 0, "longest": 0, "sources": 0}
    failed = []
    for path in pages:
        s = page_stats(path)
        name = os.path.basename(path)
        page_average = s["words"] / max(s["sentences"], 1)
        if args.max_page_average is not None and page_average > args.max_page_average:
            failed.append(f"{name}: {page_average:.1f} words a sentence, more than "
                          f"{args.max_page_average}")
        if args.max_sources is not None and s["sources"] > args.max_sources:
            failed.append(f"{name}: sources named {s['sources']} times, more than "
                          f"{args.max_sources} (a correction of a source goes in a collapsed note)")
        print(f"prose_stats: {os.path.basename(path)}: {s['sentences']} sentences, "
              f"{s['words'] / max(s['sentences'], 1):.1f} words each, {s['long']} over {LONG} "
              f"(longest {s['longest']}), sources named {s['sources']} times")
        if args.show_long:
            for sentence in s["long_sentences"]:
                print(f"  {len(WORD.findall(sentence))} words: {sentence}")
        for k in ("sentences", "words", "long", "sources"):
            total[k] += s[k]
        total["longest"] = max(total["longest"], s["longest"])
    average = total["words"] / max(total["sentences"], 1)
    print(f"prose_stats: the chapters: {total['sentences']} sentences, {average:.1f} words each, "
          f"{total['long']} over {LONG} (longest {total['longest']}), sources named "
          f"{total['sources']} times")
    if args.max_average is not None and average > args.max_average:
        failed.append(f"{average:.1f} words a sentence, more than {args.max_average}")
    if args.max_long is not None and total["long"] > args.max_long:
        failed.append(f"{total['long']} sentences over {LONG} words, more than {args.max_long}")
    for f in failed:
        print(f"prose_stats: FAILED: {f}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
