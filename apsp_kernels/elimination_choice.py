"""When ``method="auto"`` runs ``tuned_elimination`` where it would run ``tuned_frontier``: a rule learned from
recorded rows, in two tests, each able to say no.

1. **The size, from the crossing rows.**  ``scripts/elimination_gpu_measure.py --e2e --out`` times both codes'
   ``shortest_paths`` end to end (warm, median of its repeats, every result checked against scipy's Dijkstra), on a
   2-D grid and a k-nearest-neighbour geometric graph at each size, the result on the host (float64) and left on
   the device (``device=True``).  Those rows, newest file of ``data/results/elimination/*-crossing.csv``, give per
   size and result the ratio of the two times, the *largest* over the graphs measured at that size (elimination
   only where it beat tuned_frontier on each of them); between sizes the ratio is interpolated on log n, beyond the
   largest measured for that result the largest's is kept (the gap widens with n: from 24,000 to 65,536 vertices
   tuned_frontier's time grew as n^2.4-2.7 and the elimination's as n^1.0-1.9).
   Below the smallest recorded size (less 2 %: a grid's n is the nearest r x c) the size learns nothing.
   Elimination is taken where that ratio is below 1; **to the host against tuned_frontier, from ``DEPTH_FROM``
   vertices on, by the depth instead** (:func:`deep_enough`; ``DEPTH_FROM`` below): where sqrt(n) times the
   probe's hop depth D (:func:`~.core.structure.probe_once`: four BFS, 4-15 ms at 20,000-50,000 vertices) is at
   least ``DEPTH``.  Why: the elimination's time to the host follows n alone (about 1 s at 40,000 vertices on
   the grid, the kNN graph, Bremen and the kNN graph with islands: mostly the n^2 copy), tuned_frontier's grows with
   its rounds, which follow D; the size crossing, the worst graph's, kept the shallow kNN graph's (D about
   1.1 sqrt(n), 44,200 vertices) for the grids (2 sqrt(n): they cross near 25,000) and Bremen (1.5 sqrt(n); 40,461
   vertices, 2.07x faster with the elimination).  Set from the recorded float64-to-host rows of both codes at
   16,000 vertices and more (the crossing and auto-check files here, the suite's grid, kNN and Bremen rows; one
   H200; Bremen's seen before; the deep graphs left out: :mod:`.deep_choice` takes them first): per graph (its runs
   combined) every one on its faster side; the highest score where tuned_frontier won 47,431 (the grid of 23,870,
   which went to the elimination in one of its three runs), the lowest where the elimination won 53,239 (the kNN
   graph of 48,000); any threshold between fitted them, and 50,000, a round value inside, was the float64
   threshold until the host result was touched during the solve (below).  Its held-out check: docs/solver.md.  **int32 to the host its own threshold**, 28,000: half the bytes to copy take the elimination's
   largest cost down by more than tuned_frontier's, so it crosses at a smaller depth.  Set from the int32 rows of
   ``...-2026-11-29-int32-crossing.csv`` (the kNN graph at 16,000-40,000, the grid at 16,000-28,000; medians of 3
   interleaved rounds, ``scripts/e2e_scatter_probe.py --modes int32 --crossing``) with the suite's single int32
   calls on South Seattle's and Bremen's car networks and the grid of 26,244 (the first seen as a miss when
   int32 took float64's 50,000): the highest score where tuned_frontier won 27,111 (the kNN graph of 24,000, 1.06x),
   the lowest where the elimination won 29,673 (South Seattle, 0.84x; the grid of 16,000 at 31,623, 0.97x).
   **On the device the size crossing, or the depth from ``DEPTH_FROM`` vertices on**: the kNN graph, the
   worst graph, crosses at 17,064 vertices, the deeper grids and strips far below it.  Where the size crossing
   says no, the elimination is taken where sqrt(n) x D is at least ``DEPTH["device"]``, 25,000, and n at least
   8,000.  Set from the device rows of ``...-2026-11-29-depth-small.csv`` (grids of 6,000-14,000, kNN graphs of
   8,000-14,000, strips of 32 and 64 rows at 8,192 and 12,288, the kNN graph with islands at 12,000, the Helsinki
   walking network; medians of 5 interleaved rounds) with the crossing rows' grids and kNN graphs at 16,000-24,000
   (measured after the grid of 16,384 was seen past the bound on the device, 1.39x, in the suite and in rounds): by
   the score every row on its faster side but the kNN graph of 20,000 (21,920; 0.86x), which the size crossing
   takes; the highest score where tuned_frontier won 23,771 (the grid of 12,000, 1.16x), the lowest where the
   elimination won 25,886 (the strip of 32 rows at 8,192, 0.52x); 25,000 is a round value between.  No graph of
   fewer than 8,192 vertices past 25,000 was measured then (the smallest measured 5,559, all below 18,000), and the
   test began at 8,000 vertices.
   **From 4,096 vertices in every result (``DEPTH_FROM``)**, post hoc: until then the host's depth test began at the
   crossing rows' smallest size (16,000 less 2 %) and the device's at 8,000, and below them tuned_frontier stayed
   however deep the graph.  Strips of 4-16 rows at 4,096-12,288 vertices
   (``...-2026-11-30-strips-small.csv``, medians of 3 interleaved rounds, one H200) showed what that cost: on the
   strips of 8 rows at 8,192 and 12,288 tuned_frontier took 336 and 964 ms to the host, the elimination 61 and 98;
   of 16 rows at 4,096 on the device 28.9 against 20.9.  The thresholds are those above; the rows below 16,000
   (those strips, the device rows' graphs re-measured to the host after the touch, ``...-touched-small.csv``) sit
   on their faster side by them but for the strip of 32 rows at 8,192 (score 25,886: the elimination 0.59x to
   the host, tuned_frontier kept, 1.68x) and the strip of 16 at 4,096 (17,280: 0.72-0.85x, tuned_frontier kept,
   past the bound on the device, 1.38x); the grids of 12,000 and 14,000 (23,771 and 27,687) lost with the
   elimination to the host, 1.32x and 1.22x.  Below 4,096 no graph of such a score was measured.
   **float64 since the host result is touched during the solve: 28,000 too.**  The threshold of 50,000 above came
   from rows measured before a host result's pages were touched while the GPU solves
   (:func:`~.algorithms.gpu.resident.touched`), which took 9-22 % off the elimination's time to the host and left
   tuned_frontier's (its rows stream) as it was.  Set again, post hoc, from rows of the touched path (one H200,
   medians of 3 interleaved rounds, both codes in one process: ``...-2026-11-30-touched-host.csv``, grids of 20,000,
   24,000 and 28,000, South Seattle, the kNN graph of 32,000; ``data/results/solver/...-2026-11-30-host-after-rounds.csv``,
   the kNN graphs of 24,000 and 40,000 and the grid of 24,000): the highest score where tuned_frontier won 27,111
   (the kNN graph of 24,000, 1.23x), the lowest where the elimination won 29,673 (South Seattle, 0.91x); every
   other graph the elimination's (0.77-0.92x in float64).  The same gap as int32's, whose rows of the touched path
   agree with its threshold (the kNN graph of 24,000 1.05x, the rest 0.62-0.83x): 28,000 for both.
   **float64 to the host 33,000 since its held-out checks.**  The check of 28,000 (``data/results/solver/
   ...-2026-11-30-host-touched-check.csv``) kept auto within the bound on 6 of 6 graphs, but the elimination was
   the slower code on the kNN graph of 27,000 (score 29,741, 1.09x) and the kNN graph with islands of 30,000
   (29,964, 1.08x); the check of ``DEPTH_FROM`` (``...-depth-from-check.csv``) missed on the grid of 15,000 (29,639:
   the elimination 172.4 ms against 133.2, 1.29x; the grid of 14,000 at 27,687 1.22x).  Set again, post hoc, from
   the float64 rows of the touched path in all of these: the lowest score where the elimination won beyond the thin
   strips 29,673 (South Seattle, 0.91x), then 35,777 (the kNN graph of 32,000, 0.92x) and up; the highest where it
   lost 29,964.  33,000 lies between 29,964 and 35,777, leaving South Seattle (0.91x) and the strips of 64 rows at
   12,288 (28,156, 0.96x) and of 32 rows at 8,192 (25,886, 0.59x: past the bound) to tuned_frontier.  int32 keeps
   28,000: its rows of the grid of 15,000 (1.08x) and of the kNN graph of 24,000 (1.05x) lost within the bound.
   **Narrow levels lower the threshold** (``NARROW``, :func:`depth_threshold`), post hoc: where the hub BFS's
   widest level holds w sqrt(n) vertices, w < 1 (strips), the threshold is ``DEPTH`` x w ** 0.65.  Set from strips
   of 20-64 rows at 5,000-12,000 vertices (``...-2026-11-30-narrow-strips.csv``, medians of 3 rotated rounds, one
   H200, scores 14,562-29,358, w 0.26-0.65) with the rows above: strips of w 0.26-0.35 won with the elimination from
   scores of 16,000-19,000, of w 0.49-0.65 lost up to 21,800 (1.41x to the host) and won from 25,400; any exponent
   of 0.5-0.8 (a grid of steps of 0.1) put every float64 and device row of the record within 1.25x of the faster
   code, 0.65 is the middle; it leaves int32's strip of 64 rows at 10,000 at 1.28x (0.523-0.581 fits every row in
   all three results, found after the held-out check: a candidate for the next one).  It took the misses below
   (the strip of 32 rows at 8,192, the strip of 16 at 4,096) to the elimination.
   **Graphs of ``DENSER`` edges a vertex or more by their own test** (:func:`denser`), post hoc: from
   ``DENSER_FROM`` vertices only, levels of any width, at float64's threshold to the host in every result.  kNN
   corridors (``corridor-A``: a kNN graph in a rectangle A times as long as wide, m / n 7.1, levels of 0.36-1.56
   sqrt(n)) were held out against the rules above (``data/results/solver/...-2026-11-30-corridors-check.csv``,
   4 of 8 graphs within the bound) and swept after (aspect 8, 32 and 128 at 3,000-20,000 vertices,
   ``data/results/elimination/...-2026-11-30-corridor-sweep.csv``; medians of 5 and 3 rotated rounds, one H200):
   below 10,000 vertices the elimination lost to tuned_frontier on every corridor (1.14-2.88x to the host,
   1.02-3.39x on the device) at scores up to 49,342, where the narrow levels had put 12,800-21,600 in the way;
   at 12,000 it lost at 26,181 (corridor-8: 1.54x to the host, 1.77x on the device, past the device's 25,000 and,
   w = 0.68, the host's 25,700 once narrowed) and won or lost within the bound from 36,150 (0.84-1.11x).  Grids and
   strips (m / n 4) and road networks (2.5-3) keep the rules above.  Its first form kept int32's 28,000 and was
   held out (``...-2026-11-30-denser-check.csv``: within on 5 of 7 graphs); past the bound in int32 on
   corridor-12 of 10,500 (score 28,179: the elimination 1.84x tuned_frontier) and corridor-10 of 13,000 (31,127:
   1.28x), where the square kNN graphs cross lower (the kNN graph of 28,000 at 30,789: 0.96x, of 24,000 at 27,111:
   1.06x, of 32,000 at 35,777: 0.80x; ``...-2026-11-29-int32-crossing.csv``); 33,000 in int32 too since (post hoc),
   which leaves the kNN graph of 28,000 to tuned_frontier in int32 (1.04x, within) and changes no other square kNN
   row measured (on the device they are taken by the size crossing from 17,064 vertices and score below 25,000
   before it).  Records: notes/corridors.md.
2. **Small separators, from the BFS auto makes.**  The elimination's work is set by its separators; a graph like those rows
   (grids, road networks, geometric graphs) has BFS levels of about sqrt(n) vertices, a random graph, a small world
   or a graph with a hub has levels holding a large part of n (at 16,384: 38-128 sqrt(n)), and there nested
   dissection finds no small separator.  The test: the hub BFS (:func:`~.core.structure.hub_depth_once`, which
   auto's depth search makes anyway and remembers for the graph) reaches at least ``REACH`` of the vertices (its
   levels then speak for most of the graph) and its widest level holds at most ``WIDEST`` sqrt(n).  The bound on
   the widest level was set from the measured classes' widest levels (grid 1.0, kNN 1.8-3.1 sqrt(n) at
   16,384-65,536; the Helsinki networks 0.5-1.3) before any auto row of this rule was measured; 3-D grids (4.3 at
   32,768: unmeasured for the elimination) fall outside it.  ``REACH`` was 0.9 until the Bremen road network
   (40,461 vertices; one H200, ``data/results/solver/NVIDIA_H200-2026-11-29-e2e-bremen.csv``): an extract in
   pieces, whose largest connected part holds 83 % of the vertices, its hub BFS reaching 82 % (widest level 2.1
   sqrt(n)); the elimination took 0.48x, 0.29x and 0.18x tuned_frontier's time (float64, int32, on the device)
   and auto ran tuned_frontier.  Set to 0.5 after that (post hoc for Bremen); checked on graphs held out
   under a plan committed first (``knn_islands`` at 24,000 and 40,000, ``...-rules-check-islands.csv``: auto's
   median call within 1.25x + 2 ms of the faster code in every mode).  **And the probe's hop depth D at least
   ``SHALLOWEST`` sqrt(n)** (its BFS levels average at most 1.33 sqrt(n) vertices): a 3-D grid's separators grow as
   n^(2/3), its widest level reaches 4 sqrt(n) only near 20,000 vertices (3.85 at 16,384, 3.92 at 18,000), so
   between the device size crossing (17,064) and there it passed the widest-level test.  At 16,384 (D 0.57
   sqrt(n)) the elimination took 371.6 ms on the device against tuned_frontier's 117.1 (medians of 5 interleaved
   rounds, ``data/results/solver/...-2026-11-29-device-depth-check.csv``, where the depth test kept it away).
   Set post hoc from that one class: the graphs where the elimination was measured the faster have D 0.98-1.13
   sqrt(n) (kNN graphs, the kNN graph with islands, South Seattle), 1.55 (Bremen), 2 and more (grids,
   strips, deep graphs); 3-D grids 0.51-0.57 (16,384-32,768); 0.75 lies between.

The same two tests weigh the elimination against ``tuned_deep`` where auto's deep-graph rule
(:mod:`.deep_choice`, applied first) has put it in tuned_frontier's place: the ratios then come from the newest
``*-crossing-deep.csv``, the same script's rows on the deep classes (a path, a ring, a lollipop) with
``--against tuned_deep``, because deep graphs cross at other sizes than the grid and the kNN graph (their host
crossing earlier, their device crossing later: tuned_deep is faster there than tuned_frontier).  **Each graph by
its m / n** there: those rows record m, and at each size the ratio is interpolated on m / n between the graphs
measured (:func:`on_density`) before it is interpolated on log n, instead of the worst graph's.  Why: a deep
graph's elimination time follows n (its separators are a vertex or two: to the host the path's, the ring's and the
lollipop's took within 1.15x of each other at every size of the rows below, on the device, where they scatter more,
within 1.53x), tuned_deep's the edges each source relaxes beside its rounds; the lollipop's clique (m / n 2.5-3.3
against the path's 1 and the ring's 2) took tuned_deep 1.8-2.1x the path's time with the result on the device
(1.2-1.3x to the host), so the lollipop crosses first.  Set from the
rows of ``...-2026-11-29-rounds-crossing-deep.csv`` (12,000-32,000 vertices, medians of 3 interleaved rounds in
each of the three results, ``scripts/e2e_scatter_probe.py --crossing``), which replaced the blocked medians of
``...-density-crossing-deep.csv`` (12,000-48,000; measured after the lollipop's miss at 16,384 was known, the
lollipop below 1 on the device at every size) after the latter's held-out check missed three of twelve
(graph, result) pairs, two in int32 to the host, where the float64 rows then spoke for int32: the interleaved rounds
put the elimination relatively faster than those blocked medians in 17 of 18 (graph, result) pairs at
12,000-20,000 (on the device the path 1.04x against 1.60x at 12,000).  Their held-out checks: docs/solver.md.
To the host (float64 and int32) the rows are now ``...-2026-11-30-touched-crossing-deep.csv`` (the same graphs and
rounds, measured again after the host result was touched during the solve, post hoc: tuned_deep gained more there
than the elimination, and the path no longer crosses by 32,000 in float64, 1.02x, where those rows had it from
about 17,200); the device keeps the rows above (the touch is the host's).  Below 12,000 these rows learn nothing,
and tuned_deep stays: on strips of 4 rows, deep enough for :mod:`.deep_choice`, that cost 4.7-17x (the elimination
23.2 against 107.5 ms to the host at 4,096, 27.5 against 471.0 on the device at 8,192; ``...-strips-small.csv``).

Only for all pairs: with ``indices`` tuned_frontier and tuned_deep compute just those rows, the elimination all of
them."""
from __future__ import annotations

