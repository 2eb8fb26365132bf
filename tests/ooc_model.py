"""A numpy executor of tuned_fw_ooc's steps (apsp_kernels/algorithms/gpu/tuned/ooc_plan.py): the same
plan and step list the launcher issues, each step done whole, in an order drawn at random among those
the streams and waits allow (a stream in order; a step after the steps it waits for).  A missing wait
shows as a wrong result in some order; ``ooc_plan.races`` finds the same without running.  Device
buffers start as poison, so a step that reads what no step wrote shows too.  ``ops`` may replace the
numpy kernels (tests/test_tuned_ooc.py runs the real kernels on the CPU emulation through it)."""
import random
from collections import deque

import numpy as np

POISON = -12345                     # small and negative: read by mistake, it shortens some path


def aligned(size, fill=POISON):
    """A flat int32 array starting on 16 bytes (cp.async and int4 accesses need it)."""
    raw = np.full(size + 4, fill, np.int32)
    skip = (-raw.ctypes.data % 16) // 4
    return raw[skip:skip + size]


def buffers(p):
    """{name: flat int32 array} of the plan's device buffers, poisoned."""
    return {name: aligned(size) for name, size in p.sizes.items()}


def view(mem, r):
    flat = mem[r.buf]
    assert r.col + r.cols <= r.ld and r.offset + (r.rows - 1) * r.ld + r.cols <= flat.size, r
    return np.lib.stride_tricks.as_strided(flat[r.offset:], (r.rows, r.cols), (4 * r.ld, 4))


def _copy(mem, src, dst):
    view(mem, dst)[...] = view(mem, src).copy()


def _transpose(mem, src, dst):
    view(mem, dst)[...] = view(mem, src).T.copy()


def _closure(mem, m, scratch):
    P = view(mem, m).copy()
    for k in range(P.shape[0]):
        np.minimum(P, P[:, k:k + 1] + P[k:k + 1, :], out=P)
    view(mem, m)[...] = P
    view(mem, scratch)[...] = POISON             # the kernels' colT: scratch, nothing may read it later


def _product(mem, dst, cin, a, b):
    A, B, C = view(mem, a).copy(), view(mem, b).copy(), view(mem, cin).copy()
    assert A.shape[0] == B.shape[0] and C.shape == (A.shape[1], B.shape[1])
    for k in range(A.shape[0]):
        np.minimum(C, A[k][:, None] + B[k][None, :], out=C)
    view(mem, dst)[...] = C


NUMPY = {"copy": _copy, "transpose": _transpose, "closure": _closure, "product": _product}


def order(steps, seed):
    """An issue order the streams and waits allow: steps in list order (seed None) or drawn at random."""
    if seed is None:
        return list(range(len(steps)))
    rng = random.Random(seed)
    queues = {}
    for i, s in enumerate(steps):
        queues.setdefault(s.stream, deque()).append(i)
    done, out = set(), []
    while any(queues.values()):
        ready = [q for q in queues.values() if q and all(w in done for w in steps[q[0]].waits)]
        assert ready, "deadlock: every stream waits for a step that cannot run"
        i = rng.choice(ready).popleft()
        done.add(i)
        out.append(i)
    return out


def execute(p, steps, D, seed=None, ops=None):
    """Run the steps on the host matrix D (p.N x p.N int32, updated in place)."""
    assert D.shape == (p.N, p.N) and D.dtype == np.int32 and D.flags.c_contiguous
    mem = dict(buffers(p), host=D.reshape(-1))
    ops = dict(NUMPY, **(ops or {}))
    for i in order(steps, seed):
        ops[steps[i].kind](mem, *steps[i].regions)
    return D
