"""The distance conventions every solver and the checker share: int32 distances with INF for
'no path', the epilogue of a dense solve (INF normalised, negative cycles refused), scipy's
float distances converted, and how many min-plus squarings a solve needs.  Solvers (CPU and GPU)
and verification import this module, never each other."""
from __future__ import annotations

import math

import numpy as np

from .limits import INF, normalise_inf


try:                                    # scipy's own class, so that `except csgraph.NegativeCycleError` catches ours
    from scipy.sparse.csgraph import NegativeCycleError as _ScipyNegativeCycleError
except ImportError:                     # pragma: no cover - scipy is a dependency
    _ScipyNegativeCycleError = Exception


class NegativeCycleError(_ScipyNegativeCycleError, ValueError):
    """The graph has a cycle of negative total weight: shortest paths are undefined.  ``vertex``:
    a vertex on it (0-based), where the solver knows one; ``index``: the edge that closes it, by its position
    in the edge list handed over, where that is one edge (a negative self-loop).  A subclass of
    scipy.sparse.csgraph's NegativeCycleError and of ValueError."""

    def __init__(self, message, vertex=None, index=None):
        super().__init__(message)
        self.vertex, self.index = vertex, index


def check_no_negative_cycle(d):
    """After FW, a negative diagonal entry means a negative cycle through that vertex."""
    diag = np.diagonal(np.asarray(d))
    if diag.size and diag.min() < 0:
        v = int(np.argmin(diag))
        raise NegativeCycleError(f"negative cycle through vertex {v} (d[{v},{v}] = {int(diag[v])})", vertex=v)


def finish(d):
    """The common epilogue of every dense solver: INF normalisation, negative-cycle check."""
    normalise_inf(d)
    check_no_negative_cycle(d)
    return d


def from_scipy(d):
    """scipy's float64 distances (inf = no path) as int32 with INF."""
    out = np.full(d.shape, INF, dtype=np.int32)
    fin = np.isfinite(d)
    out[fin] = d[fin].astype(np.int64)
    return out


def squarings_needed(n: int) -> int:
    """ceil(log2(n - 1)) squarings cover paths of n - 1 edges (Tran; Kemp Alg. 14)."""
    return 0 if n <= 2 else math.ceil(math.log2(n - 1))


def minplus_steps(g) -> int:
    """Squarings to run: enough for every shortest path, plus one where edges are negative,
    so that a negative cycle of up to n edges shows on the diagonal."""
    return squarings_needed(g.n) + (1 if g.has_negative and g.n > 1 else 0)
