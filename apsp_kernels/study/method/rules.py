"""Verdict rules.  Each takes what was measured (values with 95% intervals over independent
processes) and the claim (its band and a tolerance in ``data/claims.yaml``, set after the first
sweeps: its ``tolerance_history`` says when) and
returns ``(verdict, reason)``; each can fail, and tests/test_rules.py has a case for every
outcome of every rule.

The verdict words and what each means: apsp_kernels/study/words.py.

The rules: range_rule (a speed-up band, size by size), aggregate_rule (one number with its
interval), trend_rule and trend_with_points_rule (growth with n), crossover_rule (also break-even),
slope_rule (a claimed power law: Hochberg's run time inversely proportional to the cores),
and, in order_rules.py, occurrence_rule (an event the seed says can or cannot happen: Hochberg's race
without __syncthreads(), his block order), ordering_rule (X faster than Y) and exists_rule (X can be slower).

A claim over a grid of the paper's sizes (Kemp's graphs, every 1024 vertices; claims.yaml
``paper_n_step``) is judged over that grid: the 2/3 share is of his sizes, each placed by
:func:`grid_places`, not of the sizes we happened to time.

How the method came to be (each change, the runs that prompted it, what it moved):
notes/method-history.md; every change with its date, the batches measured before it and the verdicts
it moved: data/analysis-changes.csv (:mod:`.changes`).
"""
from __future__ import annotations

import math

from . import changes
from .stats import grid_neighbours
from .text import crossing_interval, fmt
from .order_rules import SHARE

# When the method (these rules, stats.py's intervals, the quantities, the tolerances, the campaign's design,
# the claim inventory) was last changed: the newest such row of data/analysis-changes.csv, read, not written
# here.  A run measured before it was judged by rules chosen with its data, or some like it, in view.
METHOD_LAST_CHANGED = changes.last_change()["date"]


def band(claimed, tolerance):
    lo, hi = claimed
    return lo / tolerance, hi * tolerance


def _factor_text(value, claimed):
    lo, hi = claimed
    if value > hi:
        return f"{fmt(value / hi)}x larger than claimed"
    if value < lo:
        return f"{fmt(lo / value)}x smaller than claimed"
    return "inside the claimed range"


def _place(lo, hi, b_lo, b_hi):
    """'inside', 'above', 'below' the band, or 'edge' if the interval straddles an edge."""
    if lo >= b_lo and hi <= b_hi:
        return "inside"
    if lo > b_hi:
        return "above"
    if hi < b_lo:
        return "below"
    return "edge"


def grid_places(points, grid, b_lo, b_hi):
    """Each size of the paper's ``grid`` placed against the band [b_lo, b_hi]: (n, place, lo, hi).
    A timed size by its interval; one between two timed sizes by the envelope of their intervals
    (its ratio lies between its neighbours', the bracket quantities.average uses for Kemp's
    averages: stats.grid_neighbours); one beyond the timed sizes is 'untimed' (either way)."""
    timed = {p[0]: p for p in points}
    out = []
    for g, a, b in grid_neighbours(grid, timed):
        if a is None:
            out.append((g, "untimed", math.nan, math.nan))
            continue
        lo, hi = min(timed[a][2], timed[b][2]), max(timed[a][3], timed[b][3])
        out.append((g, _place(lo, hi, b_lo, b_hi), lo, hi))
    return out


def _sizes_text(ns):
    ns = sorted(ns)
    return "n = " + (f"{ns[0]}" if len(ns) == 1 else ", ".join(map(str, ns)) if len(ns) <= 3 else f"{ns[0]}..{ns[-1]}")


