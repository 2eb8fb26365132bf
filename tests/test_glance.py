"""The index's at-a-glance view, built from the recorded reference verdict table into a temporary folder: every
claim whose paper states a number is drawn with the paper's number and ours printed on its row, one direction
holds throughout, the tally splits by direction and basis, and no claim identifier reaches the first screen."""
import re
import shutil

import pandas as pd
import pytest

from apsp_kernels.study import words
from apsp_kernels.study.method import claims as claims_mod
from apsp_kernels.study.report import findings_index as FI
from apsp_kernels.study.report import glance as G
from apsp_kernels.study.report import glance_html as GH
from apsp_kernels.study.report import glance_plot as GP
from apsp_kernels.study.report import readme_findings as RF


@pytest.fixture(scope="module")
def ref():
    return pd.read_csv(RF.reference_table())


@pytest.fixture(scope="module")
def claims():
    return claims_mod.load()


@pytest.fixture(scope="module")
def drawn(ref, claims, tmp_path_factory):
    g = G.rows(ref, claims)
    return g, GP.plot(g, tmp_path_factory.mktemp("glance") / G.GLANCE_PNG)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    d = tmp_path_factory.mktemp("reports")
    shutil.copy(RF.reference_table(), d / "verdicts.csv")
    return FI.findings_html(d, words.CLASSES)


def _with_number(ref):
    return ref[ref["claimed_lo"].map(lambda x: G.num(x) is not None)]


def test_every_claim_with_a_papers_number_is_drawn(ref, claims, drawn):
    g, texts = drawn
    want = _with_number(ref)
    assert len(want) >= 41 and sorted(g["claim"]) == sorted(want["claim"])
    name = G.names(claims)
    assert set(texts) == {name[c] for c in want["claim"]}


def test_each_row_prints_the_papers_number_and_ours(ref, claims, drawn):
    g, texts = drawn
    name = G.names(claims)
    for _, r in _with_number(ref).iterrows():
        text = " ".join(texts[name[r["claim"]]].split())
        assert f"paper {G.paper_text(r, G._unit(r, claims))}" in text, (r["claim"], text)
        if r["verdict"] == "not testable":
            assert "ours not measured" in text
        else:
            assert re.search(r"ours (?:n = |slope )?-?\d", text) or f"ours {r['ours_text']}" in text or \
                   re.search(r"ours (?:at the paper's sizes|per graph):.*paper .* ours \d", text), (r["claim"], text)


def test_claims_the_old_plot_left_out_now_carry_their_numbers(drawn, claims):
    g, texts = drawn
    name = G.names(claims)
    said = lambda cid: " ".join(texts[name[cid]].split())
    assert "94.4x" in said("iitkgp_sssp") and "ours 3.27x" in said("iitkgp_sssp")
    assert "ours slope -0.615 [-0.677, -0.553]" in said("hochberg_time_inverse_to_cores")
    assert "ours already crossed at the smallest measured size (n = 16)" in said("tuwien_zero_copy_best_below")
    assert "ours never, up to n = 21504" in said("harish_overtakes_kk")
    assert "n = 1024: paper 104x" in said("kk_speedup_rises_104_to_153")


def test_right_of_one_means_more_than_claimed_on_every_row(drawn):
    g, _ = drawn
    for _, r in g.iterrows():
        xs = [q[0] for _, q in r["points"] if q]
        if r["verdict"] == G.LARGER:
            assert xs and all(x > 1 for x in xs), r["name"]
        if r["verdict"] == G.SMALLER:
            assert xs and all(x < 1 for x in xs), r["name"]     # a slope of -0.6 against -1 included


def test_names_follow_the_order_of_claims_yaml(claims):
    name = G.names(claims)
    assert list(name.values()) == [f"C{i}" for i in range(1, len(claims) + 1)]
    assert name[next(iter(claims))] == "C1"


