"""Notebook 11's structure suite (``structure_suite.py``, recorded under data/results/benchmarks/*-structure.csv and
*-auto.csv): per graph, every GPU code's kernel and end-to-end times beside the CPU codes and libraries a user
would pick instead, and what ``method="auto"`` picked and took end to end."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .... import paths
from ....cost_rows import stamp
from ....algorithms import registry
from ....structure_suite import BOUND, SIZES, SMALL, first_call_rounds, within_bound
from .plans import plans

MEDIAN = "auto's median call"   # a verdict's subject: auto's median over rounds against the fastest named median

ORDER = ["kemp", "ba", "hub", "small_world", "components", "dag", "dense", "complete", "grid", "grid3d", "knn",
         "ring", "path", "lollipop", "helsinki-walk", "helsinki-drive"]
MODES = {"e2e_ms": "float64", "e2e_int32_ms": "int32", "e2e_device_ms": "on the device", "e2e_first_ms": "first call"}
RESULT = {"e2e_ms": "host", "e2e_int32_ms": "host", "e2e_device_ms": "device", "e2e_first_ms": "host"}   # the result, per mode
KIND = {**RESULT, "e2e_int32_ms": "int32"}     # ... with int32 to the host apart (choice.RESULTS)
PAST = "auto's call past 1.25x + 2 ms of the fastest code's, in"
TABLE_CAPTION = ("Every graph: auto's pick and calls, the fastest GPU code and the CPU codes. All-core CPU code: "
                 "dijkstra_cpu_parallel, int64_johnson where a weight is negative. A dash: not run (scipy where "
                 "n m is large; networkit on negative weights). Each time is one call; auto's and each code's are "
                 "separate calls, so auto can come out below the fastest code by the scatter between calls (the "
                 "next table). auto's first call is on a new graph object, its only call not after a warm one. "
                 "auto's picks are the rules' of the run that measured each row; where the rules here now pick the "
                 "code that was the fastest on a miss, the finding above says so.")
SIZE_CAPTION = ("Every graph past the suite's sizes, each from the newest run that measured it (the finding at the "
                "top names the runs): auto's pick and calls (warm calls the medians of interleaved rounds where the "
                "run timed rounds), the fastest GPU code and the all-core CPU code (one call), and auto's float64 "
                "call over it.")
SCATTER_CAPTION = ("Warm single calls in interleaved rounds: every code and mode once a round, each after a warm "
                   "call, under the code of their own commit (each graph from the newest file that holds it, the "
                   "file named). At 4,096 and 16,384 scripts/e2e_scatter_probe.py's, another process than the table "
                   "above; at 32,768 and more the structure suite's own (--rounds: files ending -calls, the calls "
                   "whose medians its rows hold). The components of 512 and the complete digraphs of 256 (n = "
                   "4,096) were measured after the held-out check below, where auto's single calls missed on them; "
                   "the hub and Barabasi-Albert graphs after tuned_frontier's heavy-vertex path (2026-11-30): post "
                   "hoc.")


def load(where=None, tag="structure"):
    """(the suite's rows, auto's rows) of the newest recorded files, or empty frames.  Auto's rows come from the
    suite's own file (the same run as the CPU rows they are divided by) unless a ``*-auto.csv`` (an ``--auto-only``
    run) is of a later date.  ``tag``: the file's tag (``structure-deep-road``: the deep and road-like classes)."""
    found = {t: _dated("benchmarks", where, f"*-{t}.csv") for t in (tag, "auto")}
    found["structure"] = found.pop(tag)
    if tag != "structure":
        found["auto"] = []                     # an --auto-only run belongs to the main suite
    rows = pd.read_csv(found["structure"][-1]) if found["structure"] else pd.DataFrame()
    if found["structure"]:
        rows.attrs["commits"] = _provenance_commit(found["structure"][-1], every=True)   # said beside later rounds
    if found["auto"] and (not found["structure"] or stamp(found["auto"][-1]) > stamp(found["structure"][-1])):
        return rows, pd.read_csv(found["auto"][-1])
    return rows, (rows[rows.kind == "auto"].reset_index(drop=True) if "kind" in rows else pd.DataFrame())


def _dated(folder, where, pattern):
    """The files matching ``pattern`` in ``where`` (default: the recorded results' ``folder``), oldest first
    (:func:`~apsp_kernels.cost_rows.stamp`: the date in the name, then the provenance's timestamp)."""
    d = (paths.RECORDED / folder) if where is None else where
    return sorted(d.glob(pattern), key=stamp)


def _date(f):
    """A benchmark file's date (``<device>-<YYYY-MM-DD>-<tag>.csv``: the costs model's one reading of that name)."""
    from ....costs import FILE
    m = FILE.match(f.name)
    return m.group("date") if m else ""


def verified(rows, kind=None):
    """The rows whose result was checked equal to the reference (``verified``, read as text: a CSV holds bools or
    their names), of ``kind`` ('gpu', 'cpu', 'auto') if given."""
    ok = rows[rows.verified.astype(str) == "True"]
    return ok if kind is None else ok[ok.kind == kind]


