"""When ``method="auto"`` runs ``tuned_deep`` (or, for a device result, ``tuned_frontier``) instead of the cost
model's pick: where a source's search is long and thin or reaches few vertices, which the cost model (a rate of
n m, scaled by the hop depth) does not see.  Two
tests, each able to say no, on the BFS from the vertex of most out-edges (:func:`~.core.structure.hub_depth_once`,
which auto's depth search makes anyway and remembers for the graph):

1. **Deep** (in tuned_frontier's place only): the hub BFS reaches at least ``DEPTH_FRACTION`` n levels.  Set from
   the rows recorded before it (one H200; ``data/results/device-logs/h200-20261128-2003-deep-elim/deep.csv`` and
   ``data/results/benchmarks/NVIDIA_H200-2026-11-28-structure-deep-road.csv``): on the path, the ring and the
   lollipop (depth n/2 to n) at 4,096 and 16,384, tuned_deep's kernels took 0.34-0.71x tuned_frontier's, end to end
   0.74-1.02x with the float64 result on the host and 0.41-0.42x with it left on the device; on the grid and the kNN
   graph (depth 0.9-2 sqrt(n): under n/60 at 16,384) tuned_deep was the slower, 1.35-1.9x.  The fraction was 0.25,
   a round value between; 0.4 since the strip of 4 rows (depth n/4, ``data/results/elimination/
   ...-2026-11-30-strips-small.csv``, post hoc): tuned_deep took 0.82-1.23x tuned_frontier's time there at 4,096
   and 8,192 vertices, and the elimination, which auto weighs against tuned_deep only by the deep classes' crossing
   rows (from 12,000 vertices), was 4.7-17x faster than tuned_deep and 3.8-21x faster than tuned_frontier;
   at 12,000 and 16,000 tuned_deep took 2.5 and 4.6 s to the host against the elimination's 94 and 152 ms.  0.4 lies
   between a strip of 3 rows (n/3) and the ring (n/2).
   **And thin** (``BRANCHING``): at most a tenth of the vertices the hub BFS reached have two or more in-neighbours
   on the level above (:func:`~.core.structure.hub_branching`).  Post hoc, after the held-out check of 0.4
   (``data/results/solver/...-2026-11-30-host-33k-check-deep.csv``): the strip of 2 rows at 4,096, depth n/2, took
   tuned_deep 91.3 ms to the host and 83.8 on the device against the elimination's 21.4 and 10.7, past the bound;
   its BFS has a half of its vertices with two parents, the strips of 3, 4 and 8 rows 0.67-0.87, grids 0.98, and
   the path, the ring and the lollipops where tuned_deep won 0.000 (one hop path from the hub to every vertex: the
   weights cannot make a vertex's distance improve again and again).  0.1 lies between.  Such a graph goes to
   tuned_frontier's place, where the elimination's depth test takes it.
2. **Few vertices a source** (in place of any in-core GPU code): the hub BFS and the probe
   (:func:`~.core.structure.probe_once`: four BFS, from vertex 0, seeded random vertices and the farthest found) each
   reach at most ``FEW`` of the vertices, so a source's whole search is a few rounds inside one warp, while the
   other codes pay for n m: a sweep of every edge, or a kernel round trip a round.  The probe guards against a
   hub that lies outside the bulk of the graph.  A hub with at least ``HUB`` n out-edges fails it without a BFS
   (a dense graph: tuned_fw's n^3 sweep; just below it, on the complete digraphs of 256 at 4,096, degree 255,
   tuned_fw took 12.0 ms on the device and tuned_deep 16.0, within 1.25x + 2 ms).  ``FEW`` was set from the
   components of 512 and 1,024 at 4,096 (one H200, ``data/results/solver/NVIDIA_H200-2026-11-29-rules-check.csv``
   and, for the first, 8 interleaved rounds in ``...-e2e-scatter-after-check.csv``: reach 12 % and 25 %, 1.4-1.8x
   and 1.0-1.4x faster with tuned_deep than with tuned_frontier); checked on graphs
   held out under a plan committed first (``...-few-third-check.csv``): within 1.25x + 2 ms on the three graphs of
   4,096, past it on the device at 16,384, where tuned_frontier was 1.7x and 2.0x faster on components of 2,048 and
   3,584 (to the host tuned_deep was the faster or within; the cost model's pick there, tuned_sparse, missed too).
   The code by result: with the result left on the device and the hub BFS reaching more than ``FRONTIER_REACHED``
   vertices, tuned_frontier runs instead (a block of threads a source against tuned_deep's warp), set from the
   rows of notes/auto-few-vertices.md (components of 2,005-3,519 vertices reached at 4,096-32,768: tuned_frontier
   1.09-1.98x faster on the device; at 1,005-1,012 reached tuned_deep the faster twice and 1.11x slower once; no
   row between 1,012 and 2,005, so those rows do not pin the threshold); to the host tuned_deep stays (the fastest
   or within 1.18x on all 24 of those graphs).  Its held-out check, and what it does not show: docs/auto-evidence.md.
   Of the suite's other classes only the DAG comes near (hub BFS 3.4 % at 4,096, its probe 8-12 %: tuned_deep takes
   no negative weight) and ``kemp_star`` (hub BFS 1-5 %, probe 93-97 %); every other reaches 98-100 %.  The earlier
   forms, their checks and what the rows suggest next: docs/auto-evidence.md and notes/auto-few-vertices.md.

Applied before the elimination's rule (:mod:`.elimination_choice`), which then weighs the elimination against
tuned_deep by its deep graphs' crossing."""
from __future__ import annotations

