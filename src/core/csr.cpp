// Csr/Coo construction, validation and the structural operations of matrix.hpp.
#include <algorithm>
#include <numeric>
#include <string>

#include "core/csr_assembly.hpp"
#include "core/csr_checks.hpp"
#include "core/parallel_from.hpp"
#include "spmv/error.hpp"
#include "spmv/matrix.hpp"

namespace spmv {

void check_index_range(std::int64_t rows, std::int64_t cols, std::int64_t nnz, const char* what) {
  auto refuse = [&](const char* quantity, std::int64_t value) {
    throw SizeError(std::string(what) + ": " + quantity + " " + std::to_string(value) +
                    " exceeds the 32-bit index limit " + std::to_string(max_index));
  };
  if (rows < 0 || cols < 0 || nnz < 0)
    throw InvalidArgument(std::string(what) + ": negative size " + std::to_string(rows) + " x " +
                          std::to_string(cols) + " with " + std::to_string(nnz) + " entries");
  if (rows > max_index) refuse("row count", rows);
  if (cols > max_index) refuse("column count", cols);
  if (nnz > max_index) refuse("non-zero count", nnz);
}

namespace {

std::string entry_name(std::size_t k, index_t r, index_t c) {
  return "entry " + std::to_string(k) + " (row " + std::to_string(r) + ", column " +
         std::to_string(c) + ")";
}

// Sorts each row's entries by column and sums duplicates, compacting in place.
template <class T>
void canonicalise_rows(Csr<T>& a) {
  std::vector<std::pair<index_t, T>> row;
  index_t out = 0;
  index_t begin = 0;
  for (index_t r = 0; r < a.rows; ++r) {
    const index_t end = a.row_ptr[r + 1];
    row.clear();
    bool sorted = true;
    for (index_t k = begin; k < end; ++k) {
      if (k > begin && a.col_idx[k] <= a.col_idx[k - 1]) sorted = false;
      row.emplace_back(a.col_idx[k], a.values[k]);
    }
    if (!sorted)
      std::stable_sort(row.begin(), row.end(),
                       [](const auto& x, const auto& y) { return x.first < y.first; });
    a.row_ptr[r] = out;
    for (std::size_t k = 0; k < row.size(); ++k) {
      if (k > 0 && row[k].first == row[k - 1].first) {
        a.values[out - 1] += row[k].second;
      } else {
        a.col_idx[out] = row[k].first;
        a.values[out] = row[k].second;
        ++out;
      }
    }
    begin = end;
  }
  a.row_ptr[a.rows] = out;
  a.col_idx.resize(out);
  a.values.resize(out);
}

std::vector<index_t> inverse_or_identity(const std::vector<index_t>& new_of, index_t n,
                                         const char* what) {
  std::vector<index_t> old_of(n);
  if (new_of.empty()) {
    std::iota(old_of.begin(), old_of.end(), 0);
    return old_of;
  }
  if (static_cast<index_t>(new_of.size()) != n)
    throw InvalidArgument(std::string(what) + " permutation has " + std::to_string(new_of.size()) +
                          " entries, expected " + std::to_string(n));
  std::vector<char> seen(n, 0);
  for (index_t i = 0; i < n; ++i) {
    const index_t p = new_of[i];
    if (p < 0 || p >= n || seen[p])
      throw InvalidArgument(std::string(what) + " permutation is not a permutation: entry " +
                            std::to_string(i) + " is " + std::to_string(p));
    seen[p] = 1;
    old_of[p] = i;
  }
  return old_of;
}

}  // namespace

namespace detail {

template <class T>
Csr<T> assemble_csr(const Coo<T>& entries, T mirror_sign, const std::string& what) {
  const std::size_t n = entries.row_idx.size();
  check_index_range(entries.rows, entries.cols, static_cast<std::int64_t>(n), what.c_str());  // before allocating
  const bool pattern = entries.values.empty();
  if (entries.col_idx.size() != n || (!pattern && entries.values.size() != n))
    throw InvalidArgument(what + ": row, column and value arrays differ in length (" + std::to_string(n) + ", " +
                          std::to_string(entries.col_idx.size()) + ", " + std::to_string(entries.values.size()) +
                          ")");
  const bool mirrored = mirror_sign != T(0);
  if (mirrored && entries.rows != entries.cols)
    throw InvalidArgument(what + ": a symmetric matrix must be square, the triangle is " +
                          std::to_string(entries.rows) + " x " + std::to_string(entries.cols));
  Csr<T> a;
  a.rows = entries.rows;
  a.cols = entries.cols;
  a.row_ptr.assign(static_cast<std::size_t>(entries.rows) + 1, 0);
  std::int64_t total = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const index_t r = entries.row_idx[k], c = entries.col_idx[k];
    if (r < 0 || r >= entries.rows || c < 0 || c >= entries.cols)
      throw InvalidArgument(what + ": " + entry_name(k, r, c) + " is outside the " + std::to_string(entries.rows) +
                            " x " + std::to_string(entries.cols) + " matrix");
    ++a.row_ptr[r + 1];
    ++total;
    if (mirrored && r != c) {
      ++a.row_ptr[c + 1];
      ++total;
    }
  }
  check_index_range(entries.rows, entries.cols, total, what.c_str());  // with the mirror images
  std::partial_sum(a.row_ptr.begin(), a.row_ptr.end(), a.row_ptr.begin());
  a.col_idx.resize(static_cast<std::size_t>(total));
  a.values.resize(static_cast<std::size_t>(total));
  std::vector<index_t> next(a.row_ptr.begin(), a.row_ptr.end() - 1);
  for (std::size_t k = 0; k < n; ++k) {
    const index_t r = entries.row_idx[k], c = entries.col_idx[k];
    const T value = pattern ? T(1) : entries.values[k];
    const index_t dst = next[r]++;
    a.col_idx[dst] = c;
    a.values[dst] = value;
    if (mirrored && r != c) {
      const index_t mirror = next[c]++;
      a.col_idx[mirror] = r;
      a.values[mirror] = mirror_sign * value;
    }
  }
  canonicalise_rows(a);
  return a;
}

}  // namespace detail

