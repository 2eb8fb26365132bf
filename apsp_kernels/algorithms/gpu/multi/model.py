"""A time model of ``tuned_fw_multi`` (``multi/tuned.py``) for more GPUs than were measured, and for a 2-D block grid.

    T(P) = T1 / P + K * bytes_a_round(P) / B

T1: one GPU's kernel time at this n (measured); K = N / 128 rounds; bytes_a_round: what a rank receives a round,
a pivot row of blocks (128 x N int32) with block rows, or a 128-row piece of it and a 128-column piece of the pivot
column, each N / sqrt(P) long, on a sqrt(P) x sqrt(P) grid; B: the effective bandwidth of that transfer as it shares
the GPUs with phase 3.  The model's one fitted number is B, calibrated from one measured GPU count and checked
against another (:func:`check`); beyond one host B is an assumption (the network's per-GPU bandwidth), said where it
is used.  It leaves out what the measurements show to be small: the owner's serial phases (hidden by the
lookahead) and the receivers' waits (11.6-18.9 ms of 4.8-9.5 s at n = 65,536).

    python -m apsp_kernels.algorithms.gpu.multi.model [--check]     # the table in docs/multi-gpu.md
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

TILE = 128
ROOT = Path(__file__).resolve().parents[4]
BENCH = ROOT / "data" / "results" / "benchmarks" / "NVIDIA_H200-2026-11-28-multi-gpu-x4.csv"
DOC = ROOT / "docs" / "multi-gpu.md"
NETWORK_GBPS = 50.0          # an assumption, not a measurement: InfiniBand NDR (400 Gb/s) per GPU between hosts


def padded(n):
    return -(-max(int(n), 1) // TILE) * TILE


def bytes_a_round(n, gpus, layout="rows"):
    """Bytes a rank receives in one round: the pivot row of blocks (block rows), or a piece of the pivot row and
    one of the pivot column, each N / sqrt(P) long (a sqrt(P) x sqrt(P) grid)."""
    N = padded(n)
    if gpus <= 1:
        return 0
    if layout == "rows":
        return TILE * N * 4
    if layout == "grid":
        return 2 * TILE * math.ceil(N / math.sqrt(gpus)) * 4
    raise ValueError(f"layout is 'rows' or 'grid', not {layout!r}")


def predict_s(n, gpus, one_gpu_s, gbps, layout="rows"):
    """Seconds of kernel on each of ``gpus`` GPUs: T1 / P plus every round's transfer at ``gbps`` GB/s."""
    K = padded(n) // TILE
    return one_gpu_s / gpus + K * bytes_a_round(n, gpus, layout) / (gbps * 1e9)


def calibrate_gbps(n, gpus, one_gpu_s, measured_s):
    """The B that makes the model give ``measured_s`` on ``gpus`` GPUs."""
    K = padded(n) // TILE
    extra = measured_s - one_gpu_s / gpus
    if extra <= 0:
        return math.inf
    return K * bytes_a_round(n, gpus) / extra / 1e9


@dataclass
class Check:
    n: int
    one_gpu_s: float
    measured: dict         # GPUs -> median kernel seconds
    gbps: float            # calibrated on `calibrated_on`
    calibrated_on: int

    def predicted(self, gpus, layout="rows", gbps=None):
        return predict_s(self.n, gpus, self.one_gpu_s, self.gbps if gbps is None else gbps, layout)


def check(path=BENCH, calibrate_on=2):
    """The model calibrated on one GPU count of the committed benchmark, to be compared with the others."""
    import pandas as pd
    df = pd.read_csv(path)
    df = df[df.verified.astype(bool)]
    n = int(df.n.max())
    one = float(df[(df.code == "tuned_fw") & (df.n == n)].kernel_ms.median()) / 1e3
    multi = df[(df.code == "tuned_fw_multi") & (df.n == n)]
    measured = {int(p): float(t.kernel_ms.median()) / 1e3 for p, t in multi.groupby("n_gpus")}
    return Check(n, one, measured, calibrate_gbps(n, calibrate_on, one, measured[calibrate_on]), calibrate_on)


def table(c: Check, big=262_144):
    """Markdown: measured against predicted where measured, then the projections (at ``big`` vertices too, one GPU's
    time scaled as N^3 at the measured rate: a 262,144-vertex int32 matrix is 275 GB, a 64th of it 4.3 GB)."""
    lines = [f"Calibrated on {c.calibrated_on} GPUs: B = {c.gbps:.0f} GB/s (n = {c.n:,}, one GPU's `tuned_fw` "
             f"{c.one_gpu_s:.2f} s).", "",
             "| n | GPUs | where | layout | B (GB/s) | measured (s) | model (s) | speed-up over one GPU (x) |",
             "| ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |"]
    for p in sorted(c.measured):
        if p == 1:
            continue
        t = c.predicted(p)
        lines.append(f"| {c.n:,} | {p} | one host (NVLink) | block rows | {c.gbps:.0f} | {c.measured[p]:.3f} | "
                     f"{t:.3f} | {c.one_gpu_s / c.measured[p]:.2f} measured |")
    one_big = c.one_gpu_s * (padded(big) / padded(c.n)) ** 3
    rows = [(c.n, c.one_gpu_s, 8, "one host (NVLink)", "rows", c.gbps),
            (c.n, c.one_gpu_s, 64, "8 hosts (network)", "rows", NETWORK_GBPS),
            (c.n, c.one_gpu_s, 64, "8 hosts (network)", "grid", NETWORK_GBPS),
            (big, one_big, 64, "8 hosts (network)", "rows", NETWORK_GBPS),
            (big, one_big, 64, "8 hosts (network)", "grid", NETWORK_GBPS)]
    for n, one, p, where, layout, b in rows:
        t = predict_s(n, p, one, b, layout)
        lines.append(f"| {n:,} | {p} | {where} | {'block rows' if layout == 'rows' else '8 x 8 grid'} | {b:.0f} | "
                     f"not measured | {t:.3f} | {one / t:.1f} model |")
    return "\n".join(lines)


BEGIN, END = "<!-- model table: begin -->", "<!-- model table: end -->"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    text = table(check())
    if "--check" in argv:
        doc = DOC.read_text()
        have = doc.split(BEGIN, 1)[1].split(END, 1)[0].strip() if BEGIN in doc else None
        if have != text:
            print(f"{DOC.name}'s model table is stale: python -m apsp_kernels.algorithms.gpu.multi.model",
                  file=sys.stderr)
            return 1
        return 0
    if DOC.exists() and BEGIN in DOC.read_text():
        doc = DOC.read_text()
        head, rest = doc.split(BEGIN, 1)
        DOC.write_text(head + BEGIN + "\n" + text + "\n" + END + rest.split(END, 1)[1])
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
