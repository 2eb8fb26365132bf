"""The Hochberg study's sweep as data (data/sweeps/hochberg.yaml), its graphs by name, and the exact
distances every run is checked against."""
from __future__ import annotations

import copy

import numpy as np
import yaml

from ....core import generators
from ....algorithms import cpu
from ....paths import DATA

SPEC_FILE = DATA / "sweeps" / "hochberg.yaml"
STAGES = ("cycles", "explorations", "race", "sm_scaling")

# name -> (n, seed) -> Graph.  His cycles have unit weights (his generators' weights are not printed).
GRAPHS = {
    "cycle_undirected": lambda n, seed: generators.cycle(n, directed=False),
    "cycle_directed": lambda n, seed: generators.cycle(n, directed=True),
    "cycle_weighted": lambda n, seed: generators.cycle(n, directed=False, max_weight=1000, seed=seed + n),
    "chain": lambda n, seed: generators.chain(n),
    "chain_reversed": lambda n, seed: generators.chain(n, reverse=True),
    "complete": lambda n, seed: generators.complete(n, 1, 1000, seed=seed + n),
    "kemp": lambda n, seed: generators.kemp(n, seed=seed + n),
}


def load(dry_run=False, path=SPEC_FILE):
    """The spec, with the ``dry_run`` section laid over each stage when ``dry_run``."""
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    small = spec.pop("dry_run", {})
    if dry_run:
        spec = copy.deepcopy(spec)
        for stage, over in small.items():
            spec[stage].update(over)
    return spec


def sizes(entry):
    """A list of sizes, {first, last, step}, or a list of both -> sorted distinct ints."""
    if isinstance(entry, dict):
        return list(range(int(entry["first"]), int(entry["last"]) + 1, int(entry["step"])))
    out = set()
    for e in entry:
        out.update(sizes(e) if isinstance(e, dict) else [int(e)])
    return sorted(out)


def make(kind, n, seed=0):
    if kind not in GRAPHS:
        raise KeyError(f"unknown graph {kind!r}; one of {sorted(GRAPHS)}")
    return GRAPHS[kind](int(n), seed)


def cycle_distances(n, directed, weight=1):
    """Exact distances of a unit-step cycle of n vertices: (j - i) mod n steps round a directed one,
    the shorter way round an undirected one."""
    i = np.arange(n)
    steps = (i[None, :] - i[:, None]) % n
    if not directed:
        steps = np.minimum(steps, n - steps)
    return (steps * weight).astype(np.int32)


def reference(kind, g):
    """Exact int32 distances (INF: no path).  Cycles: the formula; otherwise the all-core Dijkstra,
    or the all-core blocked FW where the graph is dense (both checked against scipy in the tests)."""
    if kind in ("cycle_undirected", "cycle_directed"):
        return cycle_distances(g.n, kind == "cycle_directed", g.meta.get("weight", 1))
    if g.m > 8 * g.n:
        return cpu.fw_blocked_parallel(g)
    return cpu.dijkstra_apsp(g, parallel=True)
