"""scipy.sparse.csgraph's solvers as library references."""
from __future__ import annotations

import numpy as np

from ...core.distances import NegativeCycleError, from_scipy
from ...core.graph import Graph

def scipy_floyd_warshall(g: Graph) -> np.ndarray:
    from scipy.sparse import csgraph
    try:
        return from_scipy(csgraph.floyd_warshall(g.to_scipy(), directed=True))
    except csgraph.NegativeCycleError as e:
        raise NegativeCycleError(str(e)) from None


def scipy_dijkstra(g: Graph) -> np.ndarray:
    from scipy.sparse import csgraph
    g.require_non_negative("Dijkstra")
    return from_scipy(csgraph.dijkstra(g.to_scipy(), directed=True))
