"""When ``method="auto"`` runs ``tuned_elimination`` where it would run ``tuned_frontier`` or ``tuned_deep``: a rule
learned from recorded rows (one H200; every time end to end, every result checked), in two tests, each able to say
no.  Its earlier forms and the rows behind each: notes/elimination-choice-history.md; its held-out checks, each under
a plan committed before its data: docs/auto-evidence.md.

1. **Size or depth**, for the result asked for (``RESULTS``: float64, or any type but int32, to the host; int32 to
   the host; left on the device).

   *In tuned_frontier's place.*  On the device first the **size crossing**: the newest
   ``data/results/elimination/*-crossing.csv`` (``scripts/elimination_gpu_measure.py --e2e``: a grid and a kNN
   graph at each size from 16,000 to 65,536 vertices) gives at each size the ratio of the two codes' times, the
   worst graph's, interpolated on log n (:class:`Crossing`); the elimination where it is below 1 (the kNN graph
   from about 26,100 vertices, against tuned_frontier renumbered: ``...-2026-12-01-crossing.csv``; 17,064 against the
   kernel before).  Otherwise, in every result, the **depth**, from ``DEPTH_FROM`` vertices: the
   elimination where the score sqrt(n) x D (D the probe's hop depth, :func:`~.core.structure.probe_once`) is at
   least :func:`depth_threshold`.  Why the depth: the elimination's time follows n (mostly the n^2 result), its
   separators' work beside it, tuned_frontier's grows with its rounds, which follow D.  The thresholds
   (``DEPTH``): 33,000 for float64, and 62,000 where tuned_frontier renumbers the graph (``DEPTH_RENUMBERED``: its
   n sources x m edges reach its ``RENUMBER_WORK``, 2^28; a grid from about 8,200 vertices), set (post hoc,
   2026-12-01) against that kernel from the
   ``rederive`` rows and the ``renumbered`` and ``refit`` checks' (medians of 3 interleaved rounds): on grids and
   strips the elimination lost to the host at every score up to 55,554 (grid of 28,000, 1.12x) and 60,000 as
   narrowed (strip-128 of 25,600, 1.11x), tied at 82,000 as narrowed (strip-64 of 19,200, 1.00x) and won at 132,800
   (strip-64 of 25,600, 0.79x); the grid of 31,862 (a score of 63,367) had it at 0.75x
   (``...-2026-12-01-crossing.csv``, single calls, the same kernel); 33,000 (set against the kernel before: ``...-2026-11-30-touched-host.csv`` and the checks
   then, lost up to 29,964, won from 35,777) handed grids of 20,000-28,000 to the elimination at 1.11-1.20x there.
   Below the renumbering's reach 33,000 stays (``...-2026-11-30-narrow-strips.csv``: thin strips of 5,000-7,000
   vertices, which tuned_frontier does not renumber, had the elimination the faster from scores of 16,000-19,000,
   32,000-42,000 as narrowed).  Held out (``host-62k``, nine grids and strips): within on 9 of 9, but the
   elimination was within the bound on all nine too, and the pairs moved went to the faster code on 2 of 5.  28,000 for int32 (half
   the bytes to copy: ``...-2026-11-29-int32-crossing.csv``, lost up to 27,111, won from 29,673), 25,000 on the
   device (``...-2026-11-29-depth-small.csv`` with the crossing rows up to 24,000: lost up to 23,771, won from
   25,886).  **Narrow levels** (``NARROW``): where the hub BFS's widest level holds w sqrt(n) vertices, w < 1
   (strips), the threshold is multiplied by w ** 0.65 (``...-2026-11-30-narrow-strips.csv``: strips of w
   0.26-0.35 won from scores of 16,000-19,000, of w 0.49-0.65 lost up to 21,800; exponents of 0.5-0.8 fit every
   float64 and device row).  **Graphs of ``DENSER`` edges a vertex or more** (kNN graphs and corridors, m / n 7.1;
   grids and strips have 4, road networks 2.5-3): from ``DENSER_FROM`` vertices only, at a threshold that falls
   with n to the host (:func:`denser_threshold`, the crossing of a fit over their rows: 61,000 at 10,000 vertices,
   38,000 at 30,000 in float64), 33,000 on the device, not narrowed (``...-2026-11-30-corridor-sweep.csv`` and the
   first corridors check: below 10,000 vertices the elimination lost to tuned_frontier on every corridor of those
   rows, 1.14-2.88x to the host, at scores up to 49,342; at 12,000 it lost at 26,181 and was within from 36,150;
   later checks found it the faster on two corridors below 10,000, corridor-96 of 9,500 in int32 and on the device
   and corridor-200 of 6,500 to the host); notes/corridors.md.

   *In tuned_deep's place* (where :mod:`.deep_choice`, applied first, put it): the size crossing alone, from the
   newest ``*-crossing-deep.csv`` (a path, a ring and lollipops, medians of 3 interleaved rounds: on the device
   ``...-2026-11-29-rounds-crossing-deep.csv``, 12,000-32,000 vertices; to the host, float64 and int32,
   ``...-2026-12-01-large-crossing-deep.csv``, 12,000-56,000), **each graph by its m / n**: at each size the ratio
   interpolated on m / n between the graphs measured there (:func:`on_density`), then on log n; past the largest
   size, that size's ratio. To the host the path crosses between 32,000 (1.02) and 40,000 (0.88); its rows stopped at
   32,000 until the path of 65,536 had tuned_deep at 1.36x the elimination (post hoc, 2026-12-01: rows of
   40,000-56,000 added). A deep graph's elimination time follows n (its separators are a vertex or two), tuned_deep's
   the edges each source relaxes beside its rounds, so the lollipop (m / n 2.3-3.3) crosses before the ring (2) and
   the path (1). Below 12,000 vertices these rows learn nothing and tuned_deep stays.

2. **Small separators, from the BFS auto makes.**  The elimination's work is set by its separators: a grid, a road
   network or a geometric graph has BFS levels of about sqrt(n) vertices; a random graph, a small world or a graph
   with a hub has levels holding a large part of n (at 16,384: 38-128 sqrt(n)), where nested dissection finds no
   small separator.  The test: the hub BFS (:func:`~.core.structure.hub_depth_once`) reaches at least ``REACH`` of
   the vertices and its widest level holds at most ``WIDEST`` sqrt(n) (grids 1.0, kNN graphs 1.8-3.1, the Helsinki
   networks 0.5-1.3, Bremen, an extract in pieces reaching 82 %, 2.1), and the probe's hop depth is at least
   ``SHALLOWEST`` sqrt(n) (where the elimination won, D was 0.98 sqrt(n) or more; 3-D grids, 0.51-0.57, lost:
   371.6 against 117.1 ms on the device at 16,384, ``solver/...-2026-11-29-device-depth-check.csv``).

3. **tuned_frontier's work**, where tests 1 and 2 leave tuned_frontier in place, and alone in tuned_sparse's
   place (role ``SWEEPS``: the cost model may rank its per-source sweeps above tuned_frontier's rounds; both grow
   with the relaxations counted), from ``WORK_FROM`` vertices, the hub BFS reaching ``REACH`` of the vertices with no
   level wider than ``WORK_WIDEST`` sqrt(n) (no hop-depth test: the Delaunay graphs' long edges make them shallow,
   0.5 sqrt(n), and leave their separators small).  tuned_frontier's algorithm is counted on the CPU
   (:mod:`.core.frontier_work`, 4 sources, milliseconds to tens of them): the elimination where a source relaxes
   each edge ``WORK`` times or more counted in rounds, or ``IN_ROUND_WORK`` times or more counted *in-round* (each
   frontier vertex relaxing from its distance when its turn comes: kNN corridors, whose weighted paths follow their
   hops, count 1.6-4.4 so; king grids 6-17, Delaunay graphs 5.3-16.5), in int32 and on the device (``IN_ROUND_RESULTS``)
   from ``IN_ROUND_FROM`` vertices, and in every result from ``WORK_FROM`` where the widest level holds ``WIDE``
   sqrt(n) or more (the Delaunay graphs, 4.2-4.7; king grids 1.0-2.0).

   *How the counts were set.*  First (post hoc, 2026-11-30, after the ``grid8-delaunay`` check, against
   tuned_frontier before its renumbering) at 15 counted in rounds, 10 on the device, the in-round count from
   10,000 vertices in int32 and on the device; notes/elimination-choice-history.md has those rows.  tuned_frontier
   renumbered ran 1.1-2.1x faster on these classes, and the check ``renumbered`` found two graphs sent to the
   elimination past the bound.  **Set again** (post hoc, 2026-12-01) from the ``rederive`` rows
   (``elimination/...-2026-12-01-rederive-{1,2}.csv``: 31 graphs of 6,000-30,000 vertices, grids, strips, kNN
   graphs, corridors, king grids, Delaunay graphs, medians of 3 interleaved rounds, every result) with that
   check's 7 more (114 (graph, result) pairs): under the older counts 6 were past the bound (king grids of
   12,000-14,000 sent by the in-round count at 1.30-1.84x: grid8 of 12,000 in int32 and on the device, grid8-100 of
   12,000 on the device, grid8-60 of 14,000 in int32; corridor-10 of 12,500 by the device's 10 at 1.35x; grid8-60 of
   14,000 to the host by 15 at 1.38x); with one count of 17 and the in-round count from 16,000, none of the 111
   pairs timed, while the Delaunay graph of 16,000 went to tuned_sparse in every result (the cost model's pick, the
   rule not asked; tuned_sparse not timed there: the rows foretold the miss below).  Held out (check ``refit``,
   plan 40b8b2d, 9 graphs): within on 24 of 27 pairs, past on the Delaunay graph of 14,000 in every result, where
   the cost model ranked tuned_sparse first and the rule was not asked (1.33-1.89x the elimination).  After it,
   post hoc: test 3 in tuned_sparse's place and the wide levels' in-round count in every result from 10,000;
   held out (check ``wide-levels``, plan 80d3eb7, Delaunay graphs of 10,500-15,000, a king grid, a 3-D grid):
   within on 15 of 15.  docs/auto-evidence.md has every check.

Only for all pairs (with ``indices`` tuned_frontier and tuned_deep compute just those rows, the elimination all of
them), and only where the elimination would order the graph as in its rows (:func:`measured_ordering`: METIS)."""
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
SWEEPS = "auto_sweeps"          # and the code of per-source sweeps the cost model may rank above tuned_frontier:
                                # in its place test 3 alone (its sweeps, like tuned_frontier's rounds, grow with the
                                # relaxations counted)
