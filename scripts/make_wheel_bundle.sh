#!/usr/bin/env bash
# Prepare an offline wheel bundle for a GPU node that has CUDA, CuPy, numpy, scipy,
# pandas, seaborn, numba but no network (the usual cluster image), so that the
# notebooks can run there.  Usage:
#   scripts/make_wheel_bundle.sh [DEST=.whl] [PYTHON_VERSION=3.12]
# Then, on the offline node, from the repository root:
#   python3 -m pip install -q --no-index --no-deps --target /tmp/apsp-site .whl/*.whl \
#       && export PYTHONPATH=$PWD:/tmp/apsp-site
# (--no-deps: the bundle holds the missing packages and their dependencies for a bare
#  Python; what the node already has, aiohttp say, is used from the node.)
set -euo pipefail
dest=${1:-.whl}
pyver=${2:-3.12}
# What a CUDA node image usually lacks; their dependencies come along.
pkgs=(papermill nbformat nbclient ipykernel nbconvert pooch networkit igraph)   # networkit, igraph: the structure suite compares them
# pymetis: METIS's nested dissection, the elimination ordering's default (without it, a slower pure-scipy
# ordering with more fill is used); a cp312 manylinux_2_24/2_28 wheel exists for the node's Python 3.12
pkgs+=(pymetis)
plats=()
for p in manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_17_x86_64 manylinux2014_x86_64 manylinux1_x86_64 manylinux_2_34_x86_64 manylinux_2_31_x86_64 manylinux_2_24_x86_64 manylinux_2_5_x86_64; do
  plats+=(--platform "$p")
done
mkdir -p "$dest"
python3 -m pip download -q --only-binary=:all: --python-version "$pyver" --implementation cp \
  "${plats[@]}" -d "$dest" "${pkgs[@]}"
# numpy etc. are on the node already; a second copy would shadow the node's build.
rm -f "$dest"/numpy-*.whl "$dest"/scipy-*.whl
du -sh "$dest"
echo "install on the node with:"
echo "  python3 -m pip install -q --no-index --no-deps --target /tmp/apsp-site $dest/*.whl && export PYTHONPATH=\$PWD:/tmp/apsp-site"
