"""Starting the ranks: one process per GPU, each with an NCCL communicator made from one unique id.

Two ways, the same per-rank function ``fn(ctx, *args)``:

* under MPI (``mpirun -np P python -m apsp_kernels.multi_gpu run ...``): every process
  is a rank; rank 0 makes the NCCL id and mpi4py broadcasts it; a rank's GPU is its rank among the
  processes of its host (MPI's shared-memory split).  This is the multi-host path: start one
  process per GPU on every host with ``mpirun -np P -H host1:G,host2:G`` (or srun); NCCL then
  bootstraps over TCP from rank 0's address carried in the id, so every host must reach rank 0's
  host on some interface (``NCCL_SOCKET_IFNAME`` picks it) and, for speed, share InfiniBand/RoCE
  (``NCCL_IB_HCA``) or the NVLink of one NVL domain.  Nothing else in the code changes.
* without MPI, on one host (:func:`spawn`): this process only coordinates.  It makes the NCCL id
  and starts ranks 0 .. P-1 as fresh processes (multiprocessing's spawn), each with a pipe back;
  it never joins a communicator itself, so it can always keep its deadline: a rank that has not
  finished by then, dies, or raises ends the call with one line naming the rank
  (:class:`RankError`), its processes killed.  Ranks send progress and data while they run
  (``ctx.send``); a rank's return value is its last message.

Why the parent no longer runs rank 0 (the stall of the first 2-GPU session, 2026-11-23): the parent
ran rank 0 in-process, collected rank 1's result and then ``join()``-ed it; rank 1, having
returned, was destroying its communicator, and NCCL's ``ncclCommDestroy`` waits until the other
ranks of the node destroy theirs (their proxy threads serve each other until then).  The parent
would destroy rank 0's only after the join: each waited for the other, silently, for ever -- in
``pytest tests/test_multi.py`` at the first 2-GPU test and in ``nthu_measure.py multi`` after the
one-GPU jobs.  Under mpirun every rank left at the same point and destroyed together, so it worked.
Now every rank destroys its communicator right after its last collective (``Context.close``), and
the coordinator waits for results, not for exits (a rank still alive after its result gets
``TEARDOWN_S`` seconds, then is killed with a warning).

``NCCL_NVLS_ENABLE=0`` is set (unless already set) before any communicator exists: the device
machines' README asks for NVLink multicast (NVLS) off.  One GPU per rank: NCCL refuses two ranks
on one device."""
from __future__ import annotations

import os
import sys
import time
import traceback

from .rank import Context

MPI_ENV = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS", "MV2_COMM_WORLD_SIZE")
RANK_TIMEOUT_S = float(os.environ.get("APSP_RANK_TIMEOUT_S", 540))   # under the device tool's 600 s a command
TEARDOWN_S = 60.0        # after its result, how long a rank may take to destroy its communicator and exit


class RankError(RuntimeError):
    """A rank did not finish: one line saying which and why (``str(e)``); ``details`` holds the
    ranks' tracebacks, ``messages`` what every rank sent before the end, {rank: [(kind, payload)]}."""

    def __init__(self, line, details="", messages=None):
        super().__init__(line)
        self.details = details
        self.messages = messages or {}


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


def init_rank(rank, size, uid, device, use_nccl, gpus=True):
    """Select this rank's GPU and join the communicator (blocks until every rank has joined).
    ``gpus=False``: a rank without a GPU (the process harness alone; no NCCL then)."""
    comm = None
    if gpus:
        import cupy as cp
        nccl_environment()
        cp.cuda.Device(device).use()
        if use_nccl:
            from cupy.cuda import nccl
            comm = nccl.NcclCommunicator(size, uid, rank)
    return Context(rank, size, device, comm)


def _check_devices(size):
    import cupy as cp
    have = cp.cuda.runtime.getDeviceCount()
    if size > have:
        raise RuntimeError(f"{size} ranks need {size} GPUs (NCCL allows one rank per GPU); this host has {have}")


def _one_line(exc):
    """``Type: message (file:line in function)``, the place being the innermost frame of this package outside
    the launcher (none where the error came from elsewhere)."""
    text = f"{type(exc).__name__}: {exc}".strip()
    line = text.splitlines()[0] if text else type(exc).__name__
    ours = [f for f in traceback.extract_tb(exc.__traceback__) if f"{os.sep}apsp_kernels{os.sep}" in f.filename
            and os.path.abspath(f.filename) != os.path.abspath(__file__)]
    if ours:
        f = ours[-1]
        line += f" (at {os.path.basename(f.filename)}:{f.lineno} in {f.name})"
    return line


def _rank_main(rank, size, uid, use_nccl, gpus, fn, args, conn):
    """A spawned rank: join, run ``fn``, send its value as the last message, destroy the
    communicator (with the other ranks: see the module's docstring) and exit."""
    ctx = None
    try:
        ctx = init_rank(rank, size, uid, rank, use_nccl, gpus)
        ctx.channel = lambda kind, payload: conn.send((kind, payload))
        conn.send(("state", "joined" if ctx.comm is not None else "started"))
        value = fn(ctx, *args)
        conn.send(("state", "finished; destroying its communicator"))
        conn.send(("done", value))
    except BaseException as e:
        try:
            conn.send(("error", (_one_line(e), traceback.format_exc())))
        finally:
            os._exit(1)              # the others may wait in a collective: the coordinator stops them
    if ctx is not None:
        ctx.close()
    conn.close()