import csv
import functools
import math
from dataclasses import dataclass
from pathlib import Path

from . import cost_rows, paths
from .cost_rows import stamp
from .algorithms import registry

FROM, TO = "auto_frontier", "auto_small_separators"        # registry roles: the code replaced, the code run
DEEP = "auto_deep_graphs"                                  # the other code it may replace (after deep_choice)
TAGS = {FROM: "crossing", DEEP: "crossing-deep"}           # the replaced code's role -> its crossing files' tag
RESULTS = ("host", "int32", "device")    # the results choose() tells apart (choice.result_kind): float64 (or any
                                         # type but int32) or int32 to the host, or left on the device
WIDEST = 4.0          # the hub BFS's widest level, at most this many sqrt(n)
REACH = 0.5           # ... and that BFS reaching at least this fraction of the vertices
SHALLOWEST = 0.75     # ... and the probe's hop depth at least this many sqrt(n)
HOST_RULE_SINCE = "2026-11-30T03:38:49+00:00"   # when test 1 to the host took its present form (UTC): the depth's
                                                # from 2026-11-29T14:30:12; float64's threshold from rows of the
                                                # touched host path, 28,000 from 2026-11-30T01:06:36, 33,000 from
                                                # this; a check measured before it tested another rule there
                                                # (for levels of sqrt(n) and more: NARROW lowers it for narrower
                                                # ones since 2026-11-30T06:53, the checks' grids and kNN graphs
                                                # untouched)
