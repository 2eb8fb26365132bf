"""Notebook 11's tuned line across the GPUs of one host, from the recorded multi-GPU benchmark files.

Files (``data/results/benchmarks/``, this machine's results first): ``<device>-<date>-multi-gpu-x<P>.csv``
(``scripts/multi_gpu_bench.py``: ``tuned_fw`` on one GPU, then ``tuned_fw_multi`` with its block rows split over
1, 2, 4 ... GPUs, Kemp's random graph of seed n) and ``<device>-<date>-multi-sources-x<P>.csv``
(``scripts/multi_sources_bench.py``: ``tuned_frontier`` with its sources split over the GPUs, every rank's rows
streamed into one host result; with ``--on-device``, ``result`` "left on each GPU": the kernels alone, kind
``sources_device``); ``x<P>`` is how many GPUs the machine had.  Every file found joins; a file of another GPU model (its provenance's ``gpu``) is its own
group, never pooled with another model's rows.

Times are the slowest rank's kernel time (CUDA events).  The speed-up over one GPU is taken against the
established one-GPU code for the split FW (``tuned_fw`` on one GPU, the same model of GPU and n) and against the
one-GPU call of the same code and graph for the sources split.  A row whose ``verified`` is not true is shown as
failed and never used as a time; the scatter between repeats is shown as min-max beside every median.

Beside them, NTHU's faithful multi-GPU FW (``nthu_multi``, the paper's code) from the recorded ``*-nthu-multi``
runs of the same model of GPU at the same n."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd

from .... import costs, paths
from ... import records
from ...method import codes
from ...method.text import fmt

_C = codes.load("tuned_multi")                   # data/codes.yaml: the codes this section sets side by side
FW_SPLIT, FW_ONE, FW_PAPER = (_C[k].algorithm for k in ("split_fw", "one_gpu_fw", "paper_multi"))
PATTERNS = {"fw": "*-multi-gpu-*.csv", "sources": "*-multi-sources-*.csv"}
BASELINE = {FW_SPLIT: FW_ONE}       # a split code -> the established one-GPU code it is measured against
FW_GRAPH = "kemp"                                # multi_gpu_bench.py: Kemp's random graph, degree 2-6, seed n
SPLIT = {"fw": "block rows split", "sources": "sources split", "sources_device": "sources split, rows left on each GPU"}
ON_DEVICE = "left on each GPU"                   # multi_sources_bench.py --on-device: its rows' ``result``
NTHU_LABEL = "nthu_multi: NTHU's multi-GPU FW (the paper's code, faithful)"
_MACHINE = re.compile(r"(?:^|-)x(\d+)(?:-|$)")     # "-x4" in the file name: the host's GPUs, where the provenance lacks them


# ------------------------------------------------------------------ files
def find(where=None):
    """Every multi-GPU benchmark file (both patterns) under ``where`` (default: this machine's results, then the
    recorded ones; a name found in both is read from the first), sorted by name."""
    found = {}
    for d in ([Path(where)] if where else costs.benchmark_folders()):
        if Path(d).is_dir():
            for pat in PATTERNS.values():
                for f in sorted(Path(d).glob(pat)):
                    found.setdefault(f.name, f)
    return sorted(found.values(), key=lambda f: f.name)


def _provenance(csv):
    p = Path(csv).with_name(Path(csv).name[:-4] + ".provenance.json")
    return json.loads(p.read_text()) if p.exists() else {}


def _kind(name):
    return "sources" if "-multi-sources-" in name else "fw"


def read(files):
    """The rows of ``files`` as one table: ``kind`` (fw | sources), ``gpu`` (the model: the provenance's, else the
    file name's), ``machine`` ('4 x NVIDIA H200': the GPUs the machine had), ``graph`` (``kemp`` for the FW files),
    ``verified`` a bool (missing or unreadable: False), ``file`` the file's name."""
    frames = []
    for f in map(Path, files):
        t = pd.read_csv(f, dtype={"checksum": str, "code": str, "graph": str, "checked_against": str})
        m = costs.FILE.match(f.name)
        prov = _provenance(f)
        gpu = prov.get("gpu") or (m.group("device").replace("_", " ") if m else "unknown GPU")
        x = _MACHINE.search((m.group("tag") or "") if m else "")
        count = prov.get("gpus_on_host") or (x.group(1) if x else None)
        t["kind"] = _kind(f.name)
        if "result" in t:                        # rows left on each GPU time the kernels without the host's intake
            t.loc[t["result"].astype(str) == ON_DEVICE, "kind"] = "sources_device"
        t["gpu"] = gpu
        t["machine"] = f"{count} x {gpu}" if count else gpu
        t["date"] = m.group("date") if m else ""
        t["commit"] = str(prov.get("git_commit") or "")[:12]
        t["file"] = f.name
        frames.append(t)
    cols = ["kind", "gpu", "machine", "date", "commit", "file", "code", "graph", "n", "n_gpus", "repeat", "kernel_ms",
            "updates_per_s", "checksum", "verified", "checked_against"]
    df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=cols)
    for c in cols:
        if c not in df:
            df[c] = np.nan
    df["graph"] = df["graph"].astype(object).where(df["graph"].notna(), FW_GRAPH)
    df["repeat"] = pd.to_numeric(df["repeat"], errors="coerce").fillna(0).astype(int)
    for c in ("n", "n_gpus", "kernel_ms", "updates_per_s"):
        df[c] = pd.to_numeric(df[c], errors="coerce")
    df["verified"] = df["verified"].map(lambda v: str(v).strip().lower() == "true")
    return df