template <class T>
Csr<T> to_csr(const Coo<T>& coo) {
  if (coo.values.size() != coo.row_idx.size())  // a Coo always has its values (assemble_csr allows none)
    throw InvalidArgument("COO matrix: row, column and value arrays differ in length (" +
                          std::to_string(coo.row_idx.size()) + ", " + std::to_string(coo.col_idx.size()) + ", " +
                          std::to_string(coo.values.size()) + ")");
  return detail::assemble_csr(coo, T(0), "COO matrix");
}

template <class T>
Coo<T> to_coo(const Csr<T>& a) {
  Coo<T> coo;
  coo.rows = a.rows;
  coo.cols = a.cols;
  coo.row_idx.resize(a.col_idx.size());
  for (index_t r = 0; r < a.rows; ++r)
    std::fill(coo.row_idx.begin() + a.row_ptr[r], coo.row_idx.begin() + a.row_ptr[r + 1], r);
  coo.col_idx = a.col_idx;
  coo.values = a.values;
  return coo;
}

template <class T>
Csr<T> csr_from_arrays(index_t rows, index_t cols, const std::vector<index_t>& row_ptr,
                       const std::vector<index_t>& col_idx, const std::vector<T>& values) {
  check_index_range(rows, cols, static_cast<std::int64_t>(col_idx.size()), "CSR arrays");
  if (row_ptr.size() != static_cast<std::size_t>(rows) + 1)
    throw InvalidArgument("CSR arrays: row_ptr has " + std::to_string(row_ptr.size()) +
                          " entries, expected rows + 1 = " + std::to_string(rows + 1));
  if (col_idx.size() != values.size())
    throw InvalidArgument("CSR arrays: col_idx has " + std::to_string(col_idx.size()) +
                          " entries but values has " + std::to_string(values.size()));
  if (row_ptr[0] != 0)
    throw InvalidArgument("CSR arrays: row_ptr[0] is " + std::to_string(row_ptr[0]) + ", expected 0");
  for (index_t r = 0; r < rows; ++r)
    if (row_ptr[r + 1] < row_ptr[r])
      throw InvalidArgument("CSR arrays: row_ptr decreases at row " + std::to_string(r) + " (" +
                            std::to_string(row_ptr[r]) + " then " + std::to_string(row_ptr[r + 1]) + ")");
  if (static_cast<std::size_t>(row_ptr[rows]) != col_idx.size())
    throw InvalidArgument("CSR arrays: row_ptr[rows] is " + std::to_string(row_ptr[rows]) +
                          " but there are " + std::to_string(col_idx.size()) + " entries");
  for (index_t r = 0; r < rows; ++r)
    for (index_t k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
      if (col_idx[k] < 0 || col_idx[k] >= cols)
        throw InvalidArgument("CSR arrays: " + entry_name(k, r, col_idx[k]) +
                              " has a column outside [0, " + std::to_string(cols) + ")");
  Csr<T> a;
  a.rows = rows;
  a.cols = cols;
  a.row_ptr = row_ptr;
  a.col_idx = col_idx;
  a.values = values;
  canonicalise_rows(a);
  return a;
}

namespace detail {

template <class T>
void validate_row_pointers(const Csr<T>& a) {
  check_index_range(a.rows, a.cols, static_cast<std::int64_t>(a.col_idx.size()), "CSR matrix");
  if (a.row_ptr.size() != static_cast<std::size_t>(a.rows) + 1 || a.row_ptr[0] != 0 ||
      static_cast<std::size_t>(a.row_ptr[a.rows]) != a.col_idx.size() ||
      a.col_idx.size() != a.values.size())
    throw InvalidArgument("CSR matrix: array sizes are inconsistent");
  // With the row pointers non-decreasing from 0 to nnz, every entry a row
  // names lies inside col_idx, whatever the arrays hold. Checked in parallel
  // (a plan checks every matrix it is given), on one thread for small
  // matrices (parallel_from.hpp); the error names the first bad row, as a
  // serial check would.
  // A branch-free pass first (it vectorises: 4.1 -> 1.3 ms on the 9M rows of
  // the 5-point stencil 3000^2 on two cores), then the first bad row only
  // when there is one.
  const bool in_parallel = a.rows + static_cast<std::int64_t>(a.col_idx.size()) >= detail::parallel_from;
  const index_t* pointers = a.row_ptr.data();
  int decreases = 0;
#pragma omp parallel for reduction(| : decreases) schedule(static) if (in_parallel)
  for (index_t r = 0; r < a.rows; ++r) decreases |= pointers[r + 1] < pointers[r];
  if (!decreases) return;
  index_t first_decrease = a.rows;
#pragma omp parallel for reduction(min : first_decrease) schedule(static) if (in_parallel)
  for (index_t r = 0; r < a.rows; ++r)
    if (pointers[r + 1] < pointers[r]) first_decrease = std::min(first_decrease, r);
  throw InvalidArgument("CSR matrix: row_ptr decreases at row " + std::to_string(first_decrease));
}

void throw_bad_entry(index_t row, index_t first, const index_t* columns, index_t length, index_t cols) {
  for (index_t i = 0; i < length; ++i) {
    const index_t c = columns[i];
    if (c < 0 || c >= cols)
      throw InvalidArgument("CSR matrix: " + entry_name(first + i, row, c) + " is out of range");
    if (i > 0 && c <= columns[i - 1])
      throw InvalidArgument("CSR matrix: " + entry_name(first + i, row, c) + " is not sorted or repeats a column");
  }
  throw InvalidArgument("CSR matrix: row " + std::to_string(row) + " was reported bad but its entries are valid");
}

template <class T>
void throw_bad_entry(const Csr<T>& a, index_t row) {
  throw_bad_entry(row, a.row_ptr[row], a.col_idx.data() + a.row_ptr[row], a.row_length(row), a.cols);
}

template <class T>
void validate_columns(const Csr<T>& a, index_t begin, index_t end) {
  // Rows in dynamic chunks: a few long rows (R-MAT's, at its low indices)
  // would leave one thread of a static split with most of the entries.
  const bool in_parallel = (end - begin) + std::int64_t{a.row_ptr[end] - a.row_ptr[begin]} >= detail::parallel_from;
  index_t first_bad_row = end;
#pragma omp parallel for reduction(min : first_bad_row) schedule(dynamic, 4096) if (in_parallel)
  for (index_t r = begin; r < end; ++r)
    if (row_has_bad_entry(a, r)) first_bad_row = std::min(first_bad_row, r);
  if (first_bad_row < end) throw_bad_entry(a, first_bad_row);
}

}  // namespace detail

template <class T>
void validate(const Csr<T>& a) {
  detail::validate_row_pointers(a);
  detail::validate_columns(a, 0, a.rows);
}

template <class T>
Csr<T> transpose(const Csr<T>& a) {
  Csr<T> t;
  t.rows = a.cols;
  t.cols = a.rows;
  t.row_ptr.assign(static_cast<std::size_t>(a.cols) + 1, 0);
  for (index_t c : a.col_idx) ++t.row_ptr[c + 1];
  std::partial_sum(t.row_ptr.begin(), t.row_ptr.end(), t.row_ptr.begin());
  t.col_idx.resize(a.col_idx.size());
  t.values.resize(a.values.size());
  std::vector<index_t> next(t.row_ptr.begin(), t.row_ptr.end() - 1);
  // Visiting rows in order keeps each output row sorted by column.
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const index_t dst = next[a.col_idx[k]]++;
      t.col_idx[dst] = r;
      t.values[dst] = a.values[k];
    }
  return t;
}

