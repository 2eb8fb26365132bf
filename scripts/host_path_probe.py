"""Where a code's float64 host result spends its time after the solve, and what overlapping the host's side with
the solve would save (a probe on the device, not a benchmark row).

    python3 scripts/host_path_probe.py --graphs grid:14000 bremen-dist:0 --codes tuned_elimination --repeats 3

Its first form (518c324) timed, beside ``fresh`` (then ``host``), a variant that filled every byte of the new result
from the host's threads during the solve: on one H200, tuned_elimination's float64 result, the grid of 14,000 172.1
against 149.2 ms, the kNN graph of 32,000 697.8 against 596.9, Bremen 1,163.6 against 919.2 (int32 over the bus and
converted on the host, with or without that fill, 167.8-173.8, 620.8-668.4 and 1,045.6-1,047.1).

Per graph and code, the median of ``repeats`` warm calls (synchronised wall clock, after one checked call) of:
  device          shortest_paths(device=True): the result left on the GPU (the floor of every host path)
  host, int32     shortest_paths() (float64) and dtype=np.int32, as they are: for a code without streamed rows, the
                  new result's pages touched by the host's threads while the GPU solves (resident.touched)
  fresh, int32-fresh
                  the same solve, then the result staged into fresh memory, untouched (the path before that)
  unfinished      the solve, then its int32 rows staged and converted by the host's threads as they leave the
                  staging buffers (HostRows.put_unfinished: tuned_frontier's way, without its overlap)
Each variant's result is checked against the reference checksum.  Prints one table and, with ``--out``, writes it
as ``host_path.csv`` with its provenance."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def variants(g, code):
    """name -> a function returning the float64 (or int32) host result of ``code`` on ``g``."""
    import cupy as cp
    from apsp_kernels import api
    from apsp_kernels.algorithms import registry
    from apsp_kernels.algorithms.gpu import resident as R
    algo = registry.get(code)

    def solve():
        D, _ = algo.run_resident(g)
        return R.finish(D)

    def unfinished(out=None):
        D = solve()
        rows = R.HostRows(D.shape, np.float64, out)
        rows.direct = False                     # staged even into a given array: the host's threads convert
        rows.put_unfinished(0, D, cp.cuda.get_current_stream())
        return rows.host

    return {"device": lambda: api.shortest_paths(g, method=code, device=True),
            "host": lambda: api.shortest_paths(g, method=code),
            "fresh": lambda: R.to_host(R.converted(solve(), np.float64)),
            "int32": lambda: api.shortest_paths(g, method=code, dtype=np.int32),
            "int32-fresh": lambda: R.to_host(R.converted(solve(), np.int32)),
            "unfinished": unfinished}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--graphs", nargs="+", default=["grid:14000"])
    ap.add_argument("--codes", nargs="+", default=["tuned_elimination"])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--variants", nargs="+", default=None, help="only these (default: every one)")
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    from apsp_kernels.elimination_choice import refuse_unmeasured_ordering
    refuse_unmeasured_ordering(ap, a.codes)
    import pandas as pd
    from apsp_kernels import gpu_device
    from apsp_kernels.algorithms.reference import reference_checksum
    from apsp_kernels.io import suite_graphs as SG
    from apsp_kernels.measure import provenance
    from apsp_kernels.structure_suite import matches
    cp = gpu_device.require_gpu()
    rows = []
    for spec in a.graphs:
        name, n = SG.spec(spec)
        g = SG.make(name, n, seed=n)
        ref = reference_checksum(g)
        for code in a.codes:
            for v, fn in variants(g, code).items():
                if a.variants and v not in a.variants:
                    continue
                d = fn()
                if not matches(d, ref):
                    raise SystemExit(f"{code} {v} on {name} {g.n}: result differs from the reference")
                del d
                ms = []
                for _ in range(a.repeats):
                    cp.cuda.Device().synchronize()
                    t0 = time.perf_counter()
                    d = fn()
                    cp.cuda.Device().synchronize()
                    ms.append((time.perf_counter() - t0) * 1e3)
                    del d
                rows.append(dict(graph=name, n=g.n, code=code, variant=v, median_ms=float(np.median(ms)),
                                 least_ms=min(ms), most_ms=max(ms)))
                print(rows[-1], flush=True)
    df = pd.DataFrame(rows)
    if a.out:
        out = Path(a.out)
        out.mkdir(parents=True, exist_ok=True)
        df.to_csv(out / "host_path.csv", index=False)
        provenance.write_invocation(out / "host_path.provenance.json", provenance.collect("host-path", vars(a)))
    print(df.pivot_table(index=["graph", "n", "code"], columns="variant", values="median_ms", sort=False)
          .round(1).to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
