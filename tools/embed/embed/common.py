"""What every job of the embed step shares: the problem list, escaping, and a claim's statuses."""

import html
import json
import os


STATUSES = ("passed", "failed", "not run", "inconclusive", "quoted")
MARKS = {"passed": "\u2713", "failed": "\u2717", "not run": "\u25cb", "inconclusive": "~",
         "quoted": "\u275d"}


class Problems:
    """Every problem found, reported together so one build shows all of them."""

    def __init__(self):
        self.items = []

    def add(self, where, message):
        self.items.append(f"{where}: {message}")


def esc(text):
    return html.escape(str(text), quote=True)


def rel(path, root):
    try:
        return os.path.relpath(path, root)
    except ValueError:
        return path


def load_json(path, problems, where):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        problems.add(where, f"{path} is missing")
    except (OSError, ValueError) as e:
        problems.add(where, f"{path} cannot be read: {e}")
    return None


def doxygen_safe(text):
    """HTML-escaped text that Doxygen cannot read as a command either: inside \\htmlonly a
    backslash or at-sign from chapter output (\\endhtmlonly) would end the raw block early."""
    return esc(text).replace("\\", "&#92;").replace("@", "&#64;")


class Book:
    """What the steps of main read and write, one attribute each: the command line (args), the
    problems, then what each step adds for the ones after it (chapters, claims, pages...)."""

    def __init__(self, args):
        self.args = args
        self.problems = Problems()
