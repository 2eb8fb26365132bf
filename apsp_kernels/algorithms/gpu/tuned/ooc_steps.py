"""The out-of-core plan's steps (tuned_fw_ooc): the regions each step reads and writes, the order the
launcher issues them in (:func:`schedule`, from ooc_plan's :class:`Plan`), what must happen before what,
and a check that no two unordered steps touch one region (:func:`races`).  Pure Python: no GPU."""
from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass

from .ooc_plan import BLOCK, COLUMN_SLOTS, Plan


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
