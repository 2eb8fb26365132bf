"""The command line's solve: answers written where asked, equal to scipy's."""
import numpy as np
import pytest
from scipy.sparse import csgraph

from apsp_kernels.core import generators as G
from apsp_kernels.__main__ import main
from apsp_kernels.io.formats import read_graph


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
def test_solve_writes_distances_equal_to_scipy(graph_file, tmp_path, suffix, capsys):
    out = tmp_path / f"d{suffix}"
    assert main(["solve", str(graph_file), "-o", str(out), "--predecessors"]) == 0
    want = csgraph.shortest_path(read_graph(graph_file).to_scipy(), method="J")
    if suffix == ".npz":
        z = np.load(out)
        got, pred = z["distances"], z["predecessors"]
        assert pred.shape == got.shape and (np.diagonal(pred) == -9999).all()
    elif suffix == ".npy":
        got = np.load(out)
    else:
        got = np.loadtxt(out, delimiter=",")
    assert np.array_equal(got, want)
    assert "verified against scipy" in capsys.readouterr().out


def test_solve_refuses_an_unknown_output_suffix_before_solving(graph_file, tmp_path, capsys):
    assert main(["solve", str(graph_file), "-o", str(tmp_path / "d.xlsx")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "d.xlsx" in err and len(err.strip().splitlines()) == 1
