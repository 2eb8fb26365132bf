"""Notebook 08's analysis of the Hochberg study (seed 002): the tables, intervals and findings of its
figures and claims, from a loaded batch (:mod:`.load`).  Every interval is the one estimator's
(method/estimate: over machine leases, paired inside each process)."""
from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd

from .... import paths
from ...method import crossings, estimate
from . import load as D
from .load import CPU, GPU, GRAPHS, NOSYNC, RUNS, TEXT, lists_of, select_rows
from ...method.text import MISSING, fmt, interval

LOGS = paths.RECORDED / "device-logs"


# ------------------------------------------------------------------ Fig. 2.3: his cycles
def cycles(st, graph):
    """Per n: his difference (mean, standard error), the event and end-to-end times and the all-core CPU
    FW's (median, 95% interval over the leases: :func:`times`; NaN ends on one lease), and whether his
    two times disagree."""
    g = select_rows(st.df, "cycles", GPU, graph=graph, status="ok")
    evs, ws = (times(st, "cycles", GPU, c, graph=graph) for c in ("event_ms_json", "with_ms_json"))
    cps = times(st, "cycles", CPU, "with_ms_json", graph=graph)
    rows = []
    for r in g.sort_values("n").to_dict("records"):
        ev, w, cp = (x.get(r["n"], estimate.NONE) for x in (evs, ws, cps))
        rows.append({"n": r["n"], "his difference (ms)": r["difference_ms"], "standard error (ms)": r["difference_se_ms"],
                     "events (ms)": ev[0], "events lo (ms)": ev[1], "events hi (ms)": ev[2],
                     "end-to-end (ms)": w[0], "end-to-end lo (ms)": w[1], "end-to-end hi (ms)": w[2],
                     "CPU (ms)": cp[0], "CPU lo (ms)": cp[1], "CPU hi (ms)": cp[2],
                     "leases (count)": min(x.leases for x in (ev, w)),
                     "methods disagree": r["methods_disagree"]})
    return pd.DataFrame(rows)


def cycles_at(st, sizes):
    """Fig. 2.3's numbers at a few sizes, as the report's table shows them."""
    out = []
    for graph in GRAPHS:
        t = cycles(st, graph)
        for r in t[t["n"].isin(sizes)].to_dict("records"):
            out.append({"graph": graph, "n": r["n"], "his difference +- 2 s.e. (ms)":
                        f"{fmt(r['his difference (ms)'])} +- {fmt(2 * r['standard error (ms)'])}",
                        "kernel, events [95% CI] (ms)": cell(r["events (ms)"], r["events lo (ms)"], r["events hi (ms)"]),
                        "end-to-end [95% CI] (ms)": cell(r["end-to-end (ms)"], r["end-to-end lo (ms)"], r["end-to-end hi (ms)"]),
                        "CPU, 16 threads [95% CI] (ms)": cell(r["CPU (ms)"], r["CPU lo (ms)"], r["CPU hi (ms)"]),
                        "CPU / GPU end-to-end (x)": r["CPU (ms)"] / r["end-to-end (ms)"],
                        "his two kernel times disagree": str(r["methods disagree"]).lower() == "true"})
    return pd.DataFrame(out)


def sm_table(st):
    s = select_rows(st.df, "sm_scaling", GPU, status="ok").sort_values("sm_granted")
    evs, ws = (times(st, "sm_scaling", GPU, c, by="sm_granted") for c in ("event_ms_json", "with_ms_json"))
    t0 = evs.get(s["sm_granted"].iloc[0], estimate.NONE).value
    rows = []
    for r in s.to_dict("records"):
        ev, w = evs.get(r["sm_granted"], estimate.NONE), ws.get(r["sm_granted"], estimate.NONE)
        rows.append({"SMs granted (count)": r["sm_granted"], "SMs its blocks ran on (count)": r["sm_seen"],
                     "kernel, events [95% CI] (ms)": cell(*ev), "his difference (ms)": r["difference_ms"],
                     "end-to-end [95% CI] (ms)": cell(*w),
                     f"speed-up over {s['sm_granted'].iloc[0]:.0f} SMs, events (x)": t0 / ev.value,
                     "ideal: SMs ratio (x)": r["sm_granted"] / s["sm_granted"].iloc[0]})
    return pd.DataFrame(rows)


