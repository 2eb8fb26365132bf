"""METIS's nested dissection ordered region by region in threads or worker processes (cpu/elimination/
metis_parallel): one thread is pymetis's METIS_NodeND order exactly; the separators separate and are minimum covers
of the cut; with small regions forced, the parallel order keeps every property the symbolic phase and the sweeps
rely on, and the distances stay exact against scipy; the worker processes start in the background, report a
task's error with the worker named, ignore SIGINT, end with their parent, and a lost one sends the order back to
threads with a warning; without the exported C API the ordering falls back to pymetis."""
import ctypes
import itertools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st
from scipy.sparse import csgraph

from apsp_kernels.algorithms.cpu import elimination as E
from apsp_kernels.algorithms.cpu.elimination import metis_parallel as MT, ordering
from apsp_kernels.io import suite_graphs as SG
from test_elimination_ordering import SHAPES, check_tree, graphs, path, solve

pytestmark = pytest.mark.skipif(not MT.available(), reason="pymetis not installed or exports no METIS C API")


def _run_script(code, timeout=120):
    """``python -c code`` in a fresh interpreter from the repository root, the package importable (text output)."""
    root = Path(__file__).resolve().parents[1]
    return subprocess.run([sys.executable, "-W", "ignore", "-c", code], cwd=root, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONPATH": os.pathsep.join(
                              [str(root)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])})


def grid(r, c):
    return sp.csr_matrix(sp.kron(sp.eye(r), path(c)) + sp.kron(path(r), sp.eye(c)))


def knn(n, seed=0):
    """The suite's kNN geometric graph's adjacency."""
    return E._edges(SG.make("knn", n, seed=seed))[4]


@pytest.mark.parametrize("a", [grid(40, 50), knn(1500)], ids=["grid", "knn"])
def test_one_thread_is_pymetis_nodend(a):
    import pymetis
    p = E.symmetric_pattern(a)
    adj = pymetis.CSRAdjacency(p.indptr.astype(np.int64), p.indices.astype(np.int64))
    ref, _ = pymetis.nested_dissection(adjacency=adj, options=pymetis.Options(niter=ordering.METIS_NITER))
    assert np.array_equal(MT.order(p, threads=1, niter=ordering.METIS_NITER), np.asarray(ref))
    assert np.array_equal(MT.node_nd(p, ordering.METIS_NITER), np.asarray(ref))


def brute_min_cover(u, v):
    ends = sorted(set(u) | set(v))
    for size in range(len(ends) + 1):
        for c in itertools.combinations(ends, size):
            c = set(c)
            if all(x in c or y in c for x, y in zip(u, v)):
                return size
    return len(ends)


@settings(max_examples=150, deadline=None)
@given(a=graphs(directed=False), seed=st.integers(0, 2**31))
def test_cover_of_cut_is_a_minimum_cover(a, seed):
    p = E.symmetric_pattern(a)
    part = np.random.default_rng(seed).integers(0, 2, p.shape[0]).astype(np.int8)
    cover = MT.cover_of_cut(p, part)
    rows = np.repeat(np.arange(p.shape[0]), np.diff(p.indptr))
    cut = (part[rows] == 0) & (part[p.indices] == 1)
    u, v = rows[cut], p.indices[cut]
    inside = np.zeros(p.shape[0], bool)
    inside[cover] = True
    assert (inside[u] | inside[v]).all()                                   # every cut edge covered
    assert np.unique(cover).size == cover.size
    ends = np.union1d(u, v)
    if ends.size <= 12:
        assert cover.size == brute_min_cover(u.tolist(), v.tolist())


@pytest.mark.parametrize("a", [grid(60, 70), knn(3000, seed=1)], ids=["grid", "knn"])
def test_split_separates(a):
    p = E.symmetric_pattern(a)
    pa, pb, sep = MT.split(p)
    assert np.array_equal(np.sort(np.concatenate([pa, pb, sep])), np.arange(p.shape[0]))
    assert p[pa][:, pb].nnz == 0                                            # no edge between the parts
    assert sep.size < 0.1 * p.shape[0]