template <class T>
Csr<T> permute(const Csr<T>& a, const std::vector<index_t>& new_row_of,
               const std::vector<index_t>& new_col_of) {
  const std::vector<index_t> old_row_of = inverse_or_identity(new_row_of, a.rows, "row");
  inverse_or_identity(new_col_of, a.cols, "column");  // validates
  Csr<T> p;
  p.rows = a.rows;
  p.cols = a.cols;
  p.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  p.col_idx.reserve(a.col_idx.size());
  p.values.reserve(a.values.size());
  std::vector<std::pair<index_t, T>> row;
  for (index_t r = 0; r < a.rows; ++r) {
    const index_t src = old_row_of[r];
    row.clear();
    for (index_t k = a.row_ptr[src]; k < a.row_ptr[src + 1]; ++k)
      row.emplace_back(new_col_of.empty() ? a.col_idx[k] : new_col_of[a.col_idx[k]], a.values[k]);
    if (!new_col_of.empty())
      std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [c, v] : row) {
      p.col_idx.push_back(c);
      p.values.push_back(v);
    }
    p.row_ptr[r + 1] = static_cast<index_t>(p.col_idx.size());
  }
  return p;
}

template <class T>
Csr<T> row_range(const Csr<T>& a, index_t begin, index_t end) {
  if (begin < 0 || end < begin || end > a.rows)
    throw InvalidArgument("row range [" + std::to_string(begin) + ", " + std::to_string(end) +
                          ") is not inside [0, " + std::to_string(a.rows) + ")");
  Csr<T> s;
  s.rows = end - begin;
  s.cols = a.cols;
  const index_t first = a.row_ptr[begin];
  s.row_ptr.resize(static_cast<std::size_t>(s.rows) + 1);
  for (index_t r = 0; r <= s.rows; ++r) s.row_ptr[r] = a.row_ptr[begin + r] - first;
  s.col_idx.assign(a.col_idx.begin() + first, a.col_idx.begin() + a.row_ptr[end]);
  s.values.assign(a.values.begin() + first, a.values.begin() + a.row_ptr[end]);
  return s;
}

