"""The edge-list text formats, each with its own vertex ids: Hochberg's (names: any token), DIMACS
``.gr`` (integers 1..n) and SNAP (non-negative integers, any subset).  Every reader keeps the weights
as the exact numbers it read until :func:`.source.build` validates them, and names each refusal by
file and line."""
from __future__ import annotations

from array import array

import numpy as np

from ..core.memory import require_host
from .source import GraphFormatError, build, number_at, parse_int, parse_vertex_id, read_lines

END = "--END--"


# --------------------------------------------------------------- Hochberg text
def read_hochberg(path, lines=None):
    """Seed 002: one ``V W length`` per line (a vertex name is any token not starting with '#': the
    format has no comments), last line ``--END--``.  Vertices are numbered by first appearance and
    keep their names."""
    lines = read_lines(path) if lines is None else lines
    names: dict[str, int] = {}
    src, dst, w, where = [], [], [], []
    ended = False
    for lineno, line in enumerate(lines, 1):
        s = line.strip()
        if not s:
            continue
        if ended:
            raise GraphFormatError(path, lineno, f"content after the {END} line")
        if s == END:
            ended = True
            continue
        if s.upper() == END:
            raise GraphFormatError(path, lineno, f"the end marker is {END!r} (upper case), got {s!r}")
        parts = s.split()
        if len(parts) != 3:
            raise GraphFormatError(path, lineno, f"expected 'V W length', got {len(parts)} fields: {s!r}")
        a, b, length = parts
        for name in (a, b):
            if name.startswith("#"):
                raise GraphFormatError(path, lineno, f"vertex name {name!r} starts with '#': Hochberg's format "
                                                     "has no comments, and such a name looks like one")
        value = number_at(path, lineno, length, "edge length")
        src.append(names.setdefault(a, len(names)))
        dst.append(names.setdefault(b, len(names)))
        w.append(value)
        where.append(lineno)
    if not ended:
        raise GraphFormatError(path, None, f"missing the final {END!r} line (file truncated?)")
    return build(path, len(names), src, dst, w, where, names=tuple(names), meta=dict(source=str(path), format="hochberg"))


def write_hochberg(g, path):
    names = [str(x) for x in g.ids]
    bad = [x for x in names if not x or x.startswith("#") or len(x.split()) != 1]
    if bad:
        raise GraphFormatError(path, None, f"vertex name {bad[0]!r} cannot be written in Hochberg's format")
    s, d, w = g.edges()
    with open(path, "w", encoding="utf-8") as f:
        for a, b, c in zip(s.tolist(), d.tolist(), w.tolist()):
            f.write(f"{names[a]} {names[b]} {c}\n")
        f.write(f"{END}\n")


# ------------------------------------------------------------------ DIMACS .gr
def read_dimacs(path, lines=None):
    """9th DIMACS challenge ``.gr``: ``c`` comments, one ``p sp n m``, ``a u v w`` arcs.  Vertex ids
    are the integers 1..n (``01`` is 1) and are kept as the graph's ids."""
    lines = read_lines(path) if lines is None else lines
    n = m = None
    src, dst, w, where = array("q"), array("q"), [], array("q")      # where: each arc's line, compactly
    for lineno, line in enumerate(lines, 1):
        parts = line.split()
        if not parts or parts[0] == "c":
            continue
        if parts[0] == "p":
            if n is not None:
                raise GraphFormatError(path, lineno, "second 'p' line")
            if len(parts) != 4 or parts[1] != "sp":
                raise GraphFormatError(path, lineno, f"expected 'p sp <n> <m>', got {line.strip()!r}")
            n, m = parse_int(parts[2]), parse_int(parts[3])
            if n is None or not 0 <= n < 2**31:
                raise GraphFormatError(path, lineno, f"vertex count {parts[2]!r} is not an integer in 0..2**31-1")
            if m is None or m < 0:
                raise GraphFormatError(path, lineno, f"arc count {parts[3]!r} is not a non-negative integer")
        elif parts[0] == "a":
            if n is None:
                raise GraphFormatError(path, lineno, "arc before the 'p sp n m' line")
            if len(parts) != 4:
                raise GraphFormatError(path, lineno, f"expected 'a <u> <v> <w>', got {line.strip()!r}")
            u, v = parse_int(parts[1]), parse_int(parts[2])
            for tok, val, what in ((parts[1], u, "tail"), (parts[2], v, "head")):
                if val is None:
                    raise GraphFormatError(path, lineno, f"{what} {tok!r} is not an integer")
            if not (1 <= u <= n and 1 <= v <= n):
                raise GraphFormatError(path, lineno, f"vertex out of range 1..{n}: {u} -> {v}")
            x = number_at(path, lineno, parts[3], "weight")
            src.append(u - 1)
            dst.append(v - 1)
            w.append(x)
            where.append(lineno)
        else:
            raise GraphFormatError(path, lineno, f"unknown line type {parts[0]!r}")
    if n is None:
        raise GraphFormatError(path, None, "no 'p sp n m' line")
    if len(src) != m:
        raise GraphFormatError(path, None, f"header says {m} arcs, file has {len(src)}")
    require_host(24 * (n + 1), f"the ids and CSR rows of {n} vertices")      # before arange allocates them
    return build(path, n, src, dst, w, where, names=np.arange(1, n + 1, dtype=np.int64),
                 meta=dict(source=str(path), format="dimacs"))


