"""The study's modules stand in floors, and a module imports only its own floor and those below it:
the verdict method (method/) knows nothing of how a table is shown, the tables nothing of the
records, no seed of the registry or the reports.  Read from the source (every import, at module
level or inside a function, relative ones resolved), so an import that would only run later counts
as well; importing a module also imports its parent packages' ``__init__``, which is not counted."""
import ast
from collections import defaultdict
from pathlib import Path

import pytest

import apsp_kernels.study

STUDY = Path(apsp_kernels.study.__file__).resolve().parent
PACKAGE = "apsp_kernels.study"

# lowest first: a module of a floor may import its own floor or a lower one
FLOORS = (("words",), ("method",), ("show",), ("records", "publish"), ("contract",), ("seeds",), ("registry", "preregistration", "preregistration_md"),
          ("report",), ("__init__", "__main__"))
FLOOR = {top: i for i, tops in enumerate(FLOORS) for top in tops}

# (importing module, imported module) -> why the import stands for now
ALLOWED = {}


def _modules():
    """{module name: (path, is a package's __init__)} of every module under the study."""
    out = {}
    for p in sorted(STUDY.rglob("*.py")):
        parts = p.relative_to(STUDY).with_suffix("").parts
        init = parts[-1] == "__init__"
        name = ".".join((PACKAGE, *(parts[:-1] if init else parts)))
        out[name] = (p, init)
    return out


MODULES = _modules()


def _targets(name, path, init):
    """The study modules ``name`` imports, each with the line that does."""
    package = name if init else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == PACKAGE or a.name.startswith(PACKAGE + "."):
                    yield a.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = ".".join(base[: len(base) - (node.level - 1)])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            if not (base == PACKAGE or base.startswith(PACKAGE + ".")):
                continue
            for a in node.names:
                sub = f"{base}.{a.name}"
                yield (sub if sub in MODULES else base), node.lineno


def _floor(name):
    rest = name[len(PACKAGE) + 1:]
    top = rest.split(".")[0] if rest else "__init__"
    if top not in FLOOR:
        raise AssertionError(f"{name} stands in no floor: add its package to FLOORS")
    return FLOOR[top]


def _graph():
    edges = defaultdict(dict)
    for name, (path, init) in MODULES.items():
        for target, line in _targets(name, path, init):
            if target != name:
                edges[name].setdefault(target, line)
    return edges


EDGES = _graph()


def _short(name):
    return name[len(PACKAGE) + 1:] or "__init__"


def test_every_import_resolves_to_a_module_of_the_study():
    unknown = sorted(f"{_short(a)}:{line} imports {b}" for a, out in EDGES.items() for b, line in out.items()
                     if b not in MODULES)
    assert not unknown, "\n".join(unknown)


def test_every_module_stands_in_a_floor():
    for name in MODULES:
        _floor(name)


def test_no_module_imports_a_higher_floor():
    up = []
    for a, out in EDGES.items():
        for b, line in out.items():
            if b in MODULES and _floor(b) > _floor(a) and (_short(a), _short(b)) not in ALLOWED:
                up.append(f"{_short(a)}:{line} imports {_short(b)} "
                          f"(floor {'/'.join(FLOORS[_floor(a)])} below {'/'.join(FLOORS[_floor(b)])})")
    assert not up, "imports from a lower floor to a higher one:\n" + "\n".join(sorted(up))


def test_allowed_imports_are_still_there():
    """An allowance whose import is gone goes too: the list says what stands now."""
    present = {(_short(a), _short(b)) for a, out in EDGES.items() for b in out}
    assert set(ALLOWED) <= present, sorted(set(ALLOWED) - present)


def _cycles():
    """Each strongly connected set of two or more modules (Tarjan), as one cycle through it."""
    index, low, on, stack, sccs = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in EDGES.get(v, ()):
            if w not in MODULES:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = set()
            while True:
                w = stack.pop()
                on.discard(w)
                scc.add(w)
                if w == v:
                    break
            if len(scc) > 1:
                sccs.append(scc)

    for v in sorted(MODULES):
        if v not in index:
            visit(v)
    return [_one_cycle(scc) for scc in sccs]


def _one_cycle(scc):
    """A shortest cycle inside ``scc`` through its first module, as module names."""
    start = min(scc)
    paths, seen = [[start]], {start}
    while paths:
        nxt = []
        for p in paths:
            for w in EDGES.get(p[-1], ()):
                if w == start:
                    return [*p, start]
                if w in scc and w not in seen:
                    seen.add(w)
                    nxt.append([*p, w])
        paths = nxt
    return sorted(scc)


def test_no_import_cycles():
    cycles = _cycles()
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(map(_short, c)) for c in cycles)


@pytest.mark.parametrize("source, relative, expected", [
    ("apsp_kernels.study.method.verdicts", "from . import rules", "apsp_kernels.study.method.rules"),
    ("apsp_kernels.study.method.verdicts", "from ..words import KINDS", "apsp_kernels.study.words"),
    ("apsp_kernels.study.seeds.kemp.load", "from ...method.timings import good", "apsp_kernels.study.method.timings"),
    ("apsp_kernels.study.seeds.kemp.load", "from ... import records", "apsp_kernels.study.records"),
    ("apsp_kernels.study.seeds.kemp.load", "from .... import paths", None),
])
def test_relative_imports_resolve(tmp_path, source, relative, expected):
    p = tmp_path / "m.py"
    p.write_text(relative + "\n")
    got = [t for t, _ in _targets(source, p, False)]
    assert got == ([expected] if expected else [])
