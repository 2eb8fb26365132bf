"""Writes the corpus of malformed and awkward graph files and ``expected.json``.

Each case is a file, the CLI arguments it is solved with, and its expected outcome, written here by
hand and independently of the readers:
* ``{"ids": [...], "edges": [[u, v, w], ...]}``: the answer must equal scipy's shortest paths of
  exactly these edges (by vertex id, so the ids the output carries are checked too); ``warning``:
  words a warning line must hold;
* ``{"error": words, "line": N or null}``: one line ``error: FILE[, line N]: ...`` holding ``words``.

Run from anywhere: ``python tests/data/malformed/make_corpus.py`` (rewrites the files)."""
import gzip
import io
import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent
CASES = {}
MAX = 2**29 - 1                       # MAX_PATH_WEIGHT


def gz(data):
    return gzip.compress(data, mtime=0)          # no time stamp: the corpus is the same on every run


def ok(name, data, ids, edges, args=(), warning=None):
    CASES[name] = dict(data=data, args=list(args), expect=dict(ids=list(ids), edges=[list(e) for e in edges],
                                                                 **({"warning": warning} if warning else {})))


def err(name, data, words, line=None, args=()):
    CASES[name] = dict(data=data, args=list(args), expect=dict(error=words, line=line))


# ------------------------------------------------------------------ DIMACS .gr
P = "p sp 3 2\n"
ok("gr-basic.gr", P + "a 1 2 5\na 2 3 1\n", [1, 2, 3], [(1, 2, 5), (2, 3, 1)])
ok("gr-leading-zeros.gr", P + "a 01 002 5\na 2 03 1\n", [1, 2, 3], [(1, 2, 5), (2, 3, 1)])
ok("gr-plus-sign.gr", P + "a 1 2 +5\na 2 3 1\n", [1, 2, 3], [(1, 2, 5), (2, 3, 1)])
ok("gr-crlf.gr", (P + "a 1 2 5\na 2 3 1\n").replace("\n", "\r\n"), [1, 2, 3], [(1, 2, 5), (2, 3, 1)])
ok("gr-parallel-arcs.gr", "p sp 3 3\na 1 2 5\na 1 2 3\na 2 3 1\n", [1, 2, 3], [(1, 2, 3), (2, 3, 1)])
ok("gr-self-loop.gr", "p sp 3 3\na 1 1 5\na 1 2 3\na 2 3 1\n", [1, 2, 3], [(1, 2, 3), (2, 3, 1)])
ok("gr-negative-no-cycle.gr", "p sp 3 3\na 1 2 5\na 2 3 -4\na 3 2 6\n", [1, 2, 3], [(1, 2, 5), (2, 3, -4), (3, 2, 6)])
ok("gr-zero-weight.gr", P + "a 1 2 0\na 2 3 0\n", [1, 2, 3], [(1, 2, 0), (2, 3, 0)])
ok("gr-isolated.gr", "p sp 5 1\na 4 2 7\n", [1, 2, 3, 4, 5], [(4, 2, 7)])
ok("gr-weight-1.0.gr", P + "a 1 2 1.0\na 2 3 2e1\n", [1, 2, 3], [(1, 2, 1), (2, 3, 20)])
ok("gr-1000-vertices-one-heavy-edge.gr", "p sp 1000 1\na 1 2 1000000\n", range(1, 1001), [(1, 2, 10**6)])
ok("gr-max-weight-one-edge.gr", f"p sp 2 1\na 1 2 {MAX}\n", [1, 2], [(1, 2, MAX)])
ok("gr-comments-blank-lines.gr", "c hello\n\np sp 3 2\nc mid\n\na 1 2 5\n\na 2 3 1\nc end\n", [1, 2, 3],
   [(1, 2, 5), (2, 3, 1)])
