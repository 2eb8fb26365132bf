"""Every outcome of every verdict rule, and the statistics behind them."""
import numpy as np
import pytest

from apsp_kernels.study.method import order_rules, rules


# ----------------------------------------------------------------- range / value
def test_range_reproduced_at_two_thirds_of_sizes():
    pts = [(1024, 55, 50, 60), (2048, 60, 58, 62), (4096, 200, 190, 210)]
    assert rules.range_rule(pts, [48, 52], 1.25)[0] == "reproduced"


def test_range_edge_overlap_is_not_enough():
    # the old rule's failure: min-max over sizes touching the band (41x..177x vs 45-100x)
    pts = [(1024, 41, 35, 44), (2048, 110, 100, 130), (3072, 177, 160, 190)]
    v, why = rules.range_rule(pts, [45, 100], 1.0)
    assert v == "differs in magnitude" and "larger" in why and "smaller" in why


def test_range_interval_straddling_the_band_is_inconclusive():
    assert rules.range_rule([(1024, 60, 40, 80)], [48, 52], 1.25)[0] == "inconclusive"
    # one size inside, two across an edge: either verdict could hold
    pts = [(1024, 50, 49, 51), (2048, 60, 50, 70), (4096, 64, 60, 70)]
    assert rules.range_rule(pts, [48, 52], 1.25)[0] == "inconclusive"
    # two sizes clearly above: reproduced is impossible whatever the third does
    pts = [(1024, 50, 40, 80), (2048, 200, 190, 210), (4096, 300, 290, 310)]
    assert rules.range_rule(pts, [48, 52], 1.25)[0] == "differs in magnitude"


def test_range_larger_says_by_how_much():
    v, why = rules.range_rule([(1024, 500, 480, 520)], [48, 52], 1.25)
    assert v == "differs in magnitude" and "9.62x larger" in why


def test_range_opposite_direction_is_not_reproduced():
    pts = [(1024, 0.5, 0.4, 0.6), (2048, 0.8, 0.7, 0.9), (4096, 1.5, 1.4, 1.6)]
    assert rules.range_rule(pts, [3.9, 94.4], 1.25)[0] == "not reproduced"


def test_range_nothing_matched_is_not_testable():
    assert rules.range_rule([], [5, 6], 1.25)[0] == "not testable"
    assert rules.range_rule([(1024, float("nan"), 1, 2)], [5, 6], 1.25)[0] == "not testable"


def test_single_value_is_a_degenerate_range():
    assert rules.range_rule([(1024, 2400, 2300, 2600)], [2500, 2500], 1.25)[0] == "reproduced"
    assert rules.range_rule([(1024, 276, 270, 280)], [2500, 2500], 1.25)[0] == "differs in magnitude"


# ----------------------------------------------------------------- range over the paper's grid
GRID = list(range(1024, 8193, 1024))        # a paper's sizes, every 1024 vertices: 8 sizes


def test_grid_places_brackets_between_timed_sizes_and_leaves_the_rest_unknown():
    pts = [(2048, 5, 4, 6), (4096, 7, 6.5, 8), (6144, 20, 18, 22)]
    places = {n: pl for n, pl, *_ in rules.grid_places(pts, GRID, 1.6, 10)}
    assert places == {1024: "untimed", 2048: "inside", 3072: "inside",      # between two insides: [4, 8]
                      4096: "inside", 5120: "edge",                          # between inside and above: [6.5, 22]
                      6144: "above", 7168: "untimed", 8192: "untimed"}


def test_range_over_a_grid_counts_the_papers_sizes_not_ours():
    # timed at 4 sizes, 3 of them inside: 3/4 of ours would be 'reproduced', but between and
    # beyond them Kemp's grid is mostly above the band
    pts = [(1024, 3, 2.5, 3.5), (2048, 4, 3.5, 4.5), (3072, 5, 4.5, 5.5), (8192, 30, 28, 32)]
    assert rules.range_rule(pts, [2, 8], 1.25)[0] == "reproduced"
    v, why = rules.range_rule(pts, [2, 8], 1.25, grid=GRID)
    assert v == "inconclusive" and "of the paper's 8 sizes" in why     # 4096..7168 between inside and above
    pts += [(5120, 25, 23, 27)]
    v, why = rules.range_rule(pts, [2, 8], 1.25, grid=GRID)
    assert v == "differs in magnitude" and "larger" in why and "above at 4" in why


