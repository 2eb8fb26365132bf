"""``tuned_fw_ooc``'s plan and schedule, in pure Python (no CuPy): the launcher (``ooc.py``) executes the
steps on the device, the tests execute the very same steps with numpy in random orders that respect the
streams and waits (tests/test_tuned_ooc.py), so the order of updates proven exact there is the one run.

The algorithm is blocked FW at two levels.  The padded N x N matrix lives in pinned host memory, cut into
super-blocks of S (a multiple of 128, as large as the device budget allows; the last may be narrower).
Round R (pivot super-block R, width w):
  * the pivot super-row (w x N) is on the device as the row panel RP; its pivot block is closed by the
    in-core tuned FW (``tuned_fw.cu``'s three phases on a w x w copy, P*: in round 0's head, and for every
    later round during its predecessor, below), and the rest of the super-row
    becomes RP(R, J) = min(RP, P* (x) RP(R, J)) -- products with the closure, as tuned_fw's phase 2
    (exact: split a path at its last vertex in the pivot block; in a column slot, so that the tile buffers
    already load the round's first tiles) -- and goes back to the host block by block;
  * then, one super-row I at a time: its column piece D(I, R) = min(D, D(I, R) (x) P*) (split at the first
    vertex in the pivot block), kept transposed in a column slot (C0, C1: k-major, the A operand the
    register-tiled product reads without transposition), and every other super-block of the row,
    D(I, J) = min(D, D(I, R) (x) RP(J)), streamed through the device;
  * but first the next pivot block: the column piece of super-row R + 1 and D(R + 1, R + 1), final for
    this round, closed on the ``pivot`` stream in the buffer of P*'s transpose (P0 and P1 swap roles each
    round) while the round's products run: a closure is ~24 small launches (0.86 ms at S = 1024, 11% of
    a round at n = 8192 in a quarter budget) that had kept both copy engines idle at every round's start.
Why two levels: streaming the whole matrix once per 128-pivot (Kemp's scheme) moves 8 bytes per 128
updates over PCIe, ~8x more than the H100's PCIe carries at the min-plus rate; a super-block of S moves them
per S updates, which hides under the arithmetic once S is above ~1000 (measured under load: ~31-40 GB/s
each way against ~14 T updates/s).  So the budget buys S: the only S x N buffer is RP (the column panel
is needed one super-row at a time, so two S x S slots hold it, not an S x N panel as before 2026-11-24:
at n = 16384 in a quarter of the matrix S grows from 1536 to 1920, 9 rounds instead of 11 -- 2048 and 8
with three tile buffers -- and one tile product is 225 CTAs of the H100's 264 slots, where 144 left 45% of
them empty).
Lookahead without a second panel: the super-row R + 1 is done last in round R, and its blocks go from the
tile buffers straight into RP (a device copy, once the round's last product has read that part of RP),
not to the host and back: the next round starts with its row panel in place, and each round moves one
super-row less each way.

Every step names the regions it reads and writes; ``schedule`` derives each step's waits from them
(read after write, write after read or write, on other streams; a stream is in order), so the copy of
the next tile and the write-back of the last overlap the product of the current one with no hand-kept
dependency.  Streams: ``h2d``, ``d2h``, ``pivot`` and ``compute_streams`` compute streams ("c0", "c1", ...)."""
from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass, field

from ....gpu_device import GPUMemoryError
from ....core.graph import round_up

BLOCK = 128                  # tuned_fw's block and the product's tile (TFW_T)
BUFFERS = 3                  # tile buffers: one loading, one in a product, one writing back.  Measured
                             # 2026-11-25 in a quarter budget: 3 beat 4 at n = 4096, 8192 and 16384 (the
                             # super-block a fourth buffer costs adds a round, which moves the whole matrix),
                             # and beat 6 or 12 tiles of S x S/2 or S/4 in the same memory (more tiles in
                             # flight, but the narrower 2-D copies ran slower: at 16384, 395 ms against 307)
COMPUTE_STREAMS = 2          # two products at once: a super-block of a few 128-tiles fills half the SMs
NAME = "tuned_fw_ooc"


def padded(n):
    return round_up(max(int(n), 1), BLOCK)


@dataclass(frozen=True)
class Plan:
    n: int
    N: int                       # padded to a multiple of 128
    edges: tuple                 # super-block boundaries 0 = e0 < e1 < ... = N
    buffers: int
    compute_streams: int
    sizes: dict = field(hash=False)   # device buffer -> int32 elements

    @property
    def blocks(self):
        return len(self.edges) - 1

    @property
    def S(self):
        return max(b - a for a, b in zip(self.edges, self.edges[1:]))

    @property
    def device_bytes(self):
        return 4 * sum(self.sizes.values())

    @property
    def streams(self):
        return ("h2d", "d2h", "pivot") + tuple(f"c{i}" for i in range(self.compute_streams))

    def width(self, i):
        return self.edges[i + 1] - self.edges[i]


