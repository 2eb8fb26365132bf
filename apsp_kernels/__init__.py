"""apsp_kernels: faithful re-implementations of the classic CUDA all-pairs-shortest-path
algorithms (Harish & Narayanan 2007, Katz & Kider 2008, Tran 2010, Kemp 2012, and the
naive/Thrust FW of seeds 002/003) with their CPU baselines, verification and harness."""
from .core.graph import INF, MAX_PATH_WEIGHT, Graph, GraphError, normalise_inf
from .core.distances import NegativeCycleError
from .core.verify import (VerificationError, assert_equal_distances, first_difference,
                     fletcher64, reference_apsp)
from .core import generators
from .io import formats
from .algorithms import registry
from .algorithms.registry import ALGORITHMS, get as get_algorithm
from .api import shortest_paths
from .core.predecessors import NO_PREDECESSOR

__version__ = "0.1.0"
__all__ = ["INF", "MAX_PATH_WEIGHT", "Graph", "GraphError", "normalise_inf", "NegativeCycleError",
           "VerificationError", "assert_equal_distances", "first_difference", "fletcher64",
           "reference_apsp", "generators", "formats", "registry", "ALGORITHMS", "get_algorithm", "shortest_paths",
           "NO_PREDECESSOR"]
