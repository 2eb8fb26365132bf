"""Verdict rules, fixed before measuring.  Each takes what was measured (values with 95%
intervals) and the claim (its band and a tolerance declared in ``data/claims.yaml``) and
returns ``(verdict, reason)``; each can fail, and tests/test_rules.py has a case for every
outcome of every rule.

* reproduced           -- at the paper's sizes our interval lies inside the claimed band
                          widened by the tolerance, [lo / tol, hi * tol], at >= 2/3 of the sizes;
* differs in magnitude -- the same direction, outside the tolerance: by what factor, which way;
* not reproduced       -- the ordering, direction or trend is the opposite;
* not testable         -- nothing comparable measured (the reason says why).
"""
from __future__ import annotations

import math

VERDICTS = ("reproduced", "differs in magnitude", "not reproduced", "not testable")
SHARE = 2 / 3          # of the matched sizes that must agree


def band(claimed, tolerance):
    lo, hi = claimed
    return lo / tolerance, hi * tolerance


def _factor_text(value, claimed):
    lo, hi = claimed
    if value > hi:
        return f"{value / hi:.3g}x larger than claimed"
    if value < lo:
        return f"{lo / value:.3g}x smaller than claimed"
    return "inside the claimed range"


def range_rule(points, claimed, tolerance):
    """A speed-up (or slow-down) claimed as a range or a value, tested size by size.
    ``points``: [(n, value, lo, hi)] at the matched sizes, value = our ratio (> 1 = the
    direction the claim states)."""
    points = [p for p in points if p[1] == p[1]]
    if not points:
        return "not testable", "no measurement at the paper's sizes"
    b_lo, b_hi = band(claimed, tolerance)
    inside = [p for p in points if p[2] >= b_lo and p[3] <= b_hi]
    if len(inside) >= SHARE * len(points):
        return "reproduced", f"interval inside [{b_lo:.3g}, {b_hi:.3g}]x at {len(inside)} of {len(points)} sizes"
    if claimed[0] >= 1:
        opposite = [p for p in points if p[3] < 1]
        if len(opposite) > len(points) / 2:
            return "not reproduced", (f"opposite direction: ratio below 1 at {len(opposite)} of {len(points)} sizes "
                                      f"(n = {', '.join(str(p[0]) for p in opposite)})")
    above = [p for p in points if p[2] > b_hi]
    below = [p for p in points if p[3] < b_lo]
    parts = []
    if above:
        f = max(p[1] / claimed[1] for p in above)
        parts.append(f"above the band at {len(above)} of {len(points)} sizes (up to {f:.3g}x larger than claimed)")
    if below:
        f = max(claimed[0] / p[1] for p in below)
        parts.append(f"below it at {len(below)} of {len(points)} sizes (down to {f:.3g}x smaller)")
    straddle = len(points) - len(inside) - len(above) - len(below)
    if straddle:
        parts.append(f"interval across the band's edge at {straddle}")
    return "differs in magnitude", "; ".join(parts) + f"; inside at {len(inside)} of {len(points)}"


def aggregate_rule(value, lo, hi, claimed, tolerance, what="average"):
    """One number over a set (an average, a growth factor, a limit): its interval inside the band."""
    if value != value or lo != lo:
        return "not testable", f"no {what} could be formed"
    b_lo, b_hi = band(claimed, tolerance)
    if lo >= b_lo and hi <= b_hi:
        return "reproduced", f"{what} {value:.3g} [{lo:.3g}, {hi:.3g}] inside [{b_lo:.3g}, {b_hi:.3g}]"
    if claimed[0] >= 1 and hi < 1:
        return "not reproduced", f"{what} {value:.3g} [{lo:.3g}, {hi:.3g}] is below 1: the opposite direction"
    return "differs in magnitude", f"{what} {value:.3g} [{lo:.3g}, {hi:.3g}]: {_factor_text(value, claimed)}"


