"""The dated record of the analysis's changes, ``data/analysis-changes.csv``: one row per change to a
tolerance, a rule, a quantity, a statistic, the measurement design, the claim inventory or a claim's
words, made after some batch had been measured.  Each row gives the date (the commit's author date, UTC),
the commit, its kind, the claims it touches, the recorded batches measured before it (folder names under
data/results/), the verdicts it moved and where it was disclosed.

When the method was last changed is read from this record (:func:`last_change`), never written down
beside it; docs/method.md shows the record as a table (:func:`markdown_table`), and a test checks that
the two agree and that no document says the method unchanged since an earlier date.
"""
from __future__ import annotations

import csv
import os
from pathlib import Path

CHANGES_FILE = Path(__file__).resolve().parents[3] / "data" / "analysis-changes.csv"
COLUMNS = ("date", "commit", "kind", "study", "change", "claims", "batches_before", "moved", "disclosed")

# The kinds a verdict can follow from; a claim's words ('claim text'), a label beside a verdict ('label'),
# how runs are grouped into batches ('batching') and when a batch stopped ('stopping') change no rule.
METHOD_KINDS = ("tolerance", "rule", "quantity", "statistic", "measurement", "inventory")
KINDS = METHOD_KINDS + ("claim text", "label", "batching", "stopping")


def path():
    """The record in use: $APSP_ANALYSIS_CHANGES (a copy, for a test), else data/analysis-changes.csv."""
    return Path(os.environ.get("APSP_ANALYSIS_CHANGES") or CHANGES_FILE)


def _split(text):
    return [x.strip() for x in (text or "").split(";") if x.strip()]


def load(file=None):
    """The rows, oldest first; ``claims`` and ``batches_before`` as lists."""
    with open(file or path(), newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r["claims"] = _split(r["claims"])
        r["batches_before"] = _split(r["batches_before"])
    return sorted(rows, key=lambda r: (r["date"], r["commit"]))


def last_change(rows=None, kinds=METHOD_KINDS):
    """The newest change of one of ``kinds`` (by default those a verdict can follow from)."""
    rows = [r for r in (rows if rows is not None else load()) if r["kind"] in kinds]
    return rows[-1] if rows else None


def last_before(stamp, rows=None, kinds=METHOD_KINDS):
    """The newest change of ``kinds`` dated before ``stamp`` (ISO, UTC), or None."""
    rows = [r for r in (rows if rows is not None else load()) if r["kind"] in kinds and r["date"] < stamp]
    return rows[-1] if rows else None


def after(stamp, rows=None, kinds=KINDS):
    """Every change of ``kinds`` dated after ``stamp``, oldest first."""
    return [r for r in (rows if rows is not None else load()) if r["kind"] in kinds and r["date"] > stamp]


def touching(claim, batch_names, rows=None):
    """The changes that name ``claim`` and came after one of ``batch_names`` had been measured."""
    names = set(batch_names)
    return [r for r in (rows if rows is not None else load())
            if claim in r["claims"] and names & set(r["batches_before"])]


def when(row):
    """'2026-11-25 15:57 UTC' of a row."""
    return row["date"][:16].replace("T", " ") + " UTC"


def markdown_table(rows=None):
    """The record as docs/method.md shows it: one line a change, the batches measured before it shortened."""
    rows = rows if rows is not None else load()
    head = "| date (UTC) | commit | kind | change | measured before it | verdicts it moved | disclosed |"
    lines = [head, "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        cells = [r["date"][:16].replace("T", " "), f"`{r['commit']}`", r["kind"], r["change"],
                 _batches_text(r["batches_before"]), r["moved"], r["disclosed"]]
        lines.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
    return "\n".join(lines)


def _batches_text(names):
    """Batch folders grouped by their kind, each by its start (``paper-campaign 1124-2050, 1124-2350``)."""
    groups = {}
    for n in names:
        parts = n.split("-")
        kind = "-".join(parts[2:]) or n
        groups.setdefault(kind, []).append(f"{parts[0][4:]}-{parts[1]}" if len(parts) >= 3 else n)
    return "; ".join(f"{k} {', '.join(v)}" for k, v in groups.items()) or "-"


BEGIN = "<!-- analysis-changes: begin (rendered from data/analysis-changes.csv; do not edit here) -->"
END = "<!-- analysis-changes: end -->"
DOC = Path(__file__).resolve().parents[3] / "docs" / "method.md"


def rendered(text):
    """The table between the markers of a page's text, or None where it has none."""
    if BEGIN not in text or END not in text:
        return None
    return text.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n")


def render_into(text, rows=None):
    """``text`` with the table between its markers replaced by the record's."""
    head, rest = text.split(BEGIN, 1)
    return head + BEGIN + "\n" + markdown_table(rows) + "\n" + END + rest.split(END, 1)[1]


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description="Render data/analysis-changes.csv into docs/method.md's table.")
    ap.add_argument("--doc", default=str(DOC), help="the page holding the markers (default docs/method.md)")
    a = ap.parse_args(argv)
    doc = Path(a.doc)
    doc.write_text(render_into(doc.read_text()))


if __name__ == "__main__":
    main()
