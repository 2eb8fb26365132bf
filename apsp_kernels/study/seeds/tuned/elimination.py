"""Notebook 11's elimination section: ``tuned_elimination`` end to end as n grows against the code auto would run
otherwise (``scripts/elimination_gpu_measure.py --e2e``, recorded under data/results/elimination/): tuned_frontier on
the grid and the kNN graph (``*-crossing.csv``), tuned_deep on the deep graphs (``*-crossing-deep.csv``); the
crossings auto learned from those rows, the checks of its picks measured with them (``*-auto-check*.csv`` dated on or
after the newest crossing file), and the rows with the all-core CPU Dijkstra beside
(``scripts/deep_measure.py --graphs ...``, data/results/solver/``*-cpu-beside-*.csv``)."""
from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from .... import elimination_choice as E, paths
from ....algorithms import registry
from ....structure_suite import within_bound
from .suite import cpu_codes, verified

# the elimination and the codes it replaces (registry roles, as elimination_choice reads them), in that order
ROLES = (E.TO,) + tuple(E.TAGS)
CODES = tuple(registry.by_role(r).name for r in ROLES)
ELIM = CODES[0]
RESULTS = {"device": "result left on the GPU (device=True)", "host": "float64 result on the host",
           "int32": "int32 result on the host"}
SHORT = {"device": "on the device", "host": "float64 to the host", "int32": "int32 to the host"}   # table headers


def crossings(where=None):
    """{(role of the code replaced, result): its :class:`~apsp_kernels.elimination_choice.Crossing`} for the
    crossings recorded (tuned_frontier's, tuned_deep's), each result's from the newest file with rows of it, as
    auto reads them."""
    return {(role, res): c for role in E.TAGS for res in RESULTS if (c := E.crossing(where, role, res)) is not None}


def current(fname, where=None):
    """Whether a check file was measured with the crossing rows auto reads today: measured after the newest
    crossing file of the kind it checks, of every result it times (:func:`~apsp_kernels.elimination_choice.stamp`:
    its date, then its provenance's timestamp; ``*-auto-check-deep*.csv`` the deep graphs' crossing against
    tuned_deep, the others the grid's and the kNN graph's against tuned_frontier; an older check tested an older
    rule, or the rule on older rows)."""
    d = E.folder() if where is None else Path(where)
    role = E.DEEP if "-auto-check-deep" in Path(fname).name else E.FROM
    timed = [res for res in RESULTS if f"auto_e2e_{res}_ms" in pd.read_csv(d / Path(fname).name, nrows=0).columns]
    cs = [c for (r, res), c in crossings(where).items() if r == role and res in timed]
    return bool(cs) and all(E.stamp(d / Path(fname).name) >= E.stamp(d / c.source) for c in cs)


def load(where=None):
    """(the crossing rows of both kinds, with an ``against`` column, each file auto reads once; the checks measured
    with today's rows, with a ``file`` column), or empty frames."""
    d = E.folder() if where is None else where
    files = dict.fromkeys((role, c.source) for (role, _), c in crossings(where).items())
    rows = [pd.read_csv(d / f).assign(against=registry.by_role(role).name) for role, f in files]
    checks = [pd.read_csv(f).assign(file=f.name) for f in sorted(d.glob("*-auto-check*.csv")) if current(f.name, where)]
    return (pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(),
            pd.concat(checks, ignore_index=True) if checks else pd.DataFrame())


def _cls(graph):
    return {"kNN6": "kNN", "knn": "kNN"}.get(graph.split(" ")[0], graph.split(" ")[0])


def long(rows):
    """One row per (graph, code or auto, result) with its end-to-end ms: the rows as the figure plots them."""
    out = []
    for r in rows.itertuples(index=False):
        r = r._asdict()
        for res in RESULTS:
            for c in CODES + ("auto",):
                ms = r.get(f"{c}_e2e_{res}_ms")
                if pd.notna(ms):
                    out.append(dict(graph=_cls(r["graph"]), n=int(r["n"]), code=c, result=res, ms=float(ms),
                                    pick=r.get(f"auto_{res}_pick", "")))
    return pd.DataFrame(out)


STYLE = {0: ("o", "-"), 1: ("s", "--"), 2: ("^", ":")}      # elimination solid, tuned_frontier dashed, tuned_deep dotted


