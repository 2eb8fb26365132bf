"""The verdict rows of the campaign's claim notebooks (00-06) from a campaign's records, with no
notebook run: each notebook's verdict cell calls :func:`notebook_rows`, and :func:`run_verdicts`
gives the whole table of one recorded run folder in seconds (for comparing runs and candidate
methods on recorded data; rendering the notebooks takes minutes)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from ...method import claims as claims_mod
from ....algorithms import registry
from . import load as M
from ...method import quantities as Q
from ...method import basis, crossings, estimate, order_rules, rules, speedups
from ...method import text as T
from ...method import verdicts as V
from .spec import NOTEBOOKS
from . import spec
from .profiles import KEMP_SIZES
from ...method.text import fmt

KEMP_MEMORY = 1.25 * 2**30          # Kemp's GTX 470 (seed 000, Sec. 4.6.1 and 5.1)


def degree_n(df):
    """The size of the density study: the largest n measured on graphs other than Kemp's."""
    other = df["graph"] != M.KEMP
    return int(df.loc[other, "n"].max()) if other.any() else None


def without_allocation(df):
    """The memory-mode runs with the allocation taken out of the end-to-end time (notebook 04)."""
    mem = df[df["params"].str.contains('"memory"', regex=False)].copy()
    mem["memory"] = mem["params"].map(lambda p: json.loads(p)["memory"])
    return mem.assign(wall_ms=mem["wall_ms"] - mem["alloc_ms"].fillna(0))


def _rows_00(df, C):
    c = C["cpu_blocked_vs_fw_grows"]
    sp, slope = crossings.trend(df, c, sizes=[n for n in M.sizes_of(df, c["algorithm"], c["variant"]) if min(c["paper_n"]) <= n <= max(c["paper_n"])])
    v = rules.trend_rule(*slope, len(sp))
    return [V.evaluate(c, df, decided=v) | dict(ours_text=T.trend(sp, "the blocked FW's speed-up over FW", slope=slope),
                                               per_size=speedups.fmt_points(sp), matched_n=", ".join(map(str, sp["n"])),
                                               baseline_timed=", ".join(sorted(set(sp["baseline_timed"]))))]


def _rows_01(df, C):
    rows = [V.evaluate(C[c], df) for c in ("tran_fw_vs_fw", "tran_minplus_vs_fw", "tran_minplus_vs_squaring")]
    c = C["tran_fw_memory_limit"]
    return rows + [V.evaluate(c, df, aggregate=Q.memory_limit(c, KEMP_MEMORY, KEMP_SIZES))]


def _rows_02(df, C):
    rows = [V.evaluate(C[c], df) for c in ("kk_vs_fw", "kk_vs_blocked", "kk_vs_harish")]
    c = C["kk_memory_limit"]
    return rows + [V.evaluate(c, df, aggregate=Q.memory_limit(c, KEMP_MEMORY, KEMP_SIZES)),
                   _trend_with_points(df, C["kk_speedup_rises_104_to_153"])]


def _trend_with_points(df, c):
    """A growth claimed with numbers at named sizes: the trend, then each named size we timed."""
    sp, slope = crossings.trend(df, c)
    trend = rules.trend_rule(*slope, len(sp))
    pts = [(n, *sp.loc[sp["n"] == n, ["speedup", "ci_lo", "ci_hi"]].iloc[0].tolist(), v)
           for n, v in c["points"].items() if n in set(sp["n"])]
    missing = [n for n in c["points"] if n not in set(sp["n"])]
    return (V.evaluate(c, df, decided=rules.trend_with_points_rule(trend, pts, None, c["tolerance"]),
                       note=f"not timed at n = {', '.join(map(str, missing))}" if missing else "")
            | dict(ours_text=T.trend(sp, "the speed-up", slope=slope), per_size=speedups.fmt_points(sp),
                   baseline_timed=", ".join(sorted(set(sp["baseline_timed"])))))


