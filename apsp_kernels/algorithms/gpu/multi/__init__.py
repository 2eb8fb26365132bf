"""Multi-GPU blocked FW (seed 004, NTHU, "Multi-GPU" and "Optimization"): block rows split across P
GPUs, one process per GPU, the pivot data broadcast from its owner with NCCL each round, in the
seed's three synchronisation designs (``sync``: "row", "rowcol", "whole").

Modules, each one job: ``schedule`` (partition and per-round transfers, plain Python), ``simulate``
(the same schedule on P virtual ranks in numpy), ``rank`` (one rank on its GPU), ``launch`` (the
processes: MPI or multiprocessing spawn).  Outside the algorithm: its measurement runs
(``study/seeds/nthu/runs``) and its command line (``python -m apsp_kernels.multi_gpu {plan,simulate,run}``).
CuPy is imported only when a GPU path runs."""
from __future__ import annotations

from ..fw_nthu import DEFAULT_VARIANT
from .schedule import SYNC_DESIGNS

TIMINGS = ("kernel_ms", "comm_ms", "compute_ms", "phase1_ms", "phase2_ms", "phase3_ms", "build_ms", "gather_ms",
           "n_gpus", "nccl", "rounds", "n_ext", "block", "received_bytes", "payload_bytes_per_round")


def nthu_multi(g, sync="row", n_gpus=1, kernel=DEFAULT_VARIANT, use_nccl=None, timeout_s=None):
    """The registry's launcher: solve ``g`` on ``n_gpus`` GPUs of this host (one GPU: in this
    process; more: one spawned process per GPU, this one only coordinating), gather the result on
    rank 0 and return ``(distances, timings)``.  ``use_nccl``: None uses NCCL only with more than
    one GPU; True makes a one-rank communicator and runs every broadcast through it (the NCCL calls
    checked on a one-GPU machine).  ``timeout_s``: a rank that has not finished by then ends the
    call with ``launch.RankError`` (default ``launch.RANK_TIMEOUT_S``)."""
    from . import launch, rank
    if sync not in SYNC_DESIGNS:
        raise ValueError(f"sync must be one of {SYNC_DESIGNS}, got {sync!r}")
    values = launch.spawn(int(n_gpus), rank.solve_gathered, (g, kernel, sync), use_nccl, timeout_s=timeout_s)
    first = values[0]
    timings = {k: first[k] for k in TIMINGS if k in first}
    timings["kernel_ms_max"] = max(v["kernel_ms"] for v in values)
    timings["comm_ms_max"] = max(v["comm_ms"] for v in values)
    return first["distances"], timings


__all__ = ["nthu_multi", "SYNC_DESIGNS"]
