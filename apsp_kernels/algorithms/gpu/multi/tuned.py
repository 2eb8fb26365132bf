"""``tuned_fw_multi``: ``tuned_fw``'s blocked FW (block 128, the same kernels: ``cuda/tuned_fw.cu``) over the GPUs
of a host, or of several under mpirun.  NOT a paper code (faithful=False); NTHU's multi-GPU FW is ``nthu_multi``.

Distribution: contiguous block rows per rank (``schedule.partition``), each rank holding ONLY its own rows
(N/P x N), so the largest graph grows with the GPUs (NTHU's design keeps the whole matrix on every GPU).
Round r: the owner of block row r closes the pivot block (phase 1) and the pivot's row of blocks (phase 2, row
tiles) in place and broadcasts that row (128 x N) over NCCL; every rank then updates its own rows' pivot-column
tiles (phase 2, column tiles) and the rest of its rows (phase 3) from it.
Lookahead: the owner of row r + 1 updates that row first in round r's phase 3, closes it (round r + 1's phases 1 and
2) and starts its broadcast on a second, high-priority stream while the rest of its phase 3 runs; receivers take it
into the other of two buffers.  So a round's transfer and the owner's serial phases hide behind the previous
round's phase 3.
Why block rows and not a 2-D block grid: a rank receives 128 x N x 4 bytes a round (33.5 MB at n = 65,536) while
it computes n^2 x 128 / P updates; on one NVLink host the broadcast is a few per cent of the round up to 8 GPUs
(``docs/multi-gpu.md`` models it, and where a 2-D grid, which sends sqrt(P) times less a rank, would pay).

Where the result goes: each rank finishes its rows on its device (INF, the diagonal checked for a negative cycle)
and copies them into the coordinator's shared host block (``host_rows``), or, for a benchmark, checksums them
block row by block row (Fletcher-64, combined in row order: ``core.verify.fletcher64_combine``)."""
from __future__ import annotations

import time

import numpy as np

from .... import gpu_device
from ....core.graph import INF, Graph
from .. import runtime as gpu_runtime
from ..tuned.fw import TILE, THREADS, padded
from . import schedule

NONE = 1 << 30          # "no row to skip" for the kernels' skip arguments
NAME = "tuned_fw_multi"
TIMINGS = ("kernel_ms", "compute_ms", "wait_ms", "bcast_ms", "build_ms", "result_ms", "e2e_ms", "n_gpus",
           "rounds", "padded_n", "lookahead", "received_bytes")


def footprint(n, ranks):
    """Device bytes on the rank with the most rows (``multi.tuned_fw_footprint``, which the registry reads)."""
    from . import tuned_fw_footprint
    return tuned_fw_footprint(n, 0, ranks)


def _kernels():
    return {p: gpu_runtime.kernel("tuned_fw.cu", f"tfwm_{p}") for p in ("phase1", "phase2_row", "phase2_col", "phase3")}


def own_rows(cp, g: Graph, row0, rows, N):
    """This rank's block rows of the padded matrix, built on its device from the edges that start there."""
    L = cp.full((rows, N), int(INF), dtype=cp.int32)
    if rows:
        i = cp.arange(rows)
        L[i, i + row0] = 0
        src, dst, w = g.edges()
        keep = (src >= row0) & (src < row0 + rows)
        if keep.any():
            L[cp.asarray(src[keep] - row0), cp.asarray(dst[keep])] = cp.asarray(w[keep].astype(np.int32, copy=False))
    return L


def _urgent_stream(cp):
    """A stream of the device's highest priority, where this CuPy can make one; else an ordinary one."""
    try:
        return cp.cuda.Stream(non_blocking=True, priority=cp.cuda.runtime.deviceGetStreamPriorityRange()[1])
    except (TypeError, AttributeError):
        return cp.cuda.Stream(non_blocking=True)