ok("gr-gzip.gr.gz", gz((P + "a 1 2 5\na 2 3 1\n").encode()), [1, 2, 3], [(1, 2, 5), (2, 3, 1)])
ok("gr-bom.gr", "\ufeff" + P + "a 1 2 5\na 2 3 1\n", [1, 2, 3], [(1, 2, 5), (2, 3, 1)])
ok("gr-tabs.gr", "p\tsp\t3\t2\na\t1\t2\t5\na 2 3 1\n", [1, 2, 3], [(1, 2, 5), (2, 3, 1)])
ok("gr-no-final-newline.gr", P + "a 1 2 5\na 2 3 1", [1, 2, 3], [(1, 2, 5), (2, 3, 1)])
ok("gr-format-flag.dat", P + "a 1 2 5\na 2 3 1\n", [1, 2, 3], [(1, 2, 5), (2, 3, 1)], args=["--format", "dimacs"])
ok("gr-empty-graph.gr", "p sp 0 0\n", [], [])
for name, w, words in [("1e20", "1e20", "MAX_PATH_WEIGHT"), ("2^63", str(2**63), "more than int64"),
                       ("uint64-max", str(2**64 - 1), "more than int64"), ("2^31", str(2**31), "needs int64"),
                       ("max-plus-1", str(MAX + 1), "MAX_PATH_WEIGHT"), ("minus-2^31", str(-2**31), "MAX_PATH_WEIGHT"),
                       ("4.5", "4.5", "not an integer"), ("nan", "nan", "not finite"), ("inf", "inf", "not finite"),
                       ("-inf", "-Infinity", "not finite"), ("x", "x", "not an integer"),
                       ("arabic-digit", "\u0663", "not an integer"), ("underscore", "1_000", "not an integer"),
                       ("hex", "0x10", "not an integer"), ("1e-3", "1e-3", "not an integer")]:
    err(f"gr-weight-{name}.gr", P + f"a 1 2 {w}\na 2 3 1\n", words, 2)
err("gr-weight-100000-digits.gr", P + "a 1 2 1" + "0" * 100000 + "\na 2 3 1\n", "(100001 characters)", 2)
err("gr-tail-superscript.gr", P + "a \u00b2 2 1\na 2 3 1\n", "not an integer", 2)
err("gr-head-float.gr", P + "a 1 2.0 1\na 2 3 1\n", "not an integer", 2)
err("gr-vertex-zero.gr", P + "a 0 1 1\na 2 3 1\n", "out of range", 2)
err("gr-vertex-too-big.gr", P + "a 1 4 1\na 2 3 1\n", "out of range", 2)
err("gr-vertex-negative.gr", P + "a -1 2 1\na 2 3 1\n", "out of range", 2)
err("gr-no-p-line.gr", "c only comments\n", "'p sp n m'")
err("gr-empty.gr", "", "'p sp n m'")
err("gr-arc-before-p.gr", "a 1 2 3\n" + P, "before", 1)
err("gr-second-p.gr", P + P, "second", 2)
err("gr-p-max.gr", "p max 3 2\n", "p sp", 1)
err("gr-p-three-tokens.gr", "p sp 3\n", "p sp", 1)
err("gr-p-n-not-integer.gr", "p sp x 2\n", "vertex count", 1)
err("gr-p-n-huge.gr", "p sp 99999999999 1\na 1 2 1\n", "vertex count", 1)
err("gr-p-m-negative.gr", "p sp 3 -2\n", "arc count", 1)
err("gr-arc-three-tokens.gr", P + "a 1 2\n", "expected 'a <u> <v> <w>'", 2)
err("gr-arc-five-tokens.gr", P + "a 1 2 3 4\n", "expected 'a <u> <v> <w>'", 2)
err("gr-unknown-line.gr", P + "q 1 2 3\n", "unknown line type", 2)
err("gr-fewer-arcs.gr", "p sp 3 3\na 1 2 1\na 2 3 1\n", "header says 3 arcs")
err("gr-more-arcs.gr", "p sp 3 1\na 1 2 1\na 2 3 1\n", "header says 1 arcs")
err("gr-binary.gr", bytes(range(128, 256)), "not a text", 1)
err("gr-latin1-later.gr", P.encode() + b"a 1 2 5\nc caf\xe9\na 2 3 1\n", "not a text", 3)
err("gr-truncated-gzip.gr.gz", gz((P + "a 1 2 5\na 2 3 1\n").encode())[:15], "gzip")
err("gr-negative-cycle.gr", "p sp 3 2\na 2 3 -5\na 3 2 1\n", "negative cycle through vertex")
err("gr-path-past-int32.gr", "p sp 3 2\na 1 2 300000000\na 2 3 300000000\n", "needs int64")
err("gr-huge-n-memory.gr", "p sp 1000000 1\na 1 2 1\n", "host memory")
err("gr-undirected-flag.gr", P + "a 1 2 5\na 2 3 1\n", "SNAP edge lists only", args=["--undirected"])
err("gr-weight-column-flag.gr", P + "a 1 2 5\na 2 3 1\n", "SNAP edge lists only", args=["--weight-column", "2"])
err("gr-dijkstra-negative.gr", "p sp 2 1\na 1 2 -1\n", "--algorithm auto", args=["--algorithm", "dijkstra_cpu"])

