"""Tuned GPU codes ("the 2026 line"): the same algorithms written for the H100 today, beside
the faithful kernels and never replacing them (registry ``faithful=False``).  Kernels in
``cuda/tuned_*.cu``, each with a header that says what it is and why it is built as it is."""
from .deep import tuned_deep
from .elimination import tuned_elimination
from .fw import tuned_fw
from .frontier import tuned_frontier
from .ooc import tuned_fw_ooc
from .sparse import tuned_sparse
from .stream import tuned_fw_stream

__all__ = ["tuned_deep", "tuned_elimination", "tuned_frontier", "tuned_fw", "tuned_fw_ooc", "tuned_fw_stream", "tuned_sparse"]