def test_range_over_a_grid_outcomes():
    inside = [(n, 5, 4, 6) for n in (1024, 4096, 8192)]
    v, why = rules.range_rule(inside, [2, 8], 1.25, grid=GRID)
    assert v == "reproduced" and "3 timed, 5 between" in why
    # untimed sizes beyond ours could be anything: with 6 of 8 not timed, nothing is decided
    v, why = rules.range_rule([(1024, 30, 28, 32), (2048, 30, 28, 32)], [2, 8], 1.25, grid=GRID)
    assert v == "inconclusive" and "not timed at 6 (n = 3072..8192" in why
    # the same two sizes with the whole grid above: differs
    v, why = rules.range_rule([(1024, 30, 28, 32), (8192, 30, 28, 32)], [2, 8], 1.25, grid=GRID)
    assert v == "differs in magnitude" and "3.75x larger" in why
    # below 1 over most of the grid: the opposite direction
    v, why = rules.range_rule([(1024, 0.5, 0.4, 0.6), (8192, 0.7, 0.6, 0.8)], [2, 8], 1.25, grid=GRID)
    assert v == "not reproduced" and "below 1 at 8 of 8" in why
    assert rules.range_rule([], [2, 8], 1.25, grid=GRID)[0] == "not testable"


def test_range_grid_with_no_timed_size_on_it_judges_the_matched_sizes():
    # matched_sizes' fallback (the nearest sizes within 12.5%) puts no point on the grid
    assert rules.range_rule([(1000, 5, 4, 6)], [2, 8], 1.25, grid=GRID)[0] == "reproduced"


# ----------------------------------------------------------------- averages
def test_average_outcomes():
    assert rules.aggregate_rule(80, 70, 90, [76, 76], 1.25)[0] == "reproduced"
    v, why = rules.aggregate_rule(133, 120, 150, [76, 76], 1.25)
    assert v == "differs in magnitude" and "larger" in why
    assert rules.aggregate_rule(0.5, 0.4, 0.6, [27, 27], 1.25)[0] == "not reproduced"
    assert rules.aggregate_rule(float("nan"), float("nan"), float("nan"), [27, 27], 1.25)[0] == "not testable"
    assert rules.aggregate_rule(39.2, 37.3, 42.7, [32, 32], 1.25)[0] == "inconclusive"      # across the edge 40
    v, why = rules.aggregate_rule(80.0, float("nan"), float("nan"), [76, 76], 1.25)            # one run: no interval
    assert v == "inconclusive" and "single run" in why


def test_average_given_as_a_bracket():
    """An average over graphs partly timed (quantities.average): the reason quotes the bracket, never
    its middle, and measures a difference from the interval's near end; an open upper end can only
    give 'differs' by being larger, or 'inconclusive'."""
    inf = float("inf")
    v, why = rules.aggregate_rule(180, 125, 277, [129, 129], 1.25, value_text="between 150 and 217")
    assert v == "inconclusive" and "between 150 and 217 [125, 277]" in why and "180" not in why
    v, why = rules.aggregate_rule(1065, 794, 1496, [154, 154], 1.25, value_text="between 961 and 1180")
    assert v == "differs in magnitude" and "at least 5.16x larger" in why
    v, why = rules.aggregate_rule(312, 278, inf, [76, 76], 1.25, value_text="at least 312")
    assert v == "differs in magnitude" and "unbounded" in why and "at least 3.66x larger" in why
    assert rules.aggregate_rule(0.35, 0.33, inf, [7.5, 7.5], 1.25, value_text="at least 0.35")[0] == "inconclusive"
    v, why = rules.aggregate_rule(0.2, 0.1, 0.3, [7.5, 7.5], 1.25, value_text="between 0.15 and 0.25")
    assert v == "not reproduced"
    v, why = rules.aggregate_rule(2.0, 1.5, 3.0, [7.5, 7.5], 1.25, value_text="between 1.6 and 2.5")
    assert v == "differs in magnitude" and "at least 2.5x smaller" in why
    assert rules.aggregate_rule(7.0, 6.5, 8.0, [7.5, 7.5], 1.25, value_text="between 6.8 and 7.2")[0] == "reproduced"


