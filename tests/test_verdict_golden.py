"""Every recorded batch's verdict table is the one stored in tests/data/verdict-golden/ (written by
scripts/verdict_golden.py): computed through the study registry,
claim, verdict, ours, its interval and the reason are unchanged."""
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("verdict_golden", ROOT / "scripts" / "verdict_golden.py")
G = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(G)

BATCHES = G.batches()
STORED = sorted(p.stem for p in G.GOLDEN.glob("*.csv"))
# the newest batch of each study but the campaign (whose tables take about 20 s each): the quick subset
NEWEST = {name.split("--")[0]: name for name in sorted(BATCHES)}
QUICK = {v for k, v in NEWEST.items() if k != "kemp"}


def test_every_stored_table_has_its_batch_and_every_batch_its_table():
    assert STORED == sorted(BATCHES)


@pytest.mark.parametrize("name", [pytest.param(n, marks=() if n in QUICK else pytest.mark.slow) for n in sorted(BATCHES)])
def test_the_verdict_table_is_the_stored_one(name):
    study, run = BATCHES[name]
    got, want = G.compute(study, run), G.read(name)
    assert list(got.columns) == list(want.columns)
    assert len(got) == len(want), f"{name}: {len(got)} rows, stored {len(want)}"
    for i in range(len(want)):
        assert got.iloc[i].to_dict() == want.iloc[i].to_dict(), f"{name}, row {i}"
