"""Measure the Hochberg study (seed 002) on this machine: his cycles (Fig. 2.3) with his difference-of-
averages kernel time, the CUDA-event time and the end-to-end time of the same runs, and the all-core
CPU FW on the same graphs; his explorations (Sec. 2.4); the kernel without __syncthreads() on
adversarial inputs; run time against SM count (Fig. 2.4) where a fair SM restriction works.  What and
at which sizes: data/sweeps/hochberg.yaml.  Writes results.csv and provenance.json into
$APSP_RESULTS_DIR/<time>-hochberg/ (or --out) after every stage, and prints a short table.

Independent processes (every timed quantity from >= 3 of them, a reference run each on its own machine
lease: docs/method.md): ``--batch B --process K`` writes this invocation, one fresh process, into
$APSP_RESULTS_DIR/<B>-hochberg/p<K>/ with its own provenance, and refuses to join a batch whose
other processes were measured at other code (provenance.check_batch: one batch, one commit).
Notebook 08 reads every p<K>/ of the newest batch, one process each (scripts/device_hochberg.sh).

    python -m apsp_kernels.study measure hochberg [--stages cycles,explorations,race,sm_scaling] [--out DIR]
    python -m apsp_kernels.study measure hochberg --batch 20261124-090000 --process 1 [--stages ...]
    python -m apsp_kernels.study measure hochberg --dry-run      # toy sizes; the CPU parts only without a GPU
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import re
import sys
import time
from pathlib import Path

import pandas as pd

from .... import paths
from ....measure import provenance
from . import runs as R, spec

SHOW_N = (10, 100, 200, 500, 1000, 1800)
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*$")        # no '+' or odd characters: the device tool refuses them


def _self_argv(*args):
    """This module's main in a fresh interpreter (a child process), whatever the caller's working folder."""
    boot = f"import sys; sys.path.insert(0, {str(paths.ROOT)!r}); from {__name__} import main; sys.exit(main(sys.argv[1:]))"
    return [sys.executable, "-c", boot, *args]


def _check_batch(batch_dir, prov, strict=False):
    """One batch, one commit: refuse to add a process measured at other code than the batch's others."""
    try:
        provenance.check_batch(batch_dir, prov, strict=strict, pattern="*/provenance.json")
    except provenance.ProvenanceError as e:
        raise SystemExit(str(e)) from None


def _fmt(x, digits=2):
    return "-" if x is None or (isinstance(x, float) and x != x) else f"{x:.{digits}f}"


