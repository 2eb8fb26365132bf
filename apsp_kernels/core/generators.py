"""Seeded, vectorised graph generators of the seeds.

* :func:`kemp`   -- Kemp (2012) ch. 5: n vertices, out-degree uniform in
  [min_degree, max_degree], weights uniform in [min_weight, max_weight].
* :func:`density` -- seed 003 (TU Wien): density p, connected, in its exact-count
  and its Bernoulli form.
* :func:`cycle`  -- seed 002 (Hochberg): directed and undirected n-cycles, the
  worst case for FW (a full n iterations are needed).
* :func:`chain`  -- a directed path: no FW update is redundant (adversarial for racy kernels).
* :func:`complete` -- every ordered pair an edge.
* :func:`with_potential` -- negative edges but no negative cycle (Johnson's trick
  in reverse), for testing the FW family.
"""
from __future__ import annotations

import numpy as np

from .graph import Graph, GraphError

KEMP_SIZES = tuple(1024 * k for k in range(1, 22))  # his 21 graphs, 1024 .. 21504


def _rng(seed):
    return np.random.default_rng(seed)


def _ids_to_pairs(ids, n):
    """Edge id in [0, n(n-1)) -> (u, v) with u != v."""
    u = ids // (n - 1)
    r = ids % (n - 1)
    return u, r + (r >= u)


def kemp(n, min_degree=2, max_degree=6, min_weight=1, max_weight=1000, seed=0):
    """Kemp's generator: each vertex gets a uniform out-degree and distinct random heads."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    if not 0 <= min_degree <= max_degree:
        raise GraphError(f"need 0 <= min_degree <= max_degree, got {min_degree}, {max_degree}")
    if min_weight > max_weight:
        raise GraphError(f"need min_weight <= max_weight, got {min_weight} > {max_weight}")
    rng = _rng(seed)
    cap = n - 1  # no self-loops, heads distinct
    deg = np.minimum(rng.integers(min_degree, max_degree + 1, size=n), cap)
    k = int(max_degree) if cap else 0
    k = min(k, cap)
    if k == 0:
        return Graph.from_edges(n, [], [], [], meta=dict(generator="kemp", seed=seed))
    cand = rng.integers(0, cap, size=(n, k))
    srt = np.sort(cand, axis=1)
    dup_rows = np.nonzero((srt[:, 1:] == srt[:, :-1]).any(axis=1))[0] if k > 1 else []
    for r in dup_rows:  # rare for n >> degree: redraw those rows without replacement
        cand[r] = rng.choice(cap, size=k, replace=False)
    u = np.repeat(np.arange(n), k).reshape(n, k)
    v = cand + (cand >= u)
    take = np.arange(k)[None, :] < deg[:, None]
    src, dst = u[take], v[take]
    w = rng.integers(min_weight, max_weight + 1, size=src.size)
    return Graph.from_edges(n, src, dst, w, meta=dict(
        generator="kemp", seed=seed, min_degree=min_degree, max_degree=max_degree,
        min_weight=min_weight, max_weight=max_weight))


def _hamiltonian_cycle(n, rng):
    perm = rng.permutation(n)
    return perm, np.roll(perm, -1)


def _distinct_ids(rng, total, count):
    """``count`` distinct uniform ids from range(total), in random order."""
    if count * 16 < total:  # sparse: sampling without replacement is cheap
        return rng.choice(total, size=count, replace=False)
    keys = rng.random(total, dtype=np.float32)  # dense: the count smallest random keys
    ids = np.argpartition(keys, count - 1)[:count] if 0 < count < total else np.arange(total)[:count]
    return rng.permutation(ids)


def density(n, p, form="bernoulli", min_weight=1, max_weight=1000, seed=0):
    """Seed 003's density-p graph, strongly connected through a random Hamiltonian cycle.

    ``form="exact"``: exactly max(n, round(n(n-1)p)) edges.  ``form="bernoulli"``:
    every ordered pair is an edge with probability p (drawn as a binomial count of
    uniformly chosen distinct pairs, which is the same distribution), plus the cycle.
    Seed 003 connects the graph by "tracking the remaining vertices to connect"; a
    random Hamiltonian cycle is our reading of that (it also makes it strongly connected).
    """
    if not 0.0 <= p <= 1.0:
        raise GraphError(f"density p must be in [0, 1], got {p}")
    if form not in ("exact", "bernoulli"):
        raise GraphError(f"form must be 'exact' or 'bernoulli', got {form!r}")
    rng = _rng(seed)
    if n < 2:
        return Graph.from_edges(n, [], [], [], meta=dict(generator="density", p=p, form=form, seed=seed))
    total = n * (n - 1)
    cu, cv = _hamiltonian_cycle(n, rng)
    cycle_ids = cu * (n - 1) + (cv - (cv > cu))
    if form == "exact":
        target = max(n, int(round(total * p)))
        extra = target - n
        ids = _distinct_ids(rng, total, min(total, extra + n))
        ids = ids[~np.isin(ids, cycle_ids)][:extra]
    else:
        ids = _distinct_ids(rng, total, rng.binomial(total, p))
    ids = np.union1d(ids, cycle_ids)
    src, dst = _ids_to_pairs(ids, n)
    w = rng.integers(min_weight, max_weight + 1, size=src.size)
    return Graph.from_edges(n, src, dst, w, meta=dict(generator="density", p=p, form=form, seed=seed))


def cycle(n, directed=True, weight=1, max_weight=None, seed=0):
    """Hochberg's cycles: i -> i+1 (mod n), and back too when undirected (his makeDirCycle and
    makeUndirCycle, whose weights the seed does not print: ``weight`` each, or, with ``max_weight``,
    uniform in 1..max_weight drawn with ``seed``, the same both ways round an undirected edge)."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    i = np.arange(n)
    src, dst = i, (i + 1) % n
    w = np.full(n, weight) if max_weight is None else _rng(seed).integers(1, max_weight + 1, size=n)
    if not directed:
        src, dst, w = np.concatenate([src, dst]), np.concatenate([dst, src]), np.concatenate([w, w])
    meta = dict(generator="cycle", directed=directed, weight=weight)
    if max_weight is not None:
        meta.update(max_weight=max_weight, seed=seed)
    return Graph.from_edges(n, src, dst, w, meta=meta)