# ----------------------------------------------------------------- trends
def test_trend_outcomes():
    assert rules.trend_rule(0.5, 0.3, 0.7, 5)[0] == "reproduced"
    assert rules.trend_rule(-0.5, -0.7, -0.3, 5)[0] == "not reproduced"
    v, why = rules.trend_rule(0.05, -0.1, 0.2, 5)
    assert v == "inconclusive" and "noise" in why
    assert rules.trend_rule(0.5, 0.3, 0.7, 3)[0] == "not testable"
    assert rules.trend_rule(-0.5, -0.7, -0.3, 5, claimed_sign=-1)[0] == "reproduced"


def test_trend_with_points_outcomes():
    up = ("reproduced", "grows")
    pts = [(1024, 2.1, 2.0, 2.2, 2), (2048, 7.5, 7, 8, 7), (19456, 400, 380, 420, 377)]
    assert rules.trend_with_points_rule(up, pts, None, 1.25)[0] == "reproduced"
    far = [(1024, 2.1, 2.0, 2.2, 2), (2048, 30, 28, 32, 7), (19456, 2000, 1900, 2100, 377)]
    assert rules.trend_with_points_rule(up, far, None, 1.25)[0] == "differs in magnitude"
    edge = [(1024, 1.4, 1.2, 1.9, 2), (2048, 5, 4, 6, 7), (19456, 400, 380, 420, 377)]
    assert rules.trend_with_points_rule(up, edge, None, 1.25)[0] == "inconclusive"
    assert rules.trend_with_points_rule(("not reproduced", "opposite"), pts, None, 1.25)[0] == "not reproduced"
    assert rules.trend_with_points_rule(up, [], None, 1.25)[0] == "not testable"


# ----------------------------------------------------------------- crossovers, break-even
def test_crossover_outcomes():
    assert rules.crossover_rule(9000, [10000, 10000], 2, (1024, 21504), ci=(8000, 11000))[0] == "reproduced"
    v, why = rules.crossover_rule(3000, [10000, 10000], 2, (1024, 21504), ci=(2800, 3200))
    assert v == "differs in magnitude" and "smaller" in why
    assert rules.crossover_rule(None, [6000, 7000], 2, (1024, 16384))[0] == "not reproduced"
    assert rules.crossover_rule(None, [6000, 7000], 2, (1024, 12288))[0] == "not testable"     # cap below the window
    assert rules.crossover_rule(0, [100, 100], 2, (16, 2048))[0] == "differs in magnitude"
    assert rules.crossover_rule(0, [100, 100], 2, (64, 2048))[0] == "not testable"
    # a claim about the advantage below the crossing (zero-copy 'up to about a thousand nodes'):
    # crossed before the smallest size means that advantage never shows
    v, why = rules.crossover_rule(0, [1000, 1000], 2, (16, 2048), advantage="below")
    assert v == "not reproduced" and "no measured size" in why
    assert rules.crossover_rule(0, [1000, 1000], 2, (800, 2048), advantage="below")[0] == "not testable"
    v, why = rules.crossover_rule(None, [1000, 1000], 2, (16, 4096), advantage="below")    # advantage everywhere
    assert v == "differs in magnitude" and "holds at every measured size" in why
    assert rules.crossover_rule(None, [1000, 1000], 2, (16, 1024), advantage="below")[0] == "not testable"
    assert rules.crossover_rule(900, [1000, 1000], 2, (16, 2048), ci=(700, 1200), advantage="below")[0] == "reproduced"
    assert rules.crossover_rule(None, [100, 100], 2, None)[0] == "not testable"
    assert rules.crossover_rule(190, [100, 100], 2, (16, 2048), ci=(150, 260))[0] == "inconclusive"


