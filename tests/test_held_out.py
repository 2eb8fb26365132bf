"""The held-out checks of auto's rules (``data/results/solver/*-plan.yaml``, each committed before its data, and the
rows measured under it): every run followed its plan, and every graph, mode and subject is within the plan's bound
(1.25x + 2 ms of the fastest verified GPU code) but the misses listed here, each a strict xfail naming what was
measured. The criterion's code (``study/seeds/tuned/held_out.py``) is tested on rows made here first."""
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from apsp_kernels.study.seeds.tuned import held_out as H
from apsp_kernels.structure_suite import within_bound
from apsp_kernels.study.seeds.tuned.suite import verified

# Per plan (its tag), the (graph, n, subject, mode) past the bound, as measured.
MISSES = {
    # The first form of the few-vertices rule (levels of <= 64 too): where it did not fire, the components of 256
    # (levels of 99-110).  At 4,096 auto's own calls (tuned_frontier) took 19.8 and 12.7 ms against 13.3
    # (tuned_frontier's own named call) and 7.6 (tuned_deep's), float64 and int32; at 16,384 tuned_sparse's rows
    # took 91.8 and 29.5 ms (int32, device) against tuned_deep's 61.0 and 4.9, auto's own call on the device 16.1.
    "few-vertices": {("components-256", 4096, H.CALL, "e2e_ms"), ("components-256", 4096, H.CALL, "e2e_int32_ms"),
                     ("components-256", 16384, H.CALL, "e2e_device_ms"),
                     ("components-256", 16384, H.PICK, "e2e_int32_ms"), ("components-256", 16384, H.PICK, "e2e_device_ms")},
    # The second forms (few vertices: the hub BFS and the probe <= 1/16; separators: REACH 0.5).  The picks' own
    # rows all within; auto's own calls past it on two graphs of 4,096: the components of 512 (the rule did not
    # fire at 12 % reach; tuned_frontier 15.4 / 12.4 / 15.9 ms float64, int32, first call, against tuned_deep's
    # 10.5 / 6.9 / 10.5, tuned_frontier's named rows 14.4 / 10.5), and the complete digraphs of 256 (it fired;
    # tuned_deep 18.3 ms on the device and 33.0 first call against tuned_fw's 12.0 and 24.1, its named rows 16.0
    # and 26.0).
    "rules-check": {("components-512", 4096, H.CALL, "e2e_ms"), ("components-512", 4096, H.CALL, "e2e_int32_ms"),
                    ("components-512", 4096, H.CALL, "e2e_first_ms"),
                    ("cliques-256", 4096, H.CALL, "e2e_device_ms"), ("cliques-256", 4096, H.CALL, "e2e_first_ms")},
    # The third form (reach <= 1/4): within at 4,096; at 16,384 on the device the components of 2,048 and 3,584
    # (reach 12 % and 21 %) ran faster with tuned_frontier, 9.2 and 15.7 ms, than with tuned_deep, auto's pick:
    # its rows 15.4 and 31.1, auto's calls 16.2 and 30.9 (to the host tuned_deep was the faster or within).
    "few-third": {(g, 16384, who, "e2e_device_ms") for g in ("components-2048", "components-3584")
                  for who in (H.CALL, H.PICK)},
    # The elimination's host test by the depth: auto's picks as planned on 6 of 6; its own call on the device on the
    # strip of 64 rows (25,600) took 178.0 ms against the elimination's named 139.4 (the same code: the rule the
    # check is of decides the host result only; not measured again with the same set-up).
    "host-depth": {("strip-64", 25600, H.CALL, "e2e_device_ms")},
    # Two real road networks of Seattle: picks as planned on 4 of 4 and the picks' rows within; auto's own call on
    # the device on South Seattle took 257.6 ms against the elimination's named 196.8 (the same code; bound 248.0).
    "seattle-roads": {("south-seattle-car", 29763, H.CALL, "e2e_device_ms")},
    # The deep crossing per graph (m / n), on lollipops of cliques of 64 and 256: picks as planned 8 of 8; auto's
    # median call past the bound where the chord on m / n kept tuned_deep and the elimination was the faster:
    # lollipop-64 at 16,384 on the device (tuned_deep 59.5 ms against 44.3; planned at 1.13x, measured 0.76x), and to
    # the host in int32 at the two near 1 (lollipop-256 at 12,288: 91.2 against 70.3; lollipop-64 at 20,480: 183.2
    # against 140.5, its first run's medians 194.3 against 154.0, within by 0.2 ms: the rows are the second run's).
    "lollipop-density": {("lollipop-64", 16384, H.MEDIAN, "e2e_device_ms"),
                         ("lollipop-256", 12288, H.MEDIAN, "e2e_int32_ms"),
                         ("lollipop-64", 20480, H.MEDIAN, "e2e_int32_ms")},
    # The depth test from 4,096 vertices: picks as planned 24 of 24; past the bound on the grid of 15,000 to the host in
    # float64 (score 29,639, just past 28,000: auto's elimination 177.5 ms against tuned_frontier's 133.2; the named
    # elimination 172.4).  float64's host threshold became 33,000 after it (post hoc).
    "depth-from": {("grid", 15000, H.MEDIAN, "e2e_ms")},
    # float64's host threshold 33,000 and the deep rule from 0.4 n: picks as planned 17 of 17; the host threshold's
    # five graphs within; past the bound on the strip of 2 rows at 4,096 (depth n/2, the deep rule's) in every
    # result: auto's tuned_deep 91.7 / 89.4 / 85.1 ms against the elimination's 21.4 / 16.4 / 10.7.  The deep rule
    # asks for a thin graph (deep_choice.BRANCHING) since (post hoc).
    "host-33k": {("strip-2", 4096, H.MEDIAN, m) for m in ("e2e_ms", "e2e_int32_ms", "e2e_device_ms")},
    # The structure suite under the rules of b437014 (not held out): picks as planned 84 of 84, the picks' own rows
    # within on all 28 graphs; auto's own call past the bound on two: Barabasi-Albert of 4,096 on the device
    # (tuned_frontier 14.5 ms against tuned_fw's 9.3; in 8 later rounds 13.9 against 9.4, past by 0.17 ms: the
    # cost model's known miss there) and Helsinki's driving network on a first call (5.3 ms against tuned_deep's
    # warm 2.5: bound 5.1; tuned_deep's row is of the fifth command, the plan's deviation).
    "structure": {("ba", 4096, H.CALL, "e2e_device_ms"), ("helsinki-drive", 1437, H.CALL, "e2e_first_ms")},
    # Corridors (kNN graphs in long rectangles), no rule changed: picks as planned 24 of 24; auto's median within on
    # 4 of 8 graphs.  Past it (medians, ms): where the depth test handed the corridor to the elimination,
    # corridor-24 of 7,000 in int32 and on the device (63.6 and 52.6 against tuned_fw's 40.6 and 30.6), corridor-48 of
    # 7,000 in all three (67.7 / 61.8 / 42.2 against tuned_frontier's 46.5 and tuned_fw's 41.1 and 30.7) and
    # corridor-128 of 4,500 in all three (40.3 / 37.2 / 28.1 against tuned_fw's 20.4 / 18.2 / 11.6); and where the
    # cost model kept tuned_frontier, corridor-64 of 3,500 in int32 and on the device (16.1 and 13.6 against tuned_fw's
    # 11.0 and 7.6), whose time the model scales by n m alone (these corridors are 300-560 hops deep).
    "corridors": {("corridor-24", 7000, H.MEDIAN, "e2e_int32_ms"), ("corridor-24", 7000, H.MEDIAN, "e2e_device_ms"),
                  *{(g, n, H.MEDIAN, m) for g, n in (("corridor-48", 7000), ("corridor-128", 4500))
                    for m in ("e2e_ms", "e2e_int32_ms", "e2e_device_ms")},
                  ("corridor-64", 3500, H.MEDIAN, "e2e_int32_ms"), ("corridor-64", 3500, H.MEDIAN, "e2e_device_ms")},
    # The denser graphs' depth test (m / n >= 5: from 10,000 vertices, no narrowing, the device at 33,000) on six
    # corridors of 9,500-16,000 and the square kNN graph of 28,000: picks as planned 21 of 21; auto's median within on
    # 5 of 7 graphs and on every pair the rule moved (tuned_frontier on the device on corridor-12, -10 and -6, where
    # the elimination took 1.27-1.70x; tuned_fw on corridor-96 of 9,500).  Past it in int32, where the denser graphs
    # keep the kNN graphs' 28,000: corridor-12 of 10,500 (score 28,179: auto's median 100.9 ms against
    # tuned_frontier's 54.8) and corridor-10 of 13,000 (31,127: 116.2 against 90.8, bound 115.4).
    "denser": {("corridor-12", 10500, H.MEDIAN, "e2e_int32_ms"), ("corridor-10", 13000, H.MEDIAN, "e2e_int32_ms")},
    # The denser graphs' int32 threshold at 33,000 (post hoc after "denser"): picks as planned 15 of 15; within on
    # every pair it moved (tuned_frontier in int32 on corridor-18 of 10,000, corridor-11 of 12,500, corridor-7 of
    # 15,000 and the kNN graph of 29,000: 1.01-1.09x) and on 4 of 5 graphs.  Past it on corridor-9 of 14,000 (score
    # 33,248, just above the line, the elimination in every result, planned so) to the host and in int32 (155.8 and
    # 121.5 ms against tuned_frontier's 105.1 and 88.2): a corridor's crossing lies higher than 33,000 at 14,000.
    "denser-int32": {("corridor-9", 14000, H.MEDIAN, "e2e_ms"), ("corridor-9", 14000, H.MEDIAN, "e2e_int32_ms")},
    # The structure suite again under the rules of 0de4a4e (not held out; its own tag, rules-structure): picks as
    # planned 84 of 84, the picks' own rows within on all 28 graphs, auto's own calls on 27; past it on the path of
    # 16,384 on a first call (216.9 ms against tuned_deep's warm 146.6, auto running tuned_deep; one call: in 3 rounds
    # afterwards, post hoc, its first call 133.7 ms, its own warm 131.7; tuned_deep not timed there).
    "rules-structure": {("path", 16384, H.CALL, "e2e_first_ms")},
    # The denser graphs' threshold by n (the fit's crossing in every result): picks as planned 24 of 24; auto's
    # median within on 7 of 8 graphs, 23 of 24 pairs; 7 of the 9 moved pairs went to the faster code.  Past it on
    # corridor-22 of 11,500 on the device (score 40,858 under the fit's 45,028 there: auto's tuned_frontier 98.2 ms
    # against the elimination's 63.0); the device has kept 33,000 since (post hoc: the denser check's form there).
    "denser-by-n": {("corridor-22", 11500, H.MEDIAN, "e2e_device_ms")},
    # Two generators none of the rows had, no rule changed: picks as planned 24 of 24; auto's median within on 10 of
    # 24 pairs, on none of the 8 graphs; the elimination the faster on 23 of 24 pairs.  The Delaunay graphs fail the
    # separator test (widest level 4.5-4.6 sqrt(n)): tuned_frontier 649-653 ms at 16,384 and 3,925-3,935 at 30,000 in
    # every result against the elimination's 111-198 and 245-504.  The king grids (grid8, m / n 7.9): in int32 and on
    # the device below the lines (16,384, grid8-64 of 16,000; grid8-40 of 12,000 on the device, 99.6 against 71.7) and
    # to the host at 10,500-30,000 (grid8-20 237.9 against 99.9; grid8 of 30,000 754.9 against 461.8), where the
    # kNN graphs' thresholds keep tuned_frontier: its time there follows its relaxations, which the score does not see.
    "grid8-delaunay": {*{("delaunay", n, H.MEDIAN, m) for n in (16384, 30000)
                         for m in ("e2e_ms", "e2e_int32_ms", "e2e_device_ms")},
                       ("grid8", 16384, H.MEDIAN, "e2e_int32_ms"), ("grid8", 16384, H.MEDIAN, "e2e_device_ms"),
                       ("grid8-40", 12000, H.MEDIAN, "e2e_device_ms"),
                       ("grid8-64", 16000, H.MEDIAN, "e2e_int32_ms"), ("grid8-64", 16000, H.MEDIAN, "e2e_device_ms"),
                       ("grid8-20", 10500, H.MEDIAN, "e2e_ms"), ("grid8-100", 24000, H.MEDIAN, "e2e_ms"),
                       ("grid8", 30000, H.MEDIAN, "e2e_ms")},
    # tuned_frontier's work (test 3, post hoc after grid8-delaunay): picks as planned 30 of 30; auto's median within on
    # 29 of 30 pairs, on 9 of 10 graphs.  Past it below the test's 10,000 vertices: the Delaunay graph of 8,000 on the
    # device (counted at 22.5; auto's tuned_frontier 89.0 ms against the elimination's 64.0).
    "frontier-work": {("delaunay", 8000, H.MEDIAN, "e2e_device_ms")},
    # Two more Delaunay sizes where the cost model runs tuned_sparse (the third, 26,000, not measured: the plan's
    # deviation): picks as planned 6 of 6; past the bound in int32 at 15,000 (auto's tuned_sparse 194.6 ms against the
    # elimination's 151.8; bound 191.8).
    "delaunay-sizes": {("delaunay", 15000, H.MEDIAN, "e2e_int32_ms")},
    # Test 3 on the device at a count of 10 (post hoc, after METIS's regions were ordered in threads): picks as planned
    # 33 of 33; auto's median within on 31 of 33.  Of the six device pairs the lowered count moved, the king grids'
    # five within (the elimination 0.62-0.96x tuned_frontier); corridor-12 of 12,000 (11.7) past, 71.66 ms against
    # tuned_frontier's 54.29.  And in int32, where the count stays 15, grid8-70 of 15,000 (11.8): auto's
    # tuned_frontier 168.85 against the elimination's 132.34.
    "device-work": {("corridor-12", 12000, H.MEDIAN, "e2e_device_ms"), ("grid8-70", 15000, H.MEDIAN, "e2e_int32_ms")},
    # The rules unchanged, the elimination's METIS regions on worker processes: picks as planned 33 of 33; auto's median
    # within on 30 of 33; on all eight device pairs the count of 10 moved (counted 10.9-14.4, five kNN corridors among
    # them) the elimination was the faster (0.43-0.93x tuned_frontier).  Past: the king-grid strips to the host, where
    # the count stays 15, auto's tuned_frontier against the elimination: grid8-50 of 12,800 (13.4) 163.01 / 170.02 ms
    # against 92.30 / 114.28 (int32 / float64), grid8-80 of 14,800 (13.8) in int32 159.31 against 112.66.
    "processes": {("grid8-50", 12800, H.MEDIAN, "e2e_int32_ms"), ("grid8-50", 12800, H.MEDIAN, "e2e_ms"),
                  ("grid8-80", 14800, H.MEDIAN, "e2e_int32_ms")},
    # Test 3's in-round count (post hoc, int32 and device): picks as planned 18 of 18; the five king grids within on
    # 15 of 15 (the five int32 pairs it moved: the elimination 0.67-0.87x tuned_frontier, 1.00x on grid8 of 12,000).
    # Past: the square king grid of 10,500, where the cost model runs tuned_fw (its prediction 88.6 ms against
    # tuned_frontier's 90.4) and test 3 does not act: auto 126.86 / 109.68 / 90.50 ms against tuned_frontier's
    # 76.79 (float64) and 72.32 (int32) and the elimination's 49.70 (device).
    "in-round": {("grid8", 10500, H.MEDIAN, mode) for mode in ("e2e_ms", "e2e_int32_ms", "e2e_device_ms")},
    # The rules unchanged after tuned_frontier's renumbering and transposed bitmaps (0.47-0.93x its kernel with both),
    # the device's size crossing measured again (26,000): picks as planned 24 of 24; auto's median within on 21 of 24.
    # Past, where test 3's counts (set against the kernel before) sent the graph to the elimination: the king grid
    # grid8-60 of 14,000 to the host (round count 15.5; float64 162.7 ms against tuned_frontier's 116.8, int32 118.7
    # against 91.8) and corridor-10 of 12,500 on the device (round count 11.0: 71.2 against 51.6).
    # The suite's grid, kNN graph, 3-D grid and hub graph of 16,384 after the same change (not held out; rows renamed
    # structure-frontier, the plan's deviation): picks as planned 12 of 12, auto's warm calls within in every mode;
    # its first calls on the three renumbered graphs past it (239.3 / 251.7 / 252.9 ms against 126.5 / 122.2 / 130.7,
    # the renumbering's reach test calling BLAS then; tests/test_auto_structure.py says more).
    "frontier-structure": {(g, 16384, H.CALL, "e2e_first_ms") for g in ("grid", "knn", "grid3d")},
    "renumbered": {("grid8-60", 14000, H.MEDIAN, "e2e_ms"), ("grid8-60", 14000, H.MEDIAN, "e2e_int32_ms"),
                   ("corridor-10", 12500, H.MEDIAN, "e2e_device_ms")},
    # Test 3 re-fitted against tuned_frontier renumbered (post hoc, from the rederive rows: one round count of 17, the
    # in-round count from 16,000 vertices): picks as planned 27 of 27; auto's median within on 24 of 27.  Past: the
    # Delaunay graph of 14,000, where the cost model ranks tuned_sparse first and the rule was not asked: auto
    # 192.3 / 160.0 / 123.9 ms against the elimination's 144.9 / 99.3 / 65.5 (float64, int32, device).  Test 3 runs
    # in tuned_sparse's place since, and the in-round count in every result on levels of 3 sqrt(n) or more (post hoc;
    # held out in wide-levels: 15 of 15 within).
    "refit": {("delaunay", 14000, H.MEDIAN, m) for m in ("e2e_ms", "e2e_int32_ms", "e2e_device_ms")},
    # The whole structure suite under the re-fitted test 3 and tuned_frontier renumbered (not held out; its own tag,
    # refit-structure): picks as planned 84 of 84; auto's calls and the picks' rows within on 194 of 196.  Past on the
    # grid of 4,096 on the device, auto and its pick tuned_frontier (11.06 and 10.75 ms) against tuned_deep's 6.67
    # (bound 10.33): at 4,096 the launcher does not renumber and the transposed bitmaps alone slowed its kernel on
    # this grid (9.20 ms against 7.43 in the rules-structure run; renumbered, 4.24 in the forced probe).
    "refit-structure": {("grid", 4096, who, "e2e_device_ms") for who in (H.CALL, H.PICK)},
    # The suite's 4,096 part after tuned_frontier began renumbering a numbering that aliases its bitmap words (not held
    # out: made after the miss above): picks as planned 48 of 48; the picks' rows within on 16 of 16 graphs (the grid
    # on the device: tuned_frontier 6.22 ms against 10.75, auto 6.51); auto's calls on 15 of 16.  Past: the
    # walking network's first call, 30.52 ms against tuned_frontier's warm 22.31 (bound 29.89), a graph the change
    # leaves alone (its test costs 0.2 ms there): auto's first calls ran a median 1.16x the refit-structure run's on
    # the sixteen graphs (the walking network's 25.33 ms there).
    "alias-structure": {("helsinki-walk", 5559, H.CALL, "e2e_first_ms")},
    # The ring and the lollipop at 32,768 (one timed call a mode): picks as planned 6 of 6; past the bound on the
    # ring to the host, where one call moves 8.6 GB (float64) or 4.3 GB (int32): the elimination's own float64 row
    # 662.9 ms against tuned_deep's 504.6, and auto's int32 call, running the elimination, 418.9 against the
    # elimination's own 288.0 (the same code; auto's float64 calls 621.1 warm and 481.4 first).
    "structure-32k-ring": {("ring", 32768, H.PICK, "e2e_ms"), ("ring", 32768, H.CALL, "e2e_int32_ms")},
    # The path at 65,536 (one timed call a mode): picks as planned 3 of 3; past to the host, where the deep crossing's
    # host rows stopped at 32,000 (ratio 1.02) and auto kept tuned_deep: 3,139.8 ms (first call 3,109.5, its own row
    # 3,147.0) against the elimination's 2,310.4.  The host rows were measured to 56,000 after (post hoc; held out
    # in structure-path-large).
    "structure-65k-path": {("path", 65536, who, mode) for who, mode in (
        (H.CALL, "e2e_ms"), (H.PICK, "e2e_ms"), (H.CALL, "e2e_first_ms"))},
}
CHECKS = H.checks()


