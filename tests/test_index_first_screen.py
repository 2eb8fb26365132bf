"""No claim identifier on the index's reader-facing text: the findings block (its first screen), the table of every
claim and the findings paper name claims in words; identifiers stay in attributes only.  Built into a temporary
folder from the reference verdict table; nothing is written into reports/."""
import re
import shutil

import pandas as pd
import pytest

from apsp_kernels.study.method import claims as claims_mod
from apsp_kernels.study.report import findings_index as FI
from apsp_kernels.study.report import findings_paper as FP
from apsp_kernels.study.report import readme_findings as RF
from apsp_kernels.study import words


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    d = tmp_path_factory.mktemp("reports")
    shutil.copy(RF.reference_table(), d / "verdicts.csv")
    return d, FI.findings_html(d, words.CLASSES)


def _ids_in(text):
    C = claims_mod.load()
    return sorted(cid for cid in C if re.search(rf"(?<![\w.]){re.escape(cid)}(?![\w])", text))


def test_the_first_screen_shows_no_claim_id(built):
    _, page = built
    first = FI.first_screen(page)
    assert first != page and "forest" in first
    assert _ids_in(FI.visible_text(first)) == []
    assert "kemp_" not in FI.visible_text(first)


def test_the_table_of_every_claim_names_claims_in_words_and_keeps_ids_in_attributes(built):
    _, page = built
    table = page.split("<h2>Every claim</h2>")[1]
    rows = re.findall(r'<tr class="claim-row" data-claim="([^"]+)"', table)
    assert len(rows) == len(pd.read_csv(RF.reference_table()))
    assert _ids_in(FI.visible_text(re.sub(r'<td class="(?:ours|why)">.*?</td>', "", table, flags=re.S))) == []
    assert "report 02" in FI.visible_text(table)


def test_the_tally_on_the_first_screen_is_signed(built):
    _, page = built
    first = FI.visible_text(FI.first_screen(page))
    assert "differ: larger than claimed" in first and "differ: smaller than claimed" in first
    assert "differ in magnitude" not in first
    table = page.split("<h2>Every claim</h2>")[1]
    assert re.search(r'<td class="verdict[^"]*">differs: (larger|smaller) than claimed<br>', table)
    assert not re.search(r'<td class="verdict[^"]*">differs in magnitude<', table)


def test_the_findings_paper_signs_every_differs(built):
    d, _ = built
    v = pd.read_csv(d / "verdicts.csv")
    page = FP.page(v, forest_src=False)
    text = FI.visible_text(page)
    assert "differs: larger than claimed" in text and "differs: smaller than claimed" in text
    # the verdict cells and the tallies; a rule's reason may quote the stored word of another reading
    assert "<td>differs in magnitude " not in page and "differ in magnitude" not in text


def test_the_whole_index_links_the_findings_paper_first_and_shows_no_claim_id_above_the_table(tmp_path, monkeypatch):
    from apsp_kernels.study.report import runner
    shutil.copy(RF.reference_table(), tmp_path / "verdicts.csv")
    monkeypatch.setattr(runner, "REPORTS", tmp_path)
    runner.write_index([])
    index = (tmp_path / "index.html").read_text()
    first = FI.first_screen(index)
    assert first.index('href="findings.html"') < first.index('id="forest"')
    assert _ids_in(FI.visible_text(first)) == []
