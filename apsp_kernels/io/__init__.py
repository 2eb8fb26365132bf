"""Graphs from outside: file formats (``formats``, the one entry point, over ``edge_lists``, ``mtx`` and
``npz``, which share ``source``: one read, exact numbers, errors by file and line), the outputs of a
solve with their vertex ids (``results``), the real graphs of the papers (``datasets``), the road
networks that ship with the package (``roads``, ``data/``) and seed 001's
graph catalogue (``catalogue``).  docs/io.md describes the formats and their conventions."""