def _cases():
    out = []
    for c in CHECKS:
        for r in H.verdicts(c).itertuples():
            key = (r.graph, r.n, r.subject, r.mode)
            mark = [pytest.mark.xfail(strict=True, reason="a measured miss")] if key in MISSES.get(c.tag, ()) else []
            out.append(pytest.param(c.tag, *key, marks=mark, id=f"{c.tag}-{r.graph}-{r.n}-{r.subject}-{r.mode}"))
    return out or [pytest.param(*(None,) * 5, marks=pytest.mark.skip(reason="no recorded held-out check"))]


@pytest.mark.parametrize("tag, graph, n, subject, mode", _cases())
def test_held_out_within_the_bound(tag, graph, n, subject, mode):
    v = H.verdicts(next(c for c in CHECKS if c.tag == tag))
    r = v[(v.graph == graph) & (v.n == n) & (v.subject == subject) & (v["mode"] == mode)].iloc[0]
    assert r.within, r.to_dict()


def test_every_listed_miss_is_a_recorded_case():
    """A miss named here that the rows do not hold would never run as an xfail."""
    held = {(c.tag, r.graph, r.n, r.subject, r.mode) for c in CHECKS for r in H.verdicts(c).itertuples()}
    for tag, keys in MISSES.items():
        if any(c.tag == tag for c in CHECKS):
            assert {(tag, *k) for k in keys} <= held, tag


