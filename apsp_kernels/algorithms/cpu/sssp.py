"""Single-source Dijkstra with a binary heap (numba), the CPU reference and baseline of seed 001's
SSSP kernels (§4; the seed's was C++ with the STL's priority queue).  It is the compiled code of the
APSP Dijkstra (:mod:`.dijkstra`) run from the given sources only, on the graph's own int32 arrays
(no int64 copy of the edges: on the seed's 16.7M-vertex graph that copy would outlast the search)."""
from __future__ import annotations

import numpy as np

from ...core.graph import Graph
from ...core.sources import as_sources
from .dijkstra import dijkstra_apsp_seq


def dijkstra_sssp(g: Graph, sources=None) -> np.ndarray:
    """Distances from each of ``sources``: an int32 array of shape (len(sources), n), INF where
    a vertex is unreachable."""
    g.require_non_negative("Dijkstra")
    src = as_sources(sources, g.n)
    out = np.empty((src.size, g.n), np.int64)
    dijkstra_apsp_seq(g.indptr, g.indices, g.weights, out, src)
    return out.astype(np.int32)  # INF stays INF: a distance starts at INF and only decreases
