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


@pytest.mark.parametrize("name, text, args, line, field", [
    ("g.csv", "1,2,7\n1,2,,900\n", dict(weight_column=2), 2, "field 2 is empty"),
    ("g.csv", "1,,2\n", {}, 1, "field 1 is empty"),
    ("g.tsv", "1\t2\n1\t\t2\n", {}, 2, "field 1 is empty"),
    ("g.tsv", "1\t2\t\t5\n", dict(weight_column=3), 1, "field 2 is empty"),
    ("g.csv", ",1,2\n", {}, 1, "field 0 is empty"),
    ("g.tsv", "\t1\t2\t5\n", dict(weight_column=2), 1, "field 0 is empty"),        # a leading tab is a column
    ("g.csv", "1,2,\n", {}, 1, "field 2 is empty")])
def test_an_empty_csv_or_tsv_field_is_refused_never_skipped(tmp_path, name, text, args, line, field):
    """Skipping an empty field shifted the columns: '1,2,,900' with weight column 2 took 900, '1,,2' an edge 1 -> 2."""
    p = tmp_path / name
    p.write_text(text)
    with pytest.raises(F.GraphFormatError, match=f"{name}, line {line}: {field}") as e:
        F.read_graph(p, **args)
    assert len(str(e.value).splitlines()) == 1


def test_csv_and_tsv_fields_are_split_at_their_delimiter(tmp_path):
    (tmp_path / "g.csv").write_text("1, 2, 7\n2 ,3,4\n")
    (tmp_path / "g.tsv").write_text("1\t2\t7\n2\t3 \t4\n")
    (tmp_path / "g.txt").write_text("1  2   7\n2 3 4\n")
    graphs = [F.read_graph(tmp_path / n, weight_column=2) for n in ("g.csv", "g.tsv", "g.txt")]
    assert all(same(graphs[0], h) for h in graphs[1:]) and graphs[0].to_dense()[0, 1] == 7


NEGATIVE_LOOPS = [  # (file, text, line, the file's id of the vertex)
    ("g.gr", "p sp 2 2\na 1 2 3\na 2 2 -1\n", 3, "2"),
    ("g.txt", "a b 1\nb b -2\n--END--\n", 2, "b"),
    ("g.snap", "5 6 1\n6 6 -2\n", 2, "6"),
    ("g.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 3\n2 2 -1\n", 4, "2"),
    ("g.mtx", "%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n2 1 3\n2 2 -1\n", 4, "2"),
    ("g.mtx", "%%MatrixMarket matrix array integer general\n2 2\n0\n3\n1\n-1\n", 6, "2")]


@pytest.mark.parametrize("name, text, line, vertex", NEGATIVE_LOOPS)
def test_a_negative_self_loop_in_a_file_is_a_negative_cycle(tmp_path, name, text, line, vertex):
    """Every reader dropped it (a DIMACS 'a 2 2 -1' solved with exit 0); the same graph as a matrix raised."""
    from apsp_kernels import NegativeCycleError
    p = tmp_path / name
    p.write_text(text)
    with pytest.raises(NegativeCycleError, match=f"{name}, line {line}: negative cycle: a self-loop of weight "
                                                 rf"-\d+ at vertex {vertex}$"):
        F.read_graph(p, **(dict(weight_column=2) if name.endswith(".snap") else {}))


def test_a_negative_self_loop_in_an_npz_is_a_negative_cycle(tmp_path):
    from apsp_kernels import NegativeCycleError
    p = tmp_path / "g.npz"
    np.savez(p, n=2, indptr=np.array([0, 1, 2]), indices=np.array([1, 1]), weights=np.array([3, -1]),
             ids=np.array([10, 20]))
    with pytest.raises(NegativeCycleError, match=r"g.npz: weights\[1\]: .*self-loop of weight -1 at vertex 20"):
        F.read_graph(p)


def test_a_non_negative_self_loop_is_still_dropped(tmp_path):
    p = tmp_path / "g.gr"
    p.write_text("p sp 2 2\na 1 2 3\na 2 2 0\n")
    assert F.read_graph(p).m == 1


@pytest.mark.parametrize("symmetry", ["symmetric", "skew-symmetric"])
def test_a_symmetric_mtx_entry_above_the_diagonal_is_refused(tmp_path, symmetry):
    """It was mirrored without a word, where scipy.io.mmread mirrors it and sums it with its twin below."""
    p = tmp_path / "g.mtx"
    p.write_text(f"%%MatrixMarket matrix coordinate integer {symmetry}\n3 3 2\n2 1 7\n1 2 5\n")
    with pytest.raises(F.GraphFormatError, match=f"g.mtx, line 4: entry \\(1, 2\\) is above the diagonal of a "
                                                 f"{symmetry} matrix"):
        F.read_graph(p)