def table(rows, auto):
    """One row per graph: its hop depth, auto's pick and end-to-end time, the fastest verified GPU code end to
    end, the CPU codes' and libraries' wall times, and auto's speed-up over the all-core CPU code."""
    out = []
    for (g, n), t in rows.groupby(["graph", "n"], sort=False):
        gpu, cpu = verified(t, "gpu"), verified(t, "cpu")
        a = auto[(auto.graph == g) & (auto.n == n)] if len(auto) else auto
        r = {"graph": g, "n (vertices)": int(n), "edges (count)": int(t.m.iloc[0]), "hop depth (count)": int(t.hop_depth.iloc[0])}
        if len(a):
            a = a.iloc[0]
            r.update({"auto picks": a.picked, "auto end to end (ms)": round(float(a.e2e_ms), 1),
                      "auto int32 (ms)": round(float(a.e2e_int32_ms), 1), "auto on device (ms)": round(float(a.e2e_device_ms), 1),
                      "auto first call (ms)": round(float(a.get("e2e_first_ms", np.nan)), 1)})
            if len(gpu):
                past = past_bound(a, gpu)
                r[PAST] = ("; ".join(f"{m}: {mine:.1f} ms against {code}'s {ms:.1f}{_ran(a, m, code)}"
                                     for m, mine, code, ms in past) if past else "none")
        if len(gpu):
            best = gpu.loc[gpu.e2e_ms.idxmin()]
            took = f"{_ms(best.e2e_ms)} ms (kernel {_ms(best.kernel_ms)})"
            r["fastest GPU code, float64 end to end"] = f"{best.algorithm} {took}"
        for c in cpu.itertuples():
            r[f"{c.algorithm} (ms)"] = round(float(c.e2e_ms), 1)
        allcore = [c for c in cpu.itertuples() if c.threads > 1 and c.algorithm != "networkit"]
        if len(a) and allcore:
            r["auto over the all-core CPU code (x)"] = round(float(allcore[0].e2e_ms / a["e2e_ms"]), 1)
        out.append(r)
    df = pd.DataFrame(out)
    return in_order(df, "n (vertices)").reset_index(drop=True)


def in_order(t, n="n"):
    """``t`` (with ``graph`` and a size column ``n``) by size, then by the classes' :data:`ORDER`."""
    return t.assign(_o=t.graph.map({g: i for i, g in enumerate(ORDER)})).sort_values([n, "_o"]).drop(columns="_o")


def rounds_said(rows):
    """The distinct ``e2e_rounds`` of suite rows ('3', '3 or 5'): ``structure_suite --rounds``; '' where none."""
    k = rows["e2e_rounds"].dropna() if "e2e_rounds" in rows else ()
    return " or ".join(sorted({f"{int(x):g}" for x in k}))


def _ran(a, mode, code):
    """', the code auto ran' where auto's row ``a`` records ``code`` as its pick in ``mode`` (a label of MODES): its
    call past the bound is the same code's slower call, not a wrong pick."""
    return ", the code auto ran" if recorded_pick(a, KIND[_column(mode)]) == code else ""


def against_fastest(a, gpu):
    """[(mode column, auto's ms, the fastest code, its ms, within 1.25x + 2 ms)] for each mode of :data:`MODES` that
    auto's row ``a`` and the verified GPU rows ``gpu`` both hold; its first call against the fastest float64 call,
    as the suite's summary."""
    out = []
    for col in MODES:
        if ("e2e_ms" if col == "e2e_first_ms" else col) not in gpu:
            continue
        times = gpu["e2e_ms" if col == "e2e_first_ms" else col].dropna()
        mine = a.get(col, np.nan)
        if mine == mine and len(times):
            out.append((col, float(mine), gpu.loc[times.idxmin(), "algorithm"], float(times.min()),
                        bool(within_bound(mine, times.min()))))
    return out


def _ms(x):
    """A time in a table's text cell: one decimal below a second, whole ms with a separator from it (1,817)."""
    return f"{x:.1f}" if abs(x) < 1000 else f"{x:,.0f}"


def past_bound(a, gpu):
    """[(mode, auto's ms, the fastest code, its ms)] for each mode (:data:`MODES`' words) where auto's row ``a`` is
    past 1.25x + 2 ms of the fastest verified GPU code (rows ``gpu``) in that mode (:func:`against_fastest`)."""
    return [(MODES[col], mine, code, ms) for col, mine, code, ms, within in against_fastest(a, gpu) if not within]


def device(where=None, tag="structure"):
    """The device of the newest recorded suite file (its name's ``<device>`` part, words)."""
    from ....costs import FILE
    found = _dated("benchmarks", where, f"*-{tag}.csv")
    return FILE.match(found[-1].name).group("device").replace("_", " ") if found else "-"


