#include "core/fetched_rows.hpp"

#include <stdexcept>
#include <string>

#include "spmv/error.hpp"

namespace spmv::detail {

namespace {

// The rows `range` of `whole`, which holds them.
template <class T>
RowSpan<T> narrowed(const RowSpan<T>& whole, RowRange range) {
  RowSpan<T> part{range, whole.row_ptr + (range.begin - whole.rows.begin), nullptr, nullptr};
  if (whole.col_idx) {
    part.col_idx = whole.columns(range.begin);
    part.values = whole.row_values(range.begin);
  }
  return part;
}

}  // namespace

template <class T>
const RowSpan<T>* FetchedRows<T>::holding(const std::vector<RowSpan<T>>& spans, RowRange range) const {
  for (const RowSpan<T>& span : spans)
    if (span.rows.begin <= range.begin && range.end <= span.rows.end) return &span;
  return nullptr;
}

template <class T>
void FetchedRows<T>::read_row_pointers(const std::vector<RowRange>& ranges) {
  std::vector<RowRange> missing;
  for (const RowRange& range : ranges)
    if (!holding(pointer_spans_, range)) missing.push_back(range);
  if (missing.empty()) return;
  const std::vector<index_t>& read = indices_.emplace_back(fetcher_.row_pointers(missing));
  std::size_t offset = 0;
  for (const RowRange& range : missing) {
    pointer_spans_.push_back({range, read.data() + offset, nullptr, nullptr});
    offset += static_cast<std::size_t>(range.end - range.begin) + 1;
  }
}

template <class T>
void FetchedRows<T>::read_entries(const std::vector<RowRange>& ranges) {
  std::vector<RowSpan<T>> pointers;
  std::vector<typename CsrFetcher<T>::EntryRange> entries;
  for (const RowRange& range : ranges) {
    if (holding(entry_spans_, range)) continue;
    pointers.push_back(span(range));
    entries.push_back({pointers.back().start(range.begin), pointers.back().start(range.end)});
  }
  if (entries.empty()) return;
  std::vector<index_t>& columns = indices_.emplace_back();
  std::vector<T>& values = values_.emplace_back();
  fetcher_.entries(entries, columns, values);
  std::size_t offset = 0;
  for (RowSpan<T>& span : pointers) {
    span.col_idx = columns.data() + offset;
    span.values = values.data() + offset;
    offset += static_cast<std::size_t>(span.entries());
    entry_spans_.push_back(span);
  }
}

template <class T>
RowSpan<T> FetchedRows<T>::span(RowRange range) const {
  if (const RowSpan<T>* whole = holding(entry_spans_, range)) return narrowed(*whole, range);
  if (const RowSpan<T>* whole = holding(pointer_spans_, range)) return narrowed(*whole, range);
  throw std::logic_error("analysis: rows " + std::to_string(range.begin) + ".." + std::to_string(range.end) +
                         " were not read before they were used");
}

template <class T>
void FetchedRows<T>::fill_symmetry(MatrixStats&, const std::vector<RowRange>&) const {
  throw InvalidArgument("analyse: the symmetry check needs the whole matrix on the host (set StatsOptions::symmetry "
                        "to false for a matrix on the device)");
}

template class FetchedRows<float>;
template class FetchedRows<double>;

}  // namespace spmv::detail
