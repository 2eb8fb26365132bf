"""Random graphs written in every format, then mutated as real files are (comments, blank lines, CRLF line ends,
a byte-order mark, an empty CSV/TSV field, a negative self-loop), read back: the same graph vertex by vertex id,
or the one refusal each mutation must give, naming the file and the line."""
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import apsp_kernels as ak
from apsp_kernels.io import formats as F

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
COMMENT = {"dimacs": "c a comment", "snap": "# a comment", "mtx": "% a comment"}   # Hochberg's format has none


@st.composite
def graphs(draw):
    """Up to 6 vertices with SNAP-style ids, weights -20..20 (self-loops of weight 0 or more only: a negative one
    is a mutation of its own)."""
    n = draw(st.integers(1, 6))
    ids = sorted(draw(st.sets(st.integers(0, 10**12), min_size=n, max_size=n)))
    e = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(-20, 20)),
                      min_size=1, max_size=12))
    e = [(u, v, abs(w) if u == v else w) for u, v, w in e]
    assume(any(u != v for u, v, _ in e))           # an edge list of self-loops alone is an empty SNAP file
    return ak.Graph.from_edges(n, *(np.array(x) for x in zip(*e)), names=np.array(ids))


def snap_text(g, sep):
    ids = g.ids
    s, d, w = g.edges()
    return "".join(f"{ids[a]}{sep}{ids[b]}{sep}{c}\n" for a, b, c in zip(s.tolist(), d.tolist(), w.tolist()))


FORMATS = {  # name: (suffix, the file's text for g, reader options)
    "hochberg": (".txt", None, {}), "dimacs": (".gr", None, {}), "mtx": (".mtx", None, {}),
    "snap": (".snap", None, dict(weight_column=2)), "csv": (".csv", ",", dict(weight_column=2)),
    "tsv": (".tsv", "\t", dict(weight_column=2))}
WRITERS = {"hochberg": F.write_hochberg, "dimacs": F.write_dimacs, "mtx": F.write_mtx, "snap": F.write_snap}


def text_of(g, fmt, tmp):
    suffix, sep, _ = FORMATS[fmt]
    if sep is not None:
        return snap_text(g, sep)
    p = tmp / f"w{suffix}"
    WRITERS[fmt](g, p)
    return p.read_text(encoding="utf-8")


def same_graph(g, h, fmt):
    """h is g: by position where the format's ids are 1..n (DIMACS, MatrixMarket), else by id; a Hochberg or
    SNAP file has no isolated vertices, so h may hold fewer."""
    if fmt in ("dimacs", "mtx"):
        assert h.ids.tolist() == list(range(1, g.n + 1))
        pos = np.arange(g.n)
    else:
        where = {str(x): i for i, x in enumerate(g.ids.tolist())}
        pos = np.array([where[str(x)] for x in h.ids.tolist()], dtype=np.int64)
    sub = g.to_dense()[np.ix_(pos, pos)]
    assert np.array_equal(h.to_dense(), sub)
    assert g.m == h.m                      # every edge of g has both ends among h's vertices


def family(fmt):
    return "snap" if fmt in ("csv", "tsv") else fmt


def body_lines(fmt, lines):
    """Positions where a line may go: after the header (DIMACS 'p', MatrixMarket's header and size), before
    Hochberg's '--END--'."""
    first = {"dimacs": 2, "mtx": 3}.get(family(fmt), 0)
    last = len(lines) - (1 if fmt == "hochberg" else 0)
    return first, last


def with_edge(fmt, lines, g, u, w):
    """The file's lines with one more edge u -> u of weight w (the header's count raised), and its line number."""
    ids = g.ids
    name = {"dimacs": str(u + 1), "mtx": str(u + 1)}.get(fmt, str(ids[u]))
    sep = FORMATS[fmt][1] or " "
    row = {"dimacs": f"a {name} {name} {w}"}.get(fmt, sep.join([name, name, str(w)]))
    lines = list(lines)
    for k, line in enumerate(lines):
        t = line.split()
        if fmt == "dimacs" and t[:2] == ["p", "sp"]:
            lines[k] = f"p sp {t[2]} {int(t[3]) + 1}"
        if fmt == "mtx" and k > 0 and len(t) == 3 and not line.startswith("%"):
            lines[k] = f"{t[0]} {t[1]} {int(t[2]) + 1}"
            break
    at = body_lines(fmt, lines)[1]
    lines.insert(at, row)
    return lines, at + 1


@SETTINGS
@given(g=graphs(), fmt=st.sampled_from(sorted(FORMATS)), data=st.data(), crlf=st.booleans(), bom=st.booleans())
def test_written_mutated_read_back(tmp_path_factory, g, fmt, data, crlf, bom):
    tmp = Path(tmp_path_factory.mktemp("mut"))
    suffix, sep, opts = FORMATS[fmt]
    lines = text_of(g, fmt, tmp).splitlines()
    first, last = body_lines(fmt, lines)
    for _ in range(data.draw(st.integers(0, 3))):                 # comments and blank lines among the edges
        extra = data.draw(st.sampled_from(["", COMMENT[family(fmt)]] if family(fmt) in COMMENT else [""]))
        lines.insert(data.draw(st.integers(first, last)), extra)
        last += 1
    mutation = data.draw(st.sampled_from(["none", "negative self-loop"] + (["empty field"] if sep else [])))
    bad_line = None
    if mutation == "negative self-loop":
        u = data.draw(st.integers(0, g.n - 1))
        if fmt in ("hochberg", "snap", "csv", "tsv"):            # a vertex of an edge: these formats have no others
            u = int(g.edges()[0][0])
        lines, bad_line = with_edge(fmt, lines, g, u, -data.draw(st.integers(1, 20)))
    elif mutation == "empty field":
        rows = [k for k, line in enumerate(lines) if line and not line.startswith("#")]
        k = data.draw(st.sampled_from(rows))
        fields = lines[k].split(sep)
        j = data.draw(st.integers(0, len(fields)))
        fields.insert(j, "")
        lines[k] = sep.join(fields)
        bad_line, empty = k + 1, j
    eol = "\r\n" if crlf else "\n"
    path = tmp / f"g{suffix}"
    path.write_bytes(("\ufeff" if bom else "").encode() + (eol.join(lines) + eol).encode())
    if mutation == "negative self-loop":
        with pytest.raises(ak.NegativeCycleError, match=f"g{suffix}, line {bad_line}: negative cycle: a self-loop"):
            F.read_graph(path, **opts)
    elif mutation == "empty field":
        with pytest.raises(F.GraphFormatError, match=f"g{suffix}, line {bad_line}: field {empty} is empty"):
            F.read_graph(path, **opts)
    else:
        same_graph(g, F.read_graph(path, **opts), family(fmt))


@SETTINGS
@given(g=graphs())
def test_npz_round_trip(tmp_path_factory, g):
    p = Path(tmp_path_factory.mktemp("npz")) / "g.npz"
    F.save_npz(g, p)
    same_graph(g, F.read_graph(p), "npz")
