// analyse_fetched(): the analysis of a matrix read through a CsrFetcher (as a
// plan of a matrix on the device reads it) gives exactly analyse()'s
// statistics, and copies back a small part of a large matrix in three reads.
#include <gtest/gtest.h>

#include <tuple>

#include "core/row_source.hpp"
#include "select/features.hpp"
#include "spmv/error.hpp"
#include "spmv/gen.hpp"
#include "spmv/stats.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

// A fetcher over a host Csr that counts what it copies, as the device's does.
class CountingFetcher final : public detail::CsrFetcher<double> {
 public:
  explicit CountingFetcher(const Csr<double>& a) : a_(a) {}
  index_t rows() const override { return a_.rows; }
  index_t cols() const override { return a_.cols; }
  index_t nnz() const override { return a_.nnz(); }
  std::vector<index_t> row_pointers_every(index_t stride) override {
    ++reads;
    std::vector<index_t> starts;
    for (std::int64_t r = 0; r < a_.rows; r += stride) starts.push_back(a_.row_ptr[r]);
    starts.push_back(a_.row_ptr[a_.rows]);
    pointers_read += starts.size();
    return starts;
  }
  std::vector<index_t> row_pointers(const std::vector<detail::RowRange>& ranges) override {
    ++reads;
    std::vector<index_t> read;
    for (const detail::RowRange& range : ranges) {
      EXPECT_LE(0, range.begin);
      EXPECT_LE(range.begin, range.end);
      EXPECT_LE(range.end, a_.rows);
      read.insert(read.end(), a_.row_ptr.begin() + range.begin, a_.row_ptr.begin() + range.end + 1);
    }
    pointers_read += read.size();
    return read;
  }
  void entries(const std::vector<EntryRange>& ranges, std::vector<index_t>& col_idx,
               std::vector<double>& values) override {
    ++reads;
    for (const EntryRange& range : ranges) {
      EXPECT_LE(0, range.first);
      EXPECT_LE(range.first, range.end);
      EXPECT_LE(range.end, a_.nnz());
      col_idx.insert(col_idx.end(), a_.col_idx.begin() + range.first, a_.col_idx.begin() + range.end);
      values.insert(values.end(), a_.values.begin() + range.first, a_.values.begin() + range.end);
      entries_read += static_cast<std::size_t>(range.end - range.first);
    }
  }

  int reads = 0;
  std::size_t pointers_read = 0;
  std::size_t entries_read = 0;

 private:
  const Csr<double>& a_;
};

// Options that read every row and entry, the selector's (which sample a large
// matrix), and small samples of rows and of entries.
std::vector<StatsOptions> options_for(const Csr<double>& a) {
  StatsOptions whole;
  whole.symmetry = false;
  StatsOptions small_samples = whole;
  small_samples.sample_rows = 4096;
  small_samples.sample_nonzeros = 2000;
  small_samples.distinct_value_limit = 16;
  return {whole, detail::selector_stats_options(a.nnz()), small_samples};
}

void expect_fetched_analysis_is_analyse(const Csr<double>& a, const std::string& name) {
  for (const StatsOptions& options : options_for(a)) {
    CountingFetcher fetcher(a);
    test::expect_same_stats(detail::analyse_fetched(fetcher, options), analyse(a, options), name);
  }
}

TEST(StatsFetched, ZooMatricesGiveAnalysesStatistics) {
  for (const test::ZooMatrix& z : test::matrix_zoo()) expect_fetched_analysis_is_analyse(z.matrix, z.name);
}

TEST(StatsFetched, SampledLargeMatricesGiveAnalysesStatistics) {
  expect_fetched_analysis_is_analyse(gen_stencil_3d(60, 60, 60, 27), "stencil27 60^3");
  expect_fetched_analysis_is_analyse(gen_stencil_2d_5pt(700, 700), "stencil5 700^2");
  expect_fetched_analysis_is_analyse(gen_few_huge_rows(400000, 400000, 4, 16, 20000, 3), "few huge rows");
  expect_fetched_analysis_is_analyse(gen_rmat(17, 8, 0.57, 0.19, 0.19, 5), "R-MAT 17");
  expect_fetched_analysis_is_analyse(gen_uniform_random(300000, 1000, 1, 9), "one entry a row");
  expect_fetched_analysis_is_analyse(gen_wide_lp(200, 2000000, 5000, 4), "few long rows");
}

// A hub as the first row and a budget of one run: the run begins after it,
// found by reading the rows' pointers block by block.
TEST(StatsFetched, ASampleWhoseOnlyRunBeginsWithAHub) {
  std::vector<std::tuple<index_t, index_t, double>> entries;
  for (index_t c = 0; c < 5000; ++c) entries.emplace_back(0, c, 1.0);
  for (index_t r = 1; r < 10000; ++r) {
    entries.emplace_back(r, r % 97, 2.0);
    entries.emplace_back(r, 5000 + r, 3.0);
  }
  const Csr<double> a = test::from_triplets(10000, 20000, entries);
  StatsOptions one_run;
  one_run.symmetry = false;
  one_run.sample_nonzeros = 1;
  CountingFetcher fetcher(a);
  const MatrixStats fetched = detail::analyse_fetched(fetcher, one_run);
  test::expect_same_stats(fetched, analyse(a, one_run), "hub first");
  EXPECT_EQ(fetched.sampled_rows, 7);
}

// The selector's analysis of a large matrix copies back its row pointers
// every 1024 rows and the rows its samples read: a few percent of the
// matrix, in three reads (each a round trip to the device).
TEST(StatsFetched, ALargeMatrixIsReadInThreeSmallReads) {
  const Csr<double> a = gen_stencil_3d(100, 100, 100, 27);  // 1M rows, 26.5M entries
  CountingFetcher fetcher(a);
  const MatrixStats stats = detail::analyse_fetched(fetcher, detail::selector_stats_options(a.nnz()));
  EXPECT_EQ(fetcher.reads, 3);
  EXPECT_LT(fetcher.pointers_read, a.row_ptr.size() / 4);
  EXPECT_LE(fetcher.entries_read, static_cast<std::size_t>(2 * stats.sampled_nnz));
  const std::size_t matrix_bytes = a.row_ptr.size() * 4 + static_cast<std::size_t>(a.nnz()) * 12;
  const std::size_t read_bytes = fetcher.pointers_read * 4 + fetcher.entries_read * 12;
  EXPECT_LT(read_bytes, matrix_bytes / 50);
}

TEST(StatsFetched, TheSymmetryCheckIsRefused) {
  const Csr<double> a = gen_stencil_2d_5pt(10, 10);
  CountingFetcher fetcher(a);
  StatsOptions options;  // symmetry on
  EXPECT_THROW(detail::analyse_fetched(fetcher, options), InvalidArgument);
}

}  // namespace
}  // namespace spmv
