#!/usr/bin/env bash
# The tuned line across GPUs on a four-GPU device kind (nvidia-h100-x4 or nvidia-h200-x4), one stage per device
# command; results and logs into $OUT (copy the CSVs into data/results/benchmarks/, the logs into
# data/results/device-logs/, and re-render notebook 11).  Set APSP_GIT_COMMIT to the commit the tree is (the
# device's .git is the session's first checkout, not the tree it was sent), or the provenance is refused.
#   APSP_GIT_COMMIT=<sha> scripts/device_multi_gpu.sh tests     # tuned_fw_multi 1-4 ranks, the solver on k GPUs,
#                                                               # a 2-rank memcheck                     (~6 min)
#   APSP_GIT_COMMIT=<sha> scripts/device_multi_gpu.sh fw        # tuned_fw_multi 1, 2, 4 GPUs at 16,384 and 32,768
#                                                               # (~2 min; 65,536 alone: FW_SIZES=65536, ~4 min)
#   APSP_GIT_COMMIT=<sha> scripts/device_multi_gpu.sh sources   # tuned_frontier's sources over 1, 2, 4 GPUs, the
#                                                               # result on the host (~2 min; SRC_N=32768: another n)
#   APSP_GIT_COMMIT=<sha> scripts/device_multi_gpu.sh kernels   # the same with every rank's rows left on its GPU:
#                                                               # the kernels without the host's intake (~2 min)
#   APSP_GIT_COMMIT=<sha> scripts/device_multi_gpu.sh nthu      # NTHU's faithful FW on 1, 2, 4 GPUs (notebook 09) (~3 min)
# Every command runs under timeout(1) within the device tool's 10 minutes; the benchmarks rewrite their tables as
# they go, so a cut run keeps what it finished.
set -uo pipefail
stage=${1:?usage: $0 tests|fw|sources|kernels|nthu}
: "${APSP_GIT_COMMIT:?set APSP_GIT_COMMIT to the commit this tree is}"
export OUT=${OUT:-/tmp/out} PYTHONUNBUFFERED=1 NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
export PYTHONPATH=$PWD PY=python3 APSP_CACHE_DIR=${APSP_CACHE_DIR:-$PWD/data/cache} APSP_RESULTS_DIR=$OUT
mkdir -p "$OUT/device-logs"
kind=$(nvidia-smi --query-gpu=name --format=csv,noheader | awk '{m=tolower($2)} END {print m "x" NR}')
log="$OUT/device-logs/${kind}-$(date +%Y%m%d-%H%M)-multi-$stage.log"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nvidia-smi topo -m; } > "$log" 2>&1
rc=0
case $stage in
  tests)
    timeout 300 python3 -m pytest -q -rs -p no:cacheprovider tests/test_tuned_sass.py tests/test_tuned_multi_gpu.py \
        >> "$log" 2>&1 || rc=$?
    timeout 200 python3 -m pytest -q -rs -p no:cacheprovider tests/test_multi_solver.py -k "k_gpus or one_gpu" \
        >> "$log" 2>&1 || rc=$?
    # compute-sanitizer follows the spawned ranks; the script guards its top level, as every rank imports it again.
    # API errors are not reported: NCCL's start-up (ncclInitKernelsForDevice) gets "no kernel image" answers from
    # cudaFuncGetAttributes, which it handles and the sanitizer counts as errors (16 on 2 H200s); kernels are still checked
    printf '%s\n' 'if __name__ == "__main__":' \
        '    import numpy as np' \
        '    from apsp_kernels import reference_apsp' \
        '    from apsp_kernels.core import generators as G' \
        '    from apsp_kernels.algorithms.gpu.multi.tuned import tuned_fw_multi' \
        '    g = G.with_potential(G.kemp(700, seed=7), 40, 7)' \
        '    assert np.array_equal(tuned_fw_multi(g, n_gpus=2)[0], reference_apsp(g))' > /tmp/multi_sanitize.py
    timeout 240 compute-sanitizer --tool memcheck --target-processes all --report-api-errors no --error-exitcode 99 --print-limit 20 \
        python3 /tmp/multi_sanitize.py >> "$log" 2>&1 || rc=$? ;;
  fw)
    timeout 580 python3 scripts/multi_gpu_bench.py --sizes ${FW_SIZES:-16384 32768} --gpus 1 2 4 --repeats 3 \
        --out "$OUT" >> "$log" 2>&1 || rc=$? ;;
  sources)
    timeout 580 python3 scripts/multi_sources_bench.py --n ${SRC_N:-65536} --gpus 1 2 4 --out "$OUT" >> "$log" 2>&1 || rc=$? ;;
  kernels)
    timeout 580 python3 scripts/multi_sources_bench.py --n ${SRC_N:-65536} --gpus 1 2 4 --on-device --out "$OUT" \
        >> "$log" 2>&1 || rc=$? ;;
  nthu)
    timeout 580 python3 -m apsp_kernels.study measure nthu multi --sizes 16384 32768 --gpus 1 2 4 --syncs row \
        >> "$log" 2>&1 || rc=$? ;;
  *) echo "unknown stage $stage" >&2; exit 2 ;;
esac
tail -15 "$log"
exit $rc
