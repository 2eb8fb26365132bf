#!/usr/bin/env bash
# The test command: bootstraps the environment, then runs pytest.
# GPU tests run where CuPy sees a GPU and are skipped, with the reason, elsewhere.
set -euo pipefail
cd "$(dirname "$0")"
# --quick: the quick subset, -m "not slow" (tests/conftest.py says which tests are slow, and why).
args=()
for a in "$@"; do
  if [ "$a" = "--quick" ]; then args+=(-m "not slow"); else args+=("$a"); fi
done
source scripts/bootstrap.sh
exec "$PY" -m pytest -q -rs -p no:cacheprovider ${args[@]+"${args[@]}"}     # -rs: each skip with its reason
