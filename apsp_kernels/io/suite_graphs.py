"""The structure suite's graphs by name: the generated classes of
:mod:`apsp_kernels.core.structure_graphs` at a given n, and the road networks of :mod:`.roads` at their own n."""
from __future__ import annotations

from ..core import generators
from ..core.graph import Graph
from ..core import structure_graphs as SGR
from . import roads

SUITE = ("kemp", "grid", "ring", "ba", "hub", "complete")
ROADS = ("helsinki-walk", "helsinki-drive")       # the road networks of a default run
REAL = tuple(roads.BUNDLED)         # every bundled road network (by name: --graphs bremen-dist), each at its own n
EXTRA = ("knn", "path", "lollipop")       # the road-like stand-in and the deep graphs
MORE = ("grid3d", "small_world", "components", "dag", "dense")   # 3-D grids, small worlds, many components,
                                                                 # negative weights, m ~ n^2 / 4
CLASSES = SUITE + EXTRA + MORE            # every generated class; a full run measures them all and the roads
CAPPED = {"complete": 2048, "dense": 4096}   # n^2 edges: measured once, at this n, in a run with a size up to 4096
SIZED = {"components": "size", "cliques": "size", "strip": "size", "lollipop": "clique", "corridor": "aspect",
         "grid8": "rows"}
# by name with a size after a dash (components-16, cliques-64, strip-64: rows, lollipop-256: the clique,
# corridor-64: length over width, grid8-40: rows): the size's keyword
HELD_OUT = ("components-16", "components-128", "components-256", "cliques-64")   # auto's few-vertices check, by name
CHECKS = ("knn_islands", "kemp_star", "delaunay", "grid8")   # classes for checks of auto's rules, by name, not in
                                                              # a default run
KNOWN = (f"known: {', '.join(CLASSES + CHECKS + REAL)}, or {' or '.join(SIZED)} with a size after a dash "
         f"(e.g. {HELD_OUT[0]})")


def _sized(name):
    """(class, component size) of a sized name (``components-16`` -> ('components', 16)), or None."""
    cls, _, size = name.partition("-")
    return (cls, int(size)) if cls in SIZED and size.isdigit() and int(size) > 0 else None


def spec(text):
    """(name, n) of a graph named on a command line as ``name:n`` (``grid:6000``; a bundled network at its own n:
    ``helsinki-walk:0``)."""
    name, colon, n = text.rpartition(":")
    if not colon or not name or not n.isdigit():
        raise ValueError(f"{text!r}: a graph is name:n (grid:6000; a bundled network helsinki-walk:0)")
    return name, int(n)


def known(name) -> bool:
    """Whether :func:`make` knows ``name``."""
    return name in CLASSES + CHECKS + REAL or _sized(name) is not None


def make(name, n=None, seed=0) -> Graph:
    """One graph of the suite: a class of ``CLASSES`` or ``CHECKS`` at ``n`` vertices, one of ``SIZED`` with its
    component size after a dash (``components-16``), or a road network of ``REAL`` (its own n; ``n`` ignored)."""
    if name in REAL:
        return roads.load(name)
    if n is None:
        raise ValueError(f"{name} needs n")
    if name == "kemp":
        return generators.kemp(n, seed=seed)
    if name == "complete":
        return generators.complete(n, seed=seed)
    if name == "ba":
        return SGR.barabasi_albert(n, seed=seed)
    if not known(name):
        raise KeyError(f"unknown structure-suite graph {name!r}; {KNOWN}")
    sized = _sized(name)
    if sized:
        return getattr(SGR, sized[0])(n, **{SIZED[sized[0]]: sized[1]}, seed=seed)
    return getattr(SGR, name)(n, seed=seed)
