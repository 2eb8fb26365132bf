"""METIS's node nested dissection with its regions ordered in parallel: in worker processes, or in threads.

pymetis holds Python's GIL for the whole of a METIS call, so one call orders the whole graph on one core: at
16,384 vertices 40-46 ms here and 49-86 ms on the device's host CPU, 5-10 times the elimination kernels there.
pymetis's extension also exports METIS's C API (``METIS_NodeND``, ``METIS_PartGraphRecursive``), and a ctypes call
releases the GIL, so regions of the graph can be ordered at once.  Nested dissection splits naturally: the top
``log2(workers)`` levels are split here, each region by METIS's edge bisection and a minimum vertex cover of the cut
edges (König's theorem, from scipy's maximum bipartite matching; METIS builds its own separators from such a
cover), the regions of one level at once; then every region left is ordered by ``METIS_NodeND`` on its own worker,
and the order is region A, region B, their separator, recursively, as METIS_NodeND orders internally.  The caller
recovers the supernode tree from this flat order as it does from METIS_NodeND's
(:func:`.ordering.tree_ordering`).  Fill within a few per cent of METIS_NodeND's on the whole graph (factor entries
0.97-1.07x on 4 workers on kNN, Delaunay and grid graphs of 8,000-100,000 vertices; up to 1.11x on 16).

Concurrent METIS calls in one process contend: METIS draws its random numbers from the C library's ``rand()``, one
state behind one lock for the process.  On the device's 16-core host, 16 calls on 1,024-vertex graphs took 24 ms in
16 threads and 6 ms in 16 processes (one alone: 2.4; `scripts/metis_contention_probe.py`).  So the regions go to
:class:`Processes`, worker processes that outlive a call (each runs this file as a script: numpy, scipy and pymetis,
not the package; a region's pattern goes over a pipe, its order comes back, one BLAS thread each), started in the
background once the first default call's ordering is done (started at its beginning, they made that call ~300 ms
slower on the device); until they are ready, and where they cannot run, :class:`Threads` order the regions, at
most :data:`MAX_THREADS` of them.  The workers ignore SIGINT (the parent's Ctrl-C is the parent's) and end when the
parent closes their pipe or exits; a child forked from the parent forgets them and starts its own
(``APSP_METIS_PROCESSES`` sets their number, 0: threads only).  With more than one worker the order (never the
distances) can differ between runs; one worker is one METIS_NodeND call on the whole graph, pymetis's order bit
for bit.  Each METIS call traps SIGABRT and SIGTERM and puts back the handler it found; overlapping calls in threads
would leave METIS's in place, so :func:`signals_kept` restores them.  Where the exported symbols are missing,
:func:`available` is False and the caller uses pymetis serially."""
from __future__ import annotations

import atexit
import contextlib
import ctypes
import functools
import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

try:                                  # optional, as in .ordering
    import pymetis
except ImportError:                   # pragma: no cover - depends on the environment
    pymetis = None

NOPTIONS = 40          # METIS_NOPTIONS: the options array's length
MIN_REGION = 2048      # regions smaller than this are not split further: METIS_NodeND orders them whole
MAX_THREADS = 4        # more threads contend on METIS's rand() lock (above) and order no faster
MAX_PROCESSES = 8      # worker processes by default, at most
START_TIMEOUT_S = 60   # how long a caller that names a process count waits for its workers to start
PROCESSES_VARIABLE = "APSP_METIS_PROCESSES"   # the environment's say over the default worker processes
# A worker needs no BLAS or OpenMP threads: without these, numpy's import in each starts a pool of one thread a core
# (user CPU 0.32-0.34 s against 0.17-0.19 for a worker's start here), competing with the caller's own work
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
TRAPPED = (signal.SIGABRT, signal.SIGTERM)   # the signals every METIS call traps (GKlib's gk_sigtrap) and puts back
SIGACTION_BYTES = 512  # room for the C library's struct sigaction (152 bytes with glibc on x86-64), kept as bytes
METIS_OK = 1


@functools.lru_cache(maxsize=1)
def _library():
    """(the ctypes library, its idx_t dtype) from pymetis's extension, or None where it does not export METIS."""
    if pymetis is None:
        return None
    try:
        lib = ctypes.CDLL(pymetis._internal.__file__)
        for name in ("METIS_SetDefaultOptions", "METIS_NodeND", "METIS_PartGraphRecursive"):
            getattr(lib, name)
    except (AttributeError, OSError):
        return None
    probe = np.zeros(NOPTIONS, np.int64)
    lib.METIS_SetDefaultOptions(probe.ctypes.data_as(ctypes.c_void_p))
    # METIS writes -1 into every option: NOPTIONS int64 words if idx_t is 64-bit, half of them if 32-bit
    idx = np.int64 if (probe == -1).all() else np.int32
    return lib, idx


