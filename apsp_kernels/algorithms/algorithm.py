"""What the registry knows of one algorithm: the :class:`Algorithm` entry (its paper, device, variants
and the launcher keyword they go by, footprint, memory modes, limits, sampler and work formula) and how
an entry runs its launcher.  The entries themselves are registry.py's."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Algorithm:
    name: str
    label: str
    paper: str
    kemp_algorithm: str | None        # number(s) in Kemp's thesis, or None
    device: str                       # "cpu" or "gpu"
    representation: str               # "dense" (adjacency matrix) or "csr" (compacted adjacency list)
    footprint: Callable[[int, int], int]   # device (GPU) or host (CPU) bytes for (n, m)
    launcher: Callable                # (graph, **keywords) -> (distances, timings), CPU and GPU alike
    variants: tuple = (None,)
    negative_weights: bool = True
    faithful: bool = True             # follows the paper; tuned versions say False
    memory_modes: tuple = ()          # host memory modes it accepts (GPU dense family)
    complexity: str = "n^3"           # what "updates" means for its throughput
    notes: str = ""
    params: dict = field(default_factory=dict)
    # CPU codes whose work comes in equal units (pivots, rounds, sources, rows): runs
    # ``samples`` units and returns (setup_ms, work_ms, units_run, units_total), so that a
    # solve too slow to run in full is estimated from a sample in the same compiled code
    sampler: Callable | None = None
    sample_unit: str = ""
    multithreaded: bool = False       # CPU code over all cores (else: one thread, pinned when timed)
    variant_param: str = "block"      # the launcher keyword a variant is passed as
    inexact_variants: tuple = ()      # variants allowed to give wrong distances (a published race)
    limit_kind: str | None = None     # the hardware limit it is judged against: "bandwidth" or "minplus"
    work: Callable | None = None      # relaxations ("updates") of one solve of a graph, for throughput
    forced_params: Callable | None = None   # (n, variant, rows_per_part) -> launcher keywords that force
                                            # the out-of-core path into partitions of that many block rows
    auto_rank: int | None = None      # preference of shortest_paths(method="auto") among the codes
                                      # that can run here (lower first; None: never chosen)
    best_cpu: bool = False            # a candidate for "the best CPU code we have", set beside every claim
    exploration: bool = False         # a seed's exploration around a faithful kernel: measured by that
                                      # study's own script (scripts/hochberg_measure.py), not by the benchmark
    problem: str = "apsp"             # "apsp"; "bfs" or "sssp": launcher(graph, sources=...) -> one row per source
    float32: bool = False             # takes float weights, its sums in float32 (launcher keyword dtype="float32")
    resident: Callable | None = None  # the solver's end-to-end path (gpu/resident.py): (graph, **keywords) ->
                                      # (n x n device distances, INF not yet normalised; timings)
    roles: tuple = ()                 # the parts it plays where code needs "the ... algorithm" (:func:`by_role`):
                                      # "out_of_core", the code to try when a graph does not fit on the device
    hub_ms: Callable | None = None    # (n, max out-degree, hop depth or None, variant, unit) -> the least ms of a
                                      # solve where one warp walks (or one block shares) a vertex's out-edges, at
                                      # ``unit`` seconds a walk step (data/auto.yaml hub_unit; costs.predict)
    footprint_per_gpu: Callable | None = None   # (n, m, k) -> device bytes on each of k GPUs, for a code that
                                      # splits one solve over k GPUs of a host (launcher keyword n_gpus; None: all
                                      # of them); its ``footprint`` is then that of k = 1.  These are the multi-GPU
                                      # codes (:attr:`multi_gpu`): shortest_paths(devices=k) runs them, by_device()
                                      # leaves them out of the one-GPU sweeps

    @property
    def multi_gpu(self):
        return self.footprint_per_gpu is not None

    @property
    def exact_variants(self):
        return tuple(v for v in self.variants if v not in self.inexact_variants)

    def updates(self, g):
        return self.work(g) if self.work is not None else float(g.n) ** 3

    @property
    def default_variant(self):
        return self.variants[0]

    def _kwargs(self, variant, params):
        kw = dict(self.params)
        kw.update(params)
        if variant is not None and str(variant) != "None":
            # results files carry variants as text: match "32" to 32
            match = [v for v in self.variants if str(v) == str(variant)]
            if not match:
                raise ValueError(f"{self.name}: unknown variant {variant!r}; one of {self.variants}")
            kw[self.variant_param] = match[0]
        return kw

    def run(self, graph, variant=None, **params):
        return self.launcher(graph, **self._kwargs(variant, params))

    def run_resident(self, graph, variant=None, **params):
        if self.resident is None:
            raise ValueError(f"{self.name} has no device-resident form")
        return self.resident(graph, **self._kwargs(variant, params))

    def sample(self, graph, samples, variant=None, **params):
        """(setup_ms, work_ms, units_run, units_total) of a sampled run (see ``sampler``)."""
        if self.sampler is None:
            raise ValueError(f"{self.name} has no sampled timing; run it in full")
        return self.sampler(graph, samples, **self._kwargs(variant, params))
