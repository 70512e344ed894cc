"""What a Try it block and an Explorer link read from strided-explore: its --jsonl answer.

One request a run, answered in one line of JSON. A Try it block asks {"expression": EXPR} and
gets one entry a step (its text, layout, dtype, what it did to memory, its values as PyTorch
prints them) and the text report the block shows; tools/explore/expression_request.h says what
each field means. This module asks, and words the fields as the pages show them."""

import json
import subprocess


def ask(explore, request):
    """Runs `EXPLORE --jsonl` on one request (a dict, or a line of JSON as a page writes it);
    returns (answer, None), or (None, why) when the run did not give one answer of JSON."""
    line = request if isinstance(request, str) else json.dumps(request)
    try:
        run = subprocess.run([explore, "--jsonl"], input=line + "\n", stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    out = run.stdout.strip()
    if run.returncode != 0:
        return None, f"exited {run.returncode}: {(run.stderr or out).strip()[:500]}"
    if not out or "\n" in out:
        return None, f"answered {out.count(chr(10)) + 1 if out else 0} lines, not one: {out[:300]}"
    try:
        answer = json.loads(out)
    except ValueError as e:
        return None, f"answered what is not JSON ({e}): {out[:300]}"
    if not isinstance(answer, dict):
        return None, f"answered what is not a JSON object: {out[:300]}"
    return answer, None


def messages(answer):
    """Every error message of an answer: its own, and those ending its results."""
    found = [answer["message"]] if answer.get("error") else []
    for entry in answer.get("results") or []:
        if isinstance(entry, dict) and entry.get("error"):
            found.append(entry.get("message", ""))
    return [str(m) for m in found]


def steps(answer):
    """The steps an expression's answer shows, its closing error entry (steps the print budget
    left out) aside."""
    return [s for s in answer.get("results") or [] if isinstance(s, dict) and not s.get("error")]


def py_tuple(values):
    """A list as Python prints a tuple of it: (4,), (2, 1), ()."""
    return str(tuple(values))


def last_step(answer):
    """The last step of an expression's answer as PyTorch prints it: {shape, strides,
    storage_offset, is_contiguous, dtype, repr}; {} when it has no step, and no repr when the
    report did not print the values."""
    shown = steps(answer)
    if not shown:
        return {}
    s = shown[-1]
    row = {"shape": py_tuple(s["shape"]), "strides": py_tuple(s["stride"]),
           "storage_offset": str(s["storage_offset"]), "dtype": s["dtype"],
           "is_contiguous": str(bool(s["is_contiguous"]))}
    if "repr" in s:
        row["repr"] = s["repr"]
    return row


# A step's memory as the steps table words it: one word a cell.
MEMORY_WORDS = {"in_place": "in place"}


def step_rows(answer):
    """Each step of an expression's answer as the steps table shows it: {text, shape, strides,
    storage_offset, is_contiguous (yes or no), memory (new, view, copy, self or in place)}."""
    return [{"text": s["text"], "shape": py_tuple(s["shape"]), "strides": py_tuple(s["stride"]),
             "storage_offset": str(s["storage_offset"]),
             "is_contiguous": "yes" if s["is_contiguous"] else "no",
             "memory": MEMORY_WORDS.get(s["memory"], s["memory"])}
            for s in steps(answer)]
