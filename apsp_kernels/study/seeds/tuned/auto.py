"""Notebook 11, the tuned line's target 5: what ``shortest_paths(method="auto")`` picks on the benchmark's device, for
generated stand-in graphs of the kinds a user brings (sparse, dense, negative edges, larger than the device), from
the run's own benchmark rows (``api.choose`` with that device's memory: the render needs no GPU)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .... import api
from ....core import generators
from ....core.graph import Graph

GiB = 1 << 30
# (what the graph is, n, how it is made): generated stand-ins, labelled as such in the table
CASES = (("sparse, degree ~4 (Kemp's generator)", 4096, "kemp"),
         ("sparse, degree ~4 (Kemp's generator)", 16384, "kemp"),
         ("dense: every pair an edge", 2048, "dense"),
         ("sparse, negative edges (potentials), no negative cycle", 4096, "negative"),
         ("sparse, degree ~4, n x n larger than the device", 150_000, "kemp"))


def _graph(kind, n):
    if kind == "dense":
        rng = np.random.default_rng(n)
        return Graph.from_dense(rng.integers(1, 100, (n, n)).astype(np.float64))
    g = generators.kemp(n, seed=n)
    return generators.with_potential(g, scale=20, seed=n) if kind == "negative" else g


def device_memory(bench, default=80 * GiB):
    """The benchmark device's memory in bytes (its provenance), or ``default``."""
    mem = [p.get("gpu_memory_bytes") for p in bench.provs if p.get("gpu_memory_bytes")]
    return int(mem[0]) if mem else default


def choices(bench, cases=CASES):
    """One row per case: the graph, the code ``auto`` picks on a GPU with the run's device memory free, its
    predicted time and why (the runner-up included), from the run's benchmark files."""
    folders = tuple(sorted({Path(f).parent for f in bench.files})) or None
    free = device_memory(bench)
    rows = []
    for what, n, kind in cases:
        g = _graph(kind, n)
        c = api.choose(g, gpu=True, free_bytes=free, benchmarks=folders)
        rows.append({"graph (generated stand-in)": what, "n": g.n, "edges (count)": g.m,
                     "auto picks": c.algorithm.name + ("" if c.variant is None else f"/{c.variant}"),
                     "why": c.reason})
    return pd.DataFrame(rows)