# -------------------------------------------------------------------- SNAP
ok("snap-first-seen-order.txt", "2 0\n0 1\n", [0, 1, 2], [(2, 0, 1), (0, 1, 1)])
ok("snap-leading-zero.txt", "1 2\n01 3\n", [1, 2, 3], [(1, 2, 1), (1, 3, 1)])
ok("snap-sparse-ids.txt", "100 7\n7 5000\n", [7, 100, 5000], [(100, 7, 1), (7, 5000, 1)])
ok("snap-comments.txt", "# Directed graph\n# FromNodeId\tToNodeId\n\n0 1\n# mid\n1 2\n", [0, 1, 2], [(0, 1, 1), (1, 2, 1)])
ok("snap-tabs.snap", "0\t1\n1\t2\n", [0, 1, 2], [(0, 1, 1), (1, 2, 1)])
ok("snap-commas.csv", "0,1\n1,2\n", [0, 1, 2], [(0, 1, 1), (1, 2, 1)])
ok("snap-tsv.tsv", "5\t6\n", [5, 6], [(5, 6, 1)])
ok("snap-edges.edges", "3 4\n4 3\n", [3, 4], [(3, 4, 1), (4, 3, 1)])
ok("snap-weight-column.txt", "0 1 5\n1 2 7\n0 2 100\n", [0, 1, 2], [(0, 1, 5), (1, 2, 7), (0, 2, 100)],
   args=["--weight-column", "2"])
