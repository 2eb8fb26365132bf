"""Starting the ranks: one process per GPU, each with an NCCL communicator made from one unique id.

Two ways, the same per-rank function ``fn(ctx, *args)``:

* under MPI (``mpirun -np P python -m apsp_kernels.algorithms.gpu.multi run ...``): every process
  is a rank; rank 0 makes the NCCL id and mpi4py broadcasts it; a rank's GPU is its rank among the
  processes of its host (MPI's shared-memory split).  This is the multi-host path: start one
  process per GPU on every host with ``mpirun -np P -H host1:G,host2:G`` (or srun); NCCL then
  bootstraps over TCP from rank 0's address carried in the id, so every host must reach rank 0's
  host on some interface (``NCCL_SOCKET_IFNAME`` picks it) and, for speed, share InfiniBand/RoCE
  (``NCCL_IB_HCA``) or the NVLink of one NVL domain.  Nothing else in the code changes.
* without MPI, on one host (:func:`spawn`): this process is rank 0 and starts ranks 1 .. P-1 with
  multiprocessing's spawn, passing them the id; their return values come back through a queue.

``NCCL_NVLS_ENABLE=0`` is set (unless already set) before any communicator exists: the device
machines' README asks for NVLink multicast (NVLS) off.  One GPU per rank: NCCL refuses two ranks
on one device."""
from __future__ import annotations

import os
import queue as _queue
import threading
import traceback

from .rank import Context

MPI_ENV = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS", "MV2_COMM_WORLD_SIZE")
READY_TIMEOUT_S = 300          # a child that has not imported CuPy and found its GPU by then has failed


def nccl_environment():
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")


def nccl_version():
    """NCCL's runtime version as text ("2.28.9"), or None where CuPy has no NCCL."""
    try:
        from cupy.cuda import nccl
        v = int(nccl.get_version())
    except Exception:
        return None
    major, rest = divmod(v, 10000) if v >= 10000 else divmod(v, 1000)    # 2.9 on: 22809; before: 2708
    minor, patch = divmod(rest, 100)
    return f"{major}.{minor}.{patch}"


def under_mpi():
    return any(k in os.environ for k in MPI_ENV)


def _unique_id():
    from cupy.cuda import nccl
    return nccl.get_unique_id()


def init_rank(rank, size, uid, device, use_nccl):
    """Select this rank's GPU and join the communicator (blocks until every rank has joined)."""
    import cupy as cp
    nccl_environment()
    cp.cuda.Device(device).use()
    comm = None
    if use_nccl:
        from cupy.cuda import nccl
        comm = nccl.NcclCommunicator(size, uid, rank)
    return Context(rank, size, device, comm)


def _check_devices(size):
    import cupy as cp
    have = cp.cuda.runtime.getDeviceCount()
    if size > have:
        raise RuntimeError(f"{size} ranks need {size} GPUs (NCCL allows one rank per GPU); this host has {have}")


def _child(rank, size, uid, use_nccl, fn, args, ready, results):
    try:
        import cupy as cp
        cp.cuda.Device(rank).use()
        ready.put((rank, None))
    except BaseException:
        ready.put((rank, traceback.format_exc()))
        return
    try:
        ctx = init_rank(rank, size, uid, rank, use_nccl)
        value = fn(ctx, *args)
        results.put((rank, True, value))
    except BaseException:
        results.put((rank, False, traceback.format_exc()))
        raise SystemExit(1)


def _watch(procs, ctx_box, failed):
    """Abort the communicator when a child dies, so that rank 0 is not left waiting in a collective."""
    while not failed.wait(1.0):
        if all(p.exitcode is not None for p in procs):
            return
        if any(p.exitcode not in (None, 0) for p in procs):
            failed.set()
            ctx = ctx_box.get("ctx")
            if ctx is not None and ctx.comm is not None:
                ctx.comm.abort()
            return


