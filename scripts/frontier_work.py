"""tuned_frontier's work on a graph, counted on the CPU, beside its recorded device time: what the depth score
(sqrt(n) x the probe's hop depth) does not see.

    python3 scripts/frontier_work.py [--mode e2e_device_ms] [--sources 4] [--graphs grid8:16384 delaunay:16384 ...]

For each graph, tuned_frontier's algorithm counted on the CPU from ``--sources`` seeded sources
(:mod:`apsp_kernels.core.frontier_work`, the count auto's rule reads): the relaxations a source makes per edge of
the graph (1 where every edge is relaxed once, as Dijkstra does), the same counted in-round (each vertex relaxing
from its distance when its turn comes) and the first source's rounds.
Without ``--graphs``, every graph of the small-separator classes that the recorded held-out checks timed with both
tuned_frontier and the elimination (``data/results/solver/*-check*.csv``, medians, the last file per graph), with
each code's median in ``--mode``, their ratio and the rate of tuned_frontier's relaxations so counted, n sources'
worth over its median (10^9 a second): alike across classes where the relaxations explain its time."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from apsp_kernels.measure import rounds  # noqa: E402  (each code's median of interleaved rounds)

CLASSES = ("grid", "grid8", "strip", "knn", "corridor", "delaunay", "knn_islands", "grid3d")   # the elimination's


def work(g, k):
    """A graph's counts (:mod:`apsp_kernels.core.frontier_work`, ``k`` sources): relaxations per edge, in rounds and
    in-round, and the rounds of its first source."""
    from apsp_kernels.core import frontier_work as FW
    return dict(rounds=FW.frontier(g, int(FW.sources(g, k)[0]))[1],
                relaxations_per_edge=FW.relaxations_per_edge(g, k),
                in_round_per_edge=FW.relaxations_per_edge(g, k, in_round=True))


def recorded(mode="e2e_device_ms", where=None, skip=()):
    """(graph, n, tuned_frontier's and the elimination's medians in ``mode``) from the held-out checks' rows, the
    last file per graph, graphs of :data:`CLASSES` only; ``skip``: checks (tags) left out."""
    from apsp_kernels import paths
    out = []
    for f in sorted(Path(where or paths.RECORDED / "solver").glob("*-check*.csv")):
        if any(f"-{tag}-check" in f.name for tag in skip):
            continue
        d = pd.read_csv(f)
        if not rounds.are_rounds(d):
            continue
        m = rounds.medians(d, mode)
        if {"tuned_elimination", "tuned_frontier"} <= set(m.columns):
            out += [dict(graph=g, n=int(n), frontier_ms=r.tuned_frontier, elimination_ms=r.tuned_elimination)
                    for (g, n), r in m.iterrows() if g.split("-")[0] in CLASSES]
    cols = ["graph", "n", "frontier_ms", "elimination_ms"]
    return pd.DataFrame(out, columns=cols).drop_duplicates(["graph", "n"], keep="last").reset_index(drop=True)


def table(rows, sources=4):
    """``rows`` (graph, n[, times]) with each graph's m, the probe's hop depth and :func:`work`; where the times
    are there, their ratio and the rate of tuned_frontier's counted relaxations (10^9 a second)."""
    from apsp_kernels.core.structure import probe_once
    from apsp_kernels.io import suite_graphs as SG
    got = []
    for r in rows.itertuples():
        g = SG.make(r.graph, r.n, seed=r.n)
        got.append(dict(m=g.m, hop_depth=probe_once(g).hop_depth, **work(g, sources)))
    t = pd.concat([rows.reset_index(drop=True), pd.DataFrame(got)], axis=1)
    if "frontier_ms" in t:
        t["elimination_over_frontier"] = t.elimination_ms / t.frontier_ms
        t["frontier_g_relaxations_per_s"] = t.n * t.relaxations_per_edge * t.m / (t.frontier_ms * 1e6)
    return t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", default="e2e_device_ms", choices=("e2e_ms", "e2e_int32_ms", "e2e_device_ms"))
    ap.add_argument("--sources", type=int, default=4)
    ap.add_argument("--graphs", nargs="+", help="name:n (the suite's graphs); default: the recorded checks' graphs")
    a = ap.parse_args(argv)
    from apsp_kernels.io import suite_graphs as SG
    rows = (pd.DataFrame([dict(zip(("graph", "n"), SG.spec(s))) for s in a.graphs]) if a.graphs
            else recorded(a.mode))
    t = table(rows, a.sources)
    with pd.option_context("display.width", 200, "display.max_rows", 500):
        print(t.sort_values(["graph", "n"]).round(3).to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
