"""How many rows a chunk when tuned_frontier streams its rows to the host?  (a probe on the
device that fixed ``resident.STREAM_BYTES``, not a benchmark row)

    python3 scripts/stream_chunks_probe.py [--n 16384] [--graphs kemp grid ring ba]

Per structure-suite graph: ``shortest_paths(g, method="tuned_frontier")`` (float64 and int32 to the host), warm,
median of 3, synchronised wall clock, with every chunk size of ``--chunks`` (0: one wave of blocks, the default; a size of n or more: one chunk, nothing
overlapped), each result checked against the graph's reference; the kernel alone beside it (``run_resident``
without a sink)."""
from __future__ import annotations

import argparse
import time

import numpy as np

import apsp_kernels as ak
from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.gpu.tuned import frontier
from apsp_kernels.algorithms.reference import reference_checksum
from apsp_kernels.core.distances import from_scipy
from apsp_kernels.core.verify import fletcher64
from apsp_kernels.io import suite_graphs as SG


WAVE = frontier.resident_blocks


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=16384)
    ap.add_argument("--graphs", nargs="+", default=["kemp", "grid", "ring", "ba"])
    ap.add_argument("--chunks", type=int, nargs="+", default=[0, 16384, 4224, 1024])
    ap.add_argument("--threads", type=int, nargs="+", default=[frontier.THREADS],
                    help="threads a block (the kernel uses blockDim; TFR_THREADS is its launch bound)")
    a = ap.parse_args(argv)
    for threads in a.threads:
        frontier.THREADS = threads
        print(f"--- {threads} threads a block", flush=True)
        probe(a)


def probe(a):
    import cupy as cp
    fr = registry.get("tuned_frontier")
    for name in a.graphs:
        g = SG.make(name, a.n)
        ref = reference_checksum(g)
        _, t = fr.run_resident(g)
        _, t = fr.run_resident(g)
        frontier.resident_blocks = WAVE
        _, ts = fr.run_resident(g, sink=lambda r0, D, s: None)
        print(f"{name} n={g.n} m={g.m}: kernel alone {t['kernel_ms']:.1f} ms; streamed, the sink doing nothing: "
              f"{ts['kernel_ms']:.1f} ms in {ts['chunks']} chunks of {ts['chunk_rows']}, later ones {ts['threads']} threads",
              flush=True)
        for c in a.chunks:
            frontier.resident_blocks = WAVE if c == 0 else (lambda cp, fn, smem, c=c: c)
            for dtype in (np.float64, np.int32):
                ak.shortest_paths(g, method="tuned_frontier", dtype=dtype)
                ts, ok = [], True
                for _ in range(3):
                    cp.cuda.Device().synchronize()
                    t0 = time.perf_counter()
                    d = ak.shortest_paths(g, method="tuned_frontier", dtype=dtype)
                    cp.cuda.Device().synchronize()
                    ts.append((time.perf_counter() - t0) * 1e3)
                    ok &= fletcher64(from_scipy(d) if d.dtype.kind == "f" else d) == ref
                    del d
                print(f"  chunk {c or 'wave':>5}  {np.dtype(dtype).name:7s} {np.median(ts):8.1f} ms  "
                      f"all {[round(x) for x in ts]}  verified={ok}", flush=True)


if __name__ == "__main__":
    main()
