"""The solver's device-resident end-to-end path (gpu/resident.py): every GPU code with a
``resident`` form gives, through ``shortest_paths``, exactly the CPU reference's distances in every dtype, for
all rows or some (``indices``), on the host (staged, or the caller's ``out``) or left on the device."""
import numpy as np
import pytest
from scipy.sparse import csgraph

import apsp_kernels as ak
from apsp_kernels import NegativeCycleError, reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.core import generators as G
from apsp_kernels.core.graph import INF, Graph
from apsp_kernels.core.wide import INF64

pytestmark = pytest.mark.gpu

RESIDENT = [a.name for a in registry.ALGORITHMS.values() if a.resident is not None]


def _reference(g):
    return csgraph.shortest_path(g.to_scipy(), method="D" if not g.has_negative else "J")


def _graphs():
    yield G.kemp(1, 0, 0, 1, 9, seed=0)                        # one vertex
    yield G.kemp(31, 0, 4, 0, 20, seed=1)                      # weight 0 allowed, out-degree 0 allowed
    yield G.kemp(130, 1, 5, 1, 1000, seed=2)                   # past one 128 tile: padding
    ring = np.arange(300)
    yield Graph.from_edges(300, np.r_[ring, (ring + 1) % 300], np.r_[(ring + 1) % 300, ring],
                           np.r_[np.full(300, 7), np.full(300, 3)])                    # deep: a ring both ways
    yield Graph.from_edges(5, np.array([0, 3]), np.array([1, 4]), np.array([2, 9]))     # disconnected pieces


@pytest.mark.parametrize("name", RESIDENT)
def test_a_result_touched_while_the_gpu_solves_equals_the_reference(name, monkeypatch):
    """Every host result touched in the background (TOUCH_FROM 0), on every graph, all pairs and some rows."""
    from apsp_kernels.algorithms.gpu import resident as R
    monkeypatch.setattr(R, "TOUCH_FROM", 0)
    for g in _graphs():
        ref = _reference(g)
        rows = [0, g.n - 1]
        for dtype, none in ((np.float64, np.inf), (np.int32, INF)):
            for d, want in ((ak.shortest_paths(g, method=name, dtype=dtype), ref),
                            (ak.shortest_paths(g, method=name, dtype=dtype, indices=rows), ref[rows])):
                fin = np.isfinite(want)
                assert d.shape == want.shape and np.array_equal(d[fin], want[fin].astype(dtype)), (name, g.n)
                assert (d[~fin] == none).all(), (name, g.n)


def test_every_auto_gpu_code_has_a_resident_form():
    assert {"tuned_fw", "tuned_sparse"} <= set(RESIDENT)


@pytest.mark.parametrize("name", RESIDENT)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64])
def test_resident_distances_equal_the_reference(name, dtype):
    for g in _graphs():
        ref = _reference(g)
        d = ak.shortest_paths(g, method=name, dtype=dtype)
        assert d.dtype == np.dtype(dtype) and d.shape == (g.n, g.n)
        fin = np.isfinite(ref)
        assert np.array_equal(d[fin], ref[fin].astype(dtype)), (name, g.n)
        none = {np.dtype(np.int32): INF, np.dtype(np.int64): INF64}.get(np.dtype(dtype), np.inf)
        assert (d[~fin] == none).all(), (name, g.n)


@pytest.mark.parametrize("name", RESIDENT)
def test_device_out_and_indices(name):
    import cupy as cp
    g = G.kemp(200, 1, 6, 1, 500, seed=3)
    full = ak.shortest_paths(g, method=name)
    on_gpu = ak.shortest_paths(g, method=name, device=True)
    assert isinstance(on_gpu, cp.ndarray) and np.array_equal(on_gpu.get(), full)
    from apsp_kernels.algorithms.gpu.resident import pinned_like
    out = pinned_like((g.n, g.n))
    assert ak.shortest_paths(g, method=name, out=out) is out and np.array_equal(out, full)
    rows = [5, 0, 199, 5]                                      # unsorted, repeated
    assert np.array_equal(ak.shortest_paths(g, method=name, indices=rows), full[rows])
    assert np.array_equal(ak.shortest_paths(g, method=name, indices=7), full[7])
    d, pred = ak.shortest_paths(g, method=name, return_predecessors=True, device=True)
    assert isinstance(pred, cp.ndarray)
    _, ref_pred = ak.shortest_paths(g, method="D", return_predecessors=True)
    assert np.array_equal(d.get(), full) and pred.shape == ref_pred.shape
    with pytest.raises(ValueError, match="out must be a C-contiguous numpy array"):
        ak.shortest_paths(g, method=name, out=np.empty((g.n, g.n), np.float32))


def test_a_negative_cycle_is_refused_on_the_device():
    g = Graph.from_edges(3, np.array([0, 1, 2]), np.array([1, 2, 0]), np.array([1, -5, 1]))
    with pytest.raises(NegativeCycleError):
        ak.shortest_paths(g, method="tuned_fw")


