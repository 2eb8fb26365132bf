"""The rules and points of the claims added last to the inventory (data/claims.yaml ``added`` 2026-11-27), on
small synthetic records only: every outcome of each new rule, and each new claim's row from records in which
it holds and in which it fails.  Nothing here reads a recorded batch."""
import json

import numpy as np
import pandas as pd
import pytest

import iitkgp_synthetic as SYN
from apsp_kernels.study.method import claims, order_rules, rules
from apsp_kernels.study.seeds.iitkgp import load as IR, verdicts as IV
from apsp_kernels.study.seeds.kemp import verdicts as CV
from apsp_kernels.study.seeds.kemp.spec import ALL_NB, HARISH_NB, MEMORY_NB, TRAN_NB, on_kemp
from apsp_kernels.study.seeds.nthu import load as NR, verdicts as NV

C = claims.load()
KEMP = "kemp 2-6"


# ----------------------------------------------------------------- constant_rule (a speed-up claimed flat in n)
def test_constant_rule_every_outcome():
    span, tol = 11264 / 1024, 1.25                     # band +- log 1.25 / log 11 = +- 0.093
    assert rules.constant_rule(0.01, -0.03, 0.05, 11, span, tol)[0] == "reproduced"
    v, why = rules.constant_rule(0.4, 0.3, 0.5, 11, span, tol)
    assert v == "not reproduced" and why.startswith("grows")
    assert rules.constant_rule(-0.4, -0.5, -0.3, 11, span, tol)[1].startswith("falls")
    assert rules.constant_rule(0.08, 0.02, 0.15, 11, span, tol)[0] == "inconclusive"
    assert rules.constant_rule(0.0, float("nan"), float("nan"), 11, span, tol)[0] == "inconclusive"
    assert rules.constant_rule(0.0, -0.1, 0.1, 3, span, tol)[0] == "not testable"


# ----------------------------------------------------------------- each_pair_rule (several orderings claimed at once)
def test_each_pair_rule_every_outcome():
    hold = [(f"{n}: b / a", 2.0, 1.5, 2.5) for n in (1, 2, 3)] + [(f"{n}: c / a", 3.0, 2.5, 3.5) for n in (1, 2, 3)]
    assert order_rules.each_pair_rule(hold)[0] == "reproduced"
    fail = hold + [(f"{n}: a / d", 0.5, 0.4, 0.6) for n in (1, 2, 3)]     # pooled: 6 of 9 hold, yet one pair fails everywhere
    v, why = order_rules.each_pair_rule(fail)
    assert v == "not reproduced" and "(a / d)" in why
    assert order_rules.each_pair_rule(hold + [(f"{n}: a / d", 1.0, 0.8, 1.2) for n in (1, 2, 3)])[0] == "inconclusive"
    assert order_rules.each_pair_rule([])[0] == "not testable"


# ----------------------------------------------------------------- always_rule (seed 004: 'always superior')
def test_always_rule_every_outcome():
    up = [("2048, row", 1.2, 1.1, 1.3), ("4096, row", 1.6, 1.5, 1.7)]
    assert order_rules.always_rule(up)[0] == "reproduced"
    v, why = order_rules.always_rule(up + [("1024, row", 0.9, 0.85, 0.95)])      # one size the other way refutes 'always'
    assert v == "not reproduced" and "1024, row" in why
    assert order_rules.always_rule(up + [("1024, row", 1.0, 0.95, 1.05)])[0] == "inconclusive"
    assert order_rules.always_rule([])[0] == "not testable"


# ----------------------------------------------------------------- the campaign's new claims on synthetic records
def _rows(spec, processes=3, repeats=3, seed=0):
    """Campaign-shaped records: ``spec`` = [(algorithm, variant, n, graph, memory, wall ms, kernel ms)]."""
    rng = np.random.default_rng(seed)
    out = []
    for a, v, n, g, mem, wall, ker in spec:
        for p in range(processes):
            lvl = np.exp(rng.normal(0, 0.01))
            for r in range(repeats):
                w = wall * lvl * np.exp(rng.normal(0, 0.005))
                out.append(dict(algorithm=a, variant=v, n=n, graph=g, params=json.dumps({"memory": mem} if mem else {}),
                                status="ok", verified=True, estimate="measured", wall_ms=w,
                                kernel_ms=None if ker is None else ker * w / wall, alloc_ms=0.0, process=p, repeat=r))
    return pd.DataFrame(out)