def figure(rows, check):
    """End-to-end ms against n (log-log), one panel per result: the elimination and the code it is weighed against
    on each graph class (the crossing rows and the check's), auto's own calls as black crosses."""
    import matplotlib.pyplot as plt
    t = long(pd.concat([rows, check], ignore_index=True)) if len(check) else long(rows)
    fig, axes = plt.subplots(1, len(RESULTS), figsize=(6 * len(RESULTS), 5), sharey=True)
    colour = {c: f"C{i}" for i, c in enumerate(dict.fromkeys(t.graph))}       # one colour a graph class
    for ax, (res, what) in zip(axes, RESULTS.items()):
        p = t[t.result == res]
        for (cls, code), s in p[p.code != "auto"].groupby(["graph", "code"]):
            s = s.groupby("n").ms.median()                                       # two runs at a size: their median
            marker, ls = STYLE[CODES.index(code)]
            ax.plot(s.index, s.values, marker=marker, color=colour[cls], ls=ls, ms=4, label=f"{code}, {cls}")
        a = p[p.code == "auto"]
        if len(a):
            ax.scatter(a.n, a.ms, marker="x", color="black", s=40, zorder=5, label="auto's own call")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("n (vertices, log scale)")
        ax.set_title(what, fontsize=10)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("end to end (ms, log scale)")
    max(axes, key=lambda ax: len(ax.get_lines())).legend(fontsize=7, ncol=2, loc="upper left")
    fig.suptitle(f"{ELIM} (solid) against {CODES[1]} (dashed; grid, kNN) and {CODES[2]} (dotted; path, ring, "
                 "lollipop) through shortest_paths, one H200 (warm; each point a run's median of 3 calls, or of 3 "
                 "interleaved rounds)",
                 fontsize=10)
    fig.tight_layout()
    return fig


def crossing_table(rows, where=None):
    """The learned ratios (the elimination's time over the other code's end to end, the worse graph of each size)
    per code and size, each result's from the file auto reads for it; the graph classes from ``rows`` (:func:`load`'s
    crossing rows); where the rows have m (auto then reads each graph's own ratio, interpolated on m / n), each
    graph's ratio beside."""
    out = {}
    for (role, res), c in crossings(where).items():
        against = registry.by_role(role).name
        mine = rows[(rows.against == against) & rows.get(f"{ELIM}_e2e_{res}_ms", pd.Series(dtype=float)).notna()]
        for i, n in enumerate(c.sizes):
            if math.isnan(c.ratios[res][i]):
                continue
            r = out.setdefault((against, n), {"against": against, "graphs": set(), "n (vertices)": n})
            at = mine[(mine.n >= n / E.SAME_SIZE) & (mine.n <= n * E.SAME_SIZE)]
            r["graphs"] |= {_cls(g) for g in at.graph}
            r[f"the worst graph's ratio, {SHORT[res]}"] = f"{c.ratios[res][i]:.2f}x"
            if c.per_graph:                                       # auto reads each graph's own: shown beside
                r[f"each graph (m / n): ratio, {SHORT[res]}"] = _each(at, against, res)
    for r in out.values():
        r["graphs"] = ", ".join(sorted(r["graphs"]))
    cols = ["against", "graphs", "n (vertices)"] + [f"{w}, {SHORT[res]}" for w in ("the worst graph's ratio",
                                                                                   "each graph (m / n): ratio")
                                                   for res in RESULTS]
    t = pd.DataFrame(sorted(out.values(), key=lambda r: (r["against"], r["n (vertices)"])))
    return t.reindex(columns=[c for c in cols if c in t.columns]).fillna("-")


def _each(rows, against, res):
    """'path (1.00): 1.60x, ...': each row's graph class, m / n and ratio (the elimination's time over ``against``'s)
    with the ``res`` result, or '-'."""
    said = []
    for g in rows.itertuples(index=False):
        q = getattr(g, f"{ELIM}_e2e_{res}_ms") / getattr(g, f"{against}_e2e_{res}_ms")
        if not math.isnan(q):
            said.append(f"{_cls(g.graph)} ({g.m / g.n:.2f}): {q:.2f}x")
    return ", ".join(said) or "-"


def learned(where=None):
    """{(code replaced, result): the least n from which the learned ratio stays below 1 (None where it is not below
    1 at the largest size): :meth:`~apsp_kernels.elimination_choice.Crossing.since`, the rule's own reading}."""
    return {(registry.by_role(role).name, res): c.since(res) for (role, res), c in crossings(where).items()}


