"""The command line's solve: answers written where asked, equal to scipy's."""
import numpy as np
import pytest
from scipy.sparse import csgraph

from apsp_kernels.core import generators as G
from apsp_kernels.__main__ import main
from apsp_kernels.io.formats import read_graph
from apsp_kernels.io.results import read_result


@pytest.fixture
def graph_file(tmp_path):
    """A DIMACS file with negative and zero-weight edges and unreachable pairs (no negative cycle)."""
    g = G.with_potential(G.kemp(25, 0, 3, 0, 9, seed=4), scale=6, seed=4)
    src, dst, w = g.edges()
    path = tmp_path / "g.gr"
    path.write_text(f"p sp {g.n} {g.m}\n" + "".join(f"a {u + 1} {v + 1} {x}\n" for u, v, x in zip(src, dst, w)))
    assert g.has_negative and (w == 0).any()
    return path


@pytest.mark.parametrize("suffix", [".npz", ".npy", ".csv"])
def test_solve_writes_distances_equal_to_scipy_with_the_ids(graph_file, tmp_path, suffix, capsys):
    out = tmp_path / f"d{suffix}"
    extra = ["--predecessors"] if suffix == ".npz" else []
    assert main(["solve", str(graph_file), "-o", str(out), *extra]) == 0
    want = csgraph.shortest_path(read_graph(graph_file).to_scipy(), method="J")
    got, ids = read_result(out)
    assert np.array_equal(got, want)
    assert [int(x) for x in ids] == list(range(1, want.shape[0] + 1))     # DIMACS ids 1..n, in every output
    if suffix == ".npz":
        z = np.load(out)
        pred = z["predecessors"]
        assert pred.shape == got.shape and (np.diagonal(pred) == -9999).all()
    if suffix == ".npy":
        assert (tmp_path / "d.ids.txt").read_text().split() == [str(i) for i in range(1, want.shape[0] + 1)]
    if suffix == ".csv":
        assert out.read_text().splitlines()[0].split(",")[:3] == ["", "1", "2"]
    assert "verified against scipy" in capsys.readouterr().out


@pytest.mark.parametrize("name, args, words", [
    ("d.xlsx", [], "unknown output suffix"), ("d.txt", [], "unknown output suffix"),
    ("d.csv", ["--predecessors"], "--predecessors needs .npz"), ("d.npy", ["--predecessors"], "--predecessors needs .npz"),
    ("missing/d.npz", [], "does not exist"), ("folder.npz", [], "is a directory")])
def test_solve_refuses_an_unusable_output_before_solving(graph_file, tmp_path, name, args, words, capsys, monkeypatch):
    import apsp_kernels.api as api
    monkeypatch.setattr(api, "shortest_paths", lambda *a, **k: pytest.fail("solved before refusing the output"))
    target = tmp_path / name
    if name == "folder.npz":
        target.mkdir()
    assert main(["solve", str(graph_file), "-o", str(target), *args]) == 1       # 1, as every error
    err = capsys.readouterr().err
    assert err.startswith("error: ") and words in err and len(err.strip().splitlines()) == 1


