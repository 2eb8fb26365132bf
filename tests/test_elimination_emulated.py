"""tuned_elimination's real kernels (cuda/tuned_elimination.cu) on the CPU emulation of CUDA
(tests/emulate/cuda_host.h), launched as the launcher launches them: its host phases (``prepare``), its launch
list (``plan``, batched per tree level or one supernode a launch) and its epilogue (``result``), run launch by
launch by tests/emulate/elimination_harness.cpp; and the device-resident form, its permutation kernel included.  Exact against the reference on grids, kNN geometric graphs,
rings, trees, a forest with isolated vertices, n = 1, negative edges; a negative cycle refused; both cp.async
modes.  tests/test_tuned_elimination_gpu.py runs the same kinds, and larger graphs, on the device."""
import ctypes

import numpy as np
import pytest

import elimination_graphs as EG
import emulation

from apsp_kernels import reference_apsp
from apsp_kernels.algorithms.gpu.tuned import elimination as TE
from apsp_kernels.core.distances import NegativeCycleError
from apsp_kernels.core.graph import INF, MAX_PATH_WEIGHT

P64 = ctypes.POINTER(ctypes.c_longlong)
P32 = ctypes.POINTER(ctypes.c_int)


@pytest.fixture(scope="module", params=emulation.MODES)
def emu(request, tmp_path_factory):
    return emulation.build("elimination_harness.cpp", request.param, tmp_path_factory.mktemp("emu"),
                           "tuned_elimination's kernels")


def _p(a, t):
    assert a.flags.c_contiguous and a.ctypes.data % 16 == 0
    return a.ctypes.data_as(t)


def _i64(a):
    a = np.ascontiguousarray(a, np.int64)
    return a if a.size else np.zeros(1, np.int64)


def run(lib, g, leaf=32, cap=None, batch=True, rows=None, order=0):
    """The launcher's steps with the emulated kernels: (distances, launches); ``order``: the CTAs of a launch in
    ascending (0), descending (1) or shuffled (2) order."""
    pre = TE.prepare(g, leaf=leaf, cap=cap)
    descs, launches = TE.plan(pre.sym, batch)
    n, N = g.n, TE.padded(g.n)
    val = pre.val.copy() if pre.val.size else np.zeros(1, np.int32)
    Gt = np.full((n, N), INF, np.int32)
    np.fill_diagonal(Gt, 0)
    bad = np.array([n, 0, 0, 0], np.int32)
    s = pre.sym
    arrays = [_i64(x) for x in (descs, launches, s.start, s.sn, s.fptr, s.fidx, s.off_ss, s.off_sf, s.off_fs)]
    d, l, start, sn, fptr, fidx, oss, osf, ofs = arrays
    ran = lib.emu_tuned_elimination_ordered(_p(d, P64), _p(l, P64), len(launches), _p(val, P32), _p(Gt, P32),
                                            *(_p(x, P64) for x in (start, sn, fptr, fidx, oss, osf, ofs)),
                                            _p(bad, P32), n, order)
    assert ran == len(launches)
    if bad[0] < n:
        raise NegativeCycleError(f"negative cycle through vertex {int(pre.perm[bad[0]])}")
    return TE.result(np, Gt, pre.perm, rows), len(launches)


CASES = {**EG.CASES,
         "negative grid 15x20": lambda: EG.negative(EG.grid(15, 20, seed=9, directed=True), seed=9)}


@pytest.mark.parametrize("name", list(CASES))
def test_exact_batched(emu, name):
    g = CASES[name]()
    d, _ = run(emu, g)
    np.testing.assert_array_equal(d, reference_apsp(g), err_msg=name)


SMALL = [("grid 9x9", 1, 0), ("knn 200 one-way", 8, 0), ("tree 120", 4, 16), ("forest", 4, 0),
         ("negative knn 150", 8, 32), ("grid 7x30 directed", 16, 0)]


@pytest.mark.parametrize("name, leaf, cap", SMALL)
def test_exact_small_supernodes(emu, name, leaf, cap):
    """Tiny supernodes (deep trees, many levels, siblings of a level sharing a launch and updating the same
    ancestor cells), batched and one supernode a launch."""
    g = CASES[name]()
    ref = reference_apsp(g)
    d, launches = run(emu, g, leaf=leaf, cap=cap, batch=True)
    np.testing.assert_array_equal(d, ref, err_msg=name)
    d, single = run(emu, g, leaf=leaf, cap=cap, batch=False)
    np.testing.assert_array_equal(d, ref, err_msg=name)
    assert launches < single


