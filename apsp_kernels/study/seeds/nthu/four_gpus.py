"""Notebook 09 beyond the paper: NTHU's multi-GPU FW on a machine with more than the paper's two GPUs.

The seed's claims are two-GPU claims, judged on the two-GPU campaigns alone (study.py keeps these runs out of
them, so no verdict moves).  Here, per machine (its cards from the provenance, never pooled with another machine or
model of card): strong scaling (speed-up and efficiency over the same machine's one-GPU time at the same n), the
share of broadcasts, and weak scaling where a ``--weak`` run is recorded.  Times are the slowest rank's device time,
the median over processes of each process's median (:func:`load.medians`), as the two-GPU table takes them."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ...method.text import fmt
from . import load
from .scaling import weak_points

KERNEL = "b32-dim3-branch"      # the kernel of the two-GPU strong-scaling runs, so the rows compare
SYNC = "row"                    # the pivot-row design, the seed's final one
MISSING = ("No run on a machine with more than two GPUs is recorded (a `*-nthu-multi` folder whose provenance "
           "counts more than 2 GPUs), so this section has no rows.")


def gpu_count(d):
    """The GPU count of the machine a run folder ran on (provenance ``gpu_count``; None where not recorded)."""
    c = load._provenance(Path(d)).get("gpu_count")
    try:
        return int(c)
    except (TypeError, ValueError):
        return None


def beyond_two(d):
    """Whether a run folder ran on a machine with more than two GPUs.  A run without a recorded count is not:
    it stays where it was before counts were recorded (the two-GPU campaigns)."""
    c = gpu_count(d)
    return c is not None and c > 2


def find_runs(roots=None):
    """The ``*-nthu-multi`` run folders measured on a machine with more than two GPUs, oldest first."""
    return [d for d in load.find_runs("multi", "all", roots=roots) if beyond_two(d)]


def with_machine(df, runs):
    """``df`` with each row's ``machine`` ('4 x NVIDIA H200', from its run folder's provenance): the series key,
    since a speed-up is only meaningful against the one-GPU time of the same machine."""
    if df is None or df.empty:
        return df
    return df.assign(machine=df["process"].map({Path(d).name: load.cards(d) for d in runs or ()}))


def load_runs(runs):
    """Their records (:func:`load.load`) with each row's machine (:func:`with_machine`)."""
    return with_machine(load.load(runs, "multi"), runs)


def _ok(df, kernel, label):
    if df is None or df.empty or "label" not in df:
        return pd.DataFrame()
    return df[(df["kernel"] == kernel) & (df["status"] == "ok") & (df["label"] == label)]


def strong_table(df, kernel=KERNEL, sync=SYNC):
    """One row per (machine, n, P): the device time T(P), the speed-up T(1) / T(P) over the same machine's one
    GPU at the same n, the efficiency T(1) / (P T(P)) (100% = ideal), the broadcast share of rank 0's time, and
    how many processes and repeats each number rests on (one process: no interval)."""
    cols = ["machine", "n (vertices)", "GPUs (count)", "processes (count)", "repeats (count)", "device time (ms)",
            "speed-up over one GPU (x)", "efficiency (%)", "broadcast share (%)"]
    d = _ok(df, kernel, "strong")
    if d.empty:
        return pd.DataFrame(columns=cols)
    d = d[(d["n_gpus"] == 1) | (d["variant"] == sync)]     # one GPU broadcasts nothing: its design is moot
    rows = []
    for (machine, n, P), g in d.groupby(["machine", "n", "n_gpus"]):
        one = d[(d["machine"] == machine) & (d["n"] == n) & (d["n_gpus"] == 1)]
        t1 = load.medians(one, ["n"], "kernel_ms_max").get(n, np.nan) if len(one) else np.nan
        t = load.medians(g, ["n"], "kernel_ms_max")[n]
        rows.append({"machine": machine, "n (vertices)": int(n), "GPUs (count)": int(P),
                     "processes (count)": g["process"].nunique(),
                     "repeats (count)": int(g.groupby("process").size().max()), "device time (ms)": t,
                     "speed-up over one GPU (x)": t1 / t, "efficiency (%)": 100 * t1 / (P * t),
                     "broadcast share (%)": 100 * load.medians(g, ["n"], "comm_share")[n] if P > 1 else np.nan})
    return pd.DataFrame(rows, columns=cols)


