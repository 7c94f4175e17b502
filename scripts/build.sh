#!/usr/bin/env bash
# Configures and builds gcbench. Usage: scripts/build.sh <build-dir> [extra cmake args...]
# GCBENCH_BUILD_TARGET: the targets to build (and what they need), separated by spaces, instead
# of all.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build}
shift || true
if [[ -z "${CMAKE_CUDA_COMPILER:-}" ]] && ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
cmake -S . -B "$build_dir" -G Ninja "$@" >"$build_dir.configure.log" 2>&1 ||
  { cat "$build_dir.configure.log"; exit 1; }
grep -E "gcbench:" "$build_dir.configure.log" || true
read -r -a targets <<<"${GCBENCH_BUILD_TARGET:-}"
cmake --build "$build_dir" -j"$(nproc)" ${targets[@]+--target "${targets[@]}"}