DEPTH = {"host": 33_000, "int32": 28_000, "device": 25_000}   # test 1 against tuned_frontier by the depth:
                                                 # sqrt(n) x the probe's hop depth at least this, by the result
NARROW = 0.65        # ... times (the hub BFS's widest level / sqrt(n)) ** NARROW where that level is narrower than
                     # sqrt(n): a narrow separator (a strip) crosses at a smaller depth
DEPTH_FROM = 4_096   # test 1 by the depth from this many vertices, in every result (to the host below the
                     # crossing rows' smallest size too; on the device below the size crossing)
DENSER = 5.0         # a graph of at least this many edges a vertex (m / n: kNN graphs and corridors 7.1, grids
                     # and strips 4, road networks 2.5-3) takes test 1 by the depth ...
DENSER_FROM = 10_000  # ... from this many vertices on, at float64's threshold to the host in every result, not
                      # lowered by NARROW
SAME_SIZE = 1.02      # rows within this factor of n are one size (a grid's n is the nearest r x c)
PER_GRAPH = (DEEP,)   # the crossings read per graph (on m / n) where their rows have m; tuned_frontier's the worst
                      # graph's (to the host the depth decides, and its device rows have no m)


@dataclass(frozen=True)
class Crossing:
    """The recorded ratios, elimination's time over the replaced code's: ``sizes`` ascending, ``ratios[result]`` one a
    size, the worst graph's (NaN where that result was not measured), ``points[result]`` one a size too: the
    (m / n, ratio) of every graph measured there, m / n ascending (empty where the rows have no ``m``), ``source``
    the file."""
    sizes: tuple
    ratios: dict
    source: str
    points: dict = None

    def ratio(self, n, result, density=None):
        """The ratio at ``n`` vertices (interpolated on log n), or None below the smallest size or where ``result``
        has no rows.  ``density`` (the graph's m / n): at each size the ratio of the graphs measured there,
        interpolated on m / n (:func:`on_density`), where the rows have m; else, or with ``density`` None, the
        worst graph's."""
        at = self.ratios.get(result, ())
        if density is not None and self.per_graph:
            at = [on_density(p, density) if p else r for p, r in zip(self.points.get(result, ()), at)]
        pts = [(s, r) for s, r in zip(self.sizes, at) if not math.isnan(r)]
        if not pts or n < pts[0][0] / SAME_SIZE:
            return None
        if n >= pts[-1][0]:
            return pts[-1][1]
        for (s0, r0), (s1, r1) in zip(pts, pts[1:]):
            if n <= s1:
                f = (math.log(max(n, s0)) - math.log(s0)) / (math.log(s1) - math.log(s0))
                return r0 + f * (r1 - r0)
        return pts[-1][1]

    @property
    def per_graph(self):
        """Whether the rows had m: each graph's (m / n, ratio) is known, and :meth:`ratio` reads them."""
        return bool(self.points) and any(any(p) for p in self.points.values())

    def since(self, result):
        """The least n from which :meth:`ratio` (the worst graph's) stays below 1 for ``result`` (its smallest size
        where it is below 1 there already), or None where it is not below 1 at the largest size (or ``result`` has
        no rows)."""
        pts = [(s, r) for s, r in zip(self.sizes, self.ratios.get(result, ())) if not math.isnan(r)]
        above = [i for i, (_, r) in enumerate(pts) if not r < 1]
        if not pts or (above and above[-1] == len(pts) - 1):
            return None
        if not above:
            return pts[0][0]
        (s0, r0), (s1, r1) = pts[above[-1]], pts[above[-1] + 1]
        return int(math.ceil(math.exp(math.log(s0) + (r0 - 1) / (r0 - r1) * (math.log(s1) - math.log(s0)))))