def figure(rows, auto, on="the device"):
    """End-to-end wall time per graph (float64 to the host, log scale), one row a graph and one panel a size: every
    verified GPU code (grey; the fastest ringed), auto's own call (black), this package's all-core CPU code and the
    libraries."""
    import matplotlib.pyplot as plt
    ok = verified(rows)
    a = verified(auto) if len(auto) else auto
    sizes = sorted({int(n) for n in ok.n}, key=lambda n: (n > 4096, n))
    panels = [[n for n in sizes if n <= 8192], [n for n in sizes if n > 8192]]
    panels = [p for p in panels if p]
    height = max(len({(g, n) for g, n in zip(ok.graph, ok.n) if int(n) in p}) for p in panels)
    fig, axes = plt.subplots(1, len(panels), figsize=(14, 0.32 * height + 1.6), squeeze=False)
    marks = {"all-core CPU code": ("s", "tab:red"), "networkit": ("^", "tab:orange"), "scipy": ("x", "tab:green")}
    for ax, ns in zip(axes[0], panels):
        t = ok[ok.n.astype(int).isin(ns)]
        graphs = sorted({(g, int(n)) for g, n in zip(t.graph, t.n)},
                        key=lambda k: (ORDER.index(k[0]) if k[0] in ORDER else len(ORDER), k[1]))
        for y, (g, n) in enumerate(graphs):
            here = t[(t.graph == g) & (t.n == n)]
            gpu = here[(here.kind == "gpu") & here.e2e_ms.notna()]
            ax.scatter(gpu.e2e_ms, [y] * len(gpu), s=18, color="0.6", label="a GPU code" if y == 0 else None, zorder=2)
            if len(gpu):
                ax.scatter([gpu.e2e_ms.min()], [y], s=80, facecolors="none", edgecolors="0.3",
                           label="the fastest GPU code" if y == 0 else None, zorder=3)
            for r in here[here.kind == "cpu"].itertuples():
                key = r.algorithm if r.algorithm in marks else "all-core CPU code"
                m, c = marks[key]
                ax.scatter([r.e2e_ms], [y], marker=m, color=c, s=30, zorder=3,
                           label=key if key not in ax.get_legend_handles_labels()[1] else None)
            mine = a[(a.graph == g) & (a.n == n)] if len(a) else a
            if len(mine):
                ax.scatter(mine.e2e_ms, [y], marker="D", color="black", s=28, zorder=4,
                           label="auto" if "auto" not in ax.get_legend_handles_labels()[1] else None)
        ax.set_yticks(range(len(graphs)), [f"{g}, n = {n:,}" for g, n in graphs], fontsize=9)
        ax.invert_yaxis()
        ax.set_xscale("log")
        ax.set_xlabel("end to end (ms, log scale): float64 result on the host")
        ax.grid(axis="x", alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=9, frameon=False)
    fig.suptitle(f"The structure suite on {on}: every code end to end, beside the CPU codes and libraries")
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


def finding(rows, auto, after=None, first_calls=None):
    """The section's first sentence, computed: auto against the all-core CPU code, its range over the suite; each
    graph where auto's call was past the bound, and, where ``after`` (:func:`load_scatter`: interleaved rounds
    measured after the run) holds that graph and mode, auto's median there against the fastest named code's; where
    its first call was past it and ``first_calls`` (:func:`load_first_calls`) holds the graph, the first call's
    median over those rounds beside auto's own warm call's."""
    t = table(rows, auto)
    col = "auto over the all-core CPU code (x)"
    if col not in t or t[col].isna().all():
        return "No structure-suite rows recorded."
    v = t.dropna(subset=[col])
    lo, hi = v.loc[v[col].idxmin()], v.loc[v[col].idxmax()]
    slower = ": the CPU is faster there" if lo[col] < 1 else ""
    out = (f"Through `shortest_paths` (auto, float64 result on the host, warm) the GPU's speed-up over this package's "
           f"all-core CPU code (Dijkstra; Johnson where a weight is negative) runs from {lo[col]:g}x ({lo.graph}, "
           f"n = {lo['n (vertices)']:,}{slower}) to {hi[col]:g}x ({hi.graph}, n = {hi['n (vertices)']:,}) over the "
           f"{len(v)} graphs of the suite (median {np.median(v[col]):.3g}x).")
    if PAST in t:
        misses = t[t[PAST] != "none"]
        where = "; ".join(_misses(rows, auto, r.graph, r["n (vertices)"]) for _, r in misses.iterrows())
        out += (f" auto's own call was within 1.25x + 2 ms of the fastest verified GPU code in all four modes (float64, "
                f"int32, on the device, first call) on {len(t) - len(misses)} of {len(t)} graphs"
                + (f"; past it: {where}." if len(misses) else "."))
        again = [_rounds_after(rows, auto, after, r.graph, r["n (vertices)"]) for _, r in misses.iterrows()]
        again = [a for a in again if a]
        if again:
            out += (" Measured again after the run, post hoc (interleaved rounds, the scatter table; under the commit "
                    "named, the run's own " + _commit_of(rows) + "): " + "; ".join(again) + ".")
        firsts = [_first_after(rows, auto, first_calls, r.graph, r["n (vertices)"]) for _, r in misses.iterrows()]
        firsts = [f for f in firsts if f]
        if firsts:
            out += (" Its first call measured again after the run, post hoc (`scripts/auto_first_call.py`: medians of "
                    "rounds in one process, auto's first call on a new graph object beside its own warm call): "
                    + "; ".join(firsts) + ".")
    return out


def _first_after(rows, auto, first_calls, g, n):
    """'graph n: first call f ms, its own warm call w ms (k rounds, commit c)' where auto's first call of the run
    was past the bound and ``first_calls`` holds the graph, or ''."""
    if first_calls is None or not len(first_calls):
        return ""
    if MODES["e2e_first_ms"] not in [m for m, *_ in _past(rows, auto, g, n)[1]]:
        return ""
    t = first_calls[(first_calls.graph == g) & (first_calls.n == n)]
    if not len(t):
        return ""
    v = t.iloc[-1]
    commit = f", commit {str(v['commit'])[:7]}" if isinstance(v.get("commit"), str) else ""
    return (f"{g} {n:,} first call {v['auto_first_ms']:.1f} ms, its own warm call {v['auto_warm_ms']:.1f} "
            f"({int(v['rounds'])} rounds{commit})")


