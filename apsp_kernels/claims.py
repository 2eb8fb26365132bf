"""Claims from ``data/claims.yaml`` and the verdict rule.

Verdict rule (fixed before measuring): with our measured median speed-up m and its
spread [lo, hi] (min and max over the graphs the claim covers),
* reproduced          -- [lo, hi] overlaps the claimed range;
* reproduced in shape -- no overlap, but the same ordering (GPU faster, or the same trend),
                         with the magnitude difference explained in the notebook;
* not reproduced      -- the ordering or the trend is the opposite;
* not testable        -- nothing comparable could be measured (the notebook says why).
Crossover claims ("X overtakes Y near n = c"): reproduced if our crossover lies within a
factor ``tolerance`` (2 unless the claim says) of the claimed n; reproduced in shape if it
crosses elsewhere in the measured range; not reproduced if the order never changes.
A modern GPU should give larger speed-ups than a 2008-2012 one; the hardware ratios in
the summary notebook say how much larger.
"""
from __future__ import annotations

from pathlib import Path

import yaml

CLAIMS_FILE = Path(__file__).resolve().parent.parent / "data" / "claims.yaml"
VERDICTS = ("reproduced", "reproduced in shape", "not reproduced", "not testable")


def load(path=CLAIMS_FILE):
    with open(path, encoding="utf-8") as f:
        claims = yaml.safe_load(f)["claims"]
    return {c["id"]: c for c in claims}


def verdict(claimed, lo, hi, same_direction=True):
    """The rule above for a speed-up claim; ``claimed`` is [low, high] or None."""
    if lo is None or hi is None or lo != lo or hi != hi:  # NaN
        return "not testable"
    if claimed is None:
        return "reproduced in shape" if same_direction else "not reproduced"
    c_lo, c_hi = claimed
    if hi >= c_lo and lo <= c_hi:
        return "reproduced"
    return "reproduced in shape" if same_direction else "not reproduced"


def verdict_crossover(claimed, ours, tolerance=2, measured_range=None):
    """The crossover rule above; ``ours`` is the crossover n, 0 if X is faster at every
    measured n, None if X never overtakes Y over ``measured_range`` (lo, hi)."""
    if ours is None:
        return "not reproduced" if measured_range else "not testable"
    lo, hi = claimed
    if lo / tolerance <= ours <= hi * tolerance:
        return "reproduced"
    return "reproduced in shape"   # crosses, elsewhere (0: already below the measured range)


def fmt_range(r):
    if r is None:
        return "-"
    return f"{r[0]:g}x" if r[0] == r[1] else f"{r[0]:g}-{r[1]:g}x"
