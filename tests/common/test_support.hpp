// Helpers shared by the unit and GPU tests: data paths, the matrix zoo,
// random operands, the GPU-or-skip rule and the reference comparison.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "spmv/error.hpp"
#include "spmv/matrix.hpp"
#include "spmv/operator.hpp"
#include "spmv/stats.hpp"

namespace spmv::test {

// ../shared/data beside the checkout, or $SPMV_SHARED_DATA when set.
std::string shared_data_dir();
// All *.mtx.gz files in shared_data_dir()/matrices, sorted; empty when absent.
// With SPMV_TEST_MATRIX_STRIDE=k (k > 1), every k-th of them (sanitizer runs).
std::vector<std::string> real_matrix_files();
// The directory of this source tree (for data/ and the CLI path).
std::string source_dir();
std::string cli_path();
// A fresh empty directory under the system temp dir, removed at exit.
std::string temp_dir();
// Options of a cuda plan for an H100-like described device (132 SMs, 50 MiB
// of L2, 3000 GB/s), so that cuda plans are made on machines without a GPU.
PlanOptions described_h100();
// The message of the InvalidArgument `f` throws; a test failure (and "")
// when it throws none.
std::string invalid_argument_of(const std::function<void()>& f);

// Canonical Csr from 0-based (row, column, value) triplets, duplicates summed.
Csr<double> from_triplets(index_t rows, index_t cols,
                          const std::vector<std::tuple<index_t, index_t, double>>& entries);
// The square `a` with its rows and columns in one random order (P A P^T, a
// mesh numbered badly), the order drawn from `seed` by Fisher-Yates on
// std::mt19937 (the same on every platform). The generators' `shuffle`
// moves the rows only.
Csr<double> symmetrically_shuffled(const Csr<double>& a, unsigned seed);

struct ZooMatrix {
  std::string name;
  Csr<double> matrix;
};
// Small matrices covering the shapes every kernel must handle: empty, 0 x n,
// n x 0, empty rows, one huge row, diagonal, banded, power-law, wide, tall,
// duplicates/unsorted input canonicalised, a dense block.
std::vector<ZooMatrix> matrix_zoo();
// The zoo and the real matrices of real_matrix_files() (named by file) with
// at most `max_nnz` entries: what the device builds are compared on.
std::vector<ZooMatrix> zoo_and_real_matrices(std::int64_t max_nnz);

// Deterministic, non-periodic values in [-1, 1] away from zero.
template <class T>
std::vector<T> random_vector(std::size_t n, std::uint64_t seed);

// A kernel of the catalogue with one parameter set, as the GPU tests run it.
struct KernelCase {
  Backend backend;
  std::string kernel;
  KernelParams params;
  std::string describe() const;  // "name p=v ..."
};
using KernelVariants = std::map<std::string, std::vector<KernelParams>>;
// One case per parameter set of each catalogue kernel that `select` keeps:
// its listed variants (with its defaults first when `defaults_beside_variants`),
// or its defaults alone when it has none listed.
std::vector<KernelCase> kernel_cases(const std::function<bool(const KernelInfo&)>& select,
                                     const KernelVariants& variants, bool defaults_beside_variants);
// The kernels of `cases`, each once, in order: the parameter of tests that run
// one kernel's cases each (so that a kernel's cases can run apart from the
// others', e.g. one process each under compute-sanitizer).
std::vector<std::string> kernels_of(const std::vector<KernelCase>& cases);
std::vector<KernelCase> cases_of(const std::vector<KernelCase>& cases, const std::string& kernel);
// A kernel's name as a gtest parameter name ("csr-vector" -> "csr_vector").
std::string test_name_of_kernel(const ::testing::TestParamInfo<std::string>& info);

// The operator of `c` on `a`, or null when the kernel's format refused the
// matrix (FormatLimitError: padding beyond its limit), which is allowed if
// the refusal says what to use instead (checked here).
template <class T>
std::unique_ptr<Operator<T>> plan_case(const Csr<T>& a, const KernelCase& c) {
  PlanOptions options;
  options.backend = c.backend;
  options.kernel = c.kernel;
  options.params = c.params;
  try {
    return plan(a, options);
  } catch (const FormatLimitError& refusal) {
    EXPECT_NE(std::string(refusal.what()).find(": use "), std::string::npos) << refusal.what();
    return nullptr;
  }
}

// Every field of two analyses equal (symmetry aside), traced with `name`.
void expect_same_stats(const MatrixStats& got, const MatrixStats& expected, const std::string& name);

// true when SPMV_REQUIRE_GPU=1 is set.
bool gpu_required();

// Compares y with the reference of y = alpha A x + beta y0 (per-row
// tolerance of verify.hpp); returns a gtest assertion result.
template <class T>
::testing::AssertionResult matches_reference_spmv(const Csr<T>& a, const std::vector<T>& x,
                                                  const std::vector<T>& y0, T alpha, T beta,
                                                  const std::vector<T>& y);
template <class T>
::testing::AssertionResult matches_reference_spmv_transposed(const Csr<T>& a, const std::vector<T>& x,
                                                             const std::vector<T>& y0, T alpha,
                                                             T beta, const std::vector<T>& y);
template <class T>
::testing::AssertionResult matches_reference_spmm(const Csr<T>& a, const std::vector<T>& b,
                                                  const std::vector<T>& c0, index_t k,
                                                  Layout layout, T alpha, T beta,
                                                  const std::vector<T>& c);

}  // namespace spmv::test

// Put first in every GPU test: skips without a device, fails instead when
// SPMV_REQUIRE_GPU=1 so that a skip cannot pass for a success.
#define SPMV_GPU_TEST_PRELUDE()                                                      \
  do {                                                                               \
    if (!::spmv::cuda_available()) {                                                 \
      if (::spmv::test::gpu_required()) FAIL() << "SPMV_REQUIRE_GPU=1 but no CUDA device (or no CUDA build)"; \
      GTEST_SKIP() << "no CUDA device (or no CUDA build); set SPMV_REQUIRE_GPU=1 to fail instead"; \
    }                                                                                \
  } while (0)