ok("snap-weight-column-3.csv", "0,1,9,5\n1,2,9,7\n", [0, 1, 2], [(0, 1, 5), (1, 2, 7)], args=["--weight-column", "3"])
ok("snap-unweighted.csv", "0,1,10,1234\n1,2,-5,1235\n", [0, 1, 2], [(0, 1, 1), (1, 2, 1)], args=["--unweighted"])
ok("snap-undirected.txt", "0 1\n1 2\n", [0, 1, 2], [(0, 1, 1), (1, 0, 1), (1, 2, 1), (2, 1, 1)], args=["--undirected"])
ok("snap-gzip.txt.gz", gz(b"0 1\n1 2\n"), [0, 1, 2], [(0, 1, 1), (1, 2, 1)])
ok("snap-plain-gz.gz", gz(b"10 11\n"), [10, 11], [(10, 11, 1)])
ok("snap-crlf.txt", "0 1\r\n1 2\r\n", [0, 1, 2], [(0, 1, 1), (1, 2, 1)])
ok("snap-bom.txt", "\ufeff0 1\n1 2\n", [0, 1, 2], [(0, 1, 1), (1, 2, 1)])
ok("snap-big-ids.txt", f"{2**62} 0\n", [0, 2**62], [(2**62, 0, 1)])
ok("snap-self-loop-only.txt", "7 7\n", [7], [])
ok("snap-duplicate-lines.txt", "0 1\n0 1\n", [0, 1], [(0, 1, 1)])
err("snap-third-column.txt", "0 1 5\n1 2 7\n0 2 100\n", "--weight-column 2", 1)
err("snap-weight-column-0.txt", "0 1 5\n", "2 or more", args=["--weight-column", "0"])
err("snap-weight-column-minus-1.txt", "0 1 5\n", "2 or more", args=["--weight-column", "-1"])
err("snap-weight-column-minus-9.txt", "0 1 5\n", "2 or more", args=["--weight-column", "-9"])
err("snap-weight-column-missing.txt", "0 1 5\n1 2\n", "at least 3 fields", 2, args=["--weight-column", "2"])
err("snap-weight-and-unweighted.txt", "0 1 5\n", "exclude", args=["--weight-column", "2", "--unweighted"])
err("snap-negative-id.txt", "-1 2\n", "not an integer", 1)
err("snap-superscript-id.txt", "0 1\n\u00b2 1\n", "not an integer", 2)
err("snap-arabic-digit-id.txt", "\u0663 1\n", "not an integer", 1)
err("snap-underscore-id.txt", "1_0 2\n", "not an integer", 1)
err("snap-float-id.txt", "1.0 2\n", "not an integer", 1)
err("snap-id-2^63.txt", f"{2**63} 1\n", "2**63-1", 1)
err("snap-id-5000-digits.txt", "1" * 5000 + " 2\n", "[...]", 1)
err("snap-one-field.txt", "0 1\n5\n", "at least 2 fields", 2)
err("snap-empty.txt", "", "no edges")
err("snap-only-comments.snap", "# FromNodeId ToNodeId\n", "no edges")
err("snap-weight-1e20.txt", "0 1 1e20\n", "MAX_PATH_WEIGHT", 1, args=["--weight-column", "2"])
err("snap-weight-1.5.txt", "0 1 2\n1 2 1.5\n", "not an integer", 2, args=["--weight-column", "2"])
err("snap-weight-nan.txt", "0 1 nan\n", "not finite", 1, args=["--weight-column", "2"])
err("snap-weight-word.txt", "0 1 heavy\n", "not an integer", 1, args=["--weight-column", "2"])
err("snap-binary.txt", b"0 1\n\xff\xfe\x00\n", "not a text", 2)
err("snap-names-without-end.txt", "a b 3\nb c 4\n", "--END--", 1)
err("snap-unknown-suffix.xyz", "0 1\n", "--format")
err("snap-unknown-format.txt", "0 1\n", "unknown format", args=["--format", "bogus"])
err("snap-bfs-algorithm.txt", "0 1\n", "--algorithm bfs_cpu", args=["--algorithm", "bfs_cpu"])

