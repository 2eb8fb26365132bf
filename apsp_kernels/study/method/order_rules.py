"""The rules of claims about order and events (see rules.py for the common contract: each takes what
was measured and returns ``(verdict, reason)``): ordering_rule (X is faster than Y), exists_rule (X can
be slower than Y), occurrence_rule (an event the seed says can or cannot happen), each_pair_rule (X faster
than each of several) and always_rule (X faster at every size)."""
from __future__ import annotations

from .text import fmt

SHARE = 2 / 3          # of the matched sizes that must agree (every rule's share, rules.py's too)


def occurrence_rule(observed, runs, occurs, hazards=None):
    """An event the seed says can happen (``occurs`` True: 'the wrong answer could be arrived at
    without this call') or cannot (False: block order 'does not' change the outcome).  ``observed``:
    runs in which it happened, of ``runs`` verified runs; ``hazards``: what a race detector reported
    on the same code (None: not run).  Seen once decides; never seen decides only where the
    detector agrees (or, for 'cannot', was not run)."""
    if not runs:
        return "not testable", "nothing run"
    seen, never = f"happened in {observed} of {runs} runs", f"never happened in {runs} runs"
    det = "" if hazards is None else f"; the race detector reports {hazards} race{'s' if hazards != 1 else ''}"
    if occurs:
        if observed:
            return "reproduced", seen + det
        if hazards is None or hazards > 0:
            return "inconclusive", never + (det or "; no race detector run") + ": it may be rare"
        return "not reproduced", never + det
    if observed:
        return "not reproduced", seen + det
    if hazards:
        return "inconclusive", f"{never}, but{det[1:]}"
    return "reproduced", never + det


def _above_below(points):
    """The points (n, ratio, lo, hi) that were measured (ratio not NaN), those whose interval lies
    above 1, and those whose interval lies below 1."""
    points = [p for p in points if p[1] == p[1]]
    return points, [p for p in points if p[2] > 1], [p for p in points if p[3] < 1]


def ordering_rule(points):
    """X is faster than Y: ``points`` = [(n, ratio time_Y / time_X, lo, hi)]."""
    points, holds, opposite = _above_below(points)
    if not points:
        return "not testable", "nothing measured"
    k = len(points)
    if len(holds) >= SHARE * k:
        return "reproduced", f"holds at {len(holds)} of {k} sizes"
    if len(opposite) > k / 2:
        return "not reproduced", f"opposite at {len(opposite)} of {k} sizes (n = {', '.join(str(p[0]) for p in opposite)})"
    return "inconclusive", f"holds at {len(holds)}, opposite at {len(opposite)}, within the noise at {k - len(holds) - len(opposite)} of {k} sizes"


def exists_rule(points):
    """X *can* be slower than Y (seed 001: queueBFS "can be even worse than CPU implementation of BFS"):
    ``points`` = [(n, ratio time_X / time_Y, lo, hi)] where the claim says it may happen.  It happens
    somewhere if one interval lies above 1; it is refuted only where every interval lies below 1."""
    points, seen, never = _above_below(points)
    if not points:
        return "not testable", "nothing measured"
    k = len(points)
    if seen:
        return "reproduced", f"happens at {len(seen)} of {k} (n = {', '.join(str(p[0]) for p in seen)})"
    if len(never) == k:
        return "not reproduced", f"the opposite holds at every one of {k}"
    return "inconclusive", f"within the noise at {k - len(never)} of {k}, the opposite at {len(never)}"


def each_pair_rule(points):
    """Several orderings claimed at once (X faster than each of Y, Z, ...): ``points`` as :func:`ratio_points` gives
    them, 'n: slower / faster'.  Each pair is decided over its sizes by ordering_rule; the claim holds where
    every pair holds, is refuted where any pair is, and is otherwise inconclusive (a 2/3 share pooled over pairs would
    let three holding comparisons outvote a fourth that fails at every size)."""
    pairs = {}
    for p in points:
        pairs.setdefault(p[0].split(": ", 1)[1], []).append(p)
    if not pairs:
        return ordering_rule([])
    got = {k: ordering_rule(v) for k, v in pairs.items()}
    each = "; ".join(f"{k}: {v} ({why})" for k, (v, why) in got.items())
    verdicts = {v for v, _ in got.values()}
    if verdicts == {"reproduced"}:
        return "reproduced", f"every one of {len(got)} comparisons holds: {each}"
    if "not reproduced" in verdicts:
        bad = [k for k, (v, _) in got.items() if v == "not reproduced"]
        return "not reproduced", f"{len(bad)} of {len(got)} comparisons the other way ({', '.join(bad)}): {each}"
    if verdicts == {"not testable"}:
        return "not testable", each
    return "inconclusive", f"not every comparison holds: {each}"


def always_rule(points):
    """X is *always* faster than Y (seed 004: multi-GPU 'always superior'): ``points`` = [(label, time_Y / time_X,
    lo, hi)].  Every interval above 1: reproduced; any interval below 1: not reproduced (one size where the
    opposite holds refutes 'always'); otherwise inconclusive."""
    pts = [p for p in points if p[1] == p[1]]
    if not pts:
        return "not testable", "nothing measured"
    above = [p for p in pts if p[2] > 1]
    below = [p for p in pts if p[3] < 1]
    k = len(pts)
    if below:
        return "not reproduced", (f"the opposite at {len(below)} of {k} settings ("
                                  + "; ".join(f"{p[0]}: {fmt(p[1])}x [{fmt(p[2])}, {fmt(p[3])}]" for p in below) + ")")
    if len(above) == k:
        return "reproduced", f"holds at every one of {k} settings"
    return "inconclusive", f"holds at {len(above)}, within the noise at {k - len(above)} of {k} settings"