def range_rule(points, claimed, tolerance, grid=None):
    """A speed-up (or slow-down) claimed as a range or a value, tested size by size.
    ``points``: [(n, value, lo, hi)] at the matched sizes, value = our ratio (> 1 = the
    direction the claim states).  ``grid``: the paper's sizes the claim covers (Kemp's graphs, every
    1024 vertices): the 2/3 share is then of his sizes, each placed by :func:`grid_places` (a size
    we did not time between two we did by the envelope of theirs; one beyond them unknown), not of
    the sizes we happened to time.  Without a grid, the share is of the matched sizes."""
    points = [p for p in points if p[1] == p[1]]
    if not points:
        return "not testable", "no measurement at the paper's sizes"
    b_lo, b_hi = band(claimed, tolerance)
    timed = {p[0] for p in points}
    on_grid = timed & set(grid or ())
    if on_grid:
        places = grid_places(points, grid, b_lo, b_hi)
    else:
        grid = None
        places = [(p[0], _place(p[2], p[3], b_lo, b_hi), p[2], p[3]) for p in points]
    by = {w: [n for n, pl, *_ in places if pl == w] for w in ("inside", "above", "below", "edge", "untimed")}
    inside, edge, untimed = len(by["inside"]), len(by["edge"]), len(by["untimed"])
    k = len(places)
    counts = (f"inside at {inside}, above at {len(by['above'])}, below at {len(by['below'])}, "
              f"across an edge at {edge}")
    if grid:
        between = sum(1 for n, pl, *_ in places if n not in timed and pl != "untimed")
        counts += (f", not timed at {untimed} ({_sizes_text(by['untimed'])}, beyond our sizes)" if untimed else "")
        counts += (f" of the paper's {k} sizes ({len(on_grid)} timed, {between} between timed sizes "
                   "placed by their neighbours' intervals)")
    else:
        counts += f" of {k} sizes"
    if inside >= SHARE * k:
        return "reproduced", f"interval inside [{fmt(b_lo)}, {fmt(b_hi)}]x: {counts}"
    if claimed[0] > 1:          # a claimed speed-up has a direction; a claimed parity (1x) has none
        opposite = [n for n, pl, lo, hi in places if hi < 1]
        if len(opposite) > k / 2:
            return "not reproduced", (f"opposite direction: ratio below 1 at {len(opposite)} of {k} sizes "
                                      f"(n = {', '.join(map(str, opposite))})")
    if inside + edge + untimed >= SHARE * k:
        return "inconclusive", f"band [{fmt(b_lo)}, {fmt(b_hi)}]x: {counts}"
    parts = []
    above = [p for p in points if _place(p[2], p[3], b_lo, b_hi) == "above"]
    below = [p for p in points if _place(p[2], p[3], b_lo, b_hi) == "below"]
    if above:
        parts.append(f"up to {fmt(max(p[1] / claimed[1] for p in above))}x larger than claimed")
    if below:
        parts.append(f"down to {fmt(max(claimed[0] / p[1] for p in below))}x smaller")
    return "differs in magnitude", "; ".join(parts) + f": {counts}"


def aggregate_rule(value, lo, hi, claimed, tolerance, what="average", value_text=None):
    """One number over a set (an average, a growth factor, a limit): its interval against the band.
    ``value_text``: how to state the value where it is a bracket (an average over graphs partly
    timed: 'between 150 and 217'); ``hi`` may be inf (a bracket open above: only 'differs' by
    being larger, or 'inconclusive', can follow from it)."""
    if value != value:
        return "not testable", f"no {what} could be formed"
    if lo != lo or hi != hi:
        return "inconclusive", f"{what} {value_text or fmt(value)} from a single run: no interval"
    b_lo, b_hi = band(claimed, tolerance)
    s = f"{what} {value_text or fmt(value)} [{fmt(lo)}, {fmt(hi) if math.isfinite(hi) else 'unbounded'}]"
    w = _place(lo, hi, b_lo, b_hi)
    if w == "inside":
        return "reproduced", f"{s} inside [{fmt(b_lo)}, {fmt(b_hi)}]"
    if claimed[0] > 1 and hi < 1:
        return "not reproduced", f"{s} is below 1: the opposite direction"
    if w == "edge":
        return "inconclusive", f"{s} across an edge of [{fmt(b_lo)}, {fmt(b_hi)}]"
    if value_text is None:
        return "differs in magnitude", f"{s}: {_factor_text(value, claimed)}"
    # a bracket's middle is no estimate: say how far its interval's near end lies from the claim
    near = lo if lo > b_hi else hi
    return "differs in magnitude", f"{s}: at least {_factor_text(near, claimed)}"