def load(where=None):
    return read(find(where))


def load_for(batch=""):
    """The multi-GPU files that go with notebook 11's ``batch``: those of its folder where it names a folder (or a
    file: that file's folder), else (a batch's name, or "" for the newest) the benchmark folders'."""
    p = Path(batch) if batch else None
    if p is not None and p.is_dir():
        return load(p)
    if p is not None and p.suffix == ".csv" and p.exists():
        return load(p.parent)
    return load()


# ------------------------------------------------------------------ the table
def _baseline(df, r):
    """(one GPU's verified kernel times (ms), what they are): the established code's for a split code, else the
    same code's on one GPU; the same model of GPU, graph and n (the same machine where it ran there)."""
    code = BASELINE.get(r["code"], r["code"])
    d = df[(df["gpu"] == r["gpu"]) & (df["code"] == code) & (df["graph"] == r["graph"]) & (df["n"] == r["n"])
           & (df["n_gpus"] == 1) & df["verified"] & df["kernel_ms"].notna()]
    if r["kind"] != "fw":                        # a sources split against its own call of the same kind
        d = d[d["kind"] == r["kind"]]
    if (d["machine"] == r["machine"]).any():
        d = d[d["machine"] == r["machine"]]
    return d["kernel_ms"], ("its own call on 1 GPU" if r["kind"] != "fw" else f"{code} on 1 GPU")


def points(df):
    """One row per group (GPU model, machine, code, graph, n, GPU count): repeats, failed, the median / min / max
    of the verified kernel times (ms), one GPU's median (ms), the speed-up (median, and its min-max from the
    extreme repeats), the parallel efficiency (%) and, for the FW, the rate (updates/s, n^3 per second)."""
    out = []
    keys = ["gpu", "machine", "kind", "code", "graph", "n", "n_gpus"]
    for k, g in df.groupby(keys, sort=False):
        r = dict(zip(keys, k))
        ok = g[g["verified"] & g["kernel_ms"].notna()]["kernel_ms"]
        base, what = _baseline(df, r)
        t1 = float(base.median()) if len(base) else np.nan
        med = float(ok.median()) if len(ok) else np.nan
        r.update(repeats=len(g), failed=int(len(g) - len(ok)), median_ms=med,
                 min_ms=float(ok.min()) if len(ok) else np.nan, max_ms=float(ok.max()) if len(ok) else np.nan,
                 one_gpu_ms=t1, against=what, repeat_ms=list(ok))
        r["speedup"] = t1 / med
        r["speedup_lo"], r["speedup_hi"] = t1 / r["max_ms"], t1 / r["min_ms"]
        r["efficiency"] = 100 * r["speedup"] / r["n_gpus"]
        r["updates_per_s"] = r["n"] ** 3 / (med / 1e3) if r["kind"] == "fw" else np.nan
        # the sources split streams each rank's n / P rows into the host result while its kernel runs, so its time
        # is bounded by how fast the host takes them: the rate a rank's rows left at (int32 rows, bytes/s)
        r["intake_Bps"] = (r["n"] / r["n_gpus"]) * r["n"] * 4 / (med / 1e3) if r["kind"] == "sources" else np.nan
        out.append(r)
    cols = keys + ["repeats", "failed", "median_ms", "min_ms", "max_ms", "one_gpu_ms", "against", "repeat_ms", "speedup",
                   "speedup_lo", "speedup_hi", "efficiency", "updates_per_s", "intake_Bps"]
    p = pd.DataFrame(out, columns=cols)
    order = {FW_ONE: 0}
    p["_o"] = p["code"].map(order).fillna(1)
    p = p.sort_values(["gpu", "kind", "graph", "n", "_o", "n_gpus", "machine"], kind="stable")
    return p.drop(columns="_o").reset_index(drop=True)


