// The gcbench program's malloc family: glibc's own (__libc_malloc and its siblings), counting the
// bytes live and their peak for heap_meter.hpp. Linked into the program alone (a shared
// library's allocations, the codecs', come here too: the program's symbols come first).
#include <malloc.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* p);
}

namespace gcbench::driver::heap_meter {
extern std::atomic<bool> g_active;
extern std::atomic<std::int64_t> g_live;
extern std::atomic<std::int64_t> g_peak;
}  // namespace gcbench::driver::heap_meter

namespace {

namespace meter = gcbench::driver::heap_meter;

[[maybe_unused]] const bool g_activated = [] {
  meter::g_active.store(true);
  return true;
}();

void added(void* p) {
  if (p == nullptr) return;
  const auto size = static_cast<std::int64_t>(malloc_usable_size(p));
  const std::int64_t live = meter::g_live.fetch_add(size, std::memory_order_relaxed) + size;
  std::int64_t peak = meter::g_peak.load(std::memory_order_relaxed);
  while (live > peak &&
         !meter::g_peak.compare_exchange_weak(peak, live, std::memory_order_relaxed)) {
  }
}

void removed(void* p) {
  if (p != nullptr) {
    meter::g_live.fetch_sub(static_cast<std::int64_t>(malloc_usable_size(p)),
                            std::memory_order_relaxed);
  }
}

}  // namespace

extern "C" {

void* malloc(std::size_t size) {
  void* p = __libc_malloc(size);
  added(p);
  return p;
}

void free(void* p) {
  removed(p);
  __libc_free(p);
}

void* calloc(std::size_t count, std::size_t size) {
  void* p = __libc_calloc(count, size);
  added(p);
  return p;
}

void* realloc(void* old, std::size_t size) {
  if (old != nullptr && size == 0) {  // glibc frees it
    free(old);
    return nullptr;
  }
  const std::size_t before = old != nullptr ? malloc_usable_size(old) : 0;
  void* p = __libc_realloc(old, size);
  if (p == nullptr) return nullptr;  // old is still live
  meter::g_live.fetch_sub(static_cast<std::int64_t>(before), std::memory_order_relaxed);
  added(p);
  return p;
}

void* memalign(std::size_t alignment, std::size_t size) {
  void* p = __libc_memalign(alignment, size);
  added(p);
  return p;
}

void* aligned_alloc(std::size_t alignment, std::size_t size) {
  return memalign(alignment, size);
}

void* valloc(std::size_t size) {
  return memalign(static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), size);
}

void* pvalloc(std::size_t size) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return memalign(page, (size + page - 1) / page * page);
}

int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* p = memalign(alignment, size);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}

}  // extern "C"
