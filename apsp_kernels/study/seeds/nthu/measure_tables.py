"""The printed tables of the NTHU measurement (seeds/nthu/measure.py): after a one-GPU run, kernel time by
blocking factor and the per-phase ratios against the seed's sequential count; a line per finished P-GPU solve;
after a P-GPU run, the stage table and the strong and weak scaling (the latter as notebook 09 computes it)."""
from __future__ import annotations

import pandas as pd

from ....algorithms.gpu.fw_nthu import padded_size, parse_variant
from .scaling import weak_points


def single_tables(df):
    ok = df[df["status"] == "ok"].copy()
    parts = ok["variant"].map(parse_variant)
    ok["bs"], ok["launch"], ok["update"] = zip(*parts)
    med = ok.groupby(["n", "bs", "launch", "update"])[["kernel_ms", "phase1_ms", "phase2_ms", "phase3_ms"]].median()
    print("\nkernel time (median ms) by blocking factor; columns launch/update")
    print(med["kernel_ms"].unstack(["launch", "update"]).round(1).to_string())
    print("\nper phase in the seed's shape (dim3, branch): elapsed ms, time ratio, sequential ratio 1 : 2K : K^2")
    base = ok[(ok["launch"] == "dim3") & (ok["update"] == "branch")]
    for (n, bs), row in base.groupby(["n", "bs"])[["phase1_ms", "phase2_ms", "phase3_ms"]].median().iterrows():
        K = padded_size(n, bs) // bs
        p = [row[f"phase{i}_ms"] for i in (1, 2, 3)]
        print(f"n={n} bs={bs:2d} K={K:5d}: {p[0]:8.2f} {p[1]:9.2f} {p[2]:10.2f} ms | ratio 1 : {p[1] / p[0]:.2f} : "
              f"{p[2] / p[0]:.1f} | seq 1 : {2 * K} : {K * K}")


def solve_line(r):
    return (f"P={r['n_gpus']} n={r['n']:6d} {r['variant']:6s} {r['label']:6s}: {r['kernel_ms_max'] / 1e3:8.2f} s "
            f"(rank 0: compute {r['compute_ms'] / 1e3:.2f} s, comm {r['comm_ms'] / 1e3:.2f} s, "
            f"{r['payload_bytes_per_round'] / 1e6:.2f} MB/round) {r['status']}")


def multi_tables(df):
    if df.empty:
        return
    df = df.copy()
    df["comm_pct"] = 100 * df["comm_ms"] / df["kernel_ms"]
    print("\nstage table (rank 0): bytes per round as the seed counts them, bandwidth, compute vs communication")
    cols = ["n", "n_gpus", "variant", "payload_bytes_per_round", "bandwidth_GBps", "compute_ms", "comm_ms", "comm_pct",
            "kernel_ms_max"]
    df["bandwidth_GBps"] = pd.to_numeric(df["bandwidth_GBps"], errors="coerce")
    table = df[cols].groupby(["n", "n_gpus", "variant"]).median().round(2)
    table["verified_by"] = df.groupby(["n", "n_gpus", "variant"])["verified_by"].first()
    table["status"] = df.groupby(["n", "n_gpus", "variant"])["status"].agg(lambda x: ",".join(sorted(set(x))))
    print(table.to_string())
    one = df[df["n_gpus"] == 1].groupby("n")["kernel_ms_max"].median()
    print("\nstrong scaling: T(1 GPU) / T(P GPUs) at fixed n")
    for (n, P, s), t in df[df["label"] == "strong"].groupby(["n", "n_gpus", "variant"])["kernel_ms_max"].median().items():
        if n in one.index and P > 1:
            print(f"n={n} P={P} {s:6s}: {one[n] / t:.2f}x  (efficiency {one[n] / t / P:.0%})")
    for k in sorted(set(df.loc[df["label"] == "weak", "kernel"])):      # the notebook's computation (nthu_scaling)
        w = weak_points(df.assign(process=0), k)
        if len(w):
            print(f"\nweak scaling, {k}: T(1, n0) / T(P, n0 sqrt P) (ideal: 1/sqrt(P) for n^3 work, n^2 per GPU)")
        for r in w.itertuples():
            print(f"n0={r.n0:.0f} P={r.n_gpus} n={r.n} {r.variant}: {r.t1_n0 / r.t:.2f} (efficiency {r.efficiency:.0%})")