@pytest.mark.parametrize("check", CHECKS, ids=[c.tag for c in CHECKS])
def test_the_held_out_run_followed_its_plan(check):
    """Every graph of the plan measured and no other (but those its ``not_measured`` names, with a ``deviation``
    saying why), each with the pick the plan predicted, and every run at the commit that added the plan or a later
    one (the provenance's commit)."""
    planned = {(p["graph"], p["n"]) for p in check.plan["graphs"]}
    missing = H.unmeasured(check)
    assert missing <= planned and (not missing or check.plan.get("deviation")), "a graph left out is said why"
    assert H.measured_graphs(check) == planned - missing
    pk = H.picks(check)
    assert len(pk) >= len(planned - missing) and (pk.planned == pk.recorded).all(), pk[pk.planned != pk.recorded]
    root = Path(__file__).resolve().parents[1]
    git = lambda *a: subprocess.run(["git", "-C", str(root), *a], capture_output=True, text=True)
    added = git("log", "--diff-filter=A", "--format=%H", "--", str(check.plan_file.relative_to(root))).stdout.split()
    if not added:
        pytest.skip("no git history here")
    runs = check.runs()
    assert runs
    for run in runs:
        assert git("merge-base", "--is-ancestor", added[-1], run["git_commit"]).returncode == 0, run["git_commit"]