def _range(lo, hi, scale=1.0):
    if lo != lo or hi != hi:
        return "-"
    return f"{fmt(lo * scale, 4)}-{fmt(hi * scale, 4)}"


def _verified(r):
    if r["failed"] == 0:
        return f"yes ({r['repeats']} of {r['repeats']})"
    return f"FAILED ({r['failed']} of {r['repeats']})" + ("" if r["failed"] == r["repeats"] else
                                                         "; the time is the verified repeats'")


def table(df):
    """Per GPU model, code, graph, n and GPU count: the median kernel time (s) and its min-max over the repeats,
    the speed-up over one GPU (and its min-max), the parallel efficiency, T updates/s for the FW, the repeats and
    whether every result was verified (a failed group shows no time)."""
    p = points(df)
    return pd.DataFrame({
        "machine": p["machine"],
        "code": [f"{c} (the one-GPU code)" if c in BASELINE.values() else f"{c} ({SPLIT[k]})" for c, k in zip(p["code"], p["kind"])],
        "graph": p["graph"], "n (vertices)": p["n"].astype("Int64"), "GPUs (count)": p["n_gpus"].astype("Int64"),
        "repeats (count)": p["repeats"], "kernel time, median (s)": p["median_ms"] / 1e3,
        "kernel time, min-max (s)": [_range(a, b, 1e-3) for a, b in zip(p["min_ms"], p["max_ms"])],
        "speed-up over one GPU (x)": p["speedup"],
        "speed-up, min-max (x)": [_range(a, b) for a, b in zip(p["speedup_lo"], p["speedup_hi"])],
        "parallel efficiency (%)": p["efficiency"], "throughput (T updates/s)": p["updates_per_s"] / 1e12,
        "rows into the host, a rank (GB/s)": p["intake_Bps"] / 1e9,
        "one GPU is": p["against"], "verified": [_verified(r) for _, r in p.iterrows()]})


# ------------------------------------------------------------------ NTHU's faithful code beside it
def nthu_runs(roots=None):
    """Every recorded ``*-nthu-multi`` run folder that holds its ``nthu-multi.csv`` (this machine's results first)."""
    found = {}
    for root in roots or (paths.RESULTS, paths.RECORDED):
        if Path(root).is_dir():
            for d in sorted(Path(root).glob("*-nthu-multi")):
                if (d / "nthu-multi.csv").exists():
                    found.setdefault(d.name, d)
    return [found[k] for k in sorted(found)]


def nthu_beside(multi, roots=None):
    """NTHU's faithful multi-GPU FW on the same model of GPU at the sizes where ``tuned_fw_multi`` ran on several
    GPUs (strong scaling, ``status`` ok), one row a solve: its slowest rank's kernel time, its sync design and kernel,
    its run folder, and whether it was verified (its recorded flag, or its checksum equal to ``tuned_fw``'s one-GPU
    Fletcher-64 of the same graph)."""
    cols = ["gpu", "machine", "run", "n", "n_gpus", "sync", "kernel", "repeat", "kernel_ms", "verified", "how"]
    fw = multi[(multi["kind"] == "fw")] if len(multi) else multi
    if fw is None or fw.empty:
        return pd.DataFrame(columns=cols)
    split = fw[(fw["code"] == FW_SPLIT) & (fw["n_gpus"] > 1)]
    sizes = {(g, int(n)) for g, n in zip(split["gpu"], split["n"])}
    sums = {(r.gpu, int(r.n)): str(r.checksum) for r in fw[(fw["code"] == FW_ONE) & fw["verified"]].itertuples()}
    out = []
    for d in nthu_runs(roots):
        prov = json.loads((d / "provenance.json").read_text()) if (d / "provenance.json").exists() else {}
        gpu = prov.get("gpu", "unknown GPU")
        t = pd.read_csv(d / "nthu-multi.csv", dtype={"checksum": str})
        t = t[t["n"].map(lambda n: (gpu, int(n)) in sizes)]
        if "status" in t:
            t = t[t["status"].astype(str) == "ok"]
        if "label" in t:
            t = t[t["label"].astype(str) == "strong"]
        for r in t.itertuples():
            flag = str(getattr(r, "verified", "")).strip().lower() == "true"
            same = sums.get((gpu, int(r.n))) == str(r.checksum)
            how = ("equal to its one-GPU result" if flag else
                   "checksum equal to tuned_fw's one-GPU Fletcher-64" if same else "not checked")
            out.append(dict(gpu=gpu, machine=f"{prov.get('gpu_count', '?')} x {gpu}", run=str(records.rel(d)),
                            n=int(r.n), n_gpus=int(r.n_gpus), sync=str(r.sync), kernel=str(r.kernel),
                            repeat=int(getattr(r, "repeat", 0)), kernel_ms=float(getattr(r, "kernel_ms_max", r.kernel_ms)),
                            verified=flag or same, how=how))
    return pd.DataFrame(out, columns=cols)