def on_density(points, density):
    """The ratio at m / n = ``density`` from one size's (m / n, ratio) ``points`` (ascending m / n): piecewise
    linear between them, the end's value beyond either end (graphs of one m / n: the worst of them).  Why linear:
    where the elimination's time follows n and the other code's grows with the edges a source relaxes (tuned_deep:
    its rounds plus its edges), the true ratio falls with m / n as 1 / (a + b m / n), convex, so the chord lies
    above it: a graph between two measured ones is given no better ratio than theirs allow."""
    merged = {}
    for d, r in points:
        if not math.isnan(r):
            merged[d] = max(r, merged.get(d, -math.inf))
    pts = sorted(merged.items())
    if not pts:
        return math.nan
    if density <= pts[0][0]:
        return pts[0][1]
    for (d0, r0), (d1, r1) in zip(pts, pts[1:]):
        if density <= d1:
            return r0 + (density - d0) / (d1 - d0) * (r1 - r0)
    return pts[-1][1]


def folder():
    return paths.RECORDED / "elimination"


@functools.lru_cache(maxsize=16)
def crossing(where=None, against=FROM, result=None):
    """The newest crossing file of ``where`` (default: the recorded folder) for the code of role ``against`` (a key
    of ``TAGS``: ``*-crossing.csv`` against tuned_frontier, ``*-crossing-deep.csv`` against tuned_deep; newest by
    :func:`stamp`) that has rows of ``result`` (one of ``RESULTS``; None: the newest file) as a :class:`Crossing`,
    or None.  Per result, because a file may time one result only (the int32 rows, measured apart)."""
    files = sorted(Path(where or folder()).glob(f"*-{TAGS[against]}.csv"), key=stamp)
    for f in reversed([f for f in files if cost_rows.FILE.match(f.name)]):
        c = _read(f, against)
        if result is None or any(not math.isnan(r) for r in c.ratios[result]):
            return c
    return None


