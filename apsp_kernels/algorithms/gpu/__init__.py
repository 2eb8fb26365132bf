"""GPU launchers of the faithful CUDA kernels (``cuda/*.cu``), one module per family.  Each takes a
Graph and returns ``(distances, timings)`` (the single-source ones, ``bfs`` and ``sssp``, one row per
source); CuPy is imported inside them, when called."""
from .bfs import parallel_bfs, queue_bfs, scan_bfs
from .fw_blocked import katz_kider, kemp_ooc
from .fw_dense import hochberg_naive, iitkgp_naive_fw, thrust_fw, tran_fw
from .harish import harish
from .minplus import tran_minplus
from .sssp import harish_sssp, harish_sssp_coarsened

__all__ = ["katz_kider", "kemp_ooc", "hochberg_naive", "thrust_fw", "tran_fw", "harish", "tran_minplus",
           "iitkgp_naive_fw", "parallel_bfs", "queue_bfs", "scan_bfs", "harish_sssp", "harish_sssp_coarsened"]
