"""The multi-GPU blocked FW's plan, in plain Python (no GPU): which rank owns which block rows, and
what each round sends, for the seed's three synchronisation designs (seed 004, "Optimization").

Every rank holds the whole N_ext x N_ext matrix, runs phases 1 and 2 on all of it (the seed: "it
makes little improvement with parallelizing phase 1 and 2"), and phase 3 on its own block rows
only ("only phase 3 are parallelized with rows"; one GPU "processes the upper and another one
processes the lower": contiguous rows).  What each rank must receive at the start of round r:

* ``whole``  (the seed's 1st design): the whole matrix, every rank broadcasting its own rows;
* ``rowcol`` (2nd): the pivot row of blocks from its owner, and the pivot column, each rank
  broadcasting the part of it in its own rows;
* ``row``    (3rd): the pivot row only.  A rank's phase 2 then updates the pivot column from
  stale blocks in rows it does not own, but phase 3 reads the pivot column only in its own rows,
  whose blocks it updated itself.

The seed copies through the host (device -> host at the end of a round, host -> devices at the
start of the next); here the owner broadcasts device to device (NCCL), one transfer for its two.
The GPU code (``rank.py``) and the numpy simulation (``simulate.py``) both execute
:func:`round_transfers`, so the simulation checks the schedule the GPUs run."""
from __future__ import annotations

from dataclasses import dataclass

from ..fw_nthu import padded_size

SYNC_DESIGNS = ("row", "rowcol", "whole")    # the seed's 3rd (final), 2nd and 1st design
INT_BYTES = 4


@dataclass(frozen=True)
class Part:
    rank: int
    first: int      # first block row
    count: int      # block rows owned

    @property
    def stop(self):
        return self.first + self.count


@dataclass(frozen=True)
class Transfer:
    """A broadcast from ``root``: block rows first .. first + count - 1, either whole rows
    (``kind="rows"``, contiguous in memory) or only their blocks in block column ``column``
    (``kind="column"``, packed into a B-wide buffer for the broadcast)."""
    root: int
    kind: str
    first: int
    count: int
    column: int | None = None

    def elements(self, block, size):
        width = size if self.kind == "rows" else block
        return self.count * block * width

    def nbytes(self, block, size):
        return self.elements(block, size) * INT_BYTES


def partition(blocks, ranks):
    """Contiguous block rows per rank, as equal as can be (the first ``blocks % ranks`` get one more)."""
    if ranks < 1:
        raise ValueError(f"need at least one rank, got {ranks}")
    base, extra = divmod(int(blocks), int(ranks))
    parts, first = [], 0
    for p in range(ranks):
        count = base + (p < extra)
        parts.append(Part(p, first, count))
        first += count
    return parts


def owner(block_row, parts):
    for p in parts:
        if p.first <= block_row < p.stop:
            return p.rank
    raise ValueError(f"block row {block_row} is owned by no rank of {parts}")


def _own_rows(parts):
    return [Transfer(p.rank, "rows", p.first, p.count) for p in parts if p.count]


def round_transfers(r, parts, sync):
    """What is broadcast at the start of round r, in this order (one NCCL group).  With one rank
    every transfer has no receiver: the GPU code then skips them unless told to call NCCL anyway."""
    if sync not in SYNC_DESIGNS:
        raise ValueError(f"sync must be one of {SYNC_DESIGNS}, got {sync!r}")
    if sync == "whole":
        return _own_rows(parts)
    pivot_row = [Transfer(owner(r, parts), "rows", r, 1)]
    if sync == "row":
        return pivot_row
    return pivot_row + [Transfer(p.rank, "column", p.first, p.count, r) for p in parts if p.count]


def gather_transfers(parts):
    """After the last round: every rank's own rows to every rank (the result, assembled)."""
    return _own_rows(parts)


def payload_bytes(sync, block, size):
    """Bytes per round as the seed's stage table counts them ("Memcpy per iteration"): the whole
    matrix, the pivot row and column (2 x bs x N_ext x 4: 3.0802 MB at 6016 and bs 64), or the
    pivot row (bs x N_ext x 4: 1.5401 MB)."""
    per = {"whole": size * size, "rowcol": 2 * block * size, "row": block * size}[sync]
    return per * INT_BYTES


def device_bytes(sync, block, size):
    """What one rank holds on its GPU: the whole padded matrix (every rank does), and for
    ``rowcol`` the B-wide buffer its pivot column is packed into (65536: 17.2 GB, 131072: 68.7 GB)."""
    return size * size * INT_BYTES + (size * block * INT_BYTES if sync == "rowcol" else 0)


def received_bytes(rank, transfers, block, size):
    """Bytes that ``rank`` receives in these transfers (its own broadcasts it only sends)."""
    return sum(t.nbytes(block, size) for t in transfers if t.root != rank)


def sent_bytes(rank, transfers, block, size):
    return sum(t.nbytes(block, size) for t in transfers if t.root == rank)


def plan(n, block, ranks, sync):
    """Per-rank totals over all rounds of one solve of n vertices (padded as the seed pads): rows
    owned, phase-3 blocks, bytes sent and received, and the seed's per-round payload."""
    size = padded_size(n, block)
    K = size // block
    parts = partition(K, ranks)
    rows = []
    for p in parts:
        recv = sent = 0
        for r in range(K):
            tr = round_transfers(r, parts, sync)
            recv += received_bytes(p.rank, tr, block, size)
            sent += sent_bytes(p.rank, tr, block, size)
        rows.append(dict(sync=sync, ranks=ranks, rank=p.rank, n=n, size=size, block=block, rounds=K,
                         first_block_row=p.first, block_rows=p.count, phase3_blocks=p.count * K * K,
                         payload_bytes_per_round=payload_bytes(sync, block, size) if ranks > 1 else 0,
                         received_bytes=recv, sent_bytes=sent, received_bytes_per_round=recv / K,
                         device_bytes=device_bytes(sync, block, size)))
    return rows


def dry_run(n, block, ranks_list=(1, 2, 4, 8), syncs=SYNC_DESIGNS):
    """The plan for every rank count and design: a list of per-rank rows (see :func:`plan`)."""
    return [row for P in ranks_list for s in syncs for row in plan(n, block, P, s)]


def describe_round(r, parts, sync, block, size):
    """One line per transfer of round r (for the CLI's ``plan`` and for reading)."""
    out = []
    for t in round_transfers(r, parts, sync):
        what = (f"block rows {t.first}..{t.first + t.count - 1}" if t.kind == "rows" else
                f"blocks ({t.first}..{t.first + t.count - 1}, {t.column})")
        out.append(f"round {r}: rank {t.root} -> all: {what}, {t.nbytes(block, size)} bytes")
    return out