def ordering_points(df, c, ran=None):
    """[(label, ratio, lo, hi)] of a claim that its code is faster than each of its ``baselines`` (or its
    one baseline): baseline time / code time at each size from the claim's first paper size up to where both
    ran on Kemp's graphs (kemp_ran_up_to) and its last paper size."""
    ran = claims_mod.kemp_ran_up_to() if ran is None else ran
    out = []
    for b in c.get("baselines") or [c["baseline"]]:
        top = min(ran.get(c["algorithm"], 1e9), ran.get(b, 1e9), max(c["paper_n"]))
        bv = V.defaults().get(b) if b != c.get("baseline") else c.get("baseline_variant")
        sp = M.speedups(df, c["algorithm"], b, variant=c.get("variant"), baseline_variant=bv)
        sp = sp[(sp["n"] >= min(c["paper_n"])) & (sp["n"] <= top)]
        out += [(f"{int(r.n)} vs {b}" if c.get("baselines") else int(r.n), r.speedup, r.ci_lo, r.ci_hi)
                for r in sp.itertuples()]
    return out


def _rows_03(df, C):
    c = C["harish_vs_fw_scaling"]
    sp, slope = crossings.trend(df, c)
    trend = rules.trend_rule(*slope, len(sp))
    pts = [(n, *sp.loc[sp["n"] == n, ["speedup", "ci_lo", "ci_hi"]].iloc[0].tolist(), v)
           for n, v in c["points"].items() if n in set(sp["n"])]
    rows = [V.evaluate(c, df, decided=rules.trend_with_points_rule(trend, pts, None, c["tolerance"]))
            | dict(ours_text=T.trend(sp, "the speed-up", slope=slope), per_size=speedups.fmt_points(sp),
                   baseline_timed=", ".join(sorted(set(sp["baseline_timed"]))))]
    c = C["dense_independent_of_degree"]
    dn = degree_n(df)
    agg = Q.flat_over_degree(df, c["algorithms"], dn, V.defaults(), reference=M.KEMP) if dn else None
    rows.append(V.evaluate(c | {"claimed": [1, 1]}, df, aggregate=agg) if dn else V.evaluate(c, df))
    return rows


FASTEST = "fastest_cuda"        # the pseudo-code of the fastest version at each n (tuwien_cpu_break_even)


def fastest_version(df, algorithms, modes, time_col="wall_ms"):
    """Seed 003's 'fastest CUDA implementation' at each n: of every (code, memory mode) timed on Kemp's
    graphs, the one with the lowest median over processes; its rows relabelled ``FASTEST`` (params
    saying which), so that a crossover is read on the fastest version wherever it changes.  Returns
    (rows, {n: 'code in mode'}).  The choice is by medians; the interval then comes from the chosen
    version's processes only (the choice's own uncertainty is not in it)."""
    best, rows = {}, []
    for n in sorted(set(df.loc[df["algorithm"].isin(algorithms), "n"])):
        timed = [(float(np.median(t)), a, m) for a in algorithms for m in modes
                 if (t := M.times(df, a, None, n, time_col, memory=m)[0]).size]
        if not timed:
            continue
        _, a, m = min(timed)
        best[int(n)] = f"{a} in {m}"
        sel = df[(df["algorithm"] == a) & (df["n"] == n) & (df["graph"] == M.KEMP)
                 & df["params"].str.contains(f'"memory": "{m}"', regex=False)]
        rows.append(sel.assign(algorithm=FASTEST, variant=None, params=json.dumps({"fastest_of": best[int(n)]})))
    return (pd.concat(rows, ignore_index=True) if rows else df.iloc[:0]), best


def _rows_04(df, C):
    modes = list(registry.MODES)
    mem_na = without_allocation(df)
    rows = []
    c = C["tuwien_cpu_break_even"]
    fast, best = fastest_version(df, c["algorithms"], modes)
    x = crossings.crossover_of(pd.concat([df, fast], ignore_index=True), FASTEST, c["baseline"], graph=M.KEMP)
    picked = sorted(set(best.values()))
    rows.append(V.evaluate(c, df, crossover=x, note=(
        "the fastest version at each n: " + "; ".join(f"{v} at n = {', '.join(str(n) for n in best if best[n] == v)}"
                                                      for v in picked)
        + f"; the seed's zero-copy raw kernel alone: {T.n_or(crossings.crossover_of(df, c['algorithm'], c['baseline'], memory_a=c['variant'], graph=M.KEMP)[0])}")))
    c = C["tuwien_zero_copy_best_below"]
    b = {a: Q.boundary(Q.zero_copy_boundary(df, a, modes, graph=M.KEMP)) for a in c["algorithms"]}
    b_na = {a: Q.boundary(Q.zero_copy_boundary(mem_na, a, modes, graph=M.KEMP)) for a in c["algorithms"]}
    rows.append(V.evaluate(c, df, crossover=b[c["algorithm"]],
                           note="where the copying modes overtake zero-copy, without allocation: "
                           + "; ".join(f"{a}: {T.n_or(v[0])}" for a, v in b_na.items())
                           + "; with: " + "; ".join(f"{a}: {T.n_or(v[0])}" for a, v in b.items())))
    c = C["tuwien_gpu_vs_serial_largest"]
    sp = M.speedups(df, c["algorithm"], c["baseline"])
    top = sp[sp["n"] == sp["n"].max()]
    rows.append(V.evaluate(c, df, points=[estimate.Point(int(n), sp.attrs["estimates"][int(n)]) for n in top["n"]],
                           note="at our largest size with both measured (Kemp's graphs, not seed 003's density-p graphs)")
                | speedups.speedup_columns(df, c | {"variant": None}, top["n"].tolist()))   # as ``sp``: the default memory
    return rows


