#!/usr/bin/env bash
# The README's main job: installs dependencies, builds, runs the suite on the default corpus
# (GPU cells too when a GPU is present), and prints the GPU vs CPU vs gzip table.
# Extra arguments go to bench/run_suite.sh (e.g. --corpus calgary).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh build
bash bench/run_suite.sh "$@"
