"""What ``method="auto"`` would run on the structure suite's graphs on a GPU, computed here without one: the
``predicted_pick`` lines of a plan, or whether a plan's still hold, or how a candidate cost table would move them.

    python3 scripts/predict_picks.py knn:65536 path:65536            # plan lines, ready to paste
    python3 scripts/predict_picks.py --plan data/results/solver/X-plan.yaml   # exit 1 where a prediction moved
    python3 scripts/predict_picks.py --costs NEW-costs.csv --plan PLAN        # the picks under another cost table

Each graph is made as the suite makes it (``io.suite_graphs.make(name, n, seed=n)``) and ``choice.choose`` asked,
for a GPU of ``--free-gb`` free memory (an H200's by default), for each result (``RESULTS``: float64 to the host,
int32 to the host, left on the device).  The rules run as on the device (the hub BFS, the probe, the counts of
test 3 all run on the CPU); only the free memory is assumed.  ``--costs``: a benchmark file of another device or
date (``bench --degrees 4 16 64``), read as that device's ``*-costs.csv`` beside the recorded rows, so that the cost
model reads that device's rows (:func:`apsp_kernels.cost_rows.model_device`); each line then shows the pick now and
under it."""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

H200_FREE_GB = 139.0      # what the device machine's H200 reports free before a solve


def picks(g, free_bytes, benchmarks=None):
    """{result: the code auto would run on ``g``} on a GPU of ``free_bytes`` free memory."""
    from apsp_kernels import choice
    return {r: choice.choose(g, gpu=True, free_bytes=free_bytes, benchmarks=benchmarks, result=r).algorithm.name
            for r in choice.RESULTS}


def candidate_folders(costs, into):
    """The benchmark folders with ``costs`` in ``into`` under the name the cost model takes its device's table
    from (``<device>-<date>-costs.csv``, its provenance beside it where there is one), or the reason the model
    would not read it (one line): another table newer, or newer rows of its device for a code it holds."""
    from apsp_kernels import cost_rows
    from apsp_kernels.costs import benchmark_folders
    costs = Path(costs)
    m = cost_rows.FILE.match(costs.name)
    if not m:
        return None, f"--costs {costs}: not a results file name (<device>-<date>[-<tag>].csv)"
    if not costs.is_file():
        return None, f"--costs {costs}: no such file"
    stem = f"{m.group('device')}-{m.group('date')}-costs"
    shutil.copy(costs, Path(into) / f"{stem}.csv")
    prov = costs.with_suffix(".provenance.json")
    if prov.exists():
        shutil.copy(prov, Path(into) / f"{stem}.provenance.json")
    folders = (str(into),) + tuple(str(f) for f in benchmark_folders())
    rows = cost_rows.read(folders)
    mine = {r["algorithm"] for r in rows if r["file"] == f"{stem}.csv"}
    if not mine:
        return None, (f"--costs {costs.name}: the cost model would not read it (a newer *-costs table, or newer rows "
                      "of its device for every code it holds): date it after them")
    return folders, None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("graphs", nargs="*", metavar="NAME:N", help="suite graphs (name:n; a bundled network name:0)")
    ap.add_argument("--plan", help="a plan's graphs, their predictions compared (exit 1 where one moved)")
    ap.add_argument("--costs", help="a candidate benchmark file read as the cost model's table")
    ap.add_argument("--free-gb", type=float, default=H200_FREE_GB, help="the GPU's free memory, GiB (an H200's)")
    a = ap.parse_args(argv)
    import yaml
    from apsp_kernels.elimination_choice import refuse_unmeasured_ordering
    from apsp_kernels.io import suite_graphs as SG
    refuse_unmeasured_ordering(ap)           # without METIS auto never picks the elimination: not the device's picks
    if not a.free_gb > 0:
        ap.error(f"--free-gb {a.free_gb:g}: a positive number of GiB")
    planned = {}
    if a.plan:
        try:
            plan = yaml.safe_load(Path(a.plan).read_text())
            for p in plan.get("graphs") or ():
                planned[(p["graph"], int(p["n"] or 0))] = p.get("predicted_pick") or {}
        except (OSError, yaml.YAMLError, AttributeError, KeyError, TypeError, ValueError) as e:
            ap.error(f"--plan {a.plan}: not a plan with graphs of graph, n and predicted_pick ({e})")
    try:
        asked = [SG.spec(x) for x in a.graphs]
    except ValueError as e:
        ap.error(str(e))
    asked += [k for k in planned if k not in asked]
    if not asked:
        ap.error("no graph: name them (knn:65536) or give --plan")
    unknown = [name for name, _ in asked if not SG.known(name)]
    if unknown:
        ap.error(f"unknown graph {', '.join(map(repr, unknown))}")
    free = a.free_gb * 2**30
    moved = False
    with tempfile.TemporaryDirectory() as tmp:
        other = None
        if a.costs:
            other, why = candidate_folders(a.costs, tmp)
            if why:
                ap.error(why)
        for name, n in asked:
            g = SG.make(name, n or None, seed=n)
            now = picks(g, free)
            was = planned.get((name, n), planned.get((name, g.n)))
            line = {"graph": name, "n": g.n, "m": g.m, "predicted_pick": now}    # a bundled network: its own n
            notes = []
            if was is not None:
                diff = {r: f"{was[r]} -> {now[r]}" for r in was if now.get(r) != was[r]}
                moved |= bool(diff)
                notes.append(f"planned: {'as now' if not diff else diff}")
            if other:
                then = picks(g, free, benchmarks=other)
                diff = {r: f"{now[r]} -> {then[r]}" for r in now if then[r] != now[r]}
                notes.append(f"with {Path(a.costs).name}: {'no pick moves' if not diff else diff}")
            flow = yaml.safe_dump(line, default_flow_style=True, sort_keys=False, width=1000).strip()
            print(f"- {flow}" + (f"   # {'; '.join(notes)}" if notes else ""), flush=True)
    return int(moved)


if __name__ == "__main__":
    raise SystemExit(main())
