#!/usr/bin/env bash
# The test command: bootstraps the environment, then runs pytest.
# GPU tests run where CuPy sees a GPU and are skipped, with the reason, elsewhere.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/bootstrap.sh
exec "$PY" -m pytest -q -rs -p no:cacheprovider "$@"     # -rs: each skip with its reason