def campaign(holds=True, kk_first=False):
    """Records in which every new campaign claim holds (``holds``) or fails; ``kk_first``: Katz & Kider the fastest
    at the smaller graphs (the seed says both that and the opposite)."""
    s, tran = [], {}
    for n in range(1024, 11265, 1024):                           # Tran's FW over FW: flat 50x, or growing as n^0.5
        fw = 1e-6 * n ** 3
        tran[n] = fw / (50 if holds else 50 * (n / 1024) ** 0.5)
        s += [("fw_sequential", None, n, KEMP, None, fw, None), ("tran_fw", None, n, KEMP, None, tran[n], tran[n] / 2)]
    for n in (1024, 2048, 3072, 4096):                           # smaller graphs: the order of the five codes
        t = tran[n]
        kk = t * (1.2 if holds and not kk_first else 0.5)        # Tran's codes faster than KK (or not)
        s += [("katz_kider", "16", n, KEMP, None, kk, kk), ("tran_minplus", None, n, KEMP, None, 1.1 * t, t),
              ("kemp_ooc", "16", n, KEMP, None, 3 * t, t), ("harish", "atomic", n, KEMP, None, (40 if holds else 0.5) * t, t)]
    for n in (256, 512):                                         # atomic against the race-free two kernels
        s += [("harish", "corrected", n, KEMP, None, 2.0 if holds else 1.0, 1.0),
              ("harish", "original", n, KEMP, None, 1.8, 1.0),
              ("harish", "atomic", n, KEMP, None, 1.5 if holds else 2.0, 1.0)]
    base = 40 * tran[2048] if holds else 0.5 * tran[2048]
    for g, f in (("kemp 8-12", 2), ("kemp 16-24", 4), ("kemp 32-48", 8)):       # denser graphs at 2048
        s += [("harish", "atomic", 2048, g, None, base * (f if holds else 1 / f), 1.0)]
    for n in (12288, 16384, 21504):                              # growth over the span, and Dijkstra on the CPU
        h = 10.0 * (2.1 if holds else 5.0) ** ((n - 12288) / 9216)
        s += [("harish", "atomic", n, KEMP, None, h, h / 2), ("dijkstra_cpu", None, n, KEMP, None, h * (3 if holds else 0.3), None)]
    for n in (16, 64, 256, 1024, 2048):                          # memory modes: native and Thrust first, managed next
        for a, m, w in (("hochberg_naive", "pageable", 1.0), ("thrust_fw", "pageable", 1.05),
                        ("hochberg_naive", "managed", 1.5 if holds else 0.5), ("hochberg_naive", "zero_copy", 3.0)):
            s += [(a, None, n, KEMP, m, w, w * (0.01 if holds else 0.3) if n <= 1024 else w * 0.5)]
    for n in (1024, 2048, 4096, 8192):                           # the default mode's kernel share
        s += [("hochberg_naive", None, n, KEMP, None, 10.0, 9.5 if holds or n < 4096 else 5.0)]
    df = _rows(s)
    racy = df["variant"] == "original"                           # the racy two kernels: every run wrong
    df.loc[racy, "status"], df.loc[racy, "verified"] = "failed_verification", False
    return df


NEW = {TRAN_NB: ["tran_fw_speedup_constant"],
       HARISH_NB: ["harish_atomic_faster_than_two_kernel", "harish_slower_on_denser", "harish_faster_than_dijkstra"],
       MEMORY_NB: ["tuwien_native_thrust_best", "tuwien_compute_share_small", "tuwien_compute_share_large"],
       ALL_NB: ["harish_growth_per_graph_above_12000", "tran_faster_than_kk_small", "tran_fw_second_only_to_kk_small",
                "harish_slowest_at_small"]}