def _runs_since_pymetis_was_recorded():
    """Every held-out run from the first whose provenance lists pymetis (earlier ones did not record it), with or
    without it."""
    from datetime import datetime
    when = lambda r: datetime.fromisoformat(r.get("timestamp") or "1970-01-01T00:00:00+00:00")
    runs = [(c, r) for c in CHECKS for r in c.runs()]
    listed = [when(r) for _, r in runs if "pymetis" in (r.get("packages") or {})]
    return [(c, r) for c, r in runs if listed and when(r) >= min(listed)]


def test_every_run_had_pymetis_or_its_plan_says_why():
    """auto's rules were set with the elimination ordered by METIS; a run without pymetis (BFS levels, auto never
    picking the elimination) measures something else, and its plan's deviation must say so."""
    without = [(c.tag, r.get("timestamp")) for c, r in _runs_since_pymetis_was_recorded()
               if "pymetis" not in (r.get("packages") or {})
               and "without pymetis" not in str(c.plan.get("deviation") or "")]
    assert not without, without


# The criterion's code on rows made here.
def _suite(auto_ms, pick="a", rows=None):
    base = dict(graph="g", n=100, m=10, hop_depth=1)
    rows = rows or {"a": 10.0, "b": 8.0}
    out = [dict(base, algorithm=k, kind="gpu", verified=True, e2e_ms=v, e2e_int32_ms=v, e2e_device_ms=v)
           for k, v in rows.items()]
    out.append(dict(base, algorithm="auto", kind="auto", verified=True, picked=pick, e2e_ms=auto_ms,
                    e2e_int32_ms=auto_ms, e2e_device_ms=auto_ms, e2e_first_ms=auto_ms))
    return pd.DataFrame(out)


