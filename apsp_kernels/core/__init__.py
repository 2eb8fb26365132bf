"""The ground every other module stands on: the graph type (``graph``) and its one input check
(``validate``), host memory checked before allocating (``memory``),
distance conventions (``distances``: INF, finish, negative cycles, min-plus steps), sources of
single-source searches (``sources``), predecessor matrices (``predecessors``), seeded graph
generators (``generators``, ``random_graphs``) and verification against the reference (``verify``)."""