def _times(r, res):
    times = {c: r.get(f"{c}_e2e_{res}_ms") for c in CODES}
    return {c: float(v) for c, v in times.items() if pd.notna(v)}


def before_host_rule(fname, where=None):
    """Whether a check file against tuned_frontier (not ``*-auto-check-deep*``) was measured before auto's host test
    against it took its present form (:data:`~apsp_kernels.elimination_choice.HOST_RULE_SINCE`): its rows to the
    host then tested a rule no longer in force."""
    d = E.folder() if where is None else Path(where)
    date, ts, _ = E.stamp(d / fname)
    return "-auto-check-deep" not in fname and (date, ts) < (E.HOST_RULE_SINCE[:10], E.HOST_RULE_SINCE)


def _timed(check, where=None):
    """(row as a dict, result, auto's ms, left out) for each checked row and result auto was timed in; left out: a
    row to the host of a check measured before the host test took its present form (:func:`before_host_rule`, read
    once a file)."""
    old = {f: before_host_rule(f, where) for f in check["file"].unique()} if "file" in check else {}
    for r in check.itertuples(index=False):
        r = r._asdict()
        for res in RESULTS:
            auto = r.get(f"auto_e2e_{res}_ms", math.nan)
            if not math.isnan(auto):
                yield r, res, auto, res != "device" and old.get(r.get("file"), False)


def check_table(check, where=None):
    """Per checked row and result: auto's pick, its own time, the codes' and whether each is within the bound; rows
    left out by :func:`_timed` not shown."""
    out = []
    for r, res, auto, left_out in _timed(check, where):
        if left_out:
            continue
        times = _times(r, res)
        best = min(times.values())
        pick = r[f"auto_{res}_pick"]
        out.append({"graph": r["graph"], "result": res, "auto picks": pick,
                    "auto's call (ms)": auto,
                    **{f"{c} (ms)": times.get(c) for c in CODES},
                    "pick within 1.25x + 2 ms": bool(within_bound(times[pick], best)) if pick in times else None,
                    "auto's call within 1.25x + 2 ms": bool(within_bound(auto, best))})
    return pd.DataFrame(out)


def finding(rows, check, where=None):
    """The section's sentence, computed from the rows: where the elimination wins against each code with each
    result (as auto learned it), and auto's record on the check."""
    if not len(rows):
        return "No elimination rows recorded."
    since = learned(where)
    said = []
    for code, what in ((CODES[1], "the grid and the kNN graph"), (CODES[2], "the deep graphs (path, ring, lollipop)")):
        by_depth = code == CODES[1]                  # to the host against tuned_frontier the depth decides
        at = {res: round(since[(code, res)], -2) for res in RESULTS
              if since.get((code, res)) and not (by_depth and res != "device")}
        if len(at) == len(RESULTS) and len(set(at.values())) == 1:
            parts = [f"from about n = {next(iter(at.values())):,} with every result"]
        else:
            parts = [f"from about n = {n:,} with the {RESULTS[res].split(' (')[0]}" for res, n in at.items()]
        if by_depth:
            parts.append(_by_depth(code, where))
        if parts:
            said.append(f"against `{code}` on {what} " + " and ".join(p for p in parts if p) + _per_graph(code, where))
    t = check_table(check, where) if len(check) else pd.DataFrame()
    left = sum(left_out for *_, left_out in _timed(check, where)) if len(check) else 0
    both = t.dropna(subset=["pick within 1.25x + 2 ms"]) if len(t) else t
    picks = ""
    if len(both):
        miss = both[~both["pick within 1.25x + 2 ms"].astype(bool)]
        calls = int(t["auto's call within 1.25x + 2 ms"].astype(bool).sum())
        picks = (f" Checked on sizes those rows did not have, the code auto picked, timed by name, was within "
                 f"1.25x + 2 ms of the faster of the two on {len(both) - len(miss)} of {len(both)} rows, and "
                 f"auto's own call (its choice included) on {calls} of {len(t)}"
                 + (f" ({left} rows to the host against `{CODES[1]}` left out: measured before the host test took its "
                    "present form, they tested a rule no longer in force)" if left else "")
                 + "." + (" The picks that missed ("
                          + "; ".join(f"{g} on the {r}" for g, r in zip(miss.graph, miss.result)) + "): where the "
                          "rule waits for the least favourable graph of each size, a graph that crosses earlier keeps "
                          "the slower code until then, and times of tens of milliseconds scatter between runs."
                          if len(miss) else ""))
    return (f"End to end on the all-pairs (n x n) result, `{ELIM}` is the faster code, as `method=\"auto\"` "
            "learned it (for the graph least favourable to the elimination at each size), " + "; ".join(said)
            + f". auto takes `{ELIM}` there where the BFS finds the graph's separators small (its widest level at "
            f"most {E.WIDEST:g} sqrt(n) vertices, its hop depth at least {E.SHALLOWEST:g} sqrt(n)), and `{CODES[2]}` on "
            "deep graphs below that size." + picks)


