"""The elimination against tuned_frontier per graph, in one mode (float64 to the host by default), beside the
features auto's rules could read: the probe's hop depth D (as sqrt(n) x D, the score, and D / sqrt(n)) and the hub
BFS's widest level (a separator's size, in sqrt(n)).  Read from the interleaved rounds recorded since the host result is touched during
the solve (medians per code; the last file that timed a graph wins).

    python3 scripts/host_crossing_features.py [--mode e2e_ms|e2e_int32_ms|e2e_device_ms]

Prints one row per graph, by score: where the elimination's ratio falls below 1 against the features."""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from apsp_kernels.measure import rounds  # noqa: E402  (each code's median of interleaved rounds)

FILES = ("elimination/NVIDIA_H200-2026-11-30-touched-host-calls.csv",
         "solver/NVIDIA_H200-2026-11-30-host-after-rounds.csv",
         "solver/NVIDIA_H200-2026-11-30-host-touched-check.csv",
         "solver/NVIDIA_H200-2026-11-30-depth-from-check.csv",
         "solver/NVIDIA_H200-2026-11-30-host-33k-check.csv",
         "elimination/NVIDIA_H200-2026-11-30-touched-small-calls.csv",
         "elimination/NVIDIA_H200-2026-11-30-strips-small.csv",
         "elimination/NVIDIA_H200-2026-11-30-narrow-strips.csv")


def ratios(mode="e2e_ms", files=FILES, where=None):
    """(graph, n, ratio): the elimination's median over tuned_frontier's in ``mode``, the last file's per graph."""
    from apsp_kernels import paths
    out = []
    for f in files:
        d = pd.read_csv(Path(where or paths.RECORDED) / f)
        m = rounds.medians(d, mode)
        if {"tuned_elimination", "tuned_frontier"} <= set(m.columns):
            out += [dict(graph=g, n=int(n), ratio=r.tuned_elimination / r.tuned_frontier) for (g, n), r in m.iterrows()]
    return pd.DataFrame(out, columns=["graph", "n", "ratio"]).drop_duplicates(["graph", "n"], keep="last")


def features(graph, n):
    """(score, D / sqrt(n), widest / sqrt(n)) of the suite's graph (a bundled network where ``n`` is its own)."""
    from apsp_kernels import elimination_choice as E
    from apsp_kernels.core.structure import hub_depth_once
    from apsp_kernels.io import suite_graphs as SG
    g = SG.make(graph, n, seed=n)                  # a bundled network keeps its own n
    _, depth, score = E.deep_enough(g)
    root = math.sqrt(g.n)
    return score, depth / root, hub_depth_once(g).widest / root


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", default="e2e_ms", choices=("e2e_ms", "e2e_int32_ms", "e2e_device_ms"))
    a = ap.parse_args(argv)
    r = ratios(a.mode)
    r[["score", "depth_over_root_n", "widest_over_root_n"]] = [features(g, n) for g, n in zip(r.graph, r.n)]
    with pd.option_context("display.width", 160):
        print(r.sort_values("score").round(3).to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
