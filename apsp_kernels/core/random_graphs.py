"""Seeded, vectorised generators of seed 001's graph classes (§6.1): undirected simple graphs with
exactly the n vertices and m edges asked for (m counts unordered pairs, as the seed and SNAP do;
the Graph holds both directions, 2m arcs).

* :func:`uniform` -- m distinct pairs drawn uniformly: the seed's own random graphs ("generated
  using the Mersenne Twister", Graphs 1 and 5 of §6.1.1) and our dense stand-ins for its gene
  networks.
* :func:`power_law` -- a Chung-Lu graph with power-law expected degrees: our stand-in for the SNAP
  social and AS graphs (ego-Facebook, Bitcoin-OTC, Slashdot, Skitter).
* :func:`geometric` -- a random geometric graph in the unit square: n uniform points, the m
  closest pairs joined (a radius threshold at the m-th smallest distance), found through a grid
  of buckets in O(n + m).

Randomness is numpy's MT19937 (the seed's Mersenne Twister), seeded.  Weights are integers in
1..W, W = 1000 or less where the graph's size needs it (:func:`weight_cap`); BFS ignores them."""
from __future__ import annotations

import math

import numpy as np

from .graph import MAX_PATH_WEIGHT, Graph, GraphError


def _mt(seed):
    return np.random.Generator(np.random.MT19937(seed))


