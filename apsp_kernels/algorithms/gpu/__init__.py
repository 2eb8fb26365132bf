"""GPU launchers of the faithful CUDA kernels (``cuda/*.cu``), one module per family.  Each takes a
Graph and returns ``(distances, timings)`` (the single-source ones, ``bfs`` and ``sssp``, one row per
source); CuPy is imported inside them, when called."""
from .bfs import parallel_bfs, queue_bfs, scan_bfs
from .fw_blocked import katz_kider, kemp_ooc
from .fw_dense import hochberg_naive, iitkgp_naive_fw, thrust_fw, tran_fw
from .fw_hochberg import hochberg_align, hochberg_explore, hochberg_paths
from .fw_nthu import nthu_blocked
from .harish import harish
from .minplus import tran_minplus
from .multi import nthu_multi
from .sssp import harish_sssp, harish_sssp_coarsened

__all__ = ["katz_kider", "kemp_ooc", "hochberg_naive", "hochberg_align", "hochberg_explore", "hochberg_paths",
           "thrust_fw", "tran_fw", "harish", "tran_minplus", "nthu_blocked", "nthu_multi",
           "iitkgp_naive_fw", "parallel_bfs", "queue_bfs", "scan_bfs", "harish_sssp", "harish_sssp_coarsened"]