def chain(n, reverse=False, weight=1):
    """A directed path 0 -> 1 -> ... -> n-1 (``reverse``: n-1 -> ... -> 0).  For FW every update of
    every round is needed and none is made twice: one missed update leaves a whole row short, so a
    kernel that drops updates (a race) shows on it."""
    if n < 1:
        raise GraphError(f"n must be >= 1, got {n}")
    i = np.arange(n - 1)
    src, dst = (i + 1, i) if reverse else (i, i + 1)
    return Graph.from_edges(n, src, dst, np.full(n - 1, weight),
                            meta=dict(generator="chain", reverse=reverse, weight=weight))


def complete(n, min_weight=1, max_weight=1000, seed=0):
    """Every ordered pair (u, v), u != v, an edge with a uniform weight."""
    rng = _rng(seed)
    if n < 2:
        return Graph.from_edges(n, [], [], [], meta=dict(generator="complete", seed=seed))
    ids = np.arange(n * (n - 1))
    src, dst = _ids_to_pairs(ids, n)
    w = rng.integers(min_weight, max_weight + 1, size=src.size)
    return Graph.from_edges(n, src, dst, w, meta=dict(generator="complete", seed=seed))


def with_potential(g: Graph, scale=50, seed=0):
    """Reweight w'(u,v) = w(u,v) + h(u) - h(v): negative edges appear, cycle weights stay >= 0.

    Needs non-negative input weights.  Shortest paths keep their vertices; distances
    change by h(u) - h(v), so this is a test graph, not a benchmark graph.
    """
    if g.has_negative:
        raise GraphError("with_potential needs non-negative weights")
    rng = _rng(seed)
    h = rng.integers(0, scale + 1, size=g.n)
    src, dst, w = g.edges()
    w2 = w.astype(np.int64) + h[src] - h[dst]
    return Graph.from_edges(g.n, src, dst, w2, meta=dict(g.meta, potential_scale=scale, potential_seed=seed))
