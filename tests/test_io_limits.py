"""Graph input and output where the corpus (test_io_corpus.py) does not already show it: the Python
API refuses what does not fit, SNAP's ids, the MatrixMarket duplicate policy, one pass over pipes,
memory and time checked before allocating, and the command line's pipe and flag behaviour."""
import os
import subprocess
import sys
import threading
import warnings
from pathlib import Path

import numpy as np
import pytest

import apsp_kernels as ak
from apsp_kernels.__main__ import main
from apsp_kernels.core.memory import HostMemoryError
from apsp_kernels.io import formats as F
from apsp_kernels.io.results import read_result

ROOT = Path(__file__).resolve().parents[1]
MAX = ak.MAX_PATH_WEIGHT


# ------------------------------------------------------------ no silent wrong answers
@pytest.mark.parametrize("matrix", [np.array([[0, 2**63], [1, 0]], dtype=np.uint64),
                                    np.array([[0, 2**64 - 1], [1, 0]], dtype=np.uint64)])
def test_huge_weights_are_refused_not_wrapped(matrix):
    with pytest.raises(ak.GraphError, match=r"MAX_PATH_WEIGHT64.*matrix entry \[0, 1\]"):
        ak.shortest_paths(matrix)


def test_weights_past_the_int32_bound_are_exact_not_refused():
    """Beyond int32, integers get exact int64 distances and float input scipy's float64 answer."""
    d = ak.shortest_paths(np.array([[0, MAX + 1], [1, 0]], dtype=np.int64), dtype=np.int64)
    assert d.tolist() == [[0, MAX + 1], [1, 0]]
    assert ak.shortest_paths(np.array([[0, 1e20], [1, 0]])).tolist() == [[0, 1e20], [1, 0]]
    with pytest.raises(ak.GraphError, match=r"MAX_PATH_WEIGHT.*matrix entry \[0, 1\]"):    # the study's graphs
        ak.Graph.from_dense(np.array([[0, MAX + 1], [1, 0]], dtype=np.int64))


def test_python_ints_beyond_int64_are_refused():
    with pytest.raises(ak.GraphError, match="more than int64"):
        ak.Graph.from_edges(2, [0], [1], [2**70])
    with pytest.raises(ak.GraphError, match="not an integer"):
        ak.Graph.from_edges(3, np.array([0.0]), np.array([1.7]), [1])       # an index is never truncated


def test_snap_ids_are_the_files_integers(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("2 0\n0 1\n01 2\n")                      # 01 is 1
    g = F.read_graph(p)
    assert g.ids.tolist() == [0, 1, 2] and g.ids_are_positions
    d = ak.shortest_paths(g)
    assert d[0, 2] == 2 and d[2, 0] == 1 and d[1, 0] == 2    # by id: 0->1->2, 2->0, 1->2->0


def test_mtx_duplicates_keep_the_least_and_say_so(tmp_path):
    p = tmp_path / "d.mtx"
    p.write_text("%%MatrixMarket matrix coordinate integer general\n2 2 3\n1 2 5\n1 2 3\n2 1 1\n")
    with pytest.warns(F.GraphFormatWarning, match="least weight of each is kept.*would sum"):
        g = F.read_mtx(p)
    assert g.to_dense()[0, 1] == 3 and g.meta["notes"] and g.meta["duplicates"] == 1


def test_rounding_cannot_hide_a_fraction(tmp_path):
    # float('3.0000000000000001') == 3.0: the readers keep the token exact (Decimal) instead
    p = tmp_path / "g.gr"
    p.write_text("p sp 2 1\na 1 2 3.0000000000000001\n")
    with pytest.raises(F.GraphFormatError, match="line 2: .*not an integer"):
        F.read_graph(p)


# ------------------------------------------------------------ one pass: pipes and FIFOs
@pytest.mark.parametrize("suffix, text", [
    (".gr", "p sp 3 2\na 1 2 5\na 2 3 1\n"), (".txt", "0 1 5\n1 2 1\n"), (".txt", "a b 5\nb c 1\n--END--\n"),
    (".mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 5\n2 3 1\n"), (".npz", None)])
def test_a_fifo_is_read_once(tmp_path, suffix, text):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    if text is None:
        src = tmp_path / "src.npz"
        F.save_npz(ak.Graph.from_edges(3, [0, 1], [1, 2], [5, 1]), src)
        data = src.read_bytes()
    else:
        data = text.encode()
    fifo = tmp_path / f"pipe{suffix}"
    kw = ", weight_column=2" if text and text[0] == "0" else ""
    os.mkfifo(fifo)

    def feed():                                  # one writer: a second open for reading would block
        with open(fifo, "wb") as f:
            f.write(data)
    t = threading.Thread(target=feed, daemon=True)
    t.start()
    out = subprocess.run([sys.executable, "-c", f"from apsp_kernels.io.formats import read_graph; "
                          f"print(read_graph({str(fifo)!r}{kw}).to_dense()[0].tolist())"],
                         capture_output=True, text=True, timeout=60, env=_env())
    t.join(5)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[0] == f"[0, 5, {int(ak.INF)}]"


def test_process_substitution(tmp_path):
    p = tmp_path / "g.gr"
    p.write_text("p sp 3 2\na 1 2 5\na 2 3 1\n")
    cmd = f"{sys.executable} -m apsp_kernels solve <(cat {p}) --format dimacs --print-max 0"
    out = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120, env=_env())
    assert out.returncode == 0 and "verified against scipy" in out.stdout, out.stderr


