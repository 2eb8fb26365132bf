"""``shortest_paths``: the package's face for scipy users.  ``scipy.sparse.csgraph.shortest_path``'s signature and
argument order (``csgraph, method, directed, return_predecessors, unweighted, overwrite, indices``; ours after them,
keyword-only), its method names, inputs and outputs (float64 distances with ``np.inf`` for 'no path', predecessors
with -9999), computed by any verified algorithm of the registry, or by the CPU codes beyond int32
(:mod:`.algorithms.cpu.wide`) where a graph's weights are floats or its paths pass the int32 bound."""
from __future__ import annotations

import inspect

import numpy as np

from . import costs, gpu_device
from .algorithms import registry
from .algorithms.cpu import wide as W
from .core.graph import INF, Graph, GraphError, dense_edges
from .core.negative_cycle import refuse_negative_cycle
from .core.memory import require_host
from .placement import as_dtype, as_float, check_resources, host_bytes, placed  # noqa: F401 (check_resources, host_bytes: the CLI's)
from .placement import check_devices
from .core.predecessors import predecessors as _predecessors
from .core.sources import scipy_indices
from .core.wide import INF64, WideGraph
from .choice import DENSE_FRACTION, Choice, choose, choose_devices, result_kind  # noqa: F401 (DENSE_FRACTION, Choice: the package's face)

# scipy's method names, as this package runs them on a graph of int32 weights (a float or int64 graph: W.for_scipy_name)
SCIPY_METHODS = W.SCIPY_METHODS


