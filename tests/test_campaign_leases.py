"""How many leases a campaign row rests on, where satellites ran on leases of their own (the H200 decide batch:
3 main processes on 3 leases, 12 satellites on 3 more): a row whose rule does not count its own leases says the
main processes' 3, and Harish's time growth, which pairs the satellites' runs too, says its own 6."""
from pathlib import Path

from apsp_kernels.study.seeds.kemp import runs, spec, verdicts

BATCH = Path(__file__).resolve().parents[1] / "data" / "results" / "20261128-100300-decide-campaign"


def test_satellites_on_their_own_leases_do_not_count_for_the_main_processes_rows():
    df, prov = runs.load(BATCH)
    assert df[df.satellite].lease.nunique() == 3 and df[~df.satellite].lease.nunique() == 3
    assert set(df[df.satellite].process) == set(range(3, 15))
    rows = {r["claim"]: r for nb in (spec.HARISH_NB, spec.ALL_NB) for r in verdicts.notebook_rows(nb, df)}
    assert rows["harish_vs_fw_scaling"]["leases"] == 3
    assert rows["harish_time_growth"]["leases"] == 6
    assert "on 6 leases" in rows["harish_time_growth"]["ours_text"]
