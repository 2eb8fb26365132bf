"""Notebook 11's host path rows (``scripts/host_path_probe.py``, recorded under
data/results/solver/*-host-path-*.csv): per graph and code, a result left on the device, copied to the host as
``shortest_paths`` does it (the new result's pages touched while the GPU solves) and into fresh memory after the
solve (the path before), float64 and int32; medians of warm calls."""
from __future__ import annotations

import pandas as pd

from .suite import _dated, _date

COLUMNS = {"device": "on the device (ms)", "host": "float64, touched (ms)", "fresh": "float64, fresh (ms)",
           "int32": "int32, touched (ms)", "int32-fresh": "int32, fresh (ms)"}


def load(where=None):
    """The newest day's host path rows that time both ways (a ``fresh`` variant), one frame, or an empty one."""
    both = [(f, t) for f in _dated("solver", where, "*-host-path-*.csv")
            if "fresh" in set((t := pd.read_csv(f)).variant)]
    if not both:
        return pd.DataFrame()
    day = _date(both[-1][0])
    return pd.concat([t for f, t in both if _date(f) == day], ignore_index=True)


def table(rows):
    """One row per graph and code: each variant's median (ms) and what touching saved, in float64 and int32."""
    wide = rows.pivot_table(index=["graph", "n", "code"], columns="variant", values="median_ms", sort=False)
    out = wide[[v for v in COLUMNS if v in wide]].rename(columns=COLUMNS).round(1)
    out["float64 saved (%)"] = (100 * (1 - wide["host"] / wide["fresh"])).round(0) + 0.0      # + 0.0: no -0
    if "int32-fresh" in wide:
        out["int32 saved (%)"] = (100 * (1 - wide["int32"] / wide["int32-fresh"])).round(0) + 0.0
    return out.reset_index().rename(columns={"n": "n (vertices)"})


def finding(rows):
    """The sentence, computed: per code the range of what touching saved to the host in float64, and its largest
    absolute saving."""
    if not len(rows):
        return "*No host path rows recorded (`scripts/host_path_probe.py` on the device).*"
    t = table(rows)
    parts = []
    for code, c in t.groupby("code", sort=False):
        lo, hi = c["float64 saved (%)"].min(), c["float64 saved (%)"].max()
        best = c.loc[(c["float64, fresh (ms)"] - c["float64, touched (ms)"]).idxmax()]
        parts.append(f"`{code}` {lo:.0f}" + (f"-{hi:.0f}" if hi != lo else "") + " % (largest: "
                     f"{best.graph} {best['n (vertices)']:,}, {best['float64, fresh (ms)']:,.1f} to "
                     f"{best['float64, touched (ms)']:,.1f} ms)")
    return ("A float64 result to the host, for the codes whose rows are done only at the end: the new result's pages "
            "touched by the host's threads while the GPU solves, against the fresh array of before, saved "
            + "; ".join(parts) + ". Medians of warm calls, both ways in one process (a paired comparison), one H200.")
