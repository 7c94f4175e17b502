/* gcbench's plugin ABI: a codec built outside this repository, as a shared library that
 * gcbench loads with --plugin PATH (or GCBENCH_PLUGINS=PATH[:PATH...]).
 *
 * The library exports one C function, gcbench_plugin_entry, returning a description that
 * stays valid until the process exits. gcbench checks abi_version first and refuses a
 * library built against another one. A plugin codec is then a codec like the built-in ones:
 * listed by --list, swept over its axes, verified (and its GPU container compared with its
 * CPU one when it says they match), timed end to end, reported, compared and sharded.
 *
 * Conventions, for every call below:
 *  - `params` points to one value per axis, in the order of `axes`, each already checked
 *    against the axis (default filled in, range or allowed list, enumerated names as their
 *    index), so a call never parses anything.
 *  - A call returns GCBENCH_PLUGIN_OK or an error status. On error it may write a
 *    NUL-terminated message of at most message_capacity bytes to `message`; gcbench shows
 *    it with the codec's name and fails that cell only. A C++ exception that escapes a call
 *    is undefined behaviour in C; gcbench catches what reaches it and fails the cell.
 *  - Decoders treat their input as hostile: every read bounds-checked, no allocation that
 *    the container cannot justify, GCBENCH_PLUGIN_ERROR_CORRUPT for anything invalid.
 *  - GPU calls take device pointers and a cudaStream_t passed as void*; they enqueue work on
 *    that stream and return without synchronizing or allocating, as the device API of the
 *    built-in codecs does (include/gcbench/device_codec.hpp). */
#ifndef GCBENCH_PLUGIN_H
#define GCBENCH_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GCBENCH_PLUGIN_ABI_VERSION 1u

enum gcbench_plugin_status {
  GCBENCH_PLUGIN_OK = 0,
  GCBENCH_PLUGIN_ERROR_CORRUPT = 1,          /* the compressed input is not valid */
  GCBENCH_PLUGIN_ERROR_OUTPUT_TOO_SMALL = 2, /* output_capacity is too small */
  GCBENCH_PLUGIN_ERROR_PARAMS = 3,           /* this point of the axes cannot run */
  GCBENCH_PLUGIN_ERROR_INTERNAL = 4          /* anything else */
};

/* One integer parameter of the codec, as gcbench's built-in axes (include/gcbench/params.hpp).
 * `allowed` (allowed_count values) restricts it to a list; `names` (name_count entries, value
 * i spelled names[i]) makes it enumerated, from 0 to name_count - 1. `sweep` (sweep_count
 * values) is the default sweep of gcbench --sweep axes/product; none means the default only. */
typedef struct gcbench_plugin_axis {
  const char* name;
  const char* help;
  int64_t default_value;
  int64_t min;
  int64_t max;
  const int64_t* allowed;
  size_t allowed_count;
  const char* const* names;
  size_t name_count;
  int in_container; /* nonzero when the value changes the compressed bytes */
  const int64_t* sweep;
  size_t sweep_count;
} gcbench_plugin_axis;

/* The host path: plain buffers in host memory. */
typedef struct gcbench_plugin_cpu {
  /* A true upper bound on compress's output for input_size bytes. */
  uint64_t (*max_compressed_size)(const int64_t* params, uint64_t input_size);
  int (*compress)(const int64_t* params, const uint8_t* input, uint64_t input_size, uint8_t* output,
                  uint64_t output_capacity, uint64_t* output_size, char* message,
                  size_t message_capacity);
  /* The decompressed size the container claims, read from its own header: gcbench holds
   * it to its decode limit before it allocates the output. */
  int (*decompressed_size)(const uint8_t* container, uint64_t container_size, uint64_t* size,
                           char* message, size_t message_capacity);
  int (*decompress)(const int64_t* params, const uint8_t* container, uint64_t container_size,
                    uint8_t* output, uint64_t output_capacity, uint64_t* output_size, char* message,
                    size_t message_capacity);
} gcbench_plugin_cpu;

/* What a GPU decoder writes to device memory: the layout of gcbench::DeviceStatus.
 * error 0: `size` bytes were written and are complete; otherwise `detail` says where. */
typedef struct gcbench_plugin_device_status {
  uint32_t error;
  uint32_t reserved;
  uint64_t detail;
  uint64_t size;
} gcbench_plugin_device_status;

/* What plan_decompress read from a container's header, handed back to decompress_async. */
typedef struct gcbench_plugin_plan {
  uint64_t decompressed_size;
  size_t temp_bytes;  /* device temporary storage decompress_async needs */
  uint64_t detail[8]; /* the plugin's own, e.g. the header fields its launches are sized by */
} gcbench_plugin_plan;

/* The device path, in the shape of CUB's and nvCOMP's calls: query the temporary storage
 * and the largest output, then enqueue the work on caller-owned device buffers. */
typedef struct gcbench_plugin_gpu {
  uint64_t (*max_compressed_size)(const int64_t* params, uint64_t input_size);
  size_t (*compress_temp_bytes)(const int64_t* params, uint64_t input_size);
  /* Writes the container to `output` and its size to *output_size (device memory). */
  int (*compress_async)(const int64_t* params, const uint8_t* input, uint64_t input_size,
                        void* temp, size_t temp_bytes, uint8_t* output, uint64_t* output_size,
                        void* stream, char* message, size_t message_capacity);
  /* From the container's bytes in host memory (metadata only): the plan gcbench sizes the
   * output (held to its decode limit) and the temporary storage by. */
  int (*plan_decompress)(const int64_t* params, const uint8_t* container, uint64_t container_size,
                         gcbench_plugin_plan* plan, char* message, size_t message_capacity);
  /* Decodes the planned container, now in device memory, into plan->decompressed_size bytes
   * of `output`, and sets *status (device memory) whatever happens. */
  int (*decompress_async)(const int64_t* params, const gcbench_plugin_plan* plan,
                          const uint8_t* container, uint64_t container_size, void* temp,
                          size_t temp_bytes, uint8_t* output, gcbench_plugin_device_status* status,
                          void* stream, char* message, size_t message_capacity);
} gcbench_plugin_gpu;

typedef struct gcbench_plugin {
  uint32_t abi_version; /* GCBENCH_PLUGIN_ABI_VERSION */
  const char* name;     /* the codec's name: [a-z0-9_-]+, not a built-in codec's */
  const char* version;
  const char* description;
  const gcbench_plugin_axis* axes;
  size_t axis_count;
  const gcbench_plugin_cpu* cpu; /* NULL when there is no host path */
  const gcbench_plugin_gpu* gpu; /* NULL when there is no device path */
  /* Nonzero when the GPU path writes the CPU path's bytes at the same in-container axes. */
  int gpu_matches_cpu;
} gcbench_plugin;

typedef const gcbench_plugin* (*gcbench_plugin_entry_fn)(void);

#if defined(__GNUC__)
#define GCBENCH_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define GCBENCH_PLUGIN_EXPORT
#endif

/* The one symbol a plugin exports (visible even where the library hides the rest). */
GCBENCH_PLUGIN_EXPORT const gcbench_plugin* gcbench_plugin_entry(void);

#ifdef __cplusplus
}
#endif

#endif /* GCBENCH_PLUGIN_H */
