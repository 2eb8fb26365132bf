"""How much a call's place in an interleaved round moves its time, read from the recorded rounds: wherever
``method="auto"`` ran a code that was also timed by name in the same rounds (``scripts/e2e_scatter_probe.py`` rows),
auto's median over the named code's median, the same code timed in two places of the round.

    python3 scripts/order_effect.py [--min-n 16000] [--mode e2e_ms]

Prints, by the code auto ran and by whether the named code was the first code of each round, how the ratios
spread (count, median, least, largest).  Below 1: auto's calls of the code were the faster."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def ratios(where=None):
    """One row per (file, graph, n, mode) where auto's pick was also timed by name: auto's median over its."""
    from apsp_kernels import paths
    out = []
    for f in sorted(Path(where or paths.RECORDED).rglob("*.csv")):
        head = pd.read_csv(f, nrows=1)
        if not {"code", "mode", "round", "ms", "picked"} <= set(head.columns):
            continue
        d = pd.read_csv(f)
        first = d.code.iloc[0] if len(d) else None              # the first code of a fixed-order round
        for (g, n, mode), t in d.groupby(["graph", "n", "mode"]):
            auto = t[t.code == "auto"]
            if not len(auto) or not len(named := t[t.code == auto.picked.iloc[0]]):
                continue
            out.append(dict(file=f.name, graph=g, n=int(n), mode=mode, code=auto.picked.iloc[0],
                            named_first=named.code.iloc[0] == first, ratio=auto.ms.median() / named.ms.median()))
    return pd.DataFrame(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--min-n", type=int, default=0)
    ap.add_argument("--mode", default=None, help="e2e_ms, e2e_int32_ms or e2e_device_ms (default: every mode)")
    a = ap.parse_args(argv)
    r = ratios()
    r = r[(r.n >= a.min_n) & ((r["mode"] == a.mode) if a.mode else True)]
    if not len(r):
        print("no rounds where auto's pick was also timed by name")
        return 0
    s = r.groupby(["code", "named_first"]).ratio.agg(["count", "median", "min", "max"])
    print(f"{len(r)} (graph, n, mode) in {r.file.nunique()} files; auto's median over the named code's")
    print(s.round(3).to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
