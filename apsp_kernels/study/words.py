"""The verdict words and the claim kinds, defined once: the rules, the verdict rows, the tables and the
index take them from here (docs/method.md says more of each word and kind).

* reproduced           -- at the paper's sizes our interval lies inside the claimed band
                          widened by the tolerance, [lo / tol, hi * tol], at >= 2/3 of the sizes;
* differs in magnitude -- the same direction, and clearly outside the band: whichever way the
                          intervals that straddle its edge fell, fewer than 2/3 of the sizes could
                          be inside (the reason says by what factor and which way);
* not reproduced       -- the ordering, direction or trend is the opposite;
* inconclusive         -- the intervals straddle the band's edge (or 1, or 0 for a trend) so
                          that either verdict could hold: a verdict is only stated when every
                          resolution of the straddling intervals gives it;
* not testable         -- nothing comparable measured (the reason says why).
"""
from __future__ import annotations

REPRODUCED = "reproduced"
DIFFERS = "differs in magnitude"
NOT_REPRODUCED = "not reproduced"
INCONCLUSIVE = "inconclusive"
NOT_TESTABLE = "not testable"
VERDICTS = (REPRODUCED, DIFFERS, NOT_REPRODUCED, INCONCLUSIVE, NOT_TESTABLE)

# how each verdict is shown: its colour in a table, its class on the index page
COLOURS = {REPRODUCED: "#1a7f37", DIFFERS: "#9a6700", NOT_REPRODUCED: "#cf222e", INCONCLUSIVE: "#8250df",
           NOT_TESTABLE: "#57606a"}
CLASSES = {REPRODUCED: "v-reproduced", DIFFERS: "v-differs", NOT_REPRODUCED: "v-not-reproduced",
           INCONCLUSIVE: "v-inconclusive", NOT_TESTABLE: "v-not-testable"}

# a claim's kind: what is measured and which rule decides it (method/verdicts.py's DECIDE)
KINDS = ("range", "value", "average", "limit", "crossover", "break_even", "ordering", "exists", "trend", "occurrence")
