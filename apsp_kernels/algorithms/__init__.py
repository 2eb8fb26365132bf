"""The algorithms, grouped by family: ``cpu`` (numba solvers and baselines) and ``gpu`` (launchers
of the CUDA kernels in ``gpu/cuda``).  The registry (``registry``, beside them) is where each
one's facts live; nothing else names them."""
