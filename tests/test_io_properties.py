"""Property-based tests of graph input and output (hypothesis): generated graphs written in every format
and read back give scipy's distances, vertex by vertex id; random bytes and random near-miss text in every
format give an answer or exactly one error line with exit code 1, never a traceback."""
import gzip
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings, strategies as st
from scipy.sparse import csgraph

import apsp_kernels as ak
from apsp_kernels.__main__ import main
from apsp_kernels.io import formats as F

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def graphs(draw):
    """Up to 7 vertices with SNAP-style integer ids and weights -20..20: both answers and negative
    cycles come up."""
    n = draw(st.integers(1, 7))
    ids = sorted(draw(st.sets(st.integers(0, 10**12), min_size=n, max_size=n)))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(-20, 20)), max_size=15))
    edges = [(u, v, abs(w) if u == v else w) for u, v, w in edges]      # a negative self-loop is refused on building
    return ak.Graph.from_edges(n, [e[0] for e in edges], [e[1] for e in edges], [e[2] for e in edges],
                               names=np.array(ids))


def scipy_or_cycle(g):
    try:
        return csgraph.shortest_path(g.to_scipy(), method="J"), None
    except csgraph.NegativeCycleError:
        return None, "cycle"


def ours_or_cycle(g):
    try:
        return ak.shortest_paths(g, method="fw_sequential"), None
    except ak.NegativeCycleError:
        return None, "cycle"


WRITE = {"hochberg": (".txt", F.write_hochberg), "dimacs": (".gr", F.write_dimacs), "snap": (".snap", F.write_snap),
         "mtx": (".mtx", F.write_mtx), "npz": (".npz", F.save_npz)}


def original_position(g, h, fmt):
    """For each vertex of the read graph ``h``, its position in ``g``: by id where the format keeps
    the ids (SNAP, .npz, Hochberg's names), by position + 1 where its ids are 1..n (DIMACS, MTX)."""
    if fmt in ("dimacs", "mtx"):
        assert h.ids.tolist() == list(range(1, g.n + 1))
        return np.arange(g.n)
    where = {str(x): i for i, x in enumerate(g.ids.tolist())}
    return np.array([where[str(x)] for x in h.ids.tolist()], dtype=np.int64)


@FAST
@given(g=graphs(), fmt=st.sampled_from(sorted(WRITE)), gz=st.booleans())
def test_write_read_solve_equals_scipy(tmp_path_factory, g, fmt, gz):
    suffix, write = WRITE[fmt]
    if fmt == "snap" and g.m == 0:
        return                                    # an edge list without edges is refused ("no edges")
    path = Path(tmp_path_factory.mktemp("rt")) / f"g{suffix}"
    write(g, path)
    if gz and fmt != "npz":                       # SNAP publishes .gz; every text reader takes it
        path = path.with_name(path.name + ".gz")
        path.write_bytes(gzip.compress(path.with_name(path.name[:-3]).read_bytes()))
    h = F.read_graph(path, weight_column=2) if fmt == "snap" else F.read_graph(path)
    pos = original_position(g, h, fmt)
    want, want_cycle = scipy_or_cycle(g)
    got, got_cycle = ours_or_cycle(h)
    assert got_cycle == want_cycle
    if want is not None:
        assert np.array_equal(got, want[np.ix_(pos, pos)])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(g=graphs())
def test_cli_output_ids_match_scipy(tmp_path_factory, g):
    from apsp_kernels.io.results import read_result
    d = Path(tmp_path_factory.mktemp("cli"))
    F.save_npz(g, d / "g.npz")
    rc = main(["solve", str(d / "g.npz"), "-o", str(d / "out.csv"), "--print-max", "0"])
    want, cycle = scipy_or_cycle(g)
    assert rc == (1 if cycle else 0)
    if not cycle:
        got, ids = read_result(d / "out.csv")
        assert [int(x) for x in ids] == g.ids.tolist() and np.array_equal(got, want)


def one_line_or_answer(path, capsys, rc):
    out, err = capsys.readouterr()
    assert rc in (0, 1) and "Traceback" not in out + err
    if rc == 1:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {path}"), err


SUFFIXES = [".gr", ".txt", ".snap", ".csv", ".mtx", ".npz", ".txt.gz", ".gr.gz"]


@FAST
@given(data=st.binary(max_size=300), suffix=st.sampled_from(SUFFIXES))
def test_garbage_bytes_give_one_line(tmp_path_factory, capsys, data, suffix):
    path = Path(tmp_path_factory.mktemp("junk")) / f"g{suffix}"
    path.write_bytes(data)
    one_line_or_answer(path, capsys, main(["solve", str(path), "--print-max", "0"]))


# near-miss text: the tokens each format is made of, in random order and number
TOKENS = ["p", "sp", "a", "c", "1", "2", "3", "0", "-1", "01", "4.5", "1e20", "nan", "inf", "x", "#", "--END--",
          "--end--", "%%MatrixMarket", "matrix", "coordinate", "array", "integer", "real", "pattern", "general",
          "symmetric", "skew-symmetric", "%", "\u00b2", "\u0663", "9223372036854775808", "\ufeff", ","]
lines = st.lists(st.sampled_from(TOKENS), max_size=6).map(" ".join)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.lists(lines, max_size=8).map("\n".join), suffix=st.sampled_from(SUFFIXES[:5]),
       header=st.sampled_from(["", "p sp 3 2\n", "%%MatrixMarket matrix coordinate integer general\n3 3 2\n"]))
def test_near_miss_text_gives_an_answer_or_one_line(tmp_path_factory, capsys, text, suffix, header):
    path = Path(tmp_path_factory.mktemp("text")) / f"g{suffix}"
    path.write_text(header + text, encoding="utf-8")
    one_line_or_answer(path, capsys, main(["solve", str(path), "--print-max", "0"]))


@FAST
@given(arrays=st.fixed_dictionaries({
    "n": st.sampled_from([np.int64(3), np.float64(3), np.array([3]), np.int64(-1), np.uint64(2**64 - 1)]),
    "indptr": st.sampled_from([np.array([0, 1, 2, 2]), np.array([0, 2, 1, 2]), np.array([0.0, 1.5, 2, 2])]),
    "indices": st.sampled_from([np.array([1, 2]), np.array([1.7, 2.0]), np.array([5, -1]), np.array(["1", "2"])]),
    "weights": st.sampled_from([np.array([5, 1]), np.array([1e20, 1]), np.array([np.nan, 1]),
                                np.array([2**64 - 1, 1], dtype=np.uint64), np.array([[1, 2]])])}))
def test_npz_arrays_of_any_kind_give_an_answer_or_one_line(tmp_path_factory, capsys, arrays):
    path = Path(tmp_path_factory.mktemp("npz")) / "g.npz"
    np.savez(path, **arrays)
    one_line_or_answer(path, capsys, main(["solve", str(path), "--print-max", "0"]))