def weight_cap(n, want=1000):
    """The largest weight up to ``want`` that Graph accepts for n vertices ((n - 1) W must stay
    within MAX_PATH_WEIGHT): 1000 up to n = 536,871, 32 for the seed's 16.7M-vertex graph."""
    return int(max(1, min(want, MAX_PATH_WEIGHT // max(int(n) - 1, 1))))


def _check(n, m):
    if n < 1 or m < 0 or m > n * (n - 1) // 2:
        raise GraphError(f"an undirected simple graph on {n} vertices has 0..{n * (n - 1) // 2} edges, not {m}")


def undirected(n, u, v, w, meta):
    """The Graph of distinct pairs (u < v) with weights w, both directions.

    The CSR is built from one sort of the arcs' (tail, head) keys, which is what Graph.from_edges
    does for distinct loop-free arcs (and the tests check that both agree), only 5-10x faster on
    the seed's 265M-arc geometric graph; anything else goes through Graph.from_edges."""
    src = np.concatenate([u, v]).astype(np.int64)
    dst = np.concatenate([v, u]).astype(np.int64)
    wt = np.concatenate([w, w]).astype(np.int64)
    key = src * n + dst
    order = np.argsort(key)
    key = key[order]
    if (key.size and (np.any(src == dst) or np.any(key[1:] == key[:-1]) or wt.min() < 1
                      or (n - 1) * int(wt.max()) > MAX_PATH_WEIGHT)):
        return Graph.from_edges(n, src, dst, wt, meta=meta)
    indptr = np.zeros(n + 1, np.int64)
    indptr[1:] = np.cumsum(np.bincount(src, minlength=n))
    return Graph(n, indptr.astype(np.int32), (key % n).astype(np.int32), wt[order].astype(np.int32), meta=dict(meta))


def _distinct_pairs(rng, n, m, draw):
    """Exactly m distinct unordered pairs (lo < hi) of the pairs ``draw(k)`` proposes, k at a time:
    duplicates and loops are dropped and more are drawn until m are distinct; of any surplus, a
    uniformly random m are kept."""
    keys, total = np.zeros(0, np.int64), n * (n - 1) // 2
    while keys.size < m:
        fresh = max(0.05, 1.0 - keys.size / total)          # the share of pairs not drawn yet
        a, b = draw(int((m - keys.size) / fresh * 1.1) + 64)
        lo, hi = np.minimum(a, b).astype(np.int64), np.maximum(a, b).astype(np.int64)
        keys = np.union1d(keys, (lo * n + hi)[lo != hi])
    if keys.size > m:
        keys = keys[np.sort(rng.choice(keys.size, m, replace=False))]
    return keys // n, keys % n


def uniform(n, m, max_weight=1000, seed=0):
    """m distinct unordered pairs chosen uniformly at random (the G(n, m) model)."""
    n, m = int(n), int(m)
    _check(n, m)
    rng = _mt(seed)
    total = n * (n - 1) // 2
    if 4 * m > total:       # dense: list every pair (fewer than 4m) and choose m of them
        iu, ju = np.triu_indices(n, 1)
        pick = np.sort(rng.choice(total, m, replace=False))
        u, v = iu[pick], ju[pick]
    else:
        u, v = _distinct_pairs(rng, n, m, lambda k: (rng.integers(0, n, k), rng.integers(0, n, k)))
    W = weight_cap(n, max_weight)
    w = rng.integers(1, W + 1, size=u.size)
    return undirected(n, u, v, w, dict(generator="uniform", n=n, m=m, seed=seed, max_weight=W))


def _offset_for(n, alpha, ratio):
    """i0 with sum_i ((i + i0) / i0)^-alpha = ratio (the sum grows from 1 to n with i0)."""
    i = np.arange(n, dtype=np.float64)
    lo, hi = -30.0, 30.0                                  # log(i0)
    for _ in range(80):
        mid = (lo + hi) / 2
        s = np.sum((1.0 + i / math.exp(mid)) ** -alpha)
        lo, hi = (mid, hi) if s < ratio else (lo, mid)
    return math.exp((lo + hi) / 2)


def power_law(n, m, gamma=2.5, max_weight=1000, seed=0):
    """Chung-Lu: expected degrees w_i proportional to (i + i0)^(-1/(gamma - 1)), a power law of
    exponent ``gamma`` in the tail, the largest at the structural cutoff sqrt(2m) (so that no
    pair's chance w_u w_v / 2m exceeds 1); each edge joins two vertices drawn in proportion to w,
    repeats and loops are drawn again until there are m.  Vertex numbers are shuffled, so that
    the hubs are not the first vertices."""
    n, m = int(n), int(m)
    _check(n, m)
    if gamma <= 2:
        raise GraphError(f"gamma must be above 2 (a finite mean degree), got {gamma}")
    rng = _mt(seed)
    alpha = 1.0 / (gamma - 1.0)
    cutoff = math.sqrt(2.0 * m) if m else 1.0
    i0 = _offset_for(n, alpha, max(1.0, min(n, 2.0 * m / cutoff)))
    w = (np.arange(n) + i0) ** -alpha
    cdf = np.cumsum(w)
    cdf /= cdf[-1]
    pick = lambda k: np.minimum(np.searchsorted(cdf, rng.random(k), side="right"), n - 1)
    u, v = _distinct_pairs(rng, n, m, lambda k: (pick(k), pick(k)))
    perm = rng.permutation(n)
    W = weight_cap(n, max_weight)
    wt = rng.integers(1, W + 1, size=u.size)
    return undirected(n, perm[u], perm[v], wt, dict(generator="power_law", n=n, m=m, gamma=gamma, seed=seed,
                                                     max_weight=W))


def _square_cdf(r):
    """P(two uniform points of the unit square lie within r), 0 <= r <= 1."""
    return math.pi * r * r - 8.0 / 3.0 * r ** 3 + 0.5 * r ** 4


def _radius_for(n, m):
    """The r at which n uniform points have m pairs within r on average."""
    target, lo, hi = m / (n * (n - 1) / 2.0), 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _square_cdf(mid) < target else (lo, mid)
    return hi


def _pairs_within(pts, r, chunk=1 << 20):
    """Every pair of points closer than r (index pairs and squared distances): points are bucketed
    in cells of side >= r, and each point meets the points of its own cell (later ones) and of 4
    of its 8 neighbour cells (the other 4 meet it from their side)."""
    n = pts.shape[0]
    G = max(1, int(1.0 / r))
    cxy = np.minimum((pts * G).astype(np.int64), G - 1)
    cell = cxy[:, 1] * G + cxy[:, 0]
    order = np.argsort(cell, kind="stable")
    sc, sp = cell[order], pts[order]
    counts = np.bincount(sc, minlength=G * G)
    start = np.concatenate([[0], np.cumsum(counts)])
    us, vs, ds = [], [], []
    for dx, dy in ((0, 0), (1, 0), (-1, 1), (0, 1), (1, 1)):
        for a in range(0, n, chunk):
            p = np.arange(a, min(n, a + chunk))
            x, y = sc[p] % G + dx, sc[p] // G + dy
            ok = (x >= 0) & (x < G) & (y < G)
            p, nc = p[ok], (y * G + x)[ok]
            cnt = counts[nc]
            i = np.repeat(p, cnt)
            j = np.repeat(start[nc], cnt) + np.arange(i.size) - np.repeat(np.cumsum(cnt) - cnt, cnt)
            if (dx, dy) == (0, 0):
                keep = j > i
                i, j = i[keep], j[keep]
            d2 = ((sp[i] - sp[j]) ** 2).sum(axis=1)
            near = d2 < r * r
            us.append(order[i[near]].astype(np.int32))
            vs.append(order[j[near]].astype(np.int32))
            ds.append(d2[near])
    return np.concatenate(us), np.concatenate(vs), np.concatenate(ds)


def geometric(n, m, max_weight=1000, seed=0):
    """n uniform points of the unit square, the m closest pairs joined (seed 001's Graph 5: its
    "distance is greater than a certain value" can only mean smaller, at average degree 16).
    Weights: the pair's distance in units of the threshold, ceil(W d / r) in 1..W.  Vertex i is
    the i-th point drawn (no spatial order in the numbering)."""
    n, m = int(n), int(m)
    _check(n, m)
    rng = _mt(seed)
    pts = rng.random((n, 2))
    r = min(1.5, _radius_for(n, m) * 1.01) if m else 0.0
    while True:
        u, v, d2 = _pairs_within(pts, r) if m else (np.zeros(0, np.int32),) * 2 + (np.zeros(0),)
        if u.size >= m:
            break
        r *= 1.02                                          # a rare short draw: widen and look again
    if u.size > m:
        keep = np.argpartition(d2, m - 1)[:m]
        u, v, d2 = u[keep], v[keep], d2[keep]
    W = weight_cap(n, max_weight)
    d = np.sqrt(d2)
    w = np.clip(np.ceil(W * d / d.max()), 1, W).astype(np.int64) if m else np.zeros(0, np.int64)
    return undirected(n, u, v, w, dict(generator="geometric", n=n, m=m, seed=seed, max_weight=W,
                                       radius=float(d.max()) if m else 0.0))