def nthu_table(nthu, multi):
    """NTHU's faithful multi-GPU FW beside the split tuned FW, per model of GPU, n, GPU count, sync design and
    kernel: the median kernel time of its verified solves (all runs pooled; min-max beside it), its rate, its
    speed-up over one GPU of the same machine, and how many times tuned_fw_multi's median on as many GPUs of the same model is
    faster.  A failed solve is counted, never used as a time."""
    if nthu is None or nthu.empty:
        return pd.DataFrame(columns=["code"])
    p = points(multi)
    rows = []
    keys = ["gpu", "machine", "n", "n_gpus", "sync", "kernel"]
    for k, g in nthu.groupby(keys, sort=True):
        r = dict(zip(keys, k))
        ok = g.loc[g["verified"], "kernel_ms"]
        t = ok.median() if len(ok) else np.nan
        one = nthu[(nthu["machine"] == r["machine"]) & (nthu["n"] == r["n"]) & (nthu["n_gpus"] == 1) & (nthu["sync"] == r["sync"])
                   & (nthu["kernel"] == r["kernel"]) & nthu["verified"]]["kernel_ms"]
        mine = p[(p["gpu"] == r["gpu"]) & (p["code"] == FW_SPLIT) & (p["n"] == r["n"]) & (p["n_gpus"] == r["n_gpus"])]
        bad = int((~g["verified"]).sum())
        rows.append({"code": NTHU_LABEL, "machine": r["machine"], "sync design": r["sync"], "kernel": r["kernel"],
                     "n (vertices)": r["n"], "GPUs (count)": r["n_gpus"], "repeats (count)": len(g),
                     "kernel time, median (s)": t / 1e3,
                     "kernel time, min-max (s)": _range(ok.min(), ok.max(), 1e-3) if len(ok) else "-",
                     "throughput (T updates/s)": r["n"] ** 3 / (t / 1e3) / 1e12,
                     "speed-up over its own one GPU (x)": one.median() / t if len(one) else np.nan,
                     "tuned_fw_multi on as many GPUs, faster by (x)": t / mine["median_ms"].iloc[0] if len(mine) else np.nan,
                     "verified": (f"yes ({len(g)} of {len(g)}): " + "; ".join(sorted(set(g["how"])))) if bad == 0
                     else f"FAILED ({bad} of {len(g)})",
                     "run folders": ", ".join(sorted(set(g["run"])))})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------ the figure
_SERIES_STYLE = ({"ls": "-", "marker": "o"}, {"ls": "--", "marker": "s"}, {"ls": ":", "marker": "^"},
                 {"ls": "-.", "marker": "D"})


def _colour(code):
    from ...show import figures as F
    try:
        return F.colour(code)
    except KeyError:
        return "#636363"