def trend_rule(slope, lo, hi, sizes, claimed_sign=+1, min_sizes=4):
    """A claimed growth (``claimed_sign`` +1) or decline (-1) with n: the 95% interval
    of the log-log slope must exclude 0 on the claimed side."""
    if sizes < min_sizes or slope != slope:
        return "not testable", f"{sizes} sizes; a trend needs at least {min_sizes}"
    word = "grows" if claimed_sign > 0 else "falls"
    s = f"log-log slope {fmt(slope)} [{fmt(lo)}, {fmt(hi)}] over {sizes} sizes"
    if claimed_sign * lo > 0 and claimed_sign * hi > 0:
        return "reproduced", f"{word}: {s}"
    if claimed_sign * hi < 0 and claimed_sign * lo < 0:
        return "not reproduced", f"opposite trend: {s}"
    return "inconclusive", f"no {'growth' if claimed_sign > 0 else 'decline'} distinguishable from noise: {s}"


def constant_rule(slope, lo, hi, sizes, span, tolerance, min_sizes=4):
    """A speed-up claimed constant over sizes spanning a factor ``span`` (largest n / smallest n): the 95%
    interval of its log-log slope against the band [-b, b], b = log(tolerance) / log(span), the slope at which
    the speed-up changes by the tolerance across the claim's sizes.  Inside: reproduced; wholly outside (it
    grows or falls by more than the tolerance): not reproduced; across an edge: inconclusive."""
    if sizes < min_sizes or slope != slope:
        return "not testable", f"{sizes} sizes; a slope needs at least {min_sizes}"
    b = math.log(tolerance) / math.log(span)
    s = (f"log-log slope {fmt(slope)} [{fmt(lo)}, {fmt(hi)}] over {sizes} sizes against [-{fmt(b)}, {fmt(b)}] "
         f"(a change by {tolerance:g}x across a {fmt(span)}x range of n)")
    if lo != lo or hi != hi:
        return "inconclusive", f"{s}: no interval"
    if -b <= lo and hi <= b:
        return "reproduced", f"constant within the tolerance: {s}"
    if lo > b or hi < -b:
        return "not reproduced", f"{'grows' if lo > b else 'falls'} with n: {s}"
    return "inconclusive", f"across an edge: {s}"


def trend_with_points_rule(trend, points, claimed, tolerance):
    """A trend claimed with numbers at given sizes (Kemp's 2x at 1024 ... 377x at 19456):
    the trend decides the direction, the per-size points (each against its own claimed
    value: ``points`` = [(n, value, lo, hi, claimed_value)]) the magnitude, as in range_rule."""
    t_verdict, t_reason = trend
    if t_verdict != "reproduced":
        return t_verdict, t_reason
    pts = [p for p in points if p[1] == p[1]]
    if not pts:
        return "not testable", t_reason + "; no measurement at the paper's sizes"
    where = [_place(p[2], p[3], p[4] / tolerance, p[4] * tolerance) for p in pts]
    inside, edge = where.count("inside"), where.count("edge")
    detail = "; ".join(f"n={p[0]}: {fmt(p[1])}x [{fmt(p[2])}, {fmt(p[3])}] vs {p[4]:g}x ({w})" for p, w in zip(pts, where))
    if inside >= SHARE * len(pts):
        return "reproduced", f"{t_reason}; {detail}"
    if inside + edge >= SHARE * len(pts):
        return "inconclusive", f"{t_reason}; {detail}"
    return "differs in magnitude", f"{t_reason}; {detail}"