def load_first_calls(where=None):
    """Every recorded ``*-auto-first-call.csv`` (``scripts/auto_first_call.py``'s summary: per graph auto's first
    and warm calls, medians of rounds in one process; data/results/solver) as one frame, each (graph, n) from the
    newest file, with the rounds a graph took and the commit its provenance names; or an empty frame."""
    found = _dated("solver", where, "*-auto-first-call.csv")
    if not found:
        return pd.DataFrame()
    from ....measure import provenance
    frames = []
    for f in found:
        run = (provenance.invocations(f) or [{}])[-1]
        t = pd.read_csv(f).assign(file=f.name, commit=run.get("git_commit"))
        per = int((run.get("parameters") or {}).get("rounds", 5) or 5)
        t["rounds"] = [first_call_rounds(n, per) for n in t.n]
        frames.append(t)
    return pd.concat(frames, ignore_index=True).drop_duplicates(["graph", "n"], keep="last").reset_index(drop=True)


def _past(rows, auto, g, n):
    """(auto's row of graph ``g`` at ``n``, :func:`past_bound` of it against the graph's verified GPU rows)."""
    ok = verified(rows[(rows.graph == g) & (rows.n == n)], "gpu")
    a = auto[(auto.graph == g) & (auto.n == n)].iloc[0]
    return a, past_bound(a, ok.reset_index(drop=True))


def _misses(rows, auto, g, n):
    """'graph n (mode: auto's ms against code's ms, ...)' of one graph's misses; where auto's rules here now pick,
    for a missed mode's result, the code that was the fastest there (and not the row's recorded pick), that too."""
    a, past = _past(rows, auto, g, n)
    said = ", ".join(f"{m} {mine:.1f} ms against {code}'s {ms:.1f}" for m, mine, code, ms in past)
    fastest = {}                                    # per result, the fastest code of its first missed mode
    for m, _, code, _ in past:
        fastest.setdefault(KIND[_column(m)], code)
    for res, code in fastest.items():
        if code != recorded_pick(a, res) and _pick_now(g, n, res) == code:
            where = {"device": "on the device", "int32": "in int32 to the host"}.get(res, "to the host")
            said += f"; auto's rules here now pick {code} {where}"
    return f"{g} {n:,} ({said})"


def _commit_of(rows):
    """The short commits a suite file's rows were measured at (its provenance's invocations: 'a' or 'a to b'), or
    '?'."""
    got = [str(c)[:7] for c in rows.attrs.get("commits") or () if c]
    return "?" if not got else got[0] if len(set(got)) == 1 else f"{got[0]} to {got[-1]}"


def probe_verdicts(rows):
    """One row a graph, n and mode of a scatter or probe file: auto's median call against the fastest named code's
    median, within the bound or not."""
    out = []
    if not len(rows):
        return out
    for (g, n, mode), t in rows.groupby(["graph", "n", "mode"], sort=False):
        med = t.groupby("code").ms.median()
        others = med.drop(index="auto")
        picked = t[t.code == "auto"].picked.mode()
        out.append(dict(graph=g, n=int(n), subject=MEDIAN, mode=mode, code=picked.iloc[0] if len(picked) else "",
                        ms=float(med["auto"]), fastest=others.idxmin(), fastest_ms=float(others.min()),
                        within=bool(within_bound(med["auto"], others.min()))))
    return out


def _rounds_after(rows, auto, after, g, n):
    """'graph n <mode> auto's median against the fastest named code's median, within or past, (commit c)' for the
    modes where auto's call of the run was past the bound and that ``after`` (:func:`load_scatter`) holds, or ''."""
    if after is None or not len(after):
        return ""
    word = {w: c for c, w in MODES.items()}
    modes = [word[m] for m, *_ in _past(rows, auto, g, n)[1]]
    t = after[(after.graph == g) & (after.n == n) & after["mode"].isin(modes)]
    if "auto" not in set(t.code) or t.code.nunique() < 2:
        return ""
    said = [f"{MODES[v['mode']]} {v['ms']:.1f} ms against {v['fastest']}'s {v['fastest_ms']:.1f}, "
            + ("within" if v["within"] else "past") for v in probe_verdicts(t)]
    if not said:
        return ""
    commit = f", commit {str(t.commit.iloc[0])[:7]}" if "commit" in t and t.commit.iloc[0] == t.commit.iloc[0] else ""
    return f"{g} {n:,} " + ", ".join(said) + f" ({t['round'].nunique()} rounds{commit})"


def recorded_pick(a, result):
    """The pick an auto row records for ``result`` ('host', 'int32' or 'device'; None where a row of before the
    device pick was recorded does not say; int32's the host pick where the row has no int32 pick: one pick then
    served both)."""
    if result == "device":
        return device_pick(a)
    int32 = a.get("picked_int32") if result == "int32" else None
    return int32 if isinstance(int32, str) and int32 else a.get("picked")


def device_pick(a):
    """The device pick a suite auto row records (``picked_device``), or None (older rows name the host pick only)."""
    device = a.get("picked_device")
    return device if isinstance(device, str) and device else None


def _pick_now(graph, n, result):
    """What auto's rules here pick for the suite graph ``graph`` at ``n`` with ``result`` (None: not a suite
    graph)."""
    from .... import choice
    from ....io import suite_graphs as SG
    if not SG.known(graph):
        return None
    return choice.choose(SG.make(graph, n, seed=n), result=result, gpu=True, free_bytes=float("inf")).algorithm.name


