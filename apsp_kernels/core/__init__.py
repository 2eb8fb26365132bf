"""The ground every other module stands on: the graph type (``graph``) and its one input check
(``validate``), graphs beyond the int32 kernels (``wide``: int64 or float64 weights, CPU only), host memory checked before allocating (``memory``),
distance conventions (``distances``: INF, finish, negative cycles, min-plus steps), sources of
single-source searches (``sources``), predecessor matrices (``predecessors``), seeded graph
generators (``generators``, ``random_graphs``, the structure suite's generated classes ``structure_graphs``), the hop-depth probe
(``structure``) and verification against the reference (``verify``)."""
