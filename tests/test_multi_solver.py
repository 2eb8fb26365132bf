"""``shortest_paths(..., devices=k)`` and ``solve --gpus k``: one solve over k GPUs of a host by the multi-GPU codes
(registry ``multi_gpu``: ``tuned_fw_multi``, ``tuned_frontier_multi``, ``tuned_sparse_multi``).  Without a GPU: the
chunks of the sources, the registry entries, the argument checks and their one-line errors, the memory plan, and
the solver's and the command line's plumbing around a stand-in launcher.  On GPUs (marker ``gpu``; 2 and 4 GPUs
where the host has them): equal to scipy on awkward sizes, for auto and each code, with ``indices``."""
from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pytest

from apsp_kernels import gpu_device, reference_apsp, shortest_paths
from apsp_kernels.__main__ import main
from apsp_kernels.algorithms import registry
from apsp_kernels.algorithms.gpu import multi
from apsp_kernels.algorithms.gpu.multi import sources as S
from apsp_kernels.choice import choose_devices
from apsp_kernels.core import generators as G
from apsp_kernels.core import memory
from apsp_kernels.core.graph import INF, Graph, GraphError
from apsp_kernels.placement import check_devices

MULTI = ("tuned_fw_multi", "tuned_frontier_multi", "tuned_sparse_multi")
SOURCES_CODES = ("tuned_frontier_multi", "tuned_sparse_multi")


def as_scipy(d):
    """int32 distances (INF: no path) as scipy gives them: float64, inf."""
    f = d.astype(np.float64)
    f[d == INF] = np.inf
    return f


def sparse_graph(n, seed=1):
    return G.kemp(n, 0, 4, 0, 100, seed=seed)          # out-degree 0 allowed: unreachable pairs


def dense_graph(n, seed=2):
    return G.kemp(n, n // 2, n // 2 + 4, 0, 100, seed=seed)


# ------------------------------------------------------------------ the chunks of the sources
@pytest.mark.parametrize("count, parts", [(10, 1), (10, 2), (10, 4), (7, 3), (129, 4), (2, 4), (1, 4), (0, 3),
                                          (4, 4), (5, 4)])
def test_split_is_contiguous_complete_and_balanced(count, parts):
    b = S.split(count, parts)
    assert len(b) == parts and b[0][0] == 0 and b[-1][1] == count
    assert all(x[1] == y[0] for x, y in zip(b, b[1:]))
    sizes = [hi - lo for lo, hi in b]
    assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)


def test_split_uneven_and_fewer_sources_than_ranks():
    assert S.split(10, 4) == [(0, 3), (3, 6), (6, 8), (8, 10)]
    assert S.split(2, 4) == [(0, 1), (1, 2), (2, 2), (2, 2)]          # the last ranks get nothing
    with pytest.raises(ValueError, match="1 or more parts, not 0"):
        S.split(5, 0)


def test_gpu_count_asked_for():
    assert S.gpus_for(None, 4) == 4 and S.gpus_for(2, 4) == 2 and S.gpus_for(np.int64(4), 4) == 4
    with pytest.raises(ValueError, match="^5 GPUs asked for; this host has 4$"):
        S.gpus_for(5, 4)
    with pytest.raises(ValueError, match="this host has none"):
        S.gpus_for(None, 0)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="whole number of GPUs"):
            S.gpus_for(bad, 4)


def test_sources_multi_refuses_before_any_gpu_work(monkeypatch):
    g = sparse_graph(20)
    with pytest.raises(ValueError, match="code must be one of"):
        S.sources_multi(g, code="tuned_fw")
    monkeypatch.setattr(gpu_device, "device_count", lambda: 2)
    with pytest.raises(ValueError, match="^3 GPUs asked for; this host has 2$"):
        S.sources_multi(g, n_gpus=3)
    with pytest.raises(ValueError, match="source 20 is not a vertex"):
        S.sources_multi(g, n_gpus=2, sources=[20])
    neg = G.with_potential(G.kemp(20, 1, 3, 0, 9, seed=3), scale=6, seed=3)
    with pytest.raises(GraphError):
        S.sources_multi(neg, n_gpus=2)
    d, t = S.sources_multi(Graph.from_edges(0, [], [], []), n_gpus=2)          # nothing to solve: no rank
    assert d.shape == (0, 0) and d.dtype == np.int32 and t["code"] == "tuned_frontier" and t["n_gpus"] == 1
    d, t = S.sources_multi(g, n_gpus=2, sources=[])
    assert d.shape == (0, 20)


