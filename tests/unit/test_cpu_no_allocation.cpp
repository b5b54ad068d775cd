// Operators allocate in plan() only: apply, apply_transposed and spmm of the
// host backends must not allocate. Counted by replacing the global operator
// new of this test program (it still allocates through malloc).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "spmv/operator.hpp"
#include "test_support.hpp"

namespace {
std::atomic<long> allocations{0};
}

// Every form that the replaced delete frees must come from malloc: the
// nothrow form too (std::stable_sort's buffer), else AddressSanitizer reports
// an alloc-dealloc mismatch.
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(bytes ? bytes : 1);
}
void* operator new(std::size_t bytes) {
  if (void* p = operator new(bytes, std::nothrow)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace spmv {
namespace {

// Runs every product once and returns how many allocations they made.
long allocations_of_products(Operator<double>& op, index_t k) {
  const auto a_rows = static_cast<std::size_t>(op.rows()),
             a_cols = static_cast<std::size_t>(op.cols());
  std::vector<double> x(a_cols * k, 0.5), y(a_rows * k, 0.0), xt(a_rows, 0.25), yt(a_cols, 0.0);
  const long before = allocations.load();
  op.apply(x.data(), y.data(), 1.0, 0.0);
  op.apply(x.data(), y.data(), 2.0, 0.5);
  op.apply_transposed(xt.data(), yt.data(), 1.0, 0.0);
  op.spmm(x.data(), y.data(), k, Layout::row_major, 1.0, 0.0);
  op.spmm(x.data(), y.data(), k, Layout::col_major, 1.0, 0.5);
  return allocations.load() - before;
}

TEST(HostBackendAllocation, CpuProductsDoNotAllocate) {
  for (const auto& [name, a] : test::matrix_zoo()) {
    for (bool explicit_transpose : {false, true}) {
      PlanOptions options;
      options.backend = Backend::cpu;
      options.explicit_transpose = explicit_transpose;
      auto op = plan(a, options);
      EXPECT_EQ(allocations_of_products(*op, 5), 0)
          << name << (explicit_transpose ? " with explicit A^T" : "");
    }
  }
}

// A reordered operator (PlanOptions::reordering) gathers and scatters
// through buffers made at plan; only SpMM grows them, on its first call with
// a larger k.
TEST(HostBackendAllocation, ReorderedCpuProductsAllocateOnlyWhenSpmmGrowsItsScratch) {
  for (const auto& [name, a] : test::matrix_zoo()) {
    if (a.rows != a.cols) continue;
    for (Reordering reordering : {Reordering::rcm, Reordering::amd, Reordering::bro_aware}) {
      PlanOptions options;
      options.backend = Backend::cpu;
      options.reordering = reordering;
      auto op = plan(a, options);
      std::vector<double> x(a.cols, 0.5), y(a.rows, 0.0);
      const long before = allocations.load();
      op->apply(x.data(), y.data(), 1.0, 0.0);
      op->apply(x.data(), y.data(), 2.0, 0.5);
      op->apply_transposed(x.data(), y.data(), 1.0, 0.5);
      EXPECT_EQ(allocations.load() - before, 0) << name << ", " << to_string(reordering);
      allocations_of_products(*op, 5);  // grows the SpMM scratch
      EXPECT_EQ(allocations_of_products(*op, 5), 0) << name << ", " << to_string(reordering);
      EXPECT_EQ(allocations_of_products(*op, 2), 0) << name << ", " << to_string(reordering);
    }
  }
}

TEST(HostBackendAllocation, ReferenceAllocatesOnlyWhenSpmmGrowsItsScratch) {
  for (const auto& [name, a] : test::matrix_zoo()) {
    PlanOptions options;
    options.backend = Backend::reference;
    auto op = plan(a, options);
    const long first = allocations_of_products(*op, 4);  // the first k = 4 grows the scratch
    if (a.rows > 0) EXPECT_GT(first, 0) << name;
    EXPECT_EQ(allocations_of_products(*op, 4), 0) << name;
    EXPECT_EQ(allocations_of_products(*op, 2), 0) << name;
  }
}

}  // namespace
}  // namespace spmv