def _check(suite=None, probe=None):
    return H.Check(Path("X-2026-01-01-t-plan.yaml"), {"graphs": [{"graph": "g", "n": 100,
                   "predicted_pick": {"host": "a", "device": "a"}}]},
                   suite if suite is not None else pd.DataFrame(), probe if probe is not None else pd.DataFrame(), [])


def test_verdicts_hold_auto_and_its_pick_to_the_fastest_code():
    v = H.verdicts(_check(_suite(12.0)))                    # bound: 1.25 * 8 + 2 = 12
    assert len(v) == 7 and v.within.all() and set(v.fastest) == {"b"}
    v = H.verdicts(_check(_suite(12.1, rows={"a": 12.1, "b": 8.0})))
    assert not v.within.any()
    assert set(v.subject) == {H.CALL, H.PICK} and set(v[v.subject == H.PICK]["mode"]) == set(H.WARM)


def test_the_finding_names_the_rows_files():
    c = _check(_suite(12.0))
    assert "Rows:" not in H.finding(c)
    c.row_files = [Path("/x/GPU-2026-01-01-t.csv"), Path("/y/GPU-2026-01-01-t-check.csv")]
    assert "Rows: `GPU-2026-01-01-t.csv`, `GPU-2026-01-01-t-check.csv`." in H.finding(c)


def test_a_suite_timed_in_rounds_says_so():
    """Rows of ``structure_suite --rounds`` (``e2e_rounds``) are medians; the finding says how the calls were timed."""
    assert "(a graph: a class at one n; 1 in the structure suite)" in H.finding(_check(_suite(12.0)))
    rounds = _suite(12.0).assign(e2e_rounds=3.0)
    assert ("1 in the structure suite, each warm call the median of 3 interleaved rounds (auto's first call one "
            "call))") in H.finding(_check(rounds))