def figure(multi, nthu=None):
    """Left: strong scaling, the speed-up over one GPU against the GPU count (the ideal line: P), a marker per
    verified repeat and the median joined; right: the kernel time (s) against the GPU count, log scale, with NTHU's
    faithful multi-GPU FW of the same model of GPU beside it.  Series with one GPU count only are in the table, not
    here; a failed repeat is a red cross on the axis, never a time."""
    from matplotlib.transforms import blended_transform_factory
    from ...show import figures as F
    p = points(multi)
    series = [k for k, g in p.groupby(["gpu", "kind", "code", "graph", "n"], sort=False) if g["n_gpus"].nunique() > 1]
    fig, (ax1, ax2) = F.subplots(1, 2, figsize=(15, 8))
    gpus = sorted(set(p["n_gpus"].dropna().astype(int)) | (set(nthu["n_gpus"]) if nthu is not None and len(nthu) else set()))
    top = max(gpus) if gpus else 1
    ax1.plot([1, top], [1, top], color="#222222", ls="--", lw=1.2, label="ideal: P GPUs, P x one GPU")
    styles = {}
    for i, (gpu, kind, code, graph, n) in enumerate(series):
        g = p[(p["gpu"] == gpu) & (p["kind"] == kind) & (p["code"] == code) & (p["graph"] == graph) & (p["n"] == n)]
        st = dict(color=_colour(code), **_SERIES_STYLE[i % len(_SERIES_STYLE)])
        many = p["gpu"].nunique() > 1
        label = f"{code} ({SPLIT[kind]}), {graph}, n = {int(n)}" + (f", {gpu}" if many else "")
        styles[(gpu, kind, code, graph, n)] = (st, label)
        ok = g[g["median_ms"].notna()]
        for ax, y, ys in ((ax1, ok["speedup"], [[t1 / t for t in r] for t1, r in zip(ok["one_gpu_ms"], ok["repeat_ms"])]),
                          (ax2, ok["median_ms"] / 1e3, [[t / 1e3 for t in r] for r in ok["repeat_ms"]])):
            ax.plot(ok["n_gpus"], y, color=st["color"], ls=st["ls"], lw=2, label=label)
            xs = [x for x, r in zip(ok["n_gpus"], ys) for _ in r]
            ax.plot(xs, [v for r in ys for v in r], st["marker"], color=st["color"], mfc="none", ms=8, ls="none",
                    label="_each repeat")
            bad = g[g["failed"] > 0]
            if len(bad):
                ax.plot(bad["n_gpus"], np.full(len(bad), 0.04), "x", color=F.FAILED, ms=10, mew=2,
                        transform=blended_transform_factory(ax.transData, ax.transAxes),
                        label=f"{code}, {graph}: FAILED verification (no time)")
    base = p[(p["code"] == FW_ONE) & (p["n_gpus"] == 1) & p["n"].isin({s[4] for s in series if s[1] == "fw"})]
    for r in base.itertuples():
        ax2.plot([1], [r.median_ms / 1e3], "*", ms=16, color=_colour(FW_ONE), ls="none",
                 label=f"tuned_fw on one GPU, n = {int(r.n)}")
    if nthu is not None and len(nthu):
        med = nthu[nthu["verified"]].groupby(["machine", "n", "sync", "kernel", "n_gpus"])["kernel_ms"].median()
        for (machine, n, sync, kernel), g in med.groupby(level=[0, 1, 2, 3], sort=True):
            x, t = g.index.get_level_values("n_gpus"), g.values
            label = f"nthu_multi, the paper's code ({sync} design), n = {int(n)}"
            ax2.plot(x, t / 1e3, "P-", color=_colour(FW_PAPER), ms=10, lw=1.5, label=label)
            if 1 in set(x):
                ax1.plot(x, t[list(x).index(1)] / t, "P-", color=_colour(FW_PAPER), ms=10, lw=1.5,
                         label=f"{label}: over its own one GPU")
    for ax in (ax1, ax2):
        ax.plot([], [], "o", color="#555555", mfc="none", ms=8, ls="none",
                label="hollow: each verified repeat; lines: medians")
        ax.set_xscale("log", base=2)
        ax.set_xticks(gpus or [1], [str(x) for x in gpus] or ["1"])
        ax.set_xlabel("GPUs of one host (P)")
    ax1.set_yscale("log", base=2)
    ax1.set_yticks(gpus or [1], [str(x) for x in gpus] or ["1"])
    ax1.set_ylabel("speed-up over one GPU (x): one GPU's median / the time")
    ax1.set_title("strong scaling")
    ax2.set_yscale("log")
    ax2.set_ylabel("slowest rank's kernel time (s)")
    ax2.set_title("kernel time")
    seen = {}
    for ax in (ax1, ax2):
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(lab, h)
    fig.legend(list(seen.values()), list(seen), loc="outside lower center", ncol=2)
    if not series:
        ax1.text(0.5, 0.5, "no code recorded on more than one GPU", transform=ax1.transAxes, ha="center", va="center")
    return fig


