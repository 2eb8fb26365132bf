"""Claims from ``data/claims.yaml`` and the verdict rule.

Verdict rule (fixed before measuring): with our measured median speed-up m and its
spread [lo, hi] (min and max over the graphs the claim covers),
* reproduced          -- [lo, hi] overlaps the claimed range;
* reproduced in shape -- no overlap, but the same ordering (GPU faster, or the same trend),
                         with the magnitude difference explained in the notebook;
* not reproduced      -- the ordering or the trend is the opposite;
* not testable        -- nothing comparable could be measured (the notebook says why).
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


def for_notebook(name, path=CLAIMS_FILE):
    return [c for c in load(path).values() if c.get("notebook") == name]


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


def fmt_range(r):
    if r is None:
        return "-"
    return f"{r[0]:g}x" if r[0] == r[1] else f"{r[0]:g}-{r[1]:g}x"
