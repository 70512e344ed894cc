"""The page *PyTorch 1.13 and PyTorch 2*, built from PyTorch's recorded answers.

Three records of each chapter's companion sit in docs/recorded/pytorch/: 2.6 (the PyTorch the
library follows), 1.13 (Debian 12's) and 2.11 (recorded once, with older companions). An answer is
a row of the page when the records differ on it: 1.13 from 2.6, or 2.11 from 2.6 where 2.11 has an
answer. Each row must be noted in docs/recorded/pytorch/differences.json, which says in words what
differs ("squeeze takes a tuple of dims"); a row without a note, or a note without a row, stops the
build. The chapters' reports (pytorch_versions) name the claims whose checks compared each answer
with both records; the row names them. Nothing on the page is cited from release notes: every cell
is a recorded answer.
"""

import html
import json
import os

EARLIER, REFERENCE, LATER = "1.13", "2.6", "2.11"
TRYIT = "Try it "  # the key of a Try it block's answer: "Try it <explorer command>"


def esc(text):
    return html.escape(str(text), quote=True)


def answers_of(record):
    """{key: answer} of a record: "group / expression" for an expression, "Try it CMD" for a Try
    it block; {} for a missing record."""
    out = {}
    for group, answers in (record or {}).get("expressions", {}).items():
        for expression, answer in answers.items():
            out[f"{group} / {expression}"] = answer
    for command, answer in (record or {}).get("tryits", {}).items():
        out[TRYIT + command] = answer
    return out


def differing(earlier, reference, later):
    """The keys on which the three records of one chapter differ, in the reference's order, each
    with its three answers (None where a record has none)."""
    a, b, c = answers_of(earlier), answers_of(reference), answers_of(later)
    rows = []
    for key, now in b.items():
        before, after = a.get(key), c.get(key)
        if (before is not None and before != now) or (after is not None and after != now):
            rows.append((key, before, now, after))
    return rows


def answer_text(answer, limit=220):
    """A recorded answer in one short line: the error, the value, or the tensor's layout (and its
    values when recorded). Long answers are cut, visibly."""
    if answer is None:
        return "not recorded"
    if "error" in answer:
        text = answer["error"].split("\n")[0]
    elif "value" in answer:
        text = json.dumps(answer["value"], ensure_ascii=False)
    else:
        text = (f"shape {tuple(answer.get('shape', []))}, strides "
                f"{tuple(answer.get('strides', []))}, offset {answer.get('storage_offset')}, "
                f"{answer.get('dtype')}")
        if "values" in answer:
            text += f", values {json.dumps(answer['values'])}"
        if "shares_storage" in answer:
            text += ", a view" if answer["shares_storage"] else ", a copy"
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def shown_texts(answers, limit=220):
    """The texts of one row's answers, each at most LIMIT characters. Where they share a long
    beginning (an error reworded at its end), it is cut to "…" so that what differs shows."""
    texts = [answer_text(a, limit=10_000) for a in answers]
    distinct = sorted({t for t, a in zip(texts, answers) if a is not None})
    if len(distinct) > 1:
        common = len(os.path.commonprefix(distinct))
        if common > 80:
            cut = texts[0].rfind(" ", 0, common - 60) + 1
            texts = [("\u2026" + t[cut:]) if a is not None and len(t) > common else t
                     for t, a in zip(texts, answers)]
    return [t if len(t) <= limit else t[:limit - 1] + "\u2026" for t in texts]


