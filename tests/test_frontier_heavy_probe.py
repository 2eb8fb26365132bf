"""scripts/frontier_heavy_probe.py without a GPU: each variant's kernel is the one compiled with its TFR_HEAVY
(none for the heavy path, beyond any degree for off), checked once, then timed in alternating order; the launcher's
kernel is put back after every call; a wrong result stops the probe."""
import sys
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from script_runs import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import frontier_heavy_probe as P  # noqa: E402


@pytest.fixture
def fakes(monkeypatch):
    from apsp_kernels import gpu_device, structure_suite
    from apsp_kernels.algorithms import reference
    from apsp_kernels.algorithms.gpu.tuned import frontier
    from apsp_kernels.measure import provenance
    cp = SimpleNamespace(cuda=SimpleNamespace(Device=lambda: SimpleNamespace(synchronize=lambda: None)))
    monkeypatch.setattr(gpu_device, "require_gpu", lambda: cp)
    monkeypatch.setattr(provenance, "collect", lambda *a, **k: {})
    monkeypatch.setattr(reference, "reference_checksum", lambda g: 7)
    built = lambda dtype, defines=(): dict(defines)          # the compiled kernel, as its defines
    monkeypatch.setattr(frontier, "kernel_for", built)
    calls = []

    def solve(g, host):
        heavy = frontier.kernel_for("int32").get("TFR_HEAVY")
        calls.append(("host" if host else "device", heavy))
        return 7, dict(kernel_ms=2.0 if heavy is None else 5.0, rounds_max=3, threads=128)
    monkeypatch.setattr(frontier, "tuned_frontier", lambda g: solve(g, True))
    monkeypatch.setattr(frontier, "tuned_frontier_resident", lambda g: solve(g, False))
    monkeypatch.setattr(structure_suite, "matches", lambda d, ref: d == ref)
    return SimpleNamespace(calls=calls, frontier=frontier, built=built, structure_suite=structure_suite)


def test_each_variant_checked_then_timed_alternating(tmp_path, fakes):
    assert P.main(["--graphs", "ba:300", "--rounds", "2", "--out", str(tmp_path)]) == 0
    off = P.OFF
    assert fakes.calls == [("host", None), ("host", off),                     # checked once each
                           ("device", None), ("device", off), ("device", off), ("device", None)]
    assert fakes.frontier.kernel_for is fakes.built                          # the launcher's kernel put back
    df = pd.read_csv(tmp_path / "frontier_heavy.csv")
    assert df.variant.tolist() == ["heavy", "off", "off", "heavy"] and (df.n == 300).all()
    assert (df.max_out_degree == df.max_out_degree.iloc[0]).all() and df.max_out_degree.iloc[0] > 32
    assert np.allclose(df[df.variant == "heavy"].kernel_ms, 2.0) and (tmp_path / "frontier_heavy.provenance.json").exists()


def test_a_wrong_result_stops_the_probe(tmp_path, fakes, monkeypatch):
    monkeypatch.setattr(fakes.structure_suite, "matches", lambda d, ref: False)
    with pytest.raises(SystemExit, match="tuned_frontier \\(heavy\\) on ba 300: result differs"):
        P.main(["--graphs", "ba:300", "--out", str(tmp_path)])
    assert fakes.frontier.kernel_for is fakes.built
