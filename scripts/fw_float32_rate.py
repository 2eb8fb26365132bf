"""tuned_fw's float32 kernels beside its int32 ones, on the device: kernel rate and end to end.

    python3 scripts/fw_float32_rate.py [--sizes 4096 8192 16384] [--repeats 3] [--out DIR]

Per size, one Kemp random graph (degree 2-6, integer weights 1..1000, so float32 holds every distance exactly):
``tuned_fw`` with ``dtype="int32"`` and ``dtype="float32"``, each a warm-up solve then ``repeats`` timed ones
(CUDA events: ``kernel_ms``), every result checked against the graph's reference (Fletcher-64 of the exact
int32 distances; the float32 result converted, +inf to INF, before its checksum); the rate is N^3 min-plus
updates per second of kernel (N the padded size, as the benchmark's ``updates_per_s``); then
``shortest_paths(g, method="tuned_fw", dtype=...)`` warm, synchronised wall clock, for int32 and float32.
A benchmark: it reports.  Writes ``fw_float32_rate.csv`` and its provenance to ``--out``."""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd

from apsp_kernels import api
from apsp_kernels.algorithms.gpu.tuned import fw
from apsp_kernels.algorithms.reference import reference_checksum
from apsp_kernels.core import generators as G
from apsp_kernels.core.distances import from_scipy
from apsp_kernels.core.verify import fletcher64
from apsp_kernels.measure import provenance


def wall(fn):
    import cupy as cp
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    out = fn()
    cp.cuda.Device().synchronize()
    return (time.perf_counter() - t0) * 1e3, out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[4096, 8192, 16384])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=".")
    a = ap.parse_args(argv)
    rows = []
    for i, n in enumerate(a.sizes):
        g = G.kemp(n, 2, 6, seed=100 + i)
        ref = reference_checksum(g)
        N = fw.padded(n)
        for dtype in ("int32", "float32"):
            fw.tuned_fw(g, dtype=dtype)                                   # warm-up (and compile)
            ks, ok = [], True
            for _ in range(a.repeats):
                d, t = fw.tuned_fw(g, dtype=dtype)
                got = fletcher64(from_scipy(d) if dtype == "float32" else d)
                ok &= got == ref
                ks.append(t["kernel_ms"])
            kernel = float(np.median(ks))
            np_dtype = np.dtype(dtype)
            api.shortest_paths(g, method="tuned_fw", dtype=np_dtype)      # warm the end-to-end path
            e2e, d = wall(lambda: api.shortest_paths(g, method="tuned_fw", dtype=np_dtype))
            ok &= fletcher64(from_scipy(d) if dtype == "float32" else d) == ref
            rows.append(dict(algorithm="tuned_fw", dtype=dtype, n=n, m=g.m, padded_n=N, repeats=a.repeats,
                             kernel_ms=kernel, kernel_ms_all=json.dumps([round(k, 4) for k in ks]),
                             updates_per_s=N ** 3 / (kernel / 1e3), e2e_ms=e2e, verified=bool(ok)))
            r = rows[-1]
            print(f"n={n:6d} {dtype:8s} kernel {kernel:9.2f} ms  {r['updates_per_s'] / 1e12:6.2f} T updates/s  "
                  f"end to end {e2e:9.1f} ms  verified={ok}", flush=True)
    df = pd.DataFrame(rows)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    df.to_csv(out / "fw_float32_rate.csv", index=False)
    (out / "fw_float32_rate.provenance.json").write_text(
        json.dumps(provenance.collect("fw_float32_rate", vars(a)), indent=1))
    print("\nfloat32 kernel time / int32 kernel time, per n:")
    for n, t in df.groupby("n"):
        k = t.set_index("dtype").kernel_ms
        print(f"  n={n:6d}  {k['float32'] / k['int32']:.2f}  (all verified: {bool(t.verified.all())})")


if __name__ == "__main__":
    main()
