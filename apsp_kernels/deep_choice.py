"""When ``method="auto"`` runs ``tuned_deep`` where it would run ``tuned_frontier``: on graphs whose hop depth is a
large part of n (paths, rings, long tails), where tuned_frontier's rounds (one kernel round trip each) are its cost
and tuned_deep keeps a source's rounds inside one warp.

The test: the BFS from the vertex of most out-edges (:func:`~.core.structure.hub_depth_once`, which auto's depth
search makes anyway and remembers for the graph) reaches at least ``DEPTH_FRACTION`` n levels.  Set from the rows
recorded before it (one H200; ``data/results/device-logs/h200-20261128-2003-deep-elim/deep.csv`` and
``data/results/benchmarks/NVIDIA_H200-2026-11-28-structure-deep-road.csv``): on the path, the ring and the lollipop
(depth n/2 to n) at 4,096 and 16,384, tuned_deep's kernels took 0.34-0.71x tuned_frontier's, end to end 0.74-1.02x
with the float64 result on the host and 0.41-0.42x with it left on the device; on the grid and the kNN graph (depth
0.9-2 sqrt(n): under n/60 at 16,384) tuned_deep was the slower, 1.35-1.9x.  Applied before the elimination's rule
(:mod:`.elimination_choice`), which then weighs the elimination against tuned_deep by its deep graphs' crossing."""
from __future__ import annotations

from .algorithms import registry

FROM, TO = "auto_frontier", "auto_deep_graphs"        # registry roles: the code replaced, the code run
DEPTH_FRACTION = 0.25


def target():
    """The registry's code this rule runs (role ``auto_deep_graphs``)."""
    return registry.by_role(TO)


def instead(g, algo, result=None, fits=True):
    """Why ``tuned_deep`` runs instead of ``algo`` on ``g`` (one line), or None: ``algo`` is not tuned_frontier,
    tuned_deep does not fit (``fits``), or the hub BFS is shallower than ``DEPTH_FRACTION`` n.  Any ``result``
    (host, device, or some rows: tuned_deep computes only the sources asked for, as tuned_frontier does)."""
    if algo is not registry.by_role(FROM) or not fits or g.n < 2:
        return None
    from .core.structure import hub_depth_once
    s = hub_depth_once(g)
    if s.hop_depth < DEPTH_FRACTION * g.n:
        return None
    to, frm = target().name, algo.name
    return (f"{to} instead of {frm}: the graph is deep (the hub BFS reaches depth {s.hop_depth} >= "
            f"{DEPTH_FRACTION:g} n), where {to}'s rounds stay inside a warp and {frm}'s each cost a kernel round trip")