def _rows_05(df, C):
    return [V.evaluate(C[c], df) for c in ("ooc_slowdown_vs_kk", "ooc_vs_fw", "ooc_vs_blocked")]


def _rows_06(df, C):
    DEF = V.defaults()
    rows = []
    for cid in ("kk_average_vs_fw", "kk_average_vs_fw_6_2", "harish_average_vs_fw", "all_cuda_average_vs_fw",
                "all_cuda_average_vs_blocked", "harish_vs_ooc_average"):
        ps = Q.average_pairs(df, C[cid], DEF)
        avg = Q.average(df, C[cid], DEF, ps)
        rows.append(V.evaluate(C[cid], df, aggregate=avg) | Q.average_columns(df, C[cid], DEF, avg, ps))
    rows.append(V.evaluate(C["harish_vs_ooc_at_21504"], df))
    for cid in ("harish_time_growth", "tran_fw_time_growth"):
        rows.append(_growth_row(df, C[cid]))
    c = C["kk_peak_vs_others"]
    rows.append(V.evaluate(c, df, aggregate=Q.peak_ratio(df, c, DEF)))
    for cid in ("harish_overtakes_kk", "harish_overtakes_tran"):
        c = C[cid]
        rows.append(V.evaluate(c, df, crossover=crossings.crossover_of(df, c["algorithm"], c["baseline"], c["variant"],
                                                                       c.get("baseline_variant"), graph=M.KEMP)))
    c = C["tran_fw_faster_than_minplus"]
    o = M.speedups(df, c["algorithm"], c["baseline"])
    rows.append(V.evaluate(c, df, ordering=list(o[["n", "speedup", "ci_lo", "ci_hi"]].itertuples(index=False, name=None))))
    for cid in ("kk_always_faster_than_rest", "tran_fw_faster_than_ooc_after_6144"):
        rows.append(V.evaluate(C[cid], df, ordering=ordering_points(df, C[cid])))
    return rows


_ROWS = {spec.CPU_NB: _rows_00, spec.TRAN_NB: _rows_01, spec.KK_NB: _rows_02, spec.HARISH_NB: _rows_03,
         spec.MEMORY_NB: _rows_04, spec.OOC_NB: _rows_05, spec.ALL_NB: _rows_06}


# ------------------------------------------------------------------ the statements of seeds 000 and 003 tested last
# (data/claims.yaml ``added``): each claim's points and rule named here, none left to its kind's default measurement

def ratio_points(df, pairs, sizes=None):
    """[(label, time of the slower / time of the faster, lo, hi)] for ``pairs`` = [(faster (algorithm, variant),
    slower (algorithm, variant))] at every size both were timed on Kemp's graphs (``sizes`` restricts):
    M.speedups of the faster over the slower, > 1 where the faster one is faster."""
    out = []
    for (a, va), (b, vb) in pairs:
        sp = M.speedups(df, a, b, variant=va, baseline_variant=vb, sizes=sizes)
        nb, na = (f"{b} {vb}", f"{a} {va}") if a == b else (b, a)      # one code against itself: its variants named
        out += [(f"{int(r.n)}: {nb} / {na}", r.speedup, r.ci_lo, r.ci_hi) for r in sp.itertuples()]
    return out


def _in_range(c, df, a, v=None):
    """The sizes ``a`` was timed at on Kemp's graphs within [min, max] of the claim's paper_n."""
    lo, hi = min(c["paper_n"]), max(c["paper_n"])
    return [n for n in M.sizes_of(df, a, v) if lo <= n <= hi]


