"""The machine a chapter ran on, said for a reader at the end of the chapter's page."""


from .common import esc


def machine_note_html(prov, claims=(), pytorch=""):
    """The machine a chapter ran on, said for a reader, at the end of the chapter's page.

    Every measured number on the page came from this run; a reader comparing with their own
    machine needs the processor, its caches, the system, the compiler and its flags, the BLAS, the
    GPU (or why there was none, plainly first and in the CUDA runtime's words as detail) and the
    commit. claims are the chapter's (its report's): the sizes its timings ran at are said only
    where it has timings, and the title excepts the claims marked not run or quoted (not checked
    here) only where the page has some.
    """
    p = prov
    kinds = {c.get("kind") for c in claims}
    statuses = {c.get("status") for c in claims}
    gpu = p.get("gpu", "no GPU")
    if gpu == "no GPU":
        plain = p.get("gpu_plain") or "no usable CUDA device"
        detail = p.get("gpu_reason", "")
        gpu_html = (f"none: {esc(plain)}; its GPU claims are <em>not run</em>"
                    + (f' <span class="book-machine-detail">({esc(detail)})</span>' if detail else ""))
    else:
        gpu_html = f'{esc(gpu)}, {esc(p.get("cuda_runtime", ""))}'
    caches = p.get("caches", "")
    rows = [
        ("Processor", f'{esc(p.get("cpu", "unknown CPU"))}, {esc(p.get("cpu_threads", "?"))} '
                      "hardware threads" + (f"; caches {esc(caches)}" if caches else "")),
        ("System", esc(p.get("os", "unknown"))),
        # Each flag on one line: a browser may break "-DNDEBUG" after its hyphen.
        ("Compiler", f'{esc(p.get("compiler", ""))}, flags <code>'
                     + " ".join(f'<span class="book-nowrap">{esc(f)}</span>'
                                for f in str(p.get("flags", "")).split()) + "</code>"),
        ("BLAS", esc(p.get("blas", "unknown"))),
        *([("PyTorch", f'its answers recorded from PyTorch {esc(pytorch)} '
                       '(<a href="versions.html">where they differ</a>); no PyTorch ran here')]
          if pytorch else []),
        *([("CPU kernels", f'{esc(p["cpu_capability"])}: the build of the element-wise, copy and '
                           "reduction loops chosen for this processor at start-up")]
          if p.get("cpu_capability") else []),
        ("GPU", gpu_html),
        *([("Timings", esc(p["sizes"]))]
          if p.get("sizes") and any(str(k).startswith("timing") for k in kinds) else []),
        ("Commit", f'<code>{esc(p.get("commit", "unknown"))}</code>, run {esc(p.get("date", ""))}'),
    ]
    items = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
    # A claim not run, or quoted from a source, was not checked here.
    unchecked = [f"<em>{s}</em>" for s in ("not run", "quoted") if s in statuses]
    title = ("The claims on this page were checked on this machine"
             + (", but for those marked " + " or ".join(unchecked) if unchecked else "")
             + ", and its numbers were measured here, save those it gives as a source's or as a "
             "recorded run's:")
    return ('<div class="book-machine" id="machine"><p class="book-machine-title">'
            f'{title}</p><dl>{items}</dl></div>\n')
