"""The index's findings are computed from the verdict rows: each sentence changes when its numbers
change and is left out (None) when a number it needs is missing; the forest plot lists what it cannot draw."""
import pandas as pd

from apsp_kernels.study.method import claims as claims_mod
from apsp_kernels.study.report import findings_text as FT
from apsp_kernels.study.report import forest
from apsp_kernels.study.show import signed

CLAIMS = {
    "a_vs_fw": dict(where="seed 000 (Kemp 2012), Sec. 5.4", kind="range", unit="x", kemp=[49, 53],
                    algorithm="tran_fw", baseline="fw_sequential", in_words="A is 48-52x faster."),
    "b_vs_fw": dict(where="seed 000 (Kemp 2012), Sec. 5.6", kind="range", unit="x", kemp=[104, 153],
                    algorithm="katz_kider", baseline="fw_sequential"),
    "c_order": dict(where="seed 004 (NTHU)", kind="ordering", unit="x", kemp=None, algorithm="nthu_blocked"),
}


def rows(ours_a=169.0, ours_b=673.0, cpu_a="0.98x [0.811, 1.18] over dijkstra_cpu_parallel"):
    return pd.DataFrame([
        dict(claim="a_vs_fw", where=CLAIMS["a_vs_fw"]["where"], claimed="48-52x", claimed_lo=48, claimed_hi=52,
             ours_value=ours_a, ci_lo=ours_a * .9, ci_hi=ours_a * 1.1, verdict="differs in magnitude",
             decided_by="end_to_end", best_cpu=cpu_a, notebook="01_tran_fw", reason="larger"),
        dict(claim="b_vs_fw", where=CLAIMS["b_vs_fw"]["where"], claimed="60-130x", claimed_lo=60, claimed_hi=130,
             ours_value=ours_b, ci_lo=ours_b * .9, ci_hi=ours_b * 1.1, verdict="differs in magnitude",
             decided_by="kernel", best_cpu="2.92x [2.52, 3.38] over dijkstra_cpu_parallel", notebook="02_katz_kider",
             reason="larger"),
        dict(claim="c_order", where=CLAIMS["c_order"]["where"], claimed="-", claimed_lo=None, claimed_hi=None,
             ours_value=None, ci_lo=None, ci_hi=None, verdict="reproduced", decided_by="kernel",
             best_cpu="n/a: two GPU codes compared", notebook="09_nthu", reason="faster"),
    ])


def test_counts_follow_the_verdicts():
    v = rows()
    assert FT.verdict_counts(v) == "Of the 3 claims, 1 reproduced and 2 differ: larger than claimed."
    v.loc[2, "verdict"] = "inconclusive"
    assert "2 differ: larger than claimed and 1 inconclusive" in FT.verdict_counts(v)
    v.loc[0, "ours_value"] = 20.0                           # below the band: the tally signs it the other way
    assert ("1 differs: larger than claimed, 1 differs: smaller than claimed and 1 inconclusive"
            in FT.verdict_counts(v))


def test_basis_sentence_only_where_the_rows_have_a_basis():
    v = rows()
    assert FT.basis_counts(v) is None                       # no basis column: nothing derived
    v["basis"] = ["-", "-", "computed"]
    assert FT.basis_counts(v) == "Of the 1 reproduced, 1 computed (what each verdict rests on)."
    v.loc[2, "basis"] = "within tolerance only"
    assert "1 within tolerance only" in FT.basis_counts(v)


def test_kemp_factor_moves_with_our_numbers():
    one = FT.kemp_factors(rows(), CLAIMS)
    assert "2 differ from the paper's band" in one and "2 of these are larger than claimed" in one and "by 3.2-5.2x" in one and "5.2x)" in one
    two = FT.kemp_factors(rows(ours_b=260.0), CLAIMS)
    assert two != one and "by 2.0-3.2x" in two and "most: Tran CUDA FW" in two
    smaller = FT.kemp_factors(rows(ours_a=24.0), CLAIMS)
    assert "1 smaller than claimed, down to 0.50x" in smaller
    v = rows()
    v.loc[1, "reason"] = "up to 7.5x larger than claimed: inside at 0, above at 5"
    said = FT.kemp_factors(v, CLAIMS)                 # the mean's factor and the single size's, each named
    assert "our mean over sizes against the band's end" in said and "at a single size up to 7.5x" in said


