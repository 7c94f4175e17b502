#pragma once
// Host memory per cell (issue 62): the heap bytes live at any moment, counted by the gcbench
// program's own malloc family (programs/gcbench/heap_hooks.cpp, linked into the program alone,
// not into the tests or a sanitizer build, whose allocator is the sanitizer's). A cell records the peak of
// live heap bytes during its timed calls above what was live when it began: the buffers the
// harness gives the codec and what the codec allocates itself, whatever thread allocates.
// Not seen: memory mapped directly (a file's mapping, pinned or device memory, a library's own
// mmap), and the allocator's overhead.
#include <cstdint>
#include <optional>

namespace gcbench::driver::heap_meter {

// Whether this process counts its heap (the program; not the tests, not a sanitizer build).
bool active();
// Heap bytes live now.
std::uint64_t live_bytes();
// Starts a new peak at the bytes live now.
void reset_peak();
// The most heap bytes live since the last reset_peak.
std::uint64_t peak_bytes();

}  // namespace gcbench::driver::heap_meter