# ------------------------------------------------------------- Hochberg text
ok("hb-basic.txt", "alpha beta 3\nbeta gamma 4\n--END--\n", ["alpha", "beta", "gamma"], [("alpha", "beta", 3), ("beta", "gamma", 4)])
ok("hb-bom.txt", "\ufeffa b 3\nb c 4\n--END--\n", ["a", "b", "c"], [("a", "b", 3), ("b", "c", 4)])
ok("hb-crlf.txt", "a b 3\r\nb c 4\r\n--END--\r\n", ["a", "b", "c"], [("a", "b", 3), ("b", "c", 4)])
ok("hb-blank-lines.txt", "\na b 3\n\nb c 4\n--END--\n\n\n", ["a", "b", "c"], [("a", "b", 3), ("b", "c", 4)])
ok("hb-numeric-names.txt", "01 1 5\n1 2 1\n--END--\n", ["01", "1", "2"], [("01", "1", 5), ("1", "2", 1)])
ok("hb-unicode-names.txt", "Zürich Genève 3\n--END--\n", ["Zürich", "Genève"], [("Zürich", "Genève", 3)])
ok("hb-format-flag.dat", "a b 3\n--END--\n", ["a", "b"], [("a", "b", 3)], args=["--format", "hochberg"])
ok("hb-negative.txt", "a b -3\nb c 4\n--END--\n", ["a", "b", "c"], [("a", "b", -3), ("b", "c", 4)])
ok("hb-parallel.txt", "a b 3\na b 2\n--END--\n", ["a", "b"], [("a", "b", 2)])
err("hb-hash-name.txt", "a b 3\n#a c 5\n--END--\n", "starts with '#'", 2)
err("hb-lowercase-end.txt", "a b 3\n--end--\n", "upper case", 2)
err("hb-missing-end.txt", "a b 1\nb c 2\n", "--END--", args=["--format", "hochberg"])
err("hb-after-end.txt", "a b 1\n--END--\nb c 2\n", "after", 3)
err("hb-two-fields.txt", "a b 3\na b\n--END--\n", "expected 'V W length'", 2)
err("hb-four-fields.txt", "a b 1 7\n--END--\n", "fields", 1)
err("hb-length-4.5.txt", "a b 4.5\n--END--\n", "not an integer", 1)
err("hb-length-1e20.txt", "a b 1e20\n--END--\n", "MAX_PATH_WEIGHT", 1)
err("hb-length-word.txt", "a b x\n--END--\n", "not an integer", 1)
err("hb-undirected-flag.txt", "a b 3\n--END--\n", "Hochberg", args=["--undirected"])
err("hb-negative-cycle.txt", "a b -3\nb a 1\n--END--\n", "negative cycle through vertex")

# ------------------------------------------------------------ MatrixMarket
H = "%%MatrixMarket matrix coordinate integer general\n"
ok("mtx-integer.mtx", H + "3 3 2\n1 2 5\n2 3 1\n", [1, 2, 3], [(1, 2, 5), (2, 3, 1)])
ok("mtx-real-integral.mtx", H.replace("integer", "real") + "3 3 2\n1 2 5.0\n2 3 1e0\n", [1, 2, 3], [(1, 2, 5), (2, 3, 1)])
ok("mtx-pattern.mtx", H.replace("integer", "pattern") + "3 3 2\n1 2\n2 3\n", [1, 2, 3], [(1, 2, 1), (2, 3, 1)])
ok("mtx-symmetric.mtx", H.replace("general", "symmetric") + "3 3 2\n2 1 5\n3 2 1\n", [1, 2, 3],
   [(2, 1, 5), (1, 2, 5), (3, 2, 1), (2, 3, 1)])
ok("mtx-skew-symmetric.mtx", H.replace("general", "skew-symmetric") + "2 2 1\n2 1 5\n", [1, 2], [(2, 1, 5), (1, 2, -5)])
ok("mtx-array.mtx", "%%MatrixMarket matrix array integer general\n2 2\n0\n4\n3\n0\n", [1, 2], [(2, 1, 4), (1, 2, 3)])
ok("mtx-array-symmetric.mtx", "%%MatrixMarket matrix array real symmetric\n2 2\n0\n4\n0\n", [1, 2], [(2, 1, 4), (1, 2, 4)])
ok("mtx-duplicates.mtx", H + "2 2 3\n1 2 5\n1 2 3\n2 1 1\n", [1, 2], [(1, 2, 3), (2, 1, 1)], warning="duplicate entr")
ok("mtx-explicit-zero.mtx", H + "2 2 1\n1 2 0\n", [1, 2], [(1, 2, 0)])
ok("mtx-comments-uppercase.mtx", "%%MatrixMarket MATRIX Coordinate INTEGER General\n% a comment\n%\n3 3 1\n% mid\n1 3 2\n",
   [1, 2, 3], [(1, 3, 2)])
