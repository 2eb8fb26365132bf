"""The benchmark's table without a GPU: its columns, CPU rows beside GPU ones, the tag and append.
The device's parts (CuPy, the limits, the device's name) are stand-ins; the CPU code runs for real."""
import types

import pandas as pd
import pytest

from apsp_kernels import bench, gpu_device, provenance

COLUMNS = ["algorithm", "variant", "n", "m", "kernel_ms", "updates_per_s", "limit_kind", "limit",
           "fraction_of_limit", "verified", "device"]


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
