"""What a Try it block reads from strided-explore's text report.

The block shows that report as it is, so the same run gives its rows too. (--jsonl answers a
chain of ops, not an expression, and has no dtype, values as PyTorch prints them, or step text.)"""

import re


def explorer_answer(out):
    """The last step of strided-explore's text report: {shape, strides, storage_offset,
    is_contiguous, dtype, repr}, each as the report prints it; {} when it has no step."""
    steps = re.split(r"^step [0-9]+: .*$", out, flags=re.M)
    if len(steps) < 2:
        return {}
    last = steps[-1]
    answer = {}
    for key, pattern in (("shape", r"^  shape +(\(.*?\))"), ("strides", r"^  strides +(\(.*?\))"),
                         ("storage_offset", r"^  storage offset +(-?[0-9]+)"),
                         ("dtype", r"^  dtype +(\w+)"),
                         ("is_contiguous", r"^  contiguous +(yes|no)")):
        m = re.search(pattern, last, re.M)
        if m:
            answer[key] = m.group(1)
    if "is_contiguous" in answer:  # as PyTorch prints it
        answer["is_contiguous"] = "True" if answer["is_contiguous"] == "yes" else "False"
    # The values: the lines under "  values", blank ones included (a 3-d tensor's blocks are
    # apart), up to the next heading of two spaces.
    m = re.search(r"^  values\n((?:(?:    .*)?\n)+?)(?=  \S|\Z)", last + "\n", re.M)
    if m:
        answer["repr"] = "\n".join(l[4:] for l in m.group(1).rstrip("\n").split("\n"))
    return answer


def explorer_steps(out):
    """Each step of strided-explore's text report: {text, shape, strides, storage_offset,
    is_contiguous, memory}, memory one word (new, view, copy, same) as the report's first word."""
    steps = []
    parts = re.split(r"^step [0-9]+: (.*)$", out, flags=re.M)
    for text, body in zip(parts[1::2], parts[2::2]):
        step = {"text": text.strip()}
        for key, pattern in (("shape", r"^  shape +(\(.*?\))"), ("strides", r"^  strides +(\(.*?\))"),
                             ("storage_offset", r"^  storage offset +(-?[0-9]+)"),
                             ("is_contiguous", r"^  contiguous +(yes|no)"),
                             ("memory", r"^  memory +(new tensor|view|copy|the same tensor)")):
            m = re.search(pattern, body, re.M)
            step[key] = m.group(1) if m else ""
        step["memory"] = {"new tensor": "new", "the same tensor": "self"}.get(step["memory"],
                                                                              step["memory"])
        steps.append(step)
    return steps
