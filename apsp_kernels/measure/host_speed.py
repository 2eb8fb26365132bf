"""How fast this host's CPU runs the elimination's host work, recorded in every provenance.

``tuned_elimination``'s call is mostly METIS's ordering, on the host CPU (60-70 % of it on 8 worker processes at
10,500-16,384 vertices on the device's host), and its time moved between leases of the same kind of machine where
``tuned_frontier``'s, on the GPU, did not (a kNN corridor of 10,500 vertices: 47.7 and 63.6 ms in two leases;
docs/elimination.md).  The CPU's name and core count are the same in every lease, so each provenance also records a
timed METIS_NodeND on a fixed graph: the leases' host speeds can then be compared, and a crossing learned in one
lease read against another's."""
from __future__ import annotations

import functools
import time

import numpy as np
import scipy.sparse as sp

SIDE = 128          # the fixed graph: the king grid (the grid with its diagonals) of SIDE x SIDE vertices
CALLS = 3           # timed calls after one untimed, their median recorded


def king_grid_pattern(side=SIDE) -> sp.csr_matrix:
    """The symmetric pattern of the suite's king grid (``grid8``) of ``side`` x ``side`` vertices, each joined to
    its 8 neighbours, as the elimination hands it to METIS."""
    from ..algorithms.cpu.elimination import symmetric_pattern
    from ..core.structure_graphs import grid8
    return symmetric_pattern(grid8(side * side, rows=side).to_scipy())


@functools.lru_cache(maxsize=1)
def metis_ms():
    """The median ms of :data:`CALLS` METIS_NodeND calls (one core, one refinement pass, as the elimination orders)
    on :func:`king_grid_pattern`, measured once a process; None without pymetis's C API."""
    from ..algorithms.cpu.elimination import metis_parallel
    if not metis_parallel.available():
        return None
    p = king_grid_pattern()
    metis_parallel.node_nd(p, 1)
    times = []
    for _ in range(CALLS):
        t0 = time.perf_counter()
        metis_parallel.node_nd(p, 1)
        times.append((time.perf_counter() - t0) * 1e3)
    return round(float(np.median(times)), 2)