def write_dimacs(g, path):
    """Arcs by position + 1: DIMACS ids are 1..n, whatever the graph's own ids were."""
    s, d, w = g.edges()
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"c written by apsp_kernels\np sp {g.n} {g.m}\n")
        for a, b, c in zip(s.tolist(), d.tolist(), w.tolist()):
            f.write(f"a {a + 1} {b + 1} {c}\n")


# -------------------------------------------------------------------- SNAP
def read_snap(path, undirected=False, weight=1, weight_column=None, unweighted=False, lines=None):
    """SNAP edge list: ``#`` comments, ``u v`` per line, space, tab or comma separated (optionally ``.gz``; a
    line with a comma is split at commas, one with a tab at tabs, and an empty field there is refused).

    Vertex ids are SNAP's: non-negative integers (``01`` is 1), any subset; vertices are stored in
    increasing id order and the graph keeps the ids.  A line with more than two fields is refused
    unless ``weight_column`` (2 or more, 0-based) names the column of the weights, or ``unweighted``
    says to ignore the extra columns and give every edge ``weight``: a silently dropped weight column
    would give wrong distances.  ``undirected=True`` adds both directions (ego-Facebook is undirected)."""
    if weight_column is not None and (isinstance(weight_column, bool) or not isinstance(weight_column, int)
                                      or weight_column < 2):
        raise GraphFormatError(path, None, f"the weight column must be 2 or more (0-based; columns 0 and 1 hold "
                                           f"the vertex ids), got {weight_column!r}")
    if weight_column is not None and unweighted:
        raise GraphFormatError(path, None, "a weight column and 'unweighted' exclude each other")
    lines = read_lines(path) if lines is None else lines
    ends, w, where = array("q"), [], array("q")      # where: each edge's line, compactly (SNAP files are big)
    need = 2 if weight_column is None else weight_column + 1
    for lineno, line in enumerate(lines, 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        parts = _snap_fields(path, lineno, line)
        if len(parts) < need:
            raise GraphFormatError(path, lineno, f"expected at least {need} fields, got {s!r}")
        for tok in parts[:2]:
            v = parse_vertex_id(tok)
            if v is None or v >= 2**63:            # (array("q") could not hold it either)
                hint = (f"; a Hochberg file (V W length) must end with a {END!r} line"
                        if len(parts) == 3 and not tok.lstrip("+-").isdigit() else "")
                raise GraphFormatError(path, lineno, f"vertex id {tok!r} is not an integer in 0..2**63-1 "
                                                     f"(SNAP ids are non-negative integers){hint}")
            ends.append(v)
        if len(parts) > 2 and weight_column is None and not unweighted:
            raise GraphFormatError(path, lineno, f"{len(parts)} fields, a SNAP edge list has 2 ('u v'): name the "
                                   "weight column (--weight-column 2; weight_column=2) or ignore the extra "
                                   "columns (--unweighted; unweighted=True); a Hochberg file ends with '--END--'")
        if weight_column is None:
            w.append(weight)
        else:
            w.append(number_at(path, lineno, parts[weight_column], "weight"))
        where.append(lineno)
    if not where:
        raise GraphFormatError(path, None, "no edges: an empty SNAP edge list")
    ids, pos = np.unique(np.frombuffer(ends, dtype=np.int64), return_inverse=True)
    src, dst = pos[0::2], pos[1::2]
    if undirected:
        src, dst, w = np.concatenate([src, dst]), np.concatenate([dst, src]), w + w
    return build(path, ids.size, src, dst, w, where, names=ids, meta=dict(source=str(path), format="snap"))


def _snap_fields(path, lineno, line):
    """The fields of a SNAP line, split by its delimiter: a comma or a tab where the line holds one (an empty
    field before, between or after them is refused: skipping it would shift every later column), else runs of
    spaces.  Spaces around a field are dropped."""
    sep = "," if "," in line else "\t" if "\t" in line else None
    if sep is None:
        return line.split()
    s = line.strip(" ")
    parts = [f.strip() for f in s.split(sep)]
    empty = [k for k, f in enumerate(parts) if not f]
    if empty:
        raise GraphFormatError(path, lineno, f"field {empty[0]} is empty ({'comma' if sep == ',' else 'tab'}-"
                                             f"separated: {s!r}): every column must hold a value")
    return parts


def write_snap(g, path):
    """``u v w`` per line, by the graph's integer ids (read back with ``weight_column=2``)."""
    ids = g.ids
    if ids.dtype.kind not in "iu" or (ids.size and ids.min() < 0):
        raise GraphFormatError(path, None, "SNAP ids are non-negative integers; this graph's ids are names")
    s, d, w = g.edges()
    with open(path, "w", encoding="utf-8") as f:
        f.write("# FromNodeId ToNodeId Weight (written by apsp_kernels)\n")
        for a, b, c in zip(ids[s].tolist(), ids[d].tolist(), w.tolist()):
            f.write(f"{a} {b} {c}\n")
