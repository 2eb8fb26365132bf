"""The benchmark's table without a GPU: its columns, CPU rows beside GPU ones, the tag and append, each row
measured and verified by harness.measure against the one cached reference (one GPU-marked test on the device).
The device's parts (CuPy, the limits, the device's name) are stand-ins; the CPU code runs for real."""
import dataclasses
import types

import pandas as pd
import pytest

from apsp_kernels.measure import bench, provenance
from apsp_kernels import gpu_device

COLUMNS = ["algorithm", "variant", "n", "m", "kernel_ms", "wall_ms", "updates_per_s", "limit_kind", "limit",
           "fraction_of_limit", "verified", "device", "hop_depth"]     # hop_depth: the graph's (costs scales sweep codes by it)


@pytest.fixture
def no_device(monkeypatch):
    runtime = types.SimpleNamespace(memGetInfo=lambda: (80 << 30, 80 << 30))
    monkeypatch.setattr(gpu_device, "require_gpu", lambda: types.SimpleNamespace(cuda=types.SimpleNamespace(runtime=runtime)))
    monkeypatch.setattr(bench, "measure_limits", lambda: {"bandwidth_Bps": 3.0e12, "minplus_ops": 16.5e12})
    monkeypatch.setattr(provenance, "gpu_info", lambda: {"gpu": "Stand-in GPU"})


def test_cpu_rows_tag_and_append(no_device, tmp_path):
    kw = dict(repeats=1, out_dir=tmp_path, algorithms=[], cpu=["dijkstra_cpu_parallel"], tag="tuned", log=lambda s: None)
    df, lim, path = bench.run((64,), **kw)
    assert path.name.startswith("Stand-in_GPU-") and path.name.endswith("-tuned.csv")
    assert list(df.columns) == COLUMNS
    row = df.iloc[0]
    assert row.algorithm == "dijkstra_cpu_parallel" and row.verified and row.kernel_ms > 0
    assert row.limit_kind == "" and pd.isna(row.fraction_of_limit)
    df2, _, path2 = bench.run((80,), append=True, **kw)
    assert path2 == path and list(pd.read_csv(path).n) == [64, 80]
    assert "invocations" in (tmp_path / path.name.replace(".csv", ".provenance.json")).read_text()


def test_picked_names_codes_and_variants():
    assert bench.picked("tuned_fw", None, None)
    assert bench.picked("harish", "atomic", ["harish/atomic"]) and not bench.picked("harish", "original", ["harish/atomic"])
    assert bench.picked("tuned_sparse", 256, ["tuned_sparse"]) and not bench.picked("katz_kider", 32, ["tuned_fw"])


def test_rows_are_measured_and_verified_by_the_harness(no_device, tmp_path, monkeypatch):
    """bench measures through harness.measure against the graph's one cached reference: each code's
    repeats (after its warm-up on a small graph), a row's time the median of its records, verified only
    if every repeat was."""
    from apsp_kernels.measure import harness
    from apsp_kernels.algorithms import registry
    calls, refs = [], []
    real = harness.measure

    def spy(algo, g, **kw):
        calls.append((algo.name, g.n, kw.get("repeats"), kw.get("warmup"), kw.get("reference")))
        return real(algo, g, **kw)

    def ref(g):
        refs.append(g.n)
        return reference_checksum(g)

    from apsp_kernels.algorithms.reference import reference_checksum
    monkeypatch.setattr(harness, "measure", spy)
    monkeypatch.setattr(bench, "reference_checksum", ref)
    df, _, _ = bench.run((48,), repeats=2, out_dir=tmp_path, algorithms=[], cpu=["fw_sequential", "dijkstra_cpu"],
                         log=lambda s: None)
    assert refs == [48]                                    # one reference per graph, for every code
    want = reference_checksum(bench.generators.kemp(48, seed=48))
    assert [c[:4] for c in calls] == [("fw_sequential", 256, 0, 1), ("fw_sequential", 48, 2, 1),
                                      ("dijkstra_cpu", 256, 0, 1), ("dijkstra_cpu", 48, 2, 1)]
    assert [c[4] for c in calls if c[1] == 48] == [want, want]
    assert list(df.algorithm) == ["fw_sequential", "dijkstra_cpu"] and df.verified.all()
    assert list(df.columns) == COLUMNS
    g = bench.generators.kemp(48, seed=48)
    recs = [dict(status="ok", verified=True, wall_ms=ms, kernel_ms=0.0) for ms in (3.0, 1.0, 2.0)]
    r = bench.row(registry.get("fw_sequential"), None, g, recs, {}, "dev")
    assert r["kernel_ms"] == 2.0 and r["verified"] and r["updates_per_s"] == registry.get("fw_sequential").updates(g) / 2e-3
    gpu = [dict(status="ok", verified=True, wall_ms=w, kernel_ms=k) for w, k in ((9.0, 1.0), (7.0, 3.0), (8.0, 2.0))]
    r = bench.row(registry.get("tuned_fw"), None, g, gpu, {"minplus": 1e12}, "dev")
    assert r["kernel_ms"] == 2.0 and r["wall_ms"] == 8.0             # the kernel's median beside the end to end's
    recs[1] = dict(recs[1], status="failed_verification", verified=False)
    assert bench.row(registry.get("fw_sequential"), None, g, recs, {}, "dev")["verified"] is False


