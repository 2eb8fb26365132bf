"""scripts/e2e_scatter_probe.py without a GPU: every code and mode once a round after a checked warm call, and
auto's rows naming the code auto runs in each mode."""
import sys
from types import SimpleNamespace

import numpy as np
import pandas as pd

from script_runs import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import e2e_scatter_probe as P  # noqa: E402


def test_rounds_checks_and_autos_pick_per_mode(tmp_path, monkeypatch):
    from apsp_kernels import api, gpu_device, structure_suite
    from apsp_kernels.algorithms import reference
    from apsp_kernels.measure import provenance
    monkeypatch.setattr(gpu_device, "require_gpu", lambda: None)
    monkeypatch.setattr(provenance, "collect", lambda *a, **k: {})
    monkeypatch.setattr(reference, "reference_checksum", lambda g: 7)
    monkeypatch.setattr(structure_suite, "_checksum", lambda d: 7)
    calls = []

    class Result(np.ndarray):
        def get(self):
            return self
    monkeypatch.setattr(api, "shortest_paths", lambda g, method, **kw: calls.append((method, tuple(kw))) or
                        np.zeros((1, 1)).view(Result))
    monkeypatch.setattr(api, "choose", lambda g, result=None: SimpleNamespace(
        algorithm=SimpleNamespace(name=f"code-for-{result}"), variant=None))
    assert P.main(["--graphs", "ring", "--sizes", "64", "--codes", "x", "auto", "--rounds", "2",
                   "--out", str(tmp_path)]) == 0
    df = pd.read_csv(tmp_path / "e2e_scatter.csv").fillna("")
    assert len(df) == 2 * 2 * 3 and len(calls) == 2 * 3 + len(df)            # a checked warm call per code and mode
    auto = df[df.code == "auto"].set_index(["round", "mode"]).picked
    assert auto[(0, "e2e_device_ms")] == "code-for-device" and auto[(1, "e2e_int32_ms")] == "code-for-host"
    assert (df[df.code == "x"].picked == "").all()