def test_no_claim_id_in_the_first_screens_html(page, claims):
    first = FI.first_screen(page)
    assert first != page and 'id="forest"' in first and 'id="orderings"' in first
    ids = [cid for cid in claims if re.search(rf"(?<![\w.]){re.escape(cid)}(?![\w])", first)]
    assert ids == []          # not in the text, nor in attributes or links


def test_the_first_screen_shows_the_numbers_as_text_and_every_other_claim(page, ref, claims):
    first = FI.first_screen(page)
    name = G.names(claims)
    rows = first.split('id="glance-rows"')[1].split("</details>")[0]
    for _, r in _with_number(ref).iterrows():
        assert f'<td class="n">{name[r["claim"]]}</td>' in rows and "paper " in rows
    orderings = first.split('id="orderings"')[1].split("</table>")[0]
    others = ref[~ref["claim"].isin(_with_number(ref)["claim"])]
    assert all(f">{name[c]}</a>" in orderings for c in others["claim"])
    assert "0.739x .. 0.832x" in FI.visible_text(orderings)       # NTHU's 16 against 32, with its numbers


def test_the_tally_splits_by_direction_and_basis(ref, page):
    tally = FI.visible_text(FI.first_screen(page).split('id="tally"')[1].split("</ul>")[0])
    for w in ("differs: larger than claimed", "differs: smaller than claimed", "measured", "within tolerance only",
              "computed, not run"):
        assert w in tally
    assert "differs in magnitude" not in tally
    t = GH.tally_frame(ref)
    shown = G.signed.shown(ref)
    assert t.to_numpy().sum() == len(ref) and t.sum(axis=1).to_dict() == {w: shown.count(w) for w in t.index}
    assert t.loc["reproduced"].to_dict() == ref[ref["verdict"] == "reproduced"]["basis"].fillna("-").value_counts().reindex(
        t.columns, fill_value=0).to_dict()


def test_ours_is_read_from_what_the_row_already_says():
    """Rows without one number of ours: the rule's per-size comparisons, the per-graph pairs, a crossing's bound."""
    trend = {"claimed_lo": 104, "claimed_hi": 153, "ours_value": None,
             "reason": "grows: log-log slope 0.775 [0.503, 1.05] over 7 sizes; n=1024: 202x [158, 259] vs 104x (above)"}
    [p] = G.points(trend)
    assert (p["v"], p["lo"], p["hi"], p["p_lo"], p["at"]) == (202, 158, 259, 104, "n = 1024")
    graphs = {"claimed_lo": 3.9, "claimed_hi": 94.4, "ours_text": "random-2700 (generated as in the seed): 1.51x [-, -] "
              "(the seed: 3.9x); geometric (generated as in the seed): 3.27x [-, -] (the seed: 94.4x)"}
    assert [(p["v"], p["p_lo"], p["lo"]) for p in G.points(graphs)] == [(1.51, 3.9, None), (3.27, 94.4, None)]
    never = {"claimed_lo": 9216, "claimed_hi": 10240, "reason": "no crossing up to n = 17408, the largest size"}
    assert [(p["v"], p["bound"]) for p in G.points(never)] == [(17408, "above")]
    early = {"claimed_lo": 1000, "claimed_hi": 1000, "ours_value": 0.0,
             "reason": "already crossed at the smallest size n = 16, below the window [500, 2000]"}
    assert [(p["v"], p["bound"]) for p in G.points(early)] == [(16, "below")]
    assert G.points({"claimed_lo": 19, "claimed_hi": 19, "reason": "no measurement at the paper's sizes"}) == []
    slope = {"claimed_lo": -1, "claimed_hi": -1, "ours_value": -0.615, "ci_lo": -0.677, "ci_hi": -0.553}
    x, lo, hi, b_lo, b_hi = G._ratio(G.points(slope)[0])
    assert abs(x - 0.615) < 1e-9 and lo < x < hi and b_lo == b_hi == 1     # compared by magnitude: left of 1


