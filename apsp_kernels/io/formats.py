"""Graph file formats: Hochberg text, DIMACS .gr, SNAP edge lists, MatrixMarket, .npz; .dot export.

Every reader either returns a whole :class:`Graph` or raises :class:`GraphFormatError`
naming the file, the line and what was wrong; nothing half-loaded is returned.
"""
from __future__ import annotations

import gzip
import io
import zipfile
import zlib
from pathlib import Path

import numpy as np

from ..core.graph import Graph, GraphError


class GraphFormatError(GraphError):
    def __init__(self, path, line, what):
        self.path, self.line, self.what = str(path), line, what
        where = f"{path}, line {line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {what}")


class GraphFileNotFound(GraphFormatError, FileNotFoundError):
    """No such file (also a FileNotFoundError, for callers that catch that)."""


def _open_text(path):
    """The whole file as text (gunzipped where it ends in .gz), or one clear error naming the
    file: a directory, a missing file, broken gzip data, bytes that are not UTF-8 text."""
    path = Path(path)
    if path.is_dir():
        raise GraphFormatError(path, None, "is a directory, not a graph file")
    if not path.exists():
        raise GraphFileNotFound(path, None, "no such file")
    raw = path.read_bytes()
    if path.suffix == ".gz":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as e:
            raise GraphFormatError(path, None, f"broken or truncated gzip data ({e})") from None
    try:
        return io.StringIO(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        raise GraphFormatError(path, line, f"not a text graph file (byte 0x{raw[e.start]:02x} is not UTF-8 text)") from None


def _int(tok, path, lineno, what):
    try:
        v = int(tok)
    except ValueError:
        raise GraphFormatError(path, lineno, f"{what} {tok!r} is not an integer") from None
    if not -2**31 <= v < 2**31:
        raise GraphFormatError(path, lineno, f"{what} {tok} does not fit in 32 bits")
    return v


# --------------------------------------------------------------- Hochberg text
def read_hochberg(path) -> Graph:
    """Seed 002: one ``V W l`` per line (vertex names are any non-blank tokens), last line ``--END--``."""
    names: dict[str, int] = {}
    src, dst, w = [], [], []
    ended = False
    with _open_text(path) as f:
        for lineno, line in enumerate(f, 1):
            s = line.strip()
            if not s:
                continue
            if ended:
                raise GraphFormatError(path, lineno, "content after the --END-- line")
            if s == "--END--":
                ended = True
                continue
            parts = s.split()
            if len(parts) != 3:
                raise GraphFormatError(path, lineno, f"expected 'V W length', got {len(parts)} fields: {s!r}")
            a, b, l = parts
            src.append(names.setdefault(a, len(names)))
            dst.append(names.setdefault(b, len(names)))
            w.append(_int(l, path, lineno, "edge length"))
    if not ended:
        raise GraphFormatError(path, None, "missing the final '--END--' line (file truncated?)")
    inv = [None] * len(names)
    for k, i in names.items():
        inv[i] = k
    try:
        return Graph.from_edges(len(names), src, dst, w, names=inv, meta=dict(source=str(path), format="hochberg"))
    except GraphError as e:
        raise GraphFormatError(path, None, str(e)) from None


def write_hochberg(g: Graph, path):
    names = g.names or [str(i) for i in range(g.n)]
    s, d, w = g.edges()
    with open(path, "w", encoding="utf-8") as f:
        for a, b, c in zip(s.tolist(), d.tolist(), w.tolist()):
            f.write(f"{names[a]} {names[b]} {c}\n")
        f.write("--END--\n")


# ------------------------------------------------------------------ DIMACS .gr
def read_dimacs(path) -> Graph:
    """9th DIMACS challenge ``.gr``: ``c`` comments, one ``p sp n m``, ``a u v w`` arcs (1-based)."""
    n = m = None
    src, dst, w = [], [], []
    with _open_text(path) as f:
        for lineno, line in enumerate(f, 1):
            parts = line.split()
            if not parts or parts[0] == "c":
                continue
            if parts[0] == "p":
                if n is not None:
                    raise GraphFormatError(path, lineno, "second 'p' line")
                if len(parts) != 4 or parts[1] != "sp":
                    raise GraphFormatError(path, lineno, f"expected 'p sp <n> <m>', got {line.strip()!r}")
                n = _int(parts[2], path, lineno, "vertex count")
                m = _int(parts[3], path, lineno, "arc count")
            elif parts[0] == "a":
                if n is None:
                    raise GraphFormatError(path, lineno, "arc before the 'p sp n m' line")
                if len(parts) != 4:
                    raise GraphFormatError(path, lineno, f"expected 'a <u> <v> <w>', got {line.strip()!r}")
                u = _int(parts[1], path, lineno, "tail")
                v = _int(parts[2], path, lineno, "head")
                if not (1 <= u <= n and 1 <= v <= n):
                    raise GraphFormatError(path, lineno, f"vertex out of range 1..{n}: {u} -> {v}")
                src.append(u - 1)
                dst.append(v - 1)
                w.append(_int(parts[3], path, lineno, "weight"))
            else:
                raise GraphFormatError(path, lineno, f"unknown line type {parts[0]!r}")
    if n is None:
        raise GraphFormatError(path, None, "no 'p sp n m' line")
    if len(src) != m:
        raise GraphFormatError(path, None, f"header says {m} arcs, file has {len(src)}")
    try:
        return Graph.from_edges(n, src, dst, w, meta=dict(source=str(path), format="dimacs"))
    except GraphError as e:
        raise GraphFormatError(path, None, str(e)) from None


def write_dimacs(g: Graph, path):
    s, d, w = g.edges()
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"c written by apsp_kernels\np sp {g.n} {g.m}\n")
        for a, b, c in zip(s.tolist(), d.tolist(), w.tolist()):
            f.write(f"a {a + 1} {b + 1} {c}\n")


