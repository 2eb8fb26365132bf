"""scripts/elimination_gpu_measure.py's host-side pieces of --e2e, without a GPU: which rows a result is checked on,
and the check itself (exact, in the result's own dtype, no path as inf or INF); and that --e2e is an option."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

from apsp_kernels.core.graph import INF

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


@pytest.fixture(scope="module")
def measure():
    import sys
    sys.path.insert(0, str(SCRIPTS))                 # the script imports elimination_measure from its folder
    try:
        spec = importlib.util.spec_from_file_location("elimination_gpu_measure", SCRIPTS / "elimination_gpu_measure.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(str(SCRIPTS))


def test_the_rows_checked(measure):
    assert measure.e2e_rows(measure.E2E_FULL_CHECK) is None                        # every row
    big = measure.e2e_rows(100_000)
    assert big.dtype == np.int64 and big.size == measure.E2E_ROWS and big[0] == 0 and big[-1] == 99_999
    assert np.array_equal(measure.e2e_rows(100_000, [5, 3]), [5, 3])                # the --sample rows
    assert measure.E2E_FULL_CHECK < measure.E2E_HOST_MAX < 100_000                  # 100,000: device only


def test_agrees_is_exact_in_the_results_dtype(measure):
    ref = np.array([[0, 4, INF], [INF, 0, 7], [2, 6, 0]], np.int32)
    f = np.where(ref == INF, np.inf, ref.astype(np.float64))
    assert measure.agrees(f, None, ref) and measure.agrees(ref.copy(), None, ref)
    assert measure.agrees(f, np.array([2, 0]), ref[[2, 0]])
    assert not measure.agrees(f, np.array([0, 2]), ref[[2, 0]])                     # the rows' order counts
    wrong = f.copy()
    wrong[1, 2] += 1
    assert not measure.agrees(wrong, None, ref)
    unreachable = f.copy()
    unreachable[0, 2] = INF                                                         # INF in a float result: a value
    assert not measure.agrees(unreachable, None, ref)
    i = ref.copy()
    i[0, 2] = -1
    assert not measure.agrees(i, None, ref)
    assert not measure.agrees(f[:2], None, ref)                                     # a missing row


class _OnDevice:
    """A result 'on the device': not a numpy array, indexed and brought back as a CuPy array is."""
    def __init__(self, a):
        self.a = a
        self.dtype = a.dtype

    def __getitem__(self, i):
        return _OnDevice(self.a[i])

    def get(self):
        return self.a


class _FakeCupy:
    asarray = staticmethod(np.asarray)

    class cuda:
        class Device:
            def synchronize(self):
                pass

    @staticmethod
    def get_default_memory_pool():
        class Pool:
            def free_all_blocks(self):
                pass
        return Pool()


def _run_e2e(measure, monkeypatch, g, off_by_one=None, against="tuned_frontier", auto=False):
    """e2e() with shortest_paths answering from scipy (device=True: a device-like array), the calls recorded;
    ``off_by_one``: (method, device) whose result is one cell wrong; ``against``: the other code (None: alone)."""
    import sys
    from scipy.sparse import csgraph
    monkeypatch.setitem(sys.modules, "cupy", _FakeCupy)
    calls = []

    def shortest_paths(g, method, device=False, dtype=np.float64):
        calls.append((method, device, np.dtype(dtype).name))
        d = csgraph.dijkstra(g.to_scipy())
        d = np.where(np.isinf(d), np.inf if np.dtype(dtype).kind == "f" else INF, d).astype(dtype)
        if (method, device) == off_by_one:
            d[0, 1] += 1                                                  # a reachable pair of the tree
        return _OnDevice(d) if device else d
    monkeypatch.setattr(measure.ak, "shortest_paths", shortest_paths)
    text, ok, nums = measure.e2e(g, 2, None, against, auto)
    shown = [c.split(" ")[0] for c in text.split(" | ")]
    for method, i in (("tuned_elimination", 0), (against, 2)):           # the CSV's numbers are the printed ones
        if method:
            host = nums[f"{method}_e2e_host_ms"]
            assert (np.isnan(host) and shown[i] == "skipped") or f"{host:.1f}" == shown[i]
            assert f"{nums[f'{method}_e2e_device_ms']:.1f}" == shown[i + 1]
    return text.split(" | "), ok, calls


def test_auto_is_timed_beside_them_with_its_picks(measure, monkeypatch):
    """--auto: method='auto''s two calls after the codes', each column showing what choose() picked for that
    result, and a wrong auto result fails the row as any other does."""
    import types
    import elimination_graphs as EG
    g = EG.forest()
    asked = []

    def choose(g, result=None):
        asked.append(result)
        return types.SimpleNamespace(algorithm=types.SimpleNamespace(
            name="tuned_elimination" if result == "device" else "tuned_frontier"))
    monkeypatch.setattr(measure.choice, "choose", choose)
    cols, ok, calls = _run_e2e(measure, monkeypatch, g, auto=True)
    assert ok and len(cols) == 6 and asked == ["host", "device"]
    assert cols[4].endswith("[tuned_frontier]") and cols[5].endswith("(float64) [tuned_elimination]")
    assert [c for c in calls if c[0] == "auto"] == [("auto", dev, "float64") for dev in (False, True) for _ in range(3)]
    assert not _run_e2e(measure, monkeypatch, g, off_by_one=("auto", True), auto=True)[1]
    cols, ok, _ = _run_e2e(measure, monkeypatch, g, against=None, auto=True)
    assert ok and cols[2:4] == ["-", "-"] and cols[4].endswith("[tuned_frontier]")


def test_e2e_times_and_checks_each_call(measure, monkeypatch):
    """Both codes' host and device calls, each warm and twice (repeats 2), every result checked: one wrong cell in
    any of them makes the row's verdict False; above E2E_HOST_MAX the host call is skipped and device=True asks
    for int32."""
    import elimination_graphs as EG
    g = EG.forest()                                                   # unreachable pairs
    cols, ok, calls = _run_e2e(measure, monkeypatch, g)
    assert ok and len(cols) == 4 and all(c.replace(" (float64)", "").replace(".", "").isdigit() for c in cols)
    assert calls == [(m, dev, "float64") for m in ("tuned_elimination", "tuned_frontier") for dev in (False, True)
                     for _ in range(3)]
    for wrong in [(m, dev) for m in ("tuned_elimination", "tuned_frontier") for dev in (False, True)]:
        assert not _run_e2e(measure, monkeypatch, g, off_by_one=wrong)[1], wrong
    cols, ok, calls = _run_e2e(measure, monkeypatch, g, against=None)
    assert ok and cols[2:] == ["-", "-"] and {c[0] for c in calls} == {"tuned_elimination"}
    cols, ok, calls = _run_e2e(measure, monkeypatch, g, against="tuned_deep")          # the deep graphs' rows
    assert ok and len(cols) == 4 and [c[0] for c in calls[::3]] == ["tuned_elimination"] * 2 + ["tuned_deep"] * 2
    monkeypatch.setattr(measure, "E2E_HOST_MAX", g.n - 1)
    cols, ok, calls = _run_e2e(measure, monkeypatch, g)
    assert ok and cols[0] == cols[2] == "skipped (n x n float64 on the host)" and cols[1].endswith("(int32)")
    assert {c[1:] for c in calls} == {(True, "int32")}
    assert not _run_e2e(measure, monkeypatch, g, off_by_one=("tuned_elimination", True))[1]


def test_e2e_is_an_option():
    from script_runs import run_script
    r = run_script(SCRIPTS / "elimination_gpu_measure.py", "--help", timeout=120)
    assert r.returncode == 0 and "--e2e" in r.stdout, r.stderr[-2000:]


def test_out_writes_the_rows_and_their_provenance(measure, tmp_path):
    import json
    import pandas as pd
    rows = [dict(graph="grid 2 x 2", n=4, kernel_ms=1.5, verified=True), dict(graph="kNN6 4", n=4, kernel_ms=2.5, verified=False)]
    out = tmp_path / "elim.csv"
    measure.write(rows, out, {"sizes": [4]})
    back = pd.read_csv(out)
    assert back["kernel_ms"].tolist() == [1.5, 2.5] and back["verified"].tolist() == [True, False]
    prov = json.loads((tmp_path / "elim.provenance.json").read_text())
    assert prov["profile"] == "elimination_gpu_measure" and prov["parameters"] == {"sizes": [4]} and "git_commit" in prov


def test_the_knn_stand_in_weighs_each_edge_its_euclidean_length(measure):
    """Every stored edge of the road-like stand-in is its endpoints' distance (x 10^4, rounded), both ways, once:
    mutual nearest neighbours are not summed to twice their length."""
    import elimination_measure as EM
    from scipy.spatial import cKDTree  # noqa: F401  (the generator's own dependency)
    n = 500
    a = EM.knn(n).tocoo()
    pts = np.random.default_rng(0).random((n, 2))
    want = np.maximum(1, np.rint(np.linalg.norm(pts[a.row] - pts[a.col], axis=1) * 1e4))
    assert np.array_equal(a.data, want) and (abs(a - a.T)).nnz == 0
    deg = np.diff(EM.knn(n).indptr)
    assert deg.min() >= 6 and a.nnz < 2 * 6 * n                    # each chose 6; mutual choices stored once