def available() -> bool:
    return _library() is not None


def default_threads() -> int:
    """The threads :func:`order` uses where the workers are not ready: the cores here, at most MAX_THREADS; 1 where
    the signal handlers cannot be kept (:func:`signals_kept`)."""
    return min(threads_here(), MAX_THREADS) if _sigaction() is not None else 1


def default_processes() -> int:
    """The worker processes :func:`order` uses by default: ``APSP_METIS_PROCESSES`` where set (0 or 1: none, the
    regions ordered in threads), else the cores here, at most MAX_PROCESSES."""
    named = os.environ.get(PROCESSES_VARIABLE, "").strip()
    if named:
        try:
            return max(int(named), 0)
        except ValueError:
            raise ValueError(f"{PROCESSES_VARIABLE}={named!r}: not a whole number of processes") from None
    return min(threads_here(), MAX_PROCESSES)


@functools.lru_cache(maxsize=1)
def _sigaction():
    """The C library's ``sigaction``, or None where ctypes cannot reach it (not a POSIX system)."""
    try:
        fn = ctypes.CDLL(None, use_errno=True).sigaction
    except (AttributeError, OSError, TypeError):
        return None
    fn.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
    return fn


@contextlib.contextmanager
def signals_kept():
    """The process's handlers of :data:`TRAPPED` as they were before, whatever METIS calls ran within.  Each METIS
    call installs its own handler for SIGABRT and SIGTERM and puts back the one it found; calls that overlap put back
    each other's, which leaves METIS's installed after them, and a later SIGTERM then crashes the process (a
    segmentation fault) instead of ending it.  The handlers are saved as raw bytes (sigaction with no new action)
    and written back."""
    fn = _sigaction()
    saved = []
    for sig in TRAPPED if fn is not None else ():
        buf = ctypes.create_string_buffer(SIGACTION_BYTES)
        if fn(int(sig), None, buf) == 0:
            saved.append((int(sig), buf))
    try:
        yield
    finally:
        for sig, buf in saved:
            fn(sig, buf, None)


def threads_here() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:            # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _ptr(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def _options(idx, niter=None):
    lib, _ = _library()
    o = np.zeros(NOPTIONS, idx)
    lib.METIS_SetDefaultOptions(_ptr(o))
    if niter is not None:
        o[int(pymetis.OptionKey.NITER)] = niter
    return o


def _csr(p):
    """(nvtxs, xadj, adjncy) as METIS reads them (a one-entry adjncy where there are no edges: a valid pointer)."""
    _, idx = _library()
    xadj = np.ascontiguousarray(p.indptr, idx)
    adj = np.ascontiguousarray(p.indices, idx) if p.nnz else np.zeros(1, idx)
    return np.array([p.shape[0]], idx), xadj, adj


def node_nd(p, niter=None) -> np.ndarray:
    """METIS_NodeND's order of the symmetric pattern ``p`` (no diagonal), ``perm[new] = old``; ``niter``: the
    refinement passes (METIS's default where None).  The GIL is released for the call."""
    lib, idx = _library()
    n = p.shape[0]
    if n == 0:
        return np.zeros(0, np.int64)
    nv, xadj, adj = _csr(p)
    perm, iperm = np.empty(n, idx), np.empty(n, idx)
    status = lib.METIS_NodeND(_ptr(nv), _ptr(xadj), _ptr(adj), None, _ptr(_options(idx, niter)), _ptr(perm),
                              _ptr(iperm))
    if status != METIS_OK:
        raise RuntimeError(f"METIS_NodeND failed (status {status}) on a region of {n} vertices")
    return perm.astype(np.int64)


def _edge_bisection(p):
    """METIS's 2-way partition (recursive bisection) of ``p``: an int8 part (0 or 1) a vertex."""
    lib, idx = _library()
    nv, xadj, adj = _csr(p)
    part, cut = np.empty(p.shape[0], idx), np.zeros(1, idx)
    one, two = np.ones(1, idx), np.full(1, 2, idx)
    status = lib.METIS_PartGraphRecursive(_ptr(nv), _ptr(one), _ptr(xadj), _ptr(adj), None, None, None, _ptr(two),
                                          None, None, _ptr(_options(idx)), _ptr(cut), _ptr(part))
    if status != METIS_OK:
        raise RuntimeError(f"METIS_PartGraphRecursive failed (status {status}) on a region of {p.shape[0]} vertices")
    return part.astype(np.int8)


