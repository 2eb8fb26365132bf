# Sourced by the scripts/device_*.sh wrappers: the set-up every device command needs, in one place.
# The offline wheel bundle (.whl, scripts/make_wheel_bundle.sh) installs into /tmp/site when it was carried;
# results and the progress logs go to $OUT (the device tool brings back what lies there).
export OUT=${OUT:-/tmp/out}
if ls .whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl >/dev/null 2>&1
    export PYTHONPATH=$PWD:/tmp/site
else
    export PYTHONPATH=$PWD
fi
export PY=python3 PYTHONUNBUFFERED=1 APSP_RESULTS_DIR=$OUT APSP_CACHE_DIR=${APSP_CACHE_DIR:-$PWD/data/cache}
mkdir -p "$OUT/device-logs"
