"""Where ``tuned_fw_ooc``'s time goes (the tuned line's target 2: within 1.3x of ``tuned_fw``), on the device:

    python3 scripts/tuned_ooc_probe.py 16384 --fractions 0.25 --streams 2 3 --buffers 4 6

For each setting: the whole schedule's time against ``tuned_fw``'s on the same graph (every result compared
with ``tuned_fw``'s exactly), the time some kernel runs, and the time no kernel runs split into the rounds'
starts (from a round's first copy to its first product of the rest: the pivot super-row's load, closure,
row and column pieces) and the stalls inside the rest; the pinned 2-D copy rates of one super-block tile,
each way and both at once, which bound the schedule from below (``ooc_plan``: a round moves the matrix
in and out once).  A diagnostic, not a benchmark: the benchmark rows come from ``apsp_kernels bench``."""
from __future__ import annotations

import argparse
import itertools
import sys
import time

import numpy as np

from apsp_kernels.algorithms.gpu.tuned.ooc import _union_ms     # imports no CuPy


def idle_split(trace, steps):
    """(compute-idle ms in the rounds' heads, compute-idle ms in their rests), ``trace`` being ``steps``
    (``ooc_plan.schedule``) as run.  A round starts at its first step (``Step.round``); its head (P*'s
    copies, the row products, the next pivot block's column piece) ends where its first product of a column
    piece with the row panel starts; its rest ends where the next round starts.  Kernels: any step but a
    copy, on a compute stream or the pivot stream."""
    assert len(trace) == len(steps)
    starts = [i for i, s in enumerate(steps) if i == 0 or s.round != steps[i - 1].round]
    rest = lambda s: s.kind == "product" and s.regions[2].buf.startswith("C") and s.regions[3].buf == "RP"
    kern = [(b, e) for (k, st, b, e) in trace if (st.startswith("c") or st == "pivot") and k != "copy"]
    end = max(e for *_, e in trace)
    idle = [0.0, 0.0]
    for r, i0 in enumerate(starts):
        i2 = starts[r + 1] if r + 1 < len(starts) else None
        i1 = next(i for i in range(i0, i2 or len(steps)) if rest(steps[i]))
        t0, t1, t2 = trace[i0][2], trace[i1][2], trace[i2][2] if i2 is not None else end
        for k, (a, z) in enumerate(((t0, t1), (t1, t2))):
            idle[k] += (z - a) - _union_ms([(max(b, a), min(e, z)) for b, e in kern if e > a and b < z])
    return tuple(idle)


def copy_rates(cp, N, S, reps=5):
    """GB/s of one S x S tile of a pinned N x N host matrix: 2-D H2D, 2-D D2H, and both at once (each way)."""
    import cupyx
    H = cupyx.empty_pinned((N, N), np.int32)
    H[:] = 1
    dev = [cp.empty((S, S), cp.int32) for _ in range(2)]
    up, down = cp.cuda.Stream(non_blocking=True), cp.cuda.Stream(non_blocking=True)
    rt = cp.cuda.runtime

    def go(which, pitch):
        t0 = time.perf_counter()
        for _ in range(reps):
            if which in ("h2d", "both"):
                rt.memcpy2DAsync(dev[0].data.ptr, 4 * S, H.ctypes.data, 4 * pitch, 4 * S, S, rt.memcpyHostToDevice,
                                 up.ptr)
            if which in ("d2h", "both"):
                rt.memcpy2DAsync(H.ctypes.data + 4 * S * S, 4 * pitch, dev[1].data.ptr, 4 * S, 4 * S, S,
                                 rt.memcpyDeviceToHost, down.ptr)
        up.synchronize()
        down.synchronize()
        return reps * 4 * S * S / (time.perf_counter() - t0) / 1e9

    go("both", N)
    out = {w: go(w, N) for w in ("h2d", "d2h", "both")}
    out.update({w + " 1-D": go(w, S) for w in ("h2d", "d2h", "both")})     # the same bytes, contiguous
    return out


