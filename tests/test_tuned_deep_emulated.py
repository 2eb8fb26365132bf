"""tuned_deep without a GPU: its launcher's choices (its refusals, as tuned_frontier's, in
tests/test_tuned_per_source_launchers.py), and the real kernel source (cuda/tuned_deep.cu) on the CPU emulation
of tests/emulate/cuda_host.h, launched as the launcher launches it (a warp per source, ``warps`` sources a block,
each warp's slice of the emulated dynamic shared memory), exact against the reference on the graphs of
deep_graphs.py.  The emulation runs each lane as a fiber to its next __syncwarp in a shuffled order (no lock
step) and the blocks in an order the test picks: it checks the kernel's logic (the queue, its overflow to the
bitmap scan, the warp's rounds, the stop test, warps past the last source, int and float paths), not the GPU's
memory model; tests/test_tuned_deep_gpu.py and tests/test_tuned_per_source_gpu.py run the checks on the device,
up to n = 16384."""
import ctypes
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import deep_graphs as DG
import emulation
import frontier_graphs as F

from apsp_kernels import reference_apsp
from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.gpu.runtime import CUDA_DIR
from apsp_kernels.algorithms.gpu.tuned import deep
from apsp_kernels.core.graph import INF, normalise_inf

INT = ctypes.POINTER(ctypes.c_int)
FLOAT = ctypes.POINTER(ctypes.c_float)
SMALL = (1, 2, 31, 33, 70, 127)            # around the bitmap word (32) and the queue (64 slots)


@pytest.fixture(scope="module")
def emu(tmp_path_factory):
    return emulation.build("deep_harness.cpp", "late", tmp_path_factory.mktemp("emu"), "tuned_deep's kernel")


def run(lib, g, sources=None, warps=2, dtype=None, order=None):
    """(distances, most rounds) of the emulated kernel, prepared by the launcher's own csr_arrays; ``order``:
    the blocks' order (a permutation of range(ceil(rows / warps)), None for 0, 1, ...)."""
    dtype, indptr, indices, w = deep.frontier.csr_arrays(g, dtype, who=deep.NAME)
    src = np.arange(g.n, dtype=np.int32) if sources is None else np.asarray(sources, np.int32)
    fl = dtype == "float32"
    D = np.full((src.size, g.n), np.nan if fl else -5, np.float32 if fl else np.int32)   # poison: all written
    p = lambda a, t=INT: np.ascontiguousarray(a).ctypes.data_as(t)
    blocks = None if order is None else np.asarray(order, np.int32)
    fn = lib.emu_deep_float if fl else lib.emu_deep_int
    rounds = fn(D.ctypes.data_as(FLOAT if fl else INT), g.n, p(indptr), p(indices), p(w, FLOAT if fl else INT), p(src),
                int(src.size), warps, None if blocks is None else p(blocks))
    assert rounds >= 0, "a warp still had a frontier after n + 1 rounds"
    assert rounds <= g.n
    return (D if fl else normalise_inf(D)), rounds


# ------------------------------------------------------------------ the launcher, no kernel
def test_constants_are_written_once(emu):
    text = (CUDA_DIR / "tuned_deep.cu").read_text()
    assert int(re.search(r"#define DEEP_QCAP (\d+)", text).group(1)) == deep.QCAP == emu.emu_deep_qcap()
    assert int(re.search(r"#define DEEP_MAX_WARPS (\d+)", text).group(1)) == deep.MAX_WARPS == emu.emu_deep_max_warps()
    assert DG.QUEUE_SLOTS == deep.QCAP


def test_registry_entry_is_tuned_and_not_auto():
    a = registry.get("tuned_deep")
    assert not a.faithful and a.auto_rank is None and a.float32 and not a.negative_weights
    assert a.device == "gpu" and a.representation == "csr" and a.resident is not None
    assert a not in registry.auto_candidates()


def test_shared_memory_and_warps_a_block():
    assert deep.slice_bytes(16384) == 4 * (2 * 512 + 2 * 64 + 2)
    assert deep.slice_bytes(1) == 4 * (2 + 128 + 2)
    assert deep.block_warps(16384, 48 * 1024) == 8                 # 37 KiB: no opt-in
    assert deep.block_warps(65536, 48 * 1024) == 2
    assert deep.block_warps(65536, 227 * 1024) == 8
    assert deep.block_warps(10 ** 7, 227 * 1024) == 0              # refused by the launcher, in one line
    assert deep.footprint(1000, 4000) == deep.frontier.rows_footprint(1000, 4000)


# ------------------------------------------------------------------ the kernel, emulated
@pytest.mark.parametrize("n", SMALL)
def test_every_kind_exact(emu, n):
    """Every source, 3 warps a block (the last block's warps past k return at once)."""
    for label, g in DG.kinds(n, seed=50 + n):
        np.testing.assert_array_equal(run(emu, g, warps=3)[0], reference_apsp(g), err_msg=f"{label} n={n}")