from .algorithms import registry

FROM, TO = "auto_frontier", "auto_deep_graphs"        # registry roles: the code replaced by test 1, the code run
DEPTH_FRACTION = 0.4
BRANCHING = 0.1       # test 1: ... and at most this fraction of the vertices it reached with two parents or more
FEW = 1 / 4           # test 2: the hub BFS and the probe each reaching at most this fraction of the vertices
HUB = 1 / 16          # ... where no vertex has this fraction of the vertices as out-neighbours
FRONTIER_REACHED = 1024   # ... and, with the result left on the device, tuned_frontier past this many reached


def target():
    """The registry's code this rule runs by default (role ``auto_deep_graphs``)."""
    return registry.by_role(TO)


def instead(g, algo, result=None, fits=None):
    """``(code, why)``: the code to run instead of ``algo`` on ``g`` and why (one line), or None: neither test says
    yes (test 1 only where ``algo`` is tuned_frontier, test 2 where it is an in-core GPU code), the code to run does
    not take ``g``'s weights or does not fit (``fits(code)``, None: every code fits), or it is ``algo`` itself.
    ``result``: 'host', 'int32' (to the host either way), 'device' or None (some rows: tuned_deep computes only the sources asked for, as
    tuned_frontier does)."""
    deep, frontier_code = target(), registry.by_role(FROM)
    frontier = algo is frontier_code
    in_core_gpu = algo.device == "gpu" and algo.forced_params is None and algo is not deep
    if not (frontier or in_core_gpu) or g.n < 2:
        return None
    from .core.structure import hub_branching_once, hub_depth_once, probe_once
    from .costs import max_out_degree
    dense = (max_out_degree(g) or 0) >= HUB * g.n           # tuned_fw's sweep, not a search a source: no test 2
    if not frontier and dense:
        return None
    if g.has_negative and not deep.negative_weights:         # after the degree: a pass over every weight
        return None
    swap = lambda code, why: (code, why) if fits is None or fits(code) else None
    s = hub_depth_once(g)
    if frontier and s.hop_depth >= DEPTH_FRACTION * g.n and (b := hub_branching_once(g)) <= BRANCHING:
        return swap(deep, f"{deep.name} instead of {algo.name}: the graph is deep and thin (the hub BFS reaches depth "
                          f"{s.hop_depth} >= {DEPTH_FRACTION:g} n, {b:.0%} of its vertices with two parents or "
                          f"more <= {BRANCHING:.0%}), where {deep.name}'s rounds stay inside a warp and "
                          f"{algo.name}'s each cost a kernel round trip")
    if dense or s.mean_reach > FEW or (p := probe_once(g)).mean_reach > FEW:
        return None
    few = (f"a source reaches few vertices (the hub BFS {s.mean_reach:.1%}, the probe's {p.mean_reach:.1%} <= "
           f"1/{1 / FEW:g})")
    reached = round(s.mean_reach * g.n)
    if result == "device" and reached > FRONTIER_REACHED:
        if frontier:                                         # the cost model's pick already
            return None
        return swap(frontier_code, f"{frontier_code.name} instead of {algo.name}: {few}, but {reached} of them "
                                   f"(> {FRONTIER_REACHED}) with the result left on the device, where "
                                   f"{frontier_code.name}'s block of threads a source beats {deep.name}'s warp")
    return swap(deep, f"{deep.name} instead of {algo.name}: {few}, a few rounds inside one warp for {deep.name}, "
                      f"where {algo.name} pays for all n m")
