"""'differs in magnitude' is shown with its direction, computed from ours against the paper's band; the stored
verdict word is left as the rules wrote it."""
import pandas as pd

from apsp_kernels.study.show import signed

D = "differs in magnitude"


def row(**kw):
    base = dict(claim="c", verdict=D, claimed_lo=48, claimed_hi=52, ours_value=None, reason="")
    return {**base, **kw}


def test_above_the_band_is_larger_below_is_smaller():
    assert signed.direction(row(ours_value=166.0)) == "larger"
    assert signed.verdict_text(row(ours_value=166.0)) == "differs: larger than claimed"
    assert signed.direction(row(ours_value=3.66)) == "smaller"
    assert signed.verdict_text(row(ours_value=3.66)) == "differs: smaller than claimed"


def test_a_lower_bound_missed_is_smaller_and_beaten_is_larger():
    assert signed.direction(row(claimed_lo=500, claimed_hi="inf", ours_value=125.0)) == "smaller"
    assert signed.direction(row(claimed_lo=20, claimed_hi=float("inf"), ours_value=3.06)) == "smaller"
    assert signed.direction(row(claimed_lo=76, claimed_hi=76, ours_value=322.0)) == "larger"


def test_a_negative_slope_is_compared_by_its_steepness():
    # -0.615 against a claimed -1: time falls less steeply than claimed
    assert signed.direction(row(claimed_lo=-1, claimed_hi=-1, ours_value=-0.615)) == "smaller"
    assert signed.direction(row(claimed_lo=-1, claimed_hi=-1, ours_value=-1.6)) == "larger"


def test_without_a_number_the_reason_decides_or_nothing_is_said():
    trend = row(claimed_lo=104, claimed_hi=153, reason="grows: log-log slope 0.775; n=1024: 202x [158, 259] vs 104x (above)")
    assert signed.direction(trend) == "larger"
    assert signed.direction(row(claimed_lo=None, claimed_hi=None, reason="down to 7.69x smaller: inside at 0")) == "smaller"
    # no number and no word for a direction: the unsigned word stays
    bare = row(claimed_lo=None, claimed_hi=None, reason="inside at 0, above at 3, below at 2 of 5 sizes")
    assert signed.direction(bare) is None and signed.verdict_text(bare) == D
    both = row(claimed_lo=None, claimed_hi=None, reason="up to 3x larger than claimed at small n, 2x smaller at large n")
    assert signed.direction(both) is None


def test_other_verdicts_are_shown_as_stored_and_the_tally_splits_differs():
    v = pd.DataFrame([row(ours_value=166.0), row(ours_value=1.0), row(verdict="reproduced", ours_value=50.0),
                      row(verdict="not testable", claimed_lo=None, claimed_hi=None)])
    assert signed.direction(v.iloc[2].to_dict()) is None
    assert signed.shown(v) == ["differs: larger than claimed", "differs: smaller than claimed", "reproduced", "not testable"]
    assert signed.counts(v) == {"reproduced": 1, "differs: larger than claimed": 1, "differs: smaller than claimed": 1,
                                "not testable": 1}
    assert list(v["verdict"]) == [D, D, "reproduced", "not testable"]          # the table itself is untouched
    assert signed.css_class("differs: smaller than claimed") == signed.css_class(D) != ""


def test_a_notebooks_own_table_names_our_value_ours():
    assert signed.direction(dict(verdict=D, claimed_lo=1000, claimed_hi=1000, ours=2176.4)) == "larger"


def test_a_reports_verdict_table_shows_the_signed_word_in_the_differs_colour():
    from apsp_kernels.study.show import tables
    t = pd.DataFrame(dict(claim=["a", "b"], verdict=[D, "reproduced"], reason=["up to 5x larger than claimed", "inside"]))
    page = tables.show(t).to_html()
    assert "differs: larger than claimed" in page and D not in page
    assert tables.VERDICT_COLOURS[D] in page and list(t["verdict"]) == [D, "reproduced"]
    # a table that cannot say which way (no reason, no number) keeps the stored word
    assert D in tables.show(t.drop(columns="reason")).to_html()
