"""Notebook 09 (NTHU, seed 004) from its recorded runs: ``scripts/nthu_measure.py single`` (every
NTHU variant on one GPU) and ``multi`` (P GPUs over NCCL), each invocation one independent process
in its own ``data/results/<time>-nthu-{single,multi}/`` folder.  Loading, the seed's own tables,
the tables in its shape, and one verdict row per ``nthu_*`` claim through :mod:`verdicts` and
:mod:`rules`.  Every ratio and interval is the study's one estimator's (method/estimate.py): paired inside
each process, over the machine leases the processes ran on (each folder's provenance boot id)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from .... import paths
from ....measure.provenance import same_source
from ....algorithms.gpu.fw_nthu import padded_size, parse_variant
from ....algorithms.gpu.multi import schedule
from ... import records
from ...method import estimate
from ...method.text import fmt

NB = "09_nthu"
PENDING = "2-GPU measurement pending"
SINGLE = ("nthu_bigger_blocks_faster", "nthu_16_beats_32_dim3", "nthu_int_launch_32_best", "nthu_branch_vs_select",
          "nthu_phase1_launch_overhead", "nthu_phase3_vs_sequential_ratio")
MULTI = ("nthu_multi_2gpu_speedup", "nthu_multi_poor_at_small_n", "nthu_stage_bytes_per_round", "nthu_stage_comm_share",
         "nthu_multi_bandwidth_grows_with_bs")
# the claims decided on the two-GPU runs: MULTI's and two of verdicts.ADDED (bs 32 unrolled against bs 64 at n = 6000,
# 'always superior' over the strong-scaling sizes)
TWO_GPU = MULTI + ("nthu_unrolled_32_vs_64", "nthu_multi_always_superior")
BLOCKS = (8, 16, 32, 64)
# the two-GPU runs (README, NTHU section): strong scaling over 5 sizes (weak from 2048); n = 6000 with every blocking
# factor in every design (bandwidth, the stage table at bs 64); 65536 (17 GB a GPU); weak scaling from 8192 and 16384
DEVICE_COMMANDS = (          # scripts/device_nthu_multi.sh scaling | stage | big | weak runs them
    "python3 -m apsp_kernels.study measure nthu multi --sizes 2048 4096 8192 16384 32768 --gpus 1 2 --weak --repeats 3",
    "python3 -m apsp_kernels.study measure nthu multi --sizes 6000 --gpus 1 2 --syncs row rowcol whole --kernels b8-dim3-branch "
    "b16-dim3-branch b32-dim3-branch b64-dim3-branch --repeats 3",
    "python3 -m apsp_kernels.study measure nthu multi --sizes 65536 --gpus 1 2 --syncs row",
    "python3 -m apsp_kernels.study measure nthu multi --sizes 8192 16384 --gpus 1 2 --syncs row --weak --weak-from 8192 16384 --repeats 3")
# the one-GPU processes pool commits whose NTHU kernel source is the same (:func:`commits_note` checks it with git; the
# provenance's code_fingerprint hashes every code file and differs).  f653c6e -> b41ef8c: nthu_blocked.cu unchanged,
# its launcher fw_nthu.py changed only import paths (gpu -> gpu_device / runtime, graph -> core.graph)
KERNEL_SOURCE = "apsp_kernels/algorithms/gpu/cuda/nthu_blocked.cu"
# the seed's phase table (6000 vertices): bs -> (K, phase 1, 2, 3 elapsed ms)
SEED_PHASES = {2: (3000, 82.96, 304.82, 123067.89), 4: (1500, 45.00, 107.85, 21096.13), 8: (750, 21.58, 42.73, 4058.65),
               16: (375, 14.90, 37.40, 2105.94), 32: (188, 7.92, 58.93, 2376.13)}
# its stage table (bs 64, 6000 vertices): design -> (MB per round, GB/s, updateList s, HtoD s, DtoH s); 4th = 3rd unrolled
SEED_STAGES = {"whole": (144.77, 6.06, 7.02, 4.38, 2.33), "rowcol": (3.0802, 3.14, 6.58, 1.14, 1.03),
               "row": (1.5401, 6.13, 6.58, 0.0366, 0.0228), "row, unrolled (4th)": (1.5401, 6.28, 2.45, 0.0445, 0.0358)}


# ------------------------------------------------------------------ loading
def find_runs(kind, which="latest", roots=None, cards=""):
    """Folders ``*-nthu-<kind>`` holding ``nthu-<kind>.csv`` (``which``: "latest", "all", "none" or
    comma-separated folder names or paths), oldest first, from $APSP_RESULTS_DIR and data/results;
    ``cards``: only the runs on that model of card (provenance ``gpu``; "" any; a run without provenance.json has
    no model, so any ``cards`` leaves it out)."""
    roots = roots or [paths.RESULTS, paths.RECORDED]
    runs = records.folders(f"*-nthu-{kind}", lambda d: (d / f"nthu-{kind}.csv").exists() and (not cards or _gpu(d) == cards),
                           roots)
    return records.pick(runs, which, f"*-nthu-{kind}")


def _provenance(d):
    f = d / "provenance.json"
    return json.loads(f.read_text()) if f.exists() else {}


def _lease(d):
    """The machine lease a run folder's process ran on (its provenance's boot id; the folder where none)."""
    return _provenance(d).get("boot_id") or Path(d).name


def _gpu(d):
    return _provenance(d).get("gpu")


def cards(d):
    """'2 x NVIDIA H100 80GB HBM3': the cards a run folder ran on, from its provenance ('? x unknown GPU' without)."""
    p = _provenance(d)
    return f"{p.get('gpu_count', '?')} x {p.get('gpu', 'unknown GPU')}"


def confirmation(label="NTHU, two GPUs (seed 004)", root=None):
    """What the confirming batches of the two-GPU claims say (data/results/confirming-batches.csv, notebook 07), as a
    sentence computed from that table: each batch named, and how many claims every batch judged alike."""
    t = records.confirming_batches(root)
    t = t[t["study"] == label] if t is not None else None
    if t is None or t.empty:
        return "No confirming batch of the two-GPU claims is recorded."
    cols = [c for c in t.columns if c.startswith("batch ") and (t[c] != "").any()]
    same = t["same"].astype(str).eq("True")
    head = ("Same verdicts in an independent batch" if len(cols) >= 2 and same.all() else
            "One batch only" if len(cols) < 2 else "The independent batches differ")
    return (f"**{head}.** The two-GPU claims were judged in {len(cols)} independent "
            f"batch{'es' if len(cols) != 1 else ''} ({t['batches'].iloc[0]}); {int(same.sum())} of {len(t)} claims got "
            "the same verdict in every batch"
            + ("" if same.all() else f" (differing: {', '.join(t.loc[~same, 'claim'])})")
            + ". Within a batch every run times its one-GPU baseline on the same machine, so no batch's speed-up mixes "
              "models of card. Agreement is stability, not validity: it says the measurement repeats, not that the "
              "reading of a claim is right; notebook 07 shows the comparison claim by claim.")


def load(runs, kind):
    """Every record of ``runs`` with its ``process`` (the folder: one independent process each) and ``gpu``;
    single runs get bs, launch and update from the variant."""
    frames = [pd.read_csv(d / f"nthu-{kind}.csv").assign(process=d.name, gpu=_gpu(d), lease=_lease(d))
              .reset_index(names="job_row") for d in runs]     # gpu: the model of card the row ran on
    df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    if kind == "single" and len(df):
        df["bs"], df["launch"], df["update"] = zip(*df["variant"].map(parse_variant))
    if kind == "multi" and len(df):
        df["comm_share"] = df["comm_ms"] / df["kernel_ms"]
        df["bandwidth_GBps"] = pd.to_numeric(df.get("bandwidth_GBps"), errors="coerce")
    return df


def load_rounds(runs):
    """Every run's per-round records (``nthu-multi-rounds.csv.gz``: job = the row of nthu-multi.csv)."""
    frames = [pd.read_csv(d / "nthu-multi-rounds.csv.gz").assign(process=d.name) for d in runs
              if (d / "nthu-multi-rounds.csv.gz").exists()]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def runs_label(runs):
    """The run folders a number pools, as a report names them: the folder where there is one, else the first
    and the last with how many ('-' where none)."""
    runs = [Path(d) for d in runs or ()]
    if not runs:
        return "-"
    if len(runs) == 1:
        return str(records.rel(runs[0]))
    return f"{records.rel(runs[0])} .. {runs[-1].name} ({len(runs)} runs)"