def table(df):
    """A few lines per stage: what the reply of a device run should show."""
    out = []
    ok = df[df["status"] == "ok"] if "status" in df else df.iloc[0:0]
    cyc = ok[ok["stage"] == "cycles"] if "stage" in ok else ok
    if len(cyc):
        out.append("cycles: n, GPU his difference / events / end-to-end ms (methods disagree?), CPU all-core ms")
        for kind in cyc["graph"].unique():
            c = cyc[cyc["graph"] == kind]
            show = [n for n in SHOW_N if n in set(c["n"])] or sorted(set(c["n"]))[:4]
            for n in show:
                g = c[(c["n"] == n) & (c["difference_ms"].notna() if "difference_ms" in c else False)]
                p = c[(c["n"] == n) & (c["algorithm"] != (g["algorithm"].iloc[0] if len(g) else ""))]
                gtxt = (f"{_fmt(g['difference_ms'].iloc[0])} / {_fmt(g['event_ms'].iloc[0])} / "
                        f"{_fmt(g['end_to_end_ms'].iloc[0])} ({g['methods_disagree'].iloc[0]})") if len(g) else "-"
                out.append(f"  {kind:17s} n={n:5d}  GPU {gtxt:38s} CPU {_fmt(p['end_to_end_ms'].iloc[0]) if len(p) else '-'}")
    exp = df[df["stage"] == "explorations"] if "stage" in df else df.iloc[0:0]
    if len(exp):
        out.append("explorations: n, run: event ms (status)")
        for n, e in exp.groupby("n"):
            out.append(f"  n={n:5d} " + "  ".join(f"{r.algorithm.replace('hochberg_', '')}/{r.variant} "
                                                  f"{_fmt(r.event_ms) if r.status == 'ok' else r.status}"
                                                  for r in e.itertuples()))
    rac = df[(df["stage"] == "race") & (df["status"].isin(["ok", "failed_verification"]))] if "stage" in df else df.iloc[0:0]
    if len(rac):
        out.append("race: run, graph: sizes where some run was wrong (wrong entries, of them undershoots; "
                   "runs refused as negative cycles)")
        for (alg, var, kind), r in rac.groupby(["algorithm", "variant", "graph"], sort=False):
            bad = r[r["status"] == "failed_verification"]
            cyc = int(bad["spurious_negative_cycles"].sum()) if "spurious_negative_cycles" in bad else 0
            txt = (f"wrong at n={list(bad['n'])} ({int(bad['wrong_entries'].sum())}, {int(bad['undershoots'].sum())}; "
                   f"{cyc})" if len(bad) else f"right at every n of {list(r['n'])}")
            out.append(f"  {alg}/{var:9s} {kind:17s} {txt}")
    sms = df[df["stage"] == "sm_scaling"] if "stage" in df else df.iloc[0:0]
    for r in sms.itertuples():
        out.append(f"sm_scaling {getattr(r, 'sm_method', '-')} {getattr(r, 'sm_granted', getattr(r, 'sm_requested', '-'))}: "
                   f"{r.status} event {_fmt(getattr(r, 'event_ms', None))} ms {getattr(r, 'error', '') or ''}")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m apsp_kernels.study measure hochberg", description=__doc__.split("\n\n")[0])
    ap.add_argument("--stages", default=",".join(spec.STAGES), help="comma-separated, of " + ", ".join(spec.STAGES))
    ap.add_argument("--dry-run", action="store_true", help="toy sizes (data/sweeps/hochberg.yaml: dry_run)")
    ap.add_argument("--out", default=None, help="results folder (default $APSP_RESULTS_DIR/<time>-hochberg)")
    ap.add_argument("--batch", default=None, help="batch id: the processes of one study share $APSP_RESULTS_DIR/<batch>-hochberg")
    ap.add_argument("--process", type=int, default=None, help="this process's number K in the batch: writes p<K>/")
    ap.add_argument("--strict", action="store_true", help="refuse a dirty or unknown tree (a reference run)")
    ap.add_argument("--sm-child", default=None, help=argparse.SUPPRESS)     # one MPS client's job (JSON)
    a = ap.parse_args(argv)
    if a.sm_child:
        print(json.dumps(R.sm_child(json.loads(a.sm_child)), default=str))
        return 0
    stages = [s for s in a.stages.split(",") if s]
    unknown = set(stages) - set(spec.STAGES)
    if unknown:
        ap.error(f"unknown stages {sorted(unknown)}")
    if (a.batch is None) != (a.process is None):
        ap.error("--batch and --process go together")
    if a.batch is not None and (a.out or not _NAME.match(a.batch) or a.process < 1):
        ap.error("--batch takes letters, digits, '-' and '_' only, --process a number from 1, and no --out")
    S = spec.load(dry_run=a.dry_run)
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    suffix = "local-hochberg-dryrun" if a.dry_run else "hochberg"
    batch_dir = paths.RESULTS / f"{a.batch}-{suffix}" if a.batch else None
    out = Path(a.out) if a.out else batch_dir / f"p{a.process}" if batch_dir else paths.RESULTS / f"{stamp}-{suffix}"
    if (out / "results.csv").exists() or (batch_dir and (out / "provenance.json").exists()):
        raise SystemExit(f"{out} holds a process already: each invocation, one fresh process, writes a folder of its own")
    params = dict(spec=S, stages=stages)
    if batch_dir:
        params.update(batch=batch_dir.name, process=f"p{a.process}")
    prov = provenance.collect("hochberg-dryrun" if a.dry_run else "hochberg", params)
    if batch_dir:
        _check_batch(batch_dir, prov, a.strict)
    elif a.strict:
        _check_batch(out, prov, True)
    out.mkdir(parents=True, exist_ok=True)
    (out / "provenance.json").write_text(json.dumps(prov, indent=2, default=str))
    rows, t_all = [], time.perf_counter()
    for stage in stages:
        t0 = time.perf_counter()
        kw = dict(child_argv=_self_argv("--sm-child")) if stage == "sm_scaling" else {}
        rows += R.STAGE_FUNCTIONS[stage](S[stage], R.log_stderr, **kw)
        pd.DataFrame(rows).to_csv(out / "results.csv", index=False)      # a killed run keeps what it measured
        R.log_stderr(f"stage {stage}: {time.perf_counter() - t0:.1f} s")
    df = pd.DataFrame(rows)
    print(table(df))
    counts = df["status"].value_counts().to_dict() if len(df) else {}
    print(f"{len(df)} rows {counts} in {time.perf_counter() - t_all:.0f} s -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
