"""The claims of ``data/claims.yaml``: each quoted verbatim with its place in the seed, the
quantity it divides, the paper's sizes and a tolerance.  The tolerances were not declared before
measuring: the 1.25 tolerances arrived in 7d86f8f (22 Nov 21:21), after paper batch 20261122-200000
had been committed (20:08); harish_time_growth was added in that same commit; the crossover factor 2
(3e82503, 18:51) came after the quick sweep to 8,192; no value changed after 7d86f8f.  Every later change
of the analysis, with its date and the verdicts it moved, is in data/analysis-changes.csv
(:mod:`.changes`).  :func:`tolerance_set` gives each claim's entry of ``tolerance_history``.
The rules that decide a verdict live in :mod:`apsp_kernels.study.method.rules`."""
from __future__ import annotations

import math
import os
from pathlib import Path

import yaml


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
    for c in claims:
        if c.get("kind") in TOLERANCE_KINDS and c.get("testable_here", True) and not c.get("tolerance"):
            raise ValueError(f"{path}: claim {c.get('id')!r} ({c['kind']}) has no tolerance; its rule needs one "
                             "(and the reason it was chosen)")
    return {c["id"]: _expand(c) for c in claims}


# the kinds whose rule widens the claimed number by a tolerance: a claim of one of them must state its own
TOLERANCE_KINDS = ("range", "value", "average", "limit", "crossover", "break_even")


def tolerance_set(cid, path=CLAIMS_FILE):
    """The ``tolerance_history`` entry (commit, when, short, after) of the commit that set claim
    ``cid``'s tolerance, or None for a claim without one."""
    with open(path, encoding="utf-8") as f:
        hist = yaml.safe_load(f).get("tolerance_history") or []
    return next((h for h in hist if cid in h["claims"]), None)


def parameter(name, path=CLAIMS_FILE):
    """A measurement parameter the claims declare (``parameters: {name: value}``, e.g. the out-of-core
    partitions): the one value every claim that declares it gives; an error if they disagree or none does."""
    values = {c["parameters"][name] for c in load(path).values() if name in (c.get("parameters") or {})}
    if len(values) != 1:
        raise ValueError(f"{path}: parameter {name!r} declared with {len(values)} values {sorted(values)}; need exactly one")
    return values.pop()


def kemp_ran_up_to(path=CLAIMS_FILE):
    """The largest of Kemp's graphs each CUDA code ran at (claims.yaml ``kemp_ran_up_to``)."""
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f).get("kemp_ran_up_to") or {}


def crossing_up_to(c, ran=None):
    """The largest size at which a crossover claim over Kemp's graphs counts the crossing: where both
    codes ran ('at every larger n where both ran'), None where either code is not Kemp's."""
    ran = kemp_ran_up_to() if ran is None else ran
    if c.get("kind") != "crossover" or c.get("algorithm") not in ran or c.get("baseline") not in ran:
        return None
    return min(ran[c["algorithm"]], ran[c["baseline"]])


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