def cards_label(runs):
    """'2 x NVIDIA H200' for the runs' cards, each model once, in the runs' order ('-' where none)."""
    return "; ".join(dict.fromkeys(cards(d) for d in runs or ())) or "-"


# the claims whose number is arithmetic on the two-GPU schedule: no run measured it
COMPUTED = ("nthu_stage_bytes_per_round",)


def source_of(claim, single_runs, multi_runs):
    """(cards, runs, profile) that one claim's number came from: the two-GPU runs for :data:`TWO_GPU`, the
    one-GPU runs for the others, none for a number computed from the schedule.  One label for the whole notebook
    (its newest one-GPU run) would put the two-GPU numbers on a one-GPU card."""
    if claim in COMPUTED:
        return "none: computed from the schedule, no GPU run", "-", "-"
    runs = multi_runs if claim in TWO_GPU else single_runs
    profile = "; ".join(dict.fromkeys(str(_provenance(d).get("profile") or "") for d in runs or ())) or "-"
    return cards_label(runs), runs_label(runs), profile


def record_source(notebook, single_runs, multi_runs):
    """The index's 'numbers from' for the notebook: every run it pools, both kinds, and each kind's cards."""
    runs = list(single_runs or ()) + list(multi_runs or ())
    if not runs:
        return records.record_source(notebook, None, missing="no *-nthu-single or *-nthu-multi run recorded")
    device = "; ".join(f"{what}: {cards_label(r)}" for what, r in (("one GPU", single_runs), ("two GPUs", multi_runs)) if r)
    dates = sorted(str(_provenance(d).get("timestamp") or "")[:10] for d in runs)
    date = dates[0] if dates[0] == dates[-1] else f"{dates[0]} .. {dates[-1]}"
    commits = ", ".join(dict.fromkeys(str(_provenance(d).get("git_commit") or "")[:12] for d in runs))
    label = "; ".join(f"{what}: {runs_label(r)}" for what, r in (("one GPU", single_runs), ("two GPUs", multi_runs)) if r)
    profile = ", ".join(dict.fromkeys(str(_provenance(d).get("profile") or "") for d in runs))
    records.record_source(notebook, runs, device=device, date=date, commit=commits, run_text=label, profile=profile)


