"""The structure suite's graphs by name: the generated classes of
:mod:`apsp_kernels.core.structure_graphs` at a given n, and the road networks of :mod:`.roads` at their own n."""
from __future__ import annotations

from ..core import generators
from ..core.graph import Graph
from ..core.structure_graphs import barabasi_albert, grid, hub, knn, lollipop, path, ring

SUITE = ("kemp", "grid", "ring", "ba", "hub", "complete")
ROADS = ("helsinki-walk", "helsinki-drive")
EXTRA = ("knn", "path", "lollipop")       # by name only (--graphs): the road-like stand-in and the deep graphs


def make(name, n=None, seed=0) -> Graph:
    """One graph of the suite: a class of ``SUITE`` or ``EXTRA`` at ``n`` vertices, or a road network of ``ROADS``
    (its own n; ``n`` ignored)."""
    if name in ROADS:
        from . import roads
        return roads.load(name)
    if n is None:
        raise ValueError(f"{name} needs n")
    build = {"kemp": lambda: generators.kemp(n, seed=seed), "grid": lambda: grid(n, seed=seed),
             "ring": lambda: ring(n, seed=seed), "ba": lambda: barabasi_albert(n, seed=seed),
             "hub": lambda: hub(n, seed=seed),
             "complete": lambda: generators.complete(n, seed=seed), "knn": lambda: knn(n, seed=seed),
             "path": lambda: path(n, seed=seed), "lollipop": lambda: lollipop(n, seed=seed)}
    if name not in build:
        raise KeyError(f"unknown structure-suite graph {name!r}; known: {', '.join(SUITE + EXTRA + ROADS)}")
    return build[name]()


def suite(n, seed=0, roads=True):
    """{name: Graph} of every class at n (the complete graph at min(n, 4096): n^2 edges), then the road networks."""
    out = {name: make(name, min(n, 4096) if name == "complete" else n, seed) for name in SUITE}
    if roads:
        out.update({name: make(name) for name in ROADS})
    return out