def test_sizes_above_4096_run_large_repeats(no_device, tmp_path, monkeypatch):
    """Above n = 4096 a code runs once with no warm-up on the graph, or ``large_repeats`` times after one."""
    from apsp_kernels.measure import harness
    calls = []

    def fake(algo, g, **kw):
        calls.append((g.n, kw["repeats"], kw["warmup"]))
        return [dict(status="ok", verified=True, wall_ms=1.0, kernel_ms=1.0)] * kw["repeats"]

    monkeypatch.setattr(harness, "measure", fake)
    monkeypatch.setattr(bench, "reference_checksum", lambda g: None)
    for large, want in ((1, (1, 0)), (3, (3, 1))):
        calls.clear()
        df, _, _ = bench.run((4097,), repeats=2, out_dir=tmp_path, algorithms=[], cpu=["dijkstra_cpu"],
                             log=lambda s: None, large_repeats=large)
        assert calls == [(256, 0, 1), (4097,) + want] and df.verified.all()


def test_a_wrong_result_is_unverified_and_an_error_is_an_error_row(no_device, tmp_path, monkeypatch):
    from apsp_kernels.algorithms import registry
    algo = registry.get("fw_sequential")

    def wrong(g, **kw):
        d, t = algo.launcher(g, **kw)
        if g.n == 40:
            d = d.copy()
            d[1, 2] += 1
        if g.n == 56:
            raise RuntimeError("out of memory")
        return d, t

    odd = dataclasses.replace(algo, launcher=wrong)
    monkeypatch.setattr(registry, "by_device", lambda device: [odd] if device == "cpu" else [])
    df, _, path = bench.run((40, 56), repeats=2, out_dir=tmp_path, algorithms=[], cpu=["fw_sequential"],
                            log=lambda s: None)
    assert list(df.n) == [40, 56]
    bad, err = df.iloc[0], df.iloc[1]
    assert not bad.verified and bad.kernel_ms > 0                       # timed, but not verified
    assert not err.verified and err.error == "RuntimeError: out of memory" and pd.isna(err.kernel_ms)
    assert list(pd.read_csv(path).columns) == COLUMNS + ["error"]


def test_the_command_line_prints_the_table_and_the_file(no_device, tmp_path, capsys):
    from apsp_kernels.__main__ import main
    assert main(["bench", "--sizes", "40", "--repeats", "1", "--algorithms", "no_gpu_code", "--cpu", "fw_blocked/64",
                 "--out", str(tmp_path), "--tag", "cli"]) == 0
    out = capsys.readouterr().out
    assert "limits: copy bandwidth 3.00 TB/s" in out and "no limit (CPU wall time) verified=True" in out
    written = next(tmp_path.glob("*-cli.csv"))
    assert f"written {written}" in out and list(pd.read_csv(written).algorithm) == ["fw_blocked"]


@pytest.mark.gpu
def test_gpu_rows_on_the_device(tmp_path):
    """On a GPU: the limits measured, GPU rows timed by CUDA events (kernel_ms from the launcher's timings,
    through harness.measure), verified against the cached reference, beside a CPU row."""
    df, lim, path = bench.run((256,), repeats=2, out_dir=tmp_path, algorithms=["katz_kider/32", "harish/atomic",
                              "kemp_ooc/32"], cpu=["dijkstra_cpu_parallel"], tag="gpu-test", log=lambda s: None)
    assert lim["bandwidth_Bps"] > 0 and lim["minplus_ops"] > 0
    assert list(df.algorithm) == ["katz_kider", "kemp_ooc", "harish", "dijkstra_cpu_parallel"]
    assert df.verified.all() and (df.kernel_ms > 0).all(), df.to_string()
    gpu = df[df.algorithm != "dijkstra_cpu_parallel"]
    assert (gpu.fraction_of_limit > 0).all() and set(gpu.limit_kind) == {"minplus", "bandwidth"}
    assert pd.read_csv(path).shape[0] == 4