TAGS = {FROM: "crossing", DEEP: "crossing-deep"}           # the replaced code's role -> its crossing files' tag
RESULTS = ("host", "int32", "device")    # the results choose() tells apart (choice.result_kind): float64 (or any
                                         # type but int32) or int32 to the host, or left on the device
WIDEST = 4.0          # the hub BFS's widest level, at most this many sqrt(n)
REACH = 0.5           # ... and that BFS reaching at least this fraction of the vertices
SHALLOWEST = 0.75     # ... and the probe's hop depth at least this many sqrt(n)
HOST_RULE_SINCE = "2026-12-01T09:28:39+00:00"   # when test 1 to the host took its present form (UTC): the depth's
                                                # from 2026-11-29T14:30:12; float64's threshold 28,000 from
                                                # 2026-11-30T01:06:36, 33,000 from 2026-11-30T03:38:49, 62,000
                                                # where tuned_frontier renumbers from this; a check measured
                                                # before it tested another rule there
DEPTH = {"host": 33_000, "int32": 28_000, "device": 25_000}   # test 1 against tuned_frontier by the depth:
                                                 # sqrt(n) x the probe's hop depth at least this, by the result
DEPTH_RENUMBERED = {"host": 62_000}   # ... but this where tuned_frontier renumbers the graph (its n sources x m
                                     # edges at least its RENUMBER_WORK): set against that kernel; below it the
                                     # kernel is the one DEPTH was set against, its bitmaps transposed