ok("mtx-diagonal-ignored.mtx", H + "2 2 2\n1 1 9\n1 2 4\n", [1, 2], [(1, 2, 4)])
err("mtx-no-header.mtx", "2 2 1\n1 2 4\n", "MatrixMarket", 1)
err("mtx-complex.mtx", "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 4 0\n", "field", 1)
err("mtx-hermitian.mtx", "%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n1 2 4\n", "symmetry", 1)
err("mtx-short-header.mtx", "%%MatrixMarket matrix coordinate\n2 2 1\n1 2 4\n", "expected '%%MatrixMarket", 1)
err("mtx-size-one-token.mtx", H + "2\n1 2 4\n", "size line", 2)
err("mtx-size-not-square.mtx", H + "2 3 1\n1 2 4\n", "square", 2)
err("mtx-entry-one-token.mtx", H + "2 2 1\n1\n", "expected 3 fields", 3)
err("mtx-integer-4.5.mtx", H + "2 2 1\n1 2 4.5\n", "not an integer", 3)
err("mtx-real-1e20.mtx", H.replace("integer", "real") + "2 2 1\n1 2 1e20\n", "MAX_PATH_WEIGHT", 3)
err("mtx-entry-outside.mtx", H + "2 2 1\n3 1 4\n", "outside", 3)
err("mtx-entry-zero-index.mtx", H + "2 2 1\n0 1 4\n", "outside", 3)
err("mtx-count-mismatch.mtx", H + "2 2 2\n1 2 4\n", "says 2 entries")
err("mtx-array-1e20.mtx", "%%MatrixMarket matrix array real general\n2 2\n0\n1e20\n3\n0\n", "MAX_PATH_WEIGHT", 4)
err("mtx-array-nan.mtx", "%%MatrixMarket matrix array real general\n2 2\n0\nnan\n3\n0\n", "not finite", 4)
err("mtx-array-short.mtx", "%%MatrixMarket matrix array integer general\n2 2\n0\n1\n", "has 4 values")
err("mtx-array-two-a-line.mtx", "%%MatrixMarket matrix array integer general\n2 2\n0 1\n3 0\n", "one value a line", 3)
err("mtx-pattern-with-value.mtx", H.replace("integer", "pattern") + "2 2 1\n1 2 4\n", "expected 2 fields", 3)
err("mtx-binary.mtx", b"%%MatrixMarket\xff\xfe", "not a text", 1)
err("mtx-no-size-line.mtx", H + "% only comments\n", "no size line")


# --------------------------------------------------------------------- .npz
def npz(**arrays):
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def graph(**over):
    base = dict(n=np.int64(3), indptr=np.array([0, 1, 2, 2]), indices=np.array([1, 2]), weights=np.array([5, 1]))
    base.update(over)
    return npz(**{k: v for k, v in base.items() if v is not None})


ok("npz-basic.npz", graph(), [0, 1, 2], [(0, 1, 5), (1, 2, 1)])
ok("npz-with-ids.npz", graph(ids=np.array([10, 20, 30])), [10, 20, 30], [(10, 20, 5), (20, 30, 1)])
ok("npz-with-names.npz", graph(ids=np.array(["a", "b", "c"])), ["a", "b", "c"], [("a", "b", 5), ("b", "c", 1)])
ok("npz-float-integral.npz", graph(weights=np.array([5.0, 1.0])), [0, 1, 2], [(0, 1, 5), (1, 2, 1)])
err("npz-weight-1e20.npz", graph(weights=np.array([1e20, 1.0])), "weights[0]")
err("npz-weight-2^63.npz", graph(weights=np.array([2**63, 1], dtype=np.uint64)), "MAX_PATH_WEIGHT")
err("npz-weight-uint64-max.npz", graph(weights=np.array([2**64 - 1, 1], dtype=np.uint64)), "MAX_PATH_WEIGHT")
err("npz-weight-nan.npz", graph(weights=np.array([np.nan, 1.0])), "not finite")
err("npz-weight-1.5.npz", graph(weights=np.array([1.5, 1.0])), "not an integer")
err("npz-weight-text.npz", graph(weights=np.array(["5", "1"])), "integers")
err("npz-index-1.7.npz", graph(indices=np.array([1.7, 2.0])), "indices[0]")
err("npz-index-out-of-range.npz", graph(indices=np.array([1, 3])), "out of range")
err("npz-indptr-decreasing.npz", graph(indptr=np.array([0, 2, 1, 2])), "indptr must rise")
err("npz-indptr-length.npz", graph(indptr=np.array([0, 1, 2])), "n + 1")
err("npz-n-array.npz", graph(n=np.array([3, 3])), "n must be one integer")
err("npz-n-float.npz", graph(n=np.float64(3.0)), "n must be one integer")
err("npz-n-negative.npz", graph(n=np.int64(-1)), "outside")
err("npz-missing-key.npz", graph(weights=None), "not an apsp_kernels .npz graph")
err("npz-objects.npz", npz(n=np.array([{"x": 1}], dtype=object), indptr=np.zeros(2), indices=np.zeros(0),
                           weights=np.zeros(0)), "never loaded")
