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


def picks(name, n, free_bytes, benchmarks=None):
    """({result: the code auto would run}, m) for the suite's graph ``name`` at ``n``."""
    from apsp_kernels import choice
    from apsp_kernels.io import suite_graphs as SG
    g = SG.make(name, n or None, seed=n)
    return {r: choice.choose(g, gpu=True, free_bytes=free_bytes, benchmarks=benchmarks, result=r).algorithm.name
            for r in choice.RESULTS}, g.m


def candidate_folder(costs, into):
    """A folder holding ``costs`` under the name the cost model takes its device's table from
    (``<device>-<date>-costs.csv``, its provenance beside it where there is one)."""
    from apsp_kernels.cost_rows import FILE
    m = FILE.match(Path(costs).name)
    if not m:
        raise SystemExit(f"--costs {costs}: not a results file name (<device>-<date>[-<tag>].csv)")
    stem = f"{m.group('device')}-{m.group('date')}-costs"
    shutil.copy(costs, Path(into) / f"{stem}.csv")
    prov = Path(costs).with_suffix(".provenance.json")
    if prov.exists():
        shutil.copy(prov, Path(into) / f"{stem}.provenance.json")
    return Path(into)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("graphs", nargs="*", metavar="NAME:N", help="suite graphs (name:n; a bundled network name:0)")
    ap.add_argument("--plan", help="a plan's graphs, their predictions compared (exit 1 where one moved)")
    ap.add_argument("--costs", help="a candidate benchmark file read as the cost model's table")
    ap.add_argument("--free-gb", type=float, default=H200_FREE_GB)
    a = ap.parse_args(argv)
    import yaml
    from apsp_kernels.costs import benchmark_folders
    from apsp_kernels.io import suite_graphs as SG
    planned = {}
    if a.plan:
        for p in yaml.safe_load(Path(a.plan).read_text()).get("graphs") or ():
            planned[(p["graph"], int(p["n"]))] = p.get("predicted_pick") or {}
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
        other = (candidate_folder(a.costs, tmp),) + benchmark_folders() if a.costs else None
        for name, n in asked:
            now, m = picks(name, n, free)
            line = {"graph": name, "n": n, "m": m, "predicted_pick": now}
            notes = []
            if (name, n) in planned:
                was = planned[(name, n)]
                diff = {r: f"{was[r]} -> {now[r]}" for r in was if now.get(r) != was[r]}
                moved |= bool(diff)
                notes.append(f"planned: {'as now' if not diff else diff}")
            if other:
                then, _ = picks(name, n, free, benchmarks=other)
                diff = {r: f"{now[r]} -> {then[r]}" for r in now if then[r] != now[r]}
                notes.append(f"with {Path(a.costs).name}: {'no pick moves' if not diff else diff}")
            flow = yaml.safe_dump(line, default_flow_style=True, sort_keys=False, width=1000).strip()
            print(f"- {flow}" + (f"   # {'; '.join(notes)}" if notes else ""), flush=True)
    return int(moved)


if __name__ == "__main__":
    raise SystemExit(main())