# ------------------------------------------------------------ memory and time before allocating
def test_memory_is_checked_before_allocating(monkeypatch):
    g = ak.Graph.from_edges(10**6, [0], [1], [3])
    monkeypatch.setattr(np, "empty", lambda *a, **k: pytest.fail("allocated before the memory check"))
    with pytest.raises(HostMemoryError, match="host memory"):
        ak.shortest_paths(g, method="fw_sequential")


def test_a_huge_declared_n_is_one_line(tmp_path, capsys):
    p = tmp_path / "g.gr"
    p.write_text("p sp 1000000 1\na 1 2 1\n")
    assert main(["solve", str(p)]) == 1
    out, err = capsys.readouterr()
    assert err.startswith(f"error: {p}: ") and "host memory" in err and len(err.splitlines()) == 1
    assert "auto:" not in out                          # no prediction printed for a run that cannot start


def test_time_is_checked_before_solving(tmp_path, capsys, monkeypatch):
    from apsp_kernels import costs
    p = tmp_path / "g.gr"
    p.write_text("p sp 3 1\na 1 2 1\n")
    slow = costs.Prediction("fw_sequential", None, 3.6e6 * 100, 1e9, 1024, "test")
    monkeypatch.setattr(costs, "predict", lambda *a, **k: slow)
    assert main(["solve", str(p), "--algorithm", "fw_sequential"]) == 1
    err = capsys.readouterr().err
    assert "predicted to take 100 hours" in err and "--max-hours" in err
    assert main(["solve", str(p), "--algorithm", "fw_sequential", "--max-hours", "1000"]) == 0


# ------------------------------------------------------------ the command line
def _env():
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def test_list_into_a_closed_pipe_is_quiet():
    out = subprocess.run(["bash", "-c", f"set -o pipefail; {sys.executable} -m apsp_kernels list | head -1"],
                         capture_output=True, text=True, timeout=120, env=_env())
    assert out.returncode == 0 and out.stderr == "" and len(out.stdout.splitlines()) == 1


def test_an_unsuitable_algorithm_names_the_cli_flag(tmp_path, capsys):
    p = tmp_path / "g.gr"
    p.write_text("p sp 2 1\na 1 2 -1\n")
    assert main(["solve", str(p), "--algorithm", "dijkstra_cpu"]) == 1
    err = capsys.readouterr().err
    assert "--algorithm auto" in err and "method=" not in err


def test_the_int32_refusal_says_which_dtype_takes_the_graph(tmp_path, capsys):
    p = tmp_path / "g.gr"
    p.write_text("p sp 3 2\na 1 2 300000000\na 2 3 300000000\n")
    assert main(["solve", str(p)]) == 1
    err = capsys.readouterr().err
    assert "600000000" in err and "needs int64" in err and "scipy.sparse.csgraph.shortest_path" in err


def test_outputs_carry_snap_ids_and_hochberg_names(tmp_path, capsys):
    snap = tmp_path / "g.txt"
    snap.write_text("100 7\n7 5000\n")
    for suffix in (".npz", ".csv", ".npy"):
        out = tmp_path / f"d{suffix}"
        assert main(["solve", str(snap), "-o", str(out)]) == 0
        d, ids = read_result(out)
        assert [int(x) for x in ids] == [7, 100, 5000] and d[1, 2] == 2 and np.isinf(d[2, 1])
    hb = tmp_path / "h.txt"
    hb.write_text("x y 4\n--END--\n")
    assert main(["solve", str(hb), "-o", str(tmp_path / "h.csv")]) == 0
    assert (tmp_path / "h.csv").read_text().splitlines()[:2] == [",x,y", "x,0,4"]
    assert "vertex ids: 7 100 5000" in capsys.readouterr().out


def test_npy_of_positions_needs_no_ids_file(tmp_path):
    g = tmp_path / "g.npz"
    F.save_npz(ak.Graph.from_edges(2, [0], [1], [3]), g)
    (tmp_path / "d.ids.txt").write_text("7\n9\n")          # left by an earlier run on another graph
    assert main(["solve", str(g), "-o", str(tmp_path / "d.npy")]) == 0
    assert not (tmp_path / "d.ids.txt").exists()
    assert read_result(tmp_path / "d.npy")[1].tolist() == [0, 1]


def test_warnings_are_not_errors_in_python(tmp_path):
    p = tmp_path / "ok.gr"
    p.write_text("p sp 2 2\na 1 2 5\na 1 2 3\n")           # parallel arcs in DIMACS: the lightest, no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert F.read_graph(p).to_dense()[0, 1] == 3


def test_device_memory_is_checked_before_a_gpu_code_runs(monkeypatch):
    from apsp_kernels import gpu_device
    from apsp_kernels.algorithms import registry
    monkeypatch.setattr(gpu_device, "available", lambda: True)
    monkeypatch.setattr(gpu_device, "free_bytes", lambda: (1000, 2000))
    algo = registry.get("katz_kider")
    monkeypatch.setattr(type(algo), "run", lambda *a, **k: pytest.fail("launched before the device check"))
    with pytest.raises(gpu_device.GPUMemoryError, match="katz_kider: needs"):
        ak.shortest_paths(ak.Graph.from_edges(100, [0], [1], [1]), method="katz_kider")


def test_a_huge_n_is_refused_before_its_ids_are_allocated(tmp_path, monkeypatch):
    from apsp_kernels.core import memory
    monkeypatch.setattr(memory, "available_bytes", lambda: 10**6)
    p = tmp_path / "g.gr"
    p.write_text("p sp 100000 0\n")
    with pytest.raises(HostMemoryError, match="100000 vertices needs .* host memory"):
        F.read_graph(p)
