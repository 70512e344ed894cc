"""Where a C++ function's body lies in a source file, found by its name: enough of C++ to name the
function a mutant edits, so that a mutant's text need be unique only inside that function.

A definition is a name followed by a parameter list and then, past qualifiers (const, noexcept,
override, a trailing return type or a constructor's initialiser list), by its body's `{`. A name
followed by `;` instead is a declaration and is skipped. Braces, parentheses, string and character
literals and comments are matched as the compiler reads them, so a `}` inside a string does not
end a body. Standard library only.
"""

import functools
import re

_NAME = re.compile(r"(?<![\w:.>])((?:[A-Za-z_]\w*::)*(?:operator\S+?|~?[A-Za-z_]\w*))\s*\(")
_KEYWORDS = {"if", "for", "while", "switch", "catch", "return", "sizeof", "alignof", "decltype",
             "static_assert", "static_cast", "reinterpret_cast", "const_cast", "dynamic_cast",
             "noexcept", "throw", "alignas", "requires", "__attribute__"}


def _skip_literal(text, i):
    """The index just past the string, character literal or comment that starts at i, or i."""
    if text.startswith("//", i):
        end = text.find("\n", i)
        return len(text) if end < 0 else end
    if text.startswith("/*", i):
        end = text.find("*/", i + 2)
        return len(text) if end < 0 else end + 2
    if text[i] in "\"'":
        if text[i] == "'" and i > 0 and (text[i - 1].isalnum()):  # 1'000 digit separator
            return i
        quote, j = text[i], i + 1
        while j < len(text) and text[j] != quote:
            j += 2 if text[j] == "\\" else 1
        return j + 1
    return i


def _match(text, i, open_, close):
    """The index just past the bracket that closes the one at i."""
    depth = 0
    while i < len(text):
        j = _skip_literal(text, i)
        if j != i:
            i = j
            continue
        if text[i] == open_:
            depth += 1
        elif text[i] == close:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError(f"unbalanced {open_}{close}")


def _body_start(text, i):
    """After a parameter list ending at i: the index of the body's `{`, or None for a declaration,
    a call or an expression."""
    while i < len(text):
        j = _skip_literal(text, i)
        if j != i:
            i = j
            continue
        c = text[i]
        if c == "{":
            return i
        if c in ";,)=}":
            if c == "=" and re.match(r"=\s*(default|delete)", text[i:]):
                return None
            return None
        if c == "(":  # noexcept(...), an initialiser's arguments
            i = _match(text, i, "(", ")")
            continue
        if c == ":" and not text.startswith("::", i):  # a constructor's initialisers
            i += 1
            while i < len(text):
                j = _skip_literal(text, i)
                if j != i:
                    i = j
                    continue
                if text[i] in "({":
                    close = ")" if text[i] == "(" else "}"
                    i = _match(text, i, text[i], close)
                    k = i
                    while k < len(text) and text[k] in " \t\n":
                        k += 1
                    if k < len(text) and text[k] == "{":
                        return k
                    continue
                i += 1
            return None
        i += 1
    return None


def _blank(text):
    """The text with every comment and literal turned to spaces (newlines kept), so that nothing
    inside them reads as a name or a bracket; offsets do not move."""
    out, i = [], 0
    while i < len(text):
        j = _skip_literal(text, i)
        if j != i:
            out.append("".join(c if c == "\n" else " " for c in text[i:j]))
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


@functools.lru_cache(maxsize=8)
def definitions(text):
    """Every function definition of the text: (name, body_start, body_end), body_end just past the
    closing brace; name as written (qualified names keep their qualifiers)."""
    out = []
    text = _blank(text)  # a list is returned: callers must not change it
    for m in _NAME.finditer(text):
        before = text[:m.start()].rstrip()
        if before and before[-1] not in "\n;{}>*&" and not before[-1].isalnum() and \
                before[-1] != "_":
            continue  # an argument, an operand or an initialiser, not a declarator
        name = m.group(1)
        if name.split("::")[-1] in _KEYWORDS:
            continue
        start = m.end() - 1
        try:
            params_end = _match(text, start, "(", ")")
            body = _body_start(text, params_end)
        except ValueError:
            continue
        if body is None:
            continue
        out.append((name, body, _match(text, body, "{", "}")))
    return out


def bodies(text, name):
    """The body spans of the definitions named `name` (every overload); a qualified name must
    match as written ("Tensor::slice"), a plain one matches either way."""
    return [(b, e) for n, b, e in definitions(text)
            if n == name or (("::" not in name) and n.split("::")[-1] == name)]


def enclosing(text, pos):
    """The name of the innermost definition whose body holds pos, or None."""
    best = None
    for n, b, e in definitions(text):
        if b <= pos < e and (best is None or e - b < best[2] - best[1]):
            best = (n, b, e)
    return best[0] if best else None


def occurrences(text, name, find):
    """Where `find` starts inside the bodies of `name`'s definitions."""
    found = []
    for b, e in bodies(text, name):
        i = text.find(find, b)
        while 0 <= i and i + len(find) <= e:
            found.append(i)
            i = text.find(find, i + 1)
    return found