@pytest.fixture
def one_rank_without_gpu(monkeypatch):
    """sources_multi's coordinator and its one rank, run in this process, without a GPU: the rank's solve writes the
    reference rows (what the codes return) into the shared result; its kernel time 1.5 ms."""
    from apsp_kernels.algorithms.gpu.multi import launch
    from apsp_kernels.algorithms.gpu.multi.rank import Context
    monkeypatch.setattr(gpu_device, "device_count", lambda: 4)
    monkeypatch.setattr(launch, "_check_devices", lambda size: None)
    monkeypatch.setattr(launch, "init_rank", lambda rank, size, uid, device, use_nccl, gpus=True:
                        Context(rank, size, device, None))
    monkeypatch.setenv("NCCL_NVLS_ENABLE", "0")

    def rows(code, g, chunk, result, a, b):
        result[a:b] = reference_apsp(g)[chunk]
        return dict(kernel_ms=1.5)
    monkeypatch.setattr(S, "_write_rows", rows)


def _blocks():
    import os
    return {f for f in os.listdir("/dev/shm") if f.startswith("psm_")} if os.path.isdir("/dev/shm") else set()


@pytest.mark.parametrize("sources", [None, [5, 0, 5], [7]])
def test_one_rank_in_this_process_fills_the_shared_result(one_rank_without_gpu, sources):
    g = sparse_graph(40, seed=3)
    before = _blocks()
    d, t = S.sources_multi(g, "tuned_sparse", n_gpus=4 if sources == [7] else 1, sources=sources)   # [7]: one rank
    want = reference_apsp(g) if sources is None else reference_apsp(g)[sources]
    np.testing.assert_array_equal(d, want)
    assert d.dtype == np.int32 and d.flags.owndata and _blocks() == before
    k = 40 if sources is None else len(sources)
    assert t == dict(code="tuned_sparse", n_gpus=1, sources=k, kernel_ms=1.5, wall_ms=t["wall_ms"],
                     kernel_ms_per_rank=[1.5], wall_ms_per_rank=[t["wall_ms"]], rows_per_rank=[k])


def test_a_failing_rank_in_this_process_raises_its_error_and_frees_the_block(one_rank_without_gpu, monkeypatch):
    def fails(code, g, chunk, result, a, b):
        result[a:b] = 0
        raise gpu_device.GPUMemoryError("tuned_frontier: needs 9 GiB")
    monkeypatch.setattr(S, "_write_rows", fails)
    before = _blocks()
    with pytest.raises(gpu_device.GPUMemoryError, match="needs 9 GiB"):
        S.sources_multi(sparse_graph(20), n_gpus=1)
    assert _blocks() == before


def test_sparse_rows_are_columns_of_the_reversed_graph_over_the_batches_that_hold_them():
    """What tuned_sparse_rows relies on: row s of g's distances is column s of the reversed graph's, and only the
    target batches holding a source run."""
    from apsp_kernels.algorithms.gpu.tuned.sparse import target_batches
    g = sparse_graph(129, seed=8)
    np.testing.assert_array_equal(reference_apsp(g.reversed()).T, reference_apsp(g))
    assert target_batches([300, 3, 255, 256, 3], 256) == [0, 256] and target_batches([511], 512) == [0]
    assert target_batches(np.arange(1025), 256) == [0, 256, 512, 768, 1024] and target_batches([], 128) == []