def test_best_cpu_sentence_reads_each_codes_interval():
    s = FT.best_cpu_comparison(rows(), CLAIMS)
    assert "Dijkstra APSP (CPU, all cores)" in s and "Tran CUDA FW 0.98x [0.81, 1.2]" in s and "2.9x [2.5, 3.4]" in s
    s2 = FT.best_cpu_comparison(rows(cpu_a="between 0.271 and 0.336x [0.235, 0.422] over dijkstra_cpu_parallel"), CLAIMS)
    assert "Tran CUDA FW 0.27-0.34x [0.23, 0.42]" in s2


def test_a_sentence_whose_numbers_are_missing_is_not_said():
    v = rows()
    v["ours_value"] = None
    assert FT.kemp_factors(v, CLAIMS) is None
    v["best_cpu"] = "n/a: a trend"
    assert FT.best_cpu_comparison(v, CLAIMS) is None
    assert FT.time_bases(v.drop(columns="decided_by")) is None
    assert FT.verdict_counts(pd.DataFrame()) is None
    said = FT.sentences(v, CLAIMS)
    assert said and not any("Dijkstra" in s for s in said)


def test_forest_draws_the_numeric_claims_and_lists_the_rest(tmp_path):
    drawn, listed = forest.split(rows())
    assert [r["claim"] for r, _ in drawn] == ["a_vs_fw", "b_vs_fw"]
    assert [r["claim"] for r in listed] == ["c_order"]
    r, lo, hi, b_lo, b_hi = drawn[0][1]
    assert b_lo < 1 < b_hi and abs(r - 169 / (48 * 52) ** .5) < 1e-9
    assert forest.plot(rows(), tmp_path / "f.png") and (tmp_path / "f.png").stat().st_size > 1000
    assert "1 claims without a numeric value" in forest.alt_text(rows())


def test_forest_shows_an_interval_that_runs_past_the_axis_or_is_missing(tmp_path):
    """An unbounded end (missing, inf, or at or below 0 on the log axis) or one beyond the axis is drawn to the
    edge with an arrowhead there; a row with neither end has nothing to draw (its dot is labelled instead)."""
    assert forest.reach(None, None, 0.1, 3e3) is None
    assert forest.reach(2.0, None, 0.1, 3e3) == (2.0, 3e3, False, True)
    assert forest.reach(None, 5.0, 0.1, 3e3) == (0.1, 5.0, True, False)
    assert forest.reach(1.0, 1e5, 0.1, 3e3) == (1.0, 3e3, False, True)
    assert forest.reach(1.0, 2.0, 0.1, 3e3) == (1.0, 2.0, False, False)
    assert forest._unbounded_raw({"ci_lo": 1.0, "ci_hi": "inf"}) and forest._unbounded_raw({"ci_lo": 0, "ci_hi": 2})
    assert not forest._unbounded_raw({"ci_lo": None, "ci_hi": None})
    v = rows()
    v.loc[0, ["ci_lo", "ci_hi"]] = None
    v.loc[1, "ci_hi"] = float("inf")
    assert len(forest.plot(v, tmp_path / "f.png")) == 2 and (tmp_path / "f.png").stat().st_size > 1000


def test_a_render_without_notebook_07_draws_from_the_notebooks_own_tables(tmp_path):
    """A notebook's own table names our value ``ours`` (07's verdicts.csv: ``ours_value``): the same rows are drawn."""
    own = rows().rename(columns={"ours_value": "ours"})
    assert [r["claim"] for r, _ in forest.split(own)[0]] == ["a_vs_fw", "b_vs_fw"]
    assert signed.ours_of(own.iloc[0]) == 169.0 and signed.ours_of(rows().iloc[0]) == 169.0


