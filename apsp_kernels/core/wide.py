"""Graphs whose distances do not fit the study's int32 kernels: :class:`WideGraph`, with int64 weights (integers
whose paths may pass the int32 bound, up to ``MAX_PATH_WEIGHT64``) or float64 ones (non-integer floats, as scipy
reads them).  ``Graph.from_edges(..., dtype="auto")`` makes one where a :class:`~.graph.Graph` cannot hold the
graph exactly; only the CPU codes of :mod:`apsp_kernels.algorithms.cpu.wide` take it.

It is deliberately not a ``Graph``: every int32 consumer (the GPU launchers, the CPU kernels, ``to_dense``) reads
``weights``, ``edges()`` or ``to_dense()``, and on a WideGraph each of them raises one clear line instead of
casting floats or int64 to int32 silently."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .limits import GraphError
from .validate import MAX_PATH_WEIGHT64

INF64 = np.int64(2**62 - 1)        # 'no path' of int64 distances: INF64 + INF64 still fits in int64


@dataclass(frozen=True, eq=False)
class WideGraph:
    n: int
    indptr: np.ndarray               # int64
    indices: np.ndarray              # int32
    values: np.ndarray               # int64 or float64 edge weights
    names: tuple | np.ndarray | None = field(default=None, compare=False)
    meta: dict = field(default_factory=dict, compare=False)

    @property
    def m(self) -> int:
        return int(self.indices.size)

    @property
    def dtype(self):
        """The distances' dtype: int64 or float64."""
        return self.values.dtype

    @property
    def has_negative(self) -> bool:
        return bool(self.values.size and self.values.min() < 0)

    @property
    def ids(self):
        return np.arange(self.n, dtype=np.int64) if self.names is None else np.asarray(self.names)

    def _refuse(self, what):
        raise GraphError(f"{what} needs int32 weights; this graph's are {self.dtype} ("
                         + ("non-integer floats" if self.dtype.kind == "f" else
                            f"integers whose paths may pass the int32 bound, up to {MAX_PATH_WEIGHT64}")
                         + "): only the CPU codes beyond int32 take it (shortest_paths with method 'auto', 'D', "
                           "'FW', 'BF' or 'J')")

    @property
    def weights(self):
        self._refuse("an int32 code")

    def edges(self):
        self._refuse("an int32 code")

    def to_dense(self, *a, **k):
        self._refuse("an int32 dense code")

    def wide_edges(self):
        """(src, dst, values) arrays."""
        return np.repeat(np.arange(self.n, dtype=np.int64), np.diff(self.indptr)), self.indices, self.values

    def to_scipy(self):
        """scipy CSR matrix of float64 weights (exact for floats; int64 weights beyond 2**53 are rounded)."""
        import scipy.sparse as sp
        return sp.csr_matrix((self.values.astype(np.float64), self.indices, self.indptr), shape=(self.n, self.n))

    def require_non_negative(self, who):
        if self.has_negative:
            from .negative_cycle import refuse_negative_cycle
            refuse_negative_cycle(self)          # a negative cycle is named as one, whoever refuses the weights
            raise GraphError(f"{who} needs non-negative edge weights (min weight {self.values.min().item()})")

    def __repr__(self):
        return f"WideGraph(n={self.n}, m={self.m}, dtype={self.dtype}, meta={self.meta})"