@pytest.mark.parametrize("order", (1, 2), ids=("descending", "shuffled"))
@pytest.mark.parametrize("name, leaf, cap", SMALL[:4])
def test_the_ctas_of_a_launch_in_any_order(emu, name, leaf, cap, order):
    """A level's supernodes share a launch: its CTAs run in descending and in shuffled order give the same
    result (the emulation cannot interleave CTAs; this checks that none needs another's writes)."""
    g = CASES[name]()
    d, _ = run(emu, g, leaf=leaf, cap=cap, order=order)
    np.testing.assert_array_equal(d, reference_apsp(g), err_msg=name)


def test_every_tile_shape(emu):
    """Products of 32 x 512, 64 x 256 and 128 x 128 tiles (by the rows of the product) all in one solve."""
    g = EG.negative(EG.knn(300, 5, seed=10, one_way=0.2), seed=10)
    pre = TE.prepare(g, leaf=100, cap=0)
    descs, launches = TE.plan(pre.sym)
    products = descs[np.repeat(launches[:, 0] != 0, launches[:, 2])]
    assert set(products[:, TE.TM]) == set(TE.TILE_ROWS)
    d, _ = run(emu, g, leaf=100, cap=0)
    np.testing.assert_array_equal(d, reference_apsp(g))


def test_supernodes_larger_than_a_tile(emu):
    """Leaves of more than 128 vertices: two row and column tiles in the closure, the in-place panels and the
    upward product (a CTA looping over its tiles), structures over 128 too; negative edges."""
    g = EG.negative(EG.grid(11, 27, seed=7, directed=True), seed=7)
    pre = TE.prepare(g, leaf=160, cap=0)
    assert pre.sym.sizes.max() > 128
    for order in (0, 2):
        d, _ = run(emu, g, leaf=160, cap=0, order=order)
        np.testing.assert_array_equal(d, reference_apsp(g))


@pytest.mark.parametrize("name, leaf, cap", [("knn 300", 32, None), ("negative grid 15x20", 8, 0), ("forest", 4, 0)])
def test_the_factor_equals_elimination_cpu(emu, name, leaf, cap):
    """The elimination launches alone (closure, panels, Schur) leave the factor elimination_cpu's numba code
    leaves, cell for cell (a value above MAX_PATH_WEIGHT is no path on both sides)."""
    from apsp_kernels.algorithms.cpu.elimination import numeric
    from apsp_kernels.core.graph import MAX_PATH_WEIGHT
    g = CASES[name]()
    pre = TE.prepare(g, leaf=leaf, cap=cap)
    descs, launches = TE.plan(pre.sym)
    elim = launches[launches[:, 4] == 0]
    assert (launches[:len(elim), 4] == 0).all() and (np.diff(launches[:, 4]) >= 0).all()   # phases in order
    assert set(elim[:, 0]) == {0, 1, 3} and (launches[len(elim):, 0] == 2).all()
    s = pre.sym
    cpu = pre.val.copy()
    assert numeric.eliminate(s.start, s.fptr, s.fidx, s.sn, s.off_ss, s.off_sf, s.off_fs, cpu,
                             np.int32(MAX_PATH_WEIGHT), np.int32(INF)) == -1
    val = pre.val.copy()
    bad = np.array([g.n, 0, 0, 0], np.int32)
    gt = np.zeros(4, np.int32)
    arrays = [_i64(x) for x in (descs, elim, s.start, s.sn, s.fptr, s.fidx, s.off_ss, s.off_sf, s.off_fs)]
    emu.emu_tuned_elimination(*(_p(x, P64) for x in arrays[:2]), len(elim), _p(val, P32), _p(gt, P32),
                              *(_p(x, P64) for x in arrays[2:]), _p(bad, P32), g.n)
    assert bad[0] == g.n
    np.testing.assert_array_equal(np.where(val > MAX_PATH_WEIGHT, INF, val), np.where(cpu > MAX_PATH_WEIGHT, INF, cpu))


def test_rows_of_some_sources(emu):
    g = CASES["knn 200 one-way"]()
    rows = np.array([5, 199, 0, 5, 77])
    d, _ = run(emu, g, rows=rows)
    np.testing.assert_array_equal(d, reference_apsp(g)[rows])


def test_negative_cycle_refused(emu):
    with pytest.raises(NegativeCycleError, match="negative cycle through vertex"):
        run(emu, EG.negative_cycle())


@pytest.mark.parametrize("n", (2, 33, 129))
def test_the_tuned_kinds(emu, n):
    """Every tuned code's awkward kinds (tests/tuned_graphs.py): zero-weight and duplicate edges, unreachable
    pairs, disconnected halves and an isolated vertex, chains both ways, complete graphs (one dense supernode)."""
    from tuned_graphs import kinds
    for negative in (False, True):
        for label, g in kinds(n, seed=950 + n, negative=negative):
            d, _ = run(emu, g)
            np.testing.assert_array_equal(d, reference_apsp(g), err_msg=f"{label} n={n} negative={negative}")