def test_no_claim_with_a_number_draws_no_plot_and_says_so(tmp_path):
    from apsp_kernels.study.report import findings_index as FI, findings_paper
    png = tmp_path / FI.FOREST_PNG
    png.write_bytes(b"stale")
    only_orders = rows().iloc[[2]]
    assert forest.plot(only_orders, png) == [] and not png.exists()
    (tmp_path / "verdicts").mkdir()
    only_orders.to_csv(tmp_path / "verdicts" / "09_nthu.csv", index=False)
    html = FI.findings_html(tmp_path, {})
    assert "no forest plot" in html and 'id="forest"' not in html
    assert "no forest plot" in findings_paper.write(tmp_path).read_text()


def test_forest_rows_are_labelled_with_the_claim_in_words():
    """Each row reads as the claim (claims.yaml's in_words, its closing citation left to the seed's
    heading), wrapped to the label column; a claim without words keeps its identifier."""
    claims = dict(CLAIMS, a_vs_fw=dict(CLAIMS["a_vs_fw"], in_words=(
        "Tran's CUDA Floyd-Warshall is 48-52x faster than the sequential single-core Floyd-Warshall, on every "
        "graph Kemp timed (Tran 2010 as cited by Kemp, Sec. 5.4).")))
    text = forest.label("a_vs_fw", claims)
    assert text.replace("\n", " ").startswith("Tran's CUDA Floyd-Warshall is 48-52x faster") and "Sec. 5.4" not in text
    assert "\n" in text and max(len(line) for line in text.splitlines()) <= forest.LABEL_CHARS
    assert forest.label("b_vs_fw", claims) == "b_vs_fw"
    drawn = forest.split(rows())[0]
    centres, heads, height = forest._layout(drawn, [forest.label(r["claim"], claims) for r, _ in drawn])
    assert [s for _, s in heads] == ["000"] and centres[1] - centres[0] > forest.LINE_IN    # two lines: a taller row


def test_every_claim_says_in_words_what_the_paper_claims():
    for cid, c in claims_mod.load().items():
        words = c.get("in_words", "")
        assert words and words.endswith(".") and "\n" not in words and words != cid, cid
        assert "seed" not in words.lower() or "(" in words, cid


def test_findings_paper_is_written_from_the_rows():
    from apsp_kernels.study.report import findings_paper
    v = rows()
    text = findings_paper.page(v, CLAIMS)
    assert "A is 48-52x faster." in text and "Seed 000" in text and "Seed 004" in text
    assert "7d86f8f" in text and "20261122-200000" in text and "3e82503" in text
    assert "Tran CUDA FW 0.98x [0.81, 1.2]" in text
    v.loc[0, "best_cpu"] = "1.5x [1.2, 1.9] over dijkstra_cpu_parallel"
    assert "Tran CUDA FW 1.5x [1.2, 1.9]" in findings_paper.page(v, CLAIMS)


def test_notebooks_and_templates_name_no_issue_or_target_numbers():
    import json
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    pat = re.compile(r"\b(?:[Ii]ssues? \d+|[Tt]argets? \d)")
    for nb in sorted((root / "notebooks").glob("*.ipynb")):
        for cell in json.loads(nb.read_text())["cells"]:
            src = "".join(cell["source"])
            if cell["cell_type"] == "code":      # what a code cell shows: its string literals
                src = " ".join(re.findall(r"\"[^\"\n]*\"|'[^'\n]*'", src))
            assert not pat.search(src), (nb.name, pat.findall(src))
    for t in (root / "apsp_kernels" / "report_templates").rglob("*"):
        if t.is_file():
            assert not pat.search(t.read_text()), t