def test_crossover_interval_with_censored_ends():
    # an interval end among censored bootstrap draws: 0 = at or below the smallest size, inf = beyond the largest
    v, why = rules.crossover_rule(60, [500, 500], 2, (10, 1800), ci=(0.0, 131))
    assert v == "differs in magnitude" and "[<= 10, 131]" in why
    v, why = rules.crossover_rule(13000, [6144, 7168], 2, (1024, 16384), ci=(12600, float("inf")))
    assert v == "inconclusive" and "[12600, > 16384]" in why        # unbounded above: across the band's top
    assert rules.crossover_rule(300, [100, 100], 2, (16, 2048), ci=(0.0, 400))[0] == "inconclusive"


def test_crossover_inside_only_through_the_tolerance_says_so():
    v, why = rules.crossover_rule(13515, [6144, 7168], 2, (1024, 16384), ci=(12653, 14267))
    assert v == "reproduced" and "widened by the tolerance 2" in why and "lies above the claimed window" in why
    v, why = rules.crossover_rule(13515, [6144, 7168], 2, (1024, 16384), ci=(12653, 14267),
                                  tolerance_set="set 22 Nov after the quick sweep")
    assert "tolerance 2, set 22 Nov after the quick sweep;" in why and "before measuring" not in why
    v, why = rules.crossover_rule(6500, [6144, 7168], 2, (1024, 16384), ci=(6200, 7000))
    assert v == "reproduced" and "widened" not in why


def test_parity_claim_has_no_direction():
    # a claimed 1x (two timing methods agree): below 1 is a magnitude, not the opposite direction
    v, why = rules.range_rule([(10, 0.5, 0.45, 0.55), (20, 0.6, 0.55, 0.65)], [1, 1], 1.25)
    assert v == "differs in magnitude" and "smaller" in why
    assert rules.range_rule([(10, 0.97, 0.95, 0.99), (20, 1.0, 0.98, 1.02)], [1, 1], 1.25)[0] == "reproduced"
    assert rules.aggregate_rule(0.5, 0.45, 0.55, [1, 1], 1.25)[0] == "differs in magnitude"
    # a claimed speed-up above 1 keeps its direction
    assert rules.aggregate_rule(0.5, 0.45, 0.55, [1.5, 1.5], 1.25)[0] == "not reproduced"


# ----------------------------------------------------------------- power laws (log-log slopes)
def test_slope_outcomes():
    assert rules.slope_rule(-0.95, -1.05, -0.85, 9, -1, 1.25)[0] == "reproduced"
    v, why = rules.slope_rule(-0.6, -0.65, -0.55, 9, -1, 1.25)
    assert v == "differs in magnitude" and "1.67x less steep" in why
    v, why = rules.slope_rule(-2.0, -2.1, -1.9, 9, -1, 1.25)
    assert v == "differs in magnitude" and "2x steeper" in why
    v, why = rules.slope_rule(0.02, -0.05, 0.09, 9, -1, 1.25)
    assert v == "differs in magnitude" and "distinguishable from 0" in why
    assert rules.slope_rule(0.3, 0.2, 0.4, 9, -1, 1.25)[0] == "not reproduced"             # time rises with cores
    assert rules.slope_rule(-0.8, -0.9, -0.7, 9, -1, 1.25)[0] == "inconclusive"            # across the edge -0.8
    assert rules.slope_rule(-0.9, float("nan"), float("nan"), 9, -1, 1.25)[0] == "inconclusive"
    assert rules.slope_rule(-1.0, -1.1, -0.9, 3, -1, 1.25)[0] == "not testable"
    assert rules.slope_rule(1.0, 0.9, 1.1, 5, 1, 1.25)[0] == "reproduced"                  # a positive exponent
    assert rules.slope_rule(-1.0, -1.1, -0.9, 5, 1, 1.25)[0] == "not reproduced"