def test_float_weights_in_float32_on_the_gpu():
    """dtype=np.float32 on a graph of non-negative float weights: the GPU's float32 code, within its stated bound of
    scipy's float64 answer; integer-valued float weights exactly; predecessors refused in one line."""
    import scipy.sparse as sp
    rng = np.random.default_rng(11)
    for n in (1, 33, 300):
        a = sp.random(n, n, density=min(1.0, 4 / n), format="csr", random_state=n)
        a.data = rng.uniform(0.01, 50.0, a.nnz)
        ref = csgraph.shortest_path(a, method="D")
        for method in ("auto", "tuned_frontier", "tuned_fw"):
            d, used = ak.shortest_paths(a, method=method, dtype=np.float32, return_method=True)
            assert used in ("tuned_frontier", "tuned_fw") and d.dtype == np.float32 and (method == "auto" or used == method)
            fin = np.isfinite(ref)
            assert (np.isinf(d) == ~fin).all()
            bound = (1 + 2.0 ** -24) ** (2 * max(n - 1, 1)) - 1
            assert np.all(np.abs(d[fin] - ref[fin]) <= bound * ref[fin] + 1e-30), (n, method)
        a.data = np.round(a.data)                          # integer-valued floats: exact
        want = csgraph.shortest_path(a, method="D").astype(np.float32)
        for method in ("tuned_frontier", "tuned_fw"):
            assert np.array_equal(ak.shortest_paths(a, method=method, dtype=np.float32), want), (n, method)
        rows = ak.shortest_paths(a, method="tuned_fw", dtype=np.float32, indices=[0, n - 1])
        assert np.array_equal(rows, want[[0, n - 1]])
    a.data = a.data + 0.25                                 # not integer-valued: a float graph
    with pytest.raises(ValueError, match="predecessors of a float graph"):
        ak.shortest_paths(a, dtype=np.float32, return_predecessors=True)
    neg = sp.csr_matrix(np.array([[0.0, -1.5], [0.0, 0.0]]))      # negative weights: the CPU's float64 code, cast
    d, used = ak.shortest_paths(neg, dtype=np.float32, return_method=True)
    assert used not in ("tuned_frontier", "tuned_fw") and d[0, 1] == np.float32(-1.5)


def test_results_cross_through_small_staging_buffers_and_are_never_shared(monkeypatch):
    """Every result is a new array (never a buffer a later call overwrites), here copied through 4 KiB staging buffers
    in many chunks, each split over the host threads, to the same distances as one plain copy."""
    from apsp_kernels.algorithms.gpu import resident as R
    monkeypatch.setattr(R, "STAGE_BYTES", 4096)
    monkeypatch.setattr(R, "_STAGE", [])
    g = G.kemp(150, 1, 6, 1, 500, seed=9)
    first = ak.shortest_paths(g, method="tuned_fw")
    keep = first.copy()
    second = ak.shortest_paths(g, method="tuned_fw")
    assert np.array_equal(second, keep) and np.array_equal(first, keep) and second is not first
    third = ak.shortest_paths(g, method="tuned_fw", dtype=np.int32)
    fin = np.isfinite(keep)
    assert np.array_equal(third[fin], keep[fin].astype(np.int32)) and (third[~fin] == INF).all()
    assert np.array_equal(first, keep)


@pytest.mark.parametrize("chunk", [1, 7, 64, 149, 150])
def test_tuned_frontier_streams_rows_in_chunks_exactly(monkeypatch, chunk):
    """tuned_frontier's streamed path (chunks on two streams, each handed to the host while the next runs): every chunk
    size, awkward ones included, gives the reference's rows, in float64, int32, int64, into ``out`` and for some
    sources, finished on the host (no path: inf, INF, INF64)."""
    from apsp_kernels.algorithms.gpu import resident as R
    from apsp_kernels.algorithms.gpu.tuned import frontier
    monkeypatch.setattr(frontier, "resident_blocks", lambda cp, fn, smem: chunk)
    monkeypatch.setattr(R, "STAGE_BYTES", 8192)
    monkeypatch.setattr(R, "_STAGE", [])
    g = G.kemp(150, 0, 5, 0, 50, seed=11)                         # zero weights and unreachable pairs
    ref = reference_apsp(g)
    want = np.where(ref == INF, np.inf, ref.astype(np.float64))
    assert (ref == INF).any()
    assert np.array_equal(ak.shortest_paths(g, method="tuned_frontier"), want)
    assert np.array_equal(ak.shortest_paths(g, method="tuned_frontier", dtype=np.int32), ref)
    assert np.array_equal(ak.shortest_paths(g, method="tuned_frontier", dtype=np.int64), np.where(ref == INF, INF64, ref))
    out = R.pinned_like((150, 150))
    assert ak.shortest_paths(g, method="tuned_frontier", out=out) is out and np.array_equal(out, want)
    rows = [149, 0, 3, 3, 77]
    assert np.array_equal(ak.shortest_paths(g, method="tuned_frontier", indices=rows), want[rows])
    got = []
    _, t = registry.get("tuned_frontier").run_resident(g, sink=lambda r0, D, s: got.append((r0, D.get())))
    assert t["chunks"] == len(got) == -(-150 // chunk) and t["chunk_rows"] == min(chunk, 150) and t["kernel_ms"] > 0
    assert [r0 for r0, _ in got] == list(range(0, 150, chunk))


@pytest.mark.parametrize("name", RESIDENT)
def test_a_dtype_the_device_does_not_convert_to_is_cast_on_the_host_and_checked(name):
    """float16: exact where the distances fit it, refused in one line where one would become inf."""
    small = G.kemp(130, 1, 5, 1, 20, seed=4)
    ref = _reference(small)
    d = ak.shortest_paths(small, method=name, dtype=np.float16)
    assert d.dtype == np.float16 and np.array_equal(d, ref.astype(np.float16))
    big = Graph.from_edges(3, np.array([0, 1]), np.array([1, 2]), np.array([35000, 35000]))
    with pytest.raises(ValueError, match="dtype float16 cannot hold these distances"):
        ak.shortest_paths(big, method=name, dtype=np.float16)