def test_deeper_graphs_some_sources(emu):
    """n = 600: deep enough that a path is 600 rounds and a lollipop's clique (70 > the queue) is scanned; a few
    sources (the emulation is a fiber per lane: every source at this n is the GPU test's)."""
    n = 600
    src = np.array([0, 1, 69, 70, 300, n - 1])
    for label, g in DG.kinds(n, seed=9):
        d, _ = run(emu, g, sources=src, warps=4)
        np.testing.assert_array_equal(d, reference_apsp(g)[src], err_msg=label)


def test_blocks_in_any_order(emu):
    g = DG.lollipop(127, seed=2)
    ref = reference_apsp(g)
    blocks = -(-127 // 4)
    for seed in range(3):
        order = np.random.default_rng(seed).permutation(blocks)
        np.testing.assert_array_equal(run(emu, g, warps=4, order=order)[0], ref)


@pytest.mark.parametrize("warps", (1, 2, 5, 8))
def test_any_warps_a_block(emu, warps):
    g = DG.path_both_ways(45, seed=warps)
    np.testing.assert_array_equal(run(emu, g, warps=warps)[0], reference_apsp(g))


@pytest.mark.parametrize("n", (2, 33, 127))
def test_parallel_edges_and_self_loops(emu, n):
    g, twin = F.multi_edges(n, seed=n)
    assert g.m > 3 * twin.m - 1                                   # the kernel does see the copies and loops
    np.testing.assert_array_equal(run(emu, g, warps=3)[0], reference_apsp(twin))


def test_sources_subset_repeated_and_unsorted(emu):
    g = DG.lollipop(127, seed=3)
    full, _ = run(emu, g, warps=2)
    src = [100, 5, 5, 126, 0, 100, 64]
    d, _ = run(emu, g, sources=src, warps=3)
    assert d.shape == (7, 127)
    np.testing.assert_array_equal(d, full[src])
    np.testing.assert_array_equal(full, reference_apsp(g))


def test_rounds_of_a_directed_path(emu):
    """From 0, round t lowers vertex t + 1 only: n rounds (the last lowers nothing); from the last vertex, one."""
    n = 300
    g = F.path(n, 9)
    assert run(emu, g, sources=[0])[1] == n
    assert run(emu, g, sources=[n - 1])[1] == 1


def test_wide_rounds_overflow_the_queue(emu):
    """A hub joined to 200 vertices: round 1 has 200 vertices (the queue 64), a bitmap scan; exact."""
    g = F.star(201, seed=4)
    d, rounds = run(emu, g, sources=[100, 0, 7], warps=2)
    np.testing.assert_array_equal(d, reference_apsp(g)[[100, 0, 7]])
    assert rounds == 3


@pytest.mark.parametrize("n", (1, 2, 33, 127))
def test_float32_exact_against_float32_dijkstra(emu, n):
    from scipy.sparse import csgraph
    g = F.float_graph(n, seed=n)
    d, _ = run(emu, g, warps=3, dtype="float32")
    assert d.dtype == np.float32
    _, indptr, indices, w32 = deep.frontier.csr_arrays(g, "float32")
    np.testing.assert_array_equal(d, F.float32_dijkstra(n, indptr, indices, w32, range(n)))
    want = csgraph.shortest_path(g.to_scipy(), method="D") if n else np.zeros((0, 0))
    assert np.array_equal(np.isinf(d), np.isinf(want))


def test_integer_valued_float32_is_exact(emu):
    """Integer weights in float32 where every distance is below 2^24 (every kind but "heavy"): the int answer."""
    for label, g in DG.kinds(127, seed=8):
        ref = reference_apsp(g)
        if label == "heavy":
            assert ref[ref < INF].max() >= 2 ** 24              # sums past float32's integers
            continue
        d, _ = run(emu, g, warps=3, dtype="float32")
        np.testing.assert_array_equal(d, F.int_to_float(ref), err_msg=label)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 90), data=st.data(), warps=st.sampled_from([1, 2, 3, 8]))
def test_property_random_small_graphs(emu, n, data, warps):
    """Any directed graph of up to 90 vertices with weights 0..1000 (parallel edges, self-loops, out-degrees past
    the queue), any warps a block: exact."""
    m = data.draw(st.integers(0, 4 * n))
    src = data.draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    dst = data.draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    w = data.draw(st.lists(st.integers(0, 1000), min_size=m, max_size=m))
    g, twin = F.raw(n, src, dst, w)
    np.testing.assert_array_equal(run(emu, g, warps=warps)[0], reference_apsp(twin))