def test_verdicts_take_the_median_of_interleaved_rounds():
    rows = [dict(graph="g", n=100, code=c, mode="e2e_ms", round=i, ms=ms, picked="a" if c == "auto" else "")
            for c, times in {"a": (10, 11, 50), "b": (9, 30, 31), "auto": (16, 16.4, 1)}.items()
            for i, ms in enumerate(times)]
    v = H.verdicts(_check(probe=pd.DataFrame(rows)))
    assert len(v) == 1 and v.fastest.iloc[0] == "a" and v.ms.iloc[0] == 16 and not v.within.iloc[0]   # 16 > 1.25 * 11 + 2
    assert H.picks(_check(probe=pd.DataFrame(rows))).recorded.tolist() == ["a"]


def test_the_previous_forms_pick_in_interleaved_rounds_is_its_median(monkeypatch):
    rows = [dict(graph="g", n=100, code=c, mode="e2e_device_ms", round=i, ms=ms, picked="b" if c == "auto" else "")
            for c, times in {"a": (20, 21, 5), "b": (9, 10, 40), "auto": (10, 10, 10)}.items()
            for i, ms in enumerate(times)]
    monkeypatch.setitem(H.PREVIOUS, "t", ("role-of-a", ("e2e_device_ms",)))
    monkeypatch.setattr(H.registry, "by_role", lambda role: type("Code", (), {"name": "a"}) if role == "role-of-a" else None)
    p = H.previous(_check(probe=pd.DataFrame(rows))).iloc[0]
    assert (p.ms, p.fastest, p.fastest_ms, p.end_to_end, p.past) == (20.0, "b", 10.0, True, True)   # 20 > 1.25 * 10 + 2


def test_where_the_forms_differ_the_finding_says_which_pick_was_faster(monkeypatch):
    """A check that could not fail (the previous form's pick within the bound too) says so, and whether the present
    pick, named, was the faster where the forms differ: here b (auto's) 9-10 ms against the previous form's a."""
    def said(a_times):
        rows = [dict(graph="g", n=100, code=c, mode="e2e_ms", round=i, ms=ms, picked="b" if c == "auto" else "")
                for c, times in {"a": a_times, "b": (9, 10, 10), "auto": (10, 10, 10)}.items()
                for i, ms in enumerate(times)]
        return H._previous(_check(probe=pd.DataFrame(rows)))
    monkeypatch.setitem(H.PREVIOUS, "t", ("role-of-a", ("e2e_ms",)))
    monkeypatch.setattr(H.registry, "by_role", lambda role: type("Code", (), {"name": "a"}) if role == "role-of-a" else None)
    monkeypatch.setattr(H, "picks", lambda c: pd.DataFrame([dict(graph="g", n=100, result="host", planned="b",
                                                                 recorded="b")]))
    text = said((11, 11, 12))                               # a within the bound, slower
    assert "`a` was past the bound on 0." in text and "the faster of the two in 1 of 1 (graph, mode) pairs" in text
    text = said((8, 8, 9))                                  # a the faster
    assert "the faster of the two in 0 of 1 (graph, mode) pairs" in text


def test_checks_pair_each_plan_with_the_rows_named_after_it(tmp_path):
    """A plan's rows: the CSV files beside it whose names start with its own, ``-plan.yaml`` dropped; a plan without
    rows is not a check yet."""
    import yaml
    plan = {"graphs": [{"graph": "g", "n": 100, "predicted_pick": {"host": "a", "device": "a"}}]}
    for tag in ("t", "u"):
        (tmp_path / f"GPU-2026-01-01-{tag}-plan.yaml").write_text(yaml.safe_dump(plan))
    _suite(11.0).to_csv(tmp_path / "GPU-2026-01-01-t-check.csv", index=False)
    pd.DataFrame([dict(graph="g", n=100, code=c, mode="e2e_device_ms", round=0, ms=ms, picked="a" if c == "auto" else "")
                  for c, ms in (("a", 5.0), ("auto", 5.5))]).to_csv(tmp_path / "GPU-2026-01-01-t-islands.csv", index=False)
    (tmp_path / "GPU-2026-01-01-t-check.provenance.json").write_text('{"invocations": [{"git_commit": "x"}]}')
    [c] = H.checks(tmp_path)
    assert c.tag == "t" and len(c.suite) == 3 and len(c.probe) == 2 and c.runs() == [{"git_commit": "x"}]
    assert H.measured_graphs(c) == {("g", 100)}
    assert H.picks(c).result.tolist() == ["host", "device"] and (H.picks(c).planned == H.picks(c).recorded).all()
    f = H.finding(c)
    assert "auto's pick was the planned one in 2 of 2" in f and "on 1 of 1 graphs" in f
    assert "The fastest verified code with the result on the device: `b` on 1 of 1." in f
    assert [len(t) for t in H.tables(c)] == [1, 1]


