"""tuned_elimination's launch list (``plan``, built for every supernode at once) equals the same list built one
supernode at a time, the plain reading of the design (kept here as the reference), on the test graphs, on
orderings with deep trees (small leaves, no amalgamation) and on large graphs; batched and one supernode a launch.
The emulated and GPU tests run the list; this pins it field by field."""
import sys
from pathlib import Path

import numpy as np
import pytest

from apsp_kernels.algorithms.gpu.tuned import elimination as TE
from apsp_kernels.algorithms.gpu.tuned.elimination import (AOFF, ASI, ASK, BIDX, BOFF, CHI, CIDX, CLO, COFF, CTA0,
                                                           K, LDB, LDC, M, MTC, NTC, TM)

sys.path.insert(0, str(Path(__file__).resolve().parent))
import elimination_graphs as EG  # noqa: E402


def plan_one_by_one(sym, batch=True):
    """The launch list built one supernode at a time (the plain reading of the design)."""
    n = int(sym.n)
    N = TE.padded(n)
    start, first, fptr = sym.start, sym.first, sym.fptr
    ns = start.size - 1
    height, depth = TE._levels(sym)
    descs, launches = [], []

    def product(m, k, a, b, c, cols, loop_rows=False, loop_cols=False):
        tm = TE.tile_rows(m)
        mt, nt = TE._tiles(m, *cols, tm)
        d = np.zeros(TE.DESC, np.int64)
        d[TM] = tm
        d[[M, K]] = m, k
        d[[AOFF, ASI, ASK]] = a
        d[[BOFF, LDB, BIDX]] = b
        d[[COFF, LDC, CIDX]] = c
        d[[CLO, CHI]] = cols
        d[MTC] = 1 if loop_rows else mt
        d[NTC] = 1 if loop_cols else nt
        return d

    def emit(kernel, group, phase):
        group = [d for d in group if d is not None]
        if not group:
            return
        ctas = 0
        for d in group:
            d[CTA0] = ctas
            ctas += 1 if kernel == 0 else int(d[MTC] * d[NTC])
        launches.append((kernel, len(descs), len(group), ctas, phase))
        descs.extend(group)

    def groups(key, order):
        if not batch:
            return [[s] for s in order]
        by = {}
        for s in order:
            by.setdefault(int(key[s]), []).append(s)
        return [by[h] for h in sorted(by)]

    def close(s):
        d = np.zeros(TE.DESC, np.int64)
        d[M] = start[s + 1] - start[s]
        d[AOFF] = sym.off_ss[s]
        d[BOFF] = start[s]
        return d

    def panels(s):
        k, f = int(start[s + 1] - start[s]), int(fptr[s + 1] - fptr[s])
        if f == 0:
            return [None]
        ss, sf, fs = int(sym.off_ss[s]), int(sym.off_sf[s]), int(sym.off_fs[s])
        return [product(k, k, (ss, k, 1), (sf, f, -1), (sf, f, -1), (0, f), loop_rows=True),    # D[S,S] (x) D[S,F]
                product(f, k, (fs, k, 1), (ss, k, -1), (fs, k, -1), (0, k), loop_cols=True)]    # D[F,S] (x) D[S,S]

    def schur(s):
        k, f = int(start[s + 1] - start[s]), int(fptr[s + 1] - fptr[s])
        if f == 0:
            return None
        return product(f, k, (sym.off_fs[s], k, 1), (sym.off_sf[s], f, -1), (0, 0, fptr[s]), (0, f))

    def up_own(s):
        k = int(start[s + 1] - start[s])
        return product(k, k, (sym.off_ss[s], 1, k), (start[s] * N, N, -1), (start[s] * N, N, -1),
                       (first[s], start[s + 1]), loop_rows=True)

    def up_front(s):
        k, f = int(start[s + 1] - start[s]), int(fptr[s + 1] - fptr[s])
        if f == 0:
            return None
        return product(f, k, (sym.off_sf[s], 1, f), (start[s] * N, N, -1), (0, N, fptr[s]), (first[s], start[s + 1]))

    def down(s):
        k, f = int(start[s + 1] - start[s]), int(fptr[s + 1] - fptr[s])
        if f == 0:
            return None
        return product(k, f, (sym.off_fs[s], 1, k), (0, N, fptr[s]), (start[s] * N, N, -1), (0, n))

    up = groups(height, range(ns))
    for grp in up:                                          # elimination, children first
        emit(0, [close(s) for s in grp], 0)
        emit(1, [d for s in grp for d in panels(s)], 0)
        emit(3, [schur(s) for s in grp], 0)
    for grp in up:                                          # upward sweep
        emit(2, [up_own(s) for s in grp], 1)
        emit(2, [up_front(s) for s in grp], 1)
    for grp in groups(depth, range(ns - 1, -1, -1)):        # downward sweep, parents first
        emit(2, [down(s) for s in grp], 2)
    d = np.array(descs, np.int64).reshape(-1, TE.DESC)
    return d, np.array(launches, np.int64).reshape(-1, 5)


@pytest.mark.parametrize("name", sorted(EG.CASES))
@pytest.mark.parametrize("leaf, cap", [(32, None), (4, 0), (1, 0)])
@pytest.mark.parametrize("batch", [True, False])
def test_the_list_equals_the_one_by_one_list(name, leaf, cap, batch):
    sym = TE.prepare(EG.CASES[name](), leaf=leaf, cap=cap).sym
    want_d, want_l = plan_one_by_one(sym, batch)
    got_d, got_l = TE.plan(sym, batch)
    assert got_d.dtype == got_l.dtype == np.int64
    assert np.array_equal(got_l, want_l) and np.array_equal(got_d, want_d)


@pytest.mark.parametrize("n", [3000, 20000])
def test_on_large_graphs(n):
    for g in (EG.grid(n // 100, 100), EG.knn(n)):
        sym = TE.prepare(g).sym
        for batch in (True, False):
            want, got = plan_one_by_one(sym, batch), TE.plan(sym, batch)
            assert all(np.array_equal(a, b) for a, b in zip(got, want))


def test_the_tile_shapes():
    assert [TE.tile_rows(m) for m in (1, 32, 33, 64, 65, 128, 129, 300)] == [32, 32, 64, 64, 128, 128, 128, 128]
    assert TE.tile_rows(np.array([1, 33, 200])).tolist() == [32, 64, 128]


@pytest.mark.parametrize("a", [np.zeros((0, 0)), np.zeros((5, 5)), np.array([[0, 3], [0, 0]])],
                         ids=["no vertices", "isolated vertices", "one edge"])
def test_degenerate_graphs(a):
    import scipy.sparse as sp
    from apsp_kernels.core.graph import Graph
    sym = TE.prepare(Graph.from_scipy(sp.csr_matrix(a))).sym
    for batch in (True, False):
        want, got = plan_one_by_one(sym, batch), TE.plan(sym, batch)
        assert all(g.dtype == np.int64 and g.shape == w.shape and np.array_equal(g, w) for g, w in zip(got, want))