def measurements(single_runs, multi_runs, single, multi):
    """A :class:`measurements.Measurements` for the index and ``verdicts.publish``: provenance of
    the newest single-GPU run (the multi runs' GPUs and NCCL named in the note)."""
    runs = single_runs or multi_runs
    prov = json.loads((runs[-1] / "provenance.json").read_text()) if runs else {}
    note = ["**Where the numbers come from.** Recorded by `scripts/nthu_measure.py` on the device; this notebook "
            "measures nothing.", "One GPU: " + (basis(single) if len(single) else "no run recorded") + "."]
    if single_runs:
        note.append(commits_note(single_runs))
    for d in multi_runs:
        p = json.loads((d / "provenance.json").read_text())
        note.append(f"P GPUs: `{d.name}`: {p.get('gpu_count')} x {p.get('gpu')}, NCCL {p.get('nccl_version')}, "
                    f"launched by {p.get('launched_by')}, commit {str(p.get('git_commit'))[:12]}.")
    if not multi_runs:
        note.append(f"P GPUs: no `*-nthu-multi` run recorded yet ({PENDING}).")
    return records.Measurements(df=single, prov=prov, note="\n\n".join(note), run_dir=runs[-1] if runs else paths.RECORDED,
                          measured_now=False, notebook=NB)


def commits_note(runs, root=None):
    """Which commits the one-GPU processes ran at, and whether the NTHU kernel source is the same at
    all of them (computed with git where the checkout has it), as a sentence."""
    commits = {}
    for d in runs:
        c = str(json.loads((d / "provenance.json").read_text()).get("git_commit") or "unknown")
        commits.setdefault(c, []).append(d.name)
    each = ", ".join(f"{c[:7]} ({len(v)} process{'es' if len(v) > 1 else ''})" for c, v in commits.items())
    if len(commits) == 1:
        return f"The one-GPU processes ran at commit {each}."
    same = same_source(commits, KERNEL_SOURCE, root=root)
    src = f"`{KERNEL_SOURCE.split('gpu/', 1)[1]}`"
    tail = {True: f"the kernel source {src} is the same at all of them (`git diff` between the commits: empty), so the "
                  "processes measure the same kernel",
            False: f"**the kernel source {src} differs between them** (`git diff`): the processes do not measure the same kernel",
            None: f"whether the kernel source {src} is the same at all of them could not be checked here (no git history)"}[same]
    return f"The one-GPU processes are pooled over commits {each}; {tail}."


