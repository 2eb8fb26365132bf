"""What every file reader shares: its error type, reading the input once, exact number tokens, and
the hand-over of the raw numbers to the one validation step (:mod:`apsp_kernels.core.validate`).

Each input is read in one pass (``open().read()``), so a FIFO, ``/dev/stdin`` or a shell's process
substitution works as a file does; the format is then told from the bytes in memory, never by
reading the file a second time."""
from __future__ import annotations

import gzip
import sys
import zlib
from decimal import Decimal, InvalidOperation
from pathlib import Path

from ..core.distances import NegativeCycleError
from ..core.graph import Graph, GraphError
from ..core.validate import InputError


class GraphFormatError(GraphError):
    """One line: ``FILE[, line N]: what was wrong``."""

    def __init__(self, path, line, what):
        if len(what) > 500:                       # a garbage token of a million digits stays one readable line
            what = f"{what[:240]} [...] {what[-240:]}"
        self.path, self.line, self.what = str(path), line, what
        where = f"{path}, line {line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {what}")


class GraphFileNegativeCycle(GraphFormatError, NegativeCycleError):
    """A negative self-loop in a file: named by file, line and the file's own vertex id (a NegativeCycleError)."""

    def __init__(self, path, line, what, vertex):
        super().__init__(path, line, what)
        self.vertex = vertex


class GraphFileNotFound(GraphFormatError, FileNotFoundError):
    """No such file (also a FileNotFoundError, for callers that catch that)."""


class GraphFormatWarning(UserWarning):
    """Input accepted with a choice the user should know of (e.g. MatrixMarket duplicates)."""


def existing_file(path) -> Path:
    """``path`` as a Path where it names a file, else the one-line error every reader gives (a directory;
    no such file).  What an open() or read that fails then means is the reader's own message."""
    p = Path(path)
    if p.is_dir():
        raise GraphFormatError(path, None, "is a directory, not a graph file")
    if not p.exists():
        raise GraphFileNotFound(path, None, "no such file")
    return p


def read_bytes(path) -> bytes:
    """The whole input, once (``-``: standard input); gunzipped where it is gzip data."""
    if str(path) == "-":
        raw = sys.stdin.buffer.read()
    else:
        p = existing_file(path)
        try:
            with open(p, "rb") as f:
                raw = f.read()
        except OSError as e:
            raise GraphFormatError(path, None, f"cannot be read ({e.strerror or e})") from None
    if raw[:2] == b"\x1f\x8b" or str(path).lower().endswith(".gz"):
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as e:
            raise GraphFormatError(path, None, f"broken or truncated gzip data ({e})") from None
    return raw


def decode_lines(path, raw: bytes) -> list[str]:
    """UTF-8 text (a byte-order mark dropped) as lines split at '\\n' only, so that the line numbers
    of errors are those an editor shows (str.splitlines also splits at \\x1c, \\x85, U+2028...)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        raise GraphFormatError(path, line, f"not a text graph file (byte 0x{raw[e.start]:02x} is not UTF-8 text)") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [x[:-1] if x.endswith("\r") else x for x in lines]


def read_lines(path) -> list[str]:
    return decode_lines(path, read_bytes(path))


def parse_int(tok: str):
    """An ASCII decimal integer (sign allowed, leading zeros allowed: '01' is 1) as an exact int, else
    None.  Python's int() alone would also take '1_000', ' 7' and other scripts' digits ('٣')."""
    body = tok[1:] if tok[:1] in "+-" else tok
    if not (body.isascii() and body.isdigit()):
        return None
    # int() refuses more than 4300 digits (CPython's guard); so long a number is out of every range
    # anyway, and Decimal keeps it exact for the range check and its message
    return int(tok) if len(body) < 4000 else Decimal(tok)


def parse_vertex_id(tok: str):
    """A non-negative ASCII integer (SNAP's ids), else None; 2**63 stands for any longer one."""
    if not (tok.isascii() and tok.isdigit()):
        return None
    return int(tok) if len(tok) < 25 else 2**63


_NUMBER_CHARS = set("0123456789+-.eE")
_WORDS = {"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity", "nan", "+nan", "-nan"}


def parse_number(tok: str):
    """An exact number: int for integer tokens, Decimal for decimals and exponents ('4.5', '1e20') and
    the words inf/nan; None for anything else.  Never a float: nothing is rounded before validation."""
    v = parse_int(tok)
    if v is not None:
        return v
    if tok.isascii() and (set(tok) <= _NUMBER_CHARS or tok.lower() in _WORDS):
        try:
            return Decimal(tok)
        except InvalidOperation:
            return None
    return None


def number_at(path, line, tok: str, what: str):
    """``tok`` as :func:`parse_number` reads it, else the one-line error ``FILE, line N: WHAT 'tok' is not
    an integer`` that every text reader gives for a weight it cannot read."""
    value = parse_number(tok)
    if value is None:
        raise GraphFormatError(path, line, f"{what} {tok!r} is not an integer")
    return value


def build(path, n, src, dst, w, lines, names=None, meta=None) -> Graph:
    """The graph, through the one validation step; a refused entry is named by its file and line."""
    try:
        return Graph.from_edges(n, src, dst, w, names=names, meta=meta)
    except InputError as e:
        line = lines[e.index % len(lines)] if e.index is not None and lines else None
        raise GraphFormatError(path, line, e.what) from None
    except NegativeCycleError as e:                   # a negative self-loop
        k = e.index % len(lines)
        name = names[src[k]] if names is not None else src[k]
        raise GraphFileNegativeCycle(path, lines[k], f"negative cycle: a self-loop of weight {w[k]} at vertex "
                                                     f"{name}", e.vertex) from None
    except GraphError as e:
        raise GraphFormatError(path, None, str(e)) from None