def deep_finding(rows, auto, check=None):
    """The deep and road-like classes' sentence, computed: per graph where ``tuned_deep`` is the fastest end to end,
    its speed-up over the all-core CPU Dijkstra and networkit; auto's pick in that run against it, on the host and on
    the device; ``tuned_elimination``'s kernel range; and, given ``check`` (``scripts/deep_measure.py`` rows with
    ``auto`` among the codes: :func:`deep_check`), auto since its deep graphs' rule."""
    ok = verified(rows)
    deep, elim = (registry.by_role(r).name for r in ("auto_deep_graphs", "auto_small_separators"))
    parts, device, host, picked = [], [], [], {}
    for (g, n), t in ok.groupby(["graph", "n"], sort=False):
        gpu = t[t.kind == "gpu"].set_index("algorithm")
        cpu = t[t.kind == "cpu"].set_index("algorithm")
        if deep not in gpu.index or gpu.e2e_ms.idxmin() != deep:
            continue
        d = gpu.loc[deep]
        libs = " and ".join(f"{c.e2e_ms / d.e2e_ms:.1f}x "
                            + (c.Index if c.Index == "networkit" else "the all-core CPU Dijkstra")
                            for c in cpu.itertuples() if c.threads > 1)
        parts.append(f"the {g} ({libs})")
        a = auto[(auto.graph == g) & (auto.n == n)]
        if len(a):
            picked[g] = str(a.picked.iloc[0])
            host.append(a.e2e_ms.iloc[0] / gpu.e2e_ms.min())
            device.append(f"{a.e2e_device_ms.iloc[0] / gpu.e2e_device_ms.min():.1f}x on the {g}")
    el = ok[(ok.algorithm == elim)]
    n = int(ok.n.iloc[0]) if len(ok) else 0
    listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)
    out = (f"At n = {n:,}, `tuned_deep` is the fastest code end to end (float64 to the host) on " + listed + "."
           if parts else "No deep graph where `tuned_deep` is the fastest.")
    if device:
        span = f"{min(host):.2f}" + (f"-{max(host):.2f}" if f"{max(host):.2f}" != f"{min(host):.2f}" else "")
        picks = (f"`{next(iter(picked.values()))}` there" if len(set(picked.values())) == 1 else
                 ", ".join(f"`{p}` on the {g}" for g, p in picked.items()))
        out += (f" In that run `method=\"auto\"` picked {picks} "
                f"({span}x the fastest end to end on the host), and with the result left on the GPU its time "
                "was " + ", ".join(device) + " the fastest code's.")
    out += _record(ok, auto)
    if check is not None and len(check):
        within, total, sizes = deep_check(check)
        classes = ", ".join(dict.fromkeys(check[check.code == "auto"].graph))
        from ....deep_choice import BRANCHING, DEPTH_FRACTION
        out += (f" Since then, auto takes `tuned_deep` where the hub BFS reaches depth >= n/4 (`deep_choice.py`; "
                f"today >= {DEPTH_FRACTION:g} n, with at most {BRANCHING:.0%} of its vertices with two parents); "
                f"measured after that rule was fixed ({classes}; n = {min(sizes):,} to {max(sizes):,}),"
                f" auto's own call was within 1.25x + 2 ms of the fastest code on {within} of {total} graphs in all "
                "three modes (float64 and int32 to the host, float64 left on the GPU).")
    if len(el):
        lo, hi = f"{el.kernel_ms.min():.1f}", f"{el.kernel_ms.max():.1f}"
        gpu = ok[ok.kind == "gpu"]
        fastest = sum(t.loc[t.kernel_ms.idxmin(), "algorithm"] == elim for _, t in gpu.groupby("graph"))
        where = "every class" if fastest == gpu.graph.nunique() else f"{fastest} of {gpu.graph.nunique()} classes"
        e2e = [g for g, t in gpu.groupby("graph") if t.loc[t.e2e_ms.idxmin(), "algorithm"] == elim]
        out += (f" `tuned_elimination`'s kernels are the fastest on {where} ({lo}{'' if lo == hi else '-' + hi} ms)"
                + (f", and it is the fastest end to end on {', '.join(e2e)}." if e2e else
                   ", but end to end (its host ordering first) it is the fastest on none at this size."))
    return out


def _record(ok, auto):
    """' auto's own call ... within ... on k of n graphs[; past it: ...].' over every graph of the run with an auto
    row, in every mode both hold (:func:`past_bound`), or ''."""
    graphs, missed = 0, []
    for (g, n), t in ok.groupby(["graph", "n"], sort=False):
        a = auto[(auto.graph == g) & (auto.n == n)] if len(auto) else auto
        if not len(a):
            continue
        graphs += 1
        past = past_bound(a.iloc[0], t[t.kind == "gpu"].reset_index(drop=True))
        if past:
            said = ", ".join(f"{m} {mine:.1f} ms against {code}'s {ms:.1f}" for m, mine, code, ms in past)
            missed.append(f"{g} ({said})")
    if not graphs:
        return ""
    return (f" Over the {graphs} graphs of the run, auto's own call was within 1.25x + 2 ms of the fastest verified "
            f"GPU code in every mode timed on {graphs - len(missed)}"
            + (f"; past it: {'; '.join(missed)}" if missed else "") + ".")


def load_again(rows, where=None, tag="structure-grid", run_tag="structure-deep-road"):
    """(the name of the newest suite file of ``tag`` measured after ``rows``' run, the newest ``*-<run_tag>.csv``,
    its rows of the (graph, n) pairs ``rows`` holds): those graphs measured again, post hoc; or ('', an empty
    frame)."""
    if not len(rows):
        return "", pd.DataFrame()
    found = _dated("benchmarks", where, f"*-{tag}.csv")
    run = _dated("benchmarks", where, f"*-{run_tag}.csv")
    if not found or (run and stamp(found[-1]) <= stamp(run[-1])):
        return "", pd.DataFrame()
    again = pd.read_csv(found[-1])
    pairs = set(zip(rows.graph, rows.n))
    return found[-1].name, again[[p in pairs for p in zip(again.graph, again.n)]].reset_index(drop=True)


