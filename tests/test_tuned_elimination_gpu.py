"""tuned_elimination on the GPU (marker ``gpu``; skipped, with the reason, without one): exact against scipy on
the kinds of tests/test_elimination_emulated.py (grids, kNN geometric graphs, rings, trees, a forest with isolated
vertices, n = 1, negative edges), supernodes over 128, batched and one supernode a launch, some rows, a negative
cycle refused, and 2,000-5,000-vertex grids and kNN graphs; its device-resident form through ``shortest_paths``
(device=True, the host result through pinned staging, ``out=``, ``indices``, every dtype).  tests/test_tuned_gpu.py
also runs it (every tuned code) on the tuned kinds, tests/test_resident_gpu.py (every resident form) on its graphs;
tests/test_elimination_emulated.py runs the same kernels on the CPU emulation."""
import numpy as np
import pytest
from scipy.sparse import csgraph

import apsp_kernels as ak

import elimination_graphs as EG

from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.gpu.tuned import elimination as TE
from apsp_kernels.core.distances import NegativeCycleError, from_scipy
from apsp_kernels.core.graph import INF
from apsp_kernels.core.wide import INF64

pytestmark = pytest.mark.gpu

CASES = EG.CASES
LARGE = {
    "grid 40x50": lambda: EG.grid(40, 50, seed=11),
    "grid 50x100 directed": lambda: EG.grid(50, 100, seed=12, directed=True),
    "grid 64x64 negative": lambda: EG.negative(EG.grid(64, 64, seed=13, directed=True), seed=13),
    "knn 2000": lambda: EG.knn(2000, 6, seed=14),
    "knn 3000 one-way": lambda: EG.knn(3000, 6, seed=15, one_way=0.3),
    "knn 5000": lambda: EG.knn(5000, 6, seed=16),
}


def scipy_ref(g):
    return from_scipy(csgraph.shortest_path(g.to_scipy(), method="D" if not g.has_negative else "J"))


@pytest.mark.parametrize("leaf", TE.LEAVES)
@pytest.mark.parametrize("name", list(CASES))
def test_exact(name, leaf):
    g = CASES[name]()
    d, t = TE.tuned_elimination(g, leaf=leaf)
    assert d.dtype == np.int32
    np.testing.assert_array_equal(d, scipy_ref(g), err_msg=f"{name} leaf={leaf}")
    for key in ("order_ms", "symbolic_ms", "h2d_ms", "kernel_ms", "d2h_ms"):
        assert t[key] >= 0, key


@pytest.mark.parametrize("name, leaf, cap", [("grid 9x9", 1, 0), ("knn 200 one-way", 8, 0), ("tree 120", 4, 16),
                                             ("forest", 4, 0), ("negative knn 150", 8, 32)])
def test_small_supernodes_batched_and_not(name, leaf, cap):
    g = CASES[name]()
    ref = scipy_ref(g)
    d, t = TE.tuned_elimination(g, leaf=leaf, cap=cap)
    np.testing.assert_array_equal(d, ref, err_msg=name)
    d, t1 = TE.tuned_elimination(g, leaf=leaf, cap=cap, batch=False)
    np.testing.assert_array_equal(d, ref, err_msg=name)
    assert t["launches"] < t1["launches"]


def test_supernodes_larger_than_a_tile():
    g = EG.negative(EG.grid(11, 27, seed=7, directed=True), seed=7)
    d, _ = TE.tuned_elimination(g, leaf=160, cap=0)
    np.testing.assert_array_equal(d, scipy_ref(g))


def test_some_rows():
    g = CASES["knn 300"]()
    rows = np.array([5, 299, 0, 5, 77])
    d, _ = TE.tuned_elimination(g, sources=rows)
    np.testing.assert_array_equal(d, scipy_ref(g)[rows])


def test_negative_cycle_refused():
    with pytest.raises(NegativeCycleError, match="negative cycle through vertex"):
        TE.tuned_elimination(EG.negative_cycle())


def test_through_the_registry():
    a = registry.get("tuned_elimination")
    g = CASES["grid 7x30 directed"]()
    for leaf in a.variants:
        np.testing.assert_array_equal(a.run(g, variant=leaf)[0], scipy_ref(g))


@pytest.mark.parametrize("name", list(LARGE))
def test_large(name):
    g = LARGE[name]()
    d, t = TE.tuned_elimination(g)
    np.testing.assert_array_equal(d, scipy_ref(g), err_msg=name)
    print(f"{name}: n={g.n} supernodes={t['supernodes']} launches={t['launches']} kernel {t['kernel_ms']:.1f} ms, "
          f"order {t['order_ms']:.0f} ms, symbolic {t['symbolic_ms']:.0f} ms, d2h {t['d2h_ms']:.1f} ms")


# the resident form's graphs: grids, kNN, unreachable pairs (the forest: components that never meet, isolated
# vertices), negative edges, n = 1, and a 2,000-vertex kNN graph
RESIDENT = {k: CASES[k] for k in ("n=1", "grid 9x9", "grid 7x30 directed", "knn 300", "forest", "negative knn 150")}
RESIDENT["knn 2000"] = LARGE["knn 2000"]


