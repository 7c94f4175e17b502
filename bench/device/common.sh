# The set-up the device scripts share, sourced with the script's short name:
#   source "$(dirname "$0")/common.sh" NAME
# Logs go to $OUT (default /tmp/NAME-out), corpora and tpchgen-cli come from the carried .carry,
# step prints a timed heading, and build configures and builds.
set -uo pipefail
root=$PWD
OUT=${OUT:-/tmp/$1-out}
mkdir -p "$OUT"
export GCBENCH_CORPUS_MIRROR=$root/.carry/corpora GCBENCH_CORPUS_CACHE=/tmp/gcbench-corpus-cache
export PATH=$root/.carry/bin:$PATH

step() { echo "== $1 ($(date +%T))"; }

# The carried nvCOMP (include/ and lib64/ of the nvidia-libnvcomp-cu13 wheel): .carry/nvcomp
# (bench/device/make_carry.sh), else .deps/nvcomp (scripts/install-deps.sh); empty without either.
# A carried .carry/nvcomp.tar.xz (make_carry.sh) is unpacked first.
if [[ -f $root/.carry/nvcomp.tar.xz && ! -d $root/.carry/nvcomp ]]; then
  python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
    "$root/.carry/nvcomp.tar.xz" "$root/.carry"
fi
nvcomp_root=
for nvcomp_candidate in "$root/.carry/nvcomp" "$root/.deps/nvcomp"; do
  if [[ -f $nvcomp_candidate/include/nvcomp.h ]]; then
    nvcomp_root=$nvcomp_candidate
    break
  fi
done

# Extra CMake options for build, set by a script before calling it.
cmake_options=()

# build DIR SRC TARGET...: configures SRC into DIR against the carried prefix, builds the
# targets (log: $OUT/build.log), and on failure prints the errors and exits.
build() {
  local dir=$1 src=$2
  shift 2
  cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_PREFIX_PATH="$root/.carry/prefix" \
    -DOPENSSL_ROOT_DIR="$root/.carry/prefix" "${cmake_options[@]}" >"$OUT/build.log" 2>&1 &&
    cmake --build "$dir" --target "$@" -j16 >>"$OUT/build.log" 2>&1 ||
    {
      grep -B2 -A12 -E "error|FAILED" "$OUT/build.log" | head -120
      exit 1
    }
}

# build_release DIR TARGET...: a Release build of this checkout as scripts/build.sh makes it
# (nvCOMP's peers only where .deps/nvcomp was carried), with nvcc told C++20 explicitly (the
# device machine's CMake needs it).
build_release() {
  local dir=$1
  shift
  cmake_options=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20
    -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20)
  build "$dir" . "$@"
}

# build_release_with_nvcomp DIR TARGET...: build_release with the carried nvCOMP's peers where
# .carry/nvcomp or .deps/nvcomp holds it.
build_release_with_nvcomp() {
  local dir=$1
  shift
  cmake_options=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20
    -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20)
  [[ -n $nvcomp_root ]] && cmake_options+=(-DGCBENCH_NVCOMP_ROOT="$nvcomp_root")
  build "$dir" . "$@"
}