def again_finding(name, again):
    """' Measured again after that run, post hoc (<file>): per graph, auto's own call within 1.25x + 2 ms of the
    fastest verified GPU code in every mode, or where past it' for :func:`load_again`'s rows, or ''."""
    ok = verified(again) if len(again) else again
    said = []
    for (g, n), t in ok.groupby(["graph", "n"], sort=False):
        a = t[t.kind == "auto"]
        if not len(a):
            continue
        a = a.iloc[0]
        gpu = t[t.kind == "gpu"].reset_index(drop=True)
        past = past_bound(a, gpu)
        dev = gpu.loc[gpu.e2e_device_ms.idxmin()]
        said.append(f"the {g} of {int(n):,}: " + (
            "past it " + ", ".join(f"{m} ({mine:.1f} ms against {code}'s {ms:.1f})" for m, mine, code, ms in past)
            if past else f"within in every mode (on the device {a.e2e_device_ms:.1f} ms, "
                         f"`{recorded_pick(a, 'device') or a.picked}`, against {dev.algorithm}'s {dev.e2e_device_ms:.1f})"))
    if not said:
        return ""
    return (f" Measured again after that run, post hoc, under the rules of its own commit (`{name}`), auto's own "
            "call against the fastest verified GPU code: " + "; ".join(said) + ".")


def later_finding(name, again, rows, auto):
    """' Part of the suite measured again after that run, post hoc (<file>, K graphs ...): auto's own call within
    ... on k of K; past it: ...; of the misses above: ...' for :func:`load_again`'s rows of the main run's graphs
    (``rows`` and ``auto`` the main run's), or ''."""
    if not len(again):
        return ""
    a_rows = again[again.kind == "auto"]
    ok, past, fixed = 0, [], []
    for (g, n), t in verified(again).groupby(["graph", "n"], sort=False):
        a = a_rows[(a_rows.graph == g) & (a_rows.n == n)]
        if not len(a):
            continue
        a, gpu = a.iloc[0], t[t.kind == "gpu"].reset_index(drop=True)
        miss = past_bound(a, gpu)
        ok += not miss
        past += [f"{g} {int(n):,} (" + ", ".join(_against(a, m, mine, code, ms) for m, mine, code, ms in miss) + ")"
                 ] if miss else []
        before = _past(rows, auto, g, n)[1] if len(auto[(auto.graph == g) & (auto.n == n)]) else []
        if before and not miss:
            now = {m: (code, ms) for m, _, code, ms, _ in
                   ((MODES[c], *rest) for c, *rest in against_fastest(a, gpu))}
            fixed.append(f"{g} {int(n):,} within in every mode (" + "; ".join(
                f"{m} {a[_column(m)]:.1f} ms, {old:.1f} in that run, against {now[m][0]}'s {now[m][1]:.1f}"
                for m, old, _, _ in before if m in now) + ")")
    total = ok + len(past)
    if not total:
        return ""
    return (f" Part of the suite measured again after that run, post hoc (`{name}`, {total} graphs; its plan and why: "
            f"the checks below): auto's own call within 1.25x + 2 ms in every mode on {ok} of {total}"
            + (f"; past it: {'; '.join(past)}" if past else "")
            + (f"; of the misses above: {'; '.join(fixed)}" if fixed else "") + ".")


def _column(mode):
    """The column of a mode's words (:data:`MODES`: 'first call' -> 'e2e_first_ms')."""
    return {w: c for c, w in MODES.items()}[mode]


def _against(a, mode, mine, code, ms):
    """'first call 30.5 ms against a bound of 29.9: tuned_frontier's warm 22.3, the code auto ran': one missed mode
    of auto's row ``a``, its bound and the fastest code's time, and whether auto ran that code itself."""
    warm = "warm " if _column(mode) == "e2e_first_ms" else ""
    return (f"{mode} {mine:.1f} ms against a bound of {BOUND[0] * ms + BOUND[1]:.1f}: {code}'s {warm}{ms:.1f}"
            f"{_ran(a, mode, code)}")


def _plans_of(files):
    """(whether a plan names each of ``files`` as its rows, the (graph, n) pairs those plans list as not measured:
    their deviation)."""
    names = {f"benchmarks/{f.name}" for f in files}
    named, out = set(), set()
    for _, p in plans():
        if names & set(p.get("rows") or ()):
            named |= names & set(p["rows"])
            out |= {(g["graph"], int(g["n"])) for g in p.get("not_measured") or ()}
    return named == names, out