def cover_of_cut(p, part):
    """A minimum vertex cover of the edges of ``p`` between part 0 and part 1 (local indices): by König's theorem
    from a maximum matching of the cut's bipartite graph, the part-0 ends not reached by an alternating path from
    an unmatched part-0 end, and the part-1 ends that are."""
    rows = np.repeat(np.arange(p.shape[0]), np.diff(p.indptr))
    cut = (part[rows] == 0) & (part[p.indices] == 1)
    u, v = rows[cut], p.indices[cut]
    if not u.size:
        return np.zeros(0, np.int64)
    us, ui = np.unique(u, return_inverse=True)
    vs, vi = np.unique(v, return_inverse=True)
    b = sp.csr_matrix((np.ones(u.size, np.int8), (ui, vi)), shape=(us.size, vs.size))
    match = csgraph.maximum_bipartite_matching(b, perm_type="column")     # the column of each row, or -1
    row_of = np.full(vs.size, -1, np.int64)
    matched = match >= 0
    row_of[match[matched]] = np.flatnonzero(matched)
    seen_u, seen_v = ~matched, np.zeros(vs.size, bool)
    frontier = np.flatnonzero(~matched)
    while frontier.size:                       # alternating paths: any cut edge to part 1, a matched one back
        cols = np.unique(b[frontier].indices)
        cols = cols[~seen_v[cols]]
        seen_v[cols] = True
        back = row_of[cols]
        back = back[(back >= 0)]
        back = back[~seen_u[back]]
        seen_u[back] = True
        frontier = back
    return np.concatenate([us[~seen_u], vs[seen_v]]).astype(np.int64)


def split(p):
    """(part a, part b, separator) of the region with pattern ``p`` (local indices), or None where bisection
    separates nothing (no cut edges, or a separator of half the region: a dense region gains nothing)."""
    if p.nnz == 0:
        return None
    part = _edge_bisection(p)
    sep = cover_of_cut(p, part)
    if not sep.size or 2 * sep.size > p.shape[0]:
        return None
    out = np.zeros(p.shape[0], bool)
    out[sep] = True
    a, b = np.flatnonzero((part == 0) & ~out), np.flatnonzero((part == 1) & ~out)
    if not a.size or not b.size:
        return None
    return a, b, sep


def _region(p, vertices):
    sub = p[vertices][:, vertices].tocsr()
    sub.sort_indices()
    return sub


def _run(op, p, niter):
    """One METIS task on the region with pattern ``p``: "split" (:func:`split`) or "node_nd" (:func:`node_nd`)."""
    if op not in ("split", "node_nd"):
        raise ValueError(f"unknown METIS task {op!r}")
    return split(p) if op == "split" else node_nd(p, niter)


class Threads:
    """Regions ordered in ``count`` threads of this process (METIS's calls contend on its rand() lock)."""
    kind = "threads"

    def __init__(self, count):
        self.count = count

    def map(self, op, regions, niter=None):
        with signals_kept(), ThreadPoolExecutor(self.count) as pool:
            return list(pool.map(lambda p: _run(op, p, niter), regions))


class WorkerLost(RuntimeError):
    """A worker process ended or its pipe broke during a task."""


