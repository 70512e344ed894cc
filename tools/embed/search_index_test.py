#!/usr/bin/env python3
"""Tests of the search indexer on a made-up site in Doxygen 1.9.4's markup: what is a section,
what is indexed and what is not, and that a query built as docs/search.js builds it finds it."""

import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import search_index  # noqa: E402
from lunr.index import Index  # noqa: E402
from lunr.query import Query, QueryPresence  # noqa: E402
from lunr.stemmer import stemmer  # noqa: E402
from lunr.token import Token  # noqa: E402


def page(title, body):
    # The frame Doxygen 1.9.4 writes around a page: header, tree view, then div.contents.
    return f"""<!DOCTYPE html><html><head><title>Demo: {title}</title>
<script type="text/javascript">var outside = "headerword";</script></head><body>
<div id="top"><div id="projectname">Demo</div><div id="main-nav"></div></div>
<div id="doc-content"><div><div class="header">
  <div class="headertitle"><div class="title">{title} </div></div>
</div><!--header-->
<div class="contents">
{body}
</div><!-- contents -->
</div><!-- doc-content -->
<div id="nav-path" class="navpath"><ul><li class="footer">footerword</li></ul></div>
</body></html>"""


CHAPTER = page("Memory topology", r"""<div class="toc"><h3>Table of Contents</h3>
<ul><li class="level1"><a href="#ch99_views">tocword</a></li></ul>
</div>
<div class="textblock"><p ><a class="anchor" id="md_pages_99_demo"></a></p>
<p >A tensor's elements live in one flat <em>storage</em>.</p>
<h1><a class="anchor" id="ch99_address"></a>
Where an element lives</h1>
<p >The memory set \(\mathrm{memset}(t) = \mathtt{data\_ptr} + \{0, 1\}\) is gap-free.<a class="claim-mark claim-passed" href="claims.html#MT-03" title="MT-03 passed — titleword: 24">✓&#160;MT-03</a></p>
<div class="fragment"><div class="line"><span class="keywordtype">bool</span> notebook_is_contiguous(<span class="keyword">const</span> Tensor&amp; t) {</div>
<div class="line">  <span class="keywordflow">return</span> t.as_strided({2}, {1}).numel() == 0;</div>
</div><!-- fragment -->
<figure class="book-figure"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text x="1" y="9">svgword</text></svg><figcaption>A picture of the storage</figcaption></figure>
<h2><a class="anchor" id="ch99_views"></a>
Views share it</h2>
<div class="book-tryit"><pre class="book-output"><span class="book-prompt">$ strided-explore 'arange(6).permute(1, 0)'</span>
outputword sizes (3, 2)</pre></div>
<p >Nothing else here.<a class="claim-mark claim-not-run" href="claims.html#PF-10">–&#160;PF-10</a></p>
</div></div>
""")

LEDGER = page("Claims ledger", """<div class="textblock"><p >Every claim.</p>
<div class="book-table-wrap"><table class="book-table ledger">
<thead><tr><th>ID</th><th>Claim</th></tr></thead>
<tr id="MT-03"><td class="claim-id">MT-03</td><td>Element addresses are sums of strides.</td><td>24 <span class="expected">(expected 24)</span></td></tr>
<tr id="ER-03.recursion"><td class="claim-id">ER-03.<wbr>recursion</td><td>The recursion runs over every dim.</td></tr>
</table></div>
<p >After the ledger: trailingword.</p>
</div>""")

LISTING = page("Related Pages", """<div class="textblock">Here is a list of all related documentation pages:</div><div class="directory">
<table class="directory"><tr><td><a href="ch99.html">Memory topology</a></td></tr></table>
</div><!-- directory -->""")

# The errors page: each entry's message in a div.book-error-entry; a chapter quotes one of them in
# its prose too, and must come after the entry when the message is pasted.
ERRORS = page("Errors and what they mean", r"""<div class="textblock"><p >What PyTorch says.</p>
<h3><a class="anchor" id="ch98_view"></a>
A view across dims that do not merge</h3>
<div class="book-error-entry"><div class="book-text"><pre class="book-output">&gt;&gt;&gt; y.view(12)
RuntimeError: view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.</pre></div></div>
<p >A view keeps the storage.</p>
<h3><a class="anchor" id="ch98_expand"></a>
expand on a size other than 1</h3>
<div class="book-error-entry"><div class="book-text"><pre class="book-output">&gt;&gt;&gt; x.expand(4, 3)
RuntimeError: The expanded size of the tensor (4) must match the existing size (2) at non-singleton dimension 0.  Target sizes: [4, 3].  Tensor sizes: [2, 3]</pre></div></div>
<p >expand grows only a dim of size 1; a tensor's size and stride stay.</p>
<h3><a class="anchor" id="ch98_broadcast"></a>
Shapes that do not broadcast</h3>
<div class="book-error-entry"><div class="book-text"><pre class="book-output">&gt;&gt;&gt; a + b
RuntimeError: The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0</pre></div></div>
<p >Aligned from the right.</p>
</div>""")