class Rounds:
    """One rank's solve: ``run()`` executes every round on its two streams and returns the timings (ms, bytes)."""

    def __init__(self, ctx, L, N, part, parts, lookahead=True):
        cp = self.cp = gpu_device.require_gpu()
        self.ctx, self.L, self.N, self.me, self.parts = ctx, L, N, part, parts
        self.K = N // TILE
        self.rows = part.count * TILE
        self.lookahead = bool(lookahead)
        self.owner = [schedule.owner(r, parts) for r in range(self.K)]
        self.multi = ctx.size > 1 and ctx.comm is not None
        self.buf = [cp.empty((TILE, N), cp.int32) for _ in range(2)] if self.multi else None
        self.colT = cp.empty((TILE, max(self.rows, TILE)), cp.int32)
        self.k = _kernels()
        self.cs = cp.cuda.Stream(non_blocking=True)
        self.ks = _urgent_stream(cp)                 # the broadcast's blocks go before waiting phase-3 blocks

    def mine(self, r):
        return self.owner[r] == self.ctx.rank

    def local(self, r):
        return r - self.me.first if self.mine(r) else NONE

    def pivot(self, r):
        """The pivot's row of blocks of round r: in L on its owner, else the buffer it is broadcast into."""
        if self.mine(r):
            a = self.local(r) * TILE
            return self.L[a:a + TILE]
        return self.buf[r % 2]

    def _launch(self, name, grid, args):
        gpu_runtime.launch(NAME, self.k[name], grid, (THREADS,), args)

    def close_pivot(self, r):
        """Phases 1 and 2 (row tiles) of round r on its owner, on the compute stream."""
        P, N, K = self.pivot(r), np.int32(self.N), self.K
        self._launch("phase1", (1,), (P, N, np.int32(r)))
        if K > 1:
            self._launch("phase2_row", (K - 1,), (P, N, np.int32(r)))

    def phase3(self, r, P, lo, count, skips):
        if count <= 0 or self.K <= 1:
            return
        s1, s2 = sorted(list(skips) + [NONE, NONE])[:2]
        self._launch("phase3", (self.K - 1, count), (self.L, P, self.colT, np.int32(self.N), np.int32(self.rows),
                                                    np.int32(r), np.int32(lo), np.int32(s1), np.int32(s2)))

    def broadcast(self, r):
        """Round r's pivot row from its owner to every rank, on the communication stream."""
        from cupy.cuda import nccl
        P = self.pivot(r)
        self.ctx.comm.broadcast(P.data.ptr, P.data.ptr, TILE * self.N, nccl.NCCL_INT32, self.owner[r], self.ks.ptr)

    def run(self):
        cp, K, cs, ks = self.cp, self.K, self.cs, self.ks
        ev = cp.cuda.Event
        start, end = ev(), ev()
        ready, recvd, done = [ev() for _ in range(K)], [ev() for _ in range(K)], [ev() for _ in range(K)]
        bcast = [(ev(), ev()) for _ in range(K)] if self.multi else []
        stalls = []
        cp.cuda.Device().synchronize()
        start.record(cs)
        with cs:
            if self.mine(0):
                self.close_pivot(0)
            ready[0].record(cs)

        def send(r):
            """Post round r's broadcast on the communication stream: after the owner's phases (its own ``ready``),
            and on a receiver after round r - 2, the last to read the buffer it lands in."""
            if not self.multi:
                return
            if self.mine(r):
                ks.wait_event(ready[r])
            elif r >= 2:
                ks.wait_event(done[r - 2])
            bcast[r][0].record(ks)
            self.broadcast(r)
            bcast[r][1].record(ks)
            recvd[r].record(ks)

        send(0)
        for r in range(K):
            P = self.pivot(r)
            piv = self.local(r)
            if self.multi and not self.mine(r):     # the owner reads its own P: no need to wait for the send
                w0, w1 = ev(), ev()
                w0.record(cs)
                cs.wait_event(recvd[r])
                w1.record(cs)
                stalls.append((w0, w1))
            ahead = r + 1 < K and self.mine(r + 1)
            with cs:
                own = self.me.count - (piv != NONE)
                if own > 0 and K > 1:
                    self._launch("phase2_col", (own,), (self.L, P, self.colT, np.int32(self.N), np.int32(self.rows),
                                                        np.int32(r), np.int32(piv)))
                if ahead and self.lookahead:
                    la = self.local(r + 1)
                    self.phase3(r, P, la, 1, ())
                    self.close_pivot(r + 1)
                    ready[r + 1].record(cs)
                    self.phase3(r, P, 0, own - 1, (piv, la))
                else:
                    self.phase3(r, P, 0, own, (piv,))
                    if ahead:
                        self.close_pivot(r + 1)
                        ready[r + 1].record(cs)
                done[r].record(cs)
            if r + 1 < K:
                send(r + 1)
        if self.multi:
            # the owner of a round never waits for its own broadcast; the last one may still be reading this rank's
            # rows (and its events be unfinished) when the compute stream ends, so the clock stops after it
            cs.wait_event(recvd[K - 1])
        end.record(cs)
        end.synchronize()
        ms = cp.cuda.get_elapsed_time
        wait = float(sum(ms(a, b) for a, b in stalls))
        total = ms(start, end)
        received = sum(TILE * self.N * 4 for r in range(K) if not self.mine(r)) if self.multi else 0
        return dict(kernel_ms=total, wait_ms=wait, compute_ms=total - wait,
                    bcast_ms=float(sum(ms(a, b) for a, b in bcast)), rounds=K, padded_n=self.N,
                    lookahead=self.lookahead, received_bytes=int(received))


