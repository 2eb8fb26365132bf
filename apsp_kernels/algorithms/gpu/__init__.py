"""GPU launchers of the faithful CUDA kernels (``cuda/*.cu``), one module per family.  Each takes a
Graph and returns ``(distances, timings)``; CuPy is imported inside them, when called."""
from .fw_blocked import katz_kider, kemp_ooc
from .fw_dense import hochberg_naive, thrust_fw, tran_fw
from .fw_nthu import nthu_blocked
from .fw_hochberg import hochberg_align, hochberg_explore, hochberg_paths
from .harish import harish
from .minplus import tran_minplus
from .multi import nthu_multi

__all__ = ["katz_kider", "kemp_ooc", "hochberg_naive", "hochberg_align", "hochberg_explore", "hochberg_paths",
           "thrust_fw", "tran_fw", "harish", "tran_minplus", "nthu_blocked", "nthu_multi"]