# ------------------------------------------------------------------ sentences
def _plural(k, word):
    return f"{k} {word}{'s' if k != 1 else ''}"


def finding(multi, nthu=None):
    """The section's first sentence, computed: the split FW on the most GPUs at its largest n against one GPU's
    tuned_fw, whether every result was verified; NTHU's faithful code beside it; the sources split's speed-ups."""
    p = points(multi)
    fw = p[(p["code"] == FW_SPLIT) & (p["n_gpus"] > 1)]
    if p.empty:
        return "No multi-GPU benchmark recorded (data/results/benchmarks/*-multi-gpu-*.csv): nothing measured across GPUs."
    out = []
    if fw.empty:
        out.append("tuned_fw_multi has no row on more than one GPU.")
    else:
        n = fw["n"].max()
        r = fw[fw["n"] == n].sort_values("n_gpus").iloc[-1]
        model = r["gpu"].replace("NVIDIA ", "")
        rows = multi[(multi["kind"] == "fw") & (multi["gpu"] == r["gpu"]) & (multi["n"] == n)]
        bad = int((~rows["verified"]).sum())
        checked = (f"every result verified ({len(rows)} of {len(rows)} at that n: tuned_fw's one-GPU Fletcher-64)"
                   if bad == 0 else f"{bad} of its {len(rows)} results at that n FAILED verification (no time from them)")
        if r["median_ms"] != r["median_ms"]:
            out.append(f"On {int(r['n_gpus'])} {model}s tuned_fw_multi has no verified time at n = {int(n):,}; {checked}.")
        else:
            out.append(f"On {int(r['n_gpus'])} {model}s tuned_fw_multi takes {fmt(r['median_ms'] / 1e3)} s at n = {int(n):,} "
                       f"(median of {_plural(r['repeats'] - r['failed'], 'verified repeat')}; min-max {_range(r['min_ms'], r['max_ms'], 1e-3)} s), "
                       f"{fmt(r['speedup'])}x one GPU's tuned_fw ({fmt(r['one_gpu_ms'] / 1e3)} s; {fmt(r['efficiency'])}% "
                       f"parallel efficiency), {fmt(r['updates_per_s'] / 1e12)} T updates/s; {checked}.")
            nt = nthu_table(nthu, multi)
            if len(nt) and "n (vertices)" in nt:
                nt = nt[(nt["machine"].str.endswith(r["gpu"])) & (nt["n (vertices)"] == n) & (nt["GPUs (count)"] > 1)
                        & nt["kernel time, median (s)"].notna()]
            if len(nt):
                q = nt.sort_values(["GPUs (count)", "kernel time, median (s)"], ascending=[False, True]).iloc[0]
                than = q["tuned_fw_multi on as many GPUs, faster by (x)"]
                than = f", {fmt(than)}x tuned_fw_multi's time on as many" if than == than else ""
                out.append(f"NTHU's faithful multi-GPU FW (the paper's code, {q['sync design']} design) took "
                           f"{fmt(q['kernel time, median (s)'])} s on {int(q['GPUs (count)'])} {model}s at that n "
                           f"({fmt(q['throughput (T updates/s)'])} T updates/s{than}).")
    src = p[(p["kind"] == "sources") & (p["n_gpus"] > 1)]
    if len(src):
        k = src["n_gpus"].max()
        s = src[src["n_gpus"] == k]
        s = s[s["n"] == s["n"].max()]                   # the headline at the largest n; the table has the rest
        calls = sorted(set(s["repeats"]))
        out.append(f"Splitting tuned_frontier's sources over {int(k)} GPUs (n = {', '.join(f'{int(v):,}' for v in sorted(set(s['n'])))}): "
                   f"{_speedups(s)}, over its one-GPU call ({'one call' if calls == [1] else 'median of the calls'} each).")
        out.append(intake_caveat(p))
    return " ".join(x for x in out if x)


def _speedups(rows):
    return " and ".join(f"{fmt(r.speedup)}x on the {r.graph} graph" if r.speedup == r.speedup else
                        f"FAILED on the {r.graph} graph" for r in rows.itertuples())


