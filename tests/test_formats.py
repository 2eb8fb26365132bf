import gzip

import numpy as np
import pytest

from apsp_kernels import Graph
from apsp_kernels.core import generators as G
from apsp_kernels.io import formats as F


@pytest.fixture
def g():
    return G.kemp(60, 1, 4, 0, 50, seed=9)


def same(a: Graph, b: Graph):
    return np.array_equal(a.to_dense(), b.to_dense())


@pytest.mark.parametrize("suffix, write, read", [
    (".txt", F.write_hochberg, F.read_hochberg), (".gr", F.write_dimacs, F.read_dimacs),
    (".mtx", F.write_mtx, F.read_mtx), (".npz", F.save_npz, F.load_npz)])
def test_round_trip(tmp_path, g, suffix, write, read):
    p = tmp_path / f"g{suffix}"
    write(g, p)
    h = read(p)
    # Hochberg names vertices by first appearance; isolated vertices vanish, so compare by names
    if suffix == ".txt":
        idx = np.array([int(x) for x in h.names])
        assert np.array_equal(h.to_dense(), g.to_dense()[np.ix_(idx, idx)])
    else:
        assert same(g, h)
    assert same(h, F.read_graph(p))


def test_hochberg_names_and_end(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("alpha beta 3\nbeta gamma 4\n--END--\n")
    h = F.read_hochberg(p)
    assert h.names == ("alpha", "beta", "gamma") and h.to_dense()[0, 1] == 3


@pytest.mark.parametrize("text, line, what", [
    ("a b 3\na b\n--END--\n", 2, "expected 'V W length'"),
    ("a b 3\nb c x\n--END--\n", 2, "not an integer"),
    ("a b 3\n--END--\nc d 1\n", 3, "after the --END--"),
])
def test_hochberg_errors_name_file_and_line(tmp_path, text, line, what):
    p = tmp_path / "bad.txt"
    p.write_text(text)
    with pytest.raises(F.GraphFormatError) as e:
        F.read_hochberg(p)
    assert e.value.line == line and what in str(e.value) and "bad.txt" in str(e.value)


def test_hochberg_missing_end(tmp_path):
    p = tmp_path / "trunc.txt"
    p.write_text("a b 1\n")
    with pytest.raises(F.GraphFormatError, match="--END--"):
        F.read_hochberg(p)


@pytest.mark.parametrize("text, line, what", [
    ("p sp 2 1\na 1 3 5\n", 2, "out of range"),
    ("a 1 2 5\n", 1, "before the 'p sp"),
    ("p sp 2 1\nx 1 2\n", 2, "unknown line type"),
    ("p sp 2 2\na 1 2 5\n", None, "header says 2 arcs"),
])
def test_dimacs_errors(tmp_path, text, line, what):
    p = tmp_path / "bad.gr"
    p.write_text(text)
    with pytest.raises(F.GraphFormatError) as e:
        F.read_dimacs(p)
    assert e.value.line == line and what in str(e.value)


def test_snap_gz_and_errors(tmp_path):
    p = tmp_path / "edges.txt.gz"
    with gzip.open(p, "wt") as f:
        f.write("# comment\n10 20\n20 30\n")
    g = F.read_snap(p, undirected=True)
    assert g.n == 3 and g.m == 4
    bad = tmp_path / "bad.txt"
    bad.write_text("# c\n1 2\n1 x\n")
    with pytest.raises(F.GraphFormatError) as e:
        F.read_snap(bad)
    assert e.value.line == 3


def test_missing_file():
    with pytest.raises(FileNotFoundError):
        F.read_hochberg("/nonexistent/graph.txt")


def test_dot_export(tmp_path, g):
    p = tmp_path / "g.dot"
    F.write_dot(g, p)
    assert p.read_text().startswith("digraph") and "->" in p.read_text()


def test_standard_input_is_a_file_too(monkeypatch):
    import io
    import sys
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"p sp 2 1\na 1 2 4\n")))
    g = F.read_graph("-", "dimacs")
    assert g.ids.tolist() == [1, 2] and g.to_dense()[0, 1] == 4


def test_snap_round_trip_keeps_the_ids(tmp_path):
    g = Graph.from_edges(3, [0, 1], [1, 2], [4, 5], names=np.array([10, 3, 77]))
    F.write_snap(g, tmp_path / "g.snap")
    h = F.read_snap(tmp_path / "g.snap", weight_column=2)
    assert h.ids.tolist() == [3, 10, 77]
    d = dict(zip(zip(*(h.ids[x].tolist() for x in h.edges()[:2])), h.weights.tolist()))
    assert d == {(10, 3): 4, (3, 77): 5}
