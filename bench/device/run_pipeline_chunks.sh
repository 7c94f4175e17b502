#!/usr/bin/env bash
# End-to-end cells over pipeline chunk sizes, each run beside what bench/notes/pipeline_model.py
# says its chunk allows: does an input of few chunks lose its call to the pipeline's fill, and
# is the host's work between chunks a fixed cost or one per chunk? Defaults: LZ77 (warp design,
# jump decoding) decompressing Silesia as one input at 4, 8, 16 and 32 MiB chunks.
# Usage (repository root, .carry carried): bash bench/device/run_pipeline_chunks.sh
#   CODECS, CORPUS, DIRECTION, CHUNKS (sizes, space-separated), ARGS (more gcbench flags)
OUT=${OUT:-$PWD/out-pipeline-chunks}
source "$(dirname "$0")/common.sh" pipeline-chunks
BUILD=${BUILD:-build-device}
CODECS=${CODECS:-lz77}
CORPUS=${CORPUS:-concat:silesia}
DIRECTION=${DIRECTION:-decompress}
CHUNKS=${CHUNKS:-4MiB 8MiB 16MiB 32MiB}
ARGS=${ARGS:---design warp --finder hash --work-items 1024}

step build
build_release_with_nvcomp "$BUILD" gcbench

for chunk in $CHUNKS; do
  step "end to end, pipeline chunks of $chunk"
  # shellcheck disable=SC2086 # ARGS holds several flags
  "$BUILD/bench/driver/gcbench" --codecs "$CODECS" --corpus "$CORPUS" --device gpu \
    --direction "$DIRECTION" --pipeline-chunk "$chunk" $ARGS --no-progress \
    --benchmark_out="$OUT/chunk-$chunk.json" >"$OUT/chunk-$chunk.log" 2>&1
  echo "chunk $chunk: exit status $?"
done

step "measured and modelled, % of pinned H2D"
for chunk in $CHUNKS; do
  echo "== pipeline chunks of $chunk"
  python3 bench/notes/pipeline_model.py "$OUT/chunk-$chunk.json" \
    --chunks-mib "$(echo "$CHUNKS" | sed 's/MiB//g; s/ /,/g')"
done