def test_threaded_order_on_real_sizes():
    """Default regions (MIN_REGION): a 120 x 120 grid split two levels deep, a permutation, fill near METIS's."""
    a = grid(120, 120)
    p = E.symmetric_pattern(a)
    one = E.symbolic(E.nested_dissection(a, threads=1), p).size
    o = E.nested_dissection(a, threads=4)
    check_tree(o, a)
    assert E.symbolic(o, p).size <= 1.15 * one


@settings(max_examples=60, deadline=None)
@given(a=graphs(), leaf=st.sampled_from([1, 4, 32]), cap=st.sampled_from([0, None]),
       threads=st.sampled_from([2, 3, 8]))
def test_threaded_order_small_regions(a, leaf, cap, threads):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(MT, "MIN_REGION", 4)                  # split even the smallest graphs
        check_tree(E.nested_dissection(a, leaf=leaf, cap=cap, threads=threads), a)
        d = solve(a, leaf=leaf, cap=cap, threads=threads)
    assert np.array_equal(d, csgraph.shortest_path(a, method="D"))


@pytest.mark.parametrize("name", [k for k in SHAPES if k != "n=0"])
def test_threaded_exact_against_scipy(monkeypatch, name):
    monkeypatch.setattr(MT, "MIN_REGION", 4)
    a = SHAPES[name].copy()
    a.data = np.arange(1, a.nnz + 1, dtype=np.float64) % 17 + 1
    o = E.nested_dissection(a, leaf=4, threads=4)
    check_tree(o, a)
    assert np.array_equal(solve(a, leaf=4, threads=4), csgraph.shortest_path(a, method="D"))


def test_without_the_c_api_pymetis_orders(monkeypatch):
    a = grid(30, 30)
    p = E.symmetric_pattern(a)
    threaded = ordering._metis_permutation(p, threads=1)
    monkeypatch.setattr(MT, "available", lambda: False)
    assert np.array_equal(ordering._metis_permutation(p), threaded)


def test_regions_are_split_and_ordered_at_once(monkeypatch):
    """threads=4: two levels of splits (1 + 2 regions), then four regions ordered by METIS_NodeND."""
    splits, orders = [], []
    real_split, real_nd = MT.split, MT.node_nd
    monkeypatch.setattr(MT, "MIN_REGION", 16)
    monkeypatch.setattr(MT, "split", lambda p: splits.append(p.shape[0]) or real_split(p))
    monkeypatch.setattr(MT, "node_nd", lambda p, niter=None: orders.append(p.shape[0]) or real_nd(p, niter))
    a = SHAPES["grid 30x30"]
    check_tree(E.nested_dissection(a, threads=4), a)
    assert len(splits) == 3 and splits[0] == 900 and len(orders) == 4
    assert sum(orders) < 900 and min(orders) > 150


def test_default_threads_are_capped():
    assert 1 <= MT.default_threads() <= MT.MAX_THREADS and MT.default_threads() <= MT.threads_here()


def _handlers():
    out = []
    for sig in MT.TRAPPED:
        buf = ctypes.create_string_buffer(MT.SIGACTION_BYTES)
        assert MT._sigaction()(int(sig), None, buf) == 0
        out.append(buf.raw[:ctypes.sizeof(ctypes.c_void_p)])        # sa_handler, the struct's first field
    return out


def test_signal_handlers_are_put_back_after_threads(monkeypatch):
    """Overlapping METIS calls put back each other's SIGABRT / SIGTERM handlers, leaving METIS's installed; order()
    restores the handlers it found."""
    before = _handlers()
    MT.order(E.symmetric_pattern(grid(150, 150)), threads=4)
    assert _handlers() == before


def test_sigterm_still_ends_the_process_after_threads():
    """The failure the handlers caused: after a threaded order, SIGTERM crashed the process (SIGSEGV) rather than
    ending it."""
    code = ("import os, signal\n"
            "from apsp_kernels.algorithms.cpu.elimination import _edges, metis_parallel as MT, symmetric_pattern\n"
            "from apsp_kernels.io import suite_graphs as SG\n"
            "MT.order(symmetric_pattern(_edges(SG.make('grid', 22500, seed=0))[4]), threads=4)\n"
            "os.kill(os.getpid(), signal.SIGTERM)\n")
    done = _run_script(code)
    assert done.returncode == -signal.SIGTERM, (done.returncode, done.stderr[-500:])