def kernel_rates(cp, S):
    """{parts of k: ms of one in-place S x S x S product (tfo_product, one stream)}, for one part and for
    the parts the launcher splits it in (``ooc.k_parts``)."""
    from apsp_kernels import gpu_device
    from apsp_kernels.algorithms.gpu import runtime
    from apsp_kernels.algorithms.gpu.tuned import ooc
    prod = runtime.kernel("tuned_fw_ooc.cu", "tfo_product")
    A, B = (cp.ones((S, S), cp.int32) for _ in range(2))
    C = cp.full((S, S), 1 << 20, cp.int32)
    s = np.int32(S)
    args = (C, s, C, s, A, s, B, s, s)
    out = {}
    for parts in sorted({1, ooc.k_parts((S // 128) ** 2, S, gpu_device.sm_count())}):
        grid = (S // 128, S // 128, parts)
        runtime.launch("probe", prod, grid, (ooc.THREADS,), args)
        with runtime.EventTimer() as t:
            for _ in range(5):
                runtime.launch("probe", prod, grid, (ooc.THREADS,), args)
        out[parts] = t.ms / 5
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int)
    ap.add_argument("--fractions", type=float, nargs="+", default=[0.25], help="budget as a fraction of the matrix")
    ap.add_argument("--streams", type=int, nargs="+", default=[2], help="compute streams")
    ap.add_argument("--buffers", type=int, nargs="+", default=None, help="tile buffers (default: ooc_plan.BUFFERS)")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--trace-out", help="append every setting's best trace to this CSV (n, budget, streams, buffers, "
                                        "step, kind, stream, begin_ms, end_ms)")
    a = ap.parse_args(argv)
    from apsp_kernels import gpu_device
    from apsp_kernels.algorithms.gpu.tuned import fw as tfw, ooc, ooc_plan, ooc_steps
    from apsp_kernels.core import generators
    a.buffers = a.buffers or [ooc_plan.BUFFERS]
    cp = gpu_device.require_gpu()
    g = generators.kemp(a.n, seed=a.n)                  # the benchmark's graph at this n
    tfw.tuned_fw(g)
    ref, t = tfw.tuned_fw(g)
    ref_ms = min([t["kernel_ms"]] + [tfw.tuned_fw(g)[1]["kernel_ms"] for _ in range(a.repeats - 1)])
    N = ooc_plan.padded(a.n)
    print(f"n = {a.n}: tuned_fw {ref_ms:.1f} ms ({a.n ** 3 / ref_ms / 1e9:.2f} T updates/s)")
    print(f"{'budget':>8} {'S':>5} {'blocks':>6} {'streams':>7} {'buffers':>7} {'ms':>8} {'x tfw':>6} {'kernels':>8} "
          f"{'idle@start':>10} {'idle@rest':>9} {'h2d':>7} {'d2h':>7} {'issue':>7} {'prep':>6} exact")
    rates = {}
    for f in a.fractions:
        budget = int(f * 4 * N * N)
        p = ooc_plan.plan(a.n, budget)
        if p.S not in rates and p.blocks > 1:
            rates[p.S] = copy_rates(cp, N, p.S)
        for s, b in itertools.product(a.streams, a.buffers):
            best = None
            for _ in range(a.repeats):
                tr = []
                d, tm = ooc.tuned_fw_ooc(g, budget_bytes=budget, buffers=b, compute_streams=s, trace=tr)
                if best is None or tm["kernel_ms"] < best[1]["kernel_ms"]:
                    best = (d, tm, tr)
            d, tm, tr = best
            ok = bool(np.array_equal(d, ref))
            if a.trace_out:
                import pandas as pd
                from pathlib import Path
                df = pd.DataFrame(tr, columns=["kind", "stream", "begin_ms", "end_ms"]).rename_axis("step").reset_index()
                df.insert(0, "buffers", b)
                df.insert(0, "streams", s)
                df.insert(0, "budget", f)
                df.insert(0, "n", a.n)
                out = Path(a.trace_out)
                df.to_csv(out, mode="a", header=not out.exists(), index=False)
            i0, i1 = idle_split(tr, ooc_steps.schedule(ooc_plan.plan(a.n, budget, b, s)))
            print(f"{f:>8.3g} {tm['super_block']:>5} {tm['super_blocks']:>6} {s:>7} {b:>7} {tm['kernel_ms']:>8.1f} "
                  f"{tm['kernel_ms'] / ref_ms:>6.2f} {tm['compute_ms']:>8.1f} {i0:>10.1f} {i1:>9.1f} "
                  f"{tm['copy_h2d_ms']:>7.1f} {tm['copy_d2h_ms']:>7.1f} {tm['issue_ms']:>7.1f} {tm['prepare_ms']:>6.1f} {'yes' if ok else 'NO'}")
            sys.stdout.flush()
    for S, r in rates.items():
        mb = 4 * S * S / 1e6
        print(f"pinned copy of a {S} x {S} tile ({mb:.1f} MB), GB/s: " + ", ".join(f"{k} {v:.1f}" for k, v in r.items())
              + f"; a round moves {4 * N * N / 1e9:.2f} GB each way: {4 * N * N / 1e6 / r['both']:.1f} ms at the 2-D "
              f"rate both ways, {4 * N * N / 1e6 / r['both 1-D']:.1f} ms at the 1-D")
        for parts, pm in kernel_rates(cp, S).items():
            print(f"one {S}^3 product alone, k in {parts} part(s): {pm:.3f} ms, {S ** 3 / pm / 1e9:.2f} T updates/s")


if __name__ == "__main__":
    main()