def test_solve_refuses_an_unwritable_output(graph_file, tmp_path, capsys, monkeypatch):
    import os
    import apsp_kernels.api as api
    locked = tmp_path / "locked"
    locked.mkdir()
    real = os.access
    # the permission answer is the operating system's (root may write anywhere): ask it as a locked folder
    monkeypatch.setattr(os, "access", lambda p, mode: False if str(p) == str(locked) else real(p, mode))
    monkeypatch.setattr(api, "shortest_paths", lambda *a, **k: pytest.fail("solved before refusing the output"))
    assert main(["solve", str(graph_file), "-o", str(locked / "d.npz")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {locked / 'd.npz'}: not writable") and len(err.splitlines()) == 1


@pytest.mark.parametrize("name", ["OUT.NPZ", "Out.Npy", "d.CSV"])
def test_output_is_written_at_exactly_the_path_given(graph_file, tmp_path, name, capsys):
    """numpy adds '.npz' to 'OUT.NPZ' (and '.npy' to 'Out.Npy'): the run said 'written OUT.NPZ' and wrote
    OUT.NPZ.npz."""
    out = tmp_path / name
    assert main(["solve", str(graph_file), "-o", str(out), "--no-verify"]) == 0
    assert out.is_file() and sorted(p.name for p in tmp_path.iterdir()) == sorted(["g.gr", name] + (
        ["Out.ids.txt"] if name == "Out.Npy" else []))
    d, ids = read_result(out)
    assert d.shape == (25, 25) and f"written {out}" in capsys.readouterr().out


@pytest.mark.skipif(not __import__("os").path.isdir("/proc/self"), reason="needs Linux's /proc")
def test_an_output_the_file_system_refuses_is_found_before_the_solve(graph_file, capsys, monkeypatch):
    """os.access says yes to root everywhere; /proc refuses the file all the same, and did so after the solve."""
    import apsp_kernels.api as api
    monkeypatch.setattr(api, "shortest_paths", lambda *a, **k: pytest.fail("solved before refusing the output"))
    assert main(["solve", str(graph_file), "-o", "/proc/x.npz"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: /proc/x.npz: not writable") and len(err.splitlines()) == 1


def test_the_probe_leaves_no_file_and_keeps_an_existing_one(tmp_path):
    from apsp_kernels.io.results import check_output
    check_output(tmp_path / "new.npz")
    assert not (tmp_path / "new.npz").exists()
    (tmp_path / "old.npz").write_bytes(b"kept")
    check_output(tmp_path / "old.npz")
    assert (tmp_path / "old.npz").read_bytes() == b"kept"


@pytest.mark.parametrize("suffix", [".npz", ".npy", ".csv"])
def test_a_write_error_names_the_file(graph_file, tmp_path, suffix, capsys, monkeypatch):
    """A full disk gave '[Errno 28] No space left on device' without the output's name."""
    import builtins
    out = tmp_path / f"d{suffix}"
    real = builtins.open

    def full(file, mode="r", *a, **k):
        if str(file) == str(out) and "w" in mode:
            raise OSError(28, "No space left on device")
        return real(file, mode, *a, **k)
    import apsp_kernels.io.results as R
    monkeypatch.setattr(R, "_probe", lambda t: None)
    monkeypatch.setattr(builtins, "open", full)
    assert main(["solve", str(graph_file), "-o", str(out), "--no-verify"]) == 1
    err = capsys.readouterr().err
    assert err == f"error: {out}: could not write: No space left on device\n"


@pytest.mark.parametrize("method, code", [("D", "dijkstra_cpu_parallel"), ("FW", "fw_blocked_parallel"),
                                          ("BF", "int64_johnson"), ("J", "int64_johnson")])
def test_scipy_method_names_on_the_command_line(graph_file, tmp_path, method, code, capsys):
    """--algorithm D and FW were refused, though shortest_paths takes scipy's names."""
    out = tmp_path / "d.npz"
    rc = main(["solve", str(graph_file), "--algorithm", method, "-o", str(out)])
    text = capsys.readouterr()
    if method == "D":                                # the graph has negative edges: refused as for dijkstra_cpu
        assert rc == 1 and "needs non-negative edge weights" in text.err
        return
    assert rc == 0 and f"{code}, verified against scipy" in text.out
    d, _ = read_result(out)
    assert np.array_equal(d, csgraph.shortest_path(read_graph(graph_file).to_scipy(), method))


def test_an_unknown_algorithm_lists_scipy_names_too(graph_file, capsys):
    assert main(["solve", str(graph_file), "--algorithm", "dijkstra"]) == 1
    err = capsys.readouterr().err
    assert "scipy's FW, D, BF, J" in err and "fw_blocked_parallel" in err and len(err.splitlines()) == 1
