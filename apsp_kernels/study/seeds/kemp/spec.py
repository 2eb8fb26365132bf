"""What each notebook measures, as data: a list of jobs (algorithm, variant, parameters,
graph, n, full or sampled, repeats).  The campaign runs the union of the jobs of every
notebook, each once per independent process, so that two notebooks never time the same
(algorithm, graph) apart and every number has the same statistics behind it.  Which code each
notebook times is data too: data/sweeps/kemp.yaml (:data:`K`)."""
from __future__ import annotations

import json
from dataclasses import dataclass

from ....algorithms import registry
from ...method import codes
from .profiles import graph_label, repeats_for

KEMP = graph_label(2, 6)         # Kemp's graphs (degree 2-6): the campaign's graph, where a claim names none
NOTEBOOKS = ("00_environment_and_cpu_baselines", "01_tran_fw", "02_katz_kider", "03_harish_scaling",
             "04_memory_modes", "05_out_of_core", "06_all_algorithms")
CPU_NB, TRAN_NB, KK_NB, HARISH_NB, MEMORY_NB, OOC_NB, ALL_NB = NOTEBOOKS
MEMORY_MODES = registry.MODES
K = codes.load("codes", codes.KEMP_SWEEP)      # role -> (algorithm, variant), or a list of them


@dataclass(frozen=True)
class Job:
    algorithm: str
    variant: str
    params: str            # JSON, sorted keys
    graph: str             # 'kemp 2-6'
    n: int
    samples: int | None    # None: a full, verified solve; else the sampled estimate
    repeats: int
    once: bool = False     # run in the first process only (a demonstration, not a statistic)
    rounds: bool = False   # timed in rounds interleaved with the other such jobs of its size (schedule)

    @property
    def key(self):
        return (self.algorithm, self.variant, self.params, self.graph, self.n, self.samples)

    @property
    def estimate(self):
        return "measured" if self.samples is None else "sampled"


def job(algorithm, variant, n, *, params=None, graph=KEMP, samples=None, repeats=1, once=False):
    a = registry.get(algorithm)
    v = str(variant if variant is not None else a.default_variant)
    return Job(algorithm, v, json.dumps(dict(params or {}), sort_keys=True), graph, int(n), samples, int(repeats), once)


def _upto(sizes, cap):
    return sorted(n for n in set(sizes) if n <= cap)


def on_kemp(C):
    """The claims ``C`` (by id), each with the graph its times are read on: its own (claims.yaml ``graph``), else
    :data:`KEMP`.  The method reads a claim's graph from the claim and has no default of its own."""
    return {cid: c if c.get("graph") else {**c, "graph": KEMP} for cid, c in C.items()}


def forced(code, n, partitions=None):
    """The launcher keywords that split the graph into ``partitions`` parts, as Kemp forced his
    small graphs through the out-of-core path (the registry's rule; the code's variant is its block).
    The number of parts is declared with the claims it sets (claims.yaml ``parameters``: 4)."""
    from ...method import claims
    partitions = partitions or claims.parameter("partitions")
    block = int(code.variant)
    return registry.get(code.algorithm).forced_params(n, block, registry.rows_for_partitions(n, block, partitions))


