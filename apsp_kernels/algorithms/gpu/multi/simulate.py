"""The multi-GPU blocked FW on P virtual ranks in numpy: the same partition, the same broadcasts
(``schedule.round_transfers``) and the same phase ranges as the GPU ranks (``rank.py``), each
virtual rank with its own copy of the matrix, so that a rank that misses a transfer computes
from stale blocks exactly as a GPU would.  It checks the schedule logic without a GPU; the min-plus
arithmetic is numpy's, not the kernel's."""
from __future__ import annotations

import numpy as np

from ....core.distances import finish
from ....core.graph import Graph
from ..fw_nthu import padded_size
from . import schedule


def _region(X, t, block):
    rows = slice(t.first * block, (t.first + t.count) * block)
    if t.kind == "rows":
        return X[rows, :]
    return X[rows, t.column * block:(t.column + 1) * block]


def apply_transfers(mats, transfers, block):
    """One NCCL group: every root's data as it was when the group began, into every other rank."""
    sent = [_region(mats[t.root], t, block).copy() for t in transfers]
    for t, data in zip(transfers, sent):
        for q, X in enumerate(mats):
            if q != t.root:
                _region(X, t, block)[...] = data


def phase1(X, r, block):
    s = slice(r * block, (r + 1) * block)
    P = X[s, s]
    for k in range(block):
        np.minimum(P, P[:, k:k + 1] + P[k:k + 1, :], out=P)


def phase2(X, r, block):
    """The pivot row and column of blocks, every block of them (the pivot block among them)."""
    s = slice(r * block, (r + 1) * block)
    P = X[s, s].copy()                       # each CUDA block loads the pivot into its own copy
    row, col = X[s, :], X[:, s]
    for k in range(block):
        np.minimum(row, P[:, k:k + 1] + row[k:k + 1, :], out=row)
    for k in range(block):
        np.minimum(col, col[:, k:k + 1] + P[k:k + 1, :], out=col)


def phase3(X, r, block, first, count):
    """Block rows first .. first + count - 1, every block column, from copies of the pivot strips."""
    if count == 0:
        return
    s = slice(r * block, (r + 1) * block)
    rows = slice(first * block, (first + count) * block)
    left, top = X[rows, s].copy(), X[s, :].copy()
    cur = X[rows, :]
    for k in range(block):
        np.minimum(cur, left[:, k:k + 1] + top[k:k + 1, :], out=cur)


def simulate_matrices(D0, block, ranks, sync, transfers=schedule.round_transfers):
    """Every virtual rank's matrix after the solve and the final gather (``transfers``: the
    schedule, replaceable so that a test can show a broken one fails)."""
    size = D0.shape[0]
    K = size // block
    parts = schedule.partition(K, ranks)
    mats = [D0.copy() for _ in range(ranks)]
    for r in range(K):
        apply_transfers(mats, transfers(r, parts, sync), block)
        for p in parts:
            X = mats[p.rank]
            phase1(X, r, block)
            phase2(X, r, block)
            phase3(X, r, block, p.first, p.count)
    apply_transfers(mats, schedule.gather_transfers(parts), block)
    return mats


def simulate(g: Graph, block=8, ranks=2, sync="row", transfers=schedule.round_transfers):
    """Distances of ``g`` (n x n, finished like a GPU result) from rank 0 of the simulated run,
    and whether every rank ended with the same matrix."""
    size = padded_size(g.n, block)
    mats = simulate_matrices(g.to_dense(pad_to=size), block, ranks, sync, transfers)
    same = all(np.array_equal(mats[0], X) for X in mats[1:])
    return finish(np.ascontiguousarray(mats[0][:g.n, :g.n])), same