def _stop(procs, grace=5.0):
    for p in procs:
        if p.is_alive():
            p.terminate()
    end = time.monotonic() + grace
    for p in procs:
        p.join(max(0.0, end - time.monotonic()))
        if p.is_alive():
            p.kill()
            p.join(5)


def spawn(size, fn, args=(), use_nccl=None, timeout_s=None, on_message=None, isolate=False, gpus=True):
    """Run ``fn(ctx, *args)`` on ranks 0 .. size-1 of this host and return their values, rank 0
    first.  ``use_nccl``: None makes a communicator only where there is more than one rank.
    One rank runs in this process unless ``isolate`` (then it too gets a process, and the deadline
    holds for it).  ``timeout_s`` (default :data:`RANK_TIMEOUT_S`): the whole call's deadline;
    ``on_message(rank, kind, payload)`` sees every message a rank sends while it runs.
    ``gpus=False``: ranks without GPUs or NCCL (the harness alone; its tests).  Raises
    :class:`RankError` when a rank does not finish."""
    import multiprocessing as mp
    from multiprocessing.connection import wait
    nccl_environment()
    use = size > 1 if use_nccl is None else bool(use_nccl)
    use = use and gpus
    if gpus:
        _check_devices(size)
    if size == 1 and not isolate:
        ctx = init_rank(0, 1, _unique_id() if use else None, 0, use, gpus)
        if on_message is not None:
            ctx.channel = lambda kind, payload: on_message(0, kind, payload)
        try:
            return [fn(ctx, *args)]
        finally:
            ctx.close()
    timeout_s = RANK_TIMEOUT_S if timeout_s is None else float(timeout_s)
    uid = _unique_id() if use else None
    spawn_ctx = mp.get_context("spawn")
    ends = [spawn_ctx.Pipe(duplex=False) for _ in range(size)]
    procs = [spawn_ctx.Process(target=_rank_main, args=(r, size, uid, use, gpus, fn, args, ends[r][1]),
                               daemon=True, name=f"nthu-rank-{r}") for r in range(size)]
    t0 = time.monotonic()
    for p in procs:
        p.start()
    for _, send in ends:
        send.close()                         # so that a dead rank's pipe reads as closed
    conns = {ends[r][0]: r for r in range(size)}
    values, state, messages = {}, {r: "starting" for r in range(size)}, {r: [] for r in range(size)}
    failure = None
    while conns and failure is None:
        left = timeout_s - (time.monotonic() - t0)
        if left <= 0:
            late = sorted(conns.values())
            failure = (f"rank{'s' if len(late) > 1 else ''} {', '.join(map(str, late))} of {size} did not finish "
                       f"within {timeout_s:g} s (last state: {'; '.join(f'rank {r} {state[r]}' for r in late)})", "")
            break
        for conn in wait(list(conns), timeout=min(left, 5.0)):
            r = conns[conn]
            try:
                kind, payload = conn.recv()
            except (EOFError, OSError):
                procs[r].join(5)
                hint = ("; it died before running anything (its stderr above says why): a script that starts "
                        "ranks must guard its top level with if __name__ == '__main__', which every rank re-imports, "
                        "and the arguments must pickle") if state[r] == "starting" else ""
                failure = (f"rank {r} of {size} exited with code {procs[r].exitcode} before finishing "
                           f"(last state: {state[r]}){hint}", "")
                break
            if kind == "done":
                values[r] = payload
                del conns[conn]
            elif kind == "error":
                failure = (f"rank {r} of {size} failed: {payload[0]}", payload[1])
                break
            else:
                if kind == "state":
                    state[r] = payload
                elif kind == "note":
                    state[r] = f"after: {payload}"
                messages[r].append((kind, payload))
                if on_message is not None:
                    on_message(r, kind, payload)
    if failure is not None:
        _stop(procs)
        raise RankError(failure[0], failure[1], messages)
    end = time.monotonic() + TEARDOWN_S
    for r, p in enumerate(procs):
        p.join(max(0.0, end - time.monotonic()))
        if p.is_alive():
            print(f"warning: rank {r} delivered its result but did not exit within {TEARDOWN_S:g} s "
                  "(NCCL teardown); killed", file=sys.stderr, flush=True)
            _stop([p], grace=2.0)
    return [values[r] for r in range(size)]


def mpi_run(fn, args=(), use_nccl=None):
    """Run ``fn(ctx, *args)`` on this MPI process; rank 0 gets every rank's value, the others None.
    A rank that raises aborts the whole job (the others would wait in NCCL forever).  Every rank
    destroys its communicator after the gather, together."""
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
    ctx.close()
    return values


def run(size, fn, args=(), use_nccl=None, **spawn_kw):
    """Under MPI: the MPI world (its size must be ``size``, or None to take it); else :func:`spawn`
    (``spawn_kw``: its timeout_s, on_message, isolate)."""
    if under_mpi():
        from mpi4py import MPI
        world = MPI.COMM_WORLD.Get_size()
        if size not in (None, world):
            raise RuntimeError(f"asked for {size} ranks under an MPI world of {world}: run mpirun -np {size}")
        return mpi_run(fn, args, use_nccl)
    return spawn(size or 1, fn, args, use_nccl, **spawn_kw)
