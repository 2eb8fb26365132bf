"""``tuned_fw_ooc``: out-of-core blocked FW with the transfers hidden behind the products.  The matrix
lives in pinned host memory; ``ooc_plan`` cuts it into super-blocks sized by ``budget_bytes`` and lists
the steps (copies, transposes, closures, products) with their streams and waits; this module executes
them on the device: one CUDA stream per copy direction, one for the next round's pivot closure,
``COMPUTE_STREAMS`` for the kernels, one event at the end of every step for the steps that wait on it.
A product too narrow to fill the SMs splits k (``k_parts``: tfo_product's grid z, in place only).

Timings: ``kernel_ms`` is the whole schedule, copies included (as ``kemp_ooc``: an out-of-core solve's
transfers are part of its work); ``compute_ms``, ``copy_h2d_ms`` and ``copy_d2h_ms`` are the times during
which at least one kernel, host-to-device or device-to-host copy ran (unions of the steps' event
intervals: they overlap each other, which is the point); ``issue_ms`` the host's time to issue the
steps (where it nears ``kernel_ms``, the host, not the device, sets the pace); ``prepare_ms`` the host's
time to turn the steps into calls before the clock starts (as ``alloc_ms``, outside ``kernel_ms`` and
inside the harness's end-to-end ``wall_ms``); ``h2d_ms`` and ``d2h_ms`` (copies outside
``kernel_ms``, the in-core launchers' keys) are 0."""
from __future__ import annotations

import time

import numpy as np

from .... import gpu_device
from ....core.distances import finish
from ....core.graph import Graph
from .. import runtime as gpu_runtime
from . import ooc_plan, ooc_steps
from .ooc_plan import BLOCK, BUFFERS, COMPUTE_STREAMS, NAME, min_budget

THREADS = 256
SLAB = 16                    # tfo_product's k slab (tuned_fw.cu's TFW_KS): a part of k is whole slabs


def footprint(n, m=0):
    """Device bytes of the smallest plan (super-blocks of 128); larger budgets buy larger super-blocks."""
    return min_budget(n)


def default_budget():
    """What a solve without ``budget_bytes`` may use: 90% of the free device memory."""
    return int(0.9 * gpu_device.free_bytes()[0])


def _union_ms(intervals):
    total, end = 0.0, float("-inf")
    for a, b in sorted(intervals):
        if b > end:
            total += b - max(a, end)
            end = b
    return total