def on_device(p):
    """The sources split with every rank's rows left on its GPU (the kernels alone), at its largest n and most GPUs,
    beside the same split streaming into the host at that n where it is recorded (a sentence, or '')."""
    dev = p[(p["kind"] == "sources_device") & (p["n_gpus"] > 1)] if len(p) else p
    if dev is None or dev.empty:
        return ""
    k, n = dev["n_gpus"].max(), dev[dev["n_gpus"] == dev["n_gpus"].max()]["n"].max()
    d = dev[(dev["n_gpus"] == k) & (dev["n"] == n)]
    text = (f"With every rank's rows left on its GPU (the kernels alone; sampled rows checked against scipy) the split "
            f"gives {_speedups(d)} on {int(k)} GPUs at n = {int(n):,}")
    host = p[(p["kind"] == "sources") & (p["n_gpus"] == k) & (p["n"] == n)]
    timed = p["median_ms"].notna()                 # a failed call is never a time
    one_dev = p[(p["kind"] == "sources_device") & (p["n_gpus"] == 1) & (p["n"] == n) & timed]
    one_host = p[(p["kind"] == "sources") & (p["n_gpus"] == 1) & (p["n"] == n) & timed]
    if len(host):
        text += f", against {_speedups(host)} with the rows streamed into the host"
    both = one_dev.merge(one_host, on=["gpu", "graph"], suffixes=("_dev", "_host"))
    if len(both):
        text += ("; on one GPU the same kernel takes " + " and ".join(
            f"{fmt(r.median_ms_dev / 1e3)} s left on the GPU against {fmt(r.median_ms_host / 1e3)} s streaming "
            f"({r.graph})" for r in both.itertuples()) + ": streaming the rows out slows the kernel itself")
    return text + "."


def intake_caveat(p):
    """What may bound the sources split's times (a sentence, or ''): each rank's rows stream into the host result while
    its kernel runs; the rates a rank's rows left at, at the largest n, are the table's."""
    src = p[(p["kind"] == "sources") & p["intake_Bps"].notna()] if len(p) else p
    if src is None or src.empty:
        return ""
    big = src[src["n"] == src["n"].max()]
    lo, hi = big["intake_Bps"].min() / 1e9, big["intake_Bps"].max() / 1e9
    kernels_alone = on_device(p)
    return (f"These times are not the kernels alone: each rank's rows stream into the host result while its kernel runs, "
            f"and at n = {int(big['n'].iloc[0]):,} a rank's rows left at {fmt(lo)}-{fmt(hi)} GB/s whatever the GPU count, "
            f"which points to the host's intake, not the kernels, as what sets these times"
            + (f". {kernels_alone}" if kernels_alone else " (a run with the rows left on each GPU, "
               "scripts/multi_sources_bench.py --on-device, would tell; none is recorded).") + _beyond_ideal(src))


def _beyond_ideal(src):
    """A sentence on the sources rows faster than P times one GPU (the times then do not cover the same work)."""
    over = src[(src["n_gpus"] > 1) & (src["efficiency"] > 105)]
    if over.empty:
        return ""
    said = "; ".join(f"{fmt(r.speedup)}x on {int(r.n_gpus)} GPUs at n = {int(r.n):,}, {r.graph} graph, rows leaving at "
                     f"{fmt(r.intake_Bps / 1e9)} GB/s" for r in over.itertuples())
    return (f" A speed-up beyond the GPU count ({said}) means those times do not hold the same work as one GPU's: "
            f"unexplained, and not a finding.")


def one_gpu_only(multi):
    """The sizes at which tuned_fw_multi has rows on one GPU only (a sentence, or '' where none)."""
    d = multi[multi["code"] == FW_SPLIT] if len(multi) else multi
    if d is None or d.empty:
        return ""
    counts = d.groupby(["gpu", "n"])["n_gpus"].max()
    one = counts[counts <= 1]
    if one.empty:
        return ""
    ns = ", ".join(f"{int(n):,}" for _, n in one.index)
    return f"At n = {ns} tuned_fw_multi has verified rows on one GPU only (one rank), no row on several GPUs."


def note(multi):
    """Where the numbers come from: the files, their machines, dates and commits."""
    if multi is None or multi.empty:
        return "No multi-GPU benchmark file is recorded (`data/results/benchmarks/*-multi-gpu-*.csv`, `*-multi-sources-*.csv`)."
    parts = []
    for f, g in multi.groupby("file", sort=True):
        parts.append(f"`{f}` ({g['machine'].iloc[0]}, {g['date'].iloc[0]}, commit {g['commit'].iloc[0] or 'not recorded'}, "
                     f"{_plural(len(g), 'row')})")
    return "**Recorded multi-GPU benchmarks:** " + "; ".join(parts) + "."
