"""The tuned FW across the GPUs of one host (``tuned_fw_multi``), beside ``tuned_fw`` on one GPU: strong scaling.

    python3 scripts/multi_gpu_bench.py [--sizes 16384 32768 65536] [--gpus 1 2 4] [--repeats 3] [--out DIR]

Per size, Kemp's random graph (degree 2-6, weights 1..1000, seed n).  First ``tuned_fw`` on one GPU (the one-GPU
code every multi-GPU result is checked against: its Fletcher-64, and against the all-core CPU Dijkstra where
``--cpu-check-up-to`` allows); then, per GPU count, one start of the ranks (one process per GPU): a small warm-up
solve, then ``repeats`` timed solves.  Each solve: CUDA events around the rounds on every rank (``kernel_ms``: the
slowest rank), the synchronised wall clock of building the rows, solving and finishing them on the device
(``solve_ms``), and the waits for pivot rows; then its block rows checksummed (not timed) and combined: every timed
result is verified.  The rate is N^3 min-plus updates per second of the slowest rank's kernel time.  A benchmark:
it reports, against one GPU and against the hardware (``tuned_fw``'s rate); nothing here is a pass mark.
Writes ``multi-gpu-bench.csv`` (rewritten after every GPU count, so a run cut short keeps what it finished) and
its provenance to ``--out``; prints a table last."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from apsp_kernels.algorithms.gpu.multi import launch
from apsp_kernels.algorithms.gpu.multi.tuned import padded, solve_rank
from apsp_kernels.core.verify import block_rows_checksum
from apsp_kernels import gpu_device
from apsp_kernels.core import generators as G
from apsp_kernels.core.verify import fletcher64
from apsp_kernels.measure import provenance


def _rank(ctx, n, seed, repeats, lookahead):
    """On every rank: a warm-up (compiles, opens NCCL's channels), then the timed solves of Kemp's graph."""
    solve_rank(ctx, G.kemp(256 * ctx.size, seed=1), None, True, lookahead)
    g = G.kemp(n, seed=seed)
    out = []
    for rep in range(repeats):
        info = solve_rank(ctx, g, None, True, lookahead)
        info["repeat"] = rep
        out.append(info)
        if ctx.rank == 0:
            ctx.send("note", f"  P={ctx.size} n={n} repeat {rep}: {info['kernel_ms'] / 1e3:.2f} s on rank 0")
    return out


def one_gpu_reference(n, seed, cpu_up_to):
    """``tuned_fw`` on one GPU: its checksum, kernel time and, up to ``cpu_up_to``, whether the CPU agrees."""
    from apsp_kernels.algorithms.gpu.tuned.fw import tuned_fw
    g = G.kemp(n, seed=seed)
    tuned_fw(G.kemp(512, seed=1))
    d, t = tuned_fw(g)
    ref = fletcher64(d)
    del d
    cpu = None
    if n <= cpu_up_to:
        from apsp_kernels.algorithms.reference import reference_checksum
        cpu = reference_checksum(g) == ref
    return g.m, ref, t["kernel_ms"], cpu


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[16384, 32768, 65536])
    ap.add_argument("--gpus", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-lookahead", dest="lookahead", action="store_false")
    ap.add_argument("--cpu-check-up-to", type=int, default=16384)
    ap.add_argument("--timeout-s", type=float, default=540)
    ap.add_argument("--out", default=".")
    a = ap.parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    prov = provenance.collect("multi_gpu_bench", vars(a))
    prov.update(gpus_on_host=gpu_device.device_count(), nccl=launch.nccl_version())    # the host's, beside the GPU's
    (out / "multi-gpu-bench.provenance.json").write_text(json.dumps(prov, indent=1, default=str))
    save = lambda: pd.DataFrame(rows).to_csv(out / "multi-gpu-bench.csv", index=False)
    say = lambda rank, kind, text: print(text, flush=True) if kind == "note" else None
    rows = []
    for n in a.sizes:
        seed, N = n, padded(n)
        m, ref, one_ms, cpu = one_gpu_reference(n, seed, a.cpu_check_up_to)
        print(f"n={n}: tuned_fw on one GPU {one_ms / 1e3:.2f} s ({N ** 3 / one_ms / 1e9:.2f} T updates/s), "
              f"CPU check: {'agrees' if cpu else 'DIFFERS' if cpu is False else 'not run'}", flush=True)
        rows.append(dict(code="tuned_fw", n=n, m=m, padded_n=N, n_gpus=1, repeat=0, kernel_ms=one_ms,
                         updates_per_s=N ** 3 / (one_ms / 1e3), checksum=f"{ref:016x}", verified=cpu is not False,
                         checked_against="cpu" if cpu is not None else "none"))
        for P in a.gpus:
            t0 = time.perf_counter()
            try:
                per_rank = launch.spawn(P, _rank, (n, seed, a.repeats, a.lookahead), timeout_s=a.timeout_s,
                                        on_message=say)
            except launch.RankError as e:
                print(f"error: n={n} P={P}: {e}", file=sys.stderr, flush=True)
                rows.append(dict(code="tuned_fw_multi", n=n, n_gpus=P, error=str(e)))
                save()
                continue
            call_s = time.perf_counter() - t0
            for rep in range(a.repeats):
                infos = [r[rep] for r in per_rank]
                got = block_rows_checksum(infos)
                k = max(i["kernel_ms"] for i in infos)
                rows.append(dict(
                    code="tuned_fw_multi", n=n, m=m, padded_n=N, n_gpus=P, repeat=rep, kernel_ms=k,
                    kernel_ms_per_rank=json.dumps([round(i["kernel_ms"], 3) for i in infos]),
                    solve_ms=max(i["e2e_ms"] for i in infos), build_ms=max(i["build_ms"] for i in infos),
                    finish_ms=max(i["result_ms"] for i in infos), wait_ms=max(i["wait_ms"] for i in infos),
                    bcast_ms=max(i["bcast_ms"] for i in infos), received_bytes=max(i["received_bytes"] for i in infos),
                    updates_per_s=N ** 3 / (k / 1e3), lookahead=a.lookahead, checksum=f"{got:016x}",
                    verified=got == ref, checked_against="tuned_fw", ranks_call_s=call_s))
            save()
            bad = [r for r in rows[-a.repeats:] if not r["verified"]]
            if bad:
                print(f"WRONG: n={n} P={P}: {len(bad)} result(s) differ from one GPU's", flush=True)
    save()
    df = pd.DataFrame(rows)
    ok = df[df.code == "tuned_fw_multi"].dropna(subset=["kernel_ms"])
    if len(ok):
        t = ok.groupby(["n", "n_gpus"]).agg(kernel_s=("kernel_ms", lambda s: np.median(s) / 1e3),
                                           wait_ms=("wait_ms", "median"), verified=("verified", "all")).reset_index()
        one = df[df.code == "tuned_fw"].set_index("n").kernel_ms / 1e3
        t["speedup_vs_tuned_fw"] = [one[n] / k for n, k in zip(t.n, t.kernel_s)]
        t["T_updates_per_s"] = [padded(n) ** 3 / k / 1e12 for n, k in zip(t.n, t.kernel_s)]
        print("\n" + t.to_string(index=False, float_format=lambda x: f"{x:.3g}"))
    return 0 if df.get("verified", pd.Series([True])).fillna(False).all() else 1


if __name__ == "__main__":
    sys.exit(main())
