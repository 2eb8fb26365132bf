"""Graph file formats: Hochberg text, DIMACS .gr, SNAP edge lists, MatrixMarket, .npz; .dot export.

Every reader either returns a whole :class:`Graph` or raises :class:`GraphFormatError` naming the
file, the line and what was wrong; nothing half-loaded is returned.  Each reads its input once
(pipes and FIFOs work), keeps the numbers exact until the one validation step
(:mod:`apsp_kernels.core.validate`), and gives the graph the vertex ids of its format
(``Graph.names``/``Graph.ids``).  docs/io.md describes the formats and their conventions.
"""
from __future__ import annotations

from pathlib import Path

from ..core.graph import Graph, GraphError
from .edge_lists import END, read_dimacs, read_hochberg, read_snap, write_dimacs, write_hochberg, write_snap
from .mtx import read_mtx, write_mtx
from .npz import load_npz, save_npz
from .source import GraphFileNotFound, GraphFormatError, GraphFormatWarning, read_lines

__all__ = ["GraphFormatError", "GraphFileNotFound", "GraphFormatWarning", "read_graph", "read_hochberg",
           "read_dimacs", "read_snap", "read_mtx", "load_npz", "write_hochberg", "write_dimacs", "write_snap",
           "write_mtx", "save_npz", "write_dot", "FORMATS", "SNAP_OPTIONS"]

SNAP_OPTIONS = ("undirected", "weight_column", "unweighted", "weight")


def write_dot(g: Graph, path, max_vertices=2000):
    """Graphviz export (seed 003 used it to look at small generated graphs)."""
    if g.n > max_vertices:
        raise GraphError(f"refusing to write {g.n} vertices to .dot (max_vertices={max_vertices})")
    names = [str(x) for x in g.ids]
    s, d, w = g.edges()
    with open(path, "w", encoding="utf-8") as f:
        f.write("digraph G {\n")
        for i in range(g.n):
            label = names[i].replace("\\", "\\\\").replace('"', '\\"')
            f.write(f'  {i} [label="{label}"];\n')
        for a, b, c in zip(s.tolist(), d.tolist(), w.tolist()):
            f.write(f'  {a} -> {b} [label="{c}"];\n')
        f.write("}\n")


def _read_txt(path, **kw):
    """A .txt is SNAP's edge list unless it is Hochberg's (an '--END--' line, in any case: a
    lower-case one is then refused by name, not misread as SNAP).  The file is read once."""
    lines = read_lines(path)
    if any(line.strip().upper() == END for line in lines):
        if kw:
            raise GraphFormatError(path, None, f"{_options(kw)} appl{'y' if len(kw) > 1 else 'ies'} to SNAP edge "
                                               f"lists; this file is Hochberg's (it has an {END} line)")
        return read_hochberg(path, lines=lines)
    return read_snap(path, lines=lines, **kw)


def _options(kw):
    return ", ".join(f"--{k.replace('_', '-')} ({k}=)" for k in kw)


FORMATS = {"hochberg": read_hochberg, "dimacs": read_dimacs, "snap": read_snap, "mtx": read_mtx, "npz": load_npz}
READERS = {".txt": _read_txt, ".gr": read_dimacs, ".mtx": read_mtx, ".npz": load_npz, ".snap": read_snap,
           ".tsv": read_snap, ".csv": read_snap, ".edges": read_snap}
_SNAP_READERS = (read_snap, _read_txt)


def read_graph(path, fmt=None, **kw) -> Graph:
    """Read by explicit ``fmt`` (hochberg, dimacs, snap, mtx, npz) or by suffix (``.gz`` allowed).
    ``kw``: SNAP's options (``undirected``, ``weight_column``, ``unweighted``, ``weight``), refused
    with one line for any other format."""
    unknown = set(kw) - set(SNAP_OPTIONS)
    if unknown:
        raise GraphFormatError(path, None, f"unknown reader option(s) {', '.join(sorted(unknown))}")
    if fmt is not None:
        if fmt not in FORMATS:
            raise GraphFormatError(path, None, f"unknown format {fmt!r}; one of {', '.join(sorted(FORMATS))}")
        reader = FORMATS[fmt]
    else:
        reader = _by_suffix(path)
    if kw and reader not in _SNAP_READERS:
        name = next(k for k, v in FORMATS.items() if v is reader)
        raise GraphFormatError(path, None, f"{_options(kw)} appl{'y' if len(kw) > 1 else 'ies'} to SNAP edge lists "
                                           f"only, not to this {name} file")
    return reader(path, **kw)


def _by_suffix(path):
    suffixes = [x.lower() for x in Path(str(path)).suffixes]
    gz = suffixes[-1:] == [".gz"]
    suffix = suffixes[-2] if gz and len(suffixes) >= 2 else (suffixes[-1] if suffixes else "")
    if gz and suffix not in READERS:
        return read_snap                     # SNAP publishes its edge lists as NAME.txt.gz or NAME.gz
    if suffix not in READERS or (suffix == ".npz" and gz):
        if Path(str(path)).is_dir():
            raise GraphFormatError(path, None, "is a directory, not a graph file")
        raise GraphFormatError(path, None, f"cannot tell the format from the suffix {suffix or '(none)'!r}; "
                                           f"use --format (fmt= in Python): one of {', '.join(sorted(FORMATS))}")
    return READERS[suffix]