def _by_depth(code, where=None):
    """The words for the depth tests against ``code`` (tuned_frontier): to the host the depth threshold of each result,
    on the device the threshold below the size crossing, each from ``DEPTH_FROM`` vertices (else '')."""
    role = next(r for r in E.TAGS if registry.by_role(r).name == code)
    found = {res: c for (r, res), c in crossings(where).items() if r == role}
    cs = {res: c for res, c in found.items() if res != "device"}
    words = []
    if cs:
        each = " and ".join(f"{E.DEPTH[res]:,}" + (f" ({E.DEPTH_RENUMBERED[res]:,} where `{code}` renumbers the graph)"
                                                    if res in E.DEPTH_RENUMBERED else "")
                            + f" with the {RESULTS[res].split(' (')[0]}" for res in cs)
        words.append(f"to the host by the graph's depth instead, from n = {E.DEPTH_FROM:,} on: where sqrt(n) times the "
                     f"probe's hop depth is at least {each}")
    if "device" in found:
        words.append(f"on the device below that size too, from n = {E.DEPTH_FROM:,} on, where that product is "
                     f"at least {E.DEPTH['device']:,}")
    return "; ".join(words)


def _per_graph(code, where=None):
    """For a crossing whose rows have m: the words saying that each graph's ratio is interpolated on m / n, with the
    smallest size where a measured graph is below 1 and its m / n (else '')."""
    cs = {res: c for (role, res), c in crossings(where).items() if registry.by_role(role).name == code and c.per_graph}
    for n in sorted({n for c in cs.values() for n in c.sizes}):
        low = {res: [(d, r) for d, r in c.points[res][c.sizes.index(n)] if r < 1] for res, c in cs.items()
               if n in c.sizes and c.points[res][c.sizes.index(n)]}
        if any(low.values()):
            d = max(d for pts in low.values() for d, _ in pts)
            at = "; ".join(f"{r:.2f}x with the {RESULTS[res].split(' (')[0]}"
                           for res in RESULTS for dd, r in low.get(res, ()) if dd == d)
            return (f", and earlier for a graph of more edges a vertex (each graph's ratio interpolated on m / n "
                    f"between the graphs measured at its size: at n = {n:,}, m / n = {d:.2f}, {at})")
    return ""


def cpu_beside(where=None):
    """The rows with the all-core CPU Dijkstra beside (``*-cpu-beside-*.csv`` of data/results/solver): per graph and
    code, kernel ms, end to end on the host (float64) and on the device, and the CPU's time over each."""
    d = (paths.RECORDED / "solver") if where is None else where
    files = sorted(d.glob("*-cpu-beside-*.csv"))
    if not files:
        return pd.DataFrame()
    df = pd.concat([pd.read_csv(f) for f in files], ignore_index=True)
    out = []
    for (g, n), t in verified(df).groupby(["graph", "n"], sort=False):
        t = t.set_index("code")
        cpu = cpu_codes(t.index)
        if not cpu or len(t) < 2:
            continue
        base = t.loc[cpu[0], "e2e_ms"]
        for code, r in t.drop(index=cpu).iterrows():
            out.append({"graph": g, "n": int(n), "code": code + (f" (host: {r.auto_host_pick}, device: "
                                                                  f"{r.auto_device_pick})" if code == "auto" else ""),
                        "kernel (ms)": None if math.isnan(r.kernel_ms) else round(r.kernel_ms, 1),
                        "end to end, host float64 (ms)": round(r.e2e_ms, 1),
                        "end to end, device (ms)": round(r.e2e_device_ms, 1),
                        "all-core CPU Dijkstra (ms)": round(base, 1),
                        "CPU / host end to end (x)": round(base / r.e2e_ms, 1)})
    return pd.DataFrame(out)