def weak_table(df, kernel=KERNEL):
    """Weak scaling per machine (:func:`scaling.weak_points`: n = n0 sqrt(P), efficiency T(1, n0) sqrt(P) /
    T(P, n)); empty where no ``--weak`` run is recorded."""
    cols = ["machine", "weak: n0 (vertices)", "GPUs (count)", "n (vertices)", "design", "weak: T(1 GPU, n0) (ms)",
            "device time (ms)", "weak efficiency (%)"]
    if df is None or df.empty or "machine" not in df:
        return pd.DataFrame(columns=cols)
    parts = []
    for machine, g in df.groupby("machine"):
        w = weak_points(g, kernel)
        if len(w):
            parts.append(pd.DataFrame({"machine": machine, "weak: n0 (vertices)": w["n0"].astype(int),
                                       "GPUs (count)": w["n_gpus"], "n (vertices)": w["n"], "design": w["variant"],
                                       "weak: T(1 GPU, n0) (ms)": w["t1_n0"], "device time (ms)": w["t"],
                                       "weak efficiency (%)": 100 * w["efficiency"]}))
    return pd.concat(parts, ignore_index=True)[cols] if parts else pd.DataFrame(columns=cols)


def provenance(runs):
    """Where the rows come from, one line a run folder: its cards, commit, date and NCCL."""
    out = []
    for d in runs or ():
        p = load._provenance(Path(d))
        out.append(f"`{Path(d).name}`: {load.cards(d)}, commit {str(p.get('git_commit') or 'unknown')[:12]}, "
                   f"{str(p.get('timestamp') or 'undated')[:10]}, NCCL {p.get('nccl_version', '?')}")
    return "; ".join(out)


def findings(strong, weak=None):
    """The tables in words: speed-up and efficiency at each P > 1 per machine and n, the range of the broadcast
    share, and the weak efficiencies where recorded."""
    if strong is None or strong.empty:
        return MISSING
    out = []
    many = strong[strong["GPUs (count)"] > 1]
    for (machine, n), g in many.groupby(["machine", "n (vertices)"]):
        each = ", ".join(f"{fmt(r['speed-up over one GPU (x)'])}x on {r['GPUs (count)']} GPUs "
                         f"({fmt(r['efficiency (%)'])}% efficient)" for _, r in g.iterrows())
        out.append(f"on {machine} at n = {n}: {each}")
    s = many["broadcast share (%)"].dropna()
    text = "Strong scaling " + "; ".join(out) + "."
    if len(s):
        text += f" Broadcasts take {fmt(s.min())}% to {fmt(s.max())}% of rank 0's device time."
    if weak is not None and len(weak):
        text += " Weak scaling: " + "; ".join(
            f"on {r['machine']} from n0 = {r['weak: n0 (vertices)']} on {r['GPUs (count)']} GPUs (n = {r['n (vertices)']}): "
            f"{fmt(r['weak efficiency (%)'])}% efficient" for _, r in weak.iterrows()) + "."
    else:
        text += " No weak-scaling run is recorded on these machines."
    if strong["processes (count)"].max() < 2:        # no spread over processes to show: say why the figure has none
        reps = int(strong["repeats (count)"].max())
        text += (" Each number rests on one process on one machine lease (no interval), "
                 + ("one repeat a setting." if reps == 1 else f"up to {reps} repeats a setting (the figure's points)."))
    return text


@dataclass
class Section:
    """What the notebook's four-GPU section shows: the run folders, their records, the tables and the words."""
    runs: list
    df: pd.DataFrame
    strong: pd.DataFrame
    weak: pd.DataFrame
    text: str


def section(roots=None, runs=None):
    """The four-GPU section from the recorded runs (``runs``: these folders instead of every recorded one)."""
    runs = find_runs(roots) if runs is None else list(runs)
    df = load_runs(runs)
    strong, weak = strong_table(df), weak_table(df)
    if not runs:
        return Section(runs, df, strong, weak, MISSING)
    text = f"**From the data** ({provenance(runs)}). " + findings(strong, weak)
    return Section(runs, df, strong, weak, text)
