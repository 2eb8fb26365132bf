"""study.stability: pseudo-runs drawn from recorded processes predict whether a verdict would
flip in the next reference run (the two-run criterion: docs/method.md)."""
from pathlib import Path

import pandas as pd
import pytest

from apsp_kernels.study.report import stability as S


def _load_factory(values):
    """A stand-in for campaign.load: run folder name -> one value per process."""
    def load(d):
        v = values[d.name]
        return pd.DataFrame({"process": range(len(v)), "value": v}), {}
    return load


def _verdicts(df, C=None):
    """A stand-in rule: 'reproduced' when the median value is below 40, and a claim that never moves."""
    assert sorted(df["process"].unique()) == list(range(df["process"].nunique()))   # renumbered as one run
    med = df["value"].median()
    return pd.DataFrame({"claim": ["edge", "firm"], "verdict": ["reproduced" if med < 40 else "inconclusive", "differs"]})


def test_draws_are_distinct_sets_of_k_processes_and_repeatable():
    procs = [(f"r:{i}", None) for i in range(7)]
    a = S.draws(procs, 5, 15)
    assert len(a) == 15 and len(set(a)) == 15 and all(len(set(p)) == 5 for p in a)
    assert a == S.draws(procs, 5, 15)
    assert len(S.draws(procs[:5], 5, 10)) == 1          # only one set of 5 exists in a pool of 5
    with pytest.raises(ValueError, match="a draw of 5 processes from a pool of 3"):
        S.draws(procs[:3], 5, 1)


def test_a_claim_at_its_edge_is_flagged_and_a_firm_one_is_not(tmp_path):
    values = {"a": [30, 31, 33, 34, 39], "b": [41, 42, 44, 45, 38]}
    processes = S.pool([tmp_path / "a", tmp_path / "b"], load=_load_factory(values))
    assert [lab for lab, _ in processes][:2] == ["a:0", "a:1"] and len(processes) == 10
    table = S.resampled_verdicts(processes, S.draws(processes, 5, 40), verdicts=_verdicts, progress=False)
    got = S.agreement(table, {"edge": "reproduced", "firm": "differs"}).set_index("claim")
    assert got.loc["firm", "agree"] == 1.0
    assert 0 < got.loc["edge", "agree"] < 1 and "inconclusive" in got.loc["edge", "seen"]
    assert list(S.agreement(table, {"edge": "reproduced", "firm": "differs"}).claim) == ["edge", "firm"]  # least stable first
    # each draw's verdict is the rule on exactly its processes
    for pick, row in table.iterrows():
        vals = [values[lab.split(":")[0]][int(lab.split(":")[1])] for lab in pick.split()]
        assert row["edge"] == ("reproduced" if pd.Series(vals).median() < 40 else "inconclusive")


def test_the_command_writes_the_table_and_what_it_was_drawn_from(tmp_path, monkeypatch, capsys):
    import json
    from apsp_kernels.study.seeds.kemp import runs as campaign, verdicts as campaign_verdicts
    values = {"a": [30, 31, 33, 34, 39], "b": [41, 42, 44, 45, 38]}
    monkeypatch.setattr(campaign, "load", _load_factory(values))
    monkeypatch.setattr(campaign_verdicts, "frame_verdicts", _verdicts)
    monkeypatch.setattr(campaign_verdicts, "run_verdicts", lambda d: _verdicts(_load_factory(values)(Path(d))[0]))
    out = tmp_path / "stability.csv"
    S.main([str(tmp_path / "a"), str(tmp_path / "b"), "--draws", "12", "--out", str(out)])
    table = pd.read_csv(out)
    assert list(table.claim) == ["edge", "firm"] and table.draws.tolist() == [12, 12]
    assert "edge" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        S.main([str(tmp_path / "a"), "--k", "3", "--skip", "nope"])
    assert "--skip: no such claim: nope" in capsys.readouterr().err
    S.main([str(tmp_path / "a"), str(tmp_path / "b"), "--draws", "3", "--skip", "edge", "--out", str(out)])
    assert list(pd.read_csv(out).claim) == ["firm"]
    side = json.loads(out.with_suffix(".json").read_text())
    assert side["runs"] == ["a", "b"] and side["k"] == 5 and side["draws"] == 3 and side["skipped"] == ["edge"]
    assert "git_commit" in side


def test_the_summary_sentence_is_computed_from_the_table(tmp_path):
    from apsp_kernels.study.report import summary
    assert summary.predicted_agreement(tmp_path) is None and summary.predicted_agreement(None) is None
    table = S.agreement(pd.DataFrame({"edge": ["reproduced"] * 3 + ["inconclusive"], "firm": ["differs"] * 4}),
                        {"edge": "reproduced", "firm": "differs"})
    table.to_csv(tmp_path / "stability.csv", index=False)
    (tmp_path / "stability.json").write_text('{"k": 5, "runs": ["G", "F"], "skipped": ["dense"]}')
    text, shaky = summary.predicted_agreement(tmp_path)
    assert text == ("Pseudo-runs of 5 processes drawn 4 times from G, F: 1 of 2 claims give this run's verdict in every "
                    "draw; 1 do not, the least stable `edge` (reproduced) in 3 of 4 (left out, their measurement "
                    "differs between the pooled runs: dense).")
    assert list(shaky.claim) == ["edge"] and list(shaky.draws_giving_it) == ["3 of 4"]


def test_satellites_form_their_own_pool_and_join_every_draw(tmp_path):
    """A run's processes from the profile's ``processes`` on are satellites: pooled apart, and each draw
    of k main processes gets s distinct satellites after them."""
    def load(d):
        return pd.DataFrame({"process": range(7), "value": range(7)}), {"profile": "paper"}   # paper: 5 main
    main = S.pool([tmp_path / "r"], load=load)
    sats = S.pool([tmp_path / "r"], load=load, satellites=True)
    assert [lab for lab, _ in main] == [f"r:{i}" for i in range(5)] and [lab for lab, _ in sats] == ["r:5", "r:6"]
    picks = S.with_satellites(S.draws(main, 3, 4), [lab for lab, _ in sats], 2)
    assert all(len(p) == 5 and set(p[3:]) == {"r:5", "r:6"} and not set(p[:3]) & {"r:5", "r:6"} for p in picks)
    with pytest.raises(ValueError, match="3 satellites a draw from a pool of 2"):
        S.with_satellites(picks, ["r:5", "r:6"], 3)