class _NumpyAsCupy:
    """What tuned_elimination() asks of CuPy, from numpy (no device): arrays, a device that synchronises, events."""
    asarray, full, empty, int32, arange, asnumpy = np.asarray, np.full, np.empty, np.int32, np.arange, np.asarray

    class cuda:
        class Device:
            def synchronize(self):
                pass

        class Event:
            def record(self):
                pass

        @staticmethod
        def get_elapsed_time(a, b):
            return 1.0


def _on_the_emulation(emu, monkeypatch):
    """The launcher's CuPy calls on numpy and each kernel launch on the emulation; returns the list of the kernels
    launched (their index in TE.KERNELS, or the name of tel_vertex_rows)."""
    from apsp_kernels import gpu_device
    from apsp_kernels.algorithms.gpu import runtime
    z32, z64 = np.zeros(4, np.int32), np.zeros(2, np.int64)
    launched = []

    def vertex_rows(grid, block, args):
        Gt, r, c, D, k, n, ld = args
        assert block == (TE.THREADS,) and len(grid) == 2 and Gt.dtype == D.dtype == np.int32
        assert r.dtype == c.dtype == np.int64 and D.shape == (k, n) and Gt.shape[1] == ld
        launched.append("tel_vertex_rows")
        emu.emu_tel_vertex_rows(_p(Gt, P32), _p(r, P64), _p(c, P64), _p(D, P32), *map(ctypes.c_longlong, (k, n, ld)),
                                *map(ctypes.c_uint, grid))

    def kernel(filename, name):
        assert filename == "tuned_elimination.cu"
        if name == "tel_vertex_rows":
            return vertex_rows
        kern = TE.KERNELS.index(name)

        def launch(grid, block, args):
            assert block == (TE.THREADS,) and len(grid) == 1
            gt, sym = z32, [z64] * 7
            if kern == 0:
                dp, val, bad, n = args
                nd = grid[0]
            elif kern in (1, 2):
                dp, nd, val, b, c, fidx, bad, n = args
                assert b is c and (b is val) == (kern == 1)
                gt = b if kern == 2 else z32
                sym = [z64, z64, z64, fidx, z64, z64, z64]
            else:
                dp, nd, val, *sym, bad, n = args
            row = np.array([kern, 0, int(nd), grid[0], 0], np.int64)
            launched.append(kern)
            assert dp.ctypes.data % 8 == 0                      # a launch's descriptors: 8-byte fields
            emu.emu_tuned_elimination(dp.ctypes.data_as(P64), _p(row, P64), 1, _p(val, P32), _p(gt, P32),
                                      *(_p(x, P64) for x in sym), _p(bad, P32), int(n))
        return launch

    monkeypatch.setattr(gpu_device, "require_gpu", lambda: _NumpyAsCupy)
    monkeypatch.setattr(gpu_device, "check_fits", lambda *a, **k: None)
    monkeypatch.setattr(runtime, "require_gpu", lambda: _NumpyAsCupy)
    monkeypatch.setattr(runtime, "kernel", kernel)

    class Timer:
        ms = 0.0

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass
    monkeypatch.setattr(runtime, "EventTimer", Timer)
    return launched


def test_the_launcher_itself(emu, monkeypatch):
    """tuned_elimination() as written, its CuPy calls on numpy and each kernel launch on the emulation: the
    descriptors' addresses, the arguments of each kernel, the negative-cycle flag, the final permutation."""
    launched = _on_the_emulation(emu, monkeypatch)
    monkeypatch.setattr(TE, "CHUNK_BYTES", 4 * 120 * 7)          # the result back 7 rows at a time
    g = CASES["negative grid 10x12"]()
    ref = reference_apsp(g)
    for kw in (dict(), dict(leaf=8, cap=0, batch=False), dict(leaf=4, cap=16)):
        d, t = TE.tuned_elimination(g, **kw)
        np.testing.assert_array_equal(d, ref, err_msg=str(kw))
        assert t["launches"] > 0 and {"order_ms", "symbolic_ms", "h2d_ms", "kernel_ms", "d2h_ms"} <= set(t)
    rows = [7, 0, 119, 7]
    np.testing.assert_array_equal(TE.tuned_elimination(g, sources=rows)[0], ref[rows])
    d, t = TE.tuned_elimination(g, phases=True)
    np.testing.assert_array_equal(d, ref)
    assert [t[f"{p}_ms"] for p in TE.PHASES] == [1.0, 1.0, 1.0]       # one interval a phase
    assert set(launched) == {0, 1, 2, 3}
    # a vertex of the cycle 40 -> 41 -> 50: which one depends on the ordering
    with pytest.raises(NegativeCycleError, match="^negative cycle through vertex (40|41|50)$"):
        TE.tuned_elimination(EG.negative_cycle())
    assert "tel_vertex_rows" not in launched                          # the launcher's host copy is its own


