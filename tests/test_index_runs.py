"""The index's 'Which runs the numbers come from': each study's batch named, red only where one study's reports
draw on more than one run; a render of recorded runs says that nothing was measured now (a new reader read
'profile smoke' above recorded paper runs as a smoke test)."""
from apsp_kernels.study.report import runner

SOURCES = {"01_tran_fw": "data/results/A-paper-campaign", "02_katz_kider": "data/results/A-paper-campaign",
           "08_hochberg": "data/results/B-hochberg"}


def _fake(monkeypatch, sources, measured_now=False):
    monkeypatch.setattr(runner, "_source", lambda name: dict(run=sources[name], measured_now=measured_now)
                        if name in sources else None)
    return [dict(name=n, profile="smoke") for n in sources]


def test_each_study_names_its_batch_and_only_a_mixed_study_is_red(monkeypatch):
    text = runner._mixed_sources_html(_fake(monkeypatch, SOURCES))
    assert "A-paper-campaign" in text and "B-hochberg" in text and 'class="failed"' not in text
    mixed = runner._mixed_sources_html(_fake(monkeypatch, {**SOURCES, "02_katz_kider": "data/results/C-paper-campaign"}))
    assert 'class="failed"' in mixed and "draws on 2 different runs" in mixed


def test_a_render_of_recorded_runs_says_nothing_was_measured_now(monkeypatch):
    assert "nothing measured now" in runner._provenance_label(_fake(monkeypatch, SOURCES))
    assert runner._provenance_label(_fake(monkeypatch, SOURCES, measured_now=True)) == "profile <b>smoke</b>"


def test_the_index_has_a_line_on_the_solver_from_the_recorded_suite():
    from apsp_kernels.study.report import findings_index as FI
    from apsp_kernels.study.seeds.tuned import suite as SU
    rows, auto = SU.load()
    line = FI.solver_html()
    if not len(rows):
        assert line == ""
        return
    assert line.startswith("<p class=\"solver\"><b>The solver.</b>") and "11_tuned.html" in line and "speed-up over" in line


def test_study_names_in_the_runs_line_carry_no_issue_numbers(monkeypatch):
    text = runner._mixed_sources_html(_fake(monkeypatch, {"11_tuned": "data/results/benchmarks/x.csv"}))
    assert "The tuned line&#x27;s targets:" in text and "issue" not in text


def test_a_render_of_recorded_runs_names_their_profiles_not_the_renders(monkeypatch):
    profiles = {"01_tran_fw": "paper", "02_katz_kider": "paper", "08_hochberg": "hochberg"}
    monkeypatch.setattr(runner, "_source", lambda name: dict(run=SOURCES[name], measured_now=False,
                                                             profile=profiles[name]) if name in SOURCES else None)
    said = runner._provenance_label([dict(name=n, profile="smoke") for n in SOURCES])
    assert "measured under profile paper, hochberg" in said and "smoke" not in said


def test_rows_of_one_notebook_from_different_runs_each_name_their_own():
    import pandas as pd
    same = pd.DataFrame(dict(claim=["a", "b"], device=["H100", "H100"], results=["r1", "r1"]))
    assert runner._row_sources(same) is None                  # the notebook's one source says it
    mixed = pd.DataFrame(dict(claim=["a", "b"], device=["NVIDIA H100", "2 x NVIDIA H200"], results=["r1", "r2 .. r3"]))
    cells = runner._row_sources(mixed)
    assert "NVIDIA H100" in cells[0] and "r1" in cells[0] and "2 x NVIDIA H200" in cells[1] and "r2 .. r3" in cells[1]