def _collect(q, procs, timeout_s=READY_TIMEOUT_S):
    """One message per child from ``q`` ((rank, *payload)), as {rank: payload}, and an error for
    each child that died without one (a message is in the pipe before a child exits normally, so a
    dead child and an empty queue mean it never comes) or stayed silent for ``timeout_s``."""
    pending, got, errors, quiet = set(range(1, len(procs) + 1)), {}, [], 0.0
    while pending:
        try:
            rank, *payload = q.get(timeout=2)
        except _queue.Empty:
            quiet += 2
            dead = [r for r in pending if procs[r - 1].exitcode is not None]
            errors += [f"rank {r}: exited with code {procs[r - 1].exitcode} and no word" for r in dead]
            pending -= set(dead)
            if quiet >= timeout_s and pending:
                errors += [f"rank {r}: silent for {timeout_s} s" for r in sorted(pending)]
                break
            continue
        quiet = 0.0
        pending.discard(rank)
        got[rank] = tuple(payload)
    return got, errors


def spawn(size, fn, args=(), use_nccl=None):
    """Run ``fn(ctx, *args)`` on ranks 0 .. size-1 of this host: rank 0 here, the others in spawned
    processes.  ``use_nccl``: None makes a communicator only where there is more than one rank.
    Returns the ranks' return values, rank 0 first."""
    import multiprocessing as mp
    nccl_environment()
    use = size > 1 if use_nccl is None else bool(use_nccl)
    _check_devices(size)
    uid = _unique_id() if use else None
    if size == 1:
        return [fn(init_rank(0, 1, uid, 0, use), *args)]
    ctx_mp = mp.get_context("spawn")
    ready, results = ctx_mp.Queue(), ctx_mp.Queue()
    procs = [ctx_mp.Process(target=_child, args=(r, size, uid, use, fn, args, ready, results), daemon=True)
             for r in range(1, size)]
    for p in procs:
        p.start()
    started, errors = _collect(ready, procs)          # every child alive on its GPU before NCCL
    errors += [f"rank {r} could not start:\n{err}" for r, (err,) in started.items() if err]
    if errors:
        for p in procs:
            p.terminate()
        raise RuntimeError("\n".join(errors))
    box, failed = {}, threading.Event()
    watcher = threading.Thread(target=_watch, args=(procs, box, failed), daemon=True)
    watcher.start()
    try:
        ctx = init_rank(0, size, uid, 0, use)
        box["ctx"] = ctx
        mine = fn(ctx, *args)
    except BaseException:
        failed.set()
        for p in procs:
            p.terminate()
        raise
    done, errors = _collect(results, procs)
    errors += [f"rank {r}:\n{value}" for r, (ok, value) in done.items() if not ok]
    values = {0: mine, **{r: value for r, (ok, value) in done.items() if ok}}
    for p in procs:
        p.join()
    failed.set()
    if errors:
        raise RuntimeError("a rank failed:\n" + "\n".join(errors))
    return [values[r] for r in range(size)]


def mpi_run(fn, args=(), use_nccl=None):
    """Run ``fn(ctx, *args)`` on this MPI process; rank 0 gets every rank's value, the others None.
    A rank that raises aborts the whole job (the others would wait in NCCL forever)."""
    from mpi4py import MPI
    nccl_environment()
    world = MPI.COMM_WORLD
    rank, size = world.Get_rank(), world.Get_size()
    local = world.Split_type(MPI.COMM_TYPE_SHARED)
    use = size > 1 if use_nccl is None else bool(use_nccl)
    uid = world.bcast(_unique_id() if (use and rank == 0) else None, root=0)
    try:
        ctx = init_rank(rank, size, uid, local.Get_rank(), use)
        value = fn(ctx, *args)
    except BaseException:
        traceback.print_exc()
        world.Abort(1)
        raise
    values = world.gather(value, root=0)
    return values


def run(size, fn, args=(), use_nccl=None):
    """Under MPI: the MPI world (its size must be ``size``, or None to take it); else :func:`spawn`."""
    if under_mpi():
        from mpi4py import MPI
        world = MPI.COMM_WORLD.Get_size()
        if size not in (None, world):
            raise RuntimeError(f"asked for {size} ranks under an MPI world of {world}: run mpirun -np {size}")
        return mpi_run(fn, args, use_nccl)
    return spawn(size or 1, fn, args, use_nccl)
