"""The tuned kernels' real sources on a CPU emulation of CUDA (tests/emulate/cuda_host.h: a thread per
CUDA thread, barriers for __syncthreads and the warp intrinsics, cp.async copies performed as late as
the hardware may), launched as the Python launchers launch them, exact against the reference on
awkward sizes and kinds.  This checks each kernel's logic (tiling, phases, slabs, padding, frontier)
without a GPU; tests/test_tuned_gpu.py runs the same checks on the device."""
import ctypes

import numpy as np
import pytest

import emulation

from apsp_kernels import reference_apsp
from apsp_kernels.core.distances import finish
from apsp_kernels.core.graph import round_up

from tuned_graphs import kinds

INT = ctypes.POINTER(ctypes.c_int)


@pytest.fixture(scope="module", params=emulation.MODES)
def emu(request, tmp_path_factory):
    """The emulation built twice: cp.async copies performed at their wait (a read of a stage before its
    wait sees stale data) or at their issue (a stage refilled while other threads still read it shows)."""
    return emulation.build("tuned_harness.cpp", request.param, tmp_path_factory.mktemp("emu"), "the tuned kernels")


def _p(a):
    assert a.flags.c_contiguous and a.ctypes.data % 16 == 0
    return a.ctypes.data_as(INT)


def run_fw(lib, g):
    N = round_up(max(g.n, 1), 128)
    D = g.to_dense(pad_to=N)
    assert lib.emu_tuned_fw(_p(D), N) == (N // 128) * (3 if N > 128 else 1)
    return finish(np.ascontiguousarray(D[:g.n, :g.n]))


def run_stream(lib, g):
    N = round_up(max(g.n, 1), 4)
    D = g.to_dense(pad_to=N)
    lib.emu_tuned_fw_stream(_p(D), N, g.n)
    return finish(np.ascontiguousarray(D[:g.n, :g.n]))


def run_sparse(lib, g, batch):
    n, N = g.n, round_up(g.n, batch)
    D = np.full((n, N), -5, np.int32)          # poison: every cell must be written
    csr = [np.ascontiguousarray(a.astype(np.int32)) for a in (g.indptr, g.indices, g.weights)]
    sweeps = lib.emu_tuned_sparse(_p(D), n, N, *map(_p, csr), batch)
    assert sweeps >= 0, "no convergence"
    return np.ascontiguousarray(D[:, :n])


EMU_SIZES = (1, 2, 31, 33, 127, 129, 257)      # 1025 and more: on the GPU (tests/test_tuned_gpu.py)


@pytest.mark.parametrize("n", EMU_SIZES)
def test_tuned_fw_emulated(emu, n):
    for negative in (False, True):
        for label, g in kinds(n, seed=500 + n, negative=negative):
            if n > 129 and label != "awkward":
                continue                         # a 3 x 3 tiling once is enough (a few seconds each)
            np.testing.assert_array_equal(run_fw(emu, g), reference_apsp(g), err_msg=f"{label} n={n}")


@pytest.mark.parametrize("n", EMU_SIZES)
def test_tuned_fw_stream_emulated(emu, n):
    for label, g in kinds(n, seed=600 + n, negative=n % 2 == 1):
        np.testing.assert_array_equal(run_stream(emu, g), reference_apsp(g), err_msg=f"{label} n={n}")


@pytest.mark.parametrize("batch, n", [(128, n) for n in (1, 2, 31, 33, 129)] + [(256, 33), (256, 129), (512, 129)])
def test_tuned_sparse_emulated(emu, n, batch):
    for label, g in kinds(n, seed=700 + n, negative=False):
        if label == "complete" and n > 33:
            continue
        np.testing.assert_array_equal(run_sparse(emu, g, batch), reference_apsp(g), err_msg=f"{label} n={n}")


def test_tuned_fw_refuses_a_negative_cycle(emu):
    from apsp_kernels import Graph
    from apsp_kernels.core.distances import NegativeCycleError
    g = Graph.from_edges(140, [0, 1, 2, 130], [1, 2, 0, 131], [1, 1, -3, 5])
    with pytest.raises(NegativeCycleError):
        run_fw(emu, g)


FLT = ctypes.POINTER(ctypes.c_float)


def run_fw_f32(lib, W):
    """tuned_fw's float32 kernels on a float32 weight matrix ``W`` (+inf: no edge, 0 diagonal), padded as the
    launcher pads (isolated vertices: +inf rows and columns, 0 diagonal)."""
    n = W.shape[0]
    N = round_up(max(n, 1), 128)
    D = np.full((N, N), np.inf, np.float32)
    np.fill_diagonal(D, 0)
    D[:n, :n] = W
    assert D.ctypes.data % 16 == 0
    assert lib.emu_tuned_fw_f32(D.ctypes.data_as(FLT), N) == (N // 128) * (3 if N > 128 else 1)
    return D[:n, :n]


def _float_matrix(g):
    W = np.full((g.n, g.n), np.inf, np.float32)
    np.fill_diagonal(W, 0)
    src, dst, w = g.edges()
    W[src, dst] = w.astype(np.float32)
    return W


@pytest.mark.parametrize("n", (1, 2, 33, 129, 257))
def test_tuned_fw_float32_is_exact_on_integer_weights(emu, n):
    """Integer-valued weights (path sums below 2^24): the float32 kernels give the int32 reference exactly,
    negative weights included (+inf where int32 says INF)."""
    from apsp_kernels.core.limits import INF
    for negative in (False, True):
        for label, g in kinds(n, seed=900 + n, negative=negative):
            if n > 129 and label != "awkward":
                continue
            ref = reference_apsp(g).astype(np.float64)
            ref[ref >= INF] = np.inf
            np.testing.assert_array_equal(run_fw_f32(emu, _float_matrix(g)), ref, err_msg=f"{label} n={n}")


@pytest.mark.parametrize("n", (3, 130))
def test_tuned_fw_float32_is_within_float32_rounding_of_scipy(emu, n):
    """Non-integer weights: within the float32 bound of scipy's float64 answer, relative
    (1 + 2^-24)^(2 (n - 1)) - 1 (each of at most n - 1 additions of a path rounded once, and its weights once)."""
    from scipy.sparse.csgraph import shortest_path
    rng = np.random.default_rng(n)
    W = np.where(rng.random((n, n)) < 0.2, rng.uniform(0.01, 100.0, (n, n)), np.inf).astype(np.float32)
    np.fill_diagonal(W, 0)
    ref = shortest_path(np.where(np.isinf(W), 0, W).astype(np.float64), method="FW", directed=True)
    got = run_fw_f32(emu, W).astype(np.float64)
    assert np.array_equal(np.isinf(got), np.isinf(ref))
    fin = np.isfinite(ref)
    bound = (1 + 2.0 ** -24) ** (2 * (n - 1)) - 1
    assert np.all(np.abs(got[fin] - ref[fin]) <= bound * ref[fin] + 1e-30)


def run_rows(lib, g, ranks, lookahead):
    N = round_up(max(g.n, 1), 128)
    D = g.to_dense(pad_to=N)
    assert lib.emu_tuned_fw_rows(_p(D), N, ranks, int(lookahead)) > 0
    return finish(np.ascontiguousarray(D[:g.n, :g.n]))


@pytest.mark.parametrize("n, ranks, lookahead", [(129, 2, True), (300, 2, True), (300, 3, False), (300, 4, True),
                                                 (520, 3, True), (700, 2, True), (257, 1, True), (100, 2, True)])
def test_tuned_fw_multi_rounds_emulated(emu, n, ranks, lookahead):
    """tuned_fw_multi's row-distributed kernels in its launch order: more ranks than block rows (100 on 2), uneven
    shares (520 on 3: 2, 2, 1 block rows), a rank skipping both its pivot row and the row run ahead (700 on 2), with and without running the next pivot's row ahead."""
    for label, g in kinds(n, seed=800 + n, negative=n % 2 == 1):
        if label != "awkward" and n > 129:
            continue
        np.testing.assert_array_equal(run_rows(emu, g, ranks, lookahead), reference_apsp(g),
                                      err_msg=f"{label} n={n} ranks={ranks}")
