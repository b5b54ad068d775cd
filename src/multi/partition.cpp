// Row partitions: equal rows (PCSR-I), equal non-zeros (PCSR-II), or the
// caller's boundaries; the columns follow the rows for a square matrix and
// are split into equal counts otherwise (distributed.hpp). The graph
// partition is in graph_partition.cpp.
#include <algorithm>
#include <numeric>
#include <string>

#include "multi/partition_checks.hpp"
#include "spmv/distributed.hpp"
#include "spmv/error.hpp"

namespace spmv {

const char* to_string(PartitionMethod method) {
  switch (method) {
    case PartitionMethod::rows: return "rows";
    case PartitionMethod::nonzeros: return "nnz";
    case PartitionMethod::graph: return "graph";
  }
  return "?";
}
const char* to_string(Exchange exchange) { return exchange == Exchange::allgather ? "allgather" : "halo"; }

PartitionMethod partition_method_from_string(const std::string& name) {
  if (name == "rows") return PartitionMethod::rows;
  if (name == "nnz") return PartitionMethod::nonzeros;
  if (name == "graph") return PartitionMethod::graph;
  throw InvalidArgument("unknown partition '" + name + "' (partitions: rows, nnz, graph)");
}

Exchange exchange_from_string(const std::string& name) {
  if (name == "allgather") return Exchange::allgather;
  if (name == "halo") return Exchange::halo;
  throw InvalidArgument("unknown exchange '" + name + "' (exchanges: allgather, halo)");
}

std::vector<index_t> Partition::rows_of_part(int p) const {
  std::vector<index_t> rows(static_cast<std::size_t>(row_offsets.at(p + 1) - row_offsets.at(p)));
  if (row_order.empty())
    std::iota(rows.begin(), rows.end(), row_offsets[p]);
  else
    std::copy(row_order.begin() + row_offsets[p], row_order.begin() + row_offsets[p + 1], rows.begin());
  return rows;
}

void detail::check_part_count(index_t rows, int parts) {
  if (parts < 1) throw InvalidArgument("a partition needs at least 1 part (got " + std::to_string(parts) + ")");
  if (parts > rows)
    throw InvalidArgument("cannot split " + std::to_string(rows) + " rows into " + std::to_string(parts) +
                          " parts: every part needs at least one row");
}

namespace {

// Boundary p of `count` items split into `parts` equal shares.
index_t equal_share_boundary(index_t count, int parts, int p) {
  return static_cast<index_t>(static_cast<std::int64_t>(count) * p / parts);
}

}  // namespace

Partition partition_from_row_offsets(index_t rows, index_t cols, std::vector<index_t> row_offsets) {
  const int parts = static_cast<int>(row_offsets.size()) - 1;
  detail::check_part_count(rows, parts);
  if (row_offsets.front() != 0 || row_offsets.back() != rows)
    throw InvalidArgument("row offsets must run from 0 to the " + std::to_string(rows) + " rows (got " +
                          std::to_string(row_offsets.front()) + " to " + std::to_string(row_offsets.back()) + ")");
  for (int p = 0; p < parts; ++p)
    if (row_offsets[p + 1] <= row_offsets[p])
      throw InvalidArgument("part " + std::to_string(p) + " of the partition is empty (rows [" +
                            std::to_string(row_offsets[p]) + ", " + std::to_string(row_offsets[p + 1]) + "))");
  Partition partition;
  if (rows == cols) {
    partition.column_offsets = row_offsets;
  } else {
    for (int p = 0; p <= parts; ++p) partition.column_offsets.push_back(equal_share_boundary(cols, parts, p));
  }
  partition.row_offsets = std::move(row_offsets);
  return partition;
}

template <class T>
Partition partition_rows(const Csr<T>& a, int parts) {
  detail::check_part_count(a.rows, parts);
  std::vector<index_t> offsets;
  for (int p = 0; p <= parts; ++p) offsets.push_back(equal_share_boundary(a.rows, parts, p));
  return partition_from_row_offsets(a.rows, a.cols, std::move(offsets));
}

template <class T>
Partition partition_nonzeros(const Csr<T>& a, int parts) {
  detail::check_part_count(a.rows, parts);
  std::vector<index_t> offsets(parts + 1);
  offsets[0] = 0;
  offsets[parts] = a.rows;
  for (int p = 1; p < parts; ++p) {
    // The first row that starts at or after the p-th share of the non-zeros,
    // kept at least one row after the previous boundary and leaving a row
    // for each later part.
    const index_t target = equal_share_boundary(a.nnz(), parts, p);
    const auto first = std::lower_bound(a.row_ptr.begin(), a.row_ptr.end() - 1, target);
    const index_t row = static_cast<index_t>(first - a.row_ptr.begin());
    offsets[p] = std::clamp(row, offsets[p - 1] + 1, a.rows - (parts - p));
  }
  return partition_from_row_offsets(a.rows, a.cols, std::move(offsets));
}

template <class T>
Partition partition(const Csr<T>& a, PartitionMethod method, int parts) {
  switch (method) {
    case PartitionMethod::rows: return partition_rows(a, parts);
    case PartitionMethod::nonzeros: return partition_nonzeros(a, parts);
    case PartitionMethod::graph: return partition_graph(a, parts);
  }
  throw InvalidArgument("unknown partition method");
}

template <class T>
std::vector<std::int64_t> part_nonzeros(const Csr<T>& a, const Partition& partition) {
  std::vector<std::int64_t> nonzeros;
  for (int p = 0; p < partition.parts(); ++p) {
    std::int64_t count = 0;
    for (const index_t row : partition.rows_of_part(p)) count += a.row_length(row);
    nonzeros.push_back(count);
  }
  return nonzeros;
}

#define SPMV_INSTANTIATE_PARTITIONS(T)                                  \
  template Partition partition_rows(const Csr<T>&, int);                \
  template Partition partition_nonzeros(const Csr<T>&, int);            \
  template Partition partition(const Csr<T>&, PartitionMethod, int);    \
  template std::vector<std::int64_t> part_nonzeros(const Csr<T>&, const Partition&);
SPMV_INSTANTIATE_PARTITIONS(float)
SPMV_INSTANTIATE_PARTITIONS(double)

}  // namespace spmv
