"""MatrixMarket ``.mtx``, read by our own one-pass parser (scipy.io.mmread reads the file twice when
asked to sniff, casts before checking, truncates 4.5 to 4 in an integer matrix, and sums duplicates).

Entry (i, j) is the edge i -> j; the vertex ids are the row/column numbers 1..n.
* ``coordinate``: every stored entry is an edge, explicit zeros too (zero-weight edges, as in
  scipy.sparse.csgraph); ``pattern`` entries weigh 1; ``symmetric`` adds (j, i) with the same
  weight, ``skew-symmetric`` with the negated one; an entry above their diagonal is refused (the
  format stores the lower triangle; scipy.io.mmread mirrors such an entry and sums it with its twin).
* ``array``: the dense column-major matrix; 0 means 'no edge' (scipy's dense convention), a
  diagonal entry is dropped (a negative one is a negative cycle), every value must be a finite integer.
* Duplicate coordinate entries: the **least** weight of each is kept, as for every other format (the
  lightest parallel edge is the one a shortest path takes), with a :class:`GraphFormatWarning` that
  says so and how many: scipy's reader would **sum** them instead.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..core.memory import require_host
from .source import GraphFormatError, GraphFormatWarning, build, number_at, parse_int, read_lines

FIELDS = ("integer", "real", "double", "pattern")
SYMMETRIES = ("general", "symmetric", "skew-symmetric")


def _header(path, lines):
    head = lines[0].split() if lines else []
    if not head or head[0] != "%%MatrixMarket":
        raise GraphFormatError(path, 1, "not a MatrixMarket file (no '%%MatrixMarket' header)")
    if len(head) != 5 or head[1].lower() != "matrix":
        raise GraphFormatError(path, 1, "expected '%%MatrixMarket matrix <coordinate|array> <field> <symmetry>'")
    layout, field, symmetry = (x.lower() for x in head[2:])
    if layout not in ("coordinate", "array"):
        raise GraphFormatError(path, 1, f"unknown layout {head[2]!r} (coordinate or array)")
    if field not in FIELDS:
        raise GraphFormatError(path, 1, f"field {head[3]!r} cannot be a graph's weights (integer, real or pattern)")
    if symmetry not in SYMMETRIES:
        raise GraphFormatError(path, 1, f"symmetry {head[4]!r} is not one of {', '.join(SYMMETRIES)}")
    if layout == "array" and field == "pattern":
        raise GraphFormatError(path, 1, "an array matrix cannot be 'pattern'")
    return layout, field, symmetry


def read_mtx(path, lines=None):
    lines = read_lines(path) if lines is None else lines
    layout, field, symmetry = _header(path, lines)
    body = ((k, line.split()) for k, line in enumerate(lines[1:], 2))
    body = ((k, t) for k, t in body if t and not t[0].startswith("%"))
    k, size = next(body, (None, None))
    if size is None:
        raise GraphFormatError(path, None, "no size line")
    want = 3 if layout == "coordinate" else 2
    dims = [parse_int(x) for x in size]
    if len(size) != want or any(d is None or d < 0 for d in dims):
        raise GraphFormatError(path, k, f"expected the size line '{'rows cols entries' if want == 3 else 'rows cols'}' "
                                        f"(non-negative integers), got {' '.join(size)!r}")
    rows, cols = dims[:2]
    if rows != cols:
        raise GraphFormatError(path, k, f"an adjacency matrix must be square, this one is {rows} x {cols}")
    n = rows
    if n >= 2**31:
        raise GraphFormatError(path, k, f"{n} rows: vertex positions are int32")
    src, dst, w, where = [], [], [], []
    if layout == "coordinate":
        fields = 2 if field == "pattern" else 3
        for k, t in body:
            if len(t) != fields:
                raise GraphFormatError(path, k, f"expected {fields} fields ('row col{'' if fields == 2 else ' value'}'), "
                                                f"got {len(t)}: {' '.join(t)!r}")
            i, j = parse_int(t[0]), parse_int(t[1])
            if i is None or j is None or not (1 <= i <= n and 1 <= j <= n):
                raise GraphFormatError(path, k, f"entry ({t[0]}, {t[1]}) outside the {n} x {n} matrix")
            if symmetry != "general" and j > i:
                raise GraphFormatError(path, k, f"entry ({i}, {j}) is above the diagonal of a {symmetry} matrix, "
                                                "whose file holds the lower triangle only (scipy.io.mmread would "
                                                "mirror it and add it to any entry below)")
            x = 1 if field == "pattern" else number_at(path, k, t[2], "value")
            src.append(i - 1)
            dst.append(j - 1)
            w.append(x)
            where.append(k)
        if len(where) != dims[2]:
            raise GraphFormatError(path, None, f"the size line says {dims[2]} entries, the file has {len(where)}")
    else:
        expected = n * (n + 1) // 2 if symmetry == "symmetric" else n * (n - 1) // 2 if symmetry != "general" else n * n
        cells = _array_cells(n, symmetry)
        count = 0
        for k, t in body:
            if len(t) != 1:
                raise GraphFormatError(path, k, f"an array matrix has one value a line, got {' '.join(t)!r}")
            x = number_at(path, k, t[0], "value")
            if count < expected:
                i, j = next(cells)
                if x != 0:                           # a diagonal entry: dropped, or a negative cycle if < 0
                    src.append(i)
                    dst.append(j)
                    w.append(x)
                    where.append(k)
            count += 1
        if count != expected:
            raise GraphFormatError(path, None, f"a {symmetry} {n} x {n} array has {expected} values, the file has {count}")
    raw = len(where)
    notes, dup = (), 0
    if layout == "coordinate" and raw:
        keys = np.array(src, dtype=np.int64) * max(n, 1) + np.array(dst, dtype=np.int64)
        dup = raw - np.unique(keys).size
        if dup:
            notes = (f"{dup} duplicate entr{'y' if dup == 1 else 'ies'}: the least weight of each is kept "
                     "(the lightest parallel edge; scipy.io.mmread would sum them)",)
            warnings.warn(f"{path}: {notes[0]}", GraphFormatWarning, stacklevel=2)
    if symmetry != "general":
        sign = -1 if symmetry == "skew-symmetric" else 1
        off = [e for e in range(raw) if src[e] != dst[e]]
        src, dst = src + [dst[e] for e in off], dst + [src[e] for e in off]
        w = w + [w[e] if sign == 1 else -w[e] for e in off]
        where = where + [where[e] for e in off]
    require_host(24 * (n + 1), f"the ids and CSR rows of {n} vertices")      # before arange allocates them
    return build(path, n, src, dst, w, where, names=np.arange(1, n + 1, dtype=np.int64),
                 meta=dict(source=str(path), format="mtx", **(dict(notes=notes, duplicates=dup) if dup else {})))


def _array_cells(n, symmetry):
    """(row, col) of each value of an array file: column-major; a symmetric file stores the lower
    triangle with the diagonal, a skew-symmetric one without it."""
    for j in range(n):
        first = j if symmetry == "symmetric" else j + 1 if symmetry == "skew-symmetric" else 0
        for i in range(first, n):
            yield i, j


def write_mtx(g, path):
    """``coordinate integer general``, 1-based: the ids of an MTX graph are 1..n, so a graph whose
    ids are others loses them here (write .npz to keep them)."""
    s, d, w = g.edges()
    with open(path, "w", encoding="utf-8") as f:
        f.write("%%MatrixMarket matrix coordinate integer general\n% written by apsp_kernels\n")
        f.write(f"{g.n} {g.n} {g.m}\n")
        for a, b, c in zip(s.tolist(), d.tolist(), w.tolist()):
            f.write(f"{a + 1} {b + 1} {c}\n")
