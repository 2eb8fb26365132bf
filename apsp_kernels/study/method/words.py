"""The verdict words and the claim kinds, defined once: the rules, the verdict rows, the tables and the
index take them from here (docs/method.md says what each word and kind means)."""
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