def trend_rule(slope, lo, hi, sizes, claimed_sign=+1, min_sizes=4):
    """A claimed growth (``claimed_sign`` +1) or decline (-1) with n: the bootstrap interval
    of the log-log slope must exclude 0 on the claimed side."""
    if sizes < min_sizes or slope != slope:
        return "not testable", f"{sizes} sizes; a trend needs at least {min_sizes}"
    word = "grows" if claimed_sign > 0 else "falls"
    s = f"log-log slope {slope:.3g} [{lo:.3g}, {hi:.3g}] over {sizes} sizes"
    if claimed_sign * lo > 0 and claimed_sign * hi > 0:
        return "reproduced", f"{word}: {s}"
    if claimed_sign * hi < 0 and claimed_sign * lo < 0:
        return "not reproduced", f"opposite trend: {s}"
    return "not reproduced", f"no {'growth' if claimed_sign > 0 else 'decline'} distinguishable from noise: {s}"


def trend_with_points_rule(trend, points, claimed, tolerance):
    """A trend claimed with numbers at given sizes (Kemp's 2x at 1024 ... 377x at 19456):
    the trend decides the direction, the per-size points (each against its own claimed
    value: ``points`` = [(n, value, lo, hi, claimed_value)]) the magnitude."""
    t_verdict, t_reason = trend
    if t_verdict != "reproduced":
        return t_verdict, t_reason
    pts = [p for p in points if p[1] == p[1]]
    if not pts:
        return "not testable", t_reason + "; no measurement at the paper's sizes"
    ok = [p for p in pts if p[2] >= p[4] / tolerance and p[3] <= p[4] * tolerance]
    detail = "; ".join(f"n={p[0]}: {p[1]:.3g}x vs {p[4]:g}x" for p in pts)
    if len(ok) >= SHARE * len(pts):
        return "reproduced", f"{t_reason}; {len(ok)} of {len(pts)} points within tolerance ({detail})"
    return "differs in magnitude", f"{t_reason}; {len(ok)} of {len(pts)} points within tolerance ({detail})"


def crossover_rule(ours, claimed, tolerance, measured, ci=None):
    """X overtakes Y near n = c (also a GPU/CPU break-even).  ``ours``: the crossover n, 0 if X
    is faster at every measured size, None if it never overtakes over ``measured`` = (lo, hi)
    sizes; ``ci``: (lo, hi) bootstrap interval of the crossover, if any."""
    b_lo, b_hi = band(claimed, tolerance)
    if measured is None:
        return "not testable", "nothing measured"
    m_lo, m_hi = measured
    if ours is None:
        if m_hi >= b_hi:
            return "not reproduced", f"no crossing up to n = {m_hi:g}, past the claimed window [{b_lo:.0f}, {b_hi:.0f}]"
        return "not testable", f"no crossing up to n = {m_hi:g}; the window [{b_lo:.0f}, {b_hi:.0f}] reaches beyond it"
    if ours == 0:
        if m_lo <= b_lo:
            return "differs in magnitude", f"already crossed at the smallest size n = {m_lo:g}, below the window [{b_lo:.0f}, {b_hi:.0f}]"
        return "not testable", f"already crossed at the smallest size n = {m_lo:g}; the crossing may lie below it"
    lo, hi = ci if ci is not None else (ours, ours)
    if lo >= b_lo and hi <= b_hi:
        return "reproduced", f"crossing near n = {ours:.0f} [{lo:.0f}, {hi:.0f}], inside [{b_lo:.0f}, {b_hi:.0f}]"
    return "differs in magnitude", (f"crossing near n = {ours:.0f} [{lo:.0f}, {hi:.0f}]: "
                                    f"{_factor_text(ours, claimed).replace('than claimed', 'than the claimed n')}")


def ordering_rule(points):
    """X is faster than Y: ``points`` = [(n, ratio time_Y / time_X, lo, hi)]."""
    points = [p for p in points if p[1] == p[1]]
    if not points:
        return "not testable", "nothing measured"
    holds = [p for p in points if p[2] > 1]
    opposite = [p for p in points if p[3] < 1]
    if len(holds) >= SHARE * len(points):
        return "reproduced", f"holds at {len(holds)} of {len(points)} sizes"
    if opposite:
        return "not reproduced", (f"opposite at {len(opposite)} of {len(points)} sizes "
                                  f"(n = {', '.join(str(p[0]) for p in opposite)})")
    return "not testable", f"the difference is within the noise at {len(points) - len(holds)} of {len(points)} sizes"


def describe(verdict, reason):
    assert verdict in VERDICTS, verdict
    return f"{verdict}: {reason}"


def log_factor(a, b):
    return abs(math.log(a / b))