def test_without_the_c_api_order_says_so(monkeypatch):
    monkeypatch.setattr(MT, "available", lambda: False)
    with pytest.raises(ImportError, match="pymetis"):
        MT.order(E.symmetric_pattern(grid(10, 10)))


@pytest.fixture(scope="module")
def workers():
    pool = MT.Processes(4).wait()                  # two levels of splits, as on four cores
    yield pool
    pool.close()


def test_processes_order_on_real_sizes(workers):
    """The same two-level split on worker processes: a permutation, a valid tree, fill near METIS's."""
    a = grid(120, 120)
    p = E.symmetric_pattern(a)
    perm = MT.order(p, workers=workers, niter=ordering.METIS_NITER)
    assert np.array_equal(np.sort(perm), np.arange(p.shape[0]))
    one = E.symbolic(E.nested_dissection(a, threads=1), p).size
    o = ordering.amalgamate(ordering.tree_ordering(p, perm, 32, "metis"), ordering.CAP)
    check_tree(o, a)
    assert E.symbolic(o, p).size <= 1.15 * one


@pytest.mark.parametrize("name", ["grid 30x30", "components"])
def test_processes_small_regions_exact(workers, name):
    """Regions split down to 4 vertices on the workers: the tree holds and the distances are scipy's."""
    a = SHAPES[name].copy()
    a.data = np.arange(1, a.nnz + 1, dtype=np.float64) % 17 + 1
    p = E.symmetric_pattern(a)
    perm = MT.order(p, workers=workers, min_region=4)
    o = ordering.tree_ordering(p, perm, 4, "metis")
    check_tree(o, a)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ordering, "_metis_permutation", lambda p, threads=None: perm)
        assert np.array_equal(solve(a, leaf=4, cap=0), csgraph.shortest_path(a, method="D"))


def test_worker_error_names_the_worker(workers):
    with pytest.raises(RuntimeError, match=r"METIS worker \d+: ValueError: unknown METIS task 'bogus'"):
        workers.map("bogus", [E.symmetric_pattern(grid(5, 5))])
    assert not workers.failed                                         # a task's error leaves the worker serving


def test_workers_ignore_sigint(workers):
    for proc, _ in workers._workers:
        os.kill(proc.pid, signal.SIGINT)
    time.sleep(0.2)
    p = E.symmetric_pattern(grid(20, 20))
    assert [np.sort(o).tolist() for o in workers.map("node_nd", [p] * 4)] == [list(range(400))] * 4


def test_lost_worker_sends_the_order_to_threads():
    pool = MT.Processes(2).wait()
    pool._workers[0][0].kill()
    pool._workers[0][0].wait()
    p = E.symmetric_pattern(grid(60, 60))
    with pytest.warns(UserWarning, match="lost.*ordering in threads"):
        perm = MT.order(p, workers=pool, min_region=100)
    assert np.array_equal(np.sort(perm), np.arange(3600))
    assert pool.failed
    with pytest.raises(MT.WorkerLost):                                 # a failed pool fails at once, never hangs
        pool.map("node_nd", [p])
    pool.close()


def test_default_pool_is_threads_until_the_workers_are_ready(monkeypatch):
    monkeypatch.setattr(MT, "_started", {})
    monkeypatch.setattr(MT, "default_processes", lambda: 2)
    used = []
    real = MT._order
    monkeypatch.setattr(MT, "_order", lambda p, workers, *a: used.append(workers.kind) or real(p, workers, *a))
    assert MT.default_pool().kind == "threads" and not MT._started      # asking starts nothing
    MT.order(E.symmetric_pattern(grid(30, 30)))
    assert used == ["threads"]                                          # the first call orders in threads,
    pool = MT._started[2]                                               # then starts the workers, waiting for none
    pool.wait()
    assert MT.default_pool() is pool
    pool.close()
    assert all(proc.poll() is not None for proc, _ in pool._workers)    # closed: every worker ended
    assert MT.default_pool().kind == "threads"                          # a closed pool is not used again


def _state(pid):
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0]
    except (FileNotFoundError, IndexError):
        return "gone"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads process states from /proc")
