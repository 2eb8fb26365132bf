"""Sources of the single-source problems (BFS, SSSP): the one check every launcher applies to its
``sources=`` argument, and seed 001's rule for choosing them (§6.2: "chosen at random in such a
way that they lie in the largest connected component in the graph"), seeded."""
from __future__ import annotations

import numpy as np

from .graph import Graph


def as_sources(sources, n) -> np.ndarray:
    """``sources`` (one vertex or a sequence of them) as a 1-D int64 array, each in 0..n-1.

    A BFS/SSSP launcher returns one row per source, in this order; there is no default
    (a search from every vertex is an APSP, which the APSP codes solve)."""
    if sources is None:
        raise ValueError("a BFS/SSSP code needs sources=...: the vertices to search from "
                         "(apsp_kernels.sources.in_largest_component picks them as seed 001 did)")
    s = np.atleast_1d(np.asarray(sources))
    if s.ndim != 1 or (s.size and s.dtype.kind not in "iu"):
        raise ValueError(f"sources must be vertex numbers (integers), got {np.asarray(sources)!r}")
    s = s.astype(np.int64)
    if s.size and (s.min() < 0 or s.max() >= n):
        bad = int(s[(s < 0) | (s >= n)][0])
        raise ValueError(f"source {bad} is not a vertex of a graph with {n} vertices")
    return s


def scipy_indices(indices, n):
    """scipy.sparse.csgraph's ``indices`` as it reads them (``np.array(indices, dtype=int32)``, then ``i + n`` for
    a negative ``i``): any shape, floats cast toward zero, -1 the last vertex.  Returns (the sources, flat, as
    :func:`as_sources` checks them; the shape the rows take, ``indices``' own)."""
    a = np.asarray(indices)
    if a.dtype.kind == "f":
        if not np.isfinite(a).all():
            raise ValueError(f"index {a[~np.isfinite(a)][0].item()} is not a vertex number")
        a = np.trunc(a).astype(np.int64)
    flat = a.ravel()
    if flat.size and flat.dtype.kind in "iu":
        bad = (flat < -n) | (flat >= n)
        if bad.any():
            raise ValueError(f"index {flat[bad][0].item()} is out of range {-n}..{n - 1} (a graph of {n} vertices; "
                             "a negative index counts from the end, as in scipy)")
        flat = np.where(flat < 0, flat + n, flat)
    return as_sources(flat, n), a.shape


def largest_component(g: Graph) -> np.ndarray:
    """The vertices of the largest weakly connected component (seed 001's graphs are undirected,
    where weak and plain connectivity agree), in increasing order."""
    from scipy.sparse import csgraph
    if g.n == 0:
        return np.zeros(0, np.int64)
    _, label = csgraph.connected_components(g.to_scipy(), directed=True, connection="weak")
    big = np.argmax(np.bincount(label))
    return np.flatnonzero(label == big).astype(np.int64)


def in_largest_component(g: Graph, count, seed=0) -> np.ndarray:
    """``count`` distinct sources drawn uniformly from the largest connected component (fewer
    if the component is smaller), reproducible from ``seed``."""
    lcc = largest_component(g)
    if lcc.size == 0:
        raise ValueError("the graph has no vertices to choose sources from")
    rng = np.random.default_rng(seed)
    return rng.choice(lcc, size=min(int(count), lcc.size), replace=False).astype(np.int64)