def test_rows_go_to_the_plan_of_the_longest_name_they_start_with(tmp_path):
    """``...-denser-int32-check.csv`` is the ``denser-int32`` plan's, though it starts with ``denser`` too."""
    import yaml
    plan = {"graphs": [{"graph": "g", "n": 100, "predicted_pick": {"device": "a"}}]}
    rows = lambda ms: pd.DataFrame([dict(graph="g", n=100, code=c, mode="e2e_device_ms", round=0, ms=m,
                                         picked="a" if c == "auto" else "") for c, m in (("a", ms), ("auto", ms))])
    for tag, ms in (("denser", 5.0), ("denser-int32", 7.0)):
        (tmp_path / f"GPU-2026-01-01-{tag}-plan.yaml").write_text(yaml.safe_dump(plan))
        rows(ms).to_csv(tmp_path / f"GPU-2026-01-01-{tag}-check.csv", index=False)
    got = {c.tag: (len(c.row_files), float(c.probe.ms.max())) for c in H.checks(tmp_path)}
    assert got == {"denser": (1, 5.0), "denser-int32": (1, 7.0)}


def test_a_plan_may_name_its_rows_elsewhere_and_its_int32_picks_are_held(tmp_path, monkeypatch):
    """A structure-suite run kept where the suite's readers look (``rows``: paths under the recorded results) is the
    plan's rows; where the suite's auto row records its int32 pick, the plan's int32 prediction is held to it."""
    import yaml
    from apsp_kernels import paths
    monkeypatch.setattr(paths, "RECORDED", tmp_path)
    (tmp_path / "solver").mkdir()
    (tmp_path / "benchmarks").mkdir()
    plan = {"rows": ["benchmarks/GPU-2026-01-01-structure.csv", "benchmarks/absent.csv"],
            "graphs": [{"graph": "g", "n": 100, "predicted_pick": {"host": "a", "int32": "b", "device": "a"}}]}
    (tmp_path / "solver" / "GPU-2026-01-01-structure-plan.yaml").write_text(yaml.safe_dump(plan))
    rows = _suite(11.0)
    rows["picked_int32"] = rows.kind.map({"auto": "b"})
    rows.to_csv(tmp_path / "benchmarks" / "GPU-2026-01-01-structure.csv", index=False)
    [c] = H.checks(tmp_path / "solver")
    assert c.tag == "structure" and len(c.suite) == 3
    pk = H.picks(c)
    assert pk.result.tolist() == ["host", "int32"] and pk.recorded.tolist() == ["a", "b"]   # no device pick recorded
    rows["picked_int32"] = rows.kind.map({"auto": "a"})
    rows.to_csv(tmp_path / "benchmarks" / "GPU-2026-01-01-structure.csv", index=False)
    [c] = H.checks(tmp_path / "solver")
    assert (H.picks(c).planned != H.picks(c).recorded).tolist() == [False, True]
    assert "Deviation" not in H.finding(c)
    c.plan["deviation"] = "Added after the data: a fifth command."
    assert "*Deviation from the plan:* Added after the data: a fifth command." in H.finding(c)


def test_checks_come_in_the_order_their_plans_were_written(tmp_path):
    import yaml
    for tag, when in (("a", "2026-01-01T09:00"), ("b", "2026-01-01T08:00")):
        plan = {"written": when, "graphs": [{"graph": "g", "n": 100, "predicted_pick": {"host": "a", "device": "a"}}]}
        (tmp_path / f"GPU-2026-01-01-{tag}-plan.yaml").write_text(yaml.safe_dump(plan))
        _suite(11.0).to_csv(tmp_path / f"GPU-2026-01-01-{tag}-check.csv", index=False)
    assert [c.tag for c in H.checks(tmp_path)] == ["b", "a"]


def test_the_finding_names_who_missed_and_what_later_rounds_said():
    """A miss names the code auto ran and the fastest code; rounds measured after the check settle each missed graph
    by medians, labelled post hoc."""
    c = _check(_suite(12.5))                                       # past 1.25 * 8 + 2 = 12
    after = pd.DataFrame([dict(graph="g", n=100, code=code, mode=m, round=i, ms=ms, picked="a" if code == "auto" else "")
                          for code, ms in (("b", 8.0), ("auto", 9.0)) for m in ("e2e_ms", "e2e_device_ms")
                          for i in range(3)])
    f = H.finding(c, after)
    assert "g 100 float64 (auto, running a: 12.5 ms; the fastest, b named: 8.0)" in f
    assert "Measured again after the check (post hoc" in f and "g 100 (3 rounds) within in every mode" in f
    slow = after.assign(ms=after.ms.where(after.code != "auto", 20.0))
    assert "g 100 (3 rounds) past in float64 (auto's median 20.0 ms against b's 8.0), on the device" in H.finding(c, slow)
    assert "Measured again" not in H.finding(_check(_suite(11.0)), after)        # nothing missed


def test_a_suite_row_naming_its_device_pick_is_held_to_the_plan_on_the_device():
    rows = _suite(11.0)
    rows.loc[rows.kind == "auto", "picked_device"] = "b"
    pk = H.picks(_check(rows))
    assert pk.result.tolist() == ["host", "device"] and pk.recorded.tolist() == ["a", "b"]
    assert pk.planned.tolist() == ["a", "a"]                  # the plan said a: a miss the run-followed test sees
    assert H.picks(_check(_suite(11.0))).result.tolist() == ["host"]


