"""Malformed input gives one line: 'error: FILE[, line N]: what was wrong', exit code != 0, no traceback."""
import gzip

import numpy as np
import pytest

from apsp_kernels.__main__ import main

GR = "p sp 3 2\n"
CASES = [  # (id, file name, content, extra CLI args, expected line or None, words the message must hold)
    ("binary", "g.gr", bytes(range(128, 256)), [], 1, "not a text"),
    ("binary-later", "g.txt", b"1 2\n2 3\n\xff\xfe\n", [], 3, "not a text"),
    ("truncated-gz", "g.gr.gz", gzip.compress(b"p sp 2 1\na 1 2 3\n")[:15], [], None, "truncated gzip"),
    ("not-gzip", "g.txt.gz", b"1 2\n", [], None, "gzip"),
    ("weight-23-digits", "g.gr", GR + "a 1 2 99999999999999999999999\na 2 3 1\n", [], 2, "MAX_PATH_WEIGHT"),
    ("weight-2^31", "g.gr", GR + "a 1 2 2147483648\na 2 3 1\n", [], 2, "needs int64"),
    ("vertex-out-of-range", "g.gr", GR + "a 1 5 1\na 2 3 1\n", [], 2, "out of range"),
    ("vertex-zero", "g.gr", GR + "a 0 1 1\na 2 3 1\n", [], 2, "out of range"),
    ("no-p-line", "g.gr", "c only comments\n", [], None, "'p sp n m'"),
    ("arc-before-p", "g.gr", "a 1 2 3\n" + GR, [], 1, "before"),
    ("second-p", "g.gr", GR + GR, [], 2, "second"),
    ("wrong-header", "g.gr", "p xx 3 2\n", [], 1, "p sp"),
    ("wrong-arc-count", "g.gr", "p sp 3 3\na 1 2 1\na 2 3 1\n", [], None, "header says 3"),
    ("weight-not-integer", "g.gr", GR + "a 1 2 x\na 2 3 1\n", [], 2, "not an integer"),
    ("unknown-line", "g.gr", GR + "q 1 2 3\n", [], 2, "unknown line"),
    ("negative-cycle", "g.gr", "p sp 3 2\na 2 3 -5\na 3 2 1\n", [], None, "negative cycle through vertex"),
    ("path-past-inf", "g.gr", "p sp 3 2\na 1 2 1000000000\na 2 3 1\n", [], None, "MAX_PATH_WEIGHT"),
    ("hochberg-no-end", "g.txt", "a b 1\nb c 2\n", ["--format", "hochberg"], None, "--END--"),
    ("hochberg-after-end", "g.txt", "a b 1\n--END--\nb c 2\n", [], 3, "after"),
    ("hochberg-fields", "g.txt", "a b 1 7\n--END--\n", [], 1, "fields"),
    ("hochberg-length", "g.txt", "a b x\n--END--\n", [], 1, "not an integer"),
    ("snap-empty", "g.txt", "", [], None, "no edges"),
    ("snap-only-comments", "g.snap", "# FromNodeId ToNodeId\n", [], None, "no edges"),
    ("snap-id", "g.snap", "1 2\nx 3\n", [], 2, "not an integer"),
    ("snap-weight-column", "g.snap", "1 2\n", ["--weight-column", "2"], 1, "fields"),
    ("mtx-integer-4.5", "g.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 4.5\n", [], 3, "not an integer"),
    ("mtx-out-of-range", "g.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n3 1 4\n", [], 3, "outside"),
    ("mtx-no-header", "g.mtx", "2 2 1\n1 2 4\n", [], 1, "MatrixMarket"),
    ("mtx-overflow", "g.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 99999999999999999999\n", [], 3, "more than int64"),
    ("npz-not-a-graph", "g.npz", None, [], None, "holds ['a']"),
    ("npz-objects", "g.npz", None, [], None, "never loaded"),
    ("npz-garbage", "g.npz", b"PK\x03\x04 not really a zip", [], None, "not a readable .npz"),
    ("unknown-suffix", "g.xyz", "1 2\n", [], None, "--format"),
    ("unknown-format", "g.gr", GR, ["--format", "bogus"], None, "unknown format"),
    ("bad-variant", "g.gr", "p sp 2 1\na 1 2 3\n", ["--algorithm", "katz_kider", "--variant", "abc"], None, "variant"),
]


def _write(path, content, case_id):
    if case_id == "npz-not-a-graph":
        np.savez(path, a=np.arange(3))
    elif case_id == "npz-objects":
        np.savez(path, n=np.array([{"x": 1}], dtype=object), indptr=np.zeros(2), indices=np.zeros(0), weights=np.zeros(0))
    else:
        path.write_bytes(content if isinstance(content, bytes) else content.encode())


@pytest.mark.parametrize("case_id,name,content,args,line,words", CASES, ids=[c[0] for c in CASES])
def test_malformed_input_gives_one_line(tmp_path, capsys, case_id, name, content, args, line, words):
    path = tmp_path / name
    _write(path, content, case_id)
    rc = main(["solve", str(path), "--no-verify", *args])
    out, err = capsys.readouterr()
    assert rc != 0 and "Traceback" not in err + out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    if case_id != "bad-variant":
        assert str(path) in lines[0]
    if line is not None:
        assert f", line {line}:" in lines[0], lines[0]
    assert words in lines[0], lines[0]


def test_directory_and_missing_file(tmp_path, capsys):
    for target, words in ((tmp_path, "is a directory"), (tmp_path / "none.gr", "no such file")):
        assert main(["solve", str(target)]) != 0
        err = capsys.readouterr().err.strip()
        assert err.startswith(f"error: {target}") and words in err and len(err.splitlines()) == 1


def test_debug_keeps_the_traceback(tmp_path):
    path = tmp_path / "g.gr"
    path.write_text("p sp 2 1\na 1 2 x\n")
    from apsp_kernels.io.formats import GraphFormatError
    with pytest.raises(GraphFormatError):
        main(["solve", str(path), "--debug"])