def test_workers_end_when_their_parent_is_killed():
    code = ("import os, signal\n"
            "from apsp_kernels.algorithms.cpu.elimination import metis_parallel as MT\n"
            "pool = MT.Processes(2).wait()\n"
            "print(*[proc.pid for proc, _ in pool._workers], flush=True)\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n")
    done = _run_script(code)
    pids = [int(x) for x in done.stdout.split()]
    assert done.returncode == -signal.SIGKILL and len(pids) == 2, (done.returncode, done.stderr[-500:])
    deadline = time.monotonic() + 10
    while any(_state(pid) not in ("gone", "Z") for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(_state(pid) in ("gone", "Z") for pid in pids)


def test_workers_that_cannot_start_leave_the_order_to_threads(monkeypatch):
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    pool = MT.Processes(2)
    with pytest.raises(MT.WorkerLost, match="did not start"):
        pool.wait()
    p = E.symmetric_pattern(grid(40, 40))
    with pytest.warns(UserWarning, match="did not start.*ordering in threads"):
        perm = MT.order(p, workers=pool, min_region=100)
    assert np.array_equal(np.sort(perm), np.arange(1600))
    pool.close()


def test_the_environment_sets_the_default_processes(monkeypatch):
    monkeypatch.setenv(MT.PROCESSES_VARIABLE, "0")
    assert MT.default_processes() == 0 and MT.default_pool().kind == "threads"      # none started
    monkeypatch.setenv(MT.PROCESSES_VARIABLE, "3")
    assert MT.default_processes() == 3
    monkeypatch.setenv(MT.PROCESSES_VARIABLE, "four")
    with pytest.raises(ValueError, match="APSP_METIS_PROCESSES='four'"):
        MT.default_processes()



def test_a_forked_child_orders_without_the_parents_workers():
    """The child of a fork has the parent's pool without its threads: it must not use it (its map would wait
    forever), and orders in threads of its own."""
    code = ("import os, signal, numpy as np\n"
            "from apsp_kernels.algorithms.cpu.elimination import _edges, metis_parallel as MT, symmetric_pattern\n"
            "from apsp_kernels.io import suite_graphs as SG\n"
            "p = symmetric_pattern(_edges(SG.make('grid', 2500, seed=0))[4])\n"
            "MT.default_processes = lambda: 2\n"
            "MT.order(p); MT.processes().wait(); assert MT.default_pool().kind == 'processes'\n"
            "MT.order(p)\n"
            "pid = os.fork()\n"
            "if pid == 0:\n"
            "    signal.alarm(20)\n"
            "    kind = MT.default_pool().kind\n"
            "    ok = np.array_equal(np.sort(MT.order(p)), np.arange(p.shape[0]))\n"
            "    os._exit(0 if ok and kind == 'threads' else 3)\n"
            "_, status = os.waitpid(pid, 0)\n"
            "print(os.waitstatus_to_exitcode(status))\n")
    done = _run_script(code)
    assert done.returncode == 0 and done.stdout.split()[-1] == "0", (done.stdout[-300:], done.stderr[-800:])


def test_closing_while_starting_neither_waits_nor_leaves_ready_unset():
    pool = MT.Processes(6)
    t0 = time.perf_counter()
    pool.close(wait=False)
    assert time.perf_counter() - t0 < 0.5
    assert pool.ready.wait(30) and pool.failed
    with pytest.raises(MT.WorkerLost):
        pool.wait(1)
    pool.close()                                                        # and then for the workers to end
    assert all(proc.poll() is not None for proc, _ in pool._workers)


def test_workers_closed_while_starting_print_nothing():
    code = ("import time\n"
            "from apsp_kernels.algorithms.cpu.elimination import metis_parallel as MT\n"
            "pool = MT.Processes(4)\n"
            "time.sleep(0.05)\n"
            "pool.close(wait=False)\n"
            "time.sleep(3)\n")
    done = _run_script(code)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-800:]


def test_no_pool_starts_at_exit(monkeypatch):
    monkeypatch.setattr(MT, "_started", {})
    monkeypatch.setattr(MT, "_exiting", True)
    assert MT.processes(2) is None and MT.default_pool().kind == "threads"
