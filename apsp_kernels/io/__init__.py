"""Graphs from outside: file formats (``formats``), the real graphs of the papers (``datasets``) and
seed 001's graph catalogue (``catalogue``)."""