# ------------------------------------------------------------------ the registry
@pytest.mark.parametrize("name", MULTI)
def test_registry_entries(name):
    a = registry.get(name)
    assert a.multi_gpu and not a.faithful and a.device == "gpu" and a.problem == "apsp" and a.auto_rank is None
    assert a in registry.multi_gpu() and a not in registry.by_device("gpu")       # out of the one-GPU sweeps
    takes = inspect.signature(a.launcher).parameters
    assert "n_gpus" in takes and "timeout_s" in takes and takes["n_gpus"].default is None
    assert ("sources" in takes) == (name in SOURCES_CODES)
    for n, m in ((1, 0), (127, 500), (1000, 5000), (4097, 40000)):
        assert a.footprint(n, m) == a.footprint_per_gpu(n, m, 1)
        per = [a.footprint_per_gpu(n, m, k) for k in (1, 2, 4, 8)]
        assert all(p > 0 for p in per)
        if n > 1000:     # a GPU's share falls with more GPUs once it outweighs the FW's two pivot-row buffers
            assert per == sorted(per, reverse=True)
    assert a.notes and a.label


def test_only_the_new_codes_are_multi_gpu_and_auto_finds_them_by_role():
    assert [a.name for a in registry.multi_gpu()] == list(MULTI)
    assert registry.by_role("multi_gpu_dense").name == "tuned_fw_multi"
    assert registry.by_role("multi_gpu_sparse").name == "tuned_frontier_multi"
    assert registry.get("nthu_multi") in registry.by_device("gpu")                # it runs on one GPU by default