def cell(v, lo, hi):
    """A time with its 95% interval, '2.31 [2.2, 2.43]'; on one lease the median alone, saying that it has
    no interval (one lease says nothing of how a second would differ)."""
    if v != v:
        return MISSING
    return interval(v, lo, hi, "") if lo == lo and hi == hi else f"{fmt(v)} (one lease: no interval)"


def times(st, stage, run, col, by="n", **sel):
    """{the point's ``by``: its time over its leases (estimate.interval of its per-process values, as
    :func:`per_process` gives them)}, for every point of ``run`` in ``stage`` matching ``sel``."""
    d = _ok_rows(st, stage, run, **sel)
    return {k: estimate.interval(s) for k, s in estimate.samples_by(d.assign(_v=_values(d, col)), "_v", by).items()}


def _ok_rows(st, stage, run, **sel):
    raw = st.raw if st.raw is not None else st.df.assign(process=st.run_dir.name, lease=st.run_dir.name)
    d = select_rows(raw, stage, run, **sel)
    d = d[d["status"] == "ok"]
    return d if "lease" in d else d.assign(lease=d["process"])


def _values(d, col):
    """One value per row: ``col`` a function of a row, or a JSON list of repeats (their median)."""
    if callable(col):
        return [float(col(r)) for r in d.to_dict("records")]
    return [float(np.median(v)) if v else np.nan for v in (json.loads(x) if isinstance(x, str) else [] for x in d[col])]


def per_process(st, stage, run, col="event_ms_json", **sel):
    """One value per process of a point (the median of its repeats there), keyed by (lease, process)
    (estimate.samples), from every process's rows (:attr:`Study.raw`); ``col``: a JSON list of repeats, or
    a function of a row giving one value."""
    d = _ok_rows(st, stage, run, **sel)
    return estimate.samples(d.assign(_v=_values(d, col)), "_v")


def difference_points(st, graph):
    """[(n, his difference / mean event time, lo, hi)]: the per-process ratio over the leases
    (estimate.interval)."""
    out = []
    for n in sorted(int(n) for n in select_rows(st.df, "cycles", GPU, graph=graph, status="ok")["n"]):
        e = estimate.interval(per_process(st, "cycles", GPU, D._his_ratio, graph=graph, n=n))
        out.append(estimate.Point(n, e))
    return out


def break_even(st, graph, time_col="wall_ms"):
    """(n, 95% interval, measured range) from which his fw.c beats the all-core CPU FW."""
    return crossings.crossover_of(st.meas.df[st.meas.df["stage"] == "cycles"], GPU[0], CPU[0], GPU[1], CPU[1],
                                  time_col=time_col, graph=graph)


# ------------------------------------------------------------------ Fig. 2.4: time against SMs
def sm_points(st, col="event_ms_json"):
    s = select_rows(st.df, "sm_scaling", GPU, status="ok").sort_values("sm_granted")
    return s["sm_granted"].to_numpy(float), [np.asarray(lists_of(r, col)) for r in s.to_dict("records")]


def sm_slope(st, col="event_ms_json"):
    """Slope of log(time) on log(SMs) with its 95% interval (estimate.slope: over the SM counts' per-process
    values, the scatter between counts included): (slope, lo, hi, points)."""
    sms = sorted(float(x) for x in select_rows(st.df, "sm_scaling", GPU, status="ok")["sm_granted"])
    if len(sms) < 2:
        return np.nan, np.nan, np.nan, len(sms)
    e = estimate.slope(sms, [per_process(st, "sm_scaling", GPU, col, sm_granted=x) for x in sms])
    return e.value, e.lo, e.hi, len(sms)


def fixed_part(st, col="event_ms_json"):
    """t = a + b / SMs fitted to the medians: (a, b) in ms -- the part no SM count shortens."""
    sms, ts = sm_points(st, col)
    b, a = np.polyfit(1 / sms, [np.median(t) for t in ts], 1)
    return float(a), float(b)


# ------------------------------------------------------------------ Sec. 2.4: explorations and the race
def ratio(st, num, den, n, col="event_ms_json", stage="explorations"):
    """time(num) / time(den) at n with its 95% interval (estimate.ratio: paired inside each process that ran
    both, over the leases)."""
    return estimate.ratio(per_process(st, stage, num, col, n=n), per_process(st, stage, den, col, n=n))


