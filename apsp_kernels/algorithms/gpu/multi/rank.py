"""One rank of the multi-GPU blocked FW: its GPU holds the whole padded matrix, receives what the
schedule says at the start of each round (NCCL broadcasts on a communication stream), then runs
NTHU's three phases on a compute stream: phases 1 and 2 on the whole pivot row and column, phase 3
on its own block rows.  CUDA events on both streams give each round's communication and compute
time; the schedule gives its bytes.  The matrix stays on the device for the caller: rank 0 can
gather the result (:func:`gather`), or each rank checksum its own block rows (``study/seeds/nthu/runs.py``), so that
a 17 GB matrix is verified without moving it.  (The solver imports no checker.)"""
from __future__ import annotations

from dataclasses import dataclass

from .... import gpu_device
from ....core.distances import finish
from ....core.graph import INF, Graph
from .. import runtime as gpu_runtime
from ..fw_nthu import DEFAULT_VARIANT, NthuKernels, PhaseClock, padded_size
from . import schedule


@dataclass
class Solution:
    """A finished solve on one rank: the padded device matrix ``G`` (final in this rank's own block
    rows; everywhere with the ``whole`` design) and ``info`` (plain values: timings in ms, bytes,
    per-round lists); the rest is what :func:`gather` needs."""
    G: object
    info: dict
    exchange: object
    parts: list
    done: object          # the event after the last phase 3, on the compute stream
    stream: object        # the communication stream


@dataclass
class Context:
    """Who this process is: its rank among ``size`` ranks, its GPU, and its NCCL communicator
    (None where nothing needs to move: one rank, unless NCCL is asked for).  ``channel``: where
    :meth:`send` goes (set by ``launch``: the pipe to the parent for a spawned rank; None prints
    rank 0's notes and drops the rest)."""
    rank: int
    size: int
    device: int = 0
    comm: object | None = None
    channel: object | None = None

    def send(self, kind, payload):
        """A message to whoever started the ranks, now (not at the end): ``("note", text)`` is a
        progress line, anything else data the caller may collect (``jobs`` sends each finished
        solve as ``"record"``, so that a run cut short keeps what it finished)."""
        if self.channel is not None:
            self.channel(kind, payload)
        elif kind == "note" and self.rank == 0:
            print(payload, flush=True)

    def any(self, flag):
        """Whether ``flag`` holds on any rank (an NCCL all-reduce of one int32; every rank must
        call it): for decisions every rank must take alike, such as not starting another job."""
        if self.comm is None:
            return bool(flag)
        import cupy as cp
        from cupy.cuda import nccl
        buf = cp.asarray([int(bool(flag))], dtype=cp.int32)
        stream = cp.cuda.get_current_stream()
        self.comm.allReduce(buf.data.ptr, buf.data.ptr, 1, nccl.NCCL_INT32, nccl.NCCL_MAX, stream.ptr)
        stream.synchronize()
        return bool(int(buf.get()[0]))

    def close(self):
        """Destroy the communicator.  NCCL's destroy waits for the other ranks of the node to
        destroy theirs (its proxy threads serve each other until then), so every rank calls this
        at the same point, after its last collective; a rank that instead waits for another rank's
        process to exit before destroying deadlocks with it (the spawn path's stall, see launch)."""
        comm, self.comm = self.comm, None
        if comm is not None:
            comm.destroy()


def device_matrix(cp, g: Graph, size):
    """``g.to_dense(pad_to=size)`` built on the device (a 65536-vertex matrix is 17 GB: no host copy)."""
    G = cp.full((size, size), int(INF), dtype=cp.int32)
    diag = cp.arange(size)
    G[diag, diag] = 0
    src, dst, w = g.edges()
    if src.size:
        G[cp.asarray(src), cp.asarray(dst)] = cp.asarray(w)
    return G


class Exchange:
    """Runs a list of schedule.Transfer as NCCL broadcasts in one group on ``stream``.  Whole block
    rows are contiguous and go in place; a column's blocks are packed into a B-wide buffer first,
    each rank its own part, and unpacked after the group."""

    def __init__(self, cp, ctx, G, block, stream):
        self.cp, self.ctx, self.G, self.block, self.stream = cp, ctx, G, block, stream
        self.size = G.shape[0]
        self.column = None

    def _column_buffer(self):
        if self.column is None:
            self.column = self.cp.empty((self.size, self.block), self.cp.int32)
        return self.column

    def run(self, transfers):
        if self.ctx.comm is None or not transfers:
            return
        from cupy.cuda import nccl
        B, N, G, me = self.block, self.size, self.G, self.ctx.rank
        cols = [t for t in transfers if t.kind == "column"]
        if cols:
            buf, c = self._column_buffer(), slice(cols[0].column * B, (cols[0].column + 1) * B)
            with self.stream:
                for t in cols:
                    if t.root == me:
                        rows = slice(t.first * B, (t.first + t.count) * B)
                        buf[rows] = G[rows, c]
        nccl.groupStart()
        try:
            for t in transfers:
                if t.kind == "rows":
                    ptr = G.data.ptr + t.first * B * N * 4
                else:
                    ptr = self.column.data.ptr + t.first * B * B * 4
                self.ctx.comm.bcast(ptr, t.elements(B, N), nccl.NCCL_INT32, t.root, self.stream.ptr)
        finally:
            nccl.groupEnd()
        if cols:
            with self.stream:
                G[:, c] = buf              # own rows come back unchanged