COLUMN_SLOTS = 2             # transposed column pieces: one in use by a row's products, the next being made


def _sizes(N, S, buffers):
    if S >= N:                   # in core: the matrix is the row panel, closed in place
        return {"RP": N * N, "colT": BLOCK * N}
    sizes = {"RP": S * N, "P0": S * S, "P1": S * S, "colT": BLOCK * S}
    sizes.update({f"C{i}": S * S for i in range(COLUMN_SLOTS)})
    sizes.update({f"T{i}": S * S for i in range(buffers)})
    return sizes


def device_bytes(n, S, buffers=BUFFERS):
    """Device bytes of a plan with super-blocks of S (S >= N: the in-core plan)."""
    return 4 * sum(_sizes(padded(n), S, buffers).values())


def min_budget(n, buffers=BUFFERS):
    """The smallest budget that plans: super-blocks of one 128-block (a 128-row band, P, its transpose,
    the column slots, the tiles), or the whole matrix where that is less (small n)."""
    return min(device_bytes(n, BLOCK, buffers), device_bytes(n, padded(n), buffers))


def budget_for(n, S, buffers=BUFFERS):
    """The device bytes of super-blocks of S (rounded up to 128): with ``max_super_block=S``, a budget
    that plans exactly those (the registry's forced mode)."""
    return device_bytes(n, round_up(max(int(S), BLOCK), BLOCK), buffers)


