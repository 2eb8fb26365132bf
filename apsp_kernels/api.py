"""``shortest_paths``: the package's face for scipy users.  Same inputs and outputs as
``scipy.sparse.csgraph.shortest_path`` (float64 distances with ``np.inf`` for 'no path',
predecessors with -9999), computed by any verified algorithm of the registry."""
from __future__ import annotations

import numpy as np

from . import gpu_device
from .algorithms import registry
from .core.graph import INF, Graph, GraphError
from .core.predecessors import predecessors as _predecessors


def as_graph(graph, directed=True, weight="weight") -> Graph:
    """A :class:`Graph` from a Graph, a scipy sparse matrix, a dense numpy array (0, inf and NaN
    are 'no edge', as in scipy) or a networkx graph (``weight``: the edge attribute)."""
    if isinstance(graph, Graph):
        return graph if directed else Graph._with_direction(graph.n, *graph.edges(), False, graph.names, graph.meta)
    try:
        import scipy.sparse as sp
        if sp.issparse(graph):
            return Graph.from_scipy(graph, directed=directed)
    except ImportError:
        pass
    if isinstance(graph, np.ndarray):
        return Graph.from_dense(graph, directed=directed)
    if hasattr(graph, "is_directed") and hasattr(graph, "nodes") and hasattr(graph, "edges"):
        g = Graph.from_networkx(graph, weight=weight)
        return g if directed or not graph.is_directed() else as_graph(g, directed=False)
    raise TypeError(f"shortest_paths takes a Graph, a scipy sparse matrix, a numpy array or a networkx graph, "
                    f"not {type(graph).__name__}")


def choose(g: Graph):
    """The algorithm ``method="auto"`` uses for ``g`` here: the most preferred verified code
    (registry.auto_candidates) whose device is present, that accepts the graph's weights and
    whose footprint fits the device's free memory."""
    has_gpu = gpu_device.available()
    free = None
    for a in registry.auto_candidates():
        if a.device == "gpu" and not has_gpu:
            continue
        if g.has_negative and not a.negative_weights:
            continue
        if a.device == "gpu":
            if free is None:
                free = gpu_device.free_bytes()[0]
            if a.footprint(g.n, g.m) > 0.9 * free:
                continue
        return a
    raise GraphError("no registered algorithm can solve this graph here")


def shortest_paths(graph, method="auto", return_predecessors=False, directed=True, *, variant=None,
                   dtype=np.float64, weight="weight", return_method=False):
    """All-pairs shortest path lengths, like ``scipy.sparse.csgraph.shortest_path``.

    ``method``: a registry name (``python -m apsp_kernels list``) or ``"auto"`` (:func:`choose`:
    Katz & Kider on a GPU, else all-core Dijkstra, or blocked FW where weights are negative).
    Returns ``dist`` (``dtype`` float64: ``np.inf`` where there is no path; int32: the ``INF``
    sentinel), and ``pred`` if ``return_predecessors`` (int32, -9999 for none; built from the exact
    distances, so every algorithm gives them), and the name of the algorithm if ``return_method``.
    Edge weights must be integers (the kernels are int32).  Raises ``NegativeCycleError`` on a
    negative cycle, as scipy does."""
    g = as_graph(graph, directed=directed, weight=weight)
    algo = choose(g) if method == "auto" else registry.get(method)
    if algo.problem != "apsp":
        raise ValueError(f"{algo.name} solves {algo.problem} from given sources (one row per source), not all "
                         f"pairs: run it as registry.get({algo.name!r}).run(graph, sources=...)")
    if variant is not None and variant not in algo.exact_variants and str(variant) not in map(str, algo.exact_variants):
        raise ValueError(f"{algo.name}: variant {variant!r} is not one that returns exact distances "
                         f"({', '.join(map(str, algo.exact_variants))})")
    if not algo.negative_weights and g.has_negative:
        raise GraphError(f"{algo.name} needs non-negative edge weights; use method='auto'")
    d, _ = algo.run(g, variant=variant)
    d = np.asarray(d)
    out = [_as_dtype(d, dtype)]
    if return_predecessors:
        out.append(_predecessors(g, d))
    if return_method:
        out.append(algo.name)
    return out[0] if len(out) == 1 else tuple(out)


def _as_dtype(d, dtype):
    if np.dtype(dtype) == np.int32:
        return d.astype(np.int32, copy=False)
    if np.dtype(dtype).kind != "f":
        raise ValueError(f"dtype must be a float type (np.inf for no path) or int32 (INF), got {dtype}")
    f = d.astype(dtype)
    f[d == INF] = np.inf
    return f
