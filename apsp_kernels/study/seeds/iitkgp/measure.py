"""Measure the IIT Kharagpur study (seed 001) on this machine: BFS (Fig. 3: parallelBFS, queueBFS, scanBFS
against the sequential BFS), single-source SSSP (Fig. 4: Harish's kernels, corrected and racy, against
Dijkstra), thread coarsening 1..16 (Fig. 5), and APSP on the seed's five APSP graphs (Fig. 6: naive FW of
Alg. 14, blocked FW, repeated SSSP; the sequential FW and repeated Dijkstra sampled, the best CPU codes
beside them).  What and on which graphs: data/sweeps/iitkgp.yaml.  Each invocation runs ``processes``
independent fresh processes one after the other and stops starting new work after ``budget_s`` (9 min);
it writes results.csv and provenance.json into $APSP_RESULTS_DIR/<batch>-iitkgp/<stages>[-<graphs>]/ (or
--out) as it goes, and prints a short table.  The large graphs (as-skitter, geometric) are measured only
when named with --graphs, each in an invocation of its own.

    python -m apsp_kernels.study measure iitkgp --batch B --stages bfs,sssp,coarsen          # the small graphs
    python -m apsp_kernels.study measure iitkgp --batch B --stages apsp
    python -m apsp_kernels.study measure iitkgp --batch B --stages bfs,sssp,coarsen --graphs as-skitter
    python -m apsp_kernels.study measure iitkgp --dry-run      # every graph at ~160 vertices; the CPU parts only without a GPU
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from ....measure import harness, provenance
from .... import paths
from . import runs as R, spec


def _self_argv(*args):
    """This module's main in a fresh interpreter (a child process), whatever the caller's working folder."""
    boot = f"import sys; sys.path.insert(0, {str(paths.ROOT)!r}); from {__name__} import main; sys.exit(main(sys.argv[1:]))"
    return [sys.executable, "-c", boot, *args]


def _fmt(x):
    if x is None or x != x:
        return "-"
    return f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}"


def table(df):
    """Per stage and graph: each code's median time (end-to-end / kernel, ms) over its verified runs,
    its speed-up over the CPU code of the stage, and how many of its runs were not ok."""
    out = []
    if df.empty or "stage" not in df:
        return "(no rows)"
    ok = df[df["status"] == "ok"]
    for (stage, graph), d in df.groupby(["stage", "graph"], sort=False):
        k = ok[(ok["stage"] == stage) & (ok["graph"] == graph)]
        origin = d["graph_origin"].dropna().iloc[0] if "graph_origin" in d and d["graph_origin"].notna().any() else "?"
        out.append(f"{stage} {graph} ({origin}, n={int(d['n'].dropna().iloc[0]) if d['n'].notna().any() else '?'}):")
        cpu = k[k["device"] == "cpu"]
        base = cpu["wall_ms"].median() if len(cpu) and stage != "apsp" else None
        est_col = d["estimate"].fillna("measured") if "estimate" in d else pd.Series("measured", index=d.index)
        for (a, v, est), r in d.groupby([d["algorithm"], d["variant"], est_col], sort=False, dropna=False):
            good = r[r["status"] == "ok"]
            wall = good["wall_ms"].median() if len(good) else None
            kern = good["kernel_ms"].median() if "kernel_ms" in good and len(good) else None
            sp = f"  x{_fmt(base / wall)} over the CPU" if base and wall and a not in set(cpu["algorithm"]) else ""
            bad = (r["status"] != "ok").sum()
            out.append(f"  {a}/{v} {est}: {_fmt(wall)} / {_fmt(kern)} ms{sp}" + (f"  [{bad} of {len(r)} not ok: "
                       f"{', '.join(sorted(set(r.loc[r['status'] != 'ok', 'status'])))}]" if bad else ""))
    return "\n".join(out)


def _check_batch(batch_dir, prov):
    """One batch, one commit: refuse to add an invocation measured at other code."""
    try:
        provenance.check_batch(batch_dir, prov, pattern="*/provenance.json")
    except provenance.ProvenanceError as e:
        raise SystemExit(str(e)) from None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m apsp_kernels.study measure iitkgp", description=__doc__.split("\n\n")[0])
    ap.add_argument("--stages", default=",".join(spec.STAGES), help="comma-separated, of " + ", ".join(spec.STAGES))
    ap.add_argument("--graphs", default=None, help="catalogue names (default: the stages' graphs but the large ones)")
    ap.add_argument("--batch", default=None, help="batch id: invocations of one batch share $APSP_RESULTS_DIR/<batch>-iitkgp")
    ap.add_argument("--processes", type=int, default=None, help="independent processes (default: the sweep's)")
    ap.add_argument("--dry-run", action="store_true", help="every graph at ~160 vertices (data/sweeps/iitkgp.yaml: dry_run)")
    ap.add_argument("--out", default=None, help="this invocation's results folder (default: see above)")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)       # one process's job (JSON)
    a = ap.parse_args(argv)
    if a.child:
        return R.child(json.loads(a.child))
    t_start = time.time()
    stages = [s for s in a.stages.split(",") if s]
    unknown = set(stages) - set(spec.STAGES)
    if unknown:
        ap.error(f"unknown stages {sorted(unknown)}")
    S = spec.load(dry_run=a.dry_run)
    try:
        graphs = spec.graphs_for(S, stages, a.graphs.split(",") if a.graphs else None)
    except (ValueError, KeyError) as e:
        ap.error(str(e))
    processes = a.processes or int(S["processes"])
    deadline = t_start + float(S["budget_s"])
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    name = "_".join(stages) + (f"-{'_'.join(graphs)}" if a.graphs else "")   # no '+': the device tool returns no file with one in its name
    batch_dir = paths.RESULTS / (f"{stamp}-local-iitkgp-dryrun" if a.dry_run else f"{a.batch or stamp}-iitkgp")
    out = Path(a.out) if a.out else batch_dir / name
    out.mkdir(parents=True, exist_ok=True)
    if (out / "results.csv").exists():
        raise SystemExit(f"{out}/results.csv exists: an invocation writes a folder of its own")
    prov = provenance.collect("iitkgp-dryrun" if a.dry_run else "iitkgp",
                              dict(spec=S, stages=stages, graphs=graphs, processes=processes, invocation=name,
                                   batch=batch_dir.name))
    if not a.out:
        _check_batch(batch_dir, prov)
    prov["processes_run"] = []
    write = lambda: (out / "provenance.json").write_text(json.dumps(prov, indent=2, default=str))
    write()
    for g in graphs:                       # made and cached once here; every process loads them
        t0 = time.perf_counter()
        G = spec.graph(S, g, R.log_stderr)
        if any(g in S[s]["graphs"] for s in stages if s in spec.SINGLE_SOURCE):
            spec.sources_for(S, g, G)
        R.log_stderr(f"{g}: ready in {time.perf_counter() - t0:.1f} s ({G.meta['origin']}{', cached' if G.meta.get('cached') else ''})")
        del G
    last = 0.0
    for i in range(processes):
        left = deadline - time.time()
        if left < last:
            R.log_stderr(f"budget: {left:.0f} s left, a process took {last:.0f} s: {i} of {processes} processes run")
            prov["stopped"] = f"budget: {i} of {processes} processes run"
            break
        t0 = time.time()
        job = dict(out=str(out), index=i, stages=stages, graphs=graphs, dry_run=a.dry_run, deadline=deadline)
        r = subprocess.run(_self_argv("--child", json.dumps(job)))
        last = time.time() - t0
        prov["processes_run"].append(dict(index=i, seconds=round(last, 1), returncode=r.returncode,
                                          started=_dt.datetime.fromtimestamp(t0, _dt.timezone.utc).isoformat(timespec="seconds")))
        write()
        R.log_stderr(f"process {i}: exit {r.returncode} after {last:.0f} s")
    prov["seconds"] = round(time.time() - t_start, 1)
    write()
    df = harness.read_records(out / "results.csv") if (out / "results.csv").exists() else pd.DataFrame()
    print(table(df))
    counts = df["status"].value_counts().to_dict() if len(df) else {}
    print(f"{len(df)} rows {counts} in {time.time() - t_start:.0f} s -> {out}")
    return 0 if all(p["returncode"] == 0 for p in prov["processes_run"]) and prov["processes_run"] else 1


if __name__ == "__main__":
    sys.exit(main())
