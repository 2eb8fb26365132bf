"""``shortest_paths``: the package's face for scipy users.  Same inputs and outputs as
``scipy.sparse.csgraph.shortest_path`` (float64 distances with ``np.inf`` for 'no path',
predecessors with -9999), computed by any verified algorithm of the registry."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import costs, gpu_device
from .algorithms import registry
from .core.graph import INF, Graph, GraphError
from .core.memory import require_host
from .core.predecessors import predecessors as _predecessors


def as_graph(graph, directed=True, weight="weight") -> Graph:
    """A :class:`Graph` from a Graph, a scipy sparse matrix, a dense numpy array (0, inf and NaN
    are 'no edge', as in scipy) or a networkx graph (``weight``: the edge attribute)."""
    if isinstance(graph, Graph):
        return graph if directed else Graph.with_direction(graph.n, *graph.edges(), False, graph.names, graph.meta)
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


@dataclass(frozen=True)
class Choice:
    """What ``method="auto"`` runs: the algorithm, its variant (the fastest measured, or None for its
    default) and why, in one line."""
    algorithm: object
    variant: object
    reason: str

    def __str__(self):
        return f"{self.algorithm.name}{'' if self.variant is None else f'/{self.variant}'}: {self.reason}"


def choose(g: Graph, *, gpu=None, free_bytes=None, benchmarks=None) -> Choice:
    """What ``method="auto"`` runs on ``g`` here.  The candidates are the registry's ``auto_candidates``
    that can run here: their device present, the graph's weights accepted, their footprint within the
    device's free memory.  The GPU codes if any remain, else the CPU codes; the out-of-core codes (those
    with ``forced_params``) only where no in-core dense code fits (their recorded rows are out-of-core
    solves, which say nothing of the in-core path they take on a matrix that fits).  Among those, the least
    time predicted from measured benchmark rows (:mod:`costs`: dense against sparse by their measured rates
    and the graph's n and m), then codes with no rows, in ``auto_rank`` order.  ``gpu``, ``free_bytes``:
    the device to choose for (default: this machine's); ``benchmarks``: folders of benchmark CSVs (default:
    this machine's results, then the recorded ones)."""
    has_gpu = gpu_device.available() if gpu is None else bool(gpu)
    free = (gpu_device.free_bytes()[0] if has_gpu else 0) if free_bytes is None else free_bytes
    ok = [a for a in registry.auto_candidates()
          if not (a.device == "gpu" and not has_gpu) and not (g.has_negative and not a.negative_weights)
          and not (a.device == "gpu" and a.footprint(g.n, g.m) > 0.9 * free)]
    gpu = [a for a in ok if a.device == "gpu"]
    if any(a.forced_params is None and a.representation == "dense" for a in gpu):
        gpu = [a for a in gpu if a.forced_params is None]
    pool = gpu or [a for a in ok if a.device == "cpu"]
    if not pool:
        raise GraphError("no registered algorithm can solve this graph here")
    ranked = sorted(((costs.predict(a, g, benchmarks), a) for a in pool),
                    key=lambda pa: (pa[0] is None, pa[0].ms if pa[0] is not None else 0.0, pa[1].auto_rank))
    best, algo = ranked[0]
    where = (("on the GPU, in core" if algo.forced_params is None else "on the GPU, out of core (no in-core dense "
              "code fits)") if gpu else "on the CPU" + ("" if has_gpu else " (no GPU here)"))
    others = "; ".join(str(p) if p is not None else f"{a.name} (no benchmark rows)" for p, a in ranked[1:4])
    why = (f"least predicted time {where}: {best}" if best is not None
           else f"first by preference {where} (no benchmark rows for any of them)")
    return Choice(algo, best.variant if best is not None else None, why + (f"; then {others}" if others else ""))


def shortest_paths(graph, method="auto", return_predecessors=False, directed=True, *, variant=None,
                   dtype=np.float64, weight="weight", return_method=False):
    """All-pairs shortest path lengths, like ``scipy.sparse.csgraph.shortest_path``.

    ``method``: a registry name (``python -m apsp_kernels list``) or ``"auto"`` (:func:`choose`, which
    also says why: the code with the least time predicted from the recorded benchmark rows, on the GPU
    in core, else out of core, else on the CPU).
    Returns ``dist`` (``dtype`` float64: ``np.inf`` where there is no path; int32: the ``INF``
    sentinel), and ``pred`` if ``return_predecessors`` (int32, -9999 for none; built from the exact
    distances, so every algorithm gives them), and the name of the algorithm if ``return_method``.
    Edge weights must be integers (the kernels are int32).  Raises ``NegativeCycleError`` on a
    negative cycle, as scipy does."""
    g = as_graph(graph, directed=directed, weight=weight)
    if method == "auto":
        choice = choose(g)
        algo, variant = choice.algorithm, variant if variant is not None else choice.variant
    else:
        algo = registry.get(method)
    if algo.problem != "apsp":
        raise ValueError(f"{algo.name} solves {algo.problem} from given sources (one row per source), not all "
                         f"pairs: run it as registry.get({algo.name!r}).run(graph, sources=...)")
    if variant is not None and variant not in algo.exact_variants and str(variant) not in map(str, algo.exact_variants):
        raise ValueError(f"{algo.name}: variant {variant!r} is not one that returns exact distances "
                         f"({', '.join(map(str, algo.exact_variants))})")
    if not algo.negative_weights and g.has_negative:
        raise GraphError(f"{algo.name} needs non-negative edge weights; use method='auto'")
    check_resources(g, algo, return_predecessors, dtype)
    d, _ = algo.run(g, variant=variant)
    d = np.asarray(d)
    out = [_as_dtype(d, dtype)]
    if return_predecessors:
        out.append(_predecessors(g, d))
    if return_method:
        out.append(algo.name)
    return out[0] if len(out) == 1 else tuple(out)


def host_bytes(g: Graph, algo, predecessors=False, dtype=np.float64) -> int:
    """Host memory a solve of ``g`` by ``algo`` holds at its peak: the algorithm's own (a CPU code's
    footprint; a GPU code's int32 result copied back), the ``dtype`` copy and the predecessors."""
    n2 = g.n * g.n
    own = algo.footprint(g.n, g.m) if algo.device == "cpu" else 4 * n2
    return int(own + (0 if np.dtype(dtype) == np.int32 else np.dtype(dtype).itemsize * n2) + (4 * n2 if predecessors else 0))


def check_resources(g: Graph, algo, predecessors=False, dtype=np.float64, extra_host=0):
    """Refuse in one line, before anything is allocated, a solve this machine cannot hold: host memory
    (:func:`host_bytes` plus ``extra_host``) and, for an in-core GPU code where a GPU is present, its
    device footprint.  Out-of-core codes size their device use themselves."""
    need = host_bytes(g, algo, predecessors, dtype) + int(extra_host)
    require_host(need, f"solving {g.n} vertices with {algo.name} ({g.n} x {g.n} matrices)")
    if algo.device == "gpu" and algo.forced_params is None and gpu_device.available():
        gpu_device.check_fits(algo.name, algo.footprint(g.n, g.m))


def _as_dtype(d, dtype):
    if np.dtype(dtype) == np.int32:
        return d.astype(np.int32, copy=False)
    if np.dtype(dtype).kind != "f":
        raise ValueError(f"dtype must be a float type (np.inf for no path) or int32 (INF), got {dtype}")
    f = d.astype(dtype)
    f[d == INF] = np.inf
    return f
