"""Notebook 11's elimination section: ``tuned_elimination`` against ``tuned_frontier`` end to end as n grows
(``scripts/elimination_gpu_measure.py --e2e``, recorded under data/results/elimination/), the crossing auto learned
from (``*-crossing.csv``) and the check of auto's picks measured after its rule was fixed (``*-auto-check*.csv``)."""
from __future__ import annotations

import math

import pandas as pd

from .... import elimination_choice as E
from ....algorithms import registry
from ....structure_suite import within_bound

# the elimination and the code it replaces (registry roles, as elimination_choice reads them)
CODES = tuple(registry.by_role(r).name for r in (E.TO, E.FROM))
RESULTS = {"device": "result left on the GPU (device=True)", "host": "float64 result on the host"}


def load(where=None):
    """(the crossing rows: the file auto's rule learned from, the auto-check rows with a ``file`` column), or empty
    frames."""
    d = E.folder() if where is None else where
    c = E.crossing(where)
    checks = sorted(d.glob("*-auto-check*.csv"))
    rows = pd.read_csv(d / c.source) if c is not None else pd.DataFrame()
    check = (pd.concat([pd.read_csv(f).assign(file=f.name) for f in checks], ignore_index=True) if checks
             else pd.DataFrame())
    return rows, check


def _cls(graph):
    return graph.split(" ")[0].replace("kNN6", "kNN")


def long(rows):
    """One row per (graph, code or auto, result) with its end-to-end ms: the rows as the figure plots them."""
    out = []
    for r in rows.itertuples(index=False):
        r = r._asdict()
        for res in RESULTS:
            for c in CODES + ("auto",):
                ms = r.get(f"{c}_e2e_{res}_ms", math.nan)
                if isinstance(ms, float) and not math.isnan(ms):
                    out.append(dict(graph=_cls(r["graph"]), n=int(r["n"]), code=c, result=res, ms=ms,
                                    pick=r.get(f"auto_{res}_pick", "")))
    return pd.DataFrame(out)


def figure(rows, check):
    """End-to-end ms against n (log-log), one panel per result: both codes on each graph class (the crossing rows
    and the check's), auto's own calls as black crosses."""
    import matplotlib.pyplot as plt
    t = long(pd.concat([rows, check], ignore_index=True)) if len(check) else long(rows)
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.8), sharey=True)
    colour = {c: f"C{i}" for i, c in enumerate(dict.fromkeys(t.graph))}       # one colour a graph class
    for ax, (res, what) in zip(axes, RESULTS.items()):
        p = t[t.result == res]
        for (cls, code), s in p[p.code != "auto"].groupby(["graph", "code"]):
            s = s.groupby("n").ms.median()                                       # two runs at a size: their median
            ax.plot(s.index, s.values, marker="o" if code == CODES[0] else "s", color=colour[cls],
                    ls="-" if code == CODES[0] else "--", label=f"{code}, {cls}")
        a = p[p.code == "auto"]
        if len(a):
            ax.scatter(a.n, a.ms, marker="x", color="black", s=40, zorder=5, label="auto's own call")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("n (vertices, log scale)")
        ax.set_title(what, fontsize=10)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("end to end (ms, log scale)")
    axes[1].legend(fontsize=7, ncol=2, loc="upper left")
    fig.suptitle("tuned_elimination (solid) against tuned_frontier (dashed) through shortest_paths, one H200 "
                 "(warm; each point a run's median of 3 or 7 calls)")
    fig.tight_layout()
    return fig


def crossing_table(where=None):
    """The learned ratios (elimination's time over tuned_frontier's, the worse graph of each size) per size."""
    c = E.crossing(where)
    if c is None:
        return pd.DataFrame()
    return pd.DataFrame({"n (vertices)": c.sizes,
                         **{f"tuned_elimination / tuned_frontier end to end, {RESULTS[r]}, the worse graph (x)":
                            [round(x, 2) for x in c.ratios[r]] for r in RESULTS}})


def check_table(check):
    """Per checked row and result: auto's pick, its own time, the two codes' and whether each is within the bound."""
    out = []
    for r in check.itertuples(index=False):
        r = r._asdict()
        for res in RESULTS:
            auto = r.get(f"auto_e2e_{res}_ms", math.nan)
            if math.isnan(auto):
                continue
            times = {c: r.get(f"{c}_e2e_{res}_ms", math.nan) for c in CODES}
            times = {c: v for c, v in times.items() if not math.isnan(v)}
            best = min(times.values())
            pick = r[f"auto_{res}_pick"]
            out.append({"graph": r["graph"], "result": res, "auto picks": pick,
                        "auto's call (ms)": round(auto, 1),
                        **{f"{c} (ms)": round(times[c], 1) if c in times else None for c in CODES},
                        # a re-run that timed the elimination alone checks auto's call, not its pick
                        "pick within 1.25x + 2 ms": (bool(within_bound(times[pick], best)) if len(times) == len(CODES)
                                                     else None),
                        "auto's call within": bool(within_bound(auto, best)),
                        "run": "median of 7" if "repeat7" in r["file"] else "median of 3"})
    return pd.DataFrame(out)


def finding(rows, check):
    """The section's sentence, computed from the rows: where elimination wins with each result, and auto's record."""
    if not len(rows):
        return "No elimination rows recorded."
    c = E.crossing()
    parts = []
    for res in RESULTS:
        meas = [(n, x) for n, x in zip(c.sizes, c.ratios[res]) if not math.isnan(x)]
        wins = [(n, x) for n, x in meas if x < 1]
        if not wins:
            continue
        (n0, x0), (n1, x1) = wins[0], meas[-1]
        before = [(n, x) for n, x in meas if n < n0]
        start = (f"at every size measured (the smallest, n = {n0:,}: {x0:.2f}x its time" if not before else
                 f"from n = {n0:,} ({x0:.2f}x its time; {before[-1][1]:.2f}x at n = {before[-1][0]:,}")
        parts.append(f"with the {RESULTS[res]} {start}" + (f"; {x1:.2f}x at n = {n1:,})" if n1 != n0 else ")"))
    t = check_table(check) if len(check) else pd.DataFrame()
    both = t.dropna(subset=["pick within 1.25x + 2 ms"]) if len(t) else t
    calls = int(t["auto's call within"].astype(bool).sum()) if len(t) else 0
    picks = (f" Checked after the rule was fixed, the picked code's own time was within 1.25x + 2 ms of the faster "
             f"code on {int(both['pick within 1.25x + 2 ms'].astype(bool).sum())} of the {len(both)} rows that timed "
             f"both, and auto's own call on {calls} of {len(t)}" if len(both) else "")
    return ("End to end, `tuned_elimination` beats `tuned_frontier` on the grid and the kNN graph (the worse of the "
            "two at each size; time as a fraction of tuned_frontier's) " + "; ".join(parts)
            + ". `method=\"auto\"` takes it there on graphs with small separators." + picks + ("." if picks else ""))
