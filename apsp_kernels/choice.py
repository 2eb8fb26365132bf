"""What ``shortest_paths(method="auto")`` runs: :func:`choose` ranks the codes that can run here by the time
:mod:`.costs` predicts for the graph (or for its statistics, a :class:`.costs.Shape`), searching the hop depth only
as far as it can change the ranking.  Host arithmetic only: no kernel is compiled or launched to choose."""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

from . import costs, deep_choice, elimination_choice, frontier_rounds_choice, gpu_device
from .algorithms import registry
from .algorithms.cpu import wide as W
from .core.graph import GraphError
from .core.wide import WideGraph

DENSE_FRACTION = 0.25          # scipy's 'auto': FW where the stored edges are at least n^2 / 4, else D (or J)
RESULTS = elimination_choice.RESULTS   # where all pairs go: float64 (or any type but int32) or int32 to the host, or
                                       # left on the GPU


def result_kind(device=False, dtype=None):
    """``choose``'s ``result`` for a call of all pairs: 'device' (left on the GPU), 'int32' (int32 on the host: half
    the bytes to copy, which moves the crossings between codes) or 'host' (float64 or any other type)."""
    import numpy as np
    if device:
        return "device"
    return "int32" if dtype is not None and np.dtype(dtype) == np.int32 else "host"


@dataclass(frozen=True)
class Choice:
    """What ``method="auto"`` runs: the algorithm (a registry entry, or a CPU code beyond int32), its variant (the
    fastest measured, or None for its default) and why, in one line."""
    algorithm: object
    variant: object
    reason: str

    def __str__(self):
        return f"{self.algorithm.name}{'' if self.variant is None else f'/{self.variant}'}: {self.reason}"


def choose(graph, *, directed=True, unweighted=False, weight="weight", gpu=None, free_bytes=None, benchmarks=None,
           structure=None, result=None) -> Choice:
    """What ``method="auto"`` runs on ``graph`` here (anything :func:`~.api.shortest_paths` takes, or a
    :class:`costs.Shape`: the statistics auto reads, for a choice without the graph).  A graph beyond int32
    (float weights, or paths past the int32 bound) goes to the CPU codes of :mod:`.algorithms.cpu.wide` (the GPU
    codes are int32: the reason says so).  Otherwise the candidates are the registry's ``auto_candidates`` that
    can run here: their device present, the graph's weights accepted, their footprint within the device's free
    memory.  The GPU codes if any remain, else the CPU codes; the out-of-core codes (those with ``forced_params``)
    only where no in-core dense code fits (their recorded rows are out-of-core solves, which say nothing of the
    in-core path they take on a matrix that fits).  Among those, the least time predicted from measured benchmark
    rows (:mod:`costs`: dense against sparse by their measured rates and the graph's n and m), then codes with no
    rows, in ``auto_rank`` order; on the CPU, where a code has no rows, scipy's own rule decides between the
    all-core Dijkstra and the all-core blocked FW (FW where m >= n^2 / 4).  ``gpu``, ``free_bytes``: the device to
    choose for (default: this machine's); ``benchmarks``: folders of benchmark CSVs (default: this machine's
    results, then the recorded ones); ``structure``: a :class:`~.core.structure.Structure` probe for the cost
    model (:func:`costs.predict`); by default the depth is searched here only where a candidate's sweeps grow with
    it and its time at a smaller depth (a bound from below) could still beat the others: one BFS from the vertex of
    most out-edges, then, where that does not settle it, the probe (milliseconds; :func:`_ranked`); ``False``: none.
    The predictions see the largest out-degree (:func:`costs.max_out_degree`), whose edges one warp walks in series
    or one block shares while the others wait.  ``result``: where the caller wants all pairs, one of :data:`RESULTS` (:func:`result_kind`; None: some
    rows, or not said); there,
    :func:`.deep_choice.instead` hands tuned_deep a deep graph where tuned_frontier wins, and a graph whose sources
    reach few vertices whichever in-core GPU code wins (tuned_frontier there where the result stays on the device
    and a source reaches more than ``FRONTIER_REACHED`` vertices), and then
    :func:`.elimination_choice.instead` may hand it to tuned_elimination (the recorded crossing with whichever of the
    two would run, for that result, and the graph's separators small), and where tuned_frontier still runs,
    :func:`.frontier_rounds_choice.instead` may hand a deep graph of many edges a vertex below 10,000 vertices to
    tuned_fw (tuned_frontier's predicted time scaled by its depth past 2 sqrt(n))."""
    from .api import as_graph
    g = graph if isinstance(graph, costs.Shape) else as_graph(graph, directed=directed, weight=weight,
                                                              unweighted=unweighted)
    if isinstance(g, WideGraph):
        algo = W.for_scipy_name(g, "auto")
        what = ("float64 (non-integer weights): scipy's shortest_path(method='auto') on the CPU, exactly scipy's answer"
                if g.dtype.kind == "f" else "integers whose paths may pass the int32 bound: exact int64 distances "
                "on the CPU (" + ("Johnson" if g.has_negative else "Dijkstra") + ")")
        return Choice(algo, None, f"the GPU codes and the int32 CPU codes take int32 weights only; this graph's are {what}")
    has_gpu = gpu_device.available() if gpu is None else bool(gpu)
    free = (gpu_device.free_bytes()[0] if has_gpu else 0) if free_bytes is None else free_bytes
    negative = g.has_negative                  # once: a pass over the weights (milliseconds on a dense graph)
    ok = [a for a in registry.auto_candidates()
          if not (a.device == "gpu" and not has_gpu) and not (negative and not a.negative_weights)
          and not (a.device == "gpu" and a.footprint(g.n, g.m) > 0.9 * free)]
    gpu = [a for a in ok if a.device == "gpu"]
    if any(a.forced_params is None and a.representation == "dense" for a in gpu):
        gpu = [a for a in gpu if a.forced_params is None]
    pool = gpu or [a for a in ok if a.device == "cpu"]
    if not pool:
        raise GraphError("no registered algorithm can solve this graph here")
    ranked = _ranked(g, pool, benchmarks, structure)
    density = ""
    if not gpu and any(p is None for p, _ in ranked) and len(ranked) > 1:
        dense = g.m >= DENSE_FRACTION * g.n * g.n
        ranked.sort(key=lambda pa: (pa[1].representation != ("dense" if dense else "csr"), pa[1].auto_rank))
        density = (f" by density (m = {g.m} {'>=' if dense else '<'} n^2 / 4: scipy's rule for FW over Dijkstra, "
                   "since some CPU code has no benchmark rows)")
    best, algo = ranked[0]
    where = (("on the GPU, in core" if algo.forced_params is None else "on the GPU, out of core (no in-core dense "
              "code fits)") if gpu else "on the CPU" + ("" if has_gpu else " (no GPU here)"))
    others = "; ".join(str(p) if p is not None else f"{a.name} (no benchmark rows)" for p, a in ranked[1:4])
    if gpu and not isinstance(g, costs.Shape):
        swaps = []
        fits = lambda code: code.footprint(g.n, g.m) <= 0.9 * free
        rules = (deep_choice.instead, elimination_choice.instead,   # the elimination weighs itself against the
                 functools.partial(frontier_rounds_choice.instead, benchmarks=benchmarks))   # code then run
        for rule in rules:
            swap = rule(g, algo, result, fits=fits)
            if swap:
                algo, why = swap
                swaps.append(why)
        if swaps:
            return Choice(algo, None, "; ".join(swaps) + f"; the cost model's pick: {best}")
    why = (f"first {where}{density}: {best if best is not None else f'{algo.name} (no benchmark rows)'}" if density
           else f"least predicted time {where}: {best}" if best is not None
           else f"first by preference {where} (no benchmark rows for any of them)")
    return Choice(algo, best.variant if best is not None else None, why + (f"; then {others}" if others else ""))