def _ordering_row(c, df, pts, note="", each_pair=False):
    """The row of an ordering; ``each_pair``: the points are several comparisons, each to hold (:func:`order_rules.each_pair_rule`)."""
    row = V.evaluate(c, df, ordering=pts, note=note)
    if each_pair:
        v, why = order_rules.each_pair_rule(pts)
        row.update(verdict=v, reason=why + (f"; {note}" if note else ""),
                   basis=basis.basis_of(c, v))
    return row | dict(matched_n=", ".join(sorted({p[0].split(":")[0] for p in pts}, key=int)) or "-")


def unverified_beside(df, algorithm, variant, other):
    """'beside, ...': the median time of ``other`` (a variant whose runs all failed verification, so timings.times
    gives it none) over that of ``variant`` at each size, from the failed runs' recorded times: shown, never decided on."""
    d = df[(df["algorithm"] == algorithm) & (df["graph"] == M.KEMP) & (df["variant"].astype(str) == other)]
    d = d[~d["params"].str.contains('"memory"', regex=False)].dropna(subset=["wall_ms"])
    out = []
    for n, g in d.groupby("n"):
        a, _ = M.times(df, algorithm, variant, n)
        if a.size:
            bad = int((g["verified"].astype(str).str.lower() != "true").sum())
            out.append(f"n={int(n)}: {fmt(float(M.process_medians(g).median() / np.median(a)))}x"
                       + (f" ({bad} of {len(g)} runs wrong)" if bad else ""))
    return (f"beside, not decided on: {other} (the race kept) over {variant}, from its recorded times: " + "; ".join(out)) if out else ""


def _added_01(df, C):
    c = C["tran_fw_speedup_constant"]
    sp, slope = crossings.trend(df, c)
    span = max(c["paper_n"]) / min(c["paper_n"])
    return [V.evaluate(c, df, decided=rules.constant_rule(*slope, len(sp), span, float(c["tolerance"])))
            | dict(ours_text=T.trend(sp, "the speed-up", slope=slope), per_size=speedups.fmt_points(sp),
                   matched_n=", ".join(map(str, sp["n"])), baseline_timed=", ".join(sorted(set(sp["baseline_timed"]))))]


def density_points(df, algorithm, variant, n):
    """[(label, time on the next denser graph / time on the sparser, lo, hi)] of one code at one n, over the degree
    ranges timed there (Kemp's 2-6 and the denser ones), in order of degree."""
    graphs = sorted(set(df.loc[(df["algorithm"] == algorithm) & (df["n"] == n), "graph"]),
                    key=lambda g: int(g.split()[-1].split("-")[0]))
    out = []
    for sparse, dense in zip(graphs, graphs[1:]):
        a, _ = M.times(df, algorithm, variant, n, graph=dense)
        b, _ = M.times(df, algorithm, variant, n, graph=sparse)
        if a.size and b.size:
            out.append((f"{n}: {dense.split()[-1]} / {sparse.split()[-1]}", *estimate.ratio(a, b)))
    return out


def _added_03(df, C):
    rows = []
    c = C["harish_atomic_faster_than_two_kernel"]
    pts = ratio_points(df, [((c["algorithm"], c["variant"]), (c["baseline"], c["baseline_variant"]))])
    rows.append(_ordering_row(c, df, pts, note=unverified_beside(df, c["algorithm"], c["variant"], "original")))
    c = C["harish_slower_on_denser"]
    dn = degree_n(df)
    pts = density_points(df, c["algorithm"], c["variant"], dn) if dn else []
    row = _ordering_row(c, df, pts)          # its points are steps of degree at one n, not sizes
    rows.append(row | {k: row[k].replace(" sizes", " steps of degree") for k in ("reason", "ours_text")})
    c = C["harish_faster_than_dijkstra"]
    pts = ratio_points(df, [((c["algorithm"], c["variant"]), (c["baseline"], None))], _in_range(c, df, c["algorithm"], c["variant"]))
    rows.append(_ordering_row(c, df, pts))
    return rows


def share_points(df, algorithm, sizes, memory=None, part="kernel_ms", whole="wall_ms"):
    """[(n, share, lo, hi)]: ``part`` time / ``whole`` time of one code, formed inside each process (both from the
    same runs) at each of ``sizes`` (``memory``: the memory mode, None: the default one)."""
    out = []
    for n in sizes:
        a, _ = M.times(df, algorithm, None, n, part, memory=memory)
        b, _ = M.times(df, algorithm, None, n, whole, memory=memory)
        if len(a) and len(b):
            e = estimate.ratio(a, b)
            if e.value == e.value:
                out.append(estimate.Point(int(n), e))
    return out


