"""The corpus: every malformed or awkward file under tests/data/malformed/ gives its expected
outcome through the command line: an answer equal to scipy's on the edges written in expected.json
(by vertex id, so the ids the output carries are checked too), or exactly one line
``error: FILE[, line N]: ...`` and exit code 1, never a traceback."""
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

from apsp_kernels.__main__ import main
from apsp_kernels.io.results import read_result

CORPUS = Path(__file__).parent / "data" / "malformed"
EXPECTED = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))


def test_the_corpus_is_complete():
    files = {p.name for p in CORPUS.iterdir()} - {"expected.json", "make_corpus.py"}
    assert files == set(EXPECTED) and len(files) >= 100
    assert sum("error" in e for e in EXPECTED.values()) >= 50 and sum("ids" in e for e in EXPECTED.values()) >= 30


def scipy_answer(ids, edges):
    """scipy's distances of exactly the expected edges, vertices in the order of ``ids``."""
    pos = {str(x): i for i, x in enumerate(ids)}
    n = len(ids)
    if not edges:
        return np.where(np.eye(n, dtype=bool), 0.0, np.inf)
    r, c, w = zip(*[(pos[str(u)], pos[str(v)], float(x)) for u, v, x in edges])
    m = sp.csr_matrix((w, (r, c)), shape=(n, n))       # the expected edges hold no duplicates
    return csgraph.shortest_path(m, method="J" if min(w) < 0 else "D")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_file(name, tmp_path, capsys):
    want = EXPECTED[name]
    path = tmp_path / name                                  # a copy: nothing is written beside the corpus
    shutil.copyfile(CORPUS / name, path)
    out = tmp_path / "out.npz"
    rc = main(["solve", str(path), "-o", str(out), "--print-max", "0", *want["args"]])
    stdout, err = capsys.readouterr()
    assert "Traceback" not in stdout + err
    if "error" in want:
        lines = err.strip().splitlines()
        assert rc == 1 and len(lines) == 1, err
        where = f"error: {path}, line {want['line']}: " if want["line"] is not None else f"error: {path}: "
        assert lines[0].startswith(where), lines[0]
        assert want["error"] in lines[0], lines[0]
        assert not out.exists()
        return
    assert rc == 0, err
    assert "verified against scipy" in stdout
    got, ids = read_result(out)
    assert [str(x) for x in ids] == [str(x) for x in want["ids"]]
    assert np.array_equal(got, scipy_answer(want["ids"], want["edges"]))
    warnings = [x for x in err.splitlines() if x.startswith("warning: ")]
    assert len(warnings) == (1 if "warning" in want else 0) and len(err.strip().splitlines()) == len(warnings), err
    if "warning" in want:
        assert want["warning"] in warnings[0] and str(path) in warnings[0]