def solve_rank(ctx, g: Graph, handle=None, checksums=False, lookahead=True):
    """One rank's part of one solve (every rank calls it alike): build its rows, run the rounds, finish its rows and
    write them into the shared host block ``handle`` (``host_rows``) and/or checksum them.  Returns plain values:
    timings, its rows, the smallest diagonal entry of its rows (< 0: a negative cycle) and, with ``checksums``,
    [(block_row, fletcher64, words)] of its rows of the n x n result."""
    from ..resident import finish
    cp = gpu_device.require_gpu()
    n, N = g.n, padded(g.n)
    parts = schedule.partition(N // TILE, ctx.size)
    me = parts[ctx.rank]
    row0, rows = me.first * TILE, me.count * TILE
    gpu_device.check_fits(f"{NAME} rank {ctx.rank}", footprint(n, ctx.size), hint="more GPUs")
    ctx.any(False)                               # every rank here before anyone's clock starts
    t0 = time.perf_counter()
    L = own_rows(cp, g, row0, rows, N)
    cp.cuda.Device().synchronize()
    build_ms = (time.perf_counter() - t0) * 1e3
    info = Rounds(ctx, L, N, me, parts, lookahead).run()
    t1 = time.perf_counter()
    stop = min(row0 + rows, n)
    R = L[:max(stop - row0, 0), :n]
    finish(R, square=False)
    low = 0
    if stop > row0:
        i = cp.arange(stop - row0)
        low = int(L[i, i + row0].min())
    if handle is not None and stop > row0:
        from .host_rows import Attached
        out = Attached(handle)
        try:
            R.get(out=out.rows(row0, stop)) if R.flags.c_contiguous else cp.ascontiguousarray(R).get(
                out=out.rows(row0, stop))
        finally:
            out.close()
    cp.cuda.Device().synchronize()
    info.update(build_ms=build_ms, result_ms=(time.perf_counter() - t1) * 1e3, rank=ctx.rank, n_gpus=ctx.size,
                n=n, first_row=row0, rows=max(stop - row0, 0), min_diagonal=low)
    info["e2e_ms"] = (time.perf_counter() - t0) * 1e3
    if checksums:
        info["checksums"] = row_checksums(R, row0, n)
    del L, R
    return info


def row_checksums(R, row0, n):
    """[(block_row, fletcher64, words)] of finished rows ``R`` (rows row0 .. of the n x n result), one block row of
    128 at a time through the host."""
    from ....core.verify import fletcher64
    out = []
    for a in range(0, R.shape[0], TILE):
        h = R[a:a + TILE].get()
        out.append(((row0 + a) // TILE, fletcher64(h), int(h.size)))
    return out


def tuned_fw_multi(g: Graph, n_gpus=None, timeout_s=None, lookahead=True):
    """All pairs of ``g`` on ``n_gpus`` GPUs of this host (None: all of them): (the finished int32 n x n distances
    on the host, INF where there is no path; timings: the slowest rank's ``kernel_ms`` and ``e2e_ms``, each rank's
    beside them).  One GPU runs in this process; more spawn one process per GPU (``launch.spawn``), this one only
    coordinating, with a deadline (``timeout_s``).  Raises NegativeCycleError on a negative cycle."""
    from ....core.distances import NegativeCycleError
    from . import launch
    from .host_rows import SharedResult
    if not isinstance(g, Graph):
        raise TypeError(f"{NAME} takes a Graph of int32 weights, got {type(g).__name__}")
    if n_gpus is None:
        n_gpus = gpu_device.require_gpu().cuda.runtime.getDeviceCount()
    n_gpus = int(n_gpus)
    if n_gpus < 1:
        raise ValueError(f"n_gpus must be at least 1, got {n_gpus}")
    with SharedResult((g.n, g.n), np.int32) as res:
        per_rank = launch.spawn(n_gpus, solve_rank, (g, res.handle, False, lookahead), timeout_s=timeout_s)
        low = min(p["min_diagonal"] for p in per_rank)
        if low < 0:
            rank = next(p for p in per_rank if p["min_diagonal"] == low)
            raise NegativeCycleError(f"negative cycle: a diagonal entry of {low} in rows {rank['first_row']}.."
                                     f"{rank['first_row'] + rank['rows'] - 1}")
        d = res.detach()
    timings = {k: per_rank[0][k] for k in TIMINGS if k in per_rank[0]}
    for k in ("kernel_ms", "e2e_ms", "wait_ms", "bcast_ms", "build_ms", "result_ms"):
        timings[k] = max(p[k] for p in per_rank)
        timings[f"{k}_per_rank"] = [p[k] for p in per_rank]
    return d, timings
