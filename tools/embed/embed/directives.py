"""The page syntax the embed step reads: each directive of docs/*.md as a pattern, in one place,
so that the page renderer and the claim-number check read a page alike."""

import re


ID = r"[A-Z]{2}-[0-9]{2}(?:\.[a-z0-9]+)?"
CLAIM_RE = re.compile(r"\\claim\{([^}]*)\}")


# A claim mark with the word it follows ("strides.\claim{CT-01}"): Doxygen puts a space before a
# raw block, where a line may break and leave the mark alone at the start of the next line, so a
# plain word (no markup, no macro) goes into the mark's block with it, the two held on one line.
# Group 1 is that word, or None where the mark follows markup or a space; group 2 the ID.
WORD_CLAIM_RE = re.compile(r"(?:(?<![^\s(])([A-Za-z0-9][^\s\\`*_\[\]<>&{}|#$@\"]*))?"
                           r"\\claim\{([^}]*)\}")


# A word that is a command's argument ("\ref ch02.") stays where the command can read it.
COMMAND_BEFORE_RE = re.compile(r"[\\@]\w+\s+$")
OUTPUT_RE = re.compile(r"\\output\{([^}]*)\}")
BOOK_RE = re.compile(r"\\book\{([^}]*)\}")
SNIPPET_RE = re.compile(r"\\snippet(?:\{[^}]*\})?\s+(\S+)\s+(\S+)")
MARKER_RE = re.compile(r"^\s*//!\s*\[([^\]]+)\]\s*$")
PY_MARKER_RE = re.compile(r"^\s*#\s*\[([^\]]+)\]\s*$")  # a companion's listing: # [name]
# \explore{EXPR}, or \explore{{...}}: a --jsonl request, whose JSON nests braces (four deep here).
_JSON4 = r"\{(?:[^{}]|\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\})*\}"
EXPLORE_RE = re.compile(r"\\explore\{(" + _JSON4 + r"|[^{}]+)\}")


# What strided-explore says of an expression it cannot read, as against an op's refusal.
EXPLORE_UNREAD_RE = re.compile(r"unknown method|unknown function|unexpected|did you mean|"
                               r"expected an?|bad input")
TRYIT_RE = re.compile(r"^\\tryit\s+(.+?)\s*$")
REF_TEXT_OPEN_RE = re.compile(r'\\ref\s+\S+\s+"[^"]*$')
VALUE_RE = re.compile(r"\\(ch[0-9]{2}_[a-z0-9_]+)")
BARE_ID_RE = re.compile(r"(?<![\w{#-])(" + ID + r")(?![\w-])")
PAGE_ID_RE = re.compile(r"^#\s+(.*?)\s*\{#([A-Za-z0-9_]+)\}\s*$")
HEADING_ID_RE = re.compile(r"^#+\s+(.*?)\s*\{#([A-Za-z0-9_]+)\}\s*$")
TERMS_RE = re.compile(r"^\\terms\s+(.+?)\s*$")
SUBPAGE_RE = re.compile(r"\\subpage\s+([A-Za-z0-9_]+)")
CHAPTER_REF_RE = re.compile(r'\\ref\s+ch([0-9]{2})\w*\s+"[Cc]hapter\s+([0-9]+)"')
NAME_RE = re.compile(r"^[a-z0-9_]+$")
