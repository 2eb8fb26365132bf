"""The reference every measured APSP run is checked against: the Fletcher-64 checksum of the exact
distances, from the all-core CPU Dijkstra (Johnson's where a weight is negative: Bellman-Ford potentials, then
the same Dijkstra; both checked against scipy in the tests), cached on disk by a
hash of the graph (``<cache>/reference_checksums.json``): one reference per graph, computed in this
one place for the campaign, the benchmark, the IIT-KGP and NTHU runs and the multi-GPU command line.
``harness.measure(..., reference=reference_checksum(g))`` compares each run with it."""
from __future__ import annotations

import hashlib
import json
import os

import numpy as np

from ..core.verify import fletcher64
from ..paths import CACHE

CACHE_FILE = "reference_checksums.json"


def graph_key(g):
    """The cache key of a graph: n, m and a SHA-1 of its CSR arrays."""
    h = hashlib.sha1()
    for a in (g.indptr, g.indices, g.weights):
        h.update(a.tobytes())
    return f"{g.n}-{g.m}-{h.hexdigest()}"


def _exact(g):
    """The int32 distances of ``g`` (INF for no path) by the CPU's exact codes."""
    from .cpu import dijkstra_apsp
    if not g.has_negative:
        return dijkstra_apsp(g, parallel=True)
    from ..core.limits import INF
    from ..core.wide import INF64
    from .cpu.wide import int64_rows
    d = int64_rows(g)                       # raises NegativeCycleError on a negative cycle
    d[d == INF64] = INF
    return d.astype(np.int32)


def reference_checksum(g):
    """Fletcher-64 of the exact distances of ``g`` (an int), cached on disk per graph."""
    cache = CACHE / CACHE_FILE
    key = graph_key(g)
    known = json.loads(cache.read_text()) if cache.exists() else {}
    if key in known:
        return int(known[key], 16)
    value = fletcher64(_exact(g))
    CACHE.mkdir(parents=True, exist_ok=True)
    known = json.loads(cache.read_text()) if cache.exists() else {}      # another process may have added some
    known[key] = f"{value:016x}"
    tmp = cache.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(known, indent=0))
    tmp.replace(cache)
    return value