def plan(n, budget_bytes, buffers=BUFFERS, compute_streams=COMPUTE_STREAMS, max_super_block=None) -> Plan:
    """The largest super-block whose buffers fit ``budget_bytes`` (and ``max_super_block``, if given: the
    tests' and the forced mode's way to stream a matrix that would fit), then evened out over the blocks
    it needs; S = N when the whole matrix fits.  Refuses, in one line, a budget below ``min_budget``."""
    if buffers < 1 or compute_streams < 1:
        raise ValueError(f"{NAME}: buffers and compute_streams must be >= 1, got {buffers}, {compute_streams}")
    N = padded(n)
    budget = int(budget_bytes)
    cap = N if max_super_block is None else min(N, round_up(max(int(max_super_block), BLOCK), BLOCK))
    least = min_budget(n, buffers) if cap == N else device_bytes(n, BLOCK, buffers)
    if least > budget:
        raise GPUMemoryError(
            f"{NAME}: a budget of {budget / 2**20:.2f} MiB cannot hold the pivot bands of n = {n}: they need "
            f"{least / 2**20:.2f} MiB (a 128 x {N} band and {buffers + COLUMN_SLOTS + 2} 128 x 128 tiles); raise budget_bytes")
    if cap == N and device_bytes(n, N, buffers) <= budget:
        S = N
    else:
        S = BLOCK
        while S + BLOCK <= min(cap, N - BLOCK) and device_bytes(n, S + BLOCK, buffers) <= budget:
            S += BLOCK
        S = round_up(-(-N // -(-N // S)), BLOCK)       # even widths: ceil(N / blocks), a multiple of 128
    edges = tuple(range(0, N, S)) + (N,)
    return Plan(n=int(n), N=N, edges=edges, buffers=buffers, compute_streams=compute_streams,
                sizes=_sizes(N, S, buffers))


# ------------------------------------------------------------------------------------------ steps
@dataclass(frozen=True)
class Region:
    """rows x cols int32 at (row, col) of buffer ``buf`` ("host" or a device buffer) with row stride ld.
    ``keys``: the dependency keys it touches (a host super-block, a panel chunk, a whole buffer)."""
    buf: str
    row: int
    col: int
    rows: int
    cols: int
    ld: int
    keys: tuple

    @property
    def offset(self):
        return self.row * self.ld + self.col

    def overlaps(self, o):
        """Whether the two share an element (exact for one row stride, by address ranges otherwise)."""
        if self.buf != o.buf:
            return False
        if self.ld == o.ld:
            return (self.row < o.row + o.rows and o.row < self.row + self.rows
                    and self.col < o.col + o.cols and o.col < self.col + self.cols)
        end = lambda r: r.offset + (r.rows - 1) * r.ld + r.cols
        return self.offset < end(o) and o.offset < end(self)


@dataclass(frozen=True)
class Step:
    """kind and regions: ``copy`` (src, dst) any direction; ``transpose`` (src, dst): dst = src^T;
    ``closure`` (matrix, scratch): in-core tuned FW of a contiguous w x w matrix, scratch its colT;
    ``product`` (dst, cin, a, b): dst = min(cin, a^T (x) b), a k-major (K x rows), b (K x cols)."""
    kind: str
    stream: str
    regions: tuple
    waits: tuple = ()            # indices of earlier steps of other streams this one waits for
    round: int = 0               # the round (pivot super-block) it belongs to: a diagnostic

    @property
    def reads(self):
        return {"copy": self.regions[:1], "transpose": self.regions[:1], "closure": self.regions[:1],
                "product": self.regions[1:]}[self.kind]

    @property
    def writes(self):
        return {"copy": self.regions[1:], "transpose": self.regions[1:], "closure": self.regions,
                "product": self.regions[:1]}[self.kind]


class _Tracker:
    """Builds the step list, deriving waits from the keys each step reads and writes."""

    def __init__(self, compute_streams):
        self.steps, self.last_write, self.readers = [], {}, defaultdict(list)
        self.compute = [f"c{i}" for i in range(compute_streams)]
        self.turn = 0
        self.round = 0

    def next_compute(self):
        self.turn += 1
        return self.compute[(self.turn - 1) % len(self.compute)]

    def add(self, kind, stream, *regions):
        step = Step(kind, stream, tuple(regions))
        deps = set()
        for r in step.reads:
            deps.update(self.last_write[k] for k in r.keys if k in self.last_write)
        for r in step.writes:
            for k in r.keys:
                if k in self.last_write:
                    deps.add(self.last_write[k])
                deps.update(self.readers.pop(k, ()))
        latest = {}
        for d in deps:                   # the newest dependency of each other stream covers the older ones
            s = self.steps[d].stream
            if s != stream and d > latest.get(s, -1):
                latest[s] = d
        i = len(self.steps)
        self.steps.append(Step(kind, stream, step.regions, tuple(sorted(latest.values())), self.round))
        written = {k for r in step.writes for k in r.keys}
        for r in step.reads:
            for k in r.keys:
                if k not in written:
                    self.readers[k].append(i)
        for k in written:
            self.last_write[k] = i
        return i


def schedule(p: Plan):
    """The steps of a whole solve, in issue order (see the module docstring)."""
    N, e, nS = p.N, p.edges, p.blocks
    t = _Tracker(p.compute_streams)
    if nS == 1:                                       # in core: in, the tuned FW, out
        host = Region("host", 0, 0, N, N, N, (("host", 0, 0),))
        rp = Region("RP", 0, 0, N, N, N, (("RP", 0),))
        t.add("copy", "h2d", host, rp)
        t.add("closure", "c0", rp, Region("colT", 0, 0, BLOCK, N, N, (("colT",),)))
        t.add("copy", "d2h", rp, host)
        return t.steps
    slot = [0]

    def tile(h, wd):                                  # the next tile buffer, round robin
        s = slot[0] % p.buffers
        slot[0] += 1
        return Region(f"T{s}", 0, 0, h, wd, wd, ((f"T{s}",),))

    hostb = lambda I, J: Region("host", e[I], e[J], p.width(I), p.width(J), N, (("host", I, J),))
    rp = lambda h, J: Region("RP", 0, e[J], h, p.width(J), N, (("RP", J),))
    columns = itertools.cycle([f"C{i}" for i in range(COLUMN_SLOTS)])
    for R in range(nS):
        t.round = R
        w = p.width(R)
        rows_R = Region("host", e[R], 0, w, N, N, tuple(("host", R, J) for J in range(nS)))
        rp_all = Region("RP", 0, 0, w, N, N, tuple(("RP", J) for J in range(nS)))
        a, b = ("P0", "P1") if R % 2 == 0 else ("P1", "P0")    # P*'s buffer and its transpose's, swapped
        P, PT = Region(a, 0, 0, w, w, w, ((a,),)), Region(b, 0, 0, w, w, w, ((b,),))   # each round
        scratch = lambda wd: Region("colT", 0, 0, BLOCK, wd, wd, (("colT",),))
        others = [J for J in range(nS) if J != R]
        nxt = R + 1 if R + 1 < nS else None            # its super-row goes last and stays on the device
        rows = sorted(others, key=lambda I: I == nxt)

        def column_piece(I, c, col):
            """D(I, R) = min(D, D(I, R) (x) P*) on stream c: left in a tile buffer (returned) and, transposed
            (k-major, the rest's A operand), in ``col``."""
            T = tile(p.width(I), w)
            t.add("copy", "h2d", hostb(I, R), T)
            t.add("transpose", c, T, col)
            t.add("product", c, T, T, col, P)
            t.add("transpose", c, T, col)
            return T
        # the pivot super-row (loaded in round 0; in place after that) and its closed pivot block (closed in
        # round 0's head, and in every later round's predecessor, beside that round's products)
        if R == 0:
            t.add("copy", "h2d", rows_R, rp_all)
            t.add("copy", "c0", rp(w, R), P)
            t.add("closure", "c0", P, scratch(w))
        t.add("copy", "c0", P, rp(w, R))
        t.add("copy", "d2h", rp(w, R), hostb(R, R))
        t.add("transpose", "c0", P, PT)               # P*^T: the row products' k-major A operand
        for J in others:                              # RP(R, J) = min(RP, P* (x) RP): in a column slot (a copy,
            c, cname = t.next_compute(), next(columns)  # then in place: the product may split k), then back;
            T = Region(cname, 0, 0, w, p.width(J), p.width(J), ((cname,),))   # the tile buffers are free to
            t.add("copy", c, rp(w, J), T)             # load the round's first tiles meanwhile
            t.add("product", c, T, T, PT, rp(w, J))
            t.add("copy", c, T, rp(w, J))
            t.add("copy", "d2h", rp(w, J), hostb(R, J))   # each block as soon as it is done (one S x N copy
                                                          # held the write-back stream 0.6 ms a round at 8192)
        if nxt is not None:
            # the next pivot block first (the module's docstring says why): its column piece, then
            # D(R+1, R+1) = min(D, D(R+1, R) (x) RP(R+1)), final for this round, closed on the pivot stream in
            # PT's buffer (free once the row products have read it)
            w1, c, cname = p.width(nxt), t.next_compute(), next(columns)
            col = Region(cname, 0, 0, w, w1, w1, ((cname,),))
            T = column_piece(nxt, c, col)
            t.add("copy", "d2h", T, hostb(nxt, R))      # read again when the super-row goes last
            T = tile(w1, w1)
            t.add("copy", "h2d", hostb(nxt, nxt), T)
            t.add("product", c, T, T, col, rp(w, nxt))
            Pn = Region(b, 0, 0, w1, w1, w1, ((b,),))
            t.add("copy", "pivot", T, Pn)
            t.add("closure", "pivot", Pn, scratch(w1))    # the next round's P*; its host block and RP's are
                                                          # written from it in that round's head
        for I in rows:
            h = p.width(I)
            c = t.next_compute()
            cname = next(columns)
            col = Region(cname, 0, 0, w, h, h, ((cname,),))   # D(I, R)^T, k-major
            if I == nxt:                              # its column piece done first (above): loaded, transposed,
                T = tile(h, w)                        # and kept on the device
                t.add("copy", "h2d", hostb(I, R), T)
                t.add("transpose", c, T, col)
                t.add("copy", c, T, rp(h, R))
            else:
                T = column_piece(I, c, col)
                t.add("copy", "d2h", T, hostb(I, R))
            for J in others:                          # the rest: D(I, J) = min(D, D(I, R) (x) D(R, J))
                if I == nxt and J == nxt:             # done first (above): the next round's P*
                    continue
                c, T = t.next_compute(), tile(h, p.width(J))
                t.add("copy", "h2d", hostb(I, J), T)
                t.add("product", c, T, T, col, rp(w, J))
                t.add("copy", *((c, T, rp(h, J)) if I == nxt else ("d2h", T, hostb(I, J))))
    return t.steps


def happens_before(steps):
    """For each step, {stream: index of the newest step of that stream complete before it starts}
    (vector clocks from stream order and waits).  Step j precedes step i iff j <= hb[i][stream of j]."""
    hb, last = [], {}
    for i, s in enumerate(steps):
        clock = {}
        preds = ([last[s.stream]] if s.stream in last else []) + list(s.waits)
        for d in preds:
            for k, v in hb[d].items():
                clock[k] = max(clock.get(k, -1), v)
            clock[steps[d].stream] = max(clock.get(steps[d].stream, -1), d)
        hb.append(clock)
        last[s.stream] = i
    return hb


def races(steps):
    """Pairs (j, i) of steps that touch a common element, one writing it, with nothing ordering them
    (the schedule's test: none; quadratic, for small plans)."""
    hb = happens_before(steps)
    out = []
    for i, si in enumerate(steps):
        for j in range(i):
            sj = steps[j]
            if sj.stream == si.stream or j <= hb[i].get(sj.stream, -1):
                continue
            if any(a.overlaps(b) for a in si.writes for b in sj.reads + sj.writes) or \
                    any(a.overlaps(b) for a in sj.writes for b in si.reads):
                out.append((j, i))
    return out
