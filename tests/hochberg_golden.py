"""Spot Check 4 of seed 002 (Hochberg) as data: the graph of his Fig. 1.2 and the printed output of his
``fw`` on it (tests/data/hochberg_spot_check_4.txt), shared by the CPU and the GPU golden tests."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from apsp_kernels import INF
from apsp_kernels.io.formats import read_hochberg

DATA = Path(__file__).resolve().parent / "data"
NAMES = ("A", "B", "C", "D", "E", "F")
MARKER = re.compile(r"^(M_0|Kernel: using (\d) as intermediate: error = no error|Post-kernel copy memory off of device: no error)$")


def graph():
    """graph1.txt in his file format.  Its Fig. 2.1 is an image in the seed, so the edge order is
    ours, chosen so that vertices are numbered A..F by first appearance as his readGraph numbers
    them: his printout's 'using 2 as intermediate' is C."""
    g = read_hochberg(DATA / "hochberg_graph1.txt")
    assert g.names == NAMES
    return g


def tables():
    """[(marker line, rows as printed, int32 matrix with INF)] in the order printed."""
    out, label, rows = [], None, []
    for line in (DATA / "hochberg_spot_check_4.txt").read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        if MARKER.match(line):
            if label:
                out.append((label, rows, _matrix(rows)))
            label, rows = line, []
        else:
            rows.append(line)
    out.append((label, rows, _matrix(rows)))
    return out


def _matrix(rows):
    m = np.empty((len(rows), len(rows)), np.int32)
    for i, row in enumerate(rows):
        name, *cells = row.split()
        assert name == NAMES[i] and len(cells) == len(rows), row
        m[i] = [INF if c in ("--", "∞") else int(c) for c in cells]
    return m


def after_pivot(k):
    """The matrix printed after pivot k (0-based), i.e. his M_{k+1}."""
    return next(m for label, _, m in tables() if label.startswith(f"Kernel: using {k} "))


def final():
    return tables()[-1][2]


def missing_from_seed(seed_text):
    """Rows of the data file not found, in order after their marker, in the seed (whitespace collapsed)."""
    text = " ".join(seed_text.split())
    bad, pos = [], 0
    for label, rows, _ in tables():
        at = text.find(" ".join(label.split()) + (" A B C D E F" if label == "M_0" else ""), pos)
        if at < 0:
            bad.append(label)
            continue
        pos = at
        for row in rows:
            nxt = text.find(" ".join(row.split()), pos)
            if nxt < 0:
                bad.append(f"{label}: {row}")
            else:
                pos = nxt
    return bad
