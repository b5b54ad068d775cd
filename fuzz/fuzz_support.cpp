#include "fuzz_support.hpp"

#include <sanitizer/allocator_interface.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "spmv/error.hpp"

namespace spmv::fuzz {

namespace {

// Heap accounting through the sanitizer's allocator hooks (they also see the
// OpenMP threads of the binary reader).
std::atomic<std::size_t> heap_bytes{0};
std::atomic<std::size_t> heap_peak{0};

void on_allocation(const volatile void*, std::size_t size) {
  const std::size_t now = heap_bytes.fetch_add(size) + size;
  std::size_t peak = heap_peak.load();
  while (now > peak && !heap_peak.compare_exchange_weak(peak, now)) {
  }
}

void on_release(const volatile void* pointer) {
  void* p = const_cast<void*>(pointer);
  if (p != nullptr && __sanitizer_get_ownership(p)) heap_bytes.fetch_sub(__sanitizer_get_allocated_size(p));
}

const bool hooks_installed = __sanitizer_install_malloc_and_free_hooks(on_allocation, on_release) != 0;

// Heap growth above the level at construction, at its peak.
class HeapWatch {
 public:
  HeapWatch() : start_(heap_bytes.load()) { heap_peak.store(start_); }
  std::size_t peak_growth() const { return heap_peak.load() - start_; }

 private:
  std::size_t start_;
};

}  // namespace

void fail(const std::string& problem) {
  std::fprintf(stderr, "fuzz harness: %s\n", problem.c_str());
  std::abort();
}

std::string write_input(const std::uint8_t* data, std::size_t size, const std::string& extension) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string path = std::string(tmp ? tmp : "/tmp") + "/spmv-fuzz-" + std::to_string(::getpid()) + extension;
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr || std::fwrite(data, 1, size, file) != size || std::fclose(file) != 0)
    fail("cannot write the scratch file " + path);
  return path;
}

std::size_t allowed_heap_growth(std::size_t input_bytes) {
  constexpr std::size_t any_file_bytes = std::size_t{32} << 20;
  return 10 * input_bytes + any_file_bytes;
}

void expect_read_or_refusal(const std::string& path, std::size_t input_bytes, const std::function<void()>& read) {
  if (!hooks_installed) fail("the sanitizer's allocator hooks could not be installed");
  const HeapWatch watch;
  try {
    read();
  } catch (const spmv::Error& e) {
    if (std::string(e.what()).find(path) == std::string::npos)
      fail(std::string("the error does not name the file: ") + e.what());
  } catch (const std::exception& e) {
    fail(std::string("not an spmv::Error: ") + e.what());
  }
  // SPMV_FUZZ_HEAP_REPORT=1: print each read's peak heap growth (how the
  // readers' memory on large files in fuzz/README.md was measured).
  if (std::getenv("SPMV_FUZZ_HEAP_REPORT") != nullptr)
    std::fprintf(stderr, "fuzz harness: a read of %zu bytes grew the heap by %zu bytes (%.2f per input byte)\n",
                 input_bytes, watch.peak_growth(), static_cast<double>(watch.peak_growth()) / input_bytes);
  if (watch.peak_growth() > allowed_heap_growth(input_bytes))
    fail("a read of " + std::to_string(input_bytes) + " bytes grew the heap by " +
         std::to_string(watch.peak_growth()) + " bytes, more than the " +
         std::to_string(allowed_heap_growth(input_bytes)) + " allowed");
}

}  // namespace spmv::fuzz