def solve(ctx: Context, g: Graph, kernel=DEFAULT_VARIANT, sync="row") -> Solution:
    """This rank's part of one solve (every rank calls it with the same arguments)."""
    cp = gpu_device.require_gpu()
    kern = NthuKernels(kernel)
    B = kern.block
    N = padded_size(g.n, B)
    K = N // B
    parts = schedule.partition(K, ctx.size)
    me = parts[ctx.rank]
    gpu_device.check_fits(f"nthu_multi rank {ctx.rank}", N * N * 4 + (N * B * 4 if sync == "rowcol" else 0))
    t_build = gpu_runtime.EventTimer()
    with t_build:
        G = device_matrix(cp, g, N)
    compute, comm = cp.cuda.Stream(non_blocking=True), cp.cuda.Stream(non_blocking=True)
    cp.cuda.Device().synchronize()
    exchange = Exchange(cp, ctx, G, B, comm)
    clock = PhaseClock(K)
    xfer = [(cp.cuda.Event(), cp.cuda.Event()) for _ in range(K)]   # around each round's broadcasts
    recv = []
    for r in range(K):
        transfers = schedule.round_transfers(r, parts, sync)
        recv.append(schedule.received_bytes(ctx.rank, transfers, B, N) if ctx.size > 1 else 0)
        if r:
            comm.wait_event(clock.last())          # send what the previous round computed
        xfer[r][0].record(comm)
        exchange.run(transfers)
        xfer[r][1].record(comm)
        compute.wait_event(xfer[r][1])
        with compute:
            clock.mark(compute)
            kern.phase1(G, N, r)
            clock.mark(compute)
            kern.phase2(G, N, r)
            clock.mark(compute)
            kern.phase3(G, N, r, me.first, me.count)
            clock.mark(compute)
    phases = clock.per_round()
    comm_ms = [cp.cuda.get_elapsed_time(s, e) for s, e in xfer]
    total = cp.cuda.get_elapsed_time(xfer[0][0], clock.last())
    info = dict(rank=ctx.rank, n_gpus=ctx.size, nccl=ctx.comm is not None, sync=sync, kernel=kernel, block=B,
               n=g.n, n_ext=N, rounds=K, first_block_row=me.first, block_rows=me.count,
               build_ms=t_build.ms, kernel_ms=total, comm_ms=float(sum(comm_ms)),
               compute_ms=float(sum(map(sum, phases))), **clock.sums(phases),
               received_bytes=int(sum(recv)), payload_bytes_per_round=schedule.payload_bytes(sync, B, N) if ctx.size > 1 else 0,
               per_round=dict(comm_ms=comm_ms, phase1_ms=[p[0] for p in phases], phase2_ms=[p[1] for p in phases],
                              phase3_ms=[p[2] for p in phases], received_bytes=recv))
    return Solution(G, info, exchange, parts, clock.last(), comm)


def gather(ctx: Context, sol: Solution, n):
    """Every rank's own rows to every rank; rank 0 returns the finished n x n distances (others None)."""
    import cupy as cp
    g0, g1 = cp.cuda.Event(), cp.cuda.Event()
    sol.stream.wait_event(sol.done)
    g0.record(sol.stream)
    sol.exchange.run(schedule.gather_transfers(sol.parts))
    g1.record(sol.stream)
    g1.synchronize()
    sol.info["gather_ms"] = cp.cuda.get_elapsed_time(g0, g1)
    return finish(cp.asnumpy(sol.G[:n, :n])) if ctx.rank == 0 else None


def solve_gathered(ctx: Context, g: Graph, kernel=DEFAULT_VARIANT, sync="row"):
    """What the registry's launcher runs on each rank: solve and gather; rank 0's dict holds the distances."""
    sol = solve(ctx, g, kernel, sync)
    d = gather(ctx, sol, g.n)
    info = {k: v for k, v in sol.info.items() if k != "per_round"}
    if d is not None:
        info["distances"] = d
    return info


def solve_each(ctx: Context, problems):
    """:func:`solve_gathered` for each (graph, kernel, sync) of ``problems`` on one communicator:
    many small solves for the price of one start of the ranks (the 2-GPU tests)."""
    return [solve_gathered(ctx, g, kernel, sync) for g, kernel, sync in problems]
