"""The claims of ``data/claims.yaml``: each quoted verbatim with its place in the seed, the
quantity it divides, the paper's sizes and a tolerance declared before measuring.  The rules
that decide a verdict live in :mod:`apsp_kernels.study.method.rules`."""
from __future__ import annotations

import math
import os
from pathlib import Path

import yaml

from ..words import VERDICTS  # noqa: F401  (the verdict words, defined once: claims.VERDICTS as before)

CLAIMS_FILE = Path(__file__).resolve().parents[3] / "data" / "claims.yaml"


def _expand(c):
    """paper_n with paper_n_step: [first, last] of a grid -> every size of it."""
    c = dict(c)
    if c.get("paper_n_step") and len(c.get("paper_n") or []) == 2:
        lo, hi = c["paper_n"]
        c["paper_n"] = list(range(int(lo), int(hi) + 1, int(c["paper_n_step"])))
    if c.get("bound") == "at_least" and c.get("claimed"):
        c["claimed"] = [c["claimed"][0], math.inf]        # 'at least v': no upper limit
    return c


def file():
    """The claims file in use: $APSP_CLAIMS (a copy, for a test or a trial claim), else data/claims.yaml."""
    return Path(os.environ.get("APSP_CLAIMS") or CLAIMS_FILE)


def load(path=None):
    """Every claim by id, from ``path`` or :func:`file`."""
    path = path or file()
    with open(path, encoding="utf-8") as f:
        claims = yaml.safe_load(f)["claims"]
    return {c["id"]: _expand(c) for c in claims}


def fmt_range(r):
    if r is None:
        return "-"
    if r[-1] == math.inf:
        return f">= {r[0]:g}x"
    return f"{r[0]:g}x" if r[0] == r[1] else f"{r[0]:g}-{r[1]:g}x"


def readings(c):
    """The passages of the seed that bear on a claim (a number stated differently in several
    places, or words that admit more than one reading): each with its quote and place, and the
    reading the verdict tests (rows for a table; none where the claim has no readings)."""
    return [dict(claim=c["id"], reading=r["reading"], where=r.get("where", c["where"]), quote=r["quote"])
            for r in c.get("readings") or []] + ([dict(claim=c["id"], reading="tested: " + c["tested_reading"],
                                                        where="", quote="")] if c.get("readings") else [])
