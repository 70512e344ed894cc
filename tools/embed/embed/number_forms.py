"""Numbers as prose writes them (65,536, 2^26, 32³, 4 KiB, "twice"), made comparable."""

import html
import re
from decimal import Decimal

from .directives import ID


SUPERSCRIPT_DIGITS = str.maketrans("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079",
                                   "0123456789")
SUPERSCRIPT_FROM_DIGITS = {v: k for k, v in SUPERSCRIPT_DIGITS.items()}
SUPERSCRIPT_RE = re.compile("[\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079]+")


# A number as the book writes one: 0x3E8, 65,536, 1.5, -1 (or −1, U+2212), 2^26 (or 2²⁶, 2^{26},
# 2<sup>26</sup>), once number_text has made these one. Digits inside a name (float32, i0) are no
# number; a minus is a sign only where no operand stands before it ("N−1" is N minus 1, "dim −1"
# is −1).
NUMBER = (r"(?P<sign>(?<![\w)\]])-)?(?<![\w.])"
          r"(?P<digits>0x[0-9A-Fa-f]+|[0-9]{1,3}(?:,[0-9]{3})+(?![0-9])|[0-9]+(?:\.[0-9]+)?)"
          r"(?:\^(?P<exp>[0-9]+))?(?![\w])")
NUMBER_RE = re.compile(NUMBER)


# Numbers in words, as the prose says them: "twice as long", "three times as many", "the fourth
# line": whole words, any case, found in the text around a claim (a statement's numbers are its
# digits).
NUMBER_WORDS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "sixteen": "16", "once": "1", "twice": "2", "thrice": "3", "double": "2", "half": "2",
    "first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "sixth": "6",
}
NUMBER_WORD_RE = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")\b", re.I)
SIZE_UNITS = {"KiB": 1024, "MiB": 1024 ** 2, "GiB": 1024 ** 3, "kB": 1000, "KB": 1000,
              "MB": 1000 ** 2, "GB": 1000 ** 3}


# A size is a count of bytes with its unit; 716 GB/s is a rate, not a size.
SIZE_RE = re.compile(r"(?<![\w.])([0-9]+(?:\.[0-9]+)?)\s*(" + "|".join(SIZE_UNITS) + r")\b(?!\s*/)")
TIMES_RE = re.compile(r"\s*[×·]\s*")


def number_text(text):
    """Text with every way of writing a number made one: entities decoded, TeX's \\times and \\cdot
    as × and ·, thousands groups (65{,}536, 65\\,536, thin spaces) as 65,536, exponents
    (2^{26}, 2<sup>26</sup>, 2²⁶) as 2^26, U+2212 as -, and claim IDs (PF-03) dropped."""
    t = html.unescape(text)
    t = re.sub(r"\\times(?![A-Za-z])", "×", t)
    t = re.sub(r"\\cdot(?![A-Za-z])", "·", t)
    t = re.sub(r"([0-9])(?:\{,\}|\\,|[\u2009\u202f\u00a0])(?=[0-9]{3}(?![0-9]))", r"\1,", t)
    t = re.sub(r"\^\{\s*([0-9]+)\s*\}", r"^\1", t)
    t = re.sub(r"<sup>\s*([0-9]+)\s*</sup>", r"^\1", t)
    t = SUPERSCRIPT_RE.sub(lambda m: "^" + m.group(0).translate(SUPERSCRIPT_DIGITS), t)
    t = t.replace("\u2212", "-")
    return re.sub(ID, " ", t)


def number_key(digits, sign=""):
    """One number's canonical form: 65,536 and 65536 alike, 1.50 as 1.5, hex in lower case."""
    if digits.lower().startswith("0x"):
        return sign + "0x" + digits[2:].lower()
    d = Decimal(digits.replace(",", ""))
    return format((-d if sign else d).normalize(), "f")


def as_written(text):
    """A number or shape from number_text as a reader would write it: 32^3 as 32³."""
    return re.sub(r"\^([0-9]+)", lambda m: m.group(1).translate(SUPERSCRIPT_FROM_DIGITS), text)


def number_tokens(text):
    """The numbers of a text made by number_text: (as written, canonical key, the keys that say
    the same number, start, end). A power is found as itself (2^26) or as its value (67108864)."""
    out = []
    for m in NUMBER_RE.finditer(text):
        key = number_key(m.group("digits"), m.group("sign") or "")
        same = {key}
        if m.group("exp") and int(m.group("exp")) <= 64 and not key.startswith(("0x", "-0x")):
            value = Decimal(key) ** int(m.group("exp"))
            same = {f"{key}^{m.group('exp')}", format(value.normalize(), "f")}
            key = f"{key}^{m.group('exp')}"
        out.append((as_written(m.group(0).strip()), key, same, m.start(), m.end()))
    return out


