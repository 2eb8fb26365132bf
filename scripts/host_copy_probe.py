"""How fast can a 2 GiB device result reach ordinary host memory in a fresh process?  (the
fresh-process target; a probe on the device, not a benchmark row)

    python3 scripts/host_copy_probe.py [--n 16384] [--repeats 3]

Times, synchronised wall clock, median of ``repeats`` (each destination freed before the next), an n x n float64
device array copied to the host by:
  pinned-fresh     cupyx.empty_pinned (a new page-locked block) then .get(out=)   -- today's first call
  pageable-get     .get() into fresh pageable memory (the driver stages it)
  staged-T         two 64 MiB page-locked buffers, the device's copy of chunk k overlapped with the host's copy of
                   chunk k - 1 into a fresh numpy array, that copy split over T threads (T = 1: today's held path)
  touch-T+get      a fresh numpy array first-touched by T threads, then .get(out=) (pageable, touched)
Prints the kernel's transparent-huge-page setting first."""
from __future__ import annotations

import argparse
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

STAGE = 64 << 20


def sync_wall(fn, cp):
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    out = fn()
    cp.cuda.Device().synchronize()
    return (time.perf_counter() - t0) * 1e3, out


def split_copy(pool, T, dst, src):
    """dst[:] = src over T threads (numpy releases the GIL for a plain copy)."""
    if T == 1:
        dst[:] = src
        return
    step = -(-dst.size // T)
    step = -(-step // 4096) * 4096
    futs = [pool.submit(dst.__setitem__, slice(a, a + step), src[a:a + step]) for a in range(0, dst.size, step)]
    for f in futs:
        f.result()


def staged(R, cp, bufs, pool, T):
    src = R.reshape(-1).view(cp.uint8)
    host = np.empty(R.shape, R.dtype)
    dst = host.reshape(-1).view(np.uint8)
    stream = cp.cuda.get_current_stream()
    pending = []
    for k, start in enumerate(range(0, src.size, STAGE)):
        if len(pending) == 2:
            ev, buf, s0, sz = pending.pop(0)
            ev.synchronize()
            split_copy(pool, T, dst[s0:s0 + sz], buf[:sz])
        size = min(STAGE, src.size - start)
        buf = bufs[k % 2]
        cp.cuda.runtime.memcpyAsync(buf.ctypes.data, src.data.ptr + start, size,
                                    cp.cuda.runtime.memcpyDeviceToHost, stream.ptr)
        ev = cp.cuda.Event()
        ev.record(stream)
        pending.append((ev, buf, start, size))
    for ev, buf, s0, sz in pending:
        ev.synchronize()
        split_copy(pool, T, dst[s0:s0 + sz], buf[:sz])
    return host


def touched_get(R, pool, T):
    host = np.empty(R.shape, R.dtype)
    flat = host.reshape(-1).view(np.uint8)
    step = -(-flat.size // T)
    futs = [pool.submit(flat[a:a + step].fill, 0) for a in range(0, flat.size, step)]
    for f in futs:
        f.result()
    R.get(out=host)
    return host


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=16384)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args(argv)
    for f in ("enabled", "defrag"):
        p = Path("/sys/kernel/mm/transparent_hugepage") / f
        print(f"THP {f}: {p.read_text().strip() if p.exists() else '?'}")
    t0 = time.perf_counter()
    import cupy as cp
    import cupyx
    print(f"import cupy {1e3 * (time.perf_counter() - t0):8.1f} ms")
    t0 = time.perf_counter()
    cp.cuda.runtime.free(0)
    cp.cuda.Device().synchronize()
    print(f"CUDA context {1e3 * (time.perf_counter() - t0):8.1f} ms")
    cp.cuda.set_pinned_memory_allocator(None)     # every page-locked block a new one: "fresh" means fresh
    R = cp.arange(a.n * a.n, dtype=cp.float64).reshape(a.n, a.n)
    expect = float(R[-1, -1])
    t0 = time.perf_counter()
    bufs = [cupyx.empty_pinned(STAGE, np.uint8) for _ in range(2)]
    print(f"two 64 MiB staging buffers {1e3 * (time.perf_counter() - t0):8.1f} ms")
    pool = ThreadPoolExecutor(16)
    list(pool.map(abs, range(16)))
    ways = {"pinned-fresh": lambda: R.get(out=cupyx.empty_pinned(R.shape, R.dtype)),
            "pageable-get": lambda: R.get()}
    for T in (1, 4, 8, 16):
        ways[f"staged-{T}"] = lambda T=T: staged(R, cp, bufs, pool, T)
    for T in (8, 16):
        ways[f"touch-{T}+get"] = lambda T=T: touched_get(R, pool, T)
    gib = R.nbytes / 2 ** 30
    for name, fn in ways.items():
        ts = []
        for _ in range(a.repeats):
            ms, host = sync_wall(fn, cp)
            assert host[-1, -1] == expect and host[0, 1] == 1.0, name
            del host
            ts.append(ms)
        med = float(np.median(ts))
        print(f"{name:14s} {med:8.1f} ms  ({gib / (med / 1e3):5.1f} GiB/s)   all: {[round(t) for t in ts]}", flush=True)


if __name__ == "__main__":
    main()
