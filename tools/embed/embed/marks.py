"""The mark a sentence stating a claim carries: its status, a link to the ledger, its values."""


from .chapters import measurements
from .common import MARKS, doxygen_safe, esc


def claim_title(c):
    parts = [f"{c['id']} {c['status']}"]
    if c.get("reason"):
        parts.append(c["reason"])
    for m in measurements(c):
        s = f"{m['what']}: {m['measured']}"
        s += (f" (expected {m['expected']})" if m["compared"]
              else f" (quoted from {m['quoted']})" if m.get("quoted") else " (measured)")
        parts.append(s)
    for r in c.get("recorded", []):
        parts.append(f"recorded on {r['gpu']} at {r['commit']}: {r['status']}")
    return " \u2014 ".join(parts)


def claim_mark(c, word=None):
    """The mark of claim c, as a raw HTML block; with the word it follows (WORD_CLAIM_RE), the
    word too, in a span that keeps the two on one line."""
    status = c["status"]
    cls = "claim-" + status.replace(" ", "-")
    mark = (f'<a class="claim-mark {cls}" href="claims.html#{esc(c["id"])}" '
            f'title="{doxygen_safe(claim_title(c))}">{MARKS[status]}&#160;{esc(c["id"])}</a>')
    if word:
        mark = f'<span class="book-nowrap">{doxygen_safe(word)}{mark}</span>'
    return f"\\htmlonly{mark}\\endhtmlonly"


def base_id(cid):
    return cid.split(".", 1)[0]
