"""Tran's min-plus APSP on the GPU (Kemp Algs. 14-15): repeated squaring, ping-pong buffers."""
from __future__ import annotations

import numpy as np

from ...core.distances import minplus_steps
from ...core.graph import Graph
from . import runtime as gpu_runtime
from .dense import TRAN_DEFINES, pingpong

def tran_minplus(g: Graph, memory="pageable"):
    k = gpu_runtime.kernel("tran_minplus.cu", "tran_minplus_square", defines=TRAN_DEFINES)
    return pingpong("tran_minplus", g, memory, k, minplus_steps(g),
                     lambda s, d, size, _: (s, d, np.int32(size)))
