"""``tuned_elimination``'s first calls in a fresh process, with METIS's worker processes (the default) and without
(``APSP_METIS_PROCESSES=0``): whether starting the workers in the background slows the call that starts them.

    python3 scripts/elimination_first_call.py --graphs delaunay:16384 grid8:16384 --repeats 3 --out DIR

Each (graph, setting, repeat) is a process of its own, the settings alternating: ``import apsp_kernels``, the graph
made (not timed), then three ``shortest_paths(g, method="tuned_elimination", device=True)`` calls timed by a
synchronised wall clock: the first (CUDA context, kernels from CuPy's disk cache, the workers started), the second
right after it, the third after a pause of ``--pause`` seconds (the workers ready by then).  Writes
``first_call.csv`` (one row per call) with provenance beside it; prints the medians."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHILD = """
import json, sys, time
import cupy as cp
from apsp_kernels import api
from apsp_kernels.io import suite_graphs as SG
name, n = SG.spec(sys.argv[1])
g = SG.make(name, n, seed=n)
out = []
for k in range(3):
    if k == 2:
        time.sleep(float(sys.argv[2]))
    t0 = time.perf_counter()
    d = api.shortest_paths(g, method="tuned_elimination", device=True)
    cp.cuda.Device().synchronize()
    out.append((time.perf_counter() - t0) * 1e3)
    del d
from apsp_kernels.algorithms.cpu.elimination import metis_parallel as MP
print(json.dumps(dict(ms=out, pool=MP.default_pool().kind)))
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", default=["delaunay:16384", "grid8:16384"])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--pause", type=float, default=3.0)
    ap.add_argument("--out", default=".")
    a = ap.parse_args(argv)
    from apsp_kernels.elimination_choice import refuse_unmeasured_ordering
    refuse_unmeasured_ordering(ap)
    import pandas as pd
    from apsp_kernels.measure import provenance
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    provenance.write_invocation(out / "first_call.provenance.json", provenance.collect("elimination-first-call", vars(a)))
    rows = []
    env_path = os.pathsep.join([str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    for spec in a.graphs:
        for r in range(a.repeats):
            for setting in (("default", "0") if r % 2 == 0 else ("0", "default")):
                env = {**os.environ, "PYTHONPATH": env_path}
                env.pop("APSP_METIS_PROCESSES", None)
                if setting == "0":
                    env["APSP_METIS_PROCESSES"] = "0"
                done = subprocess.run([sys.executable, "-c", CHILD, spec, str(a.pause)], env=env, cwd=ROOT,
                                      capture_output=True, text=True, timeout=300)
                if done.returncode:
                    raise SystemExit(f"{spec} ({setting}): {done.stderr[-800:]}")
                got = json.loads(done.stdout.strip().splitlines()[-1])
                for k, ms in enumerate(got["ms"]):
                    rows.append(dict(graph=spec, processes=setting, repeat=r, call=k + 1, ms=ms, pool=got["pool"]))
                print(spec, setting, r, [round(x, 1) for x in got["ms"]], got["pool"], flush=True)
    d = pd.DataFrame(rows)
    d.to_csv(out / "first_call.csv", index=False)
    print(d.groupby(["graph", "processes", "call"]).ms.median().unstack("call").round(1).to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