NARROW = 0.65        # ... times (the hub BFS's widest level / sqrt(n)) ** NARROW where that level is narrower than
                     # sqrt(n): a narrow separator (a strip) crosses at a smaller depth
DEPTH_FROM = 4_096   # test 1 by the depth from this many vertices, in every result (to the host below the
                     # crossing rows' smallest size too; on the device below the size crossing)
DENSER = 5.0         # a graph of at least this many edges a vertex (m / n: kNN graphs and corridors 7.1, grids
                     # and strips 4, road networks 2.5-3) takes test 1 by the depth ...
DENSER_FROM = 10_000  # ... from this many vertices on, at a threshold that falls with n (DENSER_AT), not
                      # lowered by NARROW
DENSER_N = 30_000     # the denser graphs' threshold for a result: DENSER_AT[result] x (DENSER_N / n) **
DENSER_AT = {"host": 38_000, "int32": 27_000, "device": 33_000}   # DENSER_SLOPE[result]: to the host the
DENSER_SLOPE = {"host": 0.43, "int32": 0.60, "device": 0.0}          # crossing score of the fit of
                                                                     # scripts/denser_crossing_fit.py over the rows
                                                                     # before the denser-by-n check; on the device
                                                                     # 33,000 at every n (float64's threshold
                                                                     # then; the fit's 1.32 missed)