def points_rule(points, tolerance):
    """Values the seed gives per setting (NTHU's phase-3 ratio per blocking factor), each of ours against
    its own claimed value: ``points`` = [(setting, value, lo, hi, claimed_value)], the share as in
    range_rule (the magnitude half of :func:`trend_with_points_rule`, without a trend)."""
    pts = [p for p in points if p[1] == p[1]]
    if not pts:
        return "not testable", "no measurement at the seed's settings"
    where = [_place(p[2], p[3], p[4] / tolerance, p[4] * tolerance) for p in pts]
    k, inside, edge = len(pts), where.count("inside"), where.count("edge")
    detail = "; ".join(f"{p[0]}: {fmt(p[1])}x [{fmt(p[2])}, {fmt(p[3])}] vs {p[4]:g}x ({w})" for p, w in zip(pts, where))
    if inside >= SHARE * k:
        return "reproduced", f"inside the seed's value widened by {tolerance:g} at {inside} of {k}: {detail}"
    if inside + edge >= SHARE * k:
        return "inconclusive", f"inside at {inside}, across an edge at {edge} of {k}: {detail}"
    above = [p[1] / p[4] for p, w in zip(pts, where) if w == "above"]
    below = [p[4] / p[1] for p, w in zip(pts, where) if w == "below"]
    how = "; ".join(([f"up to {fmt(max(above))}x larger than the seed's value"] if above else [])
                    + ([f"down to {fmt(max(below))}x smaller"] if below else []))
    return "differs in magnitude", f"{how}: inside at {inside} of {k}: {detail}"


def crossover_rule(ours, claimed, tolerance, measured, ci=None, advantage="above", up_to=None, tolerance_set=""):
    """X overtakes Y near n = c (also a GPU/CPU break-even).  ``ours``: the crossover n, 0 if X
    is faster at every measured size, None if it never overtakes over ``measured`` = (lo, hi)
    sizes; ``ci``: (lo, hi) 95% interval of the crossover, if any.  ``advantage``: which side the
    claim is about: 'above' (X's advantage from c on: 'Algorithm 10 gains an advantage at 6,144')
    or 'below' (Y's advantage up to c: 'up to about a thousand nodes, zero-copy is beneficial').
    Where the side the claim is about never shows over sizes the claim covers, the claim is not
    reproduced; where the crossing only lies elsewhere, it differs in magnitude.  ``up_to``: the
    largest size the claim's crossing counts at (Kemp's 'at every larger n where both ran', 11,264
    for Tran's codes): the window is cut there, and a crossing beyond it is no crossing.
    ``tolerance_set``: when the tolerance was set ('set 22 Nov after the quick sweep'), said where
    only the tolerance admits the crossing."""
    b_lo, b_hi = band(claimed, tolerance)
    if measured is None:
        return "not testable", "nothing measured"
    m_lo, m_hi = measured
    if ci is not None and (ci[0] != ci[0] or ci[1] != ci[1]):
        where = (f"no crossing up to n = {m_hi:g}" if ours is None else f"crossing near n = {ours:.0f}" if ours
                 else "already crossed at the smallest size")
        return "inconclusive", f"{where}, with no interval: a size's times rest on one lease"
    if up_to is not None:
        b_hi = min(b_hi, up_to)
        if m_hi >= up_to and ours is not None and ours > up_to and ci is not None and ci[0] <= up_to:
            return "inconclusive", (f"crossing near n = {ours:.0f}{_ci_text(ci, measured)}, beyond n = {up_to:g}, the "
                                    "largest size the claim counts the crossing at, but its interval reaches below it")
        if m_hi >= up_to and (ours is None or ours > up_to):
            beyond = "" if ours is None else f" (over all our sizes it lies near n = {ours:.0f}{_ci_text(ci, measured)}, beyond them)"
            return "not reproduced", (f"no crossing up to n = {up_to:g}, the largest size the claim counts the crossing at"
                                      f"{beyond}; window [{b_lo:.0f}, {b_hi:.0f}]")
    if ours is None:
        if m_hi >= b_hi and advantage == "below":
            return "differs in magnitude", (f"the advantage claimed below the crossing holds at every measured size: no "
                                            f"crossing up to n = {m_hi:g}, past the window [{b_lo:.0f}, {b_hi:.0f}]")
        if m_hi >= b_hi:
            return "not reproduced", f"no crossing up to n = {m_hi:g}, past the claimed window [{b_lo:.0f}, {b_hi:.0f}]"
        return "not testable", f"no crossing up to n = {m_hi:g}; the window [{b_lo:.0f}, {b_hi:.0f}] reaches beyond it"
    if ours == 0:
        if m_lo <= b_lo and advantage == "below":
            return "not reproduced", (f"the advantage claimed below the crossing shows at no measured size: already "
                                      f"crossed at the smallest size n = {m_lo:g}, below the window [{b_lo:.0f}, {b_hi:.0f}]")
        if m_lo <= b_lo:
            return "differs in magnitude", f"already crossed at the smallest size n = {m_lo:g}, below the window [{b_lo:.0f}, {b_hi:.0f}]"
        return "not testable", f"already crossed at the smallest size n = {m_lo:g}; the crossing may lie below it"
    lo, hi = ci if ci is not None else (ours, ours)
    s = f"crossing near n = {ours:.0f} {crossing_interval(lo, hi, measured)}"
    w = _place(lo, hi, b_lo, b_hi)
    if w == "inside":
        # say when only the tolerance lets it in: the claimed window itself is missed
        raw = {"inside": "", "above": "above", "below": "below", "edge": "across an edge of"}[_place(lo, hi, *claimed)]
        said = f"{claimed[0]:.0f}" if claimed[0] == claimed[1] else f"{claimed[0]:.0f}-{claimed[1]:.0f}"
        when = f", {tolerance_set}" if tolerance_set else ""
        only = (f" (the claimed {said} widened by the tolerance {tolerance:g}{when}; the interval lies {raw} "
                f"the claimed window itself)") if raw else ""
        return "reproduced", f"{s}, inside [{b_lo:.0f}, {b_hi:.0f}]{only}"
    if w == "edge":
        return "inconclusive", f"{s}, across an edge of [{b_lo:.0f}, {b_hi:.0f}]"
    return "differs in magnitude", f"{s}: {_factor_text(ours, claimed).replace('than claimed', 'than the claimed n')}"