# -------------------------------------------------------------------- SNAP
def read_snap(path, undirected=False, weight=1, weight_column=None) -> Graph:
    """SNAP edge list: ``#`` comments, ``u v`` per line (optionally ``.gz``).

    Vertex ids are relabelled 0..n-1 in order of first appearance.  SNAP graphs are
    unweighted: every edge gets ``weight`` unless ``weight_column`` (0-based) names a
    column to read (Bitcoin-OTC's ``SOURCE,TARGET,RATING,TIME`` CSV has rating in 2).
    ``undirected=True`` adds both directions (ego-Facebook is undirected).
    """
    ids: dict[str, int] = {}
    src, dst, w = [], [], []
    with _open_text(path) as f:
        for lineno, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            parts = s.replace(",", " ").split()
            need = 2 if weight_column is None else weight_column + 1
            if len(parts) < need:
                raise GraphFormatError(path, lineno, f"expected at least {need} fields, got {s!r}")
            a, b = parts[0], parts[1]
            for tok in (a, b):
                if not tok.lstrip("-").isdigit():
                    raise GraphFormatError(path, lineno, f"vertex id {tok!r} is not an integer")
            src.append(ids.setdefault(a, len(ids)))
            dst.append(ids.setdefault(b, len(ids)))
            w.append(weight if weight_column is None else _int(parts[weight_column], path, lineno, "weight"))
    if not ids:
        raise GraphFormatError(path, None, "no edges: an empty SNAP edge list")
    if undirected:
        src, dst, w = src + dst, dst + src, w + w
    try:
        return Graph.from_edges(len(ids), src, dst, w, names=list(ids), meta=dict(source=str(path), format="snap"))
    except GraphError as e:
        raise GraphFormatError(path, None, str(e)) from None


# ------------------------------------------------------------ MatrixMarket
def _check_mtx_entries(path):
    """Line by line what scipy's reader would let through: entries of a coordinate file that are
    not integers (4.5 in an 'integer' matrix is truncated to 4 by it), overflow 32 bits, or lie
    outside the matrix."""
    with _open_text(path) as f:
        lines = enumerate(f, 1)
        header = next(lines, (1, ""))[1]
        if not header.startswith("%%MatrixMarket"):
            raise GraphFormatError(path, 1, "not a MatrixMarket file (no '%%MatrixMarket' header)")
        if "coordinate" not in header.lower():
            return
        size = None
        for lineno, line in lines:
            t = line.split()
            if not t or t[0].startswith("%"):
                continue
            if size is None:
                size = [_int(x, path, lineno, "matrix size") for x in t[:2]]
                continue
            i, j = _int(t[0], path, lineno, "row"), _int(t[1], path, lineno, "column")
            if not (1 <= i <= size[0] and 1 <= j <= size[1]):
                raise GraphFormatError(path, lineno, f"entry ({i}, {j}) outside the {size[0]} x {size[1]} matrix")
            if len(t) > 2:
                try:
                    v = float(t[2])
                except ValueError:
                    raise GraphFormatError(path, lineno, f"weight {t[2]!r} is not a number") from None
                if not np.isfinite(v) or v != int(v):
                    raise GraphFormatError(path, lineno, f"weight {t[2]} is not an integer")
                if not -2**31 <= v < 2**31:
                    raise GraphFormatError(path, lineno, f"weight {t[2]} does not fit in 32 bits")


