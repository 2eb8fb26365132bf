"""Whether the result's type left on the device changes a code's end-to-end time: ``tuned_elimination`` and
``tuned_frontier`` with ``device=True`` in int32 and in float64 (medians of 5 warm calls), the float64 conversion
(:func:`resident.converted`) alone, and the memory pool after.  A diagnostic: prints, writes nothing.

    python3 scripts/resident_dtype_probe.py [name:n ...]"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

REPEATS = 5


def main(argv=None):
    import cupy as cp
    from apsp_kernels import api
    from apsp_kernels.algorithms.gpu import resident as R
    from apsp_kernels.io import suite_graphs as SG
    from apsp_kernels.measure import wall
    ms = lambda fn: wall.median_ms(fn, REPEATS, warm=True, drop=True)[0]
    for spec in (argv if argv is not None else sys.argv[1:]) or ["corridor-12:10500", "grid8-40:12000"]:
        name, n = SG.spec(spec)
        g = SG.make(name, n, seed=n)
        for code in ("tuned_elimination", "tuned_frontier"):
            a = ms(lambda: api.shortest_paths(g, method=code, device=True, dtype=np.int32))
            b = ms(lambda: api.shortest_paths(g, method=code, device=True))
            print(spec, code, f"int32-device {a:.1f}  float64-device {b:.1f}", flush=True)
        D = api.shortest_paths(g, method="tuned_elimination", device=True, dtype=np.int32)
        print(" converted alone", f"{ms(lambda: R.converted(D, np.float64)):.2f} ms",
              " empty f64", f"{ms(lambda: cp.empty(D.shape, np.float64)):.2f}")
        pool = cp.get_default_memory_pool()
        print(" pool used/total GB", pool.used_bytes() / 1e9, pool.total_bytes() / 1e9)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