def _read(f, against):
    """One crossing file's verified rows as a :class:`Crossing`."""
    with open(f, newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if str(r.get("e2e_verified")) == "True"]
    rows.sort(key=lambda r: int(r["n"]))
    groups = []
    for r in rows:
        if groups and int(r["n"]) <= SAME_SIZE * int(groups[-1][0]["n"]):
            groups[-1].append(r)
        else:
            groups.append([r])

    to, frm = target().name, registry.by_role(against).name

    def ratio(r, result):
        return cost_rows._number(r.get(f"{to}_e2e_{result}_ms")) / cost_rows._number(r.get(f"{frm}_e2e_{result}_ms"))

    def worst(group, result):
        rs = [x for x in (ratio(r, result) for r in group) if not math.isnan(x)]
        return max(rs) if len(rs) == len(group) else math.nan

    def points(group, result):
        if against not in PER_GRAPH or any(not r.get("m") for r in group):
            return ()
        pts = [(int(r["m"]) / int(r["n"]), ratio(r, result)) for r in group]
        return tuple(sorted(pts)) if all(not math.isnan(x) for _, x in pts) else ()
    sizes = tuple(int(g[0]["n"]) for g in groups)
    return Crossing(sizes, {res: tuple(worst(g, res) for g in groups) for res in RESULTS}, f.name,
                    {res: tuple(points(g, res) for g in groups) for res in RESULTS})


