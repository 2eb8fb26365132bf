"""The replication report (ReScience C's shape), written from the recorded reference verdict table into a
temporary folder: it has every section and one row per claim, its table's numbers are the verdict table's, the
findings paper links it, and its PDF prints (skipped, with the reason, where Playwright or Chromium is absent)."""
import html
import os
import re

import pytest

from apsp_kernels.study.method import claims as claims_mod
from apsp_kernels.study.report import compare, findings_paper, pdf, replication
from apsp_kernels.study.show import signed

SECTIONS = ("title", "abstract", "scope", "method", "environment", "results", "correctness", "discussion", "threats",
            "easy-hard", "references")


@pytest.fixture(scope="module")
def ref():
    v = compare.reference_rows()
    if v is None:
        pytest.skip("no recorded reference verdict table")
    return v


@pytest.fixture(scope="module")
def page(ref, tmp_path_factory):
    out = tmp_path_factory.mktemp("replication")
    written = replication.write(out, ref)
    assert written == [out / replication.HTML]
    return written[0].read_text(encoding="utf-8")


def _cells(text, cid):
    row = re.search(rf'<tr class="claim-row" data-claim="{re.escape(cid)}">(.*?)</tr>', text, re.S)
    assert row, cid
    return {k: html.unescape(v) for k, v in re.findall(r'<td class="(\w+)">(.*?)</td>', row.group(1), re.S)}


def test_every_section_and_every_claim(page, ref):
    for s in SECTIONS:
        assert f'id="{s}"' in page, s
    claims = claims_mod.load()
    assert page.count('<tr class="claim-row"') == len(ref) == len(claims)
    first, last = list(claims)[0], list(claims)[-1]
    assert f'data-claim="{first}"><b>C1</b>' in page and f'data-claim="{last}"><b>C{len(claims)}</b>' in page
    assert "<title>[Re] " in page and "Conclusion." in page


def test_the_table_numbers_are_the_verdict_tables(page, ref):
    for r in ref.to_dict("records"):
        cells = _cells(page, r["claim"])
        ours = "" if r.get("ours_text") != r.get("ours_text") else str(r["ours_text"]).strip()
        assert cells["ours"] == (ours if ours not in ("", "-", "nan") else "-"), r["claim"]
        assert cells["verdict"] == signed.verdict_text(r), r["claim"]
        basis = str(r.get("basis")).strip()
        assert cells["basis"] == (basis if basis not in ("", "nan") else "-"), r["claim"]


def test_environment_correctness_and_discussion_come_from_the_records(page, ref):
    from apsp_kernels.study.report import correctness
    fail = correctness.failures(correctness.batch_dirs(ref))
    iit = correctness.of(fail, "harish_sssp", "original")
    assert iit is not None and f"<td>{iit['wrong']} / {iit['runs']}</td>" in page
    assert "580.159.04" in page and "14.2.0" in page            # the provenance's driver and CuPy, not typed here
    assert 'id="seed-001"' in page and "returned wrong distances" in page
    assert compare.REFERENCE_BATCH in page


def test_the_findings_paper_links_the_report_and_keeps_the_tally_behind_a_disclosure(ref, tmp_path):
    replication.write(tmp_path, ref)
    text = findings_paper.write(tmp_path, ref).read_text(encoding="utf-8")
    assert '<a href="replication.html">replication.html</a>' in text and "replication.pdf" not in text
    assert '<details class="tally"><summary>how the rule decided</summary>' in text
    assert "across an edge at" not in text.split("<h3>What was claimed")[0].split("<h3>Why they differ</h3>")[-1] \
        .split("<details")[0]


def test_the_entry_point_writes_html_only_into_the_folder_it_is_given(tmp_path):
    assert replication.main(["--out", str(tmp_path), "--no-pdf"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [replication.HTML]


@pytest.mark.slow
def test_the_pdf_renders(ref, tmp_path):
    why = pdf.missing()
    if why:
        if os.environ.get("APSP_REQUIRE_BROWSER"):
            pytest.fail(f"browser test required here but {why}")
        pytest.skip(why)
    written = replication.write(tmp_path, ref, pdf=True)
    out = tmp_path / replication.PDF
    assert written[-1] == out and out.read_bytes()[:5] == b"%PDF-"
    assert len(re.findall(rb"/Type\s*/Page[^s]", out.read_bytes())) > 1
    assert "replication.pdf" in findings_paper.write(tmp_path, ref).read_text(encoding="utf-8")


def test_the_conclusion_draws_its_inference_only_where_the_numbers_bear_it():
    import pandas as pd
    from apsp_kernels.study.report import correctness
    row = dict(claim="a", verdict="differs in magnitude", ours_value=166.0, claimed_lo=48, claimed_hi=52,
               best_cpu="1x [0.84, 1.19] over dijkstra_cpu_parallel")
    why = pd.DataFrame(dict(claim=["a"], kinds=["one_thread hardware_gen"]))
    fails = pd.DataFrame(columns=[*correctness.COLUMNS, "published"])
    said = replication.conclusion(pd.DataFrame([row]), why, fails)
    assert said.startswith("Of the 1 claim measured against a one-thread CPU code, 1 came out larger")
    assert "run 1.0-1.0x as fast, so the papers' speed-ups measure their baselines" in said
    row["best_cpu"] = "60x [50, 70] over dijkstra_cpu_parallel"           # above the claimed band: no such inference
    assert "so the papers'" not in replication.conclusion(pd.DataFrame([row]), why, fails)