QUOTING = page("Indexing", """<div class="textblock"><h2><a class="anchor" id="ch97_rule"></a>
When a new shape can be a view</h2>
<p >PyTorch says: view size is not compatible with input tensor's size and stride, and asks to use
reshape instead; a dimension spans two subspaces.</p></div>""")

LUNR_JS = "/* lunr */ var lunr = {};\n//# sourceMappingURL=lunr.min.js.map\n"


def stem(word):
    return str(stemmer(Token(word)))


class SearchIndexTest(unittest.TestCase):
    def setUp(self):
        self.site = tempfile.mkdtemp(prefix="search-index-test-")
        self.addCleanup(shutil.rmtree, self.site)
        for name, text in (("ch99.html", CHAPTER), ("claims.html", LEDGER), ("pages.html", LISTING),
                           ("ch98.html", ERRORS), ("ch97.html", QUOTING)):
            with open(os.path.join(self.site, name), "w", encoding="utf-8") as f:
                f.write(text)
        self.lunr_js = os.path.join(self.site, "lunr-source.js")
        with open(self.lunr_js, "w", encoding="utf-8") as f:
            f.write(LUNR_JS)

    def built(self):
        search_index.write(self.site, self.lunr_js)
        with open(os.path.join(self.site, "search-index.js"), encoding="utf-8") as f:
            js = f.read()
        prefix = "window.BOOK_SEARCH = "
        self.assertIn(prefix, js)
        data = json.loads(js[js.index(prefix) + len(prefix):].rstrip().rstrip(";"))
        return Index.load(data["index"]), data["docs"]

    def find(self, query_words, prefix_last=False):
        """(page, anchor) of each result, the query built clause by clause as docs/search.js does."""
        index, docs = self.built()
        q = index.create_query()
        for i, w in enumerate(query_words):
            last = prefix_last and i == len(query_words) - 1
            q.term(stem(w.lower()), use_pipeline=False, presence=QueryPresence.REQUIRED,
                   wildcard=Query.WILDCARD_TRAILING if last else Query.WILDCARD_NONE)
        # The errors page's fixtures (ch98, ch97) are for pasted messages, below.
        return [tuple(docs[int(r["ref"])][:2]) for r in index.query(q)
                if docs[int(r["ref"])][0] not in ("ch98.html", "ch97.html")]

    def pasted(self, text):
        """(page, anchor) of each result for a pasted message, the query built as docs/search.js
        builds a long one: its words (no bare numbers, no stop words, no single letters), each
        optional, in the sections' text and messages (not their titles); ranked by lunr's
        score."""
        from lunr.stop_word_filter import stop_word_filter
        index, docs = self.built()
        q = index.create_query()
        for w in search_index.TOKEN_RE.findall(text.lower()):
            if w.isdigit() or len(w) < 2 or stop_word_filter(Token(w)) is None:
                continue
            q.term(stem(w), use_pipeline=False, presence=QueryPresence.OPTIONAL,
                   fields=["body", "message"])
        return [tuple(docs[int(r["ref"])][:2]) for r in index.query(q)]

    def test_a_pasted_message_finds_its_entry_first(self):
        view = ("RuntimeError: view size is not compatible with input tensor's size and stride (at "
                "least one dimension spans across two contiguous subspaces). Use .reshape(...) "
                "instead.")
        found = self.pasted(view)
        self.assertEqual(found[0], ("ch98.html", "ch98_view"))
        self.assertIn(("ch97.html", "ch97_rule"), found)  # the chapter that quotes it comes later
        expand = ("The expanded size of the tensor (5) must match the existing size (3) at "
                  "non-singleton dimension 1.  Target sizes: [2, 5].  Tensor sizes: [2, 3]")
        self.assertEqual(self.pasted(expand)[0], ("ch98.html", "ch98_expand"))
        # A message whose words the expand entry's longer message holds too: each word counts once.
        broadcast = ("The size of tensor a (10) must match the size of tensor b (9) at "
                     "non-singleton dimension 0")
        self.assertEqual(self.pasted(broadcast)[0], ("ch98.html", "ch98_broadcast"))
        # The message's words are a field of the entry's section only.
        _, docs = self.built()
        self.assertEqual([d[1] for d in docs if d[0] == "ch98.html"], ["", "ch98_view", "ch98_expand", "ch98_broadcast"])

    def test_sections(self):
        _, docs = self.built()
        got = [(d[0], d[1], d[2], d[3]) for d in docs if d[0] not in ("ch98.html", "ch97.html")]
        self.assertEqual(got, [
            ("ch99.html", "", "Memory topology", ""),
            ("ch99.html", "ch99_address", "Memory topology", "Where an element lives"),
            ("ch99.html", "ch99_views", "Memory topology", "Views share it"),
            ("claims.html", "", "Claims ledger", ""),
            ("claims.html", "MT-03", "Claims ledger", "MT-03"),
            ("claims.html", "ER-03.recursion", "Claims ledger", "ER-03.recursion"),
        ])  # pages.html, Doxygen's list of pages, is not a page of the book

    def test_words_found_where_they_are(self):
        self.assertEqual(self.find(["storage"])[0], ("ch99.html", ""))
        self.assertEqual(self.find(["memset"]), [("ch99.html", "ch99_address")])   # TeX source
        self.assertEqual(self.find(["as_strided"]), [("ch99.html", "ch99_address")])  # code
        self.assertEqual(self.find(["contiguous"]), [("ch99.html", "ch99_address")])  # a part
        self.assertEqual(self.find(["permute"]), [("ch99.html", "ch99_views")])   # output block
        self.assertEqual(self.find(["outputword"]), [("ch99.html", "ch99_views")])
        self.assertEqual(self.find(["picture"]), [("ch99.html", "ch99_address")])  # figcaption
        self.assertEqual(self.find(["recursion"]), [("claims.html", "ER-03.recursion")])
        # After a ledger row ends, its section goes on.
        self.assertEqual(self.find(["trailingword"]), [("claims.html", "")])
        # Several words: all of them; the last one may be half typed.
        self.assertEqual(self.find(["element", "contig"], prefix_last=True),
                         [("ch99.html", "ch99_address")])
        self.assertEqual(self.find(["permute", "memset"]), [])

    def test_claim_ids(self):
        found = self.find(["MT-03"])
        self.assertEqual(found[0], ("claims.html", "MT-03"))  # its row in the ledger first
        self.assertIn(("ch99.html", "ch99_address"), found)   # and the sentence that makes it
        self.assertEqual(self.find(["pf-10"]), [("ch99.html", "ch99_views")])
        self.assertEqual(self.find(["ER-03"]), [("claims.html", "ER-03.recursion")])
        self.assertEqual(sorted(self.find(["mt-0"], prefix_last=True)),
                         [("ch99.html", "ch99_address"), ("claims.html", "MT-03")])

    def test_what_is_not_indexed(self):
        # The table of contents, scripts, SVG text, a claim mark's title, the header and footer,
        # the ledger's repeated expected values; TeX markup; bare numbers.
        for word in ("tocword", "headerword", "svgword", "titleword", "footerword", "expected",
                     "mathrm", "mathtt", "24", "Table"):
            with self.subTest(word=word):
                self.assertEqual(self.find([word]), [])

    def test_snippets(self):
        _, docs = self.built()
        text = {(d[0], d[1]): d[4] for d in docs}
        self.assertEqual(text[("ch99.html", "")], "A tensor's elements live in one flat storage.")
        self.assertIn("memset(t) = data_ptr + {0, 1} is gap-free.", text[("ch99.html", "ch99_address")])
        self.assertIn("is gap-free. ✓ MT-03 bool", text[("ch99.html", "ch99_address")])
        # A ledger row: its ID is its title, not its text; the expected value is not repeated.
        self.assertEqual(text[("claims.html", "MT-03")], "Element addresses are sums of strides. 24")
        long = "word " * 200
        cut = search_index.shorten(long.strip())
        self.assertLessEqual(len(cut), search_index.SNIPPET_CHARS + 2)
        self.assertTrue(cut.endswith("word …"))

    def test_lunr_js_copied_without_its_source_map(self):
        self.built()
        with open(os.path.join(self.site, "lunr.min.js"), encoding="utf-8") as f:
            copied = f.read()
        self.assertIn("var lunr = {};", copied)
        self.assertNotIn("sourceMappingURL", copied)

    def test_a_site_without_pages_fails(self):
        empty = tempfile.mkdtemp(prefix="search-index-empty-")
        self.addCleanup(shutil.rmtree, empty)
        with self.assertRaises(ValueError):
            search_index.build(empty)


if __name__ == "__main__":
    unittest.main()
