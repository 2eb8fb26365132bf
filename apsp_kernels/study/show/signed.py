"""The verdict as a reader sees it: "differs in magnitude" alone does not say whether the paper's number
was beaten or missed, so every page that shows a verdict says which, computed here from the row (ours
against the paper's band).  The stored verdict word stays the rules' (verdict tables, golden tables); this
is a display layer only.

A claim whose band lies below zero (a log-log slope of -1) is compared by magnitude: a slope of -0.6
against a claimed -1 is a smaller effect than claimed, though the larger number.  A row without our number
(a trend told in words) takes its direction from its reason's own words ("larger than claimed", "(above)"),
and gets none where those say both or neither."""
from __future__ import annotations

import math
import re

from .. import words


def num(x):
    """A finite float, or None (blank cells, '-', 'n/a: ...', inf)."""
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def ours_of(row):
    """Our value of a verdict row: ``ours_value`` in notebook 07's verdicts.csv, ``ours`` (the same number) in a
    notebook's own table, which a render without notebook 07 reads."""
    v = num(row.get("ours_value"))
    return v if v is not None else num(row.get("ours"))

LARGER, SMALLER = "larger", "smaller"
SIGNED = {LARGER: "differs: larger than claimed", SMALLER: "differs: smaller than claimed"}
# the order a tally lists the verdict words in, each signed one where its unsigned word was
ORDER = tuple(w for v in words.VERDICTS for w in ((SIGNED[LARGER], SIGNED[SMALLER], v) if v == words.DIFFERS else (v,)))

_UP = re.compile(r"larger than (?:claimed|the seed's|the claimed)|\((?:above)\)|more steep|steeper than")
_DOWN = re.compile(r"smaller(?: than)?|\((?:below)\)|less steep")


def _get(row, key):
    return row.get(key) if hasattr(row, "get") else getattr(row, key, None)


def direction(row):
    """'larger' or 'smaller' where a 'differs in magnitude' row says which way ours lies from the paper's
    band, else None (another verdict, or nothing to tell it by)."""
    if str(_get(row, "verdict")) != words.DIFFERS:
        return None
    ours, lo, hi = ours_of(row), num(_get(row, "claimed_lo")), num(_get(row, "claimed_hi"))
    hi_text = str(_get(row, "claimed_hi")).strip().lower()
    if hi is None and hi_text in ("inf", "infinity"):
        hi = float("inf")
    if ours is not None and lo is not None and hi is not None:
        if hi <= 0:                                   # a negative band: the claim is about its magnitude
            ours, lo, hi = abs(ours), abs(hi), abs(lo)
        if ours > hi:
            return LARGER
        if ours < lo:
            return SMALLER
    reason = str(_get(row, "reason") or "")
    up, down = bool(_UP.search(reason)), bool(_DOWN.search(reason))
    if up != down:
        return LARGER if up else SMALLER
    return None


def verdict_text(row):
    """The verdict as shown to a reader: the stored word, signed where it is 'differs in magnitude' and
    the row says which way."""
    d = direction(row)
    return SIGNED[d] if d else str(_get(row, "verdict"))


def shown(v):
    """The verdict text of every row of a verdict table, in its order (a list)."""
    return [verdict_text(r) for r in v.to_dict("records")] if v is not None and len(v) else []


def counts(v):
    """{shown verdict: number of claims}, in ORDER (the signed words where 'differs in magnitude' was), with only
    the words that occur."""
    got = {}
    for w in shown(v):
        got[w] = got.get(w, 0) + 1
    return {w: got[w] for w in (*ORDER, *sorted(set(got) - set(ORDER))) if got.get(w)}


def css_class(text):
    """The index's colour class of a shown verdict (a signed one takes its unsigned word's)."""
    return words.CLASSES.get(words.DIFFERS if text in SIGNED.values() else text, "")