def _ci_text(ci, measured):
    return "" if ci is None else " " + crossing_interval(ci[0], ci[1], measured)


def slope_rule(slope, lo, hi, sizes, claimed, tolerance, min_sizes=4, what="log-log slope"):
    """A claimed power law, time ~ x^claimed (Hochberg: run time inversely proportional to the
    cores, slope -1): the 95% interval of the fitted log-log slope against the claimed exponent's
    band [claimed * tol, claimed / tol] for a negative one ([claimed / tol, claimed * tol] for a
    positive one).  Opposite sign, the whole interval on the other side of 0: not reproduced."""
    if sizes < min_sizes or slope != slope:
        return "not testable", f"{sizes} points; a slope needs at least {min_sizes}"
    s = f"{what} {fmt(slope)} [{fmt(lo)}, {fmt(hi)}] over {sizes} points"
    if lo != lo or hi != hi:
        return "inconclusive", f"{s}: no interval"
    b_lo, b_hi = sorted((claimed * tolerance, claimed / tolerance))
    w = _place(lo, hi, b_lo, b_hi)
    if w == "inside":
        return "reproduced", f"{s} inside [{fmt(b_lo)}, {fmt(b_hi)}]"
    if (claimed < 0 and lo > 0) or (claimed > 0 and hi < 0):
        return "not reproduced", f"{s}: the opposite sign to the claimed {fmt(claimed)}"
    if w == "edge":
        return "inconclusive", f"{s} across an edge of [{fmt(b_lo)}, {fmt(b_hi)}]"
    if slope * claimed <= 0:
        return "differs in magnitude", f"{s}, outside [{fmt(b_lo)}, {fmt(b_hi)}]: no change distinguishable from 0"
    r = slope / claimed
    how = f"{fmt(1 / r)}x less steep" if r < 1 else f"{fmt(r)}x steeper"
    return "differs in magnitude", f"{s}, outside [{fmt(b_lo)}, {fmt(b_hi)}]: {how} than the claimed {fmt(claimed)}"