def test_every_rows_label_is_distinct_and_keeps_the_claims_number(drawn, claims):
    g, _ = drawn
    label = GP.labels(g)
    assert len(set(label.values())) == len(label) == len(g)
    name = G.names(claims)
    said = lambda cid: " ".join(label[name[cid]].split())
    assert "2,500x" in said("tran_minplus_vs_squaring")          # one line cut it before the number
    for cid in claims:
        if cid in name and name[cid] in label and max(len(x) for x in label[name[cid]].split("\n")) > 45:
            raise AssertionError(label[name[cid]])


def test_a_share_is_shown_in_percent_and_a_vertex_count_as_n(drawn, claims):
    g, texts = drawn
    name = G.names(claims)
    said = lambda cid: " ".join(texts[name[cid]].split())
    assert "paper 1% \u00b7 ours 68.1% [65.2%, 71.1%]" in said("tuwien_compute_share_small")
    assert "paper >= 90% \u00b7 ours 81.5% [79.6%, 83.5%]" in said("tuwien_compute_share_large")
    assert not any(re.search(r"paper (?:>= )?0\.\d+x", t) for t in texts.values())
    for _, r in g[g["unit"] == "vertices"].iterrows():
        assert re.search(r"paper n = \d", texts[r["name"]]), texts[r["name"]]


def test_a_bound_is_printed_as_the_verdict_table_says_it(drawn, claims, ref):
    g, texts = drawn
    name = G.names(claims)
    said = lambda cid: " ".join(texts[name[cid]].split())
    assert "ours n = 66 [<= 10, 107]" in said("hochberg_gpu_vs_cpu_break_even")
    assert "[0, 107]" not in said("hochberg_gpu_vs_cpu_break_even")
    assert "before n = 16" not in said("tuwien_zero_copy_best_below")


def test_no_interval_prints_without_its_width_and_a_missing_one_says_why(drawn, claims):
    g, texts = drawn
    name = G.names(claims)
    said = lambda cid: " ".join(texts[name[cid]].split())
    for t in texts.values():
        t = " ".join(t.split())
        assert "(no CI)" not in t
        for v, lo, hi in re.findall(r"(-?[\d.]+)x? \[(-?[\d.]+)%?, (-?[\d.]+)%?\]", t):
            assert lo != hi and lo != v != hi, t
    assert "ours 1.44x (95% interval within \u00b10.05%)" in said("nthu_branch_vs_select")
    assert "ours 0.784x (95% interval within \u00b10.003%)" in said("nthu_unrolled_32_vs_64")
    assert G.number_text(1.4357, "x", 1.4321, 1.4392) == "1.436x [1.432, 1.439]"     # four where three collapse
    assert "ours 113x (one machine lease: no interval)" in said("iitkgp_blocked_fw")
    assert G.number_text(1.44, "x", 1.43, 1.45) == "1.44x [1.43, 1.45]"      # three digits where they suffice


def test_the_orderings_say_which_way_their_ratio_is_taken(page, claims):
    orderings = FI.visible_text(FI.first_screen(page).split('id="orderings"')[1].split("</table>")[0])
    assert "ratio = kernel time at bs 32 / kernel time at bs 16" in orderings
    assert "> 1 means the claim holds: 16 is faster" in orderings
    assert "range 2.29x at 1 size" in orderings
    assert not re.search(r"over 1 \w+s\b", orderings)
    assert not re.search(r"([\d.]+x) \.\. \1(?![\d.])", orderings)
    assert G.tidy_range("range 1.1x .. 1.1x over 1 steps of degree") == "range 1.1x at 1 step of degree"


def test_the_caption_names_what_lies_below_the_figure(page):
    first = FI.first_screen(page)
    caption = first.split("<figcaption>")[1].split("</figcaption>")[0]
    assert "the table below the plot gives each claim in full" not in caption
    assert "rows as text" in caption and "orderings" in caption
