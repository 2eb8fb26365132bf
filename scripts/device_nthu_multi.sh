#!/usr/bin/env bash
# The NTHU two-GPU session on a two-GPU device kind (nvidia-h100-x2 or nvidia-h200-x2), one stage per device command (README, NTHU
# section, gives the order and the expected durations).  Results into $OUT/<time>-nthu-multi/, logs into
# $OUT/device-logs/; copy both into data/results/ afterwards and re-render notebook 09.
#   scripts/device_nthu_multi.sh tests     # 2-GPU tests, the rank harness, mpirun at 16384   (~2-3 min)
#   scripts/device_nthu_multi.sh scaling   # strong 2048..32768 x 3 designs, weak from 2048   (~5 min)
#   scripts/device_nthu_multi.sh stage     # n = 6000: bs 8..64 x 3 designs (stage table, bandwidth) (~1 min)
#   scripts/device_nthu_multi.sh big       # n = 65536 (17 GB a GPU), pivot-row design, 1 and 2 GPUs (~4-5 min)
#   scripts/device_nthu_multi.sh weak      # weak scaling from n0 = 8192 and 16384 (n0 sqrt 2 on 2 GPUs)   (~2 min)
# Every stage ends by itself: the script's ranks have a deadline (nthu_measure --deadline-s 570) and the
# commands run under timeout(1), so nothing waits silently past the device tool's 10 minutes.
set -uo pipefail
stage=${1:?usage: $0 tests|scaling|stage|big|weak}
export OUT=${OUT:-/tmp/out} PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
shopt -s nullglob; whl=(.whl/*.whl build/whl/*.whl)     # whichever bundle was carried
(( ${#whl[@]} )) && python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site "${whl[@]}" >/dev/null 2>&1
export PYTHONPATH=$PWD:/tmp/site PY=python3 APSP_CACHE_DIR=${APSP_CACHE_DIR:-$PWD/data/cache} APSP_RESULTS_DIR=$OUT
mkdir -p "$OUT/device-logs"
# the log is named by the cards the kind gave (nvidia-h100-x2 or nvidia-h200-x2), e.g. h100x2-<time>-nthu-stage.log
kind=$(nvidia-smi --query-gpu=name --format=csv,noheader | awk '{m=tolower($2)} END {print m "x" NR}')
log="$OUT/device-logs/${kind}-$(date +%Y%m%d-%H%M)-nthu-$stage.log"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$log"
rc=0
case $stage in
  tests)
    timeout 360 python3 -m pytest -q -rs -p no:cacheprovider tests/test_launch.py tests/test_multi.py 2>&1 | tee -a "$log" || rc=$?
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 180 mpirun -np 2 python3 -m apsp_kernels.multi_gpu run --n 16384 --verify \
        2>&1 | tee -a "$log" || rc=$? ;;
  scaling)
    timeout 590 python3 -m apsp_kernels.study measure nthu multi --sizes 2048 4096 8192 16384 32768 --gpus 1 2 --weak --repeats 3 \
        2>&1 | tee -a "$log" || rc=$? ;;
  stage)
    timeout 590 python3 -m apsp_kernels.study measure nthu multi --sizes 6000 --gpus 1 2 --syncs row rowcol whole \
        --kernels b8-dim3-branch b16-dim3-branch b32-dim3-branch b64-dim3-branch --repeats 3 2>&1 | tee -a "$log" || rc=$? ;;
  big)
    timeout 590 python3 -m apsp_kernels.study measure nthu multi --sizes 65536 --gpus 1 2 --syncs row 2>&1 | tee -a "$log" || rc=$? ;;
  weak)     # the scaling stage's weak point starts from its smallest size (2048, launch-bound): these start where
            # the GPUs are busy
    timeout 590 python3 -m apsp_kernels.study measure nthu multi --sizes 8192 16384 --gpus 1 2 --syncs row --weak --weak-from 8192 16384 \
        --repeats 3 2>&1 | tee -a "$log" || rc=$? ;;
  *) echo "unknown stage $stage" >&2; exit 2 ;;
esac
exit $rc
