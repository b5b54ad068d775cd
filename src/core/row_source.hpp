// What analyse() reads of a matrix, and from where. The analysis reads row
// pointers at every 1024th row, then some runs of rows whole; a host Csr
// holds all of them, a matrix on the device is read through a CsrFetcher,
// which copies back only those rows (FetchedRows), so that planning a
// device-resident matrix never copies the matrix back.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "core/row_range.hpp"
#include "spmv/matrix.hpp"
#include "spmv/stats.hpp"

namespace spmv::detail {

// A run of rows as the analysis reads them: the row pointers of rows
// [rows.begin, rows.end] (offsets into the whole matrix's entries) and,
// where they were read, the entries of those rows.
template <class T>
struct RowSpan {
  RowRange rows;
  const index_t* row_ptr = nullptr;  // row_ptr[r - rows.begin] is row r's first entry
  const index_t* col_idx = nullptr;  // the rows' entries from row_ptr[0] on; null when not read
  const T* values = nullptr;

  index_t start(index_t r) const { return row_ptr[r - rows.begin]; }
  index_t length(index_t r) const { return start(r + 1) - start(r); }
  index_t entries() const { return start(rows.end) - start(rows.begin); }
  const index_t* columns(index_t r) const { return col_idx + (start(r) - row_ptr[0]); }
  const T* row_values(index_t r) const { return values + (start(r) - row_ptr[0]); }
};

// Where the entries of a matrix lie that the analysis cannot read directly.
template <class T>
class CsrFetcher {
 public:
  virtual ~CsrFetcher() = default;
  virtual index_t rows() const = 0;
  virtual index_t cols() const = 0;
  virtual index_t nnz() const = 0;
  // row_ptr[0], row_ptr[stride], row_ptr[2 * stride], ..., then row_ptr[rows].
  virtual std::vector<index_t> row_pointers_every(index_t stride) = 0;
  // row_ptr[begin..end] (end included) of each range, one after another.
  virtual std::vector<index_t> row_pointers(const std::vector<RowRange>& ranges) = 0;
  // The entries [first, end) of each range of entries, one after another.
  struct EntryRange {
    index_t first = 0;
    index_t end = 0;
  };
  virtual void entries(const std::vector<EntryRange>& ranges, std::vector<index_t>& col_idx,
                       std::vector<T>& values) = 0;
};

// analyse() of the matrix `fetcher` reads, with what it copies back bounded
// by the options' samples: the row pointers every 1024 rows, the rows the
// samples read and their entries (options.sample_rows and sample_nonzeros
// above 0 keep it small; 0 reads every row or entry). Gives the same
// statistics as analyse() of the matrix on the host. The row pointers must
// be valid and the columns are not checked (the caller checks them where
// they are); options.symmetry must be false (the check reads any row).
template <class T>
MatrixStats analyse_fetched(CsrFetcher<T>& fetcher, const StatsOptions& options);

}  // namespace spmv::detail
