"""PyTorch's recorded answers (docs/recorded/pytorch/SERIES/NN_name.json, written by tools/book
record-pytorch) for the chapters with a companion: the reference series the library follows, the
earlier one its differences are noted against, and what the versions page compares."""

import os

import versions

from .common import load_json, rel
from .snippets import companion_path
from .tryit import unshown_tryits


def read_records(book):
    """records: chapter -> its record of the reference series (with "_earlier", the earlier
    series' record, for its Try it blocks); series_records: chapter -> {series: record}."""
    args = book.args
    book.record_dir = args.pytorch or os.path.join(args.docs, "recorded", "pytorch")
    book.records, book.series_records = {}, {}
    for ch in book.chapters:
        py = companion_path(ch)
        if not os.path.exists(py):
            continue
        series = {}
        for version in (versions.REFERENCE, versions.EARLIER, versions.LATER):
            record_path = os.path.join(book.record_dir, version, ch["name"] + ".json")
            if os.path.exists(record_path):
                series[version] = load_json(record_path, book.problems, rel(record_path, args.root))
            elif version != versions.LATER:  # 2.11's was recorded once, for six chapters
                book.problems.add(rel(py, args.root),
                                  f"chapter {ch['name']} has a PyTorch companion but no record "
                                  f"{rel(record_path, args.root)}: run tools/book record-pytorch")
        book.series_records[ch["name"]] = series
        if series.get(versions.REFERENCE):
            book.records[ch["name"]] = series[versions.REFERENCE]
            book.records[ch["name"]]["_earlier"] = series.get(versions.EARLIER)


def compare_versions(book):
    """The rows of the versions page, each a noted difference (differences.json), and the name
    each series' PyTorch gives itself."""
    notes_path = os.path.join(book.record_dir, "differences.json")
    notes_where = rel(notes_path, book.args.root)
    notes = load_json(notes_path, book.problems, notes_where) if os.path.exists(notes_path) else {}
    book.version_rows = versions.rows_of(book.chapters, book.series_records, notes or {},
                                         book.problems, notes_where)
    book.version_names = {}
    for series in book.series_records.values():
        for version, record in series.items():
            book.version_names.setdefault(version, (record or {}).get("torch", version))


def check_tryits_shown(book):
    """Every recorded Try it answer backs a block its page shows (the pages are rendered)."""
    for name, record in sorted(book.records.items()):
        for command in unshown_tryits(record):
            book.problems.add(f"docs/recorded/pytorch/{versions.REFERENCE}/{name}.json",
                              f"chapter {name}: PyTorch's recorded answer for the Try it block "
                              f"{command!r} is shown by no \\tryit of docs/{name}.md: remove it "
                              f"from chapters/{name}.py, or show it")
