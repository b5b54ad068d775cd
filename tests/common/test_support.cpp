#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <random>

#include "spmv/io.hpp"
#include "spmv/reference.hpp"
#include "spmv/reorder.hpp"
#include "spmv/verify.hpp"

namespace fs = std::filesystem;

namespace spmv::test {

std::string source_dir() { return SPMV_SOURCE_DIR; }
// $SPMV_CLI overrides the build's path, for a build carried to another machine.
std::string cli_path() {
  const char* env = std::getenv("SPMV_CLI");
  return env != nullptr && *env != '\0' ? env : SPMV_CLI_PATH;
}

std::string shared_data_dir() {
  if (const char* env = std::getenv("SPMV_SHARED_DATA")) return env;
  return (fs::path(SPMV_SOURCE_DIR).parent_path() / "shared" / "data").string();
}

std::vector<std::string> real_matrix_files() {
  std::vector<std::string> files;
  const fs::path dir = fs::path(shared_data_dir()) / "matrices";
  if (!fs::is_directory(dir)) return files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 7 && name.compare(name.size() - 7, 7, ".mtx.gz") == 0)
      files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  // Under compute-sanitizer kernels run 10-100x slower: SPMV_TEST_MATRIX_STRIDE=k
  // keeps every k-th file, so that the tests over the real matrices finish there.
  const char* stride_text = std::getenv("SPMV_TEST_MATRIX_STRIDE");
  const long stride = stride_text != nullptr ? std::strtol(stride_text, nullptr, 10) : 1;
  if (stride > 1) {
    std::vector<std::string> kept;
    for (std::size_t i = 0; i < files.size(); i += static_cast<std::size_t>(stride)) kept.push_back(files[i]);
    files = std::move(kept);
  }
  return files;
}

std::string invalid_argument_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted";
  return {};
}

