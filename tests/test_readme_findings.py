"""The README's findings block is computed from the reference verdict table (the table the reports render from
the recorded batches): it fails here when a tally in the README disagrees with that table."""
import re

import pandas as pd

from apsp_kernels.study.method import claims as claims_mod
from apsp_kernels.study.report import readme_findings as RF
from apsp_kernels.study.show import signed

TABLE = RF.reference_table()
README = RF.README.read_text()


def test_the_readme_holds_the_block_the_table_gives():
    assert TABLE is not None and TABLE.exists()
    got = RF.current(README)
    assert got is not None, "README.md has no findings markers"
    assert got == RF.block(), ("README.md's findings block is not the one computed from "
                               f"{TABLE}: run python -m apsp_kernels.study.report.readme_findings")


def test_the_readmes_numbers_are_the_tables():
    v = pd.read_csv(TABLE)
    block = RF.current(README)
    assert f"**{len(v)} claims**" in block
    for word, n in signed.counts(v).items():                     # every verdict, 'differs' split by direction
        plural = {"differs: larger than claimed": "differ: larger than claimed",
                  "differs: smaller than claimed": "differ: smaller than claimed"}.get(word, word) if n != 1 else word
        assert re.search(rf"\b{n} {re.escape(plural)}\b", block), (word, n)
    rep = v[v["verdict"] == "reproduced"]
    for basis in ("within tolerance only", "computed"):
        n = int((rep["basis"] == basis).sum())
        assert f"{n} {'only within the tolerance' if basis != 'computed' else 'computed'}" in block, basis
    assert "reports/findings.html" in block and "differs in magnitude" not in block


def test_the_block_follows_the_table():
    C = claims_mod.load()
    v = pd.read_csv(TABLE)
    one = RF.lines(v, C)
    i = v.index[v["verdict"] == "reproduced"][0]
    v.loc[i, "verdict"] = "not reproduced"
    two = RF.lines(v, C)
    assert one[0] != two[0] and one[1] != two[1]
    # a shortfall made deeper moves to the front of the fourth line
    cid = "tran_minplus_vs_squaring"
    v.loc[v["claim"] == cid, "ours_value"] = 0.5
    assert "Tran's CUDA min-plus APSP is 2,500x faster" in RF.lines(v, C)[3].split("furthest below the paper: ")[1].split(";")[0]


def test_writing_replaces_only_the_block(tmp_path):
    f = tmp_path / "README.md"
    f.write_text(f"# x\n\n{RF.BEGIN}\nold\n{RF.END}\n\nrest\n")
    assert RF.write(f, new=f"{RF.BEGIN}\nnew\n{RF.END}")
    assert f.read_text() == f"# x\n\n{RF.BEGIN}\nnew\n{RF.END}\n\nrest\n"
