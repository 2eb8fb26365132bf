"""How much one warm end-to-end call of a code scatters: each code's ``shortest_paths`` call timed in interleaved
rounds (every code and mode once a round, so no code's calls come in a block), in the structure suite's three
modes (float64 and int32 to the host, left on the device), on the suite's graphs.  The structure suite times one
call a code at n > 4,096; this says how far apart such single calls of one code fall.

    python3 scripts/e2e_scatter_probe.py --graphs kemp components knn --sizes 16384 \\
        --codes tuned_sparse tuned_frontier tuned_deep --rounds 8 --out DIR

Each code's first call in each mode (its kernels loaded, buffers made) is checked against the graph's reference
checksum and not timed.  Writes ``e2e_scatter.csv`` (one row per call; ``picked``: for ``--codes auto``, the code
auto runs in that mode) and its provenance beside it, and prints per graph, code and mode the least, median and
largest time and largest / least.

A graph given as ``name:n`` (``grid:6000``; a bundled network ``helsinki-walk:0``) is taken at that size only,
the others at every ``--sizes``.

``--modes`` times only some of the modes (host: float64 to the host, int32: int32 to the host, device: left on the
GPU).  ``--order rotate``: round r starts at the r-th code (the codes' order rotated), so that over a multiple of
len(codes) rounds each code is timed as often in each place of a round (the default, ``fixed``, times them in the
order given, every round; a code that always runs after the same other code may carry its effect: in fixed rounds
auto's own calls of the elimination ran 2.6-8.9 % faster than the named elimination's, first in each round).  Each
row's ``position`` is its call's place in its round (0 first).  ``--crossing``: also ``crossing.csv``, each graph's medians in the form of
``scripts/elimination_gpu_measure.py --e2e``'s rows (``<code>_e2e_<mode>_ms``, m, ``e2e_verified``), the form
:func:`apsp_kernels.elimination_choice.crossing` learns from: the crossing measured in interleaved rounds, each
mode's ratio the ratio of the medians (``scripts/merge_crossing.py`` sets them beside an earlier crossing file's)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from apsp_kernels.measure.rounds import interleaved  # noqa: E402


MODE_NAMES = {"e2e_ms": "host", "e2e_int32_ms": "int32", "e2e_device_ms": "device"}   # column -> short name


def as_crossing(rows):
    """Per graph and size, each code's median over the rounds in each mode, as the crossing rows' columns
    ``<code>_e2e_<mode>_ms`` (every result was checked before its rounds: ``e2e_verified`` True)."""
    rows = rows.assign(graph=rows.graph + " " + rows.n.astype(str))    # the crossing rows' names: "path 16000"
    med = rows.groupby(["graph", "n", "m", "code", "mode"], sort=False).ms.median().reset_index()
    med["col"] = med.code + "_e2e_" + med["mode"].map(MODE_NAMES) + "_ms"
    wide = med.pivot_table(index=["graph", "n", "m"], columns="col", values="ms", sort=False).reset_index()
    wide.columns.name = None
    rounds = rows.groupby(["graph", "n"], sort=False)["round"].nunique().rename("rounds").reset_index()
    return wide.merge(rounds, on=["graph", "n"]).assign(e2e_verified=True)


def specs(graphs, sizes):
    """(name, n) pairs: each size's graphs in the order given, then the graphs named with a size (``name:n``)."""
    from apsp_kernels.io import suite_graphs as SG
    return ([(name, n) for n in sizes for name in graphs if ":" not in name]
            + [SG.spec(g) for g in graphs if ":" in g])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", default=["kemp", "components", "knn"])
    ap.add_argument("--sizes", type=int, nargs="+", default=[16384])
    ap.add_argument("--codes", nargs="+", default=["tuned_sparse", "tuned_frontier", "tuned_deep"])
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--modes", nargs="+", default=list(MODE_NAMES.values()), choices=list(MODE_NAMES.values()))
    ap.add_argument("--crossing", action="store_true", help="also crossing.csv: the medians as crossing rows")
    ap.add_argument("--order", choices=("fixed", "rotate"), default="fixed",
                    help="the codes' order in each round: as given, or rotated by the round's number")
    ap.add_argument("--out", default=".")
    a = ap.parse_args(argv)
    from apsp_kernels.elimination_choice import refuse_unmeasured_ordering
    refuse_unmeasured_ordering(ap, a.codes)
    import pandas as pd
    from apsp_kernels import api, gpu_device
    from apsp_kernels.algorithms.reference import reference_checksum
    from apsp_kernels.io import suite_graphs as SG
    from apsp_kernels.measure import provenance
    from apsp_kernels.structure_suite import MODES, call_ms, matches
    modes = [(col, kw) for col, kw in MODES if MODE_NAMES[col] in a.modes]
    gpu_device.require_gpu()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    provenance.write_invocation(out / "e2e_scatter.provenance.json", provenance.collect("e2e-scatter", vars(a)))
    rows = []
    for name, n in specs(a.graphs, a.sizes):
        g = SG.make(name, n, seed=n)
        ref = reference_checksum(g)
        print(f"{name} n={g.n} m={g.m}", flush=True)
        for code in a.codes:                      # warm, and checked
            for col, kw in modes:
                d = api.shortest_paths(g, method=code, **kw)
                if not matches(d, ref):
                    raise SystemExit(f"{code} on {name} {n} ({col}): result differs from the reference")
                del d
        picked = {col: api._method(g, "auto", None, device=kw.get("device", False),
                                   dtype=kw.get("dtype", np.float64))[0].name
                  for col, kw in modes}                  # what method="auto" runs in each mode, as it resolves it
        for c in interleaved(a.codes, a.rounds, lambda code, kw: call_ms(g, code, kw), modes, a.order):
            rows.append(dict(graph=name, n=g.n, m=g.m, **c, picked=picked[c["mode"]] if c["code"] == "auto" else ""))
        pd.DataFrame(rows).to_csv(out / "e2e_scatter.csv", index=False)
        if a.crossing:
            as_crossing(pd.DataFrame(rows)).to_csv(out / "crossing.csv", index=False)
    df = pd.DataFrame(rows)
    s = df.groupby(["graph", "n", "code", "mode"], sort=False).ms.agg(["min", "median", "max"])
    s["max_over_min"] = s["max"] / s["min"]
    with pd.option_context("display.width", 200):
        print(s.round(2).to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
