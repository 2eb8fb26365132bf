"""tuned_elimination on the GPU (marker ``gpu``; skipped, with the reason, without one): exact against scipy on
the kinds of tests/test_elimination_emulated.py (grids, kNN geometric graphs, rings, trees, a forest with isolated
vertices, n = 1, negative edges), supernodes over 128, batched and one supernode a launch, some rows, a negative
cycle refused, and 2,000-5,000-vertex grids and kNN graphs.  tests/test_tuned_gpu.py also runs it (every tuned
code) on the tuned kinds; tests/test_elimination_emulated.py runs the same kernels on the CPU emulation."""
import numpy as np
import pytest
from scipy.sparse import csgraph

import elimination_graphs as EG

from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.gpu.tuned import elimination as TE
from apsp_kernels.core.distances import NegativeCycleError, from_scipy

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
