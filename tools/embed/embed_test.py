#!/usr/bin/env python3
"""The embed tool's tests, all of them (docs.embed in ctest): each module's tests beside it, in
embed/*_test.py, and those of gpu_runs.py and versions.py here. The search indexer's tests run on
their own (docs.search_index), with a python3 that imports lunr."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

if __name__ == "__main__":
    loader = unittest.defaultTestLoader
    suite = loader.discover(os.path.join(HERE, "embed"), pattern="*_test.py", top_level_dir=HERE)
    suite.addTests(loader.loadTestsFromNames(["gpu_runs_test", "versions_test"]))
    result = unittest.TextTestRunner(verbosity=1).run(suite)
    print(f"{result.testsRun} tests")
    sys.exit(0 if result.wasSuccessful() else 1)
