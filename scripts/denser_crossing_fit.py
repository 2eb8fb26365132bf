"""Where the elimination crosses tuned_frontier on graphs of many edges a vertex (kNN graphs and kNN corridors,
m / n >= elimination_choice.DENSER): a least-squares fit over the recorded medians of every corridor row and check,
per result, of log(elimination / tuned_frontier) = a + b log n + c log(D / sqrt(n)), D the probe's hop depth, from
``--from`` vertices on; prints the fit and the crossing score sqrt(n) x D it puts at a few sizes
(``elimination_choice.denser_threshold`` is that crossing, from the rows of 2026-11-30).

    python3 scripts/denser_crossing_fit.py [--from 10000] [--sizes 10000 14000 20000 30000]

Reads ``data/results/elimination/*-corridor-sweep.csv`` and ``data/results/solver/*-check*.csv`` (e2e_scatter rows:
graph, n, code, mode, ms), each (graph, n, mode) once, from the first file that has it; needs nothing but the CPU."""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from apsp_kernels.measure import rounds  # noqa: E402  (each code's median of interleaved rounds)


def medians(files):
    rows = []
    for f in files:
        d = pd.read_csv(f)
        if not rounds.are_rounds(d):
            continue
        m = rounds.medians(d[d.graph.str.startswith("corridor") | (d.graph == "knn")])
        if {"tuned_elimination", "tuned_frontier"} <= set(m.columns):
            for (g, n, mode), r in m.iterrows():
                rows.append(dict(graph=g, n=int(n), mode=mode, ratio=r.tuned_elimination / r.tuned_frontier))
    return pd.DataFrame(rows).drop_duplicates(["graph", "n", "mode"])


def fit(files, least=10_000):
    """Per result (``mode``: e2e_ms, e2e_int32_ms, e2e_device_ms): (a, b, c), the residual's standard deviation and
    the number of graphs, of log(elimination / tuned_frontier) = a + b log n + c log(D / sqrt(n)) over the medians
    of ``files`` from ``least`` vertices on."""
    from apsp_kernels.core.structure import probe_once
    from apsp_kernels.io import suite_graphs as SG
    t = medians(files)
    t = t[t.n >= least].copy()
    depth = {k: probe_once(SG.make(k[0], k[1], seed=k[1])).hop_depth for k in set(zip(t.graph, t.n))}
    t["dr"] = [depth[k] / math.sqrt(k[1]) for k in zip(t.graph, t.n)]
    out = {}
    for mode, u in t.groupby("mode"):
        x = np.c_[np.ones(len(u)), np.log(u.n), np.log(u.dr)]
        c, *_ = np.linalg.lstsq(x, np.log(u.ratio), rcond=None)
        out[mode] = (tuple(float(v) for v in c), float(np.std(np.log(u.ratio) - x @ c)), len(u))
    return out


def crossing_score(c, n):
    """The score sqrt(n) x D at which the fit ``c`` = (a, b, c) puts the two codes level at ``n`` vertices."""
    return n * math.exp(-(c[0] + c[1] * math.log(n)) / c[2])


def slope(c):
    """The exponent k of the crossing score's fall with n (score proportional to n ** -k): b / c - 1."""
    return c[1] / c[2] - 1


def main(argv=None):
    from apsp_kernels import paths
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--from", dest="least", type=int, default=10_000)
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 14_000, 20_000, 30_000])
    a = ap.parse_args(argv)
    files = sorted((paths.RECORDED / "elimination").glob("*-corridor-sweep.csv"))
    files += sorted((paths.RECORDED / "solver").glob("*-check*.csv"))
    for mode, (c, sd, k) in fit(files, a.least).items():
        at = ", ".join(f"{crossing_score(c, n):,.0f} at {n:,}" for n in a.sizes)
        print(f"{mode}: log ratio = {c[0]:.2f} {c[1]:+.3f} log n {c[2]:+.3f} log(D / sqrt n); residual {sd:.2f}; "
              f"{k} graphs; crossing score {at} (falls as n^-{slope(c):.2f})")


if __name__ == "__main__":
    main()
