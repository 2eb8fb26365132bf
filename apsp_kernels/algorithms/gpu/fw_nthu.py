"""NTHU's blocked FW (seed 004, ``cuda/nthu_blocked.cu``): blocking factor 8, 16, 32 or 64, dim3 or
plain-integer launches, branch or arithmetic-select min update; per-phase times from CUDA events.

A variant is one text, ``b<bs>-<launch>-<update>`` (``b32-dim3-branch``), so that a results CSV
records all three choices in its ``variant`` column.  :class:`NthuKernels` launches one phase for
the single-GPU launcher here and for each rank of the multi-GPU code (``multi/``)."""
from __future__ import annotations

import numpy as np

from ... import gpu_device
from ...core.graph import Graph
from . import runtime as gpu_runtime
from .dense import result

BLOCKS = (8, 16, 32, 64)
LAUNCHES = ("dim3", "int")          # dim3(T, T) blocks on 2-D grids, or 1-D blocks of T*T threads
UPDATES = ("branch", "select")      # if (c < d) d = c;  or  d = c * cond + d * (1 - cond)
DEFAULT_VARIANT = "b32-dim3-branch"  # the seed's final kernel: bs re-limited to 32, one cell per thread


def variant_name(block, launch="dim3", update="branch"):
    return f"b{int(block)}-{launch}-{update}"


def parse_variant(variant):
    """``"b32-int-select"`` -> (32, "int", "select"); a bare block size means dim3 and branch."""
    if isinstance(variant, (int, np.integer)) or str(variant).isdigit():
        variant = variant_name(int(variant))
    try:
        b, launch, update = str(variant).split("-")
        block = int(b.lstrip("b"))
    except ValueError:
        raise ValueError(f"NTHU variant {variant!r}: want b<bs>-<launch>-<update>, e.g. {DEFAULT_VARIANT}") from None
    if block not in BLOCKS or launch not in LAUNCHES or update not in UPDATES:
        raise ValueError(f"NTHU variant {variant!r}: bs in {BLOCKS}, launch in {LAUNCHES}, update in {UPDATES}")
    return block, launch, update


# the default first (the registry's default variant), then every combination
VARIANTS = (DEFAULT_VARIANT,) + tuple(v for v in (variant_name(b, lo, u) for b in BLOCKS for lo in LAUNCHES
                                                  for u in UPDATES) if v != DEFAULT_VARIANT)


def padded_size(n, block):
    """The seed's N_ext = N + (bs - N mod bs): a whole extra block when bs divides N (kept as written;
    the padding vertices are isolated, so no distance changes, only the work grows).  The seed's
    own table has K = ceil(N / bs) (750 rounds for 6000 at bs 8, where this gives 751)."""
    return int(n) + (block - int(n) % block)


def threads_per_side(block):
    return min(block, 32)           # the seed's 1024-thread limit: 64 runs 2 x 2 cells per thread


class NthuKernels:
    """The three phases of one variant, compiled once (NVRTC, cached per variant)."""

    def __init__(self, variant):
        self.block, self.launch, self.update = parse_variant(variant)
        self.name = f"nthu_{variant_name(self.block, self.launch, self.update)}"
        args = f"{self.block}, {int(self.launch == 'int')}, {int(self.update == 'select')}"
        names = tuple(f"nthu_phase{p}<{args}>" for p in (1, 2, 3))
        self.p1, self.p2, self.p3 = (gpu_runtime.kernel("nthu_blocked.cu", nm, name_expressions=names) for nm in names)
        t = threads_per_side(self.block)
        self.threads = (t * t,) if self.launch == "int" else (t, t)

    def _grid(self, x, y):
        return (x * y,) if self.launch == "int" else (x, y)

    def phase1(self, G, N, r):
        gpu_runtime.launch(self.name, self.p1, (1,), self.threads, (G, np.int32(N), np.int32(r)))

    def phase2(self, G, N, r):
        K = N // self.block
        gpu_runtime.launch(self.name, self.p2, self._grid(K, 2), self.threads, (G, np.int32(N), np.int32(r), np.int32(K)))

    def phase3(self, G, N, r, row0=0, rows=None):
        """Phase 3 on block rows row0 .. row0 + rows - 1 (all of them by default), every block column."""
        K = N // self.block
        rows = K - row0 if rows is None else rows
        if rows > 0:
            gpu_runtime.launch(self.name, self.p3, self._grid(K, rows), self.threads,
                       (G, np.int32(N), np.int32(r), np.int32(K), np.int32(row0)))


class PhaseClock:
    """CUDA events around the phases of every round on one stream: e[4r] before phase 1 of round r,
    e[4r+1] before phase 2, e[4r+2] before phase 3, e[4r+3] after it (a round's own start, so that
    a wait between rounds, for a broadcast say, is never counted as a phase).  Read once, at the
    end: timing adds no synchronisation (an event record is one more stream command)."""

    def __init__(self, rounds, enabled=True):
        import cupy as cp
        self.enabled = enabled
        self.events = [cp.cuda.Event() for _ in range(4 * rounds)] if enabled else []
        self._i = 0

    def mark(self, stream=None):
        if self.enabled:
            self.events[self._i].record(stream)
            self._i += 1

    def last(self):
        """The event recorded last (after phase 3 of the latest round), for another stream to wait on."""
        return self.events[self._i - 1]

    def per_round(self):
        """[(phase1_ms, phase2_ms, phase3_ms)] of each round (waits for the last event)."""
        import cupy as cp
        e = self.events
        if not e:
            return []
        e[-1].synchronize()
        return [tuple(cp.cuda.get_elapsed_time(e[4 * r + p], e[4 * r + p + 1]) for p in range(3))
                for r in range(len(e) // 4)]

    def sums(self, rounds=None):
        rounds = self.per_round() if rounds is None else rounds
        if not rounds:
            return {}
        return {f"phase{p + 1}_ms": float(sum(t[p] for t in rounds)) for p in range(3)}


def nthu_blocked(g: Graph, variant=DEFAULT_VARIANT, phases=True):
    """NTHU's single-GPU blocked FW.  ``phases``: CUDA events around every phase of every round
    (``phase1_ms`` .. ``phase3_ms``, summed over rounds); ``kernel_ms`` spans all rounds either way."""
    kern = NthuKernels(variant)
    bs = kern.block
    N = padded_size(g.n, bs)
    K = N // bs
    buf = gpu_device.DenseBuffers(kern.name, N, 1, "pageable")
    with buf:
        g.to_dense(pad_to=N, out=buf.host)
        buf.to_device()
        G = buf.dev[0]
        clock = PhaseClock(K, phases)
        with gpu_runtime.EventTimer() as t:
            for r in range(K):
                clock.mark()
                kern.phase1(G, N, r)
                clock.mark()
                kern.phase2(G, N, r)
                clock.mark()
                kern.phase3(G, N, r)
                clock.mark()
        d = result(buf, 0, g.n)
        return d, dict(buf.timings, kernel_ms=t.ms, **clock.sums(), launches=3 * K, rounds=K, n_ext=N, block=bs)