# ----------------------------------------------------------------- occurrences (races)
def test_occurrence_outcomes():
    # 'can happen' (the wrong answer without __syncthreads())
    assert order_rules.occurrence_rule(105, 105, True, hazards=164)[0] == "reproduced"
    assert order_rules.occurrence_rule(0, 105, True, hazards=164)[0] == "inconclusive"
    assert order_rules.occurrence_rule(0, 105, True)[0] == "inconclusive"
    v, why = order_rules.occurrence_rule(0, 105, True, hazards=0)
    assert v == "not reproduced" and "never happened in 105 runs" in why
    # 'cannot happen' (block order changes nothing)
    assert order_rules.occurrence_rule(0, 4000, False)[0] == "reproduced"
    assert order_rules.occurrence_rule(0, 4000, False, hazards=0)[0] == "reproduced"
    assert order_rules.occurrence_rule(2, 4000, False)[0] == "not reproduced"
    assert order_rules.occurrence_rule(0, 4000, False, hazards=3)[0] == "inconclusive"
    assert order_rules.occurrence_rule(0, 0, True)[0] == "not testable"


# ----------------------------------------------------------------- orderings
def test_ordering_outcomes():
    assert order_rules.ordering_rule([(1024, 2, 1.8, 2.2), (2048, 3, 2.5, 3.5)])[0] == "reproduced"
    assert order_rules.ordering_rule([(1024, 0.5, 0.4, 0.6), (2048, 0.7, 0.6, 0.8)])[0] == "not reproduced"
    assert order_rules.ordering_rule([(1024, 1.0, 0.9, 1.1)])[0] == "inconclusive"
    assert order_rules.ordering_rule([(1024, 0.5, 0.4, 0.6), (2048, 2, 1.8, 2.2), (4096, 1.0, 0.9, 1.1)])[0] == "inconclusive"
    assert order_rules.ordering_rule([])[0] == "not testable"


def test_exists_outcomes():
    """Seed 001's 'can be even worse than CPU': somewhere, not everywhere."""
    v, why = order_rules.exists_rule([(82168, 0.5, 0.4, 0.6), (1694616, 1.5, 1.3, 1.7)])
    assert v == "reproduced" and "n = 1694616" in why
    assert order_rules.exists_rule([(82168, 0.5, 0.4, 0.6), (1694616, 0.7, 0.6, 0.8)])[0] == "not reproduced"
    assert order_rules.exists_rule([(82168, 0.5, 0.4, 0.6), (1694616, 1.0, 0.9, 1.1)])[0] == "inconclusive"
    assert order_rules.exists_rule([(82168, float("nan"), 1, 2)])[0] == "not testable"
    assert order_rules.exists_rule([])[0] == "not testable"


# ----------------------------------------------------------------- statistics
def test_crossover_counts_only_up_to_the_claims_last_size():
    # Kemp counts Harish overtaking Tran 'at every larger n where both ran (up to 11,264)': a crossing
    # at 13,100 (Tran also timed at 16,384 here) is no crossing, though the widened window reaches 14,336
    assert rules.crossover_rule(13100, [6144, 7168], 2, (1024, 16384), ci=(12203, 13844))[0] == "reproduced"
    v, why = rules.crossover_rule(13100, [6144, 7168], 2, (1024, 16384), ci=(12203, 13844), up_to=11264)
    assert v == "not reproduced" and "no crossing up to n = 11264" in why and "13100 [12203, 13844]" in why
    assert rules.crossover_rule(None, [9216, 10240], 2, (1024, 21504), up_to=17408)[0] == "not reproduced"
    # inside the cut window: as without up_to; an interval reaching past the cut: across its edge
    assert rules.crossover_rule(7000, [6144, 7168], 2, (1024, 16384), ci=(6500, 7500), up_to=11264)[0] == "reproduced"
    assert rules.crossover_rule(10000, [6144, 7168], 2, (1024, 16384), ci=(9000, 12000), up_to=11264)[0] == "inconclusive"
    # our sizes stop short of the cut: nothing decided
    assert rules.crossover_rule(None, [6144, 7168], 2, (1024, 8192), up_to=11264)[0] == "not testable"
    # a crossing beyond the cut whose interval reaches below it: the point estimate alone does not decide
    v, why = rules.crossover_rule(12000, [6144, 7168], 2, (1024, 16384), ci=(10500, 13000), up_to=11264)
    assert v == "inconclusive" and "its interval reaches below it" in why