def _mode_sizes(df, algorithm, memory):
    d = df[(df["algorithm"] == algorithm) & (df["graph"] == M.KEMP)
           & df["params"].str.contains(f'"memory": "{memory}"', regex=False)]
    return sorted(int(n) for n in M.good(d)["n"].unique())


def _no_mode_sizes(df, algorithm):
    d = df[(df["algorithm"] == algorithm) & (df["graph"] == M.KEMP) & ~df["params"].str.contains('"memory"', regex=False)]
    return sorted(int(n) for n in M.good(d)["n"].unique())


def mode_points(df, pairs, sizes):
    """[(label, time of the slower / time of the faster, lo, hi)] for ``pairs`` = [(faster (algorithm, mode),
    slower (algorithm, mode))] at each of ``sizes``, end to end (allocation included, as seed 003 times)."""
    out = []
    for n in sizes:
        for (a, ma), (b, mb) in pairs:
            x, _ = M.times(df, a, None, n, memory=ma)
            y, _ = M.times(df, b, None, n, memory=mb)
            if x.size and y.size:
                out.append((f"{n}: {b} {mb} / {a} {ma}", *estimate.ratio(y, x)))
    return out


def _added_04(df, C):
    rows = []
    c = C["tuwien_native_thrust_best"]
    a, thrust = c["algorithms"]         # the raw CUDA FW and the Thrust FW (claims.yaml algorithms)
    sizes = [n for n in _mode_sizes(df, a, "managed") if n >= min(c["paper_n"])]
    pairs = [((a, "pageable"), (a, "managed")), ((thrust, "pageable"), (a, "managed")), ((a, "managed"), (a, "zero_copy"))]
    rows.append(_ordering_row(c, df, mode_points(df, pairs, sizes), each_pair=True))
    c = C["tuwien_compute_share_small"]
    pts = share_points(df, c["algorithm"], [n for n in _mode_sizes(df, c["algorithm"], c["variant"]) if n <= max(c["paper_n"])],
                       memory=c["variant"])
    rows.append(V.evaluate(c, df, points=pts, note="kernel time / end-to-end time (allocation, copies and kernel), "
                           "formed inside each process"))
    c = C["tuwien_compute_share_large"]
    ns = _no_mode_sizes(df, c["algorithm"])
    big = [n for n in ns if n >= min(c["paper_n"])]
    beside = share_points(df, c["algorithm"], [n for n in ns if n not in big])
    rows.append(V.evaluate(c, df, points=share_points(df, c["algorithm"], big),
                           note="kernel time / end-to-end time, formed inside each process; beside, at smaller n: "
                           + ("; ".join(f"n={n}: {fmt(100 * v)}%" for n, v, *_ in beside) or "none")))
    return rows


def _added_06(df, C):
    rows = []
    rows.append(_growth_row(df, C["harish_growth_per_graph_above_12000"]))
    c = C["tran_faster_than_kk_small"]
    kk = (c["baseline"], c["baseline_variant"])
    pts = ratio_points(df, [((a, None), kk) for a in c["algorithms"]], _in_range(c, df, *kk))
    rows.append(_ordering_row(c, df, pts, each_pair=True))
    c = C["tran_fw_second_only_to_kk_small"]
    me = (c["algorithm"], c.get("variant"))
    others = [(b, v) for b, v in zip(c["baselines"], c["baseline_variants"])]
    first = c["baseline"]               # the one code claimed faster than Tran's FW (Katz & Kider's)
    pairs = [(me, o) for o in others if o[0] != first] + [(o, me) for o in others if o[0] == first]
    rows.append(_ordering_row(c, df, ratio_points(df, pairs, _in_range(c, df, *me)), each_pair=True))
    c = C["harish_slowest_at_small"]
    me = (c["algorithm"], c["variant"])
    pairs = [((b, v), me) for b, v in zip(c["baselines"], c["baseline_variants"])]
    rows.append(_ordering_row(c, df, ratio_points(df, pairs, _in_range(c, df, *me)), each_pair=True))
    return rows