def _added(df):
    return {r["claim"]: r for nb in NEW for r in CV._ADDED[nb](df, on_kemp(C))}


def test_every_new_campaign_claim_has_a_rule_that_names_it():
    rows = _added(campaign())
    assert set(rows) == {cid for ids in NEW.values() for cid in ids}
    assert all(C[cid]["added"] and C[cid]["notebook"] == nb for nb, ids in NEW.items() for cid in ids)


def test_the_new_campaign_claims_hold_on_records_where_they_hold():
    rows = _added(campaign(holds=True))
    v = {cid: r["verdict"] for cid, r in rows.items()}
    assert v.pop("tran_fw_second_only_to_kk_small") == "not reproduced"      # Tran's FW beats KK here: the seed's other sentence
    assert v == {cid: "reproduced" for cid in v}
    assert _added(campaign(kk_first=True))["tran_fw_second_only_to_kk_small"]["verdict"] == "reproduced"
    assert "original (the race kept) over atomic" in rows["harish_atomic_faster_than_two_kernel"]["reason"]
    assert "(9 of 9 runs wrong)" in rows["harish_atomic_faster_than_two_kernel"]["reason"]
    assert rows["harish_slower_on_denser"]["matched_n"] == "2048"
    assert "within the tolerance" in rows["tran_fw_speedup_constant"]["reason"]


def test_the_new_campaign_claims_fail_on_records_where_they_fail():
    rows = _added(campaign(holds=False))
    v = {cid: r["verdict"] for cid, r in rows.items()}
    assert v["tran_fw_speedup_constant"] == "not reproduced"            # the speed-up grows as n^0.5
    for cid in ("harish_atomic_faster_than_two_kernel", "harish_slower_on_denser", "harish_faster_than_dijkstra",
                "tran_faster_than_kk_small", "harish_slowest_at_small"):
        assert v[cid] == "not reproduced", cid
    assert v["tuwien_native_thrust_best"] != "reproduced"               # managed slowest: 2 of 3 pairs opposite
    assert v["tuwien_compute_share_small"] == "differs in magnitude"     # 30%, not about 1%
    assert v["tuwien_compute_share_large"] == "differs in magnitude"     # 50%, below 0.9 / 1.25
    assert v["harish_growth_per_graph_above_12000"] == "differs in magnitude"   # 5x over the span, not 1.9-2.36x


def test_the_shares_are_formed_inside_each_process():
    pts = CV.share_points(campaign(), "hochberg_naive", [1024, 2048], memory="pageable")
    assert [p[0] for p in pts] == [1024, 2048] and pts[0][1] == pytest.approx(0.01, rel=1e-6)
    assert pts[1][1] == pytest.approx(0.5, rel=1e-6)


# ----------------------------------------------------------------- NTHU's new claims on synthetic records
def _single(ratio2=(2 * 751, 2 * 376, 2 * 188), bs64_over_32=2.7):
    rows = []
    for p in range(3):
        for r in range(2):
            for bs, r2 in zip((8, 16, 32), ratio2):
                rows.append(dict(variant=f"b{bs}-dim3-branch", n=6000, status="ok", process=f"p{p}", phase1_ms=1.0,
                                 phase2_ms=r2 * (1 + 0.01 * p), phase3_ms=100.0, kernel_ms=100.0 + r2, wall_ms=200.0))
            rows.append(dict(variant="b64-dim3-branch", n=6000, status="ok", process=f"p{p}", phase1_ms=1.0, phase2_ms=1.0,
                             phase3_ms=1.0, kernel_ms=100.0 * bs64_over_32, wall_ms=300.0))
    df = pd.DataFrame(rows)
    df["bs"], df["launch"], df["update"] = zip(*df["variant"].map(NR.parse_variant))
    return df


