"""CPU solvers and baselines, one module per family; each takes a Graph and returns an int32
distance matrix, or for the single-source problems (``bfs``, ``sssp``) one int32 row per source
(the registry wraps them into the launcher contract, ``(distances, timings)``)."""
from .bfs import bfs_levels
from .dijkstra import dijkstra_apsp, sample_dijkstra_apsp
from .elimination import elimination_apsp
from .fw import (fw_blocked, fw_blocked_parallel, fw_blocked_vec, fw_sequential, sample_fw_blocked,
                 sample_fw_blocked_parallel, sample_fw_blocked_vec, sample_fw_sequential, vector_report)
from .library import scipy_dijkstra, scipy_floyd_warshall
from .minplus import minplus_squaring, sample_minplus_squaring
from .sssp import dijkstra_sssp
from .units import cpu_threads, spaced

__all__ = ["dijkstra_apsp", "sample_dijkstra_apsp", "fw_blocked", "fw_blocked_parallel", "fw_blocked_vec",
           "fw_sequential", "sample_fw_blocked", "sample_fw_blocked_parallel", "sample_fw_blocked_vec",
           "sample_fw_sequential", "vector_report", "scipy_dijkstra", "scipy_floyd_warshall", "minplus_squaring",
           "sample_minplus_squaring", "cpu_threads", "spaced", "bfs_levels", "dijkstra_sssp",
           "elimination_apsp"]
