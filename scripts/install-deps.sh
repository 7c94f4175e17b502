#!/usr/bin/env bash
# Installs gcbench's build dependencies from Debian packages (run as root on a fresh machine).
# Does nothing when everything is already there. The CUDA toolkit is not a Debian package:
# without nvcc the build leaves the GPU codecs out and says so.
set -euo pipefail
packages=(cmake ninja-build g++ clang libomp-dev libclang-rt-dev pkg-config
          libbenchmark-dev libgtest-dev nlohmann-json3-dev libfmt-dev libcli11-dev
          zlib1g-dev libbz2-dev gzip bzip2 curl ca-certificates
          libdeflate-dev libzstd-dev liblz4-dev libssl-dev python3-matplotlib
          slurm-wlm munge)  # tests/slurm: a single-node Slurm for the job array test
# Google Benchmark's compare.py and the Python it needs (tests/compare_py_test.sh).
packages+=(libbenchmark-tools python3 python3-scipy)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "gcbench: installing ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    echo "gcbench: run as root (or install these packages yourself)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