WORK = 17.0          # test 3: tuned_frontier's counted relaxations per edge and source, at least this, in every
                     # result (set again on 2026-12-01 against tuned_frontier renumbered: rederive rows) ...
WORK_FROM = 10_000   # ... from this many vertices (below it corridors of 3,500-9,000 counted at 17-20 ran
                     # tuned_frontier 1.29-1.86x faster than the elimination on the device)
IN_ROUND_WORK = 5.0  # test 3 also where the in-round count is at least this, for IN_ROUND_RESULTS ...
IN_ROUND_FROM = 16_000   # ... from this many vertices (king grids of 12,000-14,000 counted 6.9-9.4 in-round had the
                         # elimination at 1.16-1.84x tuned_frontier renumbered in int32 or on the device)
IN_ROUND_RESULTS = ("int32", "device")   # not float64 to the host: there its rows had the elimination past the bound
                                         # on two king grids (1.30x, 1.33x) where tuned_frontier missed on one
WIDE = 3.0           # ... but in every result and from WORK_FROM vertices where the hub BFS's widest level holds at
                     # least this many sqrt(n) (shallow graphs of small separators: the Delaunay graphs, 4.2-4.7;
                     # king grids 1.0-2.0, kNN graphs 1.9-2.8; set from that one generator: South Seattle's
                     # car network, 3.7, passes it too, and the 3-D grids, 3.8-4.0, on which the count says no)
WORK_WIDEST = 8.0    # ... and the hub BFS's widest level at most this many sqrt(n) (random graphs and graphs with a
                     # hub: 25-128; the count itself is 2-4 there, and is not made)
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
    not: ``algo`` is none of tuned_frontier, tuned_deep (the roles of ``TAGS``) and tuned_sparse (role ``SWEEPS``),
    ``result`` is not one of ``RESULTS`` (None: rows, not all pairs), the elimination does not fit (``fits(code)``;
    None: it fits), it would not order the graph as in its rows (:func:`measured_ordering`), or the tests say no:
    with ``algo``'s crossing rows, size or depth and the separators (in tuned_frontier's place test 1 is the depth's
    from ``DEPTH_FROM`` vertices (:func:`deep_enough`), on the device the size crossing's first), then in
    tuned_frontier's place test 3, its work (:func:`by_work`); in tuned_sparse's place test 3 alone.  With an int32
    result on the host the crossings' int32 rows where there are any, else their float64 rows."""
    against = next((role for role in TAGS if registry.by_role(role) is algo), None)
    sweeps = algo is registry.by_role(SWEEPS)
    if (against is None and not sweeps) or result not in RESULTS or (fits is not None and not fits(target())):
        return None
    if not measured_ordering():
        return None
    if sweeps:
        return by_work(g, algo, result)
    found = _by_rows(g, algo, against, result, where)
    if found is None and against == FROM:
        found = by_work(g, algo, result)
    return found


def _by_rows(g, algo, against, result, where):
    """Tests 1 and 2 (:func:`instead`)."""
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
        by_n = ", a threshold by n" if DENSER_SLOPE[result] else ""
        base = depth_base(g, result)
        renumbered = f" where {frm} renumbers the graph" if base != DEPTH[result] else ""
        scaled = (f" (m / n = {g.m / g.n:.2f} >= {DENSER:g}: from {DENSER_FROM:,} vertices{by_n}, levels of any width)"
                  if denser(g) else f" ({base:,}{renumbered} x (widest level / sqrt(n)) ** {NARROW:g}: narrow levels)"
                  if bar < base else f" ({base:,}{renumbered})" if renumbered else "")
        size = (f"sqrt(n) x the probe's hop depth {depth} = {score:,.0f} >= {bar:,.0f}{scaled} (where the recorded "
                f"rows of the grids, the kNN graphs, the strips and the road networks put it past {frm} {side})")
    else:
        per = f" and m / n = {g.m / max(g.n, 1):.2f} (interpolated between the graphs measured)" if c.per_graph else ""
        kind = " (their float64 rows: none in int32)" if read != result else ""
        size = f"at n = {g.n}{per} the recorded rows ({c.source}{kind}) put its time at {r:.2f}x {frm}'s"
    return target(), (f"{to} instead of {frm} with the result on the {result}: {size}, and the graph's separators "
                      f"are small (the hub BFS's widest level {s.widest} <= {WIDEST:g} sqrt(n), {s.mean_reach:.0%} "
                      f"reached; the probe's hop depth >= {SHALLOWEST:g} sqrt(n))")


