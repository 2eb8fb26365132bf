"""Multi-GPU blocked FW (seed 004, NTHU, "Multi-GPU" and "Optimization"): block rows split across P
GPUs, one process per GPU, the pivot data broadcast from its owner with NCCL each round, in the
seed's three synchronisation designs (``sync``: "row", "rowcol", "whole").

Beside it, the tuned codes over the GPUs of one host, each its own module: ``tuned`` (the tuned blocked FW,
pivot rows broadcast over NCCL; its launcher here imports it when called) and ``sources`` (the many-source sparse
codes, the sources split across GPUs, no NCCL, every rank's rows written into one shared host result:
``host_rows``).  ``shortest_paths(..., devices=k)`` runs them.

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


TUNED_BLOCK = 128          # tuned_fw's block: the padding and the pivot row's height


def tuned_fw_footprint(n, m, k=1):
    """Device bytes on the busiest of ``k`` GPUs of the tuned blocked FW over k GPUs (``multi/tuned.py``): its
    block rows of the padded N x N matrix (N = n rounded up to 128; the first ranks hold one block row more), two
    buffers for the broadcast pivot row (none on one GPU) and its rows of the transposed pivot column."""
    B = TUNED_BLOCK
    N = -(-max(int(n), 1) // B) * B
    k = max(int(k), 1)
    most = -(-(N // B) // k) * B
    return 4 * most * N + (2 * 4 * B * N if k > 1 else 0) + 4 * B * most


def tuned_fw_multi(g, n_gpus=None, timeout_s=None):
    """The registry's launcher of the tuned blocked FW over ``n_gpus`` GPUs of this host (None: all):
    ``multi/tuned.py``'s, imported when called."""
    from .tuned import tuned_fw_multi as solve
    return solve(g, n_gpus=n_gpus, timeout_s=timeout_s)


__all__ = ["nthu_multi", "tuned_fw_multi", "tuned_fw_footprint", "SYNC_DESIGNS"]
