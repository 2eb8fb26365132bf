"""tuned_frontier's launcher (``frontier._solve``) without a GPU: its chunks, its two streams' buffers, its
renumbering and the gather that puts each chunk's columns back, and the streamed path that hands chunks to a sink,
run with a stand-in for CuPy made of numpy arrays (every stream runs in order at once: this checks the launcher's
bookkeeping, not the device's ordering, which tests/test_tuned_frontier_gpu.py checks) and the real kernel on the
CPU emulation (tests/emulation.py).  Exact against the reference on the kinds of frontier_graphs.py."""
import ctypes
import types

import numpy as np
import pytest

import emulation
import frontier_graphs as F

from apsp_kernels import reference_apsp
from apsp_kernels.algorithms.gpu.tuned import frontier
from apsp_kernels.core.graph import INF
from apsp_kernels.core.limits import normalise_inf

INT = ctypes.POINTER(ctypes.c_int)
FLOAT = ctypes.POINTER(ctypes.c_float)


class _Array(np.ndarray):
    """A numpy array with CuPy's ``get``."""
    def get(self, stream=None):
        return np.asarray(self).copy()


class _Stream:
    def __init__(self, non_blocking=False):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def wait_event(self, event):
        pass

    def synchronize(self):
        pass


class _Event:
    def record(self, stream=None):
        pass

    def synchronize(self):
        pass


def _fake_cupy():
    def empty(shape, dtype):
        return np.full(shape, -3, dtype).view(_Array)             # poison: every entry must be written

    def asarray(a):
        return np.array(a).view(_Array)

    def take(a, indices, axis=None, out=None):
        out[...] = np.take(np.asarray(a), np.asarray(indices), axis=axis)
        return out

    device = types.SimpleNamespace(synchronize=lambda: None, attributes={"MultiProcessorCount": 1})
    cuda = types.SimpleNamespace(Stream=_Stream, Event=_Event, Device=lambda *a: device,
                                 get_current_stream=lambda: _Stream(), get_elapsed_time=lambda a, b: 0.0)
    return types.SimpleNamespace(empty=empty, asarray=asarray, take=take, int32=np.int32, cuda=cuda)


@pytest.fixture(scope="module")
def emu(tmp_path_factory):
    return emulation.build("frontier_harness.cpp", "late", tmp_path_factory.mktemp("emu"), "tuned_frontier's kernel")


@pytest.fixture
def launcher(monkeypatch, emu):
    """frontier._solve on the stand-in, each launch the emulated kernel with 4 threads a block; returns a setter of
    the chunk rows and of whether the launcher renumbers."""
    cp = _fake_cupy()
    monkeypatch.setattr(frontier.gpu_device, "require_gpu", lambda: cp)
    monkeypatch.setattr(frontier.gpu_device, "check_fits", lambda *a, **k: None)
    monkeypatch.setattr(frontier, "kernel_for", lambda dtype, defines=(): dtype)
    monkeypatch.setattr(frontier, "_shared_limit", lambda *a: None)

    def launch(name, fn, grid, block, args, shared_mem=0):
        D, indptr, indices, weights, sources, n, rounds = args
        fl = fn == "float32"
        call = emu.emu_tfr_float if fl else emu.emu_tfr_int
        p = lambda a, t=INT: np.asarray(a).ctypes.data_as(t)
        assert D.flags.c_contiguous and sources.flags.c_contiguous and rounds.flags.c_contiguous
        most = call(p(D, FLOAT if fl else INT), int(n), p(indptr), p(indices), p(weights, FLOAT if fl else INT),
                    p(sources), int(grid[0]), 4)
        rounds[...] = most
    monkeypatch.setattr(frontier.gpu_runtime, "launch", launch)

    def configure(chunk, renumber):
        monkeypatch.setattr(frontier, "resident_blocks", lambda cp, fn, smem, threads=128: chunk)
        F.force_renumbering(monkeypatch, renumber)
    return configure


@pytest.mark.parametrize("renumber", (True, False), ids=("renumbered", "own-numbering"))
@pytest.mark.parametrize("chunk", (1, 7, 64))
def test_every_row_in_the_graphs_numbering(launcher, chunk, renumber):
    """All rows and a subset with repeats, int32 and float32: each row in its place, each column the graph's own
    vertex, with the launcher's renumbering and without, in chunks of 1, 7 and 64 rows."""
    launcher(chunk, renumber)
    for label, g in F.kinds(64, seed=9):
        ref = reference_apsp(g)
        d, t = frontier._solve(g, None, None)
        assert t["renumbered"] == renumber and t["chunks"] == -(-g.n // chunk), label
        np.testing.assert_array_equal(normalise_inf(np.asarray(d)), ref, err_msg=f"{label} chunk={chunk}")
        rows = [63, 0, 5, 5, 31]
        d, _ = frontier._solve(g, rows, None)
        np.testing.assert_array_equal(normalise_inf(np.asarray(d)), ref[rows], err_msg=f"{label} rows chunk={chunk}")
        if ref[ref < INF].max(initial=0) < 2**24:                 # float32 sums exact below 2^24
            f, _ = frontier._solve(g, None, "float32")
            np.testing.assert_array_equal(np.where(np.isinf(f), INF, f).astype(np.int64), ref.astype(np.int64),
                                          err_msg=f"{label} float32 chunk={chunk}")


@pytest.mark.parametrize("renumber", (True, False), ids=("renumbered", "own-numbering"))
def test_the_sink_gets_each_chunk_in_place(launcher, renumber):
    """The streamed path: every chunk handed to the sink once, in the graph's numbering, at its first row."""
    launcher(5, renumber)
    for label, g in F.kinds(40, seed=4):
        got = np.full((g.n, g.n), -1, np.int64)
        seen = []

        def sink(r0, rows, stream):
            seen.append(r0)
            got[r0:r0 + rows.shape[0]] = np.asarray(rows)
        none, t = frontier._solve(g, None, "int32", sink=sink)
        assert none is None and seen == list(range(0, g.n, 5)), label
        np.testing.assert_array_equal(normalise_inf(got), reference_apsp(g), err_msg=label)


def test_chunks_are_capped_where_it_renumbers(launcher, monkeypatch):
    """Where it renumbers, a chunk holds at most GATHER_ROWS rows (the footprint's bound on its two buffers); where
    it does not, a wave of blocks."""
    g = F.kinds(64, seed=2)[3][1]
    monkeypatch.setattr(frontier, "GATHER_ROWS", 16)
    for renumber, rows in ((True, 16), (False, 64)):
        launcher(10 ** 6, renumber)
        d, t = frontier._solve(g, None, None)
        assert t["chunk_rows"] == rows and t["chunks"] == 64 // rows
        np.testing.assert_array_equal(normalise_inf(np.asarray(d)), reference_apsp(g))