def test_tuned_fw_multi_footprint_per_gpu():
    """The busiest rank's block rows (ceil(N/128 / k) of them), two pivot-row buffers where k > 1, its rows of the
    transposed pivot column; N = n rounded up to 128."""
    a = registry.get("tuned_fw_multi")
    for n, N in ((1, 128), (128, 128), (129, 256), (1000, 1024), (65536, 65536)):
        for k in (1, 2, 4):
            most = -(-(N // 128) // k) * 128
            want = 4 * most * N + (8 * 128 * N if k > 1 else 0) + 4 * 128 * most
            assert a.footprint_per_gpu(n, 0, k) == want
    assert multi.tuned_fw_footprint(300, 0, 3) == 4 * 128 * 384 + 8 * 128 * 384 + 4 * 128 * 128    # 1 block row each


def test_sources_footprints_follow_the_one_gpu_codes():
    from apsp_kernels.algorithms.gpu.tuned import frontier as F, sparse as SP
    n, m = 1000, 5000
    assert registry.get("tuned_frontier_multi").footprint_per_gpu(n, m, 4) == F.footprint(n, m, 250)
    assert registry.get("tuned_sparse_multi").footprint_per_gpu(n, m, 3) == SP.footprint(n, m) + 8 * 334 * n


def test_the_registry_and_the_solver_import_no_multi_gpu_module_they_do_not_run():
    """multi/tuned.py is imported by the FW launcher when called, not by the registry or the solver (so the package
    imports where that module is absent); nor does anything import CuPy on the way."""
    import subprocess
    import sys
    code = ("import sys, apsp_kernels.algorithms.registry, apsp_kernels.api, apsp_kernels.__main__; "
            "print(sorted(m for m in sys.modules if m.endswith('multi.tuned') or m == 'cupy'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# ------------------------------------------------------------------ the solver's checks (no GPU needed)
def test_devices_must_be_a_whole_number():
    g = sparse_graph(10)
    for bad in (0, -2, 1.5, True, "2"):
        with pytest.raises(ValueError, match="devices must be a whole number of GPUs"):
            shortest_paths(g, devices=bad)


def test_devices_is_keyword_only_and_one_by_default():
    p = inspect.signature(shortest_paths).parameters["devices"]
    assert p.kind is inspect.Parameter.KEYWORD_ONLY and p.default == 1
    np.testing.assert_array_equal(shortest_paths(sparse_graph(30), method="D"), as_scipy(reference_apsp(sparse_graph(30))))


@pytest.mark.parametrize("method", ["FW", "D", "tuned_fw", "tuned_frontier", "nthu_multi", "no_such_code"])
def test_a_named_one_gpu_method_with_devices_is_refused_in_one_line(method):
    with pytest.raises(ValueError) as e:
        shortest_paths(sparse_graph(10), method=method, devices=2)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("devices=2 runs a multi-GPU code: method 'auto' or one of ")
    assert all(n in msg for n in MULTI) and repr(method) in msg


def test_more_devices_than_the_host_has_names_both_numbers(monkeypatch):
    monkeypatch.setattr(gpu_device, "device_count", lambda: 0)
    with pytest.raises(ValueError, match="^2 GPUs asked for; this host has 0$"):
        shortest_paths(sparse_graph(10), devices=2)
    monkeypatch.setattr(gpu_device, "device_count", lambda: 2)
    with pytest.raises(ValueError, match="^4 GPUs asked for; this host has 2$"):
        shortest_paths(sparse_graph(10), method="tuned_fw_multi", devices=4)
    with pytest.raises(ValueError, match="^3 GPUs asked for; this host has 2$"):
        check_devices(sparse_graph(10), registry.get("tuned_fw_multi"), 3)


def test_a_float_graph_and_device_true_are_refused(monkeypatch):
    w = np.array([[0, 1.5], [np.inf, 0]])
    with pytest.raises(GraphError, match="devices=2: the multi-GPU codes take int32 weights only"):
        shortest_paths(w, devices=2)
    monkeypatch.setattr(gpu_device, "available", lambda: True)
    with pytest.raises(ValueError, match="the result of a multi-GPU solve is on the host"):
        shortest_paths(sparse_graph(10), devices=2, device=True)


def test_negative_weights_are_refused_by_the_sparse_codes_before_any_gpu_work():
    neg = G.with_potential(G.kemp(20, 1, 3, 0, 9, seed=3), scale=6, seed=3)
    assert neg.has_negative
    with pytest.raises(GraphError, match="tuned_frontier_multi needs non-negative edge weights"):
        shortest_paths(neg, method="tuned_frontier_multi", devices=2)


def test_auto_by_density():
    assert choose_devices(dense_graph(40), 2).algorithm.name == "tuned_fw_multi"
    c = choose_devices(sparse_graph(200), 4)
    assert c.algorithm.name == "tuned_frontier_multi" and "on 4 GPUs" in str(c) and "n^2 / 4" in str(c)
    neg = G.with_potential(sparse_graph(200), scale=40, seed=1)
    assert choose_devices(neg, 2).algorithm.name == "tuned_fw_multi" and "negative" in choose_devices(neg, 2).reason


# ------------------------------------------------------------------ the memory plan
@pytest.fixture
def four_gpus(monkeypatch):
    """A host of four 80 GiB GPUs as the solver sees it (no GPU work happens in these tests)."""
    monkeypatch.setattr(gpu_device, "device_count", lambda: 4)
    monkeypatch.setattr(gpu_device, "device_totals", lambda k: [80 << 30] * k)
    monkeypatch.setattr(memory, "available_bytes", lambda: 1 << 40)


def test_the_plan_counts_the_result_on_the_host_and_a_share_on_each_gpu(four_gpus):
    g = sparse_graph(1000)
    a = registry.get("tuned_frontier_multi")
    n2 = 1000 * 1000
    host, per = check_devices(g, a, 4, False, np.float64)
    assert host == 4 * n2 + 8 * n2 + 4 * n2 and per == a.footprint_per_gpu(1000, g.m, 4)
    assert check_devices(g, a, 4, True, np.int32)[0] == 4 * n2 + 4 * n2 + 4 * n2
    assert check_devices(g, a, 4, False, np.float64, rows=10)[0] == 16 * 1000 * 10
    assert check_devices(g, a, 2, False, np.float64, extra_host=7)[0] == 16 * n2 + 7


def test_a_result_the_host_cannot_hold_is_refused_before_any_gpu_work(four_gpus, monkeypatch):
    monkeypatch.setattr(memory, "available_bytes", lambda: 10 << 20)
    called = []
    _stand_in(monkeypatch, "tuned_frontier_multi", called)
    with pytest.raises(memory.HostMemoryError) as e:
        shortest_paths(sparse_graph(1000), devices=4)
    assert "tuned_frontier_multi on 4 GPUs" in str(e.value) and "host memory" in str(e.value) and not called


def test_a_share_no_gpu_can_hold_is_refused_before_any_gpu_work(four_gpus, monkeypatch):
    monkeypatch.setattr(gpu_device, "device_totals", lambda k: [1 << 20] * k)
    called = []
    _stand_in(monkeypatch, "tuned_fw_multi", called)
    with pytest.raises(gpu_device.GPUMemoryError) as e:
        shortest_paths(dense_graph(600), devices=2)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("tuned_fw_multi on 2 GPUs: needs ") and "1.0 MiB" in msg and not called


# ------------------------------------------------------------------ the solver around a stand-in launcher
def _stand_in(monkeypatch, name, calls):
    """``name``'s registry entry with a launcher that records its call and returns the reference rows, as the code
    does (int32, INF where there is no path)."""
    a = registry.get(name)
    if "sources" in inspect.signature(a.launcher).parameters:
        def fake(g, n_gpus=None, sources=None, timeout_s=None):
            calls.append(dict(n_gpus=n_gpus, sources=None if sources is None else list(sources)))
            ref = reference_apsp(g)
            return (ref if sources is None else ref[np.asarray(sources)]), dict(code=name, n_gpus=n_gpus)
    else:
        def fake(g, n_gpus=None, timeout_s=None):
            calls.append(dict(n_gpus=n_gpus))
            return reference_apsp(g), dict(n_gpus=n_gpus)
    monkeypatch.setitem(registry.ALGORITHMS, name, dataclasses.replace(a, launcher=fake))


@pytest.mark.parametrize("graph, want", [(sparse_graph(60), "tuned_frontier_multi"), (dense_graph(40), "tuned_fw_multi")])
def test_auto_on_k_gpus_returns_scipys_shapes(four_gpus, monkeypatch, graph, want):
    calls = []
    for name in MULTI:
        _stand_in(monkeypatch, name, calls)
    d, used = shortest_paths(graph, devices=4, return_method=True)
    assert used == want and calls == [dict(n_gpus=4, **({"sources": None} if want in SOURCES_CODES else {}))]
    assert d.dtype == np.float64 and d.shape == (graph.n, graph.n)
    np.testing.assert_array_equal(d, as_scipy(reference_apsp(graph)))


@pytest.mark.parametrize("name", MULTI)
def test_indices_predecessors_dtype_and_out(four_gpus, monkeypatch, name):
    g = sparse_graph(50)
    ref = as_scipy(reference_apsp(g))
    calls = []
    _stand_in(monkeypatch, name, calls)
    d = shortest_paths(g, method=name, indices=[3, -1, 3], devices=2)
    np.testing.assert_array_equal(d, ref[[3, 49, 3]])
    # the sources codes compute only the rows asked for; the FW all of them
    assert calls[-1] == (dict(n_gpus=2, sources=[3, 49, 3]) if name in SOURCES_CODES else dict(n_gpus=2))
    np.testing.assert_array_equal(shortest_paths(g, method=name, indices=7, devices=2), ref[7])
    assert shortest_paths(g, method=name, indices=[[1, 2], [3, 4]], devices=2).shape == (2, 2, 50)
    d32 = shortest_paths(g, method=name, devices=3, dtype=np.int32)
    np.testing.assert_array_equal(d32, reference_apsp(g))
    d, p = shortest_paths(g, method=name, devices=2, return_predecessors=True)
    from scipy.sparse.csgraph import shortest_path
    _, sp = shortest_path(g.to_scipy(), method="D", return_predecessors=True)
    np.testing.assert_array_equal(d, ref)
    assert p.dtype == np.int32 and ((p == -9999) == (sp == -9999)).all()
    out = np.empty((50, 50))
    assert shortest_paths(g, method=name, devices=2, out=out) is out
    np.testing.assert_array_equal(out, ref)


def test_a_named_multi_gpu_code_with_one_device_runs_on_one_gpu(monkeypatch):
    monkeypatch.setattr(gpu_device, "device_count", lambda: 1)
    monkeypatch.setattr(gpu_device, "device_totals", lambda k: [80 << 30] * k)
    calls = []
    _stand_in(monkeypatch, "tuned_frontier_multi", calls)
    d = shortest_paths(sparse_graph(30), method="tuned_frontier_multi")
    assert calls == [dict(n_gpus=1, sources=None)] and d.shape == (30, 30)


# ------------------------------------------------------------------ the command line
@pytest.fixture
def graph_file(tmp_path):
    g = sparse_graph(25, seed=4)
    src, dst, w = g.edges()
    path = tmp_path / "g.gr"
    path.write_text(f"p sp {g.n} {g.m}\n" + "".join(f"a {u + 1} {v + 1} {x}\n" for u, v, x in zip(src, dst, w)))
    return path


def test_cli_gpus_on_a_host_without_them_is_one_line(graph_file, capsys):
    assert main(["solve", str(graph_file), "--gpus", "2"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == "error: 2 GPUs asked for; this host has 0"


@pytest.mark.parametrize("args, words", [(["--gpus", "0"], "--gpus must be 1 or more, not 0"),
                                         (["--gpus", "2", "--algorithm", "FW"], "devices=2 runs a multi-GPU code"),
                                         (["--gpus", "two"], "invalid int value")])
def test_cli_gpus_refusals(graph_file, capsys, args, words):
    try:
        rc = main(["solve", str(graph_file), *args])
    except SystemExit as e:                 # argparse's own refusal
        rc = e.code
    assert rc in (1, 2) and words in capsys.readouterr().err


@pytest.mark.parametrize("args, want", [(["--gpus", "3"], "tuned_frontier_multi"),
                                        (["--gpus", "2", "--algorithm", "tuned_fw_multi"], "tuned_fw_multi"),
                                        (["--algorithm", "tuned_sparse_multi"], "tuned_sparse_multi")])
def test_cli_gpus_passes_devices_and_verifies(graph_file, four_gpus, monkeypatch, capsys, args, want, tmp_path):
    calls = []
    for name in MULTI:
        _stand_in(monkeypatch, name, calls)
    out = tmp_path / "d.npy"
    assert main(["solve", str(graph_file), *args, "-o", str(out)]) == 0
    text = capsys.readouterr().out
    k = int(args[1]) if args[0] == "--gpus" else 1
    assert f"{want}, verified against scipy" in text and calls[-1]["n_gpus"] == k
    if args == ["--gpus", "3"]:
        assert "auto: tuned_frontier_multi: on 3 GPUs of this host, by density" in text
    np.testing.assert_array_equal(np.load(out), as_scipy(reference_apsp(sparse_graph(25, seed=4))))


# ------------------------------------------------------------------ on GPUs
def _gpus():
    return gpu_device.device_count()


def _needs(k):
    return pytest.mark.skipif(_gpus() < k, reason=f"needs {k} GPUs; this host has {_gpus()}")


def _awkward():
    """(label, graph): n = 1, 127, 129, 300 (sparse, unreachable pairs), 300 dense, and two halves no path joins."""
    out = [(f"sparse n={n}", sparse_graph(n, seed=n)) for n in (1, 127, 129, 300)]
    out.append(("dense n=300", dense_graph(300)))
    a, b = sparse_graph(100, seed=5), sparse_graph(90, seed=6)
    sa, da, wa = a.edges()
    sb, db, wb = b.edges()
    out.append(("two halves no path joins", Graph.from_edges(
        200, np.concatenate([sa, sb + 100]), np.concatenate([da, db + 100]), np.concatenate([wa, wb]))))
    return out


GPU_TIMEOUT_S = 300


@pytest.mark.gpu
@pytest.mark.parametrize("k", [pytest.param(2, marks=_needs(2)), pytest.param(4, marks=_needs(4))])
@pytest.mark.parametrize("method", ["auto", *MULTI])
def test_k_gpus_equal_scipy_on_awkward_graphs(k, method):
    for label, g in _awkward():
        d, used = shortest_paths(g, method=method, devices=k, return_method=True)
        assert used == (method if method != "auto" else choose_devices(g, k).algorithm.name)
        assert d.dtype == np.float64 and d.shape == (g.n, g.n)
        np.testing.assert_array_equal(d, as_scipy(reference_apsp(g)), err_msg=f"{method} on {k} GPUs, {label}")


@pytest.mark.gpu
@pytest.mark.parametrize("k", [pytest.param(2, marks=_needs(2)), pytest.param(4, marks=_needs(4))])
@pytest.mark.parametrize("method", ["auto", *MULTI])
def test_k_gpus_indices(k, method):
    g = sparse_graph(300, seed=11)
    ref = as_scipy(reference_apsp(g))
    for idx in ([299, 3, 3, 128, 129, 0, 257], 5, [0, 1]):     # repeats, unsorted; fewer sources than ranks
        d = shortest_paths(g, method=method, indices=idx, devices=k)
        np.testing.assert_array_equal(d, ref[idx], err_msg=f"{method} on {k} GPUs, indices {idx}")


@pytest.mark.gpu
@pytest.mark.parametrize("k", [pytest.param(2, marks=_needs(2)), pytest.param(4, marks=_needs(4))])
def test_k_gpus_negative_weights_by_the_fw(k):
    g = G.with_potential(sparse_graph(257, seed=3), scale=40, seed=3)
    d, used = shortest_paths(g, devices=k, return_method=True, dtype=np.int32)
    assert used == "tuned_fw_multi"
    np.testing.assert_array_equal(d, reference_apsp(g))


@pytest.mark.gpu
@pytest.mark.parametrize("k", [pytest.param(2, marks=_needs(2)), pytest.param(4, marks=_needs(4))])
@pytest.mark.parametrize("code", S.CODES)
def test_sources_multi_timings_and_uneven_chunks(k, code):
    g = sparse_graph(301, seed=9)
    ref = reference_apsp(g)
    d, t = S.sources_multi(g, code, n_gpus=k, timeout_s=GPU_TIMEOUT_S)
    np.testing.assert_array_equal(d, ref)
    assert t["code"] == code and t["n_gpus"] == k and sum(t["rows_per_rank"]) == 301
    assert len(t["kernel_ms_per_rank"]) == len(t["wall_ms_per_rank"]) == k
    assert t["kernel_ms"] == max(t["kernel_ms_per_rank"]) and t["wall_ms"] == max(t["wall_ms_per_rank"])
    d, t = S.sources_multi(g, code, n_gpus=k, sources=[7], timeout_s=GPU_TIMEOUT_S)      # one source: one rank
    np.testing.assert_array_equal(d, ref[[7]])
    assert t["n_gpus"] == 1


@pytest.mark.gpu
@pytest.mark.parametrize("code", S.CODES)
def test_one_gpu_in_this_process(code):
    """n_gpus=1: the one rank runs in this process, through the same shared result (any GPU machine)."""
    g = sparse_graph(200, seed=12)
    d, t = S.sources_multi(g, code, n_gpus=1)
    np.testing.assert_array_equal(d, reference_apsp(g))
    d, t = S.sources_multi(g, code, n_gpus=1, sources=[199, 0, 130, 130])
    np.testing.assert_array_equal(d, reference_apsp(g)[[199, 0, 130, 130]])
    assert t["n_gpus"] == 1 and t["rows_per_rank"] == [4]