def as_graph(graph, directed=True, weight="weight", unweighted=False, dtype="auto"):
    """A :class:`Graph` (int32 weights) from a Graph, a scipy sparse matrix (stored inf/NaN: no edge, as scipy
    reads them), a dense or masked numpy array (as scipy reads them: :func:`~.core.graph.dense_edges`) or a
    networkx graph (``weight``: the edge attribute); with ``dtype="auto"`` a :class:`WideGraph` where int32
    cannot hold it exactly (float weights, or paths past the int32 bound).  ``unweighted``: every edge weighs 1,
    as scipy's ``unweighted``."""
    g = _as_graph(graph, directed, weight, unweighted, dtype)
    if isinstance(g, WideGraph) and "scipy_edges" not in g.meta:     # scipy's 'auto' counts the caller's edges
        import scipy.sparse as sp
        # as scipy counts them: a masked array's unmasked entries, a dense array's finite nonzero ones (those
        # within 1e-8 of 0 included, though they are no edge)
        stored = (graph.nnz if sp.issparse(graph) else int(graph.count()) if np.ma.isMaskedArray(graph)
                  else int(((graph != 0) & np.isfinite(graph)).sum())
                  if isinstance(graph, np.ndarray) else g.m if directed else g.m // 2)
        g.meta["scipy_edges"] = stored
    return g


def _as_graph(graph, directed, weight, unweighted, dtype):
    import scipy.sparse as sp
    if isinstance(graph, (Graph, WideGraph)):
        if directed and not unweighted:
            return graph
        src, dst, w = graph.wide_edges() if isinstance(graph, WideGraph) else graph.edges()
        return Graph.with_direction(graph.n, src, dst, np.ones(src.size, np.int64) if unweighted else w, directed,
                                     graph.names, graph.meta, dtype)
    if sp.issparse(graph):
        if unweighted:
            # every edge weighs 1; stored inf and NaN stay no edge, as in the weighted case (scipy's FW agrees; its
            # D, BF and J count them as edges of weight 1 when unweighted: scipy disagrees with itself there)
            c = sp.csr_matrix(graph)
            keep = ~(np.isnan(c.data) | (c.data == np.inf)) if c.data.dtype.kind in "fc" else np.ones(c.nnz, bool)
            rows = np.repeat(np.arange(c.shape[0]), np.diff(c.indptr))
            graph = sp.csr_matrix((np.ones(int(keep.sum()), np.int8), (rows[keep], c.indices[keep])), shape=c.shape)
        return Graph.from_scipy(graph, directed=directed, dtype=dtype)
    if isinstance(graph, np.ndarray):
        if unweighted and graph.ndim == 2:           # the edges the weighted reading sees, each of weight 1
            graph = dense_edges(graph)[1].view(np.int8)
        return Graph.from_dense(graph, directed=directed, dtype=dtype)
    if hasattr(graph, "is_directed") and hasattr(graph, "nodes") and hasattr(graph, "edges"):
        g = Graph.from_networkx(graph, weight=None if unweighted else weight, dtype=dtype)
        return g if directed or not graph.is_directed() else _as_graph(g, False, weight, False, dtype)
    raise TypeError(f"shortest_paths takes a Graph, a scipy sparse matrix, a numpy array or a networkx graph, "
                    f"not {type(graph).__name__}")


def _method(g, method, variant, indices=False, device=False, dtype=np.float64):
    """(the code to run, its variant) for ``method`` on ``g``: 'auto', one of scipy's names, or a registry name;
    ``device``: the result is wanted on the GPU, ``dtype``: the result's type (auto's choice may differ by both,
    where all pairs are asked for)."""
    if method == "auto" and isinstance(g, WideGraph):
        return W.for_scipy_name(g, "auto", indices), None
    if method == "auto":
        c = choose(g, result=None if indices else result_kind(device, dtype))
        return c.algorithm, variant if variant is not None else c.variant
    if method in W.SCIPY_NAMES:
        if isinstance(g, WideGraph):
            return W.for_scipy_name(g, method, indices), None
        a = SCIPY_METHODS[method]
        return (registry.get(a) if isinstance(a, str) else a), variant
    if not isinstance(method, str) or method not in registry.ALGORITHMS:
        raise ValueError(f"unknown method {method!r}: one of scipy's {', '.join(W.SCIPY_NAMES)} or a registry name "
                         f"({', '.join(a.name for a in registry.by_problem('apsp'))})")
    algo = registry.get(method)
    if isinstance(g, WideGraph):
        raise GraphError(f"{algo.name} takes int32 weights only; this graph's are {g.dtype} ("
                         + ("float weights" if g.dtype.kind == "f" else "paths past the int32 bound")
                         + "): use method 'auto', 'D', 'FW', 'BF' or 'J' (CPU)")
    return algo, variant


def shortest_paths(csgraph, method="auto", directed=True, return_predecessors=False, unweighted=False,
                   overwrite=False, indices=None, *, variant=None, dtype=np.float64, weight="weight",
                   return_method=False, device=False, out=None, devices=1):
    """Shortest path lengths, as ``scipy.sparse.csgraph.shortest_path`` (same arguments, same order).

    ``csgraph``: a Graph, a scipy sparse matrix (every stored entry an edge, explicit zeros included; stored inf
    and NaN are no edge), a dense array (0, |w| <= 1e-8, inf, NaN: no edge, as scipy), a masked array (masked:
    no edge) or a networkx graph (``weight``: its attribute).
    Weights: integers (exact, int32 kernels where every path fits the int32 bound, else int64 on the CPU), or
    floats (float64 on the CPU through scipy's own code: exactly scipy's answer; the int32-only GPU codes never
    see them, and naming one is an error).  Integer-valued floats are integers: exact, any code.

    ``method``: ``"auto"`` (:func:`choose` says what and why), a registry name (``python -m apsp_kernels list``),
    or scipy's names: ``'FW'`` -> ``fw_blocked_parallel`` (all-core blocked FW), ``'D'`` ->
    ``dijkstra_cpu_parallel`` (all-core Dijkstra), ``'BF'`` and ``'J'`` -> ``int64_johnson`` (Bellman-Ford
    potentials, then Dijkstra: the same distances as scipy's Bellman-Ford and Johnson); on a float graph each
    name runs scipy's same method; on an int64 graph every name gives the same exact int64 distances (Dijkstra,
    or Johnson where weights are negative; 'D' refuses negative weights).  Other names: ValueError.
    ``directed=False``: an edge may be walked either way (the lighter of [i, j] and [j, i]).  ``unweighted``:
    every edge weighs 1.  ``overwrite``: accepted for scipy's signature and has no effect (the input is never
    changed).  ``indices``: the sources whose rows are returned, in scipy's forms (an int gives one 1-D row, a
    negative one counts from the end, floats are cast toward zero, a 2-D array gives rows of its shape): a CPU code
    computes only those rows (Dijkstra, or Johnson where weights are negative, whichever CPU method was named:
    an FW has no per-source form); a GPU code whose device-resident form takes sources (tuned_frontier) computes
    only those rows (tuned_elimination computes all pairs and keeps only those rows), the others all pairs,
    returning the rows.  ``dtype=np.float32`` on a graph of non-negative
    float weights, with a GPU: the float32 GPU code (registry ``float32``), its sums in float32 (within
    (1 + 2**-24)**(2 (n - 1)) - 1 relative of scipy's float64 answer; exact for integer-valued weights up to 2**24).  ``device=True``: the distances (and predecessors) as CuPy
    arrays left on the GPU (DLPack-ready; no copy to the host).  ``out``: a C-contiguous numpy array of the result's
    shape and dtype to write into (``gpu.resident.pinned_like`` makes a page-locked one, the fastest).  A GPU code
    with a device-resident form (the registry's ``resident``) builds the matrix on the device, converts the result
    there and copies it once, into ``out`` or a new array through reused page-locked staging buffers (``tuned_frontier``
    streams its rows to the host while its later chunks run).

    ``devices=k``: one solve over k GPUs of this host, one process per GPU, every rank writing its rows into one
    shared host result (int32 graphs; ``device=True`` is refused: the result is on the host).  ``method`` is then
    ``"auto"`` or a multi-GPU code (registry ``multi_gpu``: ``python -m apsp_kernels list``); auto is kept simple,
    scipy's density rule alone (:func:`~.choice.choose_devices`): the blocked FW over k GPUs where m >= n^2 / 4 (or a
    weight is negative), else the frontier code with the sources split over the GPUs, which computes only the
    ``indices`` rows (the FW computes all and returns those).  Before any GPU work the plan is checked: each GPU's
    share (the code's ``footprint_per_gpu``) and the host's result (:func:`~.placement.check_devices`).  A count
    above this host's GPUs is refused in one line.  Naming a multi-GPU code with the default ``devices=1`` runs it on
    one GPU.

    Returns ``dist`` (``dtype`` float64: ``np.inf`` where there is no path; int32: the ``INF`` sentinel, for
    graphs of the int32 bound; int64: ``INF64``, for integer graphs), and ``pred`` if ``return_predecessors``
    (int32, -9999 for none; built from the exact distances, so every algorithm gives them; scipy's own for float
    graphs), and the name of the code that ran if ``return_method``.  Raises ``NegativeCycleError`` (a subclass
    of scipy's) on a negative cycle."""
    g = as_graph(csgraph, directed=directed, weight=weight, unweighted=unweighted)
    if device and not gpu_device.available():
        raise GraphError("device=True returns CuPy arrays on the GPU, and CuPy sees no GPU here")
    sources, shape = (None, None) if indices is None else scipy_indices(indices, g.n)
    devices = _devices_asked(devices)
    multi = devices != 1 or _is_multi(method)
    f32 = None if multi else _float32_code(g, method, dtype)
    if multi:
        algo = multi_code(g, method, devices)
        if device:
            raise ValueError(f"devices={devices}: the result of a multi-GPU solve is on the host; device=True returns "
                             "a one-GPU result (devices=1)")
        d, pred = placed(*_solve_devices(g, algo, variant, devices, sources, return_predecessors, dtype), False, out)
    elif f32 is not None:
        algo = f32
        if return_predecessors:
            raise ValueError("predecessors of a float graph come from scipy's float64 code: dtype=np.float64")
        check_resources(g, f32, False, np.float32)
        d, pred = placed(f32.run(g, sources=sources, dtype="float32")[0], None, device, out)
    else:
        algo, variant = _method(g, method, variant, indices is not None, device, dtype)
        if isinstance(algo, registry.Algorithm) and algo.device == "cpu" and sources is not None:
            algo = W.INT64_JOHNSON if g.has_negative else W.INT64_DIJKSTRA       # only the rows asked for
        if isinstance(algo, W.CpuMethod):
            d, pred = placed(*_solve_rows(g, algo, sources, return_predecessors, dtype), device, out)
        elif algo.resident is not None and gpu_device.available():
            d, pred = _solve_resident(g, algo, variant, sources, return_predecessors, dtype, device, out)
        else:
            d, pred = placed(*_solve_registry(g, algo, variant, sources, return_predecessors, dtype), device, out)
    if shape is not None and len(shape) != 1:          # scipy's rows take the indices' shape: 1-D for an int
        d, pred = d.reshape(shape + (g.n,)), (pred.reshape(shape + (g.n,)) if pred is not None else None)
    out = [d] + ([pred] if return_predecessors else []) + ([algo.name] if return_method else [])
    return out[0] if len(out) == 1 else tuple(out)


def _devices_asked(devices):
    if isinstance(devices, bool) or not isinstance(devices, (int, np.integer)) or devices < 1:
        raise ValueError(f"devices must be a whole number of GPUs, 1 or more, not {devices!r}")
    return int(devices)


def _is_multi(method):
    return isinstance(method, str) and method in registry.ALGORITHMS and registry.ALGORITHMS[method].multi_gpu


def multi_code(g, method, devices):
    """The multi-GPU code ``method`` names for ``devices`` GPUs ('auto': :func:`choose_devices`), else one line."""
    if isinstance(g, WideGraph):
        raise GraphError(f"devices={devices}: the multi-GPU codes take int32 weights only; this graph's are {g.dtype} ("
                         + ("float weights" if g.dtype.kind == "f" else "paths past the int32 bound")
                         + "): devices=1 solves it")
    if isinstance(method, str) and method == "auto":
        return choose_devices(g, devices).algorithm
    names = [a.name for a in registry.multi_gpu()]
    if not _is_multi(method):
        raise ValueError(f"devices={devices} runs a multi-GPU code: method 'auto' or one of {', '.join(names)}, "
                         f"not {method!r}")
    return registry.get(method)


def _solve_devices(g, algo, variant, devices, sources, want_pred, dtype):
    """The multi-GPU code ``algo`` on ``devices`` GPUs: refused before any GPU work where a weight is negative and it
    takes none, or the host has fewer GPUs or the plan does not fit (:func:`check_devices`); the rows asked for, as
    ``dtype``, and their predecessors."""
    if not algo.negative_weights and g.has_negative:
        refuse_negative_cycle(g)
        raise GraphError(f"{algo.name} needs non-negative edge weights; use method='auto'")
    by_rows = sources is not None and "sources" in inspect.signature(algo.launcher).parameters
    check_devices(g, algo, devices, want_pred, dtype if np.dtype(dtype) != np.int64 else np.float64,
                  rows=len(sources) if by_rows else None)
    d, _ = algo.run(g, variant=variant, n_gpus=devices, **({"sources": sources} if by_rows else {}))
    d = np.asarray(d)
    if sources is not None and not by_rows:        # an all-pairs code: the rows asked for
        d = d[sources]
    pred = _predecessors(g, d, sources) if want_pred else None
    return as_dtype(d, dtype, INF), pred


def _float32_code(g, method, dtype):
    """The GPU code that takes a float graph in float32 where the caller asks for float32 distances (``dtype``) of a
    graph of non-negative float weights, with ``method`` 'auto' (the float32 code of least predicted time: tuned_fw
    for dense graphs, tuned_frontier for sparse ones) or its name, and a GPU is here; else None."""
    if not (isinstance(g, WideGraph) and g.dtype.kind == "f" and np.dtype(dtype) == np.float32 and not g.has_negative
            and gpu_device.available()):
        return None
    codes = [a for a in registry.auto_candidates() if a.float32 and a.device == "gpu" and method in ("auto", a.name)]
    if len(codes) > 1:            # auto: the least predicted time (the int32 rows: the float32 forms do the same work)
        return min(codes, key=lambda a: getattr(costs.predict(a, g), "ms", float("inf")))
    return codes[0] if codes else None


def _solve_registry(g, algo, variant, sources, want_pred, dtype):
    _admit(g, algo, variant, want_pred, dtype)
    d, _ = algo.run(g, variant=variant)
    d = np.asarray(d)
    if sources is not None:                       # a GPU code computes all pairs: the rows asked for
        d = d[sources]
    pred = _predecessors(g, d, sources) if want_pred else None
    return as_dtype(d, dtype, INF), pred


def _solve_resident(g, algo, variant, sources, want_pred, dtype, device, out):
    """A GPU code's device-resident form (gpu/resident.py): the result finished, cut to the rows asked for and
    converted on the device, then left there (``device``) or copied once to the host (into a new result whose pages
    the host's threads touch while the GPU solves: :func:`~.algorithms.gpu.resident.touched`)."""
    from .algorithms.gpu import resident as R
    if np.dtype(dtype) not in (np.int32, np.int64, np.float32, np.float64) and not device:
        # a type the device does not convert to (float16): int32 here, then the host's checked cast
        d, pred = _solve_resident(g, algo, variant, sources, want_pred, np.int32, False, None)
        return placed(as_dtype(d, dtype, INF), pred, False, out)
    _admit(g, algo, variant, want_pred, dtype)
    takes = inspect.signature(algo.resident).parameters
    if "sink" in takes and not want_pred and not device:      # rows streamed to the host behind the compute
        k = g.n if sources is None else len(sources)
        rows = R.HostRows((k, g.n), dtype, out)
        algo.run_resident(g, variant=variant, sources=sources, sink=rows.put_unfinished)
        return rows.host, None
    by_rows = sources is not None and "sources" in takes                 # only those rows
    made, touching = (None, []) if device or out is not None else R.touched(
        (g.n if sources is None else len(sources), g.n), dtype)          # its pages touched while the GPU solves
    D, _ = algo.run_resident(g, variant=variant, **({"sources": sources} if by_rows else {}))
    R.finish(D, square=not by_rows)
    if sources is not None and not by_rows:
        import cupy as cp
        D = D[cp.asarray(sources)]
    res = R.converted(D, dtype)
    pred = _predecessors(g, D.get(), sources) if want_pred else None
    if device:
        import cupy as cp
        return res, (cp.asarray(pred) if pred is not None else None)
    for job in touching:
        job.result()
    return R.to_host(res, out, made), pred


def _admit(g, algo, variant, want_pred, dtype):
    """What a registry code's solve checks before it starts, on the host path and the device-resident one alike:
    an all-pairs code, a variant that returns exact distances, weights it takes, memory for the result."""
    if algo.problem != "apsp":
        raise ValueError(f"{algo.name} solves {algo.problem} from given sources (one row per source), not all "
                         f"pairs: run it as registry.get({algo.name!r}).run(graph, sources=...)")
    if variant is not None and variant not in algo.exact_variants and str(variant) not in map(str, algo.exact_variants):
        raise ValueError(f"{algo.name}: variant {variant!r} is not one that returns exact distances "
                         f"({', '.join(map(str, algo.exact_variants))})")
    if not algo.negative_weights and g.has_negative:
        refuse_negative_cycle(g)
        raise GraphError(f"{algo.name} needs non-negative edge weights; use method='auto'")
    check_resources(g, algo, want_pred, dtype if np.dtype(dtype) != np.int64 else np.float64)


def _solve_rows(g, algo, sources, want_pred, dtype):
    k = g.n if sources is None else sources.size
    require_host(k * g.n * (8 + np.dtype(dtype).itemsize + (4 if want_pred else 0)) + 40 * g.m,
                 f"{k} rows of distances of a graph of {g.n} vertices")
    if algo.kind == "scipy":
        if np.dtype(dtype).kind != "f":
            raise ValueError(f"a graph of float weights has float distances: dtype {np.dtype(dtype)} cannot hold them")
        out = algo.rows(g, sources, want_pred)
        d, pred = out if want_pred else (out, None)
        d = np.atleast_2d(d)
        return as_float(d, dtype, np.isfinite(d)), (np.atleast_2d(pred).astype(np.int32) if want_pred else None)
    d = algo.rows(g, sources)
    pred = _predecessors(g, d, sources) if want_pred else None
    return as_dtype(d, dtype, INF64), pred
