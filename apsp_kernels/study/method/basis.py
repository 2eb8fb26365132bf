"""What a verdict rests on (a referee's audit of run L: "7 reproduced" overstated what was measured).

Every verdict row carries a ``basis``:

* ``measured``               -- timed, and the verdict holds without the tolerance's help (or was decided
                               without one: an ordering, a trend, an occurrence);
* ``within tolerance only``  -- 'reproduced', but our interval excludes the paper's number or band: at
                               tolerance 1 the same rule would say 'differs in magnitude' (e.g.
                               harish_time_growth 38.2 [36.9, 39.6] against 32; tuwien_cpu_break_even 145
                               [129, 160] against 100);
* ``computed``               -- arithmetic from the registry's memory footprint, no timing (a ``limit`` claim:
                               tran_fw_memory_limit, kk_memory_limit), or a claim whose ``basis: computed``
                               says so in data/claims.yaml;
* ``bound``                  -- a lower or upper bound is compared, not a value (``bound: at_least`` in
                               data/claims.yaml: kk_peak_vs_others, 'at least 2.3x');
* ``-``                      -- not testable.

:func:`basis_of` decides it where the rule can be re-applied at tolerance 1 (verdicts.evaluate passes that
verdict); :func:`of_row` where only a published row is at hand (its interval against the claimed band);
:func:`counts` and :func:`headline` count verdict x basis for the index and the README.
"""
from __future__ import annotations

import math

import pandas as pd

from ..words import VERDICTS

BASES = ("measured", "within tolerance only", "computed", "bound", "-")


def _declared(c):
    """The basis a claim's own fields fix, or None (then the measurement decides)."""
    if c.get("basis"):
        return c["basis"]
    if c.get("kind") == "limit":
        return "computed"
    if c.get("bound"):
        return "bound"
    return None


def basis_of(c, verdict, at_tolerance_1=None, ci=None, claimed=None):
    """``c``: the claim; ``verdict``: its verdict; ``at_tolerance_1``: the verdict the same rule gives with
    tolerance 1 (None where the rule cannot be re-applied here, e.g. a trend decided in a notebook: then
    ``ci`` = (lo, hi) of our value against ``claimed`` = (lo, hi) of the paper decides)."""
    if verdict == "not testable":
        return "-"
    declared = _declared(c)
    if declared:
        return declared
    if verdict != "reproduced" or not c.get("tolerance") or float(c["tolerance"]) == 1:
        return "measured"
    if at_tolerance_1 is not None:
        return "within tolerance only" if at_tolerance_1 == "differs in magnitude" else "measured"
    return "within tolerance only" if _disjoint(ci, claimed) else "measured"


def _disjoint(ci, claimed):
    """Whether the interval ``ci`` and the claimed band share no point (False where either is unknown)."""
    if not ci or not claimed:
        return False
    lo, hi = (float(x) for x in ci)
    c_lo, c_hi = (float(x) for x in claimed)
    if any(math.isnan(x) for x in (lo, hi, c_lo, c_hi)):
        return False
    return hi < c_lo or lo > c_hi


def of_row(row, claims):
    """The basis of a published verdict row (a dict with claim, verdict, ci_lo, ci_hi, claimed_lo,
    claimed_hi), where the rule's inputs are not at hand: the interval against the claimed band."""
    c = claims.get(row.get("claim"), {})
    return basis_of(c, row.get("verdict"), ci=(row.get("ci_lo"), row.get("ci_hi")),
                    claimed=(row.get("claimed_lo"), row.get("claimed_hi")))


def counts(t):
    """Verdict x basis over verdict rows (a DataFrame with ``verdict`` and ``basis``): a table of counts,
    verdicts as rows in the study's order, bases as columns, zero where none."""
    x = pd.crosstab(t["verdict"], t["basis"])
    return x.reindex(index=[v for v in VERDICTS if v in x.index], columns=[b for b in BASES if b in x.columns],
                     fill_value=0)


def headline(t):
    """The verdict counts, each split by what it rests on where it rests on more than measurement:
    '6 reproduced (2 measured, 1 within tolerance only, 2 computed, 1 bound), 14 differ in magnitude, ...'."""
    x = counts(t)
    parts = []
    for v, row in x.iterrows():
        n = int(row.sum())
        kinds = [(b, int(k)) for b, k in row.items() if k and b != "-"]
        split = f" ({', '.join(f'{k} {b}' for b, k in kinds)})" if kinds and kinds != [("measured", n)] else ""
        parts.append(f"{n} {v}{split}")
    return ", ".join(parts)
