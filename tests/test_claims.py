"""Every claim is exact data: quoted verbatim from its seed (when the seeds are beside the
checkout), with its place, quantity, sizes, tolerance and a notebook; and a test per field."""
import math
import re

import pytest

from apsp_kernels.study.method import claims
from apsp_kernels import paths
from apsp_kernels.algorithms import registry

C = claims.load()
KINDS = {"range", "value", "average", "trend", "crossover", "break_even", "ordering", "limit", "occurrence", "exists"}


def _norm(s):
    return re.sub(r"\s+", " ", s).strip()


@pytest.mark.parametrize("cid", sorted(C))
def test_claim_fields(cid):
    c = C[cid]
    assert c["kind"] in KINDS
    for key in ("quote", "where", "quantity", "hardware", "notebook"):
        assert c.get(key), f"{cid}: {key} missing"
    assert re.search(r"seed \d{3}", c["where"]), c["where"]
    assert isinstance(c["paper_n"], list) and (c["paper_n"] or c.get("paper_n_reason"))
    if c["kind"] in ("range", "value", "average", "crossover", "break_even", "limit"):
        lo, hi = c["claimed"]
        assert lo <= hi and (c.get("tolerance") or 0) >= 1
    for key in ("algorithm", "baseline"):
        name = c.get(key)
        assert name is None or name == "all_gpu" or name in registry.ALGORITHMS, f"{cid}: {key} {name}"
    for name in (c.get("algorithms") or []) + (c.get("baselines") or []):
        assert name in registry.ALGORITHMS, f"{cid}: {name}"
    if not c.get("testable_here", True):
        assert c.get("not_testable_reason")
    if c["kind"] == "occurrence":
        assert isinstance(c.get("occurs"), bool), f"{cid}: an occurrence says whether the event can happen"
    if c.get("unit") == "slope":
        assert len(c["claimed"]) == 2 and (c.get("tolerance") or 0) >= 1


def test_no_hardware_that_no_seed_names():
    text = " ".join(str(c.get("hardware")) for c in C.values())
    assert "8800 GT" not in text and "8800 GTX" not in text


def test_at_least_claims_have_no_upper_bound():
    assert C["kk_peak_vs_others"]["claimed"][1] == math.inf


@pytest.mark.skipif(not paths.SEEDS.is_dir(), reason=f"seeds not beside the checkout ({paths.SEEDS})")
@pytest.mark.parametrize("cid", sorted(C))
def test_quotes_are_verbatim(cid):
    c = C[cid]
    seeds = {f.name[:3]: _norm(f.read_text(encoding="utf-8")) for f in paths.SEEDS.glob("[0-9][0-9][0-9]_*.txt")}
    quotes = [(c["quote"], c["where"])] + ([(c["kemp_quote"], "seed 000")] if c.get("kemp_quote") else [])
    quotes += [(r["quote"], r.get("where", c["where"])) for r in c.get("readings") or []]
    for q, where in quotes:
        seed = re.search(r"seed (\d{3})", where).group(1)
        assert _norm(q) in seeds[seed], f"{cid}: not verbatim in seed {seed}: {q[:80]!r}"


def test_readings_are_listed_with_the_tested_one():
    from apsp_kernels.study.method import claims as claims_mod
    C = claims_mod.load()
    c = C["kk_average_vs_fw"]
    rows = claims_mod.readings(c)
    assert len(rows) == len(c["readings"]) + 1 and rows[-1]["reading"].startswith("tested: ")
    assert all(r["quote"] for r in rows[:-1]) and claims_mod.readings(C["kk_vs_fw"]) == []


def test_a_verdict_with_several_readings_says_which_it_tests():
    import pandas as pd
    from apsp_kernels.study.method import claims as claims_mod
    from apsp_kernels.study.method import verdicts as V
    from apsp_kernels.study.publish import readings_table
    c = claims_mod.load()["kk_average_vs_fw"]
    row = V.evaluate(c, pd.DataFrame(), aggregate=(150.0, 140.0, 160.0, "150x"), decided=("reproduced", "x"))
    assert f"{len(c['readings'])} passages of the seed" in row["reason"] and "tested: " in row["reason"]
    assert readings_table("06_all_algorithms") is not None and readings_table("01_tran_fw") is None


def test_every_tolerance_says_when_it_was_set():
    """claims.yaml's tolerance_history (from git: the first commit in which each claim carries a
    tolerance) lists every claim with a tolerance exactly once, and no claim that has none."""
    import yaml
    hist = yaml.safe_load(claims.CLAIMS_FILE.read_text())["tolerance_history"]
    listed = [cid for h in hist for cid in h["claims"]]
    C = claims.load()
    assert len(listed) == len(set(listed))
    assert set(listed) == {cid for cid, c in C.items() if c.get("tolerance") is not None}
    assert claims.tolerance_set("harish_time_growth")["commit"] == "7d86f8f"
    assert claims.tolerance_set("harish_overtakes_tran")["short"] == "set 22 Nov after the quick sweep"
    assert claims.tolerance_set("tran_fw_faster_than_minplus") is None


def test_the_out_of_core_partitions_are_declared_with_the_claims_they_set():
    """Every claim that times Kemp's out-of-core code declares the partitions it was forced into, and
    the campaign's plan reads that number from there."""
    from apsp_kernels.study.seeds.kemp import spec as plan
    C = claims.load()
    ooc = [cid for cid, c in C.items() if "kemp_ooc" in {c.get("algorithm"), c.get("baseline"), *(c.get("algorithms") or []),
                                                         *(c.get("baselines") or [])}]
    assert len(ooc) >= 5 and all(C[cid]["parameters"]["partitions"] == claims.parameter("partitions") for cid in ooc)
    code = plan.K["ooc"]
    assert plan.forced(code, 4096) == plan.forced(code, 4096, claims.parameter("partitions"))
    assert plan.forced(code, 4096) != plan.forced(code, 4096, 2)


def test_an_analogue_says_so_in_its_verdict():
    from apsp_kernels.study.method import verdicts as V
    c = claims.load()["hochberg_gpu_vs_cpu_break_even"]
    assert c["analogue"] and c["analogue_note"]
    row = V.evaluate(c, None, crossover=(60, (10, 131), (10, 1800)))
    assert row["analogue"] is True and row["reason"].startswith("analogue")


def test_untested_statements_say_why():
    import yaml
    u = yaml.safe_load(claims.CLAIMS_FILE.read_text())["untested"]
    assert len(u) >= 11           # 18 until the nine 'pending' ones became claims and two statements were added
    for e in u:
        assert re.search(r"seed \d{3}", e["where"]) and e["statement"] and e["reason"], e
        assert e["why"] in ("device", "hardware", "not_measurable"), e      # 'pending' is no reason
    for cid, c in claims.load().items():         # a claim added after the data existed says so
        if c.get("added"):
            assert "after the data existed" in c["added"], cid
