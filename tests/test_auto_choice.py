"""shortest_paths(method="auto") without a GPU: costs.predict from benchmark rows (the nearest measured n, the
fastest exact variant there, the newest date, verified rows only, scaled by the registry's work), and
api.choose's tiers (GPU in core, GPU out of core, CPU) ranked by those predictions, on benchmark files written
here (a folder the tests own: nothing is read from or written to the checkout's data/results)."""
import numpy as np
import pandas as pd
import pytest

from apsp_kernels import Graph, api, costs, gpu_device
from apsp_kernels.algorithms import registry
from apsp_kernels.core import generators as G

DEV = "NVIDIA_H100_80GB_HBM3"


def write(folder, name, rows):
    cols = ["algorithm", "variant", "n", "m", "kernel_ms", "updates_per_s", "limit_kind", "limit",
            "fraction_of_limit", "verified", "device"]
    df = pd.DataFrame([dict(zip(["algorithm", "variant", "n", "m", "kernel_ms", "updates_per_s", "verified"], r))
                       for r in rows]).reindex(columns=cols)
    df.to_csv(folder / name, index=False)


@pytest.fixture
def bench(tmp_path, monkeypatch):
    """A benchmark folder: dense codes at 10 T/s (tuned_fw) and 3 T/s (Katz & Kider), the sparse code at
    40 G n-m updates/s (its best batch), the out-of-core code, the CPU Dijkstra; an older file and an
    unverified row that must not count."""
    write(tmp_path, f"{DEV}-2026-01-01-tuned.csv", [
        ("tuned_fw", None, 4096, 16000, 1.0, 1e15, True),                      # older date: ignored
    ])
    write(tmp_path, f"{DEV}-2026-02-01-tuned.csv", [
        ("tuned_fw", None, 4096, 16000, 6.9, 1e13, True),
        ("tuned_fw", None, 16384, 66000, 440.0, 1e13, True),
        ("katz_kider", 32, 16384, 66000, 1466.0, 3e12, True),
        ("tuned_sparse", 512, 4096, 16384, 4.0, 4096 * 16384 / 4e-3, True),     # degree 4 and 64 at n = 4096
        ("tuned_sparse", 512, 4096, 262144, 16.0, 4096 * 262144 / 16e-3, True),
        ("tuned_sparse", 256, 16384, 66000, 50.0, 2e10, True),
        ("tuned_sparse", 512, 16384, 66000, 27.0, 4e10, True),
        ("tuned_sparse", 128, 16384, 66000, 20.0, 9e10, False),               # unverified: never used
        ("tuned_fw_ooc", 128, 16384, 66000, 450.0, 9.8e12, True),
        ("dijkstra_cpu_parallel", None, 16384, 66000, 6000.0, 7e11, True),
    ])
    monkeypatch.setattr(costs, "benchmark_folders", lambda: (tmp_path,))
    costs.table.cache_clear()
    yield tmp_path
    costs.table.cache_clear()


def on_gpu(monkeypatch, free=80 << 30):
    monkeypatch.setattr(gpu_device, "available", lambda: True)
    monkeypatch.setattr(gpu_device, "free_bytes", lambda: (free, free))


def test_predict_scales_the_nearest_time_by_the_work(bench):
    g = G.kemp(8000, seed=1)
    p = costs.predict(registry.get("tuned_fw"), g)
    assert p.n == 4096 and p.rate == 1e13 and p.ms == pytest.approx(6.9 * (8000 / 4096) ** 3)
    assert "2026-02-01" in str(p) and p.variant is None


def test_predict_interpolates_between_measured_densities(bench):
    """At n = 4096, rows at degree 4 (4 ms) and 64 (16 ms): degree 16 is half way in log degree, so
    sqrt(4 x 16) = 8 ms (a sparse code's time is not linear in m); beyond the rows, the nearest density
    scaled by the work."""
    sparse = registry.get("tuned_sparse")
    shape = lambda n, m: type("S", (), {"n": n, "m": m, "has_negative": False})()
    p = costs.predict(sparse, shape(4096, 16 * 4096))
    assert p.ms == pytest.approx(8.0) and p.degrees == pytest.approx((4.0, 64.0)) and "interpolated" in str(p)
    assert costs.predict(sparse, shape(4096, 4 * 4096)).ms == pytest.approx(4.0)
    assert costs.predict(sparse, shape(4096, 256 * 4096)).ms == pytest.approx(16.0 * 4)
    assert costs.predict(sparse, shape(2048, 16 * 2048)).ms == pytest.approx(8.0 / 4)     # n m at degree 16
    p = costs.predict(registry.get("tuned_sparse"), G.kemp(20000, seed=1))
    assert p.n == 16384 and p.variant == 512 and p.rate == 4e10          # the fastest verified batch
    g = G.kemp(20000, seed=1)
    assert p.ms == pytest.approx(27.0 * (20000 * g.m) / (16384 * 66000))                # one density: n m
    assert costs.predict(registry.get("fw_blocked_parallel"), g) is None        # no rows