def target():
    """The registry's code this rule runs (role ``auto_small_separators``)."""
    return registry.by_role(TO)


def separators_small(g):
    """(whether ``g`` passes test 2, the hub BFS's Structure)."""
    from .core.structure import hub_depth_once, probe_once
    s = hub_depth_once(g)
    root = math.sqrt(max(g.n, 1))
    if not (s.mean_reach >= REACH and s.widest <= WIDEST * root):
        return False, s
    return probe_once(g).hop_depth >= SHALLOWEST * root, s


def instead(g, algo, result, fits=None, where=None):
    """``(tuned_elimination, why)``: it runs instead of ``algo`` on ``g``, and why (one line); or None where it does
    not: ``algo`` is neither tuned_frontier nor tuned_deep (the roles of ``TAGS``), ``result`` is not one of
    ``RESULTS`` (None: rows, not all pairs), the elimination does not fit (``fits(code)``; None: it fits), it would not
    order the graph as in its rows (:func:`measured_ordering`), or either test, with ``algo``'s crossing rows, says
    no (in tuned_frontier's place test 1 is the depth's from ``DEPTH_FROM`` vertices (:func:`deep_enough`), on the
    device the size crossing's first).  With an int32 result on
    the host the crossings' int32 rows where there are any, else their float64 rows."""
    against = next((role for role in TAGS if registry.by_role(role) is algo), None)
    if against is None or result not in RESULTS or (fits is not None and not fits(target())):
        return None
    if not measured_ordering():
        return None
    c, read = crossing(where, against, result), result
    if c is None and result == "int32":                  # no int32 rows: the float64 rows to the host speak for it
        c, read = crossing(where, against, "host"), "host"
    if c is None:                                        # no rows: nothing learned
        return None
    r = c.ratio(g.n, read, g.m / max(g.n, 1))
    crossed = r is not None and r < 1.0                  # the size crossing (against tuned_deep per graph)
    if against == FROM and not (result == "device" and crossed):   # tuned_frontier's place: the depth decides,
        if g.n < depth_from(g):                                    # but on the device past the size crossing
            return None
        by_depth = True
    elif crossed:
        by_depth = False
    else:
        return None
    small, s = separators_small(g)
    if not small:
        return None
    to, frm = target().name, algo.name
    if by_depth:
        deep, depth, score = deep_enough(g, result)
        if not deep:
            return None
        side = {"host": "to the host", "int32": "to the host in int32", "device": "on the device"}[result]
        bar = depth_threshold(g, result)
        scaled = (f" (m / n = {g.m / g.n:.2f} >= {DENSER:g}: from {DENSER_FROM:,} vertices, levels of any width)"
                  if denser(g) else f" ({DEPTH[result]:,} x (widest level / sqrt(n)) ** {NARROW:g}: narrow levels)"
                  if bar < DEPTH[result] else "")
        size = (f"sqrt(n) x the probe's hop depth {depth} = {score:,.0f} >= {bar:,.0f}{scaled} (where the recorded "
                f"rows of the grids, the kNN graphs, the strips and the road networks put it past {frm} {side})")
    else:
        per = f" and m / n = {g.m / max(g.n, 1):.2f} (interpolated between the graphs measured)" if c.per_graph else ""
        kind = " (their float64 rows: none in int32)" if read != result else ""
        size = f"at n = {g.n}{per} the recorded rows ({c.source}{kind}) put its time at {r:.2f}x {frm}'s"
    return target(), (f"{to} instead of {frm} with the result on the {result}: {size}, and the graph's separators "
                      f"are small (the hub BFS's widest level {s.widest} <= {WIDEST:g} sqrt(n), {s.mean_reach:.0%} "
                      f"reached; the probe's hop depth >= {SHALLOWEST:g} sqrt(n))")