def k_parts(blocks, K, sms):
    """How many parts of k a product runs in (``tfo_product``'s split k, in place only): the most that keep
    its ``blocks`` x parts within one block an SM (a lone block runs at the whole SM's rate: 112 G
    updates/s measured at 49 and 121 blocks, the H100's 15.1 T/s over 132 SMs; aiming at two a SM made
    no difference, 2026-11-25), each part a whole number of 16-deep slabs and at least 128 deep (a part
    pays a tile's load and merge whatever its depth)."""
    slabs = K // SLAB
    return max(d for d in range(1, max(1, K // BLOCK) + 1) if slabs % d == 0 and (d == 1 or d * blocks <= sms))


class _Executor:
    """The steps of a plan on the device: buffers, streams, kernels and one event per step's end.
    ``prepare`` turns the steps into calls (addresses, strides, grids, streams, pre-made events) before
    the clock starts, as ``schedule`` itself is made before it, so that issuing a step is a few driver
    calls: at n = 4096 in a quarter budget the host's issue time had been the whole schedule's (21 us a
    step over 4126 steps: 86 ms)."""

    def __init__(self, cp, p, host, sms):
        self.cp, self.sms = cp, sms
        self.dev = {name: cp.empty(max(size, 1), cp.int32) for name, size in p.sizes.items()}   # held: base's owners
        # base addresses, looked up once; ``host`` stays alive in the caller
        self.base = {name: a.data.ptr for name, a in self.dev.items()}
        self.base["host"] = host.ctypes.data
        self.streams = {s: cp.cuda.Stream(non_blocking=True) for s in p.streams}
        k = lambda nm: gpu_runtime.kernel("tuned_fw_ooc.cu", nm)
        self.product, self.transpose = k("tfo_product"), k("tfo_transpose")
        self.phases = [k(f"tfw_phase{i}") for i in (1, 2, 3)]

    def ptr(self, r):
        return self.base[r.buf] + 4 * r.offset

    def arr(self, r):
        """A device region as a kernel argument: the address of its first element (a RawKernel packs a
        numpy uint64 as the 8 bytes of an ``int*`` parameter; it never reads a view's shape anyway)."""
        return np.uint64(self.ptr(r))

    def calls(self, step, stream):
        """The step as [(function, args, keywords)] on ``stream``."""
        cp, kind, R = self.cp, step.kind, step.regions
        on = {"stream": stream}
        if kind == "copy":
            src, dst = R
            rt = cp.cuda.runtime
            how = {(True, False): rt.memcpyHostToDevice, (False, True): rt.memcpyDeviceToHost,
                   (False, False): rt.memcpyDeviceToDevice}[src.buf == "host", dst.buf == "host"]
            return [(rt.memcpy2DAsync, (self.ptr(dst), 4 * dst.ld, self.ptr(src), 4 * src.ld, 4 * src.cols,
                                        src.rows, how, stream.ptr), {})]
        if kind == "transpose":
            src, dst = R
            return [(self.transpose, ((src.cols // 32, src.rows // 32), (32, 8),
                                      (self.arr(dst), np.int32(dst.ld), self.arr(src), np.int32(src.ld))), on)]
        if kind == "product":
            dst, cin, a, b = R
            gx, gy = dst.cols // BLOCK, dst.rows // BLOCK
            parts = k_parts(gx * gy, a.rows, self.sms) if dst == cin else 1
            return [(self.product, ((gx, gy, parts), (THREADS,),
                                    (self.arr(dst), np.int32(dst.ld), self.arr(cin), np.int32(cin.ld), self.arr(a),
                                     np.int32(a.ld), self.arr(b), np.int32(b.ld), np.int32(a.rows))), on)]
        m, scratch = R                            # closure: tuned_fw's rounds on a contiguous w x w matrix
        w, nb = m.rows, m.rows // BLOCK
        D, colT, w32 = self.arr(m), self.arr(scratch), np.int32(w)
        p1, p2, p3 = self.phases
        out = []
        for r in range(nb):
            r32 = np.int32(r)
            out.append((p1, ((1,), (THREADS,), (D, w32, r32)), on))
            if nb > 1:
                out.append((p2, ((nb - 1, 2), (THREADS,), (D, colT, w32, r32)), on))
                out.append((p3, ((nb - 1, nb - 1), (THREADS,), (D, colT, w32, r32)), on))
        return out

    def prepare(self, steps):
        """Per step: (stream address, addresses of the events it waits for, its calls, its begin and end
        events); the events are made here, outside the clock."""
        cp = self.cp
        events = [(cp.cuda.Event(), cp.cuda.Event()) for _ in steps]
        return [(self.streams[st.stream].ptr, tuple(events[w][1].ptr for w in st.waits),
                 self.calls(st, self.streams[st.stream]), b, e) for st, (b, e) in zip(steps, events)]

    def execute(self, steps, trace=None):
        """Issue every step; returns the timings of the whole schedule.  ``trace``: a list that gets one
        (kind, stream, begin_ms, end_ms) per step, from the events the timings are made of (a diagnostic:
        where the schedule waits; scripts/tuned_ooc_probe.py reads it)."""
        cp = self.cp
        rt = cp.cuda.runtime
        t0 = time.perf_counter()
        prepared = self.prepare(steps)
        prepare_ms = (time.perf_counter() - t0) * 1e3
        start = cp.cuda.Event()
        first = self.streams["c0"]
        start.record(first)
        for s in self.streams.values():          # nothing starts before the clock
            if s is not first:
                s.wait_event(start)
        t0 = time.perf_counter()
        with gpu_runtime.named_errors(NAME):
            for sptr, waits, calls, b, e in prepared:
                for w in waits:
                    rt.streamWaitEvent(sptr, w, 0)
                rt.eventRecord(b.ptr, sptr)
                for fn, args, kw in calls:
                    fn(*args, **kw)
                rt.eventRecord(e.ptr, sptr)
        issue_ms = (time.perf_counter() - t0) * 1e3     # host time to issue the steps: near kernel_ms, the host bounds it
        finals = []
        for s in self.streams.values():
            ev = cp.cuda.Event()
            ev.record(s)
            finals.append(ev)
        for ev in finals:
            ev.synchronize()
        ms = lambda ev: cp.cuda.get_elapsed_time(start, ev)
        spans = {"compute": [], "h2d": [], "d2h": []}
        for st, (*_, b, e) in zip(steps, prepared):
            spans[st.stream if st.stream in spans else "compute"].append((ms(b), ms(e)))
            if trace is not None:
                trace.append((st.kind, st.stream, ms(b), ms(e)))
        return dict(kernel_ms=max(ms(ev) for ev in finals), compute_ms=_union_ms(spans["compute"]),
                    copy_h2d_ms=_union_ms(spans["h2d"]), copy_d2h_ms=_union_ms(spans["d2h"]), issue_ms=issue_ms,
                    prepare_ms=prepare_ms)


def tuned_fw_ooc(g: Graph, block=BLOCK, budget_bytes=None, super_block=None, buffers=BUFFERS,
                 compute_streams=COMPUTE_STREAMS, trace=None):
    """Distances and timings.  ``budget_bytes``: the device memory it may use (default: 90% of the free
    memory; a budget below the matrix forces super-blocks, down to ``footprint(n)``, below which it
    refuses); ``super_block`` caps the super-block (streams a matrix that would fit: tests, forced mode).
    ``block`` is tuned_fw's B, the only one its kernels are built for.  ``trace``: a list to receive
    every step's (kind, stream, begin_ms, end_ms) (``_Executor.execute``)."""
    if block != BLOCK:
        raise ValueError(f"{NAME}: block must be {BLOCK} (tuned_fw's kernels), got {block}")
    cp = gpu_device.require_gpu()
    import cupyx
    budget = default_budget() if budget_bytes is None else int(budget_bytes)
    p = ooc_plan.plan(g.n, budget, buffers, compute_streams, super_block)
    gpu_device.check_fits(NAME, p.device_bytes, hint="a smaller budget_bytes")
    steps = ooc_steps.schedule(p)
    t0 = time.perf_counter()
    H = cupyx.empty_pinned((p.N, p.N), np.int32)
    ex = _Executor(cp, p, H, gpu_device.sm_count())
    cp.cuda.Device().synchronize()
    alloc_ms = (time.perf_counter() - t0) * 1e3
    g.to_dense(pad_to=p.N, out=H)
    timings = ex.execute(steps, trace)
    del ex
    timings.update(alloc_ms=alloc_ms, h2d_ms=0.0, d2h_ms=0.0, padded_n=p.N, super_block=p.S, super_blocks=p.blocks,
                   steps=len(steps), budget_bytes=budget, device_bytes=p.device_bytes)
    d = finish(np.array(H[:g.n, :g.n]))
    return d, timings
