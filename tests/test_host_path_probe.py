"""scripts/host_path_probe.py without a GPU: each variant checked once, then timed; --variants keeps some; the rows
and their provenance written."""
import sys

import numpy as np
import pandas as pd

from script_runs import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import host_path_probe as P  # noqa: E402


def test_each_variant_checked_then_timed(tmp_path, monkeypatch):
    from apsp_kernels import gpu_device, structure_suite
    from apsp_kernels.algorithms import reference
    from apsp_kernels.measure import provenance
    calls = []

    from types import SimpleNamespace
    cp = SimpleNamespace(cuda=SimpleNamespace(Device=lambda: SimpleNamespace(synchronize=lambda: None)))
    monkeypatch.setattr(gpu_device, "require_gpu", lambda: cp)
    monkeypatch.setattr(provenance, "collect", lambda *a, **k: {})
    monkeypatch.setattr(reference, "reference_checksum", lambda g: 7)
    monkeypatch.setattr(structure_suite, "matches", lambda d, ref: d == ref)
    monkeypatch.setattr(P, "variants", lambda g, code: {
        v: (lambda v=v: calls.append((code, v)) or 7) for v in ("device", "host", "fresh")})
    assert P.main(["--graphs", "ring:64", "--codes", "a", "b", "--repeats", "2", "--variants", "host", "fresh",
                   "--out", str(tmp_path)]) == 0
    df = pd.read_csv(tmp_path / "host_path.csv")
    assert len(df) == 4 and set(df.variant) == {"host", "fresh"} and (df.n == 64).all()
    assert len(calls) == 4 * 3                                      # a checked call and two timed, each
    assert (tmp_path / "host_path.provenance.json").exists() and np.isfinite(df.median_ms).all()


def test_a_wrong_result_stops_the_probe(monkeypatch):
    from apsp_kernels import gpu_device, structure_suite
    from apsp_kernels.algorithms import reference
    monkeypatch.setattr(gpu_device, "require_gpu", lambda: None)
    monkeypatch.setattr(reference, "reference_checksum", lambda g: 7)
    monkeypatch.setattr(structure_suite, "matches", lambda d, ref: False)
    monkeypatch.setattr(P, "variants", lambda g, code: {"host": lambda: 1})
    try:
        P.main(["--graphs", "ring:64"])
    except SystemExit as e:
        assert "host on ring 64: result differs" in str(e)
    else:
        raise AssertionError("no stop")
