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

from ..core.verify import fletcher64_by_rows
from ..paths import CACHE, DATA

CACHE_FILE = "reference_checksums.json"
COMMITTED = DATA / "reference_checksums.json"   # checksums of graphs of 32,768 vertices and more, kept in the
                                                # repository: each took this project's workstation 0.3-16 minutes
BLOCK_WORDS = 1 << 27         # int64 distances a block of source rows holds (1 GiB): the checksum is made block by
                              # block, so a graph whose n x n matrix does not fit this machine's memory still gets one


def graph_key(g):
    """The cache key of a graph: n, m and a SHA-1 of its CSR arrays."""
    h = hashlib.sha1()
    for a in (g.indptr, g.indices, g.weights):
        h.update(a.tobytes())
    return f"{g.n}-{g.m}-{h.hexdigest()}"


def _exact(g, sources=None):
    """The int32 distances of ``g`` (INF for no path) by the CPU's exact codes, from ``sources`` (default: every
    vertex, in order)."""
    from .cpu.dijkstra import dijkstra_rows
    src = np.arange(g.n, dtype=np.int64) if sources is None else np.asarray(sources, np.int64)
    if not g.has_negative:
        return dijkstra_rows(g, src, parallel=True)
    from ..core.limits import INF
    from ..core.wide import INF64
    from .cpu.wide import int64_rows
    d = int64_rows(g, src)                  # raises NegativeCycleError on a negative cycle
    d[d == INF64] = INF
    return d.astype(np.int32)


def exact_checksum(g, block_words=BLOCK_WORDS):
    """``fletcher64(_exact(g))``, made from blocks of source rows of at most ``block_words`` distances each
    (:func:`~apsp_kernels.core.verify.fletcher64_by_rows`): memory for one block, not the n x n matrix."""
    return fletcher64_by_rows(g.n, g.n, lambda r0, r1: _exact(g, np.arange(r0, r1)), block_words)


def reference_checksum(g):
    """Fletcher-64 of the exact distances of ``g`` (an int), cached on disk per graph (and read from
    :data:`COMMITTED` where the cache has none)."""
    cache = CACHE / CACHE_FILE
    key = graph_key(g)
    known = {**_read(COMMITTED), **_read(cache)}
    if key in known:
        return int(known[key], 16)
    value = exact_checksum(g)
    CACHE.mkdir(parents=True, exist_ok=True)
    known = _read(cache)                                    # another process may have added some
    known[key] = f"{value:016x}"
    tmp = cache.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(known, indent=0))
    tmp.replace(cache)
    return value


def _read(path):
    return json.loads(path.read_text()) if path.exists() else {}
