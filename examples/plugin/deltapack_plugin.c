/* deltapack's description for gcbench: its name, its one axis, its host and device paths. */
#include "deltapack.h"

static const int64_t block_sizes[] = {64, 128, 256, 512, 1024, 2048, 4096, 16384, 65536};
static const int64_t block_sweep[] = {128, 1024, 16384};

static const gcbench_plugin_axis axes[] = {
    {"block_size", "integers per block (one first value and one delta width each)", 1024, 64, 65536,
     block_sizes, sizeof block_sizes / sizeof block_sizes[0], NULL, 0, 1, block_sweep,
     sizeof block_sweep / sizeof block_sweep[0]},
};

static const gcbench_plugin description = {
    GCBENCH_PLUGIN_ABI_VERSION,
    "deltapack",
    "1",
    "delta + bit-packing of 32-bit integers per block (example plugin)",
    axes,
    sizeof axes / sizeof axes[0],
    &deltapack_cpu,
#ifdef DELTAPACK_WITH_GPU
    &deltapack_gpu,
    1,
#else
    NULL,
    0,
#endif
};

const gcbench_plugin* gcbench_plugin_entry(void) {
  return &description;
}