def read_mtx(path) -> Graph:
    import scipy.io
    _check_mtx_entries(path)
    try:
        a = scipy.io.mmread(str(path))
    except (ValueError, OSError, OverflowError) as e:
        raise GraphFormatError(path, None, f"not a readable MatrixMarket file: {e}") from None
    if a.shape[0] != a.shape[1]:
        raise GraphFormatError(path, None, f"matrix must be square, got {a.shape}")
    import scipy.sparse as sp
    c = sp.coo_matrix(a)
    try:
        return Graph.from_edges(a.shape[0], c.row, c.col, c.data, meta=dict(source=str(path), format="mtx"))
    except GraphError as e:
        raise GraphFormatError(path, None, str(e)) from None


def write_mtx(g: Graph, path):
    import scipy.io
    import scipy.sparse as sp
    s, d, w = g.edges()
    scipy.io.mmwrite(str(path), sp.coo_matrix((w, (s, d)), shape=(g.n, g.n)), field="integer")


# --------------------------------------------------------------- npz cache
def save_npz(g: Graph, path):
    np.savez_compressed(path, n=g.n, indptr=g.indptr, indices=g.indices, weights=g.weights)


def load_npz(path) -> Graph:
    p = Path(path)
    if p.is_dir() or not p.exists():
        raise GraphFormatError(path, None, "is a directory, not a graph file") if p.is_dir() else GraphFileNotFound(path, None, "no such file")
    try:
        with np.load(path, allow_pickle=False) as z:
            missing = [k for k in ("n", "indptr", "indices", "weights") if k not in z.files]
            if missing:
                raise GraphFormatError(path, None, f"not an apsp_kernels .npz graph: it holds {sorted(z.files)}, "
                                                   "a graph holds n, indptr, indices, weights")
            n, indptr, indices, weights = int(z["n"]), z["indptr"], z["indices"], z["weights"]
    except GraphFormatError:
        raise
    except ValueError as e:
        what = "holds Python objects, which are never loaded" if "pickle" in str(e) else str(e)
        raise GraphFormatError(path, None, f"not an apsp_kernels .npz graph: {what}") from None
    except (OSError, EOFError, zipfile.BadZipFile) as e:
        raise GraphFormatError(path, None, f"not a readable .npz file ({e})") from None
    s = np.repeat(np.arange(n), np.diff(indptr))
    return Graph.from_edges(n, s, indices, weights, meta=dict(source=str(path), format="npz"))


# ----------------------------------------------------------------- export
def write_dot(g: Graph, path, max_vertices=2000):
    """Graphviz export (seed 003 used it to look at small generated graphs)."""
    if g.n > max_vertices:
        raise GraphError(f"refusing to write {g.n} vertices to .dot (max_vertices={max_vertices})")
    names = g.names or [str(i) for i in range(g.n)]
    s, d, w = g.edges()
    with open(path, "w", encoding="utf-8") as f:
        f.write("digraph G {\n")
        for i in range(g.n):
            f.write(f'  {i} [label="{names[i]}"];\n')
        for a, b, c in zip(s.tolist(), d.tolist(), w.tolist()):
            f.write(f'  {a} -> {b} [label="{c}"];\n')
        f.write("}\n")


def _read_txt(path, **kw):
    """A .txt is SNAP's edge list (its own convention) unless it is Hochberg's (a '--END--' line)."""
    with _open_text(path) as f:
        hochberg = any(line.strip() == "--END--" for line in f)
    return read_hochberg(path) if hochberg and not kw else read_snap(path, **kw)


READERS = {".txt": _read_txt, ".gr": read_dimacs, ".mtx": read_mtx, ".npz": load_npz, ".snap": read_snap,
           ".tsv": read_snap, ".csv": read_snap, ".edges": read_snap}


def read_graph(path, fmt=None, **kw) -> Graph:
    """Read by explicit ``fmt`` (hochberg, dimacs, snap, mtx, npz) or by suffix."""
    table = {"hochberg": read_hochberg, "dimacs": read_dimacs, "snap": read_snap, "mtx": read_mtx, "npz": load_npz}
    if fmt is not None:
        if fmt not in table:
            raise GraphFormatError(path, None, f"unknown format {fmt!r}; one of {', '.join(sorted(table))}")
        return table[fmt](path, **kw)
    suffixes = [x.lower() for x in Path(path).suffixes]
    suffix = suffixes[-2] if suffixes[-1:] == [".gz"] and len(suffixes) >= 2 else (suffixes[-1] if suffixes else "")
    if suffix == ".gz":
        return read_snap(path, **kw)                     # SNAP publishes its edge lists as NAME.txt.gz or NAME.gz
    if suffix not in READERS or (suffix == ".npz" and suffixes[-1] == ".gz"):
        if Path(path).is_dir():
            raise GraphFormatError(path, None, "is a directory, not a graph file")
        raise GraphFormatError(path, None, f"cannot tell the format from the suffix {suffix or '(none)'!r}; "
                                           f"use --format (fmt= in Python): one of {', '.join(sorted(table))}")
    return READERS[suffix](path, **kw)