def size_finding(name, rows, auto):
    """' At n = N (K graphs: the graphs; <files>, or their plans): auto's own call within ... on k of K graphs (past
    it: ...); through auto the GPU is a-b x the all-core CPU code.' for suite runs at sizes past the suite's
    (:func:`load_size`), or ''.  With several sizes each graph is named with its n."""
    t = table(rows, auto) if len(rows) else pd.DataFrame()
    col = "auto over the all-core CPU code (x)"
    if col not in t or t[col].isna().all():
        return ""
    v = t.dropna(subset=[col])
    sizes = sorted(v["n (vertices)"].unique())
    label = (lambda r: r.graph) if len(sizes) == 1 else (lambda r: f"{r.graph} {r['n (vertices)']:,}")
    lo, hi = v.loc[v[col].idxmin()], v.loc[v[col].idxmax()]
    misses = t[t[PAST] != "none"] if PAST in t else t.iloc[:0]
    at = [f"{int(n):,}" for n in sizes]
    at = ", ".join(at[:-1]) + " and " + at[-1] if len(at) > 1 else at[0]
    graphs = ", ".join(label(r) for _, r in v.iterrows())
    past = "; ".join(_misses(rows, auto, r.graph, int(r["n (vertices)"])) for _, r in misses.iterrows())
    left = sorted(set(rows.attrs.get("not_measured", ())) - set(zip(rows.graph, rows.n)), key=lambda p: (p[1], p[0]))
    left = ", ".join(f"{g} {n:,}" for g, n in left)
    k = rows.attrs.get("runs", 0)
    plans_ = "runs under plans committed before their data" if k > 1 else "run under a plan committed before its data"
    where = f"{k} {plans_}: the checks below name the files" if rows.attrs.get("planned") else name
    single = _calls_said(auto, len(sizes) > 1) if min(sizes) > SMALL else ""
    before = _replaced_said(rows.attrs.get("replaced_misses", ()), auto)
    before = (f" Earlier runs of these graphs, which these rows replace, had auto's call past the bound on {before}."
              if before else "")
    return (f" At n = {at} ({len(t)} graphs: {graphs}; {where}): auto's own call{single} within 1.25x + 2 ms in "
            f"all four modes on {len(t) - len(misses)} of {len(t)} graphs" + (f" (past it: {past})" if past else "")
            + f"; through auto the GPU is {lo[col]:g}x ({label(lo)}) to {hi[col]:g}x ({label(hi)}) the all-core CPU "
            "code" + (f"; planned but not measured (the plan's deviation says why): {left}" if left else "") + "."
            + before)


def _calls_said(auto, with_n):
    """' (one timed call a mode at these sizes)', ' (the median of R interleaved rounds a mode)', or both, naming the
    graphs timed in rounds (``e2e_rounds`` of auto's rows: ``structure_suite --rounds``)."""
    k = auto["e2e_rounds"] if "e2e_rounds" in auto else pd.Series(float("nan"), index=auto.index)
    rounds = auto[k > 1]
    if not len(rounds):
        return " (one timed call a mode at these sizes)"
    said = f"warm calls the median of {rounds_said(rounds)} interleaved rounds a mode"
    if len(rounds) == len(auto):
        return f" ({said})"
    name = lambda t: ", ".join(f"{r.graph} {int(r.n):,}" if with_n else r.graph for r in in_order(t).itertuples())
    if 2 * len(rounds) >= len(auto):                                  # the fewer named
        return f" ({said}; one timed call a mode on {name(auto[~(k > 1)])})"
    return f" (one timed call a mode at these sizes; {said} on {name(rounds)})"


def larger_tags(where=None):
    """The tags of the suite's runs past its sizes: those of the files every plan (``where``: the plans' folder)
    names as its ``rows`` under benchmarks/ where each graph it plans has more than ``max(SIZES)`` vertices, in
    the plans' order, each once."""
    from ....cost_rows import FILE
    tags = []
    for _, p in plans(where):
        ns = [g.get("n") for g in p.get("graphs") or ()]
        if not ns or not all(isinstance(n, int) and n > max(SIZES) for n in ns):
            continue
        for r in p.get("rows") or ():
            m = FILE.match(r.removeprefix("benchmarks/"))
            if r.startswith("benchmarks/") and m and m.group("tag") not in tags:
                tags.append(m.group("tag"))
    return tuple(tags)


def load_size(where=None, tags=None):
    """(the files' names, their rows, auto's rows) of suite runs at sizes past the suite's: the newest
    ``*-<tag>.csv`` of each tag (default: :func:`larger_tags`, every plan's of those sizes), oldest first, a graph
    measured in several taken from the newest; or ('', empty frames)."""
    tags = larger_tags() if tags is None else tags
    found = sorted((f[-1] for f in (_dated("benchmarks", where, f"*-{tag}.csv") for tag in tags) if f), key=stamp)
    if not found:
        return "", pd.DataFrame(), pd.DataFrame()
    frames = [pd.read_csv(f).assign(_file=i) for i, f in enumerate(found)]
    rows = pd.concat(frames, ignore_index=True)
    last = rows.groupby(["graph", "n"])["_file"].transform("max")
    replaced = _replaced_misses(rows[rows._file < last])
    rows = rows[rows._file == last]
    used = [f for i, f in enumerate(found) if i in set(rows._file)]      # a file whose graphs all came again: not named
    rows = rows.drop(columns="_file").reset_index(drop=True)
    rows.attrs["planned"], rows.attrs["not_measured"] = _plans_of(found) if where is None else (False, set())
    rows.attrs["runs"] = len(used)
    rows.attrs["replaced_misses"] = replaced
    return ", ".join(f"`{f.name}`" for f in used), rows, rows[rows.kind == "auto"].reset_index(drop=True)


