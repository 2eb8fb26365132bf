"""What every graph of the study shares, below the graph type itself: the distance that means "no
path" (INF), the largest path weight kept apart from it, and the error a graph nobody can use raises
(the input check and the memory check raise it too, so it cannot live with the graph type)."""
from __future__ import annotations

import numpy as np

INF = np.int32(2**30 - 1)
MAX_PATH_WEIGHT = int(INF) // 2


class GraphError(ValueError):
    """A graph (or a file describing one) that the study cannot use."""


def normalise_inf(d):
    """Map every value above MAX_PATH_WEIGHT back to INF, in place (numpy or cupy)."""
    d[d > MAX_PATH_WEIGHT] = INF
    return d
