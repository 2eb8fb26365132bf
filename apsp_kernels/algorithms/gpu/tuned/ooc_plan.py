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
is needed one super-row at a time, so two S x S slots hold it rather than an S x N panel:
at n = 16384 in a quarter of the matrix that lets S grow from 1536 to 1920, 9 rounds instead of 11 -- 2048 and 8
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
