#!/usr/bin/env bash
# Reproduce the study: executes every notebook (papermill) and renders reports/index.html.
#   ./run_all.sh [--profile smoke|quick|paper|full|decide] [--lease K] [--only NAME] [--source measure|recorded]
# Bootstraps .venv on first use (with CuPy where nvidia-smi sees a GPU).  Set APSP_PYTHON
# to use an existing interpreter instead (offline GPU nodes: see scripts/make_wheel_bundle.sh).
set -euo pipefail
cd "$(dirname "$0")"
source scripts/bootstrap.sh
exec "$PY" -m apsp_kernels.study.report.runner "$@"