template <class To, class From>
Csr<To> cast(const Csr<From>& a) {
  Csr<To> b;
  b.rows = a.rows;
  b.cols = a.cols;
  b.row_ptr = a.row_ptr;
  b.col_idx = a.col_idx;
  b.values.assign(a.values.begin(), a.values.end());
  return b;
}

#define SPMV_INSTANTIATE(T)                                                                     \
  template Csr<T> to_csr(const Coo<T>&);                                                        \
  template Csr<T> detail::assemble_csr(const Coo<T>&, T, const std::string&);                   \
  template Coo<T> to_coo(const Csr<T>&);                                                        \
  template Csr<T> csr_from_arrays(index_t, index_t, const std::vector<index_t>&,               \
                                  const std::vector<index_t>&, const std::vector<T>&);          \
  template void validate(const Csr<T>&);                                                        \
  template void detail::validate_row_pointers(const Csr<T>&);                                   \
  template void detail::validate_columns(const Csr<T>&, index_t, index_t);                      \
  template void detail::throw_bad_entry(const Csr<T>&, index_t);                                \
  template Csr<T> transpose(const Csr<T>&);                                                     \
  template Csr<T> permute(const Csr<T>&, const std::vector<index_t>&, const std::vector<index_t>&); \
  template Csr<T> row_range(const Csr<T>&, index_t, index_t);
SPMV_INSTANTIATE(float)
SPMV_INSTANTIATE(double)
#undef SPMV_INSTANTIATE
template Csr<float> cast(const Csr<double>&);
template Csr<double> cast(const Csr<float>&);
template Csr<float> cast(const Csr<float>&);
template Csr<double> cast(const Csr<double>&);

}  // namespace spmv