def _multi(speedups=(1.2, 1.6, 1.9), unrolled=2.7):
    rows = []
    for p in range(3):
        for r in range(2):
            for n, s in zip((2048, 8192, 32768), speedups):
                for P, t in ((1, 100.0), (2, 100.0 / s)):
                    rows.append(dict(variant="row", n=n, n_gpus=P, kernel="b32-dim3-branch", status="ok", process=f"p{p}",
                                     kernel_ms_max=t * (1 + 0.005 * p), compute_ms_max=t))
            for kern, t in (("b32-dim3-branch", 10.0), ("b64-dim3-branch", 10.0 * unrolled)):
                rows.append(dict(variant="row", n=6000, n_gpus=2, kernel=kern, status="ok", process=f"p{p}",
                                 kernel_ms_max=t, compute_ms_max=t * (1 + 0.005 * p)))
    return pd.DataFrame(rows)


def test_the_new_nthu_claims_hold_and_fail():
    ok = {r["claim"]: r for r in NV.added_rows(C, _single(), _multi())}
    assert set(ok) == set(NV.ADDED)
    assert {cid: r["verdict"] for cid, r in ok.items()} == {cid: "reproduced" for cid in NV.ADDED}
    bad = {r["claim"]: r["verdict"] for r in NV.added_rows(C, _single(ratio2=(3.7, 2.4, 2.0), bs64_over_32=0.8),
                                                            _multi(speedups=(0.9, 1.6, 1.9), unrolled=0.8))}
    assert bad == {"nthu_phase2_expected_ratio": "differs in magnitude", "nthu_unrolled_32_vs_64": "not reproduced",
                   "nthu_multi_always_superior": "not reproduced"}
    none = {r["claim"]: r["verdict"] for r in NV.added_rows(C, pd.DataFrame(), pd.DataFrame())}
    assert set(none.values()) == {"not testable"}


def test_the_fully_unrolled_heading_is_bs_32_one_cell_a_thread():
    assert "one cell a thread: its 4th, 'Fully unrolled in a thread'" in C["nthu_unrolled_32_vs_64"]["quantity"]
    assert "configuration the seed removed" in C["nthu_bigger_blocks_faster"]["quantity"]


# ----------------------------------------------------------------- IIT Kharagpur's new claims on synthetic records
def _report(tmp_path, times):
    d = SYN.write_batch(tmp_path, {"sssp": SYN.rows(times, stages={"sssp"})})
    return IR.load(d)


def test_the_new_iitkgp_claims_hold_and_fail(tmp_path):
    t = SYN.scenario()
    for g, ms in (("gene-human", 800.0), ("slashdot", 400.0)):          # Graph 2 slower than Graph 3 on the CPU too
        t[("sssp", g, "dijkstra_sssp_cpu", "None", "cpu", "measured")] = ms
    for g in SYN.BFS_GRAPHS:                                              # the fix clearly slower than the race
        t[("sssp", g, "harish_sssp", "original", "gpu", "measured")] = 300.0 / SYN.SPEEDUP[g]
    rep = _report(tmp_path / "a", t)
    v = {cid: IV.evaluate(rep, C[cid]) for cid in ("iitkgp_race_wrong_result", "iitkgp_atomic_fix_slight_slowdown",
                                                   "iitkgp_sssp_graph3_faster_than_graph2")}
    assert {cid: r["verdict"] for cid, r in v.items()} == {cid: "reproduced" for cid in v}
    assert v["iitkgp_race_wrong_result"]["ours_text"].startswith("15 wrong searches")    # one per process and graph
    t2 = SYN.scenario()
    for g in SYN.BFS_GRAPHS:                                              # the fix faster; Graph 3 slower
        t2[("sssp", g, "harish_sssp", "original", "gpu", "measured")] = 600.0 / SYN.SPEEDUP[g]
    t2[("sssp", "slashdot", "harish_sssp", "corrected", "gpu", "measured")] = 200.0
    t2[("sssp", "slashdot", "dijkstra_sssp_cpu", "None", "cpu", "measured")] = 900.0
    rep = _report(tmp_path / "b", t2)
    assert IV.evaluate(rep, C["iitkgp_atomic_fix_slight_slowdown"])["verdict"] == "not reproduced"
    assert IV.evaluate(rep, C["iitkgp_sssp_graph3_faster_than_graph2"])["verdict"] == "not reproduced"