std::string temp_dir() {
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() /
                       ("spmv-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

PlanOptions described_h100() {
  PlanOptions options;
  options.backend = Backend::cuda;
  options.target_device = DeviceProperties{"test H100", 132, std::size_t(50) << 20, 3000.0};
  return options;
}

std::string KernelCase::describe() const {
  std::string text = kernel;
  for (const auto& [name, value] : params) text += " " + name + "=" + std::to_string(value);
  return text;
}

std::vector<KernelCase> kernel_cases(const std::function<bool(const KernelInfo&)>& select,
                                     const KernelVariants& variants, bool defaults_beside_variants) {
  std::vector<KernelCase> cases;
  for (const KernelInfo& info : kernel_catalogue()) {
    if (!select(info)) continue;
    const auto found = variants.find(info.name);
    if (found == variants.end() || defaults_beside_variants) cases.push_back({info.backend, info.name, {}});
    if (found != variants.end())
      for (const KernelParams& params : found->second) cases.push_back({info.backend, info.name, params});
  }
  return cases;
}

std::vector<std::string> kernels_of(const std::vector<KernelCase>& cases) {
  std::vector<std::string> kernels;
  for (const KernelCase& c : cases)
    if (std::find(kernels.begin(), kernels.end(), c.kernel) == kernels.end()) kernels.push_back(c.kernel);
  return kernels;
}

std::vector<KernelCase> cases_of(const std::vector<KernelCase>& cases, const std::string& kernel) {
  std::vector<KernelCase> kept;
  for (const KernelCase& c : cases)
    if (c.kernel == kernel) kept.push_back(c);
  return kept;
}

std::string test_name_of_kernel(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

bool gpu_required() {
  const char* env = std::getenv("SPMV_REQUIRE_GPU");
  return env != nullptr && std::string(env) == "1";
}

template <class T>
std::vector<T> random_vector(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 12345);
  std::uniform_real_distribution<double> magnitude(0.1, 1.0);
  std::vector<T> v(n);
  for (auto& value : v) value = static_cast<T>((rng() & 1) ? magnitude(rng) : -magnitude(rng));
  return v;
}
template std::vector<float> random_vector(std::size_t, std::uint64_t);
template std::vector<double> random_vector(std::size_t, std::uint64_t);

Csr<double> from_triplets(index_t rows, index_t cols,
                          const std::vector<std::tuple<index_t, index_t, double>>& entries) {
  Coo<double> coo;
  coo.rows = rows;
  coo.cols = cols;
  for (const auto& [r, c, v] : entries) coo.push(r, c, v);
  return to_csr(coo);
}

Csr<double> symmetrically_shuffled(const Csr<double>& a, unsigned seed) {
  std::vector<index_t> order(static_cast<std::size_t>(a.rows));
  std::iota(order.begin(), order.end(), index_t{0});
  std::mt19937 rng(seed);
  for (index_t i = a.rows - 1; i > 0; --i) std::swap(order[i], order[rng() % static_cast<unsigned>(i + 1)]);
  return reorder(a, MatrixOrdering{Reordering::none, order, order, 0.0});
}

namespace {

// Fills rows with `length(r)` entries at pseudo-random distinct columns.
template <class Length>
Csr<double> random_rows(index_t rows, index_t cols, std::uint64_t seed, Length length) {
  std::mt19937_64 rng(seed);
  Coo<double> coo;
  coo.rows = rows;
  coo.cols = cols;
  std::vector<index_t> picked;
  for (index_t r = 0; r < rows; ++r) {
    const index_t n = std::min<index_t>(length(r, rng), cols);
    picked.clear();
    while (static_cast<index_t>(picked.size()) < n) {
      const index_t c = static_cast<index_t>(rng() % cols);
      if (std::find(picked.begin(), picked.end(), c) == picked.end()) picked.push_back(c);
    }
    for (index_t c : picked) coo.push(r, c, (rng() % 2000) / 1000.0 - 1.0 + 1e-3);
  }
  return to_csr(coo);
}

}  // namespace

std::vector<ZooMatrix> matrix_zoo() {
  std::vector<ZooMatrix> zoo;
  zoo.push_back({"empty_0x0", Csr<double>{}});
  zoo.push_back({"zero_rows_0x7", from_triplets(0, 7, {})});
  zoo.push_back({"zero_cols_5x0", from_triplets(5, 0, {})});
  zoo.push_back({"all_empty_rows_6x4", from_triplets(6, 4, {})});
  zoo.push_back({"single_1x1", from_triplets(1, 1, {{0, 0, 2.5}})});
  zoo.push_back({"row_vector_1x300", random_rows(1, 300, 1, [](index_t, auto&) { return 200; })});
  zoo.push_back({"col_vector_300x1", random_rows(300, 1, 2, [](index_t r, auto&) { return r % 3 ? 1 : 0; })});
  {
    std::vector<std::tuple<index_t, index_t, double>> diag;
    for (index_t i = 0; i < 1000; ++i) diag.emplace_back(i, i, 1.0 + i * 1e-3);
    zoo.push_back({"diagonal_1000", from_triplets(1000, 1000, diag)});
  }
  {
    std::vector<std::tuple<index_t, index_t, double>> band;
    for (index_t i = 0; i < 2000; ++i)
      for (index_t d = -3; d <= 3; ++d)
        if (i + d >= 0 && i + d < 2000) band.emplace_back(i, i + d, d == 0 ? 4.0 : -0.5 + d * 0.01);
    zoo.push_back({"banded_2000_bw3", from_triplets(2000, 2000, band)});
  }
  zoo.push_back({"empty_rows_mixed_1500", random_rows(1500, 1500, 3, [](index_t r, auto& rng) {
                   return r % 4 == 0 ? 0 : static_cast<index_t>(rng() % 9);
                 })});
  zoo.push_back({"one_huge_row_3000", random_rows(3000, 3000, 4, [](index_t r, auto& rng) {
                   return r == 1234 ? 2900 : static_cast<index_t>(1 + rng() % 4);
                 })});
  zoo.push_back({"power_law_4000", random_rows(4000, 4000, 5, [](index_t, auto& rng) {
                   // Pareto-like lengths: many short rows, a few of hundreds.
                   const double u = (rng() % 1000000 + 1) / 1000001.0;
                   return static_cast<index_t>(std::min(2000.0, 1.0 / std::pow(u, 0.9)));
                 })});
  zoo.push_back({"wide_50x20000", random_rows(50, 20000, 6, [](index_t, auto& rng) {
                   return static_cast<index_t>(100 + rng() % 400);
                 })});
  zoo.push_back({"tall_20000x40", random_rows(20000, 40, 7, [](index_t, auto& rng) {
                   return static_cast<index_t>(rng() % 6);
                 })});
  zoo.push_back({"dense_block_64x64", random_rows(64, 64, 8, [](index_t, auto&) { return 64; })});
  {
    // Unsorted input with duplicates: canonicalised by to_csr (duplicates summed).
    zoo.push_back({"duplicates_unsorted_4x5",
                   from_triplets(4, 5, {{3, 4, 1.0}, {0, 2, 2.0}, {0, 2, 0.5}, {2, 0, -1.0},
                                        {0, 0, 3.0}, {3, 1, 4.0}, {3, 4, 0.25}, {1, 3, 0.0}})});
  }
  zoo.push_back({"long_rows_700x5000", random_rows(700, 5000, 9, [](index_t r, auto& rng) {
                   return static_cast<index_t>(r % 7 == 0 ? 1500 + rng() % 500 : 30 + rng() % 70);
                 })});
  return zoo;
}

std::vector<ZooMatrix> zoo_and_real_matrices(std::int64_t max_nnz) {
  std::vector<ZooMatrix> matrices = matrix_zoo();
  for (const std::string& file : real_matrix_files()) {
    Csr<double> a = read_matrix<double>(file);
    if (a.nnz() <= max_nnz) matrices.push_back({file.substr(file.find_last_of('/') + 1), std::move(a)});
  }
  return matrices;
}

namespace {

::testing::AssertionResult compare(const std::vector<double>& ref, const std::vector<double>& scale,
                                   const double* y_double, const float* y_float, std::size_t n,
                                   std::size_t max_row_length) {
  const double factor = default_tolerance_factor(max_row_length);
  const VerifyResult r = y_double ? verify(y_double, ref.data(), scale.data(), n, factor)
                                  : verify(y_float, ref.data(), scale.data(), n, factor);
  if (r.ok) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << r.message;
}

template <class T>
::testing::AssertionResult compare_t(const std::vector<double>& ref, const std::vector<double>& scale,
                                     const std::vector<T>& y, std::size_t max_row_length) {
  if (y.size() != ref.size())
    return ::testing::AssertionFailure() << "result has " << y.size() << " entries, expected " << ref.size();
  if constexpr (std::is_same_v<T, double>)
    return compare(ref, scale, y.data(), nullptr, y.size(), max_row_length);
  else
    return compare(ref, scale, nullptr, y.data(), y.size(), max_row_length);
}

template <class T>
std::size_t max_row_length(const Csr<T>& a) {
  std::size_t m = 0;
  for (index_t r = 0; r < a.rows; ++r) m = std::max<std::size_t>(m, a.row_length(r));
  return m;
}

}  // namespace

template <class T>
::testing::AssertionResult matches_reference_spmv(const Csr<T>& a, const std::vector<T>& x,
                                                  const std::vector<T>& y0, T alpha, T beta,
                                                  const std::vector<T>& y) {
  std::vector<double> ref(a.rows), scale(a.rows);
  reference_spmv(a, x.data(), y0.empty() ? nullptr : y0.data(), alpha, beta, ref.data(), scale.data());
  return compare_t(ref, scale, y, max_row_length(a));
}

template <class T>
::testing::AssertionResult matches_reference_spmv_transposed(const Csr<T>& a, const std::vector<T>& x,
                                                             const std::vector<T>& y0, T alpha,
                                                             T beta, const std::vector<T>& y) {
  std::vector<double> ref(a.cols), scale(a.cols);
  reference_spmv_transposed(a, x.data(), y0.empty() ? nullptr : y0.data(), alpha, beta, ref.data(),
                            scale.data());
  return compare_t(ref, scale, y, static_cast<std::size_t>(a.rows));
}

template <class T>
::testing::AssertionResult matches_reference_spmm(const Csr<T>& a, const std::vector<T>& b,
                                                  const std::vector<T>& c0, index_t k,
                                                  Layout layout, T alpha, T beta,
                                                  const std::vector<T>& c) {
  const std::size_t n = static_cast<std::size_t>(a.rows) * k;
  std::vector<double> ref(n), scale(n);
  reference_spmm(a, b.data(), c0.empty() ? nullptr : c0.data(), k, layout, alpha, beta, ref.data(),
                 scale.data());
  return compare_t(ref, scale, c, max_row_length(a));
}

#define SPMV_INSTANTIATE(T)                                                                        \
  template ::testing::AssertionResult matches_reference_spmv(                                      \
      const Csr<T>&, const std::vector<T>&, const std::vector<T>&, T, T, const std::vector<T>&);  \
  template ::testing::AssertionResult matches_reference_spmv_transposed(                           \
      const Csr<T>&, const std::vector<T>&, const std::vector<T>&, T, T, const std::vector<T>&);  \
  template ::testing::AssertionResult matches_reference_spmm(                                      \
      const Csr<T>&, const std::vector<T>&, const std::vector<T>&, index_t, Layout, T, T,          \
      const std::vector<T>&);
SPMV_INSTANTIATE(float)
SPMV_INSTANTIATE(double)
#undef SPMV_INSTANTIATE

void expect_same_stats(const MatrixStats& got, const MatrixStats& expected, const std::string& name) {
  SCOPED_TRACE(name);
  EXPECT_EQ(got.rows, expected.rows);
  EXPECT_EQ(got.cols, expected.cols);
  EXPECT_EQ(got.nnz, expected.nnz);
  EXPECT_EQ(got.row_length.min, expected.row_length.min);
  EXPECT_EQ(got.row_length.max, expected.row_length.max);
  EXPECT_EQ(got.row_length.mean, expected.row_length.mean);
  EXPECT_EQ(got.row_length.std, expected.row_length.std);
  EXPECT_EQ(got.row_length_histogram, expected.row_length_histogram);
  EXPECT_EQ(got.empty_rows, expected.empty_rows);
  EXPECT_EQ(got.lower_bandwidth, expected.lower_bandwidth);
  EXPECT_EQ(got.upper_bandwidth, expected.upper_bandwidth);
  EXPECT_EQ(got.occupied_diagonals, expected.occupied_diagonals);
  EXPECT_EQ(got.ell_padding_ratio, expected.ell_padding_ratio);
  EXPECT_EQ(got.hyb_ell_width, expected.hyb_ell_width);
  EXPECT_EQ(got.hyb_coo_nnz, expected.hyb_coo_nnz);
  ASSERT_EQ(got.block_density.size(), expected.block_density.size());
  for (std::size_t b = 0; b < expected.block_density.size(); ++b) {
    EXPECT_EQ(got.block_density[b].occupied_blocks, expected.block_density[b].occupied_blocks);
    EXPECT_EQ(got.block_density[b].density, expected.block_density[b].density);
  }
  EXPECT_EQ(got.distinct_values, expected.distinct_values);
  EXPECT_EQ(got.sampled_rows, expected.sampled_rows);
  EXPECT_EQ(got.sampled_nnz, expected.sampled_nnz);
  EXPECT_EQ(got.row_length_rows, expected.row_length_rows);
}

}  // namespace spmv::test
