#!/usr/bin/env bash
# One device-machine session: GPU tests, compute-sanitizer, benchmark.  Logs under $OUT.
# Expects the offline wheel bundle in .whl (scripts/make_wheel_bundle.sh).
set -uo pipefail
export PYTHONUNBUFFERED=1 OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl 2>&1 | tail -2
export PYTHONPATH=$PWD:/tmp/site PY=python3
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
python3 -m pytest -q -p no:cacheprovider -m gpu tests/test_gpu.py tests/test_gpu_seed001.py 2>&1 | tee "$OUT/gpu_tests.log" | tail -15
scripts/sanitize.sh 2>&1 | tee "$OUT/sanitizer.log"
python3 -m apsp_kernels bench ${BENCH_ARGS:-} --out "$OUT" 2>&1 | tee "$OUT/bench.log" | grep -v "^ " | tail -40
