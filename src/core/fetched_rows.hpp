// The rows of a matrix that analyse_fetched() reads, copied back through a
// CsrFetcher as the analysis asks for them and kept until it ends.
#pragma once

#include <deque>
#include <vector>

#include "core/row_source.hpp"
#include "spmv/stats.hpp"

namespace spmv::detail {

template <class T>
class FetchedRows {
 public:
  using value_type = T;
  explicit FetchedRows(CsrFetcher<T>& fetcher) : fetcher_(fetcher) {}

  index_t rows() const { return fetcher_.rows(); }
  index_t cols() const { return fetcher_.cols(); }
  index_t nnz() const { return fetcher_.nnz(); }
  std::vector<index_t> row_pointers_every(index_t stride) { return fetcher_.row_pointers_every(stride); }
  // Copies back the row pointers of rows [begin, end] of each range not read before.
  void read_row_pointers(const std::vector<RowRange>& ranges);
  // Copies back the entries of each range's rows, whose row pointers were read.
  void read_entries(const std::vector<RowRange>& ranges);
  // The rows of `range`, which were read: with their entries where those were read.
  RowSpan<T> span(RowRange range) const;
  // The caller checks the columns where the matrix is (analyse_fetched).
  void check_entries(const std::vector<RowRange>&) const {}
  // Throws InvalidArgument: the check reads any row's mirror.
  void fill_symmetry(MatrixStats&, const std::vector<RowRange>&) const;

 private:
  const RowSpan<T>* holding(const std::vector<RowSpan<T>>& spans, RowRange range) const;

  CsrFetcher<T>& fetcher_;
  // What each read copied back, where the spans point (a deque keeps them in place).
  std::deque<std::vector<index_t>> indices_;
  std::deque<std::vector<T>> values_;
  std::vector<RowSpan<T>> pointer_spans_;  // rows whose pointers were read
  std::vector<RowSpan<T>> entry_spans_;    // rows whose entries were read too
};

}  // namespace spmv::detail
