#!/usr/bin/env bash
# Source me: makes (once) and activates the project's Python environment.
#   APSP_PYTHON=/path/python  use that interpreter as it is (no venv; it must have the deps),
#                             e.g. on an offline GPU node after installing the wheel bundle.
#   APSP_VENV=dir             where the venv lives (default .venv)
set -e
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -n "${APSP_PYTHON:-}" ]; then
  PY=$APSP_PYTHON
  export PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}"
else
  venv=${APSP_VENV:-$root/.venv}
  if [ ! -x "$venv/bin/python" ] || [ ! -f "$venv/.apsp-installed" ] || [ "$root/pyproject.toml" -nt "$venv/.apsp-installed" ]; then
    echo "bootstrap: creating $venv (first use; takes a minute or two)" >&2
    python3 -m venv "$venv"
    extras="test"
    if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
      # CuPy's wheel must match the CUDA major version the driver supports (nvidia-smi's header)
      cuda=$(nvidia-smi 2>/dev/null | sed -n 's/.*CUDA Version: *\([0-9]*\).*/\1/p' | head -1)
      if [ "${cuda:-13}" = "12" ]; then extras="test,gpu12"; else extras="test,gpu"; fi
      echo "bootstrap: driver supports CUDA ${cuda:-?}: installing extras [$extras]" >&2
    fi
    "$venv/bin/python" -m pip install -q --upgrade pip
    "$venv/bin/python" -m pip install -q -e "$root[$extras]"
    touch "$venv/.apsp-installed"
  fi
  PY=$venv/bin/python
fi
export PY
set +e