def test_the_picks_row_on_the_device_is_the_device_picks():
    """Where the suite's auto row names its device pick, the device mode holds that code's row to the bound (the host
    pick's row in the host modes); older rows, with the host pick only, hold it in every mode."""
    rows = _suite(11.0, rows={"a": 10.0, "b": 8.0, "c": 20.0})
    rows.loc[rows.kind == "auto", "picked_device"] = "c"
    v = H.verdicts(_check(rows)).set_index(["subject", "mode"])
    assert v.loc[(H.PICK, "e2e_device_ms"), "code"] == "c" and not v.loc[(H.PICK, "e2e_device_ms"), "within"]
    assert v.loc[(H.CALL, "e2e_device_ms"), "code"] == "c"
    assert (v.drop(index="e2e_device_ms", level="mode").code == "a").all()
    assert (H.verdicts(_check(_suite(11.0))).code == "a").all()


def test_the_second_frontier_check_tells_the_code_by_result_from_tuned_deep_everywhere():
    """What docs/auto-evidence.md says of the second check: on the device the previous form's pick, tuned_deep, would have
    been past the bound on the components of 2,560 at 16,384 and of 6,144 at 32,768, and within on the other two."""
    c = next((c for c in CHECKS if c.tag == "second-frontier"), None)
    if c is None:
        pytest.skip("the second-frontier check has no recorded rows")
    gpu = verified(c.suite, "gpu")
    past = set()
    for (g, n), t in gpu.groupby(["graph", "n"]):
        t = t.set_index("algorithm").e2e_device_ms
        if not within_bound(t["tuned_deep"], t.min()):
            past.add((g, int(n)))
    assert past == {("components-2560", 16384), ("components-6144", 32768)}


def test_the_previous_forms_pick_is_reported_by_its_row_or_its_kernels_alone(monkeypatch):
    """Where a check was planned to tell a rule from its previous form, that form's pick, named, against the bound:
    its warm row, or where it was not timed end to end its kernels alone (a bound from below)."""
    rows = _suite(11.0, rows={"a": 10.0, "b": 8.0})
    rows["kernel_ms"] = [9.0, 7.0, float("nan")]
    rows.loc[rows.algorithm == "a", "e2e_ms"] = float("nan")        # a: not timed end to end, kernels 9.0
    monkeypatch.setitem(H.PREVIOUS, "t", ("role-of-a", ("e2e_ms", "e2e_device_ms")))
    monkeypatch.setattr(H.registry, "by_role", lambda role: type("Code", (), {"name": "a"}) if role == "role-of-a" else None)
    p = H.previous(_check(rows)).set_index("mode")
    assert p.loc["e2e_ms", "ms"] == 9.0 and not p.loc["e2e_ms", "end_to_end"] and not p.loc["e2e_ms", "past"]
    assert p.loc["e2e_device_ms", "ms"] == 10.0 and p.loc["e2e_device_ms", "end_to_end"]
    rows.loc[rows.algorithm == "a", "kernel_ms"] = 12.5                # past 1.25 * 8 + 2
    said = H._previous(_check(rows))
    assert "picked different codes on 0 of 1 graphs; `a` was past the bound on 1" in said
    assert "its kernels alone 12.5 ms (a bound from below) against b's 8.0 float64, 1.04x the bound" in said
    assert "(the rule picked it there too)" in said                # the check's pick was a, the previous form's too


def test_a_plan_that_is_not_held_out_is_not_called_so():
    """The finding heads a plan by what its ``what`` says it is: a held-out check, or a check."""
    c = _check(_suite(11.0))
    c.plan["what"] = "Held-out check of the rule, on graphs never measured."
    assert H.finding(c).startswith("**Held-out check `t`** of the rule, on graphs never measured; planned")
    c.plan["what"] = "Check of today's rules on the suite. Not held out."
    assert H.finding(c).startswith("**Check `t`** of today's rules on the suite. Not held out; planned")


def test_median_calls_name_the_graphs_within_where_some_missed():
    """The median-call sentence names every graph where all were within, and only those within where some missed
    (a list of all after "on 4 of the 8" read as the four)."""
    v = pd.DataFrame([dict(graph=g, n=n, within=w) for g, n, w in
                      (("p", 10, True), ("p", 10, True), ("q", 20, False), ("q", 20, True), ("r", 30, True))])
    assert H._where(v) == "(within: p 10, r 30)"
    assert H._where(v.assign(within=True)) == "(p 10, q 20, r 30)"
    assert H._where(v.assign(within=False)) == ""


def test_the_codes_a_plans_budget_left_out_are_named():
    """A plan with a ``budget`` (structure_suite --skip-past-s) has its finding name the codes it left out, per
    graph, from the rows' errors; codes spared their end-to-end calls by their kernel are not among them."""
    rows = pd.DataFrame([dict(graph="knn", n=65536, algorithm="tuned_fw", error="not run: at least 9 s (...)"),
                         dict(graph="grid", n=65536, algorithm="tuned_fw", error="not run: at least 9 s (...)"),
                         dict(graph="grid", n=65536, algorithm="tuned_deep", error="end to end not timed: ..."),
                         dict(graph="grid", n=65536, algorithm="tuned_elimination", error=float("nan"))])
    assert H._left_out(rows) == " Not run by it: `tuned_fw` on knn 65,536, grid 65,536."
    assert H._left_out(rows.iloc[2:]) == "" and H._left_out(pd.DataFrame()) == ""
    checks = [c for c in H.checks() if c.plan.get("budget")]
    if not checks:
        pytest.skip("no recorded plan with a budget")
    for c in checks:
        text = H.finding(c)
        assert "*Budget (the plan's):* " + str(c.plan["budget"]).strip() in text
        assert ("Not run by it: `" in text) == bool(H._left_out(c.suite))
