"""Whether the result's type left on the device changes a code's end-to-end time: ``tuned_elimination`` and
``tuned_frontier`` with ``device=True`` in int32 and in float64 (medians of 5 warm calls), the float64 conversion
(:func:`resident.converted`) alone, and the memory pool after.  A diagnostic: prints, writes nothing.

    python3 scripts/resident_dtype_probe.py [name:n ...]"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import time, numpy as np, cupy as cp
from apsp_kernels import api
from apsp_kernels.io import suite_graphs as SG
from apsp_kernels.algorithms.gpu import resident as R
def t(f, k=5):
    f(); cp.cuda.Device().synchronize(); ms=[]
    for _ in range(k):
        t0=time.perf_counter(); x=f(); cp.cuda.Device().synchronize(); ms.append((time.perf_counter()-t0)*1e3); del x
    return np.median(ms)
for spec in sys.argv[1:] or ["corridor-12:10500", "grid8-40:12000"]:
    name,n=SG.spec(spec); g=SG.make(name,n,seed=n)
    for code in ["tuned_elimination","tuned_frontier"]:
        a=t(lambda: api.shortest_paths(g,method=code,device=True,dtype=np.int32))
        b=t(lambda: api.shortest_paths(g,method=code,device=True))
        print(spec, code, f"int32-device {a:.1f}  float64-device {b:.1f}", flush=True)
    D=api.shortest_paths(g,method="tuned_elimination",device=True,dtype=np.int32)
    print(" converted alone", f"{t(lambda: R.converted(D, np.float64)):.2f} ms", " empty f64", f"{t(lambda: cp.empty(D.shape, np.float64)):.2f}")
    mp=cp.get_default_memory_pool(); print(" pool used/total GB", mp.used_bytes()/1e9, mp.total_bytes()/1e9)
