"""Repeated min-plus squaring on the CPU: the O(n^3 log n) baseline Tran's 2500x claim was measured
against (i-k-j loop order, the cache-friendly one)."""
from __future__ import annotations

import numpy as np
from numba import njit

from ...core.distances import finish, minplus_steps
from ...core.graph import Graph
from .units import all_units, dense_setup, finish_ms, timed_ms, spaced

@njit(cache=True, nogil=True)
def _minplus_square(A, C, rows):
    # ``rows``: all rows for a squaring; a sample to time part of one (rows cost the same)
    n = A.shape[0]
    for i in rows:
        for j in range(n):
            C[i, j] = A[i, j]
        for k in range(n):
            aik = A[i, k]
            for j in range(n):
                C[i, j] = min(C[i, j], aik + A[k, j])


def minplus_squaring(g: Graph) -> np.ndarray:
    a = g.to_dense()
    c = np.empty_like(a)
    for _ in range(minplus_steps(g)):
        _minplus_square(a, c, all_units(g.n))
        a, c = c, a
    return finish(a)


def sample_minplus_squaring(g: Graph, samples):
    """Rows of one squaring; a solve is ``minplus_steps`` squarings of n rows each."""
    a, setup = dense_setup(g)
    c = np.empty_like(a)
    rows = spaced(g.n, samples)
    work = timed_ms(_minplus_square, a, c, rows)
    return setup + finish_ms(a), work, rows.size, g.n * max(minplus_steps(g), 1)