def measured_ordering():
    """Whether the elimination would order the graph as in every recorded row (METIS_NodeND: ``pymetis``
    installed).  Without it the ordering is the BFS-level dissection, slower on the host and with larger
    separators: on one H200, the strip of 64 rows at 25,600 vertices took 1,487 / 1,570 / 1,211 ms (float64, int32,
    on the device; medians of 6, ``data/results/solver/NVIDIA_H200-2026-11-29-no-metis-strip.csv``) against 498 /
    370 / 139 with METIS (``...-host-depth-check.csv``, single calls), where tuned_frontier's kernels alone took
    940 ms: none of the crossings holds there."""
    from .algorithms.cpu.elimination import default_bisector
    return default_bisector() == "metis"


def denser(g):
    """Whether ``g`` has at least ``DENSER`` edges a vertex: test 1 then applies from ``DENSER_FROM`` vertices, at
    thresholds of their own (:func:`depth_threshold`, :func:`depth_from`)."""
    return g.m >= DENSER * max(g.n, 1)


def depth_from(g):
    """The least n at which test 1 by the depth applies to ``g`` in tuned_frontier's place: ``DENSER_FROM`` for a
    graph of ``DENSER`` edges a vertex or more, else ``DEPTH_FROM``."""
    return DENSER_FROM if denser(g) else DEPTH_FROM