def _as(ref, dtype):
    """The CPU reference (int32, INF: no path) as shortest_paths gives ``dtype``."""
    none = {np.dtype(np.int32): INF, np.dtype(np.int64): INF64}.get(np.dtype(dtype), np.inf)
    return np.where(ref == INF, none, ref).astype(dtype)


@pytest.mark.parametrize("name", list(RESIDENT))
def test_resident_on_the_device_and_on_the_host(name, monkeypatch):
    """shortest_paths(method="tuned_elimination"): device=True a CuPy array left on the GPU, the host result through
    the resident path (never the launcher's pageable copy), both exactly the CPU reference, in float64 and int32."""
    import cupy as cp
    from apsp_kernels import reference_apsp
    g = RESIDENT[name]()
    ref = reference_apsp(g)
    assert np.array_equal(ref, scipy_ref(g))
    monkeypatch.setattr(TE, "result", lambda *a, **k: pytest.fail("the host path took the launcher's copy"))
    for dtype in (np.float64, np.int32):
        d = ak.shortest_paths(g, method="tuned_elimination", device=True, dtype=dtype)
        assert isinstance(d, cp.ndarray) and d.dtype == np.dtype(dtype) and d.shape == (g.n, g.n)
        np.testing.assert_array_equal(d.get(), _as(ref, dtype), err_msg=f"{name} device {np.dtype(dtype)}")
        h = ak.shortest_paths(g, method="tuned_elimination", dtype=dtype)
        assert isinstance(h, np.ndarray) and h.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(h, _as(ref, dtype), err_msg=f"{name} host {np.dtype(dtype)}")


def test_resident_rows_out_and_dtypes():
    """indices (unsorted, repeated; one int: one row; a 2-D array: its shape) on the device and the host, ``out``
    (page-locked) written in place, int64 and float32, predecessors on the device, every leaf."""
    import cupy as cp
    from apsp_kernels import reference_apsp
    from apsp_kernels.algorithms.gpu.resident import pinned_like
    g = CASES["knn 200 one-way"]()
    ref = reference_apsp(g)
    want = _as(ref, np.float64)
    rows = [199, 0, 5, 5, 77]
    d = ak.shortest_paths(g, method="tuned_elimination", indices=rows, device=True)
    assert isinstance(d, cp.ndarray) and d.shape == (5, g.n)
    np.testing.assert_array_equal(d.get(), want[rows])
    np.testing.assert_array_equal(ak.shortest_paths(g, method="tuned_elimination", indices=rows), want[rows])
    np.testing.assert_array_equal(ak.shortest_paths(g, method="tuned_elimination", indices=7), want[7])
    np.testing.assert_array_equal(ak.shortest_paths(g, method="tuned_elimination", indices=[[1, 2], [3, 4]]),
                                  want[[[1, 2], [3, 4]]])
    out = pinned_like((g.n, g.n))
    assert ak.shortest_paths(g, method="tuned_elimination", out=out) is out
    np.testing.assert_array_equal(out, want)
    out = np.empty((len(rows), g.n), np.int32)
    assert ak.shortest_paths(g, method="tuned_elimination", indices=rows, dtype=np.int32, out=out) is out
    np.testing.assert_array_equal(out, ref[rows])
    for dtype in (np.int64, np.float32):
        np.testing.assert_array_equal(ak.shortest_paths(g, method="tuned_elimination", dtype=dtype), _as(ref, dtype))
    for leaf in TE.LEAVES:
        np.testing.assert_array_equal(ak.shortest_paths(g, method="tuned_elimination", variant=leaf), want)
    d, pred = ak.shortest_paths(g, method="tuned_elimination", return_predecessors=True, device=True)
    _, ref_pred = ak.shortest_paths(g, method="D", return_predecessors=True)
    assert isinstance(pred, cp.ndarray) and np.array_equal(d.get(), want) and pred.shape == ref_pred.shape
    assert np.array_equal(pred.get() == -9999, ref_pred == -9999)


def test_resident_form_directly():
    """The registry's resident form: int32 rows in vertex order on the device, unfinished (finish() normalises),
    the timings of the resident forms (d2h_ms 0, permute_ms), the vertex-major result freed."""
    import cupy as cp
    from apsp_kernels.algorithms.gpu.resident import finish
    a = registry.get("tuned_elimination")
    g = CASES["negative grid 10x12"]()
    ref = scipy_ref(g)
    D, t = a.run_resident(g)
    assert isinstance(D, cp.ndarray) and D.dtype == cp.int32 and D.shape == (g.n, g.n) and D.flags.c_contiguous
    np.testing.assert_array_equal(finish(D).get(), ref)
    assert t["d2h_ms"] == 0.0 and t["permute_ms"] >= 0 and t["kernel_ms"] > 0 and t["launches"] > 0
    D, _ = a.run_resident(g, variant=64, sources=[3, 119, 3])
    np.testing.assert_array_equal(finish(D, square=False).get(), ref[[3, 119, 3]])
    with pytest.raises(NegativeCycleError):
        ak.shortest_paths(EG.negative_cycle(), method="tuned_elimination", device=True)
