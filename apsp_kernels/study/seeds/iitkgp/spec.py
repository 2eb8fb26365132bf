"""The IIT Kharagpur study's sweep as data (data/sweeps/iitkgp.yaml), its graphs by catalogue name, cached
on disk, and their BFS/SSSP sources.

Generating the seed's 16.7M-vertex geometric graph takes minutes and ~20 GB; every independent process
of a measurement loads it instead from ``$APSP_CACHE_DIR/iitkgp/<name>-seed<s>-n<n>-<origin>-<code>.npz``
(uncompressed CSR arrays and the graph's meta), keyed by the graph's name, seed, size, where it came
from (a stand-in, or the real file and its size) and a hash of the generator code, so that a changed
generator never serves an old graph.  Sources are cached beside it."""
from __future__ import annotations

import copy
import hashlib
import json
import os
from pathlib import Path

import numpy as np
import yaml

from .... import paths
from ....core import random_graphs, sources
from ....io import catalogue
from ....core.graph import Graph
from ....paths import DATA

SPEC_FILE = DATA / "sweeps" / "iitkgp.yaml"
STAGES = ("bfs", "sssp", "coarsen", "apsp")
SINGLE_SOURCE = ("bfs", "sssp", "coarsen")


def load(dry_run=False, path=SPEC_FILE):
    """The spec, with the ``dry_run`` section laid over it when ``dry_run`` (``dry_n`` then says at
    how many vertices every graph is made)."""
    spec = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    small = spec.pop("dry_run", {})
    spec["dry_n"] = None
    if dry_run:
        spec = copy.deepcopy(spec)
        spec["dry_n"] = int(small.get("n", 160))
        for key, over in small.items():
            if isinstance(over, dict) and isinstance(spec.get(key), dict):
                spec[key].update(over)
            elif key != "n":
                spec[key] = over
    return spec


def graphs_for(S, stages, named=None):
    """The graphs an invocation measures, in the seed's order: those ``named`` (--graphs), or every
    graph of the stages except the large ones (each of those gets an invocation of its own; a dry run
    takes them all)."""
    order = [g.name for g in catalogue.SEED001]
    wanted = {g for s in stages for g in S[s]["graphs"]}
    if named:
        unknown = [g for g in named if g not in wanted]
        if unknown:
            raise ValueError(f"{unknown} are not graphs of the stages {list(stages)}; they have {sorted(wanted)}")
        wanted = set(named)
    elif not S.get("dry_n"):
        wanted -= set(S.get("large", ()))
    return [g for g in order if g in wanted]


def scale_of(S, name):
    """1 (the seed's size), or in a dry run the scale that makes the graph about ``dry_n`` vertices."""
    return 1.0 if not S.get("dry_n") else min(1.0, S["dry_n"] / catalogue.entry(name).n)


def _code_hash():
    h = hashlib.sha1()
    for mod in (random_graphs, catalogue):
        h.update(Path(mod.__file__).read_bytes())
    return h.hexdigest()[:10]


def cache_path(S, name, seed=None):
    """Where the graph is cached: its name, seed, size, origin and the generator code's hash."""
    e = catalogue.entry(name)
    seed = S["seed"] if seed is None else seed
    scale = scale_of(S, name)
    n, _ = catalogue.scaled_size(e, scale)
    real = catalogue.real_file(e)
    origin = f"real{real.stat().st_size}" if scale == 1 and real is not None and real.exists() else "gen"
    return paths.CACHE / "iitkgp" / f"{name}-seed{seed}-n{n}-{origin}-{_code_hash()}.npz"


def _save(path, g):
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
    np.savez(tmp, indptr=g.indptr, indices=g.indices, weights=g.weights, n=np.int64(g.n),
             meta=np.frombuffer(json.dumps(g.meta, default=str).encode(), np.uint8))
    tmp.replace(path)


def _load(path):
    with np.load(path) as z:
        meta = json.loads(z["meta"].tobytes().decode())
        return Graph(int(z["n"]), z["indptr"], z["indices"], z["weights"], meta=meta)


def graph(S, name, log=None):
    """The graph ``name`` from the cache, made (and cached) first if it is not there.  Its meta says
    ``origin`` (real file, stand-in, or generated as in the seed) and ``cached``."""
    import time
    path = cache_path(S, name)
    if path.exists():
        g = _load(path)
        g.meta["cached"] = True
        return g
    t0 = time.perf_counter()
    g = catalogue.graph(name, seed=S["seed"], scale=scale_of(S, name))
    made = time.perf_counter() - t0
    _save(path, g)
    if log:
        log(f"graph {name}: {g.n} vertices, {g.m // 2} edges, {g.meta['origin']}: made in {made:.1f} s, "
            f"cached in {time.perf_counter() - t0 - made:.1f} s ({path.name})")
    g.meta["cached"] = False
    return g


def sources_for(S, name, g):
    """The seeded BFS/SSSP sources of ``name`` (drawn in the largest component), cached with the graph."""
    count = int(S["single_source"].get("sources_for", {}).get(name, S["single_source"]["sources"]))
    path = cache_path(S, name).with_suffix(f".sources-{S['sources_seed']}-{count}.npy")
    if path.exists():
        return np.load(path)
    src = sources.in_largest_component(g, count, seed=S["sources_seed"])
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, src)
    return src


def repeats_for(S, name):
    ss = S["single_source"]
    return int(ss.get("repeats_for", {}).get(name, ss["repeats"]))


def density(n, edges):
    """The seed's density (§6.3.2): 'the ratio between the average degree of the vertices and the number
    of vertices' = (2m / n) / n.  Graph 1: 0.496; Graph 5: 9.5e-7 (the seed's 7e-6 fits Graph 4)."""
    return 2.0 * edges / n / n if n else float("nan")


def describe(g):
    """What every row of a graph carries: its size, density and origin."""
    edges = g.m // 2
    return dict(graph=g.meta.get("catalogue"), graph_origin=g.meta.get("origin"), n=g.n, edges=edges,
                density=density(g.n, edges), seed_n=g.meta.get("seed_n"), seed_edges=g.meta.get("seed_m"))


def tiny():
    """A 64-vertex graph of the seed's dense class: compiles every code before anything is timed."""
    return random_graphs.uniform(64, 600, seed=1)