def depth_threshold(g, result="host"):
    """Test 1's depth threshold in tuned_frontier's place for ``result``: ``DEPTH[result]``, times (the hub BFS's
    widest level / sqrt(n)) ** ``NARROW`` where that level holds fewer than sqrt(n) vertices; on a graph of
    ``DENSER`` edges a vertex or more ``DEPTH["host"]`` in every result, whatever its levels.  The
    elimination's work past the n^2 result follows its separators, tuned_frontier's its rounds: on strips (levels
    of 0.26-0.65 sqrt(n)) the elimination won from scores of 16,000-25,000, on grids and kNN graphs (1.0 and more)
    from about 30,000-36,000, on kNN corridors (m / n 7.1, levels of 0.36-1.56 sqrt(n)) from about 36,000 at 12,000
    vertices and not at all below 10,000."""
    if denser(g):
        return DEPTH["host"]
    from .core.structure import hub_depth_once
    narrow = min(hub_depth_once(g).widest / math.sqrt(max(g.n, 1)), 1.0)
    return DEPTH[result] * narrow ** NARROW


def deep_enough(g, result="host"):
    """(whether ``g`` passes test 1's depth threshold (:func:`depth_threshold`) in tuned_frontier's place for
    ``result`` (one of ``RESULTS``), the probe's hop depth, sqrt(n) x it)."""
    from .core.structure import probe_once
    depth = probe_once(g).hop_depth
    score = math.sqrt(g.n) * depth
    return score >= depth_threshold(g, result), depth, score