# ------------------------------------------------------------------ CPU baselines
def cpu_baselines(P, sizes):
    """Sequential FW (Alg. 4), blocked FW (Alg. 8 as written), the best CPU codes (all-core
    blocked FW and Dijkstra) and one-thread Dijkstra: in full where a solve is affordable,
    sampled at every size (the full runs validate the sampled estimate)."""
    out = []
    sizes = sorted(set(sizes))
    r = lambda n: repeats_for(P, n)
    for n in sizes:
        s = P["seq_samples"] if n < 8192 else P["seq_samples_large"]
        out.append(job(*K["sequential"], n, samples=s, repeats=r(n)))
        if n <= P["blocked_cap"]:
            out.append(job(*K["blocked"], n, samples=P["blocked_rounds"], repeats=r(n)))
        out.append(job(*K["blocked_all_cores"], n, samples=P["blocked_rounds"], repeats=r(n)))
        out.append(job(*K["dijkstra_all_cores"], n, samples=P["dijkstra_sources"], repeats=r(n)))
        out.append(job(*K["dijkstra"], n, samples=P["dijkstra_sources"] // 8, repeats=r(n)))
        if n <= P["full_cap"]:
            for role in ("sequential", "blocked_all_cores", "dijkstra_all_cores", "dijkstra"):
                out.append(job(*K[role], n, repeats=r(n)))
        if n <= P.get("blocked_full_cap", P["full_cap"]):
            out.append(job(*K["blocked"], n, repeats=r(n)))
    if P.get("full_once"):
        n = P["full_once"]
        out += [job(*K["sequential"], n, once=True), job(*K["blocked"], n, once=True)]
    return out


def gpu_sizes(P):
    return sorted(P["gpu_sizes"])


def _gpu(code, sizes, P, **kw):
    return [job(*code, n, repeats=repeats_for(P, n), **kw) for n in sizes]


def jobs_for(notebook, P):
    """The jobs behind one notebook (the shared CPU baselines included)."""
    G = gpu_sizes(P)
    base = cpu_baselines(P, G)
    if notebook == CPU_NB:
        cs = P["cpu_sizes"]
        out = cpu_baselines(P, cs + G)
        for n in cs:
            out.append(job(*K["blocked_vec"], n, samples=P["blocked_rounds"], repeats=repeats_for(P, n)))
            if n <= P["full_cap"]:
                out.append(job(*K["blocked_vec"], n, repeats=repeats_for(P, n)))
            if n <= 1024:
                out.append(job(*K["library"], n, repeats=repeats_for(P, n)))
        return out
    if notebook == TRAN_NB:
        # Tran's largest size (11,264: Kemp Sec. 5.4) is measured too: its time growth is a claim
        tl = [P["tran_largest"]] if P.get("tran_largest") else []
        base = base + [j for j in cpu_baselines(P, tl) if j.algorithm == K["sequential"].algorithm]
        mp = [job(*K["squaring"], n, samples=P["minplus_rows"], repeats=repeats_for(P, n))
              for n in _upto(G + P["cpu_sizes"], P["minplus_cap"])]
        mp += [job(*K["squaring"], n, repeats=repeats_for(P, n)) for n in _upto(P["cpu_sizes"], 512)]
        return (base + mp + _gpu(K["tran"], _upto(G, P["tran_cap"]) + tl, P)
                + _gpu(K["minplus"], _upto(G, P["cubic_cap"]) + tl, P)
                + _gpu(K["naive"], _upto(G, P["cubic_cap"]), P)
                + _gpu(K["thrust"], _upto(G, P["cubic_cap"]), P))
    if notebook == KK_NB:
        return (base + _gpu(K["kk"], G, P) + _gpu(K["kk32"], _upto(G, P.get("kk32_cap", max(G))), P)
                + _gpu(K["harish_atomic"], G, P)
                + _gpu(K["harish_corrected"], _upto(G, P.get("corrected_cap", P["variant_cap"])), P))
    if notebook == HARISH_NB:
        out = base + _gpu(K["harish_atomic"], G, P)
        for role in ("harish_corrected", "harish_racy"):
            out += _gpu(K[role], _upto(G, P["variant_cap"]), P)
        for n in P["race_sizes"]:
            out += [job(*K[role], n, repeats=3) for role in ("harish_racy", "harish_atomic")]
        dn = P["degree_n"]
        for lo, hi in P["degrees"]:
            g = graph_label(lo, hi)
            out += [job(*K[role], dn, graph=g, repeats=repeats_for(P, dn))
                    for role in ("harish_atomic", "dijkstra", "dijkstra_all_cores")]
        for lo, hi in P["degrees"]:                 # the dense codes: is their time independent of degree?
            g = graph_label(lo, hi)
            out += [job(*code, dn, graph=g, repeats=repeats_for(P, dn)) for code in K["degree_dense"]]
            out.append(job(*K["ooc"], dn, graph=g, params=forced(K["ooc"], dn), repeats=repeats_for(P, dn)))
        return out
    if notebook == MEMORY_NB:
        out = []
        for n in P["mem_sizes"]:
            reps = max(3, repeats_for(P, n)) if n <= 1024 else repeats_for(P, n)
            for code in K["memory_modes"]:
                out += [job(*code, n, params={"memory": m}, repeats=reps) for m in MEMORY_MODES]
            out.append(job(*K["sequential"], n, repeats=reps if n <= 1024 else repeats_for(P, n)))
        return out
    if notebook == OOC_NB:
        # ooc_extra: sizes of Kemp's grid (every 1024) between ours, for the slow-down claim's pair only, so that
        # its matched sizes do not lean to n <= 4096 (4 of 6 before): the 2/3 share counts matched sizes
        extra = set(P.get("ooc_extra", ()))
        out = (base + _gpu(K["kk"], sorted(set(G) | extra), P)
               + _gpu(K["kk32"], _upto(G, P.get("kk32_cap", max(G))), P))
        for code, cap, more in ((K["ooc"], P["ooc_cap"], extra), (K["ooc32"], P["ooc32_cap"], set())):
            out += [job(*code, n, params=forced(code, n), repeats=repeats_for(P, n))
                    for n in sorted(set(_upto(G, cap)) | more)]
        big_n, big_mib = P["ooc_big"]
        out.append(job(*K["ooc32"], big_n, params={"budget_bytes": int(big_mib * 2**20)}, once=True))
        return out
    if notebook == ALL_NB:
        seen, out = set(), []
        for nb in NOTEBOOKS[1:6]:
            if nb == MEMORY_NB:
                continue
            for j in jobs_for(nb, P):
                if j.graph == KEMP and j.key not in seen and (j.algorithm, j.variant) != K["harish_racy"]:
                    seen.add(j.key)
                    out.append(j)
        return out
    return []


def in_rounds(j, P):
    """Whether a job is timed in interleaved rounds: a dense GPU code in its default memory, a full
    solve, at n <= ``rounds_n`` (runs of milliseconds to under a second, whose end-to-end time is
    mostly the host's share: building the matrix, pageable copies)."""
    a = registry.get(j.algorithm)
    return (a.device == "gpu" and a.representation == "dense" and j.samples is None and not j.once
            and '"memory"' not in j.params and j.n <= P.get("rounds_n", 0))


def campaign_jobs(P, notebooks=NOTEBOOKS):
    """The union of the notebooks' jobs, one per key (the most repeats asked for), ordered by
    size so that CPU and GPU runs interleave, and small runs come first.  The jobs timed in
    rounds (:func:`in_rounds`) get at least ``P["rounds"]`` repeats."""
    merged = {}
    for nb in notebooks:
        for j in jobs_for(nb, P):
            old = merged.get(j.key)
            if old is None or j.repeats > old.repeats or (old.once and not j.once):
                merged[j.key] = Job(*j.key[:5], j.samples, max(j.repeats, old.repeats if old else 0),
                                    j.once and (old.once if old else True))
    merged = {k: (Job(*j.key[:5], j.samples, max(j.repeats, P["rounds"]), j.once, True) if in_rounds(j, P) else j)
              for k, j in merged.items()}
    order = {a: i for i, a in enumerate(registry.ALGORITHMS)}
    return sorted(merged.values(), key=lambda j: (j.n, j.graph, order[j.algorithm], j.variant, j.params, j.samples or 0))


def satellite_jobs(P, notebooks=NOTEBOOKS):
    """The jobs a satellite process runs (profiles, key ``satellites``): the campaign's own jobs of
    those codes at those sizes on Kemp's graph, full solves, unchanged (the same keys and repeats,
    so that their records join the main processes' as more independent processes)."""
    sat = P.get("satellites") or {}
    codes = {tuple(K[r]) for r in sat.get("roles", ())}
    sizes = set(sat.get("sizes", ()))
    return [j for j in campaign_jobs(P, notebooks) if (j.algorithm, j.variant) in codes and j.n in sizes
            and j.graph == KEMP and j.samples is None and '"memory"' not in j.params and not j.once]


def schedule(jobs):
    """The steps of one campaign process, in the jobs' order: a job alone (its repeats back to back),
    or, where the first job timed in rounds of a size comes, every such job of that size together
    (a tuple).  Why rounds: on the leased machines the end-to-end time of a run of milliseconds
    (mostly host work: copies, building the matrix) moves by 20-80% for a second or more at a time,
    and single runs double (runs 20261123-013000 and -041000); repeats back to back put such a slow
    moment on every repeat of one code, and on one degree graph but not the others.  In rounds,
    every code and graph of the size is timed within a round of one to a few seconds, again and again,
    so a slow moment falls on all of them alike and the median of the rounds sets it aside."""
    groups = {}
    order = {a: i for i, a in enumerate(registry.ALGORITHMS)}
    for j in sorted(jobs, key=lambda j: (order[j.algorithm], j.variant, j.params, j.graph)):
        if j.rounds:
            groups.setdefault(j.n, []).append(j)
    out, done = [], set()
    for j in jobs:
        if not j.rounds:
            out.append(j)
        elif j.n not in done:
            done.add(j.n)
            out.append(tuple(groups[j.n]))
    return out


def round_order(group, r):
    """Round ``r``'s order of a group: each code's graphs back to back (so the degrees of one code
    are timed within a fraction of a second of each other), the codes rotated by r and each code's
    graphs rotated by r, so that no job is always the first of its code or follows the same one."""
    blocks = {}
    for j in group:
        blocks.setdefault((j.algorithm, j.variant, j.params), []).append(j)
    codes = list(blocks.values())
    codes = codes[r % len(codes):] + codes[:r % len(codes)]
    return [j for b in codes for j in b[r % len(b):] + b[:r % len(b)]]
