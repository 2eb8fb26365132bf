"""Numbers as a reader sees them, and sentences computed from them: every number a sentence, a
verdict or a table states is written by :func:`fmt` (or :func:`interval`), and a notebook states a
trend or an ordering only through the sentences here, so a sentence cannot say the opposite of the
table beside it."""
from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

MISSING = "-"         # a missing value, in a sentence or a table cell


def fmt(x, sig=3):
    """A number as a reader should see it: ``sig`` significant figures, no exponent, trailing
    zeros dropped -- 0.000123, 0.878, 28.8, 4190, 163944 (digits before the point are never
    rounded away; no thousands separator, which would read as a list separator in '[1620, 2470]');
    integers as they are; '-' for a missing value."""
    if x is None or x is pd.NA:
        return MISSING
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, (numbers.Integral, np.integer)):
        return str(int(x))
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(v):
        return MISSING
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == 0:
        return "0"
    decimals = max(0, sig - 1 - math.floor(math.log10(abs(v))))
    s = f"{v:.{decimals}f}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def interval(v, lo, hi, unit="x", sig=3):
    """'165x [125, 219]': a value with its 95% interval, the unit after the value."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return MISSING
    return f"{fmt(v, sig)}{unit} [{fmt(lo, sig)}, {fmt(hi, sig)}]"


def trend(sp, what="the speed-up", unit="x", slope=None):
    """'falls from 63x at n = 1024 to 3.1x at n = 21504' (or rises, or stays within ...)."""
    if sp is None or len(sp) < 2:
        return f"{what} was measured at fewer than two sizes"
    sp = sp.sort_values("n")
    a, b = sp.iloc[0], sp.iloc[-1]
    if slope is not None and slope[1] == slope[1]:
        s, lo, hi = slope
        word = "rises" if lo > 0 else "falls" if hi < 0 else "shows no trend distinguishable from noise, going"
        tail = f" (log-log slope {s:.2f}, 95% CI [{lo:.2f}, {hi:.2f}])"
    else:
        ratio = b["speedup"] / a["speedup"]
        word = "rises" if ratio > 1.25 else "falls" if ratio < 0.8 else "stays within a factor 1.25, going"
        tail = ""
    return f"{what} {word} from {fmt(a['speedup'])}{unit} at n = {int(a['n'])} to {fmt(b['speedup'])}{unit} at n = {int(b['n'])}{tail}"


def wins(sp, a, b):
    """Which of two codes is faster, size by size, from speed-ups of ``a`` over ``b`` with CIs."""
    if sp is None or sp.empty:
        return f"{a} and {b} were not both measured"
    faster = sp[sp["ci_lo"] > 1]["n"].astype(int).tolist()
    slower = sp[sp["ci_hi"] < 1]["n"].astype(int).tolist()
    tie = sp[(sp["ci_lo"] <= 1) & (sp["ci_hi"] >= 1)]["n"].astype(int).tolist()
    # every clause names both codes: a clause read alone (the first may be missing) must not flip the subject
    parts = []
    if faster:
        parts.append(f"{a} is faster than {b} at n = {_ns(faster)}")
    if slower:
        parts.append(f"{a} is slower than {b} at n = {_ns(slower)}")
    if tie:
        parts.append(f"{a} and {b} are indistinguishable at n = {_ns(tie)}")
    return "; ".join(parts) if parts else "-"


def _ns(ns):
    return ", ".join(str(n) for n in ns)


def median(v):
    v = np.asarray(v, float)
    return float(np.median(v)) if v.size else float("nan")


def crossing_interval(lo, hi, measured):
    """A crossover's 95% interval as text, '[39, 131]'; an end among censored bootstrap draws
    (crossings.censored_interval: 0 at or below the smallest size measured, inf beyond the largest)
    is said as such, '[<= 10, 131]', '[12653, > 16384]'."""
    if lo != lo or hi != hi:
        return "(no interval: one lease)"
    m_lo, m_hi = measured
    lo_text = f"<= {m_lo:g}" if lo == 0 else f"{lo:.0f}"
    hi_text = f"> {m_hi:g}" if hi == np.inf else f"{hi:.0f}"
    return f"[{lo_text}, {hi_text}]"


def crossing_text(x, ci, measured):
    """A measured crossover as one phrase: 'n = 13100 [12203, 13844]', 'never, up to n = 21504' (None),
    'already crossed at the smallest measured size (n = 16)' (0), '-' where nothing was measured.
    ``ci`` (lo, hi) or None; ``measured`` the (smallest, largest) size timed, or None."""
    if x is None:
        return "never, up to n = %g" % measured[1] if measured else "-"
    if x == 0:
        return f"already crossed at the smallest measured size (n = {measured[0]:g})"
    return f"n = {x:.0f}" + (f" {crossing_interval(*ci, measured)}" if ci else "")


def n_or(x):
    """A crossover size as text: 'n = 140', 'from the smallest size' (0), 'never' (None)."""
    if x is None:
        return "never"
    return "from the smallest size" if x == 0 else f"n = {x:.0f}"
