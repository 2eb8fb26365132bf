"""The elimination against tuned_frontier in interleaved rounds, per graph and result, beside every feature auto's
rules read and the code auto picks now: the rows a re-fit of :mod:`apsp_kernels.elimination_choice` starts from.

    python3 scripts/elimination_rule_rows.py data/results/elimination/<rows>.csv [...] [--csv OUT]

Reads ``e2e_scatter.csv`` files (``scripts/e2e_scatter_probe.py``: one row per timed call; the last file that
timed a graph wins) and prints one row per graph and result: the medians' ratio (elimination / tuned_frontier),
m / n, the depth score sqrt(n) x D (D the probe's hop depth), the hub BFS's widest level / sqrt(n), tuned_frontier's
counted relaxations per edge and source, in rounds and in-round (:mod:`apsp_kernels.core.frontier_work`), and the
code ``choose`` picks for that result with the rules as they stand (``free_bytes`` of one H200) and whether its time
was within the structure suite's bound of the faster code's (empty where it picks a third code)."""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from apsp_kernels.measure import rounds  # noqa: E402  (each code's median of interleaved rounds)

from e2e_scatter_probe import MODE_NAMES as RESULT  # noqa: E402  (mode column -> result: the rows' own names)
from frontier_work import work  # noqa: E402  (tuned_frontier's counts, as scripts/frontier_work.py prints them)

FREE_BYTES = 140e9      # one H200's memory: the picks of the device the rows came from


def medians(files):
    """(graph, n, result, elimination_ms, frontier_ms, ratio), the last file's per graph and n."""
    out = []
    for f in files:
        m = rounds.medians(pd.read_csv(f))
        for (g, n, mode), r in m.iterrows():
            out.append(dict(graph=g, n=int(n), result=RESULT[mode], elimination_ms=r.tuned_elimination,
                            frontier_ms=r.tuned_frontier, ratio=r.tuned_elimination / r.tuned_frontier))
    return pd.DataFrame(out).drop_duplicates(["graph", "n", "result"], keep="last")


def features(graph, n):
    """The graph's features the rules read, and auto's pick per result."""
    from apsp_kernels import choice, elimination_choice as E
    from apsp_kernels.core.frontier_work import SOURCES
    from apsp_kernels.core.structure import hub_depth_once
    from apsp_kernels.io import suite_graphs as SG
    g = SG.make(graph, n, seed=n)
    _, depth, score = E.deep_enough(g)
    root = math.sqrt(g.n)
    counts = work(g, SOURCES)
    row = dict(m_over_n=g.m / g.n, score=score, depth_over_root_n=depth / root,
               widest_over_root_n=hub_depth_once(g).widest / root,
               rounds_per_edge=counts["relaxations_per_edge"], in_round_per_edge=counts["in_round_per_edge"])
    for result in RESULT.values():
        row[f"pick_{result}"] = choice.choose(g, result=result, gpu=True, free_bytes=FREE_BYTES).algorithm.name
    return row


def within(row):
    """Whether the code picked took at most the suite's bound over the faster of the two (None: another code)."""
    from apsp_kernels.structure_suite import within_bound
    ms = {"elimination": row.elimination_ms, "frontier": row.frontier_ms}.get(row.picked)
    return None if ms is None else bool(within_bound(ms, min(row.elimination_ms, row.frontier_ms)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--csv", help="also write the table here")
    a = ap.parse_args(argv)
    from apsp_kernels.elimination_choice import refuse_unmeasured_ordering
    refuse_unmeasured_ordering(ap)
    rows = medians(a.files)
    feats = {(g, n): features(g, n) for g, n in rows[["graph", "n"]].drop_duplicates().itertuples(index=False)}
    table = rows.join(pd.DataFrame([feats[(g, n)] for g, n in zip(rows.graph, rows.n)], index=rows.index))
    table["picked"] = [r[f"pick_{r.result}"] for _, r in table.iterrows()]
    table = table.drop(columns=[f"pick_{x}" for x in RESULT.values()])
    table["picked"] = table.picked.str.replace("tuned_", "")
    table["within"] = [within(r) for _, r in table.iterrows()]
    if a.csv:
        table.to_csv(a.csv, index=False)
    with pd.option_context("display.width", 200, "display.max_rows", 500):
        for result, part in table.groupby("result", sort=False):
            print(f"\n{result}")
            print(part.drop(columns="result").sort_values(["graph", "n"]).round(2).to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