class Processes:
    """``count`` worker processes, each running this file as a script (:func:`serve`): a task's region goes over
    the worker's stdin as a pickle, its answer comes back on a pipe of its own (so nothing METIS prints can corrupt
    it).  Started in a thread of their own, the caller waiting for none of it; :attr:`ready` is set when every worker
    has said so, :attr:`failed` holds why they cannot be used (a worker that did not start, or was lost)."""
    kind = "processes"

    def __init__(self, count):
        self.count = count
        self.ready, self.failed = threading.Event(), None
        self._idle, self._workers, self._lock = queue.SimpleQueue(), [], threading.Lock()
        self._dispatch = ThreadPoolExecutor(count)
        threading.Thread(target=self._start, daemon=True).start()    # the caller waits for none of it

    def _start(self):
        """Start the workers (each fork and exec costs the caller's process a few ms) and wait for each to say it is
        ready; on any failure :attr:`failed` says why and the workers started are ended.  :attr:`ready` is set
        however it ends (closed while starting too)."""
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p), **ONE_THREAD}
        try:
            for _ in range(self.count):
                with self._lock:
                    if self.failed:                              # closed while starting
                        return
                    answers, write = os.pipe()
                    try:
                        proc = subprocess.Popen([sys.executable, __file__, str(write)], stdin=subprocess.PIPE,
                                                pass_fds=(write,), env=env, start_new_session=True)
                    except OSError:
                        os.close(answers)
                        raise
                    finally:
                        os.close(write)
                    self._workers.append((proc, os.fdopen(answers, "rb")))
            for proc, answers in list(self._workers):
                if pickle.load(answers) != ("ready", proc.pid):
                    raise WorkerLost(f"worker {proc.pid} did not start")
                self._idle.put((proc, answers))
        except (EOFError, OSError, ValueError, pickle.UnpicklingError, WorkerLost) as e:
            self.failed = self.failed or f"METIS worker processes did not start ({type(e).__name__}: {e})"
            self._end_workers()
        finally:
            self.ready.set()

    def wait(self, timeout=START_TIMEOUT_S):
        if not self.ready.wait(timeout):
            self.failed = f"METIS worker processes not ready after {timeout} s"
        if self.failed:
            raise WorkerLost(self.failed)
        return self

    def _take(self):
        """An idle worker, or WorkerLost once the pool has failed (a lost worker never comes back to the queue)."""
        while not self.failed:
            try:
                return self._idle.get(timeout=0.05)
            except queue.Empty:
                pass
        raise WorkerLost(self.failed)

    def _task(self, op, p, niter):
        worker = proc, answers = self._take()
        try:
            pickle.dump((op, p.shape[0], p.indptr, p.indices, niter), proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            proc.stdin.flush()
            ok, value = pickle.load(answers)
        except (EOFError, OSError, ValueError, pickle.UnpicklingError) as e:
            self.failed = f"METIS worker {proc.pid} lost ({type(e).__name__}: {e}; exit code {proc.poll()})"
            self._end_workers()                           # the pool is not used again: the others end too
            raise WorkerLost(self.failed) from e
        self._idle.put(worker)
        if not ok:
            raise RuntimeError(f"METIS worker {proc.pid}: {value}")
        return value

    def map(self, op, regions, niter=None):
        return list(self._dispatch.map(lambda p: self._task(op, p, niter), regions))

    def _end_workers(self):
        """Close every worker's task pipe: a worker reading it ends, one still starting ends when it first reads.  The
        answer pipes stay open (a thread may be reading one: closing it would wait for that read)."""
        for proc, _ in list(self._workers):
            with contextlib.suppress(OSError, ValueError):
                proc.stdin.close()

    def close(self, wait=True):
        """End the workers; ``wait``: for them to end, briefly (then their answer pipes are closed too)."""
        with self._lock:
            self.failed = self.failed or "closed"
        self._dispatch.shutdown(wait=False, cancel_futures=True)
        self._end_workers()
        for proc, answers in list(self._workers) if wait else ():
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            with contextlib.suppress(OSError):
                answers.close()

    def forget(self):
        """In a child forked from the process that started the workers: close this copy's ends of their pipes (so
        that they still end with the parent), never to use them here.  A pipe a parent's thread was using at the
        fork cannot be closed here (its lock went with that thread: Python refuses) and stays open."""
        self.failed = "a forked copy: the workers belong to the parent"
        for proc, answers in self._workers:
            for f in (proc.stdin, answers):
                with contextlib.suppress(OSError, ValueError, RuntimeError):
                    f.close()


_started: dict[int, Processes] = {}
_started_lock = threading.Lock()
_exiting = False       # set at exit: no pool starts after close_all
_inherited: list = []  # in a forked child, the parent's pools, kept from the collector (their pipes' locks may be held)


def _after_fork_in_child():
    """A forked child has the parent's pools without their threads or their workers' attention: it forgets them and
    starts its own where it orders (its copy of the lock is fresh, whatever thread held the parent's)."""
    global _started, _started_lock
    for pool in _started.values():
        pool.forget()
    _inherited.extend(_started.values())
    _started, _started_lock = {}, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def processes(count=None, start=True):
    """The worker pool of ``count`` processes (default :func:`default_processes`) this process keeps, started
    (without waiting) where ``start`` and not yet running; None where it cannot be."""
    count = default_processes() if count is None else count
    with _started_lock:
        pool = _started.get(count)
        if pool is None and start and sys.executable and not _exiting:   # a failed pool stays, not restarted
            pool = _started[count] = Processes(count)
        return pool


def close_all(wait=True):
    """End every pool this process started (``wait``: for their workers to end, briefly)."""
    with _started_lock:
        for pool in _started.values():
            pool.close(wait=wait)
        _started.clear()


@atexit.register
def _close_at_exit():
    """At exit: end every pool without waiting (a worker still starting ends when it first reads its closed pipe),
    and start none after."""
    global _exiting
    _exiting = True
    close_all(wait=False)


def default_pool():
    """The workers :func:`order` uses by default: this process's worker processes where they are ready (started in
    the background after the first default order), else :func:`default_threads` threads."""
    if default_processes() > 1:
        pool = processes(start=False)
        if pool is not None and pool.ready.is_set() and not pool.failed:
            return pool
    return Threads(default_threads())


def order(p, threads=None, niter=None, min_region=None, workers=None) -> np.ndarray:
    """The nested-dissection order of the symmetric pattern ``p`` (``perm[new] = old``): the top ceil(log2(k))
    levels split here for k workers, a level's regions at once, regions of fewer than ``min_region`` vertices
    (default MIN_REGION) not split; every region left ordered by METIS_NodeND (``niter`` refinement passes) on its
    own worker.  ``workers``: a :class:`Processes` or :class:`Threads`; ``threads``: that many threads; neither:
    :func:`default_pool`, and the default worker processes started afterwards where they are not yet (the first default
    call orders in threads).  Where worker processes are lost, the order is made in threads and the loss warned of."""
    if not available():
        raise ImportError("metis_parallel needs pymetis with METIS's C API exported (pip install pymetis)")
    default = workers is None and threads is None
    if workers is None:
        workers = default_pool() if default else Threads(max(int(threads), 1))
    try:
        return _order(p, workers, niter, MIN_REGION if min_region is None else min_region)
    except WorkerLost as e:
        warnings.warn(f"{e}; ordering in threads", stacklevel=2)
        return _order(p, Threads(default_threads()), niter, MIN_REGION if min_region is None else min_region)
    finally:
        if default and default_processes() > 1:
            processes()            # started once this order is done: their start does not slow the call that wants them


def _order(p, workers, niter, min_region):
    levels = int(np.ceil(np.log2(workers.count))) if workers.count > 1 else 0
    if levels == 0 or p.shape[0] < min_region:
        return workers.map("node_nd", [p], niter)[0]
    # the order as a list of pieces, each (kind, vertices): "open" a region a later level may split, "whole" one
    # METIS_NodeND orders as it is (its split found no separator), "separator" vertices in their place; splitting
    # a region replaces it by its part A, its part B and their separator, as METIS_NodeND orders
    pieces = [("open", np.arange(p.shape[0], dtype=np.int64))]
    for _ in range(levels):                         # a level's regions split at once
        todo = [i for i, (kind, v) in enumerate(pieces) if kind == "open" and v.size >= min_region]
        halves = dict(zip(todo, workers.map("split", [_region(p, pieces[i][1]) for i in todo])))
        after = []
        for i, (kind, v) in enumerate(pieces):
            if i not in halves:
                after.append((kind, v))
            elif halves[i] is None:
                after.append(("whole", v))
            else:
                a, b, sep = halves[i]
                after += [("open", v[a]), ("open", v[b]), ("separator", v[sep])]
        pieces = after
    regions = [v for kind, v in pieces if kind != "separator"]
    orders = iter(v[o] for v, o in zip(regions, workers.map("node_nd", [_region(p, v) for v in regions], niter)))
    return np.concatenate([v if kind == "separator" else next(orders) for kind, v in pieces])


def serve(answer_fd):
    """A worker's loop (this file run as a script): tasks from stdin, answers on ``answer_fd``, until stdin ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    tasks, answers = sys.stdin.buffer, os.fdopen(answer_fd, "wb")
    try:
        pickle.dump(("ready", os.getpid()), answers)
        answers.flush()
        while True:
            try:
                op, n, indptr, indices, niter = pickle.load(tasks)
            except EOFError:
                return
            try:
                reply = (True, _run(op, sp.csr_matrix((np.ones(indices.size, np.int8), indices, indptr),
                                                      shape=(n, n)), niter))
            except Exception as e:                # the caller raises it with the worker named
                reply = (False, f"{type(e).__name__}: {e}")
            pickle.dump(reply, answers, protocol=pickle.HIGHEST_PROTOCOL)
            answers.flush()
    except BrokenPipeError:                       # the parent closed or left: nothing to answer
        os._exit(0)


if __name__ == "__main__":
    serve(int(sys.argv[1]))
