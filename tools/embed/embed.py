#!/usr/bin/env python3
"""The embed step of the book: chapter outputs -> pages Doxygen can render.

The command line of docs/CMakeLists.txt. The work is done by the package embed/ beside this file,
one module a job; embed/main.py says what is read and written, and lists the steps.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The package embed/, which Python finds before this file of the same name.
from embed.main import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