def test_sparse_graphs_go_to_the_sparse_code_dense_ones_to_blocked_fw(bench, monkeypatch):
    on_gpu(monkeypatch)
    sparse = G.kemp(3000, seed=2)                                     # degree ~4
    c = api.choose(sparse)
    assert c.algorithm.name == "tuned_sparse" and c.variant == 512
    assert "least predicted time on the GPU, in core" in c.reason and "tuned_fw" in c.reason
    n = 1500
    rng = np.random.default_rng(3)
    dense = Graph.from_dense(rng.integers(1, 100, (n, n)).astype(np.float64))
    c = api.choose(dense)
    assert c.algorithm.name == "tuned_fw" and str(c).startswith("tuned_fw: least predicted time")


def test_negative_edges_never_go_to_a_code_that_refuses_them(bench, monkeypatch):
    on_gpu(monkeypatch)
    g = G.with_potential(G.kemp(3000, seed=2), scale=20, seed=2)
    assert g.has_negative
    assert api.choose(g).algorithm.name == "tuned_fw"


def test_out_of_core_only_where_no_in_core_dense_code_fits(bench, monkeypatch):
    g = G.kemp(30000, 0, 400, 1, 10, seed=4)                          # dense-ish: the sparse code is slower
    need = registry.get("tuned_fw").footprint(g.n, g.m)
    on_gpu(monkeypatch, free=int(need / 0.9) + 1)                    # tuned_fw fits: the out-of-core code,
    c = api.choose(g)                                                # measured faster here, is not a candidate
    assert c.algorithm.name == "tuned_fw" and "tuned_fw_ooc" not in c.reason
    on_gpu(monkeypatch, free=need // 2)                              # now only out of core: the sparse code's
    c = api.choose(g)                                                # n x n result does not fit either
    assert c.algorithm.name == "tuned_fw_ooc" and "out of core" in c.reason and "tuned_sparse" not in c.reason
    assert "kemp_ooc (no benchmark rows)" in c.reason                # measured codes first, then by preference


def test_without_a_gpu_the_cpu_codes_by_their_rows_then_by_preference(bench, monkeypatch):
    monkeypatch.setattr(gpu_device, "available", lambda: False)
    g = G.kemp(500, seed=5)
    c = api.choose(g)
    assert c.algorithm.name == "dijkstra_cpu_parallel" and "on the CPU (no GPU here)" in c.reason
    assert "fw_blocked_parallel (no benchmark rows)" in c.reason
    neg = G.with_potential(g, scale=10, seed=5)
    c = api.choose(neg)                                               # Dijkstra refuses negative edges
    last_cpu = [a for a in registry.auto_candidates() if a.device == "cpu"][-1]
    assert c.algorithm.name == last_cpu.name and "no benchmark rows for any" in c.reason


def test_with_no_rows_at_all_the_preference_order_decides(tmp_path, monkeypatch):
    monkeypatch.setattr(costs, "benchmark_folders", lambda: (tmp_path,))
    costs.table.cache_clear()
    try:
        on_gpu(monkeypatch)
        c = api.choose(G.kemp(300, seed=6))
        assert c.algorithm.name == registry.auto_candidates()[0].name and c.variant is None
    finally:
        costs.table.cache_clear()


def test_the_recorded_benchmarks_rank_the_tuned_codes_first():
    """On the committed H100 rows: a sparse graph to tuned_sparse, a dense one to tuned_fw (the tuned line's target 5)."""
    costs.table.cache_clear()
    import apsp_kernels.paths as paths
    rows = costs.table((paths.RECORDED / "benchmarks",))
    if not {"tuned_fw", "tuned_sparse"} <= set(rows.algorithm):
        pytest.skip("no recorded tuned benchmark")
    g = G.kemp(5000, seed=7)
    ps = {a: costs.predict(registry.get(a), g, (paths.RECORDED / "benchmarks",)) for a in ("tuned_fw", "tuned_sparse",
                                                                                        "katz_kider")}
    assert ps["tuned_sparse"].ms < ps["tuned_fw"].ms < ps["katz_kider"].ms


def test_the_recorded_density_rows_pick_what_the_h100_measured_fastest():
    """scripts/auto_check.py on the H100 (2026-11-25, data/results/device-logs/h100-20261125-0218-auto_check.*)
    timed every candidate: tuned_sparse fastest at n = 4096, degree 8 and 16 (4.4 and 5.3 ms against tuned_fw's
    7.8), tuned_fw at degree 64 (7.8 against 12.1) and on a complete graph.  The recorded rows must rank so."""
    import apsp_kernels.paths as paths
    rec = (paths.RECORDED / "benchmarks",)
    if not any(rec[0].glob("*-costs.csv")):
        pytest.skip("no recorded density rows")
    for make, want in ((lambda: G.kemp(4096, 6, 10, seed=2), "tuned_sparse"), (lambda: G.kemp(4096, 14, 18, seed=3),
                       "tuned_sparse"), (lambda: G.kemp(4096, 62, 66, seed=4), "tuned_fw"),
                       (lambda: G.complete(2048, seed=6), "tuned_fw")):
        assert api.choose(make(), gpu=True, free_bytes=80 << 30, benchmarks=rec).algorithm.name == want


def test_notebook_11s_table_of_choices_reads_the_runs_own_rows(bench):
    """study.tuned_auto on the fixture's files, on a device of the provenance's memory (80 GiB without one)."""
    from apsp_kernels.study.seeds.tuned import auto as tuned_auto, load as tuned_report
    b = tuned_report.load(sorted(bench.glob("*.csv")))
    assert tuned_auto.device_memory(b) == 80 << 30
    df = tuned_auto.choices(b)
    assert list(df["auto picks"]) == ["tuned_sparse/512", "tuned_sparse/512", "tuned_fw", "tuned_fw", "tuned_fw_ooc/128"]
    assert df["why"].str.contains("2026-02-01").all() and not df["why"].str.contains("2026-01-01").any()
    assert "out of core" in df["why"].iloc[-1] and df["n"].iloc[-1] ** 2 * 4 > 80 << 30


def test_choose_for_another_device_needs_no_gpu(bench):
    g = G.kemp(3000, seed=8)
    assert api.choose(g, gpu=True, free_bytes=80 << 30).algorithm.name == "tuned_sparse"
    assert api.choose(g, gpu=False).algorithm.device == "cpu"
    big = api.choose(g, gpu=True, free_bytes=1 << 20)           # nothing on the GPU fits 1 MiB: the CPU
    assert big.algorithm.device == "cpu"


def test_a_multithreaded_cpu_code_is_predicted_for_the_threads_it_gets_here(bench, monkeypatch):
    """Rows measured with 16 CPU threads (the file's provenance says so) predict 8x the time where the code gets 2
    threads; a machine with as many or more keeps the measured time; GPU codes never change."""
    (bench / f"{DEV}-2026-02-01-tuned.provenance.json").write_text(
        '{"invocations": [{"cpu_threads_used": 16}, {"cpu_threads_used": 16}]}')
    costs.table.cache_clear()
    g, cpu, gpu = G.kemp(16384, seed=3), registry.get("dijkstra_cpu_parallel"), registry.get("tuned_fw")
    monkeypatch.setenv("NUMBA_NUM_THREADS", "16")
    full = costs.predict(cpu, g)
    assert full.ms > 0 and "threads" not in full.source
    monkeypatch.setenv("NUMBA_NUM_THREADS", "2")
    assert costs.threads_here() == 2
    two = costs.predict(cpu, g)
    assert two.ms == pytest.approx(8 * full.ms) and "x8 for 2 CPU threads here against 16 measured" in two.source
    assert costs.predict(gpu, g).ms == costs.predict(gpu, g).ms and "threads" not in costs.predict(gpu, g).source


def test_rows_whose_provenance_says_nothing_of_threads_are_not_scaled(bench, monkeypatch):
    monkeypatch.setenv("NUMBA_NUM_THREADS", "1")
    p = costs.predict(registry.get("dijkstra_cpu_parallel"), G.kemp(16384, seed=3))
    assert "threads" not in p.source


def test_float32_auto_takes_the_float32_code_of_least_predicted_time(monkeypatch):
    """dtype=np.float32 with method 'auto': tuned_fw (dense, n^3 work) on a dense float graph, tuned_frontier
    (n m work) on a sparse one, by the recorded rows' predictions; a named float32 code is that code; negative
    weights and a machine without a GPU take none (the CPU's float64 code)."""
    import scipy.sparse as sp
    from apsp_kernels.api import as_graph
    monkeypatch.setattr(gpu_device, "available", lambda: True)
    costs.table.cache_clear()
    rng = np.random.default_rng(3)
    dense = np.where(np.eye(512) > 0, 0, rng.uniform(0.5, 9.5, (512, 512)))
    sparse = sp.random(8192, 8192, density=4 / 8192, format="csr", random_state=1)
    sparse.data = rng.uniform(0.5, 9.5, sparse.nnz)
    pick = lambda a, method="auto": getattr(api._float32_code(as_graph(a), method, np.float32), "name", None)
    assert pick(dense) == "tuned_fw" and pick(sparse) == "tuned_frontier"
    assert pick(sparse, "tuned_fw") == "tuned_fw" and pick(dense, "tuned_frontier") == "tuned_frontier"
    assert pick(dense, "katz_kider") is None
    assert pick(np.array([[0.0, -1.5], [0.0, 0.0]])) is None
    monkeypatch.setattr(gpu_device, "available", lambda: False)
    assert pick(dense) is None


def test_structure_suite_rows_only_for_codes_the_benchmark_has_none_of(bench):
    """A newer structure-suite file (Kemp rows at one density) does not replace a code's benchmark rows (several sizes
    and densities): it gives rows only to a code without them (tuned_frontier)."""
    pd.DataFrame([dict(graph="kemp", n=4096, m=16000, algorithm="tuned_sparse", kind="gpu", verified=True, kernel_ms=99.0),
                  dict(graph="kemp", n=4096, m=16000, algorithm="tuned_frontier", kind="gpu", verified=True, kernel_ms=3.0),
                  dict(graph="ring", n=4096, m=8192, algorithm="tuned_frontier", kind="gpu", verified=True, kernel_ms=5.0)]
                 ).to_csv(bench / f"{DEV}-2026-03-01-structure.csv", index=False)
    costs.table.cache_clear()
    t = costs.table()
    sparse = t[t.algorithm == "tuned_sparse"]
    assert set(sparse.date) == {"2026-02-01"} and 99.0 not in set(sparse.kernel_ms)
    front = t[t.algorithm == "tuned_frontier"]
    assert front.kernel_ms.tolist() == [3.0] and front.suite.all()            # the Kemp row only, not the ring's


def test_the_model_reads_one_device_that_of_the_newest_costs_file(bench):
    """Rows of another device, however new (a structure suite measured on an H200 to check auto), are not read
    beside this device's: its tuned_frontier row would be ranked against the H100's tuned_sparse.  A newer
    ``*-costs.csv`` of another device switches the whole model to that device."""
    write(bench, f"{DEV}-2026-01-15-costs.csv", [("tuned_fw", None, 4096, 16000, 7.0, 1e13, True)])
    suite = lambda ms: pd.DataFrame([dict(graph="kemp", n=4096, m=16000, algorithm="tuned_frontier", kind="gpu",
                                          verified=True, kernel_ms=ms)])
    suite(3.0).to_csv(bench / f"{DEV}-2026-03-01-structure.csv", index=False)
    suite(1.0).to_csv(bench / "NVIDIA_H200-2026-04-01-structure.csv", index=False)
    costs.table.cache_clear()
    t = costs.table()
    assert t[t.algorithm == "tuned_frontier"].kernel_ms.tolist() == [3.0]
    assert not t.source.str.contains("H200").any()
    write(bench, "NVIDIA_H200-2026-05-01-costs.csv", [("tuned_fw", None, 4096, 16000, 5.0, 1.4e13, True)])
    costs.table.cache_clear()
    t = costs.table()
    assert t.source.str.startswith("NVIDIA H200").all() and set(t.algorithm) == {"tuned_fw", "tuned_frontier"}
    assert t[t.algorithm == "tuned_frontier"].kernel_ms.tolist() == [1.0]
    costs.table.cache_clear()


def test_the_row_caches_are_keyed_by_strings_and_follow_the_folders(tmp_path, monkeypatch):
    """The default folders are held as strings (a warm choice looks them up several times a call) and made again
    where the folders are replaced (as the tests here replace them)."""
    from apsp_kernels import paths
    first = costs._folders(None)
    assert first and all(isinstance(f, str) for f in first) and costs._folders(None) is first
    monkeypatch.setattr(costs, "benchmark_folders", lambda: (tmp_path,))
    assert costs._folders(None) == (str(tmp_path),)
    monkeypatch.undo()
    monkeypatch.setattr(paths, "RESULTS", tmp_path / "elsewhere")
    assert costs._folders(None)[0] == str(tmp_path / "elsewhere" / "benchmarks")
    assert costs._folders([tmp_path]) == (str(tmp_path),)