def choose_devices(g, devices) -> Choice:
    """What ``method="auto"`` runs on ``devices`` GPUs of this host (``shortest_paths(devices=k)``), for an int32
    graph: kept simple, scipy's density rule alone (the multi-GPU codes have no benchmark rows for the cost model):
    the dense multi-GPU code (registry role ``multi_gpu_dense``, the blocked FW) where m >= n^2 / 4 or a weight is
    negative (the sparse codes take none), else the sparse one (role ``multi_gpu_sparse``, a chunk of the sources a
    GPU)."""
    dense = g.m >= DENSE_FRACTION * g.n * g.n
    negative = not dense and g.has_negative
    algo = registry.by_role("multi_gpu_dense" if dense or negative else "multi_gpu_sparse")
    why = (f"m = {g.m} {'>=' if dense else '<'} n^2 / 4 (scipy's rule for FW over Dijkstra)"
           + ("; negative weights, which the sparse codes do not take" if negative else ""))
    return Choice(algo, None, f"on {devices} GPUs of this host, by density: {why}")


def _ranked(g, pool, benchmarks, structure):
    """(prediction or None, code) for every code of ``pool``, least predicted time first, then codes without rows
    in ``auto_rank`` order.  With ``structure`` None the hop depth is probed only where it can change the order: a
    sweep code's time is a bound from below at any depth below the graph's (its sweeps, and its hub's, only grow
    with the depth), so where that bound already loses to a code whose time the depth does not change, the depth
    is not searched further.  Unprobed first (depth 1); then at the eccentricity of the vertex of most out-edges
    (one BFS, a bound from below on the depth); only then the probe (4 BFS)."""
    key = lambda pa: (pa[0] is None, pa[0].ms if pa[0] is not None else 0.0, pa[1].auto_rank)
    given = structure or None
    ranked = sorted(((costs.predict(a, g, benchmarks, structure=given), a) for a in pool), key=key)
    if structure is not None or _decided(ranked):
        return ranked
    from .core.structure import Structure, hub_depth_once, probe_once
    if isinstance(g, costs.Shape):                 # statistics only: their hop depth, if they have one
        if g.hop_depth is None:
            return ranked
        return _rescored(g, ranked, benchmarks, Structure(int(g.hop_depth), 1.0, (), 0.0), key)
    floor = _rescored(g, ranked, benchmarks, hub_depth_once(g), key, bound=True)
    if _decided(floor):
        return floor
    return _rescored(g, ranked, benchmarks, probe_once(g), key)


def _decided(ranked):
    """Whether the sweep codes' bounds from below already lose to the least time of a code without sweeps (a tie
    goes by auto_rank, unsearched)."""
    exact = [p.ms for p, a in ranked if p is not None and "sweeps" not in a.complexity]
    floors = [p.ms for p, a in ranked if p is not None and "sweeps" in a.complexity]
    return not floors or bool(exact and min(floors) > min(exact))


def _rescored(g, ranked, benchmarks, depth, key, bound=False):
    """``ranked`` with the sweep codes predicted at hop depth ``depth`` (a Structure); ``bound``: that depth is a
    bound from below, and so are their times."""
    def again(a):
        p = costs.predict(a, g, benchmarks, structure=depth)
        return dataclasses.replace(p, floor=True) if bound and p is not None else p
    return sorted(((again(a) if "sweeps" in a.complexity else p, a) for p, a in ranked), key=key)