def rows_of(chapters, records, notes, problems, where):
    """The page's rows, in chapter order: (chapter, key, note, 1.13, 2.6, 2.11, claim IDs).
    RECORDS maps a chapter to {series: record}; NOTES is differences.json. Reports a difference
    without a note, a note without a difference, and an answer 2.6 has and 1.13 lacks."""
    rows = []
    for ch in chapters:
        name = ch["name"]
        series = records.get(name)
        if not series:
            continue
        noted = dict(notes.get(name, {}))
        before_all = answers_of(series.get(EARLIER))
        for key in answers_of(series.get(REFERENCE)):
            if key not in before_all:
                problems.add(where, f"chapter {name}, {key}: PyTorch {REFERENCE} answers it and "
                                    f"{EARLIER}'s record has no answer (run tools/book "
                                    "record-pytorch)")
        compared = {}
        for entry in ch["report"].get("pytorch_versions", []):
            compared.update(entry.get("compared", {}))
        for key, before, now, after in differing(series.get(EARLIER), series.get(REFERENCE),
                                                 series.get(LATER)):
            note = noted.pop(key, None)
            if note is None:
                problems.add(where, f"chapter {name}, {key}: the records differ "
                                    f"({EARLIER}: {answer_text(before, 120)}; {REFERENCE}: "
                                    f"{answer_text(now, 120)}; {LATER}: {answer_text(after, 120)}) "
                                    "and differences.json does not say what differs")
                continue
            claims = sorted(c for c in compared.get(key, []) if c)
            rows.append((name, key, note, before, now, after, claims))
        for key in noted:
            problems.add(where, f"chapter {name}, {key}: noted as a difference, but the records "
                                "agree (or have no such answer): remove the note")
    for name in notes:
        if name not in records:
            problems.add(where, f"notes for chapter {name}, which has no records")
    return rows


LAYOUT = ("shape", "strides", "storage_offset")


def summary(records):
    """Counts over every chapter's records ({chapter: {series: record}}): the answers of 2.6,
    how many of them 1.13 and 2.11 answered otherwise, and how many of those differences are a
    tensor's layout (both answers a tensor, with other sizes, strides or offset)."""
    counts = {"answers": 0, "earlier": 0, "later_recorded": 0, "later": 0, "layout": 0}
    for series in records.values():
        a, b, c = (answers_of(series.get(v)) for v in (EARLIER, REFERENCE, LATER))
        for key, now in b.items():
            counts["answers"] += 1
            for name, other in (("earlier", a.get(key)), ("later", c.get(key))):
                if other is None:
                    continue
                if name == "later":
                    counts["later_recorded"] += 1
                if other == now:
                    continue
                counts[name] += 1
                if all(k in other and k in now for k in LAYOUT) and any(
                        other[k] != now[k] for k in LAYOUT):
                    counts["layout"] += 1
    return counts


def summary_html(counts, versions):
    return (f'<p class="book-versions-summary">The records hold {counts["answers"]} answers of '
            f'PyTorch {esc(versions.get(REFERENCE, REFERENCE))}. PyTorch '
            f'{esc(versions.get(EARLIER, EARLIER))} answered {counts["earlier"]} of them '
            f'otherwise; PyTorch {esc(versions.get(LATER, LATER))}, asked '
            f'{counts["later_recorded"]} of them, answered {counts["later"]} otherwise. '
            f'{counts["layout"]} of these differences are a tensor\'s layout: sizes, strides or '
            "storage offset.</p>")


def versions_html(rows, versions, chapter_link, claim_link):
    """The table of the page: a row per difference, what differs (in words, with the chapter, the
    answer's key and the claims that rely on it) beside the recorded answers, one per version.
    VERSIONS names each series' torch ("1.13.0a0"); CHAPTER_LINK(name) and CLAIM_LINK(id) give
    the links."""
    if not rows:
        return "<p>The records agree on every answer.</p>"
    head = ('<thead><tr><th scope="col">what differs</th>'
            '<th scope="col">the recorded answers</th></tr></thead>')
    body = []
    for name, key, note, before, now, after, claims in rows:
        before_text, now_text, after_text = shown_texts([before, now, after])
        relied = ", ".join(claim_link(c) for c in claims) or (
            "its Try it block" if key.startswith(TRYIT) else "no claim")
        answers = "".join(
            f'<dt>PyTorch {esc(versions.get(series, series))}</dt><dd><code>{esc(text)}</code></dd>'
            for series, text in ((EARLIER, before_text), (REFERENCE, now_text),
                                 (LATER, "as " + REFERENCE if after == now else after_text)))
        body.append(
            "<tr>"
            f"<td>{esc(note)}<div class=\"book-version-key\">{chapter_link(name)}: "
            f"<code>{esc(key)}</code>; relied on by {relied}</div></td>"
            f'<td><dl class="book-version-answers">{answers}</dl></td></tr>')
    return ('<div class="book-table-wrap"><table class="book-table book-versions">'
            f"{head}<tbody>{''.join(body)}</tbody></table></div>")