def _finished(D):
    """What gpu/resident.finish makes of unfinished int32 distances: past MAX_PATH_WEIGHT is no path."""
    return np.where(D > MAX_PATH_WEIGHT, INF, D)


@pytest.mark.parametrize("name", ["negative grid 10x12", "forest", "knn 300", "n=1"])
def test_the_resident_form_itself(emu, monkeypatch, name):
    """tuned_elimination_resident() as written, on the emulation: the rows asked for in the original numbering,
    permuted by tel_vertex_rows on the device, int32 and not yet finished (unreachable pairs past MAX_PATH_WEIGHT),
    for all rows and for some (unsorted, repeated); the timings the resident forms give."""
    launched = _on_the_emulation(emu, monkeypatch)
    g = CASES[name]()
    ref = reference_apsp(g)
    D, t = TE.tuned_elimination_resident(g)
    assert D.dtype == np.int32 and D.shape == (g.n, g.n) and D.flags.c_contiguous
    np.testing.assert_array_equal(_finished(D), ref, err_msg=name)
    assert launched.count("tel_vertex_rows") == 1
    assert t["d2h_ms"] == 0.0 and t["permute_ms"] >= 0 and {"order_ms", "symbolic_ms", "h2d_ms", "kernel_ms"} <= set(t)
    rows = [g.n - 1, 0, g.n // 2, g.n - 1]
    D, _ = TE.tuned_elimination_resident(g, sources=rows, leaf=8)
    assert D.shape == (4, g.n)
    np.testing.assert_array_equal(_finished(D), ref[rows], err_msg=name)
    D, _ = TE.tuned_elimination_resident(g, sources=[])
    assert D.shape == (0, g.n) and launched.count("tel_vertex_rows") == 2         # nothing to permute: no launch


def test_the_permutation_loops_over_rows_and_columns(emu, monkeypatch):
    """tel_vertex_rows on a grid smaller than the result both ways (one block across 300 columns of 256 threads,
    7 blocks down 300 rows): every cell still written once, from its own place."""
    _on_the_emulation(emu, monkeypatch)
    monkeypatch.setattr(TE, "vertex_grid", lambda k, n: (1, 7))
    g = CASES["knn 300"]()
    D, _ = TE.tuned_elimination_resident(g)
    np.testing.assert_array_equal(_finished(D), reference_apsp(g))


def test_a_negative_cycle_is_refused_by_the_resident_form(emu, monkeypatch):
    _on_the_emulation(emu, monkeypatch)
    with pytest.raises(NegativeCycleError, match="^negative cycle through vertex (40|41|50)$"):
        TE.tuned_elimination_resident(EG.negative_cycle())


def test_vertex_index_and_grid():
    """The ordering's inverse at the rows asked for: Gt (the matrix in the ordering's numbering) at those rows and
    columns is the matrix in the original numbering; the grid stays within CUDA's limits."""
    rng = np.random.default_rng(5)
    n = 37
    M = rng.integers(0, 1000, (n, n))
    perm = rng.permutation(n)                                   # perm[new] = old
    Gt = M[perm][:, perm]                                       # Gt[new_a, new_b] = M[perm[new_a], perm[new_b]]
    r, c = TE.vertex_index(perm)
    np.testing.assert_array_equal(Gt[r][:, c], M)
    rows = [36, 0, 5, 5]
    r, c = TE.vertex_index(perm, rows)
    assert r.dtype == c.dtype == np.int64
    np.testing.assert_array_equal(Gt[r][:, c], M[rows])
    assert TE.vertex_grid(100_000, 100_000) == (391, 65535)
    assert TE.vertex_grid(3, 257) == (2, 3) and TE.vertex_grid(0, 0) == (1, 1)
    assert TE.vertex_grid(10, 10 ** 7) == (1024, 10)


def test_registered_with_a_resident_form_not_auto():
    """shortest_paths runs tuned_elimination through its resident form (sources passed, converted on the device,
    one staged copy: no sink), and auto never picks it."""
    import inspect
    from apsp_kernels.algorithms import registry
    a = registry.get("tuned_elimination")
    assert a.resident is TE.tuned_elimination_resident and a.auto_rank is None
    assert a not in registry.auto_candidates()
    takes = inspect.signature(a.resident).parameters
    assert "sources" in takes and "sink" not in takes and a.variant_param in takes