def basis(df):
    """How many processes, leases and repeats the numbers rest on, as a sentence."""
    if df is None or df.empty:
        return "nothing measured"
    procs = df["process"].nunique()
    leases = df["lease"].nunique() if "lease" in df else procs
    keys = [k for k in ("variant", "n", "n_gpus", "sync", "kernel") if k in df]
    reps = int(df.groupby(keys + ["process"]).size().max())
    s = (f"{procs} process{'es' if procs > 1 else ''} ({', '.join(sorted(df['process'].unique()))}) on {leases} machine "
         f"lease{'s' if leases != 1 else ''}, up to {reps} repeat{'s' if reps > 1 else ''} per setting: ratios paired "
         "inside each process, 95% intervals over the leases")
    if leases < 2:
        return s + "; one lease gives no interval"
    return s + ("; fewer than the 3 leases the study asks for, so these verdicts are provisional" if leases < 3 else "")


def medians(df, keys, col):
    """Median over the processes of each process's median of ``col`` per ``keys`` (the value the
    verdicts' ratios take): one process counts once, however many repeats it ran."""
    return df.groupby(list(keys) + ["process"])[col].median().groupby(level=list(range(len(keys)))).median()


# ------------------------------------------------------------------ statistics
def samples(df, col, **sel):
    """One value per process (the median of its verified rows matching ``sel``), keyed by (lease, process):
    estimate.samples."""
    if df is None or df.empty:
        return estimate.samples(pd.DataFrame({col: []}), col)
    d = df[df["status"] == "ok"] if "status" in df else df
    for k, v in sel.items():
        d = d[d[k] == v]
    return estimate.samples(d, col)


def ratio(num, den, factor=1.0):
    """num / den * factor with its 95% interval over leases (estimate.ratio: paired where both ran in one
    process)."""
    return estimate.ratio(num, den).scaled(factor)


def points(df, pairs, col):
    """[(label, value, lo, hi)] for ``pairs`` = [(label, {numerator sel}, {denominator sel}, factor)]."""
    return [estimate.Point(label, e) for label, e in estimates(df, pairs, col) if e.value == e.value]


def estimates(df, pairs, col):
    """[(label, Estimate)] of ``pairs`` (as :func:`points`), what the rows say they rest on."""
    return [(label, ratio(samples(df, col, **num), samples(df, col, **den), *(f or [1.0]))) for label, num, den, *f in pairs]


def span_of(pts):
    vals = [p[1] for p in pts]
    return f"range {fmt(min(vals))}x .. {fmt(max(vals))}x over {len(vals)} (not a CI)" if vals else "-"


# ------------------------------------------------------------------ tables
def kernel_table(df, col="kernel_ms"):
    """Median time per (n, bs) with one column per launch and update form (:func:`medians`: over the
    processes' medians)."""
    t = medians(df[df["status"] == "ok"], ["n", "bs", "launch", "update"], col).unstack(["launch", "update"])
    t.columns = [f"{lo} / {u} (ms)" for lo, u in t.columns]
    return t.reset_index().rename(columns={"bs": "block size bs (vertices)"})


def phase_table(df, n=6000, launch="dim3", update="branch"):
    """Ours in the seed's shape (elapsed ms per phase, time ratio, sequential ratio 1 : 2K : K^2)
    beside the seed's K20m numbers at the same bs."""
    rows = []
    d = df[(df["n"] == n) & (df["launch"] == launch) & (df["update"] == update) & (df["status"] == "ok")]
    for bs in sorted(set(d["bs"]) | set(SEED_PHASES)):
        p = pd.Series([medians(d[d["bs"] == bs], ["bs"], c).get(bs, np.nan) for c in ("phase1_ms", "phase2_ms", "phase3_ms")])
        K = padded_size(n, bs) // bs
        row = {"block size bs (vertices)": bs}
        if len(d[d["bs"] == bs]):
            row.update({"K (count)": K, "phase 1 (ms)": p.iloc[0], "phase 2 (ms)": p.iloc[1], "phase 3 (ms)": p.iloc[2],
                        "time ratio": f"1 : {fmt(p.iloc[1] / p.iloc[0])} : {fmt(p.iloc[2] / p.iloc[0])}",
                        "sequential ratio": f"1 : {2 * K} : {K * K}", "K^2 / phase-3 ratio (x)": K * K * p.iloc[0] / p.iloc[2]})
        if bs in SEED_PHASES:
            sk, s1, s2, s3 = SEED_PHASES[bs]
            row.update({"seed: K (count)": sk, "seed: phases 1, 2, 3 (ms)": f"{fmt(s1)}, {fmt(s2)}, {fmt(s3)}",
                        "seed: time ratio": f"1 : {fmt(s2 / s1)} : {fmt(s3 / s1)}", "seed: K^2 / phase-3 ratio (x)": sk * sk * s1 / s3})
        rows.append(row)
    cols = ["block size bs (vertices)", "K (count)", "phase 1 (ms)", "phase 2 (ms)", "phase 3 (ms)", "time ratio",
            "sequential ratio", "K^2 / phase-3 ratio (x)", "seed: K (count)", "seed: phases 1, 2, 3 (ms)",
            "seed: time ratio", "seed: K^2 / phase-3 ratio (x)"]
    return pd.DataFrame(rows).reindex(columns=cols)