def _replaced_misses(older):
    """[(graph, n, {mode where auto's call was past the bound: the code auto ran}, whether its warm calls were
    medians of rounds)] of rows ``older`` (a suite file's each, ``_file``) that a newer run of the same graph
    replaced, in order of size and class."""
    out = []
    for (g, n, _), t in older.groupby(["graph", "n", "_file"], sort=False):
        a, gpu = t[t.kind == "auto"], verified(t, "gpu")
        past = ({m: recorded_pick(a.iloc[0], KIND[_column(m)]) for m, *_ in past_bound(a.iloc[0], gpu)}
                if len(a) and len(gpu) else {})
        if past:
            out.append((g, int(n), past, float(a.iloc[0].get("e2e_rounds", 1) or 1) > 1))
    return sorted(out, key=lambda x: (x[1], ORDER.index(x[0]) if x[0] in ORDER else len(ORDER)))


def _replaced_said(replaced, auto):
    """'ring 32,768 (single calls: int32; the same code now, tuned_elimination)' for each of
    :func:`_replaced_misses`, naming the code auto ran then and, where it differs, the one it runs in the newer rows."""
    out = []
    for g, n, past, rounds in replaced:
        a = auto[(auto.graph == g) & (auto.n == n)]
        now = {m: recorded_pick(a.iloc[0], KIND[_column(m)]) for m in past} if len(a) else {}
        moved = [m for m in past if now.get(m) != past[m]]
        code = (f"auto then ran {_names(past[m] for m in moved)}, now {_names(now.get(m) for m in moved)}" if moved
                else f"the same code now, {_names(past.values())}")
        out.append(f"{g} {n:,} ({'medians of rounds' if rounds else 'single calls'}: {', '.join(past)}; {code})")
    return "; ".join(out)


def _names(codes):
    """'a, b': the codes, each once, in order."""
    return ", ".join(dict.fromkeys(map(str, codes)))


def cpu_codes(codes):
    """The registry's CPU codes among ``codes`` (rows of a measurement script also hold ``auto``, which is none)."""
    return [c for c in codes if c in registry.ALGORITHMS and registry.get(c).device == "cpu"]


def deep_check(check):
    """(graphs where auto's call was within 1.25x + 2 ms of the fastest code in every mode, graphs, sizes) of
    ``scripts/deep_measure.py`` rows with ``auto`` among the codes."""
    ok = total = 0
    modes = [m for m in ("e2e_ms", "e2e_int32_ms", "e2e_device_ms") if m in check]
    for _, t in verified(check).groupby(["graph", "n"]):
        t = t.set_index("code")
        t = t.drop(index=cpu_codes(t.index))
        if "auto" not in t.index or len(t) < 2:
            continue
        codes = t.drop(index="auto")
        total += 1
        ok += all(within_bound(t.loc["auto", m], codes[m].min()) for m in modes)
    return ok, total, sorted(int(n) for n in check[check.code == "auto"].n.unique())


def load_deep_check(where=None, tag="structure-deep-road"):
    """The newest recorded ``*-deep-auto-check.csv`` (data/results/solver) where it was measured after the newest
    suite file of ``tag`` (data/results/benchmarks: a check of auto since the run's rule), or an empty frame."""
    f = _dated("solver", where, "*-deep-auto-check.csv")
    run = _dated("benchmarks", where, f"*-{tag}.csv")
    return pd.read_csv(f[-1]) if f and (not run or stamp(f[-1]) > stamp(run[-1])) else pd.DataFrame()


def load_scatter(where=None):
    """Every recorded ``*-e2e-scatter*.csv`` (``scripts/e2e_scatter_probe.py``: warm single calls in interleaved
    rounds; data/results/solver) and ``*-calls.csv`` of interleaved rounds (the structure suite's ``--rounds``
    calls; data/results/benchmarks) as one frame, each (graph, n) from the newest file that holds it (rounds of one
    graph under two commits never mixed), with its ``file``; or an empty frame."""
    from ....measure.rounds import are_rounds
    found = sorted(_dated("solver", where, "*-e2e-scatter*.csv") + _dated("benchmarks", where, "*-calls.csv"),
                   key=stamp)
    if not found:
        return pd.DataFrame()
    frames = [pd.read_csv(f).assign(file=f.name, commit=_provenance_commit(f)) for f in found]
    frames = [t for t in frames if are_rounds(t)]
    newest = {}
    for t in frames:                                   # oldest first: a later file's graphs replace an earlier's
        for key in set(zip(t.graph, t.n)):
            newest[key] = t.file.iloc[0]
    calls = pd.concat(frames, ignore_index=True)
    keep = [newest[(g, n)] == f for g, n, f in zip(calls.graph, calls.n, calls.file)]
    return calls[keep].reset_index(drop=True)


def _provenance_commit(f, every=False):
    """The commit a results file's provenance names (``<stem>.provenance.json``; its last invocation's), or None;
    ``every``: each invocation's, in order."""
    from ....measure import provenance
    got = [i.get("git_commit") for i in provenance.invocations(f)]
    return got if every else (got[-1] if got else None)


def scatter_table(calls):
    """Per graph and code, each mode's median warm call and its least - most over the rounds."""
    out = []
    for (g, n, code), t in calls.groupby(["graph", "n", "code"], sort=False):
        r = {"graph": g, "n (vertices)": int(n), "code": code, "rounds (count)": int(t["round"].nunique())}
        if "file" in t:
            r["file"] = t.file.iloc[0].split("-", 1)[-1].removesuffix(".csv")      # date and tag
        for col, word in MODES.items():
            m = t[t["mode"] == col].ms
            if len(m):
                r[f"{word}, median (ms)"] = float(m.median())
                r[f"{word}, least - most"] = f"{m.min():,.1f} - {m.max():,.1f}"
        out.append(r)
    return pd.DataFrame(out)
