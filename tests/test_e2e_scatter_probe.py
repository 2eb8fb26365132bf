"""scripts/e2e_scatter_probe.py without a GPU: every code and mode once a round after a checked warm call, and
auto's rows naming the code auto runs in each mode."""
import sys
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from script_runs import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import e2e_scatter_probe as P  # noqa: E402


@pytest.fixture
def no_gpu(monkeypatch):
    """The probe without a GPU: no device asked for, no provenance collected, every result its reference's."""
    from apsp_kernels import gpu_device, structure_suite
    from apsp_kernels.algorithms import reference
    from apsp_kernels.measure import provenance
    monkeypatch.setattr(gpu_device, "require_gpu", lambda: None)
    monkeypatch.setattr(provenance, "collect", lambda *a, **k: {})
    monkeypatch.setattr(reference, "reference_checksum", lambda g: 7)
    monkeypatch.setattr(structure_suite, "_checksum", lambda d: 7)


def test_rounds_checks_and_autos_pick_per_mode(tmp_path, monkeypatch, no_gpu):
    from apsp_kernels import api
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
    assert auto[(0, "e2e_device_ms")] == "code-for-device" and auto[(1, "e2e_int32_ms")] == "code-for-int32"
    assert (df[df.code == "x"].picked == "").all()


def test_modes_and_the_crossing_rows(tmp_path, monkeypatch, no_gpu):
    """--modes times only those; --crossing writes each code's median per mode as the crossing rows' columns."""
    from apsp_kernels import api
    from apsp_kernels.measure import wall
    monkeypatch.setattr(api, "shortest_paths", lambda g, method, **kw: np.zeros((1, 1)))
    monkeypatch.setattr(api, "choose", lambda g, result=None: SimpleNamespace(
        algorithm=SimpleNamespace(name=f"code-for-{result}"), variant=None))
    times = iter([30.0, 10.0, 20.0, 12.0, 40.0, 11.0])                 # round by round: a, b
    monkeypatch.setattr(wall, "median_ms", lambda fn, repeats=1, **kw: (next(times), None))
    assert P.main(["--graphs", "ring", "--sizes", "64", "--codes", "a", "b", "--rounds", "3", "--modes", "int32",
                   "--crossing", "--out", str(tmp_path)]) == 0
    df = pd.read_csv(tmp_path / "e2e_scatter.csv")
    assert set(df["mode"]) == {"e2e_int32_ms"} and len(df) == 6
    c = pd.read_csv(tmp_path / "crossing.csv").iloc[0]
    assert c.graph == "ring 64" and c.n == 64 and c.m == 128 and c.rounds == 3 and bool(c.e2e_verified)
    assert c.a_e2e_int32_ms == 30.0 and c.b_e2e_int32_ms == 11.0 and "a_e2e_host_ms" not in c


def test_graphs_named_with_a_size_are_taken_at_it_only():
    assert P.specs(["grid", "knn:8000", "helsinki-walk:0"], [16, 32]) == [
        ("grid", 16), ("grid", 32), ("knn", 8000), ("helsinki-walk", 0)]


def test_rotated_rounds_put_each_code_in_each_place():
    from apsp_kernels.measure.rounds import order
    codes = ["a", "b", "auto"]
    assert order(codes, 4) == codes
    rounds = [order(codes, r, "rotate") for r in range(6)]
    assert rounds[:3] == [["a", "b", "auto"], ["b", "auto", "a"], ["auto", "a", "b"]] and rounds[3:] == rounds[:3]
    assert all(sorted(rd[i] for rd in rounds[:3]) == sorted(codes) for i in range(3))    # each place, each code
    assert order([], 2, "rotate") == []


def test_the_rows_say_each_calls_place_in_its_round(tmp_path, monkeypatch, no_gpu):
    from apsp_kernels import api
    monkeypatch.setattr(api, "shortest_paths", lambda g, method, **kw: np.zeros((1, 1)))
    assert P.main(["--graphs", "ring", "--sizes", "64", "--codes", "a", "b", "--rounds", "2", "--modes", "host",
                   "--order", "rotate", "--out", str(tmp_path)]) == 0
    df = pd.read_csv(tmp_path / "e2e_scatter.csv")
    assert list(zip(df["round"], df.code, df.position)) == [(0, "a", 0), (0, "b", 1), (1, "b", 0), (1, "a", 1)]