def by_work(g, algo, result):
    """Test 3 in tuned_frontier's place (or tuned_sparse's, role ``SWEEPS``): ``(tuned_elimination, why)`` where
    ``g`` has ``WORK_FROM`` vertices or more, the hub BFS reaches at least ``REACH`` of them with no level wider than
    ``WORK_WIDEST`` sqrt(n), and tuned_frontier's algorithm, counted on the CPU
    (:func:`~.core.frontier_work.relaxations_per_edge`), relaxes each edge at least ``IN_ROUND_WORK`` times a source
    counted in-round (for a result of ``IN_ROUND_RESULTS`` from ``IN_ROUND_FROM`` vertices; in every result where
    the widest level holds ``WIDE`` sqrt(n) or more), or at least ``WORK`` times counted in rounds; else None."""
    if g.n < WORK_FROM:
        return None
    from .core.frontier_work import SOURCES, relaxations_per_edge_once
    from .core.structure import hub_depth_once
    s = hub_depth_once(g)
    if s.mean_reach < REACH or s.widest > WORK_WIDEST * math.sqrt(g.n):
        return None
    counted = registry.by_role(FROM).name
    wide = s.widest >= WIDE * math.sqrt(g.n)
    in_round = (relaxations_per_edge_once(g, enough=IN_ROUND_WORK, in_round=True)
                if wide or (result in IN_ROUND_RESULTS and g.n >= IN_ROUND_FROM) else 0.0)
    if in_round >= IN_ROUND_WORK:
        since = (f"from {WORK_FROM:,} vertices in every result where the widest level holds >= {WIDE:g} sqrt(n)"
                 if wide else f"from {IN_ROUND_FROM:,} vertices")
        counts = (f"each vertex relaxing from its distance when its turn in a round comes, still relaxes each edge >= "
                  f"{IN_ROUND_WORK:g} times a source ({in_round:.1f} when the count stopped: its weighted paths do not "
                  f"follow its hops; {since})")
    else:
        work = relaxations_per_edge_once(g, enough=WORK)
        if work < WORK:
            return None
        counts = (f"relaxes each edge >= {WORK:g} times a source ({work:.1f} when the count stopped; from "
                  f"{WORK_FROM:,} vertices: its time grows with them)")
    return target(), (f"{target().name} instead of {algo.name} with the result on the {result}: {counted}'s "
                      f"algorithm, counted on the CPU from {SOURCES} sources, {counts}, and no level of the hub BFS "
                      f"holds more than {WORK_WIDEST:g} sqrt(n) (its widest {s.widest}, {s.mean_reach:.0%} reached)")


def measured_ordering():
    """Whether the elimination would order the graph as in every recorded row (METIS_NodeND: ``pymetis``
    installed).  Without it the ordering is the BFS-level dissection, slower on the host and with larger
    separators: on one H200, the strip of 64 rows at 25,600 vertices took 1,487 / 1,570 / 1,211 ms (float64, int32,
    on the device; medians of 6, ``data/results/solver/NVIDIA_H200-2026-11-29-no-metis-strip.csv``) against 498 /
    370 / 139 with METIS (``...-host-depth-check.csv``, single calls), where tuned_frontier's kernels alone took
    940 ms: none of the crossings holds there."""
    from .algorithms.cpu.elimination import default_bisector
    return default_bisector() == "metis"


def unmeasured_ordering():
    """Why a measurement of auto or the elimination here would not be comparable with the recorded rows (one line),
    or None: without pymetis the elimination orders by BFS levels and auto never runs it (:func:`measured_ordering`).
    A measuring command refuses on it before it starts: such rows are of a code no rule speaks for."""
    if measured_ordering():
        return None
    return ("pymetis is not installed here: the elimination would order by BFS levels and auto would never pick it, "
            "unlike every recorded row (pip install pymetis; on a node without network, the wheel bundle: "
            "docs/method.md)")


def refuse_unmeasured_ordering(parser, codes=None):
    """``parser.error`` with :func:`unmeasured_ordering`'s line where pymetis is missing, for a command whose
    measurement runs auto or the elimination (``codes``: the codes it runs, ``NAME`` or ``NAME/VARIANT``; None:
    it runs them)."""
    if codes is not None and not {"auto", target().name} & {str(c).split("/")[0] for c in codes}:
        return
    why = unmeasured_ordering()
    if why:
        parser.error(why)


