"""Vendor figures of the GPUs the papers used and of ours, so that a speed-up measured on an
H100 can be set against one measured in 2007-2012.  Peak numbers from the vendors' spec
sheets; int32 throughput is SMs x int32 lanes per SM x boost clock (one add or min per lane
per clock: CUDA Programming Guide, arithmetic instruction throughput per compute capability)."""
from __future__ import annotations

import pandas as pd

GPUS = {
    # name: (memory bandwidth GB/s, SMs, int32 lanes per SM, clock GHz, memory GB, who used it, per whom)
    # Only what the seeds state is attributed to a paper; no seed names the GPUs of Harish &
    # Narayanan, Katz & Kider or Tran, so none is listed for them (Kemp Sec. 5.4 says only that his
    # GTX 470 has "double the number of cores that were used for Tran (2010) experiments").
    "GeForce GTX 470": (133.9, 14, 32, 1.215, 1.28, "Kemp 2012", "seed 000, Sec. 5.3, Fig. 5.1"),
    "Tesla P100": (732.0, 56, 64, 1.48, 16.0, "Pathak et al. (IIT Kharagpur)", "seed 001, Sec. 6.2"),
    "GeForce RTX 2070 SUPER": (448.0, 40, 64, 1.77, 8.0, "Sing et al. (TU Wien)", "seed 003, Results"),
    "H100 SXM5 80GB": (3352.0, 132, 64, 1.98, 80.0, "this study", "measured here"),
}


def table(measured=None):
    """One row per GPU with its peak bandwidth and int32 throughput, and both as ratios of
    the H100's.  ``measured``: optional dict(copy_GBps=..., minplus_Tops=...) of ours."""
    rows = []
    for name, (bw, sms, lanes, ghz, mem, who, src) in GPUS.items():
        rows.append(dict(gpu=name, used_by=who, stated_in=src, bandwidth_GBps=bw, int32_Gops=sms * lanes * ghz,
                         memory_GB=mem))
    df = pd.DataFrame(rows).set_index("gpu")
    h = df.loc["H100 SXM5 80GB"]
    df["H100 / this: bandwidth"] = h["bandwidth_GBps"] / df["bandwidth_GBps"]
    df["H100 / this: int32"] = h["int32_Gops"] / df["int32_Gops"]
    if measured:
        df.loc["H100 SXM5 80GB", "measured here"] = (f"copy {measured.get('copy_GBps', float('nan')):.0f} GB/s, "
                                                     f"min-plus {measured.get('minplus_Tops', float('nan')):.1f} Tops/s")
    return df


def ratio(original_gpu, bound="bandwidth"):
    """How much faster the H100 is than ``original_gpu`` in what bounds a kernel."""
    t = table()
    return float(t.loc[original_gpu, "H100 / this: bandwidth" if bound == "bandwidth" else "H100 / this: int32"])
