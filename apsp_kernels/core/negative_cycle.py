"""Whether a graph has a cycle of negative total weight, decided exactly, before any code that could loop on one.

Float weights are dyadic rationals, so all of a graph's weights are integers at one common scale (a power of two):
Bellman-Ford over those integers decides the sign of every cycle exactly, where a float Bellman-Ford misses a cycle
whose weight is below the rounding of the potentials it passes (scipy 1.17's Johnson then never returns, and its
Bellman-Ford returns negative distances).  The integers are int64 where every path's weight fits, else Python ints.

Rounds are synchronous (every edge relaxed from the previous round's potentials, the least candidate per head),
and after each round the parent graph is searched for a cycle: in exact arithmetic a cycle of parents is a negative
cycle, so a tiny one is found a few rounds after it forms rather than after n rounds."""
from __future__ import annotations

import numpy as np

from .distances import NegativeCycleError

_INT64_SUMS = 2.0**61          # below this the sum of every |weight| (a bound on any path's) fits int64 with margin


def exact_integers(w) -> np.ndarray:
    """The weights ``w`` (integers or floats, finite) times one common power of two: integers of the same signs
    and ratios, int64 where the sum of their magnitudes stays below 2**61, else Python ints (an object array)."""
    w = np.asarray(w)
    if w.dtype.kind in "iub":
        w64 = w.astype(np.int64)
        if float(np.abs(w64.astype(np.float64)).sum()) < _INT64_SUMS:
            return w64
        return np.array([int(x) for x in w.tolist()], dtype=object)
    mant, exp = np.frexp(w.astype(np.float64))
    m = (mant * 2.0**53).astype(np.int64)             # exact: a float64 has 53 significant bits
    e = exp.astype(np.int64) - 53
    nz = m != 0
    if not nz.any():
        return np.zeros(w.size, np.int64)
    low = np.abs(m) & -np.abs(m)                     # the lowest set bit: strip trailing zeros, shrink the span
    tz = np.zeros_like(m)
    tz[nz] = np.log2(low[nz].astype(np.float64)).astype(np.int64)
    m[nz] >>= tz[nz]
    e[nz] += tz[nz]
    shift = np.where(nz, e - e[nz].min(), 0)
    with np.errstate(over="ignore"):                 # an overflow to inf just means: Python ints
        total = float((np.abs(m).astype(np.float64) * np.exp2(shift.astype(np.float64))).sum())
    if total < _INT64_SUMS:
        return m << shift
    return np.array([int(a) << int(s) for a, s in zip(m.tolist(), shift.tolist())], dtype=object)


def _parent_cycle_vertex(parent) -> int:
    """A vertex on a cycle of the parent graph (``parent[v]``: v's parent, -1 for none), or -1 if it has none."""
    n = parent.size
    p = parent.copy()
    root = p < 0
    p[root] = np.flatnonzero(root)                  # a root points at itself and is marked, to tell it from a cycle
    steps = 1
    while steps < n:                                # p^(2^k): after n steps every walk is on its cycle or at a root
        p = p[p]
        steps *= 2
    on = ~root[p]
    return int(p[np.flatnonzero(on)[0]]) if on.any() else -1


def negative_cycle_vertex(n, src, dst, w) -> int:
    """A vertex on a cycle of negative total weight of the graph with edges ``src[k] -> dst[k]`` of weight ``w[k]``
    (self-loops included), or -1 where there is none.  Exact for integer and float weights alike."""
    w = exact_integers(w)
    neg = w < 0
    if not neg.any():
        return -1
    loops = np.flatnonzero(neg & (np.asarray(src) == np.asarray(dst)))
    if loops.size:
        return int(src[loops[0]])
    src, dst = np.asarray(src, np.int64), np.asarray(dst, np.int64)
    h = np.zeros(n, w.dtype) if w.dtype != object else np.array([0] * n, dtype=object)
    parent = np.full(n, -1, np.int64)
    for _ in range(n):
        cand = h[src] + w
        best = h.copy()
        np.minimum.at(best, dst, cand)
        better = best < h
        if not better.any():
            return -1
        won = np.flatnonzero(better[dst] & (cand == best[dst]))
        parent[dst[won]] = src[won]
        h = best
        v = _parent_cycle_vertex(parent)
        if v >= 0:
            return v
    return int(np.flatnonzero(better)[0])            # still improving after n rounds: a negative cycle


def refuse_negative_cycle(g):
    """NegativeCycleError naming a vertex on a negative cycle of ``g`` (a Graph or WideGraph), if it has one."""
    if not g.has_negative:
        return
    src, dst, w = g.wide_edges() if hasattr(g, "wide_edges") else g.edges()
    v = negative_cycle_vertex(g.n, src, dst, w)
    if v >= 0:
        raise NegativeCycleError(f"negative cycle through vertex {v}", vertex=v)