# ----------------------------------------------------------------- what a verdict rests on (study.basis)
def test_basis_of_each_outcome():
    from apsp_kernels.study.method import basis as B
    speedup = dict(kind="value", tolerance=1.25, claimed=[32, 32])
    # reproduced and the rule at tolerance 1 agrees (or straddles the band): measured
    assert B.basis_of(speedup, "reproduced", "reproduced") == "measured"
    assert B.basis_of(speedup, "reproduced", "inconclusive") == "measured"
    # reproduced only because the band was widened: harish_time_growth 38.2 [36.9, 39.6] against 32
    v1 = rules.aggregate_rule(38.2, 36.9, 39.6, [32, 32], 1.0)[0]
    assert rules.aggregate_rule(38.2, 36.9, 39.6, [32, 32], 1.25)[0] == "reproduced" and v1 == "differs in magnitude"
    assert B.basis_of(speedup, "reproduced", v1) == "within tolerance only"
    # where the rule cannot be re-applied: the interval against the claimed band
    assert B.basis_of(speedup, "reproduced", ci=(36.9, 39.6), claimed=(32, 32)) == "within tolerance only"
    assert B.basis_of(speedup, "reproduced", ci=(30, 39.6), claimed=(32, 32)) == "measured"
    # a verdict other than reproduced rests on the measurement
    assert B.basis_of(speedup, "differs in magnitude", "differs in magnitude") == "measured"
    assert B.basis_of(dict(kind="ordering", tolerance=None), "reproduced") == "measured"
    # computed from the footprint, a bound, not testable
    assert B.basis_of(dict(kind="limit", tolerance=2), "reproduced", "differs in magnitude") == "computed"
    assert B.basis_of(dict(kind="value", bound="at_least", tolerance=1.25), "reproduced") == "bound"
    assert B.basis_of(dict(kind="value", basis="computed"), "differs in magnitude") == "computed"
    assert B.basis_of(dict(kind="limit"), "not testable") == "-"


def test_basis_counts_and_headline():
    import pandas as pd
    from apsp_kernels.study.method import basis as B
    t = pd.DataFrame(dict(verdict=["reproduced", "reproduced", "reproduced", "inconclusive", "not testable"],
                          basis=["measured", "within tolerance only", "computed", "measured", "-"]))
    x = B.counts(t)
    assert x.loc["reproduced"].tolist() == [1, 1, 1, 0] and x.loc["not testable", "-"] == 1
    assert B.headline(t) == ("3 reproduced (1 measured, 1 within tolerance only, 1 computed), 1 inconclusive, "
                             "1 not testable")


def test_points_rule_judges_each_setting_against_its_own_claimed_value():
    seed = [("bs 8", 2900, 2800, 3000, 2991), ("bs 16", 1000, 950, 1050, 995), ("bs 32", 120, 110, 130, 118)]
    assert rules.points_rule(seed, 2)[0] == "reproduced"
    # one number, 1000x, for all: the seed's own values would fail at two of three
    assert rules.range_rule([p[:4] for p in seed], [1000, 1000], 2)[0] == "differs in magnitude"
    v, why = rules.points_rule([(p[0], p[1] * 3, p[2] * 3, p[3] * 3, p[4]) for p in seed], 2)
    assert v == "differs in magnitude" and "larger than the seed's value" in why
    assert rules.points_rule([("bs 8", 2900, 1000, 9000, 2991)] * 3, 2)[0] == "inconclusive"
    assert rules.points_rule([("bs 8", float("nan"), 1, 2, 5)], 2)[0] == "not testable"
