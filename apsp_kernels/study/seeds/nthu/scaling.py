"""Notebook 09's P-GPU scaling from the recorded ``*-nthu-multi`` runs: strong scaling (fixed n), weak
scaling (n^2 per GPU fixed, n = n0 sqrt(P)) with its efficiency, and the partition for P GPUs from
the schedule alone (the dry run for 4 and 8 GPUs).  Times are the slowest rank's device time, the
median over processes of each process's median (:func:`nthu_report.medians`)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ....algorithms.gpu.multi import schedule
from .load import medians
from ...method.text import fmt


def plan_table(n=32768, block=32, ranks=(2, 4, 8)):
    """The partition and the bytes per round for P GPUs, from the schedule alone (no GPU): the
    dry run behind the 4- and 8-GPU issue."""
    df = pd.DataFrame(schedule.dry_run(n, block, ranks))
    g = df.groupby(["ranks", "sync"]).agg(rows=("block_rows", "max"), recv=("received_bytes_per_round", "max"),
                                          payload=("payload_bytes_per_round", "first"), mem=("device_bytes", "first"))
    g = g.reset_index()
    return pd.DataFrame({"GPUs (count)": g["ranks"], "design": g["sync"], "block rows per GPU, most (count)": g["rows"],
                         "broadcast per round (MB)": g["payload"] / 1e6, "received per round by one GPU, most (MB)": g["recv"] / 1e6,
                         "matrix on each GPU (GB)": g["mem"] / 1e9})


def weak_efficiency(t1_n0, n_gpus, t):
    """T(1, n0) sqrt(P) / T(P, n0 sqrt P): 1 = ideal (n^3 work on P GPUs with n^2 each takes sqrt(P) times T(1, n0))."""
    return t1_n0 * np.sqrt(n_gpus) / t


def weak_n0(multi):
    """Each row's weak-scaling n0 (its n is n0 sqrt(P)): ``weak_n0`` where recorded, else (runs before
    ``--weak-from``) the smallest n of the same process, where those runs started; NaN on strong rows."""
    if multi is None or multi.empty:
        return pd.Series(dtype=float)
    rec = pd.to_numeric(multi["weak_n0"], errors="coerce") if "weak_n0" in multi else pd.Series(np.nan, multi.index)
    smallest = multi.groupby("process")["n"].transform("min")
    return rec.fillna(smallest).where(multi["label"] == "weak")


def weak_points(multi, kernel="b32-dim3-branch"):
    """Weak scaling (n^2 per GPU fixed, n = n0 sqrt(P)), one row per (n0, P > 1, design): T(1, n0), T(P, n),
    and the efficiency T(1, n0) sqrt(P) / T(P, n0 sqrt P) (1 = ideal: n^3 work on P GPUs takes sqrt(P) times
    T(1, n0)).  Times: the slowest rank's device time, :func:`medians` over processes; T(1, n0) from every
    one-GPU solve at n0 of this kernel (strong or weak)."""
    cols = ["n0", "n_gpus", "n", "variant", "t1_n0", "t", "efficiency"]
    if multi is None or multi.empty or "label" not in multi:
        return pd.DataFrame(columns=cols)
    d = multi.assign(n0=weak_n0(multi))
    d = d[(d["kernel"] == kernel) & (d["status"] == "ok")]
    one = medians(d[d["n_gpus"] == 1], ["n"], "kernel_ms_max")
    w = d[(d["label"] == "weak") & (d["n_gpus"] > 1)]
    if w.empty:
        return pd.DataFrame(columns=cols)
    g = medians(w, ["n0", "n_gpus", "n", "variant"], "kernel_ms_max").rename("t").reset_index()
    g["t1_n0"] = [one.get(int(n0), np.nan) for n0 in g["n0"]]
    g["efficiency"] = weak_efficiency(g["t1_n0"], g["n_gpus"], g["t"])
    return g[cols]


def scaling_table(multi, kernel="b32-dim3-branch"):
    """Strong and weak scaling: the slowest rank's device time per (label, n, P, design) (:func:`medians`
    over processes), the speed-up over one GPU at the same n, the share of broadcasts; weak rows also
    their n0 (n = n0 sqrt(P)), T(1 GPU, n0) and, on P > 1 GPUs, the weak efficiency (:func:`weak_points`)."""
    if multi is None or multi.empty:
        return pd.DataFrame()
    d = multi.assign(n0=weak_n0(multi).fillna(-1))    # -1: a strong row (groupby drops NaN keys)
    d = d[(d["kernel"] == kernel) & (d["status"] == "ok")]
    if d.empty:
        return pd.DataFrame()
    keys = ["label", "n0", "n", "n_gpus", "variant"]
    g = pd.concat([medians(d, keys, "kernel_ms_max").rename("t"), medians(d, keys, "comm_share").rename("share")],
                  axis=1).reset_index()
    one = medians(d[d["n_gpus"] == 1], ["n"], "kernel_ms_max")
    g["speed-up over one GPU (x)"] = [one.get(n, np.nan) / t for n, t in zip(g["n"], g["t"])]
    g["n0"] = g["n0"].where(g["n0"] > 0)
    g["t1_n0"] = [one.get(int(n0), np.nan) if n0 == n0 else np.nan for n0 in g["n0"]]
    g["efficiency"] = np.where(g["n_gpus"] > 1, 100 * weak_efficiency(g["t1_n0"], g["n_gpus"], g["t"]), np.nan)
    g = g.sort_values(["label", "n0", "n", "n_gpus", "variant"], na_position="first", kind="stable")
    g = g.rename(columns={"label": "scaling", "n0": "weak: n0 (vertices)", "n_gpus": "GPUs (count)", "variant": "design",
                          "t": "device time (ms)", "share": "broadcast share (%)", "t1_n0": "weak: T(1 GPU, n0) (ms)",
                          "efficiency": "weak efficiency (%)"})
    g["broadcast share (%)"] = 100 * g["broadcast share (%)"]
    return g[["scaling", "n", "GPUs (count)", "design", "device time (ms)", "broadcast share (%)", "speed-up over one GPU (x)",
              "weak: n0 (vertices)", "weak: T(1 GPU, n0) (ms)", "weak efficiency (%)"]].reset_index(drop=True)


def weak_findings(multi, kernel="b32-dim3-branch"):
    """The weak efficiencies in words (what the scaling table's weak rows say)."""
    w = weak_points(multi, kernel)
    if w.empty:
        return "no weak-scaling run recorded"
    parts = [f"from n0 = {int(r.n0)} on {r.n_gpus} GPUs ({r.variant} design, n = {r.n}): T(1, n0) = {fmt(r.t1_n0)} ms, "
             f"T({r.n_gpus}, n) = {fmt(r.t)} ms, efficiency {fmt(100 * r.efficiency)}%" for r in w.itertuples()]
    return "; ".join(parts) + "."
