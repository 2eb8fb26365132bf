"""The many-source sparse codes over the GPUs of one host: the sources (every vertex, or those asked for) split into
contiguous chunks, one per GPU; rank r runs the one-GPU code on its chunk and writes its rows straight into the
host result (:mod:`.host_rows`), which every rank shares.  No rank needs another's rows, so nothing goes over NCCL
(``use_nccl=False``) and the ranks never wait for each other.

* ``tuned_frontier``: a block per source already (``tuned/frontier.py``); a rank's chunk is its ``sources=``, its
  rows streamed to the host result while its later chunks run (the resident path's sink).
* ``tuned_sparse``: batches of targets; a rank runs the sweeps on the reversed graph over the batches that hold its
  sources (``tuned/sparse.py``'s :func:`tuned_sparse_rows`), its rows copied once into the host result.

CuPy is imported only inside the ranks."""
from __future__ import annotations

import time

import numpy as np

CODES = ("tuned_frontier", "tuned_sparse")


def split(count, parts):
    """``count`` items (sources) in ``parts`` contiguous chunks ``(first, stop)``, in rank order, sizes differing by at
    most one (the larger first); where ``count < parts`` the last chunks are empty."""
    count, parts = int(count), int(parts)
    if parts < 1:
        raise ValueError(f"the sources split into 1 or more parts, not {parts}")
    base, extra = divmod(max(count, 0), parts)
    bounds, a = [], 0
    for r in range(parts):
        b = a + base + (1 if r < extra else 0)
        bounds.append((a, b))
        a = b
    return bounds


def gpus_for(n_gpus, have):
    """The GPU count a call asks for (``n_gpus``; None: all ``have`` GPUs of this host), refused in one line where
    the host has fewer."""
    if n_gpus is None:
        if have < 1:
            raise ValueError("a multi-GPU solve needs a GPU; this host has none that CuPy sees")
        return int(have)
    if isinstance(n_gpus, bool) or int(n_gpus) != n_gpus or int(n_gpus) < 1:
        raise ValueError(f"n_gpus must be a whole number of GPUs, 1 or more, not {n_gpus!r}")
    if int(n_gpus) > have:
        raise ValueError(f"{int(n_gpus)} GPU{'s' if int(n_gpus) != 1 else ''} asked for; this host has {have}")
    return int(n_gpus)


def footprint(code, n, m, k):
    """Device bytes on each of ``k`` GPUs when ``code`` solves all n sources: the one-GPU code's own on a chunk of
    ceil(n / k) sources (``tuned_sparse``: its n x N matrix beside two copies of the chunk's rows)."""
    from ..tuned import frontier as F, sparse as S
    n, k = max(int(n), 1), max(int(k), 1)
    rows = -(-n // k)
    if code == "tuned_frontier":
        return int(F.footprint(n, m, rows))
    if code == "tuned_sparse":
        return int(S.footprint(n, m) + 2 * 4 * rows * n)
    raise ValueError(f"code must be one of {CODES}, got {code!r}")


def sources_multi(g, code="tuned_frontier", n_gpus=None, sources=None, timeout_s=None):
    """The rows of ``sources`` (vertex numbers; None: all n, an APSP) by ``code`` on ``n_gpus`` GPUs of this host
    (None: all of them), one process per GPU (one GPU: in this process); as many ranks as there are sources where
    fewer.  Returns ``(distances, timings)``: int32 (len(sources) x n), INF where there is no path; timings
    ``kernel_ms`` and ``wall_ms`` (the slowest rank's), ``kernel_ms_per_rank``, ``wall_ms_per_rank``,
    ``rows_per_rank``, ``n_gpus`` (ranks run), ``code``.  ``timeout_s``: a rank not finished by then ends the call
    with ``launch.RankError``."""
    from ....core.sources import as_sources
    from .... import gpu_device
    if code not in CODES:
        raise ValueError(f"code must be one of {CODES}, got {code!r}")
    src = np.arange(g.n, dtype=np.int64) if sources is None else as_sources(sources, g.n)
    k = gpus_for(n_gpus, gpu_device.device_count())
    g.require_non_negative(f"{code} on {k} GPUs")
    ranks = max(1, min(k, int(src.size)))
    timings = dict(code=code, n_gpus=ranks, sources=int(src.size), kernel_ms=0.0, wall_ms=0.0,
                   kernel_ms_per_rank=[], wall_ms_per_rank=[], rows_per_rank=[])
    if g.n == 0 or src.size == 0:
        return np.zeros((src.size, g.n), np.int32), timings
    from . import launch
    from .host_rows import SharedResult
    bounds = split(src.size, ranks)
    with SharedResult((src.size, g.n), np.int32) as res:
        values = launch.spawn(ranks, rank_rows, (g, code, src, bounds, res.handle), use_nccl=False,
                              timeout_s=timeout_s)
        d = res.detach()
    timings.update(kernel_ms=max(v["kernel_ms"] for v in values), wall_ms=max(v["wall_ms"] for v in values),
                   kernel_ms_per_rank=[v["kernel_ms"] for v in values], wall_ms_per_rank=[v["wall_ms"] for v in values],
                   rows_per_rank=[v["rows"] for v in values])
    return d, timings


def tuned_frontier_multi(g, n_gpus=None, sources=None, timeout_s=None):
    """The registry's launcher: :func:`sources_multi` with ``tuned_frontier``."""
    return sources_multi(g, "tuned_frontier", n_gpus, sources, timeout_s)


def tuned_sparse_multi(g, n_gpus=None, sources=None, timeout_s=None):
    """The registry's launcher: :func:`sources_multi` with ``tuned_sparse`` (its default batch)."""
    return sources_multi(g, "tuned_sparse", n_gpus, sources, timeout_s)


def rank_rows(ctx, g, code, src, bounds, handle):
    """One rank: the rows of its chunk of ``src`` written into the shared result; returns its times and row count."""
    a, b = bounds[ctx.rank]
    t0 = time.perf_counter()
    if b <= a:
        t = dict(kernel_ms=0.0)
    else:
        from .host_rows import Attached
        at = Attached(handle)
        try:
            t = _write_rows(code, g, src[a:b], at.array, a, b)
        finally:
            at.close()
    return dict(rank=ctx.rank, rows=b - a, kernel_ms=float(t["kernel_ms"]), wall_ms=(time.perf_counter() - t0) * 1e3)


def _write_rows(code, g, chunk, result, a, b):
    """``code``'s rows of ``chunk`` into ``result`` rows a .. b-1 (finished: INF where there is no path); its
    timings."""
    from .... import gpu_device
    from ..resident import HostRows
    rows = HostRows((b - a, g.n), np.int32, result[a:b])
    if code == "tuned_frontier":
        from ..tuned.frontier import tuned_frontier_resident
        _, t = tuned_frontier_resident(g, sources=chunk, sink=rows.put_unfinished)
    else:
        from ..tuned.sparse import tuned_sparse_rows
        D, t = tuned_sparse_rows(g, chunk)
        rows.put_unfinished(0, D, gpu_device.require_gpu().cuda.get_current_stream())
        del D
    return t