def ordering_points(st, slower, faster, sizes, col="event_ms_json"):
    """[(n, time(slower) / time(faster), lo, hi)]: the claim holds where the interval is above 1."""
    return [estimate.Point(int(n), ratio(st, slower, faster, n, col)) for n in sizes]



def exploration_sizes(st, multiple=None):
    ns = sorted(int(n) for n in st.df.loc[st.df["stage"] == "explorations", "n"].unique())
    return [n for n in ns if multiple is None or n % multiple]


def explorations(st):
    """Every exploration's kernel time, end-to-end time and his difference at each n, and its
    kernel time over fw.c as shipped (medians, 95% intervals over the leases; none on one lease)."""
    rows = []
    for r in st.df[st.df["stage"] == "explorations"].sort_values("n").to_dict("records"):
        run, ok = (r["algorithm"], r["variant"]), r["status"] == "ok"
        ev, w = (estimate.interval(per_process(st, "explorations", run, c, n=r["n"])) for c in ("event_ms_json", "with_ms_json"))
        rel = ratio(st, run, GPU, r["n"]) if ok else (np.nan,) * 3
        rows.append({"n": int(r["n"]), "run": RUNS.get(run, "/".join(run)), "status": r["status"],
                     "kernel, events [95% CI] (ms)": cell(*ev) if ok else "no time: wrong results",
                     "his difference (ms)": r["difference_ms"] if ok else np.nan,
                     "end-to-end [95% CI] (ms)": cell(*w) if ok else "-",
                     "kernel / fw.c as shipped [95% CI] (x)": interval(*rel, "") if ok else "-",
                     "row stride (count)": r.get("row_stride"), "_rel": rel})
    return pd.DataFrame(rows)


def race(st):
    """Per graph class: how often, and how, the kernel without __syncthreads() was wrong, beside its
    control (the same kernel with the barrier, same inputs)."""
    rows = []
    for kind, g in st.df[st.df["stage"] == "race"].groupby("graph", sort=False):
        ns, bad, ctl = g[g["variant"] == NOSYNC[1]], None, g[g["variant"] == TEXT[1]]
        bad = ns[ns["status"] == "failed_verification"]
        entries = int(sum(n * n * k for n, k in zip(ns["n"], ns["repeats"])))
        rows.append({"graph": kind, "sizes": ", ".join(str(n) for n in sorted(set(ns["n"]))),
                     "wrong runs without the barrier (count)": int(ns["wrong_runs"].sum()),
                     "runs (count)": int(ns["repeats"].sum()),
                     "wrong entries (count)": int(ns["wrong_entries"].sum()),
                     "wrong entries, share (%)": 100 * ns["wrong_entries"].sum() / entries,
                     "below the true distance (count)": int(ns["undershoots"].sum()),
                     "refused as negative cycles (count)": int(ns["spurious_negative_cycles"].sum()),
                     "first wrong entry (i, j, got, true)": bad["first_difference"].iloc[0] if len(bad) else "-",
                     "wrong runs with the barrier (count)": int(ctl["wrong_runs"].sum()),
                     "control runs (count)": int(ctl["repeats"].sum())})
    return pd.DataFrame(rows)


def sanitizer(st):
    """compute-sanitizer's summary lines (scripts/sanitize.sh) from the newest device log that is not
    later than this results folder: {run: (exit code, errors reported, line)}, and the log's path."""
    stamp = st.run_dir.name[:13].replace("-", "")
    logs = sorted(p for p in LOGS.glob("*-sanitize.log")
                  if re.search(r"-(\d{8})-(\d{4})-", p.name) and "".join(re.search(r"-(\d{8})-(\d{4})-", p.name).groups()) <= stamp)
    if not logs:
        return {}, None
    out = {}
    for line in logs[-1].read_text(errors="replace").splitlines():
        m = re.match(r"(\S+): exit (\d+), .*SUMMARY: (.*)$", line)
        if m:
            errs = re.search(r"(\d+) errors?", m.group(3))
            out[m.group(1)] = (int(m.group(2)), int(errs.group(1)) if errs else None, m.group(3).strip())
    return out, logs[-1]


def faithful_runs(st):
    """(wrong runs, runs) of his kernel with the barrier over the whole recorded study."""
    d = st.df[(st.df["algorithm"] == GPU[0]) & st.df["status"].isin(["ok", "failed_verification"])]
    return int(d["wrong_runs"].fillna(0).sum()), int(d["repeats"].sum())

