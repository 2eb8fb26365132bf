"""Measuring the multi-GPU blocked FW (``algorithms/gpu/multi``): every rank runs the same list of jobs on its communicator
(:func:`run_jobs`, the per-rank function handed to ``launch``); rank 0 then joins the ranks'
results (:func:`summarise`): one row per solve with rank 0's times, the slowest rank's, and the
checksum of the whole result combined from the ranks' block-row checksums."""
from __future__ import annotations

import time

import numpy as np

from ....algorithms.gpu.multi.rank import solve
from ....core.generators import kemp
from ....core.graph import normalise_inf
from ....core.verify import block_rows_checksum, fletcher64

PER_RANK = ("kernel_ms", "comm_ms", "compute_ms", "phase1_ms", "phase2_ms", "phase3_ms", "received_bytes")


def job(n, sync="row", kernel="b32-dim3-branch", seed=None, repeats=1, label="", n0=None):
    """One measurement: Kemp's graph (degree 2-6, weights 1..1000, seed n unless given); ``n0``: the
    size a weak-scaling job starts from (its n is n0 sqrt(P))."""
    return dict(n=int(n), sync=sync, kernel=kernel, seed=int(n if seed is None else seed), repeats=int(repeats),
                label=label, n0=None if n0 is None else int(n0))


def run_jobs(ctx, jobs, warmup=True, deadline=None):
    """On this rank: a small warm-up solve (compiles the kernels, opens NCCL's channels), then every
    job's repeats.  Each rank builds the graph itself from (n, seed): nothing is shipped.  Each
    finished solve is sent at once (``ctx.send("record", ...)`` on every rank, a progress line on
    rank 0), so that a run cut short keeps what it finished.  ``deadline`` (a ``time.time()``): no
    solve starts after it; the ranks decide that together (``ctx.any``), never one alone."""
    out = []
    if warmup and jobs:
        for k in sorted({j["kernel"] for j in jobs}):
            solve(ctx, kemp(96 * ctx.size, seed=1), k, "rowcol")
    for i, j in enumerate(jobs):
        g = None
        for rep in range(j["repeats"]):
            if ctx.any(deadline is not None and time.time() > deadline):
                ctx.send("note", f"P={ctx.size}: time budget spent; {len(jobs) - i} job(s) not started")
                return out
            g = g or kemp(j["n"], seed=j["seed"])
            sol = solve(ctx, g, j["kernel"], j["sync"])
            res = dict(sol.info, job=i, repeat=rep, seed=j["seed"], label=j["label"], weak_n0=j.get("n0"), m=g.m)
            res["checksums"], res["min_diagonal"] = own_row_checksums(sol, g.n)
            del sol
            out.append(res)
            ctx.send("record", res)
            if ctx.rank == 0:
                ctx.send("note", progress_line(res))
    return out


def progress_line(res):
    """One line per finished solve, as rank 0 saw it."""
    return (f"P={res['n_gpus']} n={res['n']} {res['sync']} {res['label'] or ''} repeat {res['repeat']}: "
            f"{res['kernel_ms'] / 1e3:.2f} s on rank 0 (compute {res['compute_ms'] / 1e3:.2f} s, "
            f"comm {res['comm_ms'] / 1e3:.2f} s, {res['received_bytes'] / 1e6:.0f} MB received)")


def records_of(messages):
    """Every rank's finished solves from the messages it sent ({rank: [(kind, payload)]}), cut to
    the solves every rank finished: what :func:`summarise` takes after a run that stopped early."""
    per_rank = [[p for k, p in messages[r] if k == "record"] for r in sorted(messages)]
    done = min((len(x) for x in per_rank), default=0)
    return [x[:done] for x in per_rank]


def own_row_checksums(sol, n):
    """[(block_row, fletcher64, words)] of this rank's block rows, restricted to the n x n result and
    normalised like a finished one, and the smallest diagonal entry there (< 0: a negative cycle).
    One block row at a time through the host: a few MB each, never the whole matrix."""
    import cupy as cp
    B = sol.info["block"]
    first, stop = sol.info["first_block_row"], sol.info["first_block_row"] + sol.info["block_rows"]
    out, low = [], 0
    for b in range(first, stop):
        a, e = b * B, min((b + 1) * B, n)
        if a >= n:
            break
        h = normalise_inf(cp.asnumpy(sol.G[a:e, :n]))
        out.append((b, fletcher64(h), int(h.size)))
        low = min(low, int(h[np.arange(e - a), np.arange(a, e)].min()))
    return out, low


def summarise(per_rank):
    """``per_rank``: each rank's list from :func:`run_jobs` (rank 0 first).  One dict per solve:
    rank 0's record (its per-round lists kept apart), the slowest rank's times (``*_max``), the
    combined checksum and the block-row checksums (for comparing with another run's)."""
    rows = []
    for k, first in enumerate(per_rank[0]):
        solves = [ranks[k] for ranks in per_rank]
        rec = {key: v for key, v in first.items() if key not in ("per_round", "checksums")}
        for key in PER_RANK:
            rec[f"{key}_max"] = max(s[key] for s in solves)
        rec["min_diagonal"] = min(s.get("min_diagonal", 0) for s in solves)
        rec["checksum"] = f"{block_rows_checksum(solves):016x}"
        rec["block_checksums"] = {b: (v, w) for s in solves for b, v, w in s.get("checksums", [])}
        rec["per_round"] = [dict(rank=s["rank"], **s["per_round"]) for s in solves]
        rows.append(rec)
    return rows
