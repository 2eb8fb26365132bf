"""The study's choices of codes, as data: which code plays which part in the campaign's plan
(``data/sweeps/kemp.yaml``) and in a report's figures, tables and targets (``data/codes.yaml``).  These
are facts about the papers' experiments; facts about an algorithm itself are fields of the registry.

In those files a code is a registry name or ``name/variant`` (``katz_kider/16``); a section's entries
are a code, a list of codes, or ``{label: code}`` (a figure's legend, in its order).  Every name is
checked against the registry on loading: a file naming an unknown algorithm (or variant) is refused,
naming the file and the key."""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import yaml

from ...algorithms import registry
from ...paths import DATA

CODES_FILE = DATA / "codes.yaml"
KEMP_SWEEP = DATA / "sweeps" / "kemp.yaml"


class Code(NamedTuple):
    algorithm: str
    variant: str | None           # as the results files carry it (text); None: the code's default


def parse(text, where="") -> Code:
    """``name`` or ``name/variant`` -> Code; an unknown name raises ValueError naming ``where``."""
    if not isinstance(text, str):
        raise ValueError(f"{where}: {text!r} is not a code (a registry name or name/variant)")
    name, sep, variant = text.partition("/")
    if name not in registry.ALGORITHMS:
        raise ValueError(f"{where}: unknown algorithm {name!r} (not in apsp_kernels/algorithms/registry.py)")
    known = [str(v) for v in registry.get(name).variants]
    if sep and variant not in known:
        raise ValueError(f"{where}: {name} has no variant {variant!r}; one of {', '.join(known)}")
    return Code(name, variant if sep else None)


def _entry(value, where):
    if isinstance(value, dict):
        return {str(label): parse(v, f"{where}.{label}") for label, v in value.items()}
    if isinstance(value, list):
        return [parse(v, f"{where}[{i}]") for i, v in enumerate(value)]
    return parse(value, where)


def load(section, path=CODES_FILE):
    """One section of a codes file: {key: Code, [Code], or {label: Code}}."""
    path = Path(path)
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if section not in data:
        raise KeyError(f"{path.name}: no section {section!r}; sections: {', '.join(data)}")
    return {key: _entry(v, f"{path.name}: {section}.{key}") for key, v in data[section].items()}


def runs(legend):
    """A legend {label: Code} as the figures' runs [(algorithm, variant, label)], in its order."""
    return [(c.algorithm, c.variant, label) for label, c in legend.items()]