def verification(single, multi):
    """What the records say about their own verification, as a sentence."""
    out = []
    for what, d in (("one-GPU", single), ("P-GPU", multi)):
        if d is None or d.empty:
            continue
        v = d["verified"].map(lambda x: None if x != x or x is None else bool(x) if not isinstance(x, str) else x == "True")
        bad = int((v == False).sum())          # noqa: E712 (None stays apart)
        none = int(v.isna().sum())
        by = ", ".join(sorted(set(d["verified_by"].dropna()) - {"none"})) if "verified_by" in d else "the CPU reference"
        out.append(f"{what} solves: {len(d) - bad - none} of {len(d)} verified exactly (Fletcher-64 against {by})"
                   + (f", **{bad} FAILED**" if bad else "") + (f", {none} without a reference (above the CPU cap)" if none else ""))
    return "; ".join(out) + "." if out else "No solve recorded."


def stage_table(multi, n=6000, kernel="b64-dim3-branch"):
    """The seed's stage table beside ours (two GPUs, bs 64, n = 6000) where that run exists."""
    bs = parse_variant(kernel)[0]
    N = padded_size(n, bs)
    rows = []
    for design, (mb, bw, upd, h2d, d2h) in SEED_STAGES.items():
        sync = design.split(",")[0]
        m = multi[(multi["n"] == n) & (multi["kernel"] == kernel) & (multi["n_gpus"] == 2) & (multi["variant"] == sync)] \
            if len(multi) else multi
        row = {"design": design, "bytes per round, ours (MB)": schedule.payload_bytes(sync, bs, N) / 1e6,
               "seed (MB)": mb, "seed: bandwidth (GB/s)": bw, "seed: Memcpy share (%)": 100 * (h2d + d2h) / (upd + h2d + d2h)}
        if len(m) and design == sync:        # the 4th row is the 3rd with its kernel unrolled: our bs 64 is
            row.update({"ours: bandwidth (GB/s)": m["bandwidth_GBps"].median(), "ours: compute (ms)": m["compute_ms"].median(),
                        "ours: broadcasts (ms)": m["comm_ms"].median(), "ours: broadcast share (%)": 100 * m["comm_share"].median()})
        rows.append(row)
    return pd.DataFrame(rows)


def findings(df, n=6000):
    """Sentences from the single-GPU medians (what the figure and the table show, in words)."""
    ok = df[(df["status"] == "ok") & (df["n"] == n)]
    if ok.empty:
        return f"nothing measured at n = {n}"
    med = medians(ok, ["bs", "launch", "update"], "kernel_ms")
    bs, launch, update = med.idxmin()
    out = [f"At n = {n} the fastest variant is bs {bs} with {launch} launches and the {update} update ({fmt(med.min())} ms)"]
    for lo in ("dim3", "int"):
        d = med.xs((lo, "branch"), level=("launch", "update"))
        if {16, 32} <= set(d.index):
            out.append(f"with {lo} launches and the branch update bs 16 takes {fmt(d[16])} ms and bs 32 {fmt(d[32])} ms, "
                       f"so {16 if d[16] < d[32] else 32} is the faster")
    r = (med.xs("branch", level="update") / med.xs("select", level="update"))
    out.append(f"the branch update takes {fmt(r.min())} to {fmt(r.max())} times as long as the select "
               f"(the least at bs {r.idxmin()[0]}, the most at bs {r.idxmax()[0]})")
    return "; ".join(out) + "."