def _growth_row(df, c):
    """A growth claim's row; its leases are those of the processes that timed its code at both sizes (satellites
    too), not the main processes' that rows without their own count take."""
    row = V.evaluate(c, df, aggregate=Q.growth(df, c))
    on = df[(df["algorithm"] == c["algorithm"]) & df["n"].isin([min(c["paper_n"]), max(c["paper_n"])])]
    if c.get("variant") is not None:
        on = on[on["variant"] == c["variant"]]
    if "lease" in on and len(on):
        row["leases"] = int(on.groupby("lease")["n"].nunique().eq(2).sum())
    return row


_ADDED = {spec.TRAN_NB: _added_01, spec.HARISH_NB: _added_03, spec.MEMORY_NB: _added_04, spec.ALL_NB: _added_06}


def notebook_rows(notebook, df, claims=None):
    """The verdict rows (:func:`verdicts.evaluate`) of one campaign notebook's claims, each decided by the rule
    above that names it; a claim that data/claims.yaml gives the notebook and no rule names is *not testable*,
    saying so."""
    C = spec.on_kemp(claims or claims_mod.load())
    rows = _ROWS[notebook](df, C) + _ADDED.get(notebook, lambda df, C: [])(df, C)
    done = {r["claim"] for r in rows}
    rows += [V.evaluate({**c, "testable_here": False, "not_testable_reason": "no rule of the campaign's verdicts "
                         "names this claim yet"}, df) for cid, c in C.items() if c.get("notebook") == notebook and cid not in done]
    # a row whose rule does not count its own leases rests on the main processes': satellites time a few codes and
    # sizes only, and may run on leases of their own
    main = df[~df["satellite"].astype(bool)] if "satellite" in df else df
    return V.with_leases(rows, main["lease"].nunique() if "lease" in main else main["process"].nunique())


def run_verdicts(run_dir):
    """Every campaign claim's verdict row from one run folder's records (process-*.csv)."""
    from . import runs as campaign
    df, _ = campaign.load(Path(run_dir))
    return frame_verdicts(df)


def frame_verdicts(df, C=None):
    """Every campaign claim's verdict row from a campaign's records (one row per timed run, a
    ``process`` column naming the independent run)."""
    C = C or claims_mod.load()
    frames = [V.table(notebook_rows(nb, df, C), claims=C).assign(notebook=nb) for nb in NOTEBOOKS]
    return pd.concat(frames, ignore_index=True)


def republish(run_dir):
    """Rewrite a recorded campaign's published verdict tables (``verdicts-<notebook>.csv`` beside its
    records and the campaign claims' rows of ``verdicts.csv``, as notebooks 00-06 and 07 write them)
    from its records under the current claims and rules, after a change of either.  The other
    studies' rows of ``verdicts.csv`` (notebooks 08-10, from their own runs) are kept as they are.
    Returns the claims whose verdict changed, {claim: (before, after)}."""
    run_dir = Path(run_dir)
    new = run_verdicts(run_dir)
    old = pd.read_csv(run_dir / "verdicts.csv")
    keep = old.drop_duplicates("claim").set_index("claim")[["device", "results", "profile"]]
    new = new.join(keep, on="claim")
    for col in keep.columns:             # a claim added since: the campaign's own device, folder and profile
        new[col] = new[col].fillna(keep.loc[keep.index.isin(set(new["claim"])), col].mode().iloc[0])
    for nb, t in new.groupby("notebook", sort=False):
        f = run_dir / f"verdicts-{nb}.csv"
        if f.exists():
            t.to_csv(f, index=False)
    out = new.rename(columns={"ours": "ours_value"}).assign(ours=lambda t: t["ours_value"])
    rest = old[~old["claim"].isin(set(out["claim"]))].copy()
    C = claims_mod.load()      # the other studies' rows: what they rest on, from their published interval
    rest["basis"] = [basis.of_row(r, C) for r in rest.to_dict("records")]
    pd.concat([out, rest], ignore_index=True).reindex(columns=list(dict.fromkeys(list(out.columns) + list(old.columns)))) \
        .to_csv(run_dir / "verdicts.csv", index=False)
    before = old.set_index("claim")["verdict"]
    return {c: (before.get(c), v) for c, v in zip(new["claim"], new["verdict"]) if before.get(c) != v}


if __name__ == "__main__":        # python -m apsp_kernels.study.seeds.kemp.verdicts <run folder>...: republish
    import sys
    for d in sys.argv[1:]:
        print(d, republish(d))
