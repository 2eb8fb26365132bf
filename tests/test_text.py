"""study.text: the sentences a notebook states about its numbers must say what the table says."""
import numpy as np
import pandas as pd

from apsp_kernels.study.method import text as T


def _sp(rows):
    return pd.DataFrame(rows, columns=["n", "speedup", "ci_lo", "ci_hi"])


def test_wins_names_the_subject_in_every_clause():
    # min-plus faster than FW at every size: speed-ups of FW over min-plus all below 1 (report 01's case,
    # which read "slower at n = ..." with no subject, i.e. min-plus slower)
    s = T.wins(_sp([(1024, 0.48, 0.45, 0.5), (2048, 0.88, 0.85, 0.9)]), "Tran FW", "Tran min-plus")
    assert s == "Tran FW is slower than Tran min-plus at n = 1024, 2048"
    s = T.wins(_sp([(1024, 2.0, 1.8, 2.2), (2048, 1.0, 0.9, 1.1), (4096, 0.5, 0.4, 0.6)]), "A", "B")
    assert s == ("A is faster than B at n = 1024; A is slower than B at n = 4096; "
                 "A and B are indistinguishable at n = 2048")
    assert T.wins(_sp([]), "A", "B") == "A and B were not both measured"


def test_trend_words_follow_the_numbers():
    sp = _sp([(1024, 63.0, 60, 66), (21504, 3.1, 3.0, 3.2)])
    assert "falls from 63x at n = 1024 to 3.1x at n = 21504" in T.trend(sp)
    assert " rises " in T.trend(_sp([(1024, 1.0, 1, 1), (2048, 2.0, 2, 2)]))
    assert "no trend" in T.trend(sp, slope=(-0.1, -0.3, 0.1))


def test_crossing_interval_says_censored_ends():
    assert T.crossing_interval(39, 131, (10, 1800)) == "[39, 131]"
    assert T.crossing_interval(0.0, 131, (10, 1800)) == "[<= 10, 131]"
    assert T.crossing_interval(12653, np.inf, (1024, 16384)) == "[12653, > 16384]"


def test_crossing_text_words_each_outcome_of_a_measured_crossover():
    """One wording for every crossover the study states (verdicts.evaluate and report 08's sentences)."""
    assert T.crossing_text(13100.4, (12203, 13844), (1024, 21504)) == "n = 13100 [12203, 13844]"
    assert T.crossing_text(62, (0.0, 131), (10, 1800)) == "n = 62 [<= 10, 131]"
    assert T.crossing_text(140, None, (16, 4096)) == "n = 140"
    assert T.crossing_text(None, None, (1024, 21504)) == "never, up to n = 21504"
    assert T.crossing_text(0, None, (16, 4096)) == "already crossed at the smallest measured size (n = 16)"
    assert T.crossing_text(None, None, None) == "-"
