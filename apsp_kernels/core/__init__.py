"""The ground every other module stands on: the graph type and its one input check (``graph``),
distance conventions (``distances``: INF, finish, negative cycles, min-plus steps), sources of
single-source searches (``sources``), predecessor matrices (``predecessors``), seeded graph
generators (``generators``, ``random_graphs``) and verification against the reference (``verify``)."""