def statement_numbers(statement):
    """The numbers a claim's statement states: {key: (as written, keys that say it)}, in order.
    Only numbers in digits: a statement's "one" or "second" is as often no number at all."""
    found = {}
    for shown, key, same, _, _ in number_tokens(number_text(statement)):
        found.setdefault(key, (shown, same))
    return found


def context_numbers(text):
    """Every number a reader finds in a text, in any of its forms: each number, a power's base and
    value, both readings of 64,512 (a thousands group or a list), the product of a chain
    2·3·4 or 1024×1024 (and N^k for a chain of k equal factors), and the numbers in words."""
    text = number_text(text)
    tokens = number_tokens(text)
    found = set()
    for _, key, same, start, end in tokens:
        found |= same
        if "^" in key:
            found.add(key.split("^")[0])
        digits = text[start:end].lstrip("-").split("^")[0]
        if "," in digits:
            found |= {number_key(p) for p in digits.split(",")}
    i = 0
    while i < len(tokens):
        j = i
        while j + 1 < len(tokens) and TIMES_RE.fullmatch(text[tokens[j][4]:tokens[j + 1][3]]):
            j += 1
        factors = [tokens[k][1] for k in range(i, j + 1)]
        if j > i and all(re.fullmatch(r"-?[0-9.]+", f) for f in factors):
            product = Decimal(1)
            for f in factors:
                product *= Decimal(f)
            found.add(format(product.normalize(), "f"))
            if len(set(factors)) == 1:
                found.add(f"{factors[0]}^{len(factors)}")
        i = j + 1
    for m in NUMBER_WORD_RE.finditer(text):
        found.add(NUMBER_WORDS[m.group(1).lower()])
        if m.group(1).lower() == "half":
            found.add("0.5")
    return found


def byte_count(number, unit):
    """'64', 'KiB' -> '65536': a size's key, in bytes, so that 64 KiB and 0.0625 MiB agree."""
    return format((Decimal(number) * SIZE_UNITS[unit]).normalize(), "f")


def quantities(text):
    """The shapes and sizes a text names, by kind: {"shape of 3": {"32×32×32", ...}, "size":
    {"4 KiB", ...}} as canonical strings. A shape is a chain N×M(×K…) or a square or cube, N² or
    N³; a size a number of bytes with its unit (KiB, MiB, GiB, kB, MB, GB), counted in bytes."""
    text = number_text(text)
    tokens = number_tokens(text)
    found = {}
    i = 0
    while i < len(tokens):
        j = i
        while j + 1 < len(tokens) and text[tokens[j][4]:tokens[j + 1][3]].strip() == "×":
            j += 1
        dims = [tokens[k][1] for k in range(i, j + 1)]
        if j == i and re.fullmatch(r"[0-9]+\^[23]", dims[0]):
            base, exp = dims[0].split("^")
            dims = [base] * int(exp)
        if len(dims) > 1 and all(re.fullmatch(r"[0-9]+", d) for d in dims):
            shown = as_written(text[tokens[i][3]:tokens[j][4]])
            found.setdefault(f"shape of {len(dims)}", {})["×".join(dims)] = shown
        i = j + 1
    for m in SIZE_RE.finditer(text):
        found.setdefault("size", {})[byte_count(m.group(1), m.group(2))] = m.group(0)
    return found


def contradictions(text, statement):
    """The shapes and sizes of a text that differ from every one of their kind in the statement
    (nothing is said of a kind the statement never names): [(key, as written, the statement's)],
    key being "shape:32×32×32" or "size:4096"."""
    ours = quantities(statement)
    bad = []
    for kind, items in quantities(text).items():
        if kind not in ours:
            continue
        for key, shown in items.items():
            if key not in ours[kind]:
                bad.append((("size:" if kind == "size" else "shape:") + key, shown.strip(),
                            ", ".join(s.strip() for s in ours[kind].values())))
    return bad


def note_key(text):
    """The key of a number as a line of docs/claim_numbers.txt names it: a number as
    statement_numbers keys it ("1.5", "2^26"), or a shape or size as contradictions does
    ("shape:64×64×64", "size:65536"); None if it is none of these, or several."""
    text = number_text(text).strip()
    size = SIZE_RE.fullmatch(text)
    if size:
        return "size:" + byte_count(size.group(1), size.group(2))
    shapes = [k for kind, items in quantities(text).items() if kind != "size" for k in items]
    if len(shapes) == 1 and re.fullmatch(r"[0-9]+(?:\^[23]|(?:\s*×\s*[0-9]+)+)", text):
        return "shape:" + shapes[0]
    tokens = number_tokens(text)
    if len(tokens) == 1 and tokens[0][0] == text:
        return tokens[0][1]
    return None
