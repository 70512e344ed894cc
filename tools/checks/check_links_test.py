#!/usr/bin/env python3
"""Tests of check_links: small made-up sites, each broken one way, must be caught."""

import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_links  # noqa: E402

GOOD = """<!DOCTYPE html><html><head><link rel="stylesheet" href="style.css"/>
<script src="app.js"></script></head><body><a id="top"></a>
<a href="other.html#sec">other</a> <a href="#top">top</a> <img src="img/a.png"/>
<iframe src="javascript:void(0)"></iframe></body></html>"""


class CheckLinksTest(unittest.TestCase):
    def setUp(self):
        self.site = tempfile.mkdtemp(prefix="links-test-")
        os.makedirs(os.path.join(self.site, "img"))
        self.write("index.html", GOOD)
        self.write("other.html", '<html><body><h1 id="sec">S</h1></body></html>')
        self.write("style.css", "body { background: url(img/a.png); }")
        self.write("app.js", "var x = 1;")
        self.write("img/a.png", "png")

    def tearDown(self):
        shutil.rmtree(self.site)

    def write(self, name, text):
        with open(os.path.join(self.site, name), "w", encoding="utf-8") as f:
            f.write(text)

    def problems(self):
        return check_links.check_site(self.site)[0]

    def test_a_clean_site_passes(self):
        self.assertEqual(self.problems(), [])

    def test_a_missing_file_is_caught(self):
        os.remove(os.path.join(self.site, "img/a.png"))
        p = self.problems()
        self.assertTrue(any("index.html" in x and "img/a.png" in x for x in p), p)

    def test_a_missing_fragment_is_caught(self):
        self.write("index.html", GOOD.replace("other.html#sec", "other.html#nowhere"))
        self.assertTrue(any("no id 'nowhere'" in x for x in self.problems()))

    def test_an_outside_script_is_caught(self):
        self.write("index.html", GOOD.replace('src="app.js"', 'src="https://cdn.example/x.js"'))
        self.assertTrue(any("loads https://cdn.example/x.js" in x for x in self.problems()))

    def test_an_outside_stylesheet_import_is_caught(self):
        self.write("style.css", '@import "https://fonts.example/f.css";')
        self.assertTrue(any("style.css" in x and "fonts.example" in x for x in self.problems()))

    def test_a_protocol_relative_image_is_caught(self):
        self.write("index.html", GOOD.replace('src="img/a.png"', 'src="//img.example/a.png"'))
        self.assertTrue(any("img.example" in x for x in self.problems()))

    def test_an_outside_hyperlink_is_reported(self):
        self.write("index.html", GOOD.replace('href="#top"', 'href="https://example.org/"'))
        self.assertTrue(any("links to https://example.org/" in x for x in self.problems()))

    def test_an_address_the_sources_page_gives_may_be_linked_from_any_page(self):
        self.write("sources.html", '<html><body><a href="https://example.org/article">it</a></body></html>')
        self.write("index.html", GOOD.replace('href="#top"', 'href="https://example.org/article"'))
        self.assertEqual(self.problems(), [])
        # Any other address is still reported, and no page may load even a cited one.
        self.write("index.html", GOOD.replace('href="#top"', 'href="https://example.org/other"'))
        self.assertTrue(any("links to https://example.org/other" in x for x in self.problems()))
        self.write("index.html", GOOD.replace('src="img/a.png"', 'src="https://example.org/article"'))
        self.assertTrue(any("loads https://example.org/article" in x for x in self.problems()))


if __name__ == "__main__":
    unittest.main(verbosity=1)