def denser(g):
    """Whether ``g`` has at least ``DENSER`` edges a vertex: test 1 then applies from ``DENSER_FROM`` vertices, at
    thresholds of their own (:func:`depth_threshold`, :func:`depth_from`)."""
    return g.m >= DENSER * max(g.n, 1)


def depth_from(g):
    """The least n at which test 1 by the depth applies to ``g`` in tuned_frontier's place: ``DENSER_FROM`` for a
    graph of ``DENSER`` edges a vertex or more, else ``DEPTH_FROM``."""
    return DENSER_FROM if denser(g) else DEPTH_FROM


def depth_threshold(g, result="host"):
    """Test 1's depth threshold in tuned_frontier's place for ``result``: :func:`depth_base`, times (the hub BFS's
    widest level / sqrt(n)) ** ``NARROW`` where that level holds fewer than sqrt(n) vertices; on a graph of
    ``DENSER`` edges a vertex or more :func:`denser_threshold`, whatever its levels.  The
    elimination's work past the n^2 result follows its separators, tuned_frontier's its rounds: on strips (levels
    of 0.26-0.65 sqrt(n)) the elimination won from scores of 16,000-25,000, on grids and kNN graphs (1.0 and more)
    from about 30,000-36,000, on kNN corridors (m / n 7.1, levels of 0.36-1.56 sqrt(n)) from about 36,000 at 12,000
    vertices and, in the rows the rule was set from, on none below 10,000."""
    if denser(g):
        return denser_threshold(g.n, result)
    from .core.structure import hub_depth_once
    narrow = min(hub_depth_once(g).widest / math.sqrt(max(g.n, 1)), 1.0)
    return depth_base(g, result) * narrow ** NARROW


def depth_base(g, result="host"):
    """Test 1's depth threshold for ``result`` before narrowing: ``DEPTH_RENUMBERED[result]`` where there is one and
    tuned_frontier would renumber ``g`` for its work (``frontier.worth_renumbering``: its n sources x m edges at
    least the launcher's ``RENUMBER_WORK``), else ``DEPTH[result]``."""
    from .algorithms.gpu.tuned.frontier import worth_renumbering
    if result in DEPTH_RENUMBERED and worth_renumbering(g.n, g.m):
        return DEPTH_RENUMBERED[result]
    return DEPTH[result]


def denser_threshold(n, result="host"):
    """Test 1's depth threshold on a graph of ``DENSER`` edges a vertex or more and ``n`` vertices, for ``result``:
    ``DENSER_AT[result]`` x (``DENSER_N`` / n) ** ``DENSER_SLOPE[result]``.  To the host, in float64 and in int32,
    the score at which a least-squares fit of the elimination's time over tuned_frontier's (medians of rotated rounds
    on kNN corridors and square kNN graphs, one H200: log ratio = a + b log n + c log(D / sqrt(n)),
    :mod:`scripts.denser_crossing_fit` over the rows recorded before the ``denser-by-n`` check, 10,000-36,000
    vertices in float64, 10,000-29,000 in int32) puts the two codes level: 61,000 at 10,000 vertices to 38,000 at
    30,000 in float64, 52,000 to 27,000 in int32.  Why it falls with n: the elimination's time follows n (its n^2
    result, its separators beside it), tuned_frontier's n m times its rounds, which follow D; at a larger n a smaller
    D / sqrt(n) is enough.  On the device 33,000 at every n: the same fit (residual 0.22, against 0.12-0.14 to the
    host) put 42,500-54,000 at 10,000-12,000 vertices, and its held-out check (``denser-by-n``) found the
    elimination 0.64x tuned_frontier there on corridor-22 of 11,500 at 40,858; 33,000 held on the device in the
    ``denser`` check and on every corridor row since.  From about 26,000 vertices (17,000 against tuned_frontier's
    kernel before its renumbering) the size crossing takes such graphs on the device first."""
    return DENSER_AT[result] * (DENSER_N / max(n, 1)) ** DENSER_SLOPE[result]


def deep_enough(g, result="host"):
    """(whether ``g`` passes test 1's depth threshold (:func:`depth_threshold`) in tuned_frontier's place for
    ``result`` (one of ``RESULTS``), the probe's hop depth, sqrt(n) x it)."""
    from .core.structure import probe_once
    depth = probe_once(g).hop_depth
    score = math.sqrt(g.n) * depth
    return score >= depth_threshold(g, result), depth, score
