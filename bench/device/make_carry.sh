#!/usr/bin/env bash
# Builds .carry/, the ignored folder device runs carry (the device machine has no internet and lacks
# some dependencies): prefix/ (nlohmann/json, CLI11, bzlib.h, libdeflate, for CMAKE_PREFIX_PATH),
# nvcomp/ (the nvidia-libnvcomp-cu13 wheel's include/ and lib64/, kept; nvcomp.tar.xz, the same
# compressed), corpora/ (the corpus
# mirror) and head/ (a snapshot of HEAD, or of REV, to build committed code while the tree has
# edits, or the baseline a change is measured against).
# Usage (repository root, on this machine): bash bench/device/make_carry.sh [--head-only [REV]]
set -euo pipefail
carry=.carry
lib=/usr/lib/x86_64-linux-gnu

snapshot_head() {
  local rev=${1:-HEAD}
  git rev-parse --verify --quiet "$rev^{commit}" >/dev/null || {
    echo "make_carry: $rev names no commit" >&2
    exit 2
  }
  rm -rf "$carry/head" && mkdir -p "$carry/head"
  # Without evidence: the device builds and runs code, and the tree it travels in holds at
  # most 64 MiB with the carry.
  git archive "$rev" -- . ':(exclude)evidence' | tar -x -C "$carry/head"
  # Inside this checkout's .carry, git would name this checkout's state: the snapshot says its own.
  git rev-parse --short=12 "$rev" > "$carry/head/REVISION"
}
if [[ ${1:-} == --head-only ]]; then
  snapshot_head "${2:-HEAD}"
  exit 0
fi

prefix=$carry/prefix
rm -rf "$prefix" && mkdir -p "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/share/cmake"
cp -r /usr/include/nlohmann "$prefix/include/"
cp -r /usr/share/cmake/nlohmann_json "$prefix/share/cmake/"
# CLI11 (header-only): its config finds the headers relative to itself, in prefix/include/CLI.
cp -r /usr/include/CLI "$prefix/include/"
cp -r /usr/share/cmake/CLI11 "$prefix/share/cmake/"
cp /usr/include/bzlib.h /usr/include/libdeflate.h "$prefix/include/"
cp -a $lib/libdeflate.so $lib/libdeflate.so.[0-9]* "$prefix/lib/"
# The .pc file with a relocatable prefix: pkg-config finds it through CMAKE_PREFIX_PATH.
sed -e 's|^prefix=.*|prefix=${pcfiledir}/../..|' -e 's|^includedir=.*|includedir=${prefix}/include|' \
  -e 's|^libdir=.*|libdir=${prefix}/lib|' $lib/pkgconfig/libdeflate.pc >"$prefix/lib/pkgconfig/libdeflate.pc"

# OpenSSL is not carried: the device image has its headers and libcrypto, and the carry, with
# the working tree, must stay within 64 MiB.

# nvCOMP is not rebuilt here: .carry/nvcomp holds include/ and lib64/ as unpacked from the
# nvidia-libnvcomp-cu13 wheel (pip download nvidia-libnvcomp-cu13; unzip; copy both folders).
[[ -d $carry/nvcomp/include ]] || [[ -d .deps/nvcomp/include ]] ||
  echo "make_carry: no $carry/nvcomp or .deps/nvcomp (carry it): nvCOMP stays off on the device" >&2
# The same, xz-compressed (22 of its 26 MB): carried instead of nvcomp/ when the tree leaves
# too little room; bench/device/run.py unpacks it on the device.
for from in "$carry/nvcomp" .deps/nvcomp; do
  if [[ -d $from/include ]]; then
    tar -C "$(dirname "$from")" -cf - "$(basename "$from")" --transform 's|^[^/]*|nvcomp|' |
      xz -9 -T0 >"$carry/nvcomp.tar.xz"
    break
  fi
done

rm -rf "$carry/corpora" && cp -r ../shared/corpora "$carry/corpora"
snapshot_head
du -sh "$carry"/*
