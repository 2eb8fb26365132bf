"""When ``method="auto"`` runs ``tuned_fw`` instead of ``tuned_frontier``: a deep graph of many edges a vertex below
the size where the elimination's depth test begins, whose rounds the cost model does not see.

The cost model (:mod:`.costs`) predicts tuned_frontier's time as n m over its rate on Kemp's graph (hop depth
10-12), whatever the depth: its rounds run inside a block, and on Kemp's graph, at 682 edges a round, they are
hidden behind the edges each round relaxes.  On a graph whose levels are narrow they are not: its kernel time over
n x the rounds its slowest source ran was 6-16 ns on kNN corridors at 51-304 edges a round (m over those rounds),
12-14 ns on the kNN graph and the grid of 4,096 (336 and 120 edges a round), 40 on Kemp's graph
(``data/results/device-logs/h200-20261130-1025-frontier-corridors``, medians of 2 rounds; computed from kernel
spans and rounds, not timed a round at a time).  So past a depth its time grows with the depth at a cost a round
the model's rate does not carry, while tuned_fw's n^3 does not see the graph.

**The rule**, for all pairs only (with ``indices`` tuned_frontier computes just those rows): on a graph of at least
``DENSER`` edges a vertex (:func:`.elimination_choice.denser`) of fewer than ``DENSER_FROM`` vertices (there the
elimination's depth test, :mod:`.elimination_choice`, takes the deep ones), whose probe's hop depth D passes
``KNEE`` sqrt(n), tuned_fw runs where its predicted time is below tuned_frontier's times D / (``KNEE`` sqrt(n)).

Set post hoc from the kNN corridors below 10,000 vertices (``corridor-A``, m / n 7.1; 13 graphs of aspect 8-128 at
3,000-9,500: ``data/results/elimination/NVIDIA_H200-2026-11-30-corridor-sweep.csv``,
``data/results/solver/NVIDIA_H200-2026-11-30-corridors-check.csv`` and, corridor-96 of 9,500, the held-out
``...-denser-check.csv``; medians of 3-5 rotated rounds, one H200).  In sample, the picked code's median was within
1.25x + 2 ms of the fastest of tuned_fw, tuned_frontier and the elimination on 34 of their 39 (graph, result) pairs
by the cost model alone (tuned_frontier 1.35-2.09x tuned_fw on corridor-128 of 4,500, corridor-64 of 3,500 and
corridor-24 of 7,000), on all 39 with a knee of 2 and the depth's first power (on a grid of knees 1-3 and powers
0.3-2 so did 1.5 with 0.5, 2 with 0.75-1.25 and 2.5 with 1.25-2; 2 and 1 the simplest among them).  The narrowest
miss it mends needed the scale above 1.49 at D = 3.6 sqrt(n) (corridor-24 of 7,000), and the nearest graph it must
leave alone, below 1.28 at 2.2 sqrt(n) (corridor-8 of 6,000: tuned_frontier 16.3 ms on the device against
tuned_fw's 21.2).  Kemp's graphs, the square kNN graphs (D about 1.1 sqrt(n)), 3-D grids (0.5-0.7) and the dense
graphs are below the knee; the grids, strips, road networks, paths, rings and lollipops have fewer edges a vertex
(:mod:`.deep_choice` and the elimination's rules take them).  Its held-out check: docs/auto-evidence.md
(``frontier-rounds``)."""
from __future__ import annotations

import math

from . import costs, elimination_choice
from .algorithms import registry

FROM, TO = "auto_frontier", "auto_deep_denser"       # registry roles: the code replaced, the code run
KNEE = 2.0           # the probe's hop depth past this many sqrt(n) scales tuned_frontier's predicted time


def target():
    """The registry's code this rule runs (role ``auto_deep_denser``)."""
    return registry.by_role(TO)


def scale(n, depth):
    """The factor on tuned_frontier's predicted time for a graph of ``n`` vertices and hop depth ``depth``:
    D / (``KNEE`` sqrt(n)), at least 1."""
    return max(depth / (KNEE * math.sqrt(max(n, 1))), 1.0)


def instead(g, algo, result=None, fits=None, benchmarks=None):
    """``(tuned_fw, why)``: it runs instead of ``algo`` on ``g``, and why (one line); or None where it does not:
    ``algo`` is not tuned_frontier, ``result`` is None (rows, not all pairs), the graph has fewer than ``DENSER``
    edges a vertex or at least ``DENSER_FROM`` vertices, tuned_fw does not fit (``fits(code)``; None: it fits) or
    either code has no benchmark rows (``benchmarks``: :func:`.costs.predict`'s folders), or tuned_fw's predicted
    time is not below tuned_frontier's scaled by the depth (:func:`scale`)."""
    if algo is not registry.by_role(FROM) or result is None:
        return None
    if not elimination_choice.denser(g) or g.n >= elimination_choice.DENSER_FROM:
        return None
    fw = target()
    if fits is not None and not fits(fw):
        return None
    from .core.structure import probe_once
    probe = probe_once(g)
    depth = probe.hop_depth
    f = scale(g.n, depth)
    if f <= 1.0:
        return None
    mine = costs.predict(algo, g, benchmarks, structure=probe)
    theirs = costs.predict(fw, g, benchmarks, structure=probe)
    if mine is None or theirs is None or not theirs.ms < mine.ms * f:
        return None
    return fw, (f"{fw.name} instead of {algo.name}: m / n = {g.m / max(g.n, 1):.2f} >= "
                f"{elimination_choice.DENSER:g} below {elimination_choice.DENSER_FROM:,} vertices and the probe's hop "
                f"depth {depth} = {depth / math.sqrt(g.n):.2f} sqrt(n) > {KNEE:g} sqrt(n): {algo.name}'s rounds put "
                f"it at ~{mine.ms:.3g} ms x {f:.2f} = ~{mine.ms * f:.3g}, {fw.name}'s ~{theirs.ms:.3g}")