err("npz-renamed-npy.npz", (lambda b: (np.save(b, np.arange(4)), b.getvalue())[1])(io.BytesIO()), "single")
err("npz-garbage.npz", b"PK\x03\x04 not really a zip", "not a readable .npz")
# ------------------------- negative self-loops, empty CSV/TSV fields, symmetric entries above the diagonal
M = "%%MatrixMarket matrix coordinate integer "
err("gr-negative-self-loop.gr", "p sp 2 2\na 1 2 3\na 2 2 -1\n", "negative cycle: a self-loop of weight -1 at vertex 2", 3)
err("hb-negative-self-loop.txt", "a a -2\na b 1\n--END--\n", "negative cycle: a self-loop of weight -2 at vertex a", 1)
err("snap-negative-self-loop.txt", "5 6 1\n6 6 -2\n", "a self-loop of weight -2 at vertex 6", 2,
    args=["--weight-column", "2"])
err("mtx-negative-diagonal.mtx", M + "general\n2 2 2\n1 2 3\n2 2 -1\n", "a self-loop of weight -1 at vertex 2", 4)
err("mtx-array-negative-diagonal.mtx", "%%MatrixMarket matrix array integer general\n2 2\n-1\n3\n0\n0\n",
    "a self-loop of weight -1 at vertex 1", 3)
err("mtx-symmetric-above-diagonal.mtx", M + "symmetric\n3 3 1\n1 2 5\n", "above the diagonal", 3)
err("mtx-skew-above-diagonal.mtx", M + "skew-symmetric\n3 3 2\n2 1 5\n1 3 4\n", "above the diagonal", 4)
err("snap-empty-weight-field.csv", "1,2,7\n1,2,,900\n", "field 2 is empty", 2, args=["--weight-column", "2"])
err("snap-empty-id-field.csv", "1,,2\n", "field 1 is empty", 1)
err("snap-trailing-comma.csv", "1,2,\n", "field 2 is empty", 1)
err("snap-leading-tab.tsv", "\t1\t2\t5\n", "field 0 is empty", 1, args=["--weight-column", "2"])
err("snap-double-tab.tsv", "1\t\t2\n", "field 1 is empty", 1)
ok("snap-spaces-around-commas.csv", "0, 1, 4\n1 ,2 ,6\n", [0, 1, 2], [(0, 1, 4), (1, 2, 6)], args=["--weight-column", "2"])
ok("gr-zero-self-loop.gr", "p sp 2 2\na 1 2 3\na 2 2 0\n", [1, 2], [(1, 2, 3)])
err("npz-empty.npz", b"", ".npz")
err("npz-weights-length.npz", graph(weights=np.array([5, 1, 2])), "weights has 3 entries")
err("npz-ids-length.npz", graph(ids=np.array([1, 2])), "ids must be 3")
err("npz-2d-weights.npz", graph(weights=np.array([[5], [1]])), "1-D")


def main():
    for old in HERE.iterdir():
        if old.name not in ("make_corpus.py", "expected.json") and old.is_file():
            old.unlink()
    expected = {}
    for name, case in CASES.items():
        data = case["data"]
        (HERE / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        expected[name] = dict(args=case["args"], **case["expect"])
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(CASES)} files written to {HERE}")


if __name__ == "__main__":
    main()
