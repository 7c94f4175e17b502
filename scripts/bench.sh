#!/usr/bin/env bash
# The README's main job: installs dependencies, builds the two programs it runs (gcbench and
# gcbench-report, no tests; the GPU codecs only where they can run here: nvcc present and a GPU
# visible, or GCBENCH_GPU=1 to build them anyway), runs the suite on the default corpus and
# prints the GPU vs CPU vs gzip table. Extra arguments go to bench/run_suite.sh (e.g. --corpus
# calgary). scripts/test.sh builds everything, tests included, in build/.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -x /usr/local/cuda/bin/nvcc ]] && ! command -v nvcc >/dev/null; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
gpu=OFF
if [[ ${GCBENCH_GPU:-} == 1 ]]; then
  gpu=ON
elif command -v nvcc >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  gpu=ON
fi
[[ $gpu == ON ]] || export GCBENCH_SKIP_NVCOMP=1  # nvCOMP's peers are GPU codecs
bash scripts/install-deps.sh
echo "gcbench: building gcbench and gcbench-report in build-main (GPU codecs $gpu$(
  [[ $gpu == OFF ]] && echo ': no GPU visible here; GCBENCH_GPU=1 builds them anyway'))"
GCBENCH_BUILD_TARGET="gcbench gcbench-report" bash scripts/build.sh build-main \
  -DCMAKE_BUILD_TYPE=Release -DGCBENCH_BUILD_TESTS=OFF -DGCBENCH_WITH_CUDA=$gpu
bash bench/run_suite.sh --build build-main "$@"
