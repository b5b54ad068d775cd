// Internal: the operators of one part of a distributed operator, each planned
// on its own through the public plan(), and the factory of the device parts.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/row_range.hpp"
#include "spmv/distributed.hpp"
#include "spmv/error.hpp"
#include "spmv/plan.hpp"

namespace spmv::detail {

template <class T>
struct PartOperators {
  std::unique_ptr<Operator<T>> block;   // allgather: the row block on all columns
  // halo: the block on the part's own columns, its rows from local_begin
  // (with edges: its interior, the rest are the edges')
  std::unique_ptr<Operator<T>> local;
  index_t local_begin = 0;
  // halo, edges apart (device parts with the overlap): the rows before and
  // after the interior on the part's own columns, each from its first row;
  // every row that reads ghosts is one of theirs
  struct Edge {
    index_t first_row;
    std::unique_ptr<Operator<T>> op;
  };
  std::vector<Edge> edges;
  std::unique_ptr<Operator<T>> remote;  // halo: the block on its ghosts (null without ghosts)

  std::vector<OperatorDescription> describe() const {
    std::vector<OperatorDescription> descriptions;
    for (const auto* op : {block.get(), local.get()})
      if (op) descriptions.push_back(op->describe());
    for (const Edge& edge : edges) descriptions.push_back(edge.op->describe());
    if (remote) descriptions.push_back(remote->describe());
    return descriptions;
  }
};

// The interior of a part's local block: the longest run of its rows that
// read no ghosts (remote_rows ascending), when the rows around it, its edges,
// hold at most a quarter of its entries; else an empty run. A device part
// multiplies its edges after the ghosts arrive, beside the interior's
// product, and they must end before it does; a slab of a banded matrix has
// its ghost readers at its two ends.
template <class T>
RowRange interior_rows(const Csr<T>& local, const std::vector<index_t>& remote_rows) {
  if (remote_rows.empty()) return {};
  RowRange longest{0, remote_rows.front()};
  for (std::size_t i = 0; i < remote_rows.size(); ++i) {
    const RowRange gap{remote_rows[i] + 1, i + 1 < remote_rows.size() ? remote_rows[i + 1] : local.rows};
    if (gap.end - gap.begin > longest.end - longest.begin) longest = gap;
  }
  const index_t interior_entries = local.row_ptr[longest.end] - local.row_ptr[longest.begin];
  const index_t edge_entries = local.nnz() - interior_entries;
  if (longest.empty() || edge_entries > local.nnz() / 4) return {};
  return longest;
}

// Which of the sender's send lists goes to part `to`.
template <class T>
std::size_t send_index(const PartMatrices<T>& sender, int to) {
  for (std::size_t s = 0; s < sender.sends.size(); ++s)
    if (sender.sends[s].to == to) return s;
  throw InvalidArgument("internal: a part has no send list for part " + std::to_string(to));
}

// Every send list of a part, concatenated in order, and where each starts:
// the layout of a device part's send buffer (push and NCCL pack into it).
struct ConcatenatedSends {
  std::vector<index_t> columns;
  std::vector<index_t> offsets;
};
inline ConcatenatedSends concatenated_sends(const std::vector<HaloSend>& sends) {
  ConcatenatedSends all;
  for (const HaloSend& send : sends) {
    all.offsets.push_back(static_cast<index_t>(all.columns.size()));
    all.columns.insert(all.columns.end(), send.local_columns.begin(), send.local_columns.end());
  }
  return all;
}

// With edges_apart (halo), a part that receives from one owner and whose
// interior_rows() are not empty has its local block planned as the interior
// and its edges. A part receiving from several owners keeps one local block:
// its exchange stream's chain (a gather per owner, the remote product, the
// edges) ran past the interior's product (the middle parts of four slabs of
// the 27-point stencil 150^3 on four H100s: efficiency 0.63-0.68 with edges
// there, 0.68-0.73 without).
template <class T>
PartOperators<T> plan_part(const PartMatrices<T>& part, Exchange exchange, const PlanOptions& options,
                           bool edges_apart = false) {
  PartOperators<T> ops;
  if (exchange == Exchange::allgather) {
    ops.block = plan(part.block, options);
    return ops;
  }
  const bool split = edges_apart && part.receives.size() == 1;
  const RowRange interior = split ? interior_rows(part.local, part.remote_rows) : RowRange{};
  if (interior.empty()) {
    ops.local = plan(part.local, options);
  } else {
    // The interior takes the backend and kernel chosen for the whole local
    // block: the split is for the overlap, not a new choice (alone, the
    // interior of a four-part slab of the 27-point stencil was given dia, 5
    // us slower a product than the whole block's bro-hyb on H100s).
    const Plan whole = make_plan(part.local, options);
    PlanOptions interior_options = options;
    interior_options.backend = whole.options.backend;
    interior_options.kernel = whole.options.kernel;
    ops.local = plan(row_range(part.local, interior.begin, interior.end), interior_options);
    ops.local_begin = interior.begin;
    if (interior.begin > 0) ops.edges.push_back({0, plan(row_range(part.local, 0, interior.begin), options)});
    if (interior.end < part.local.rows)
      ops.edges.push_back({interior.end, plan(row_range(part.local, interior.end, part.local.rows), options)});
  }
  if (!part.ghost_columns.empty()) ops.remote = plan(part.remote, options);
  return ops;
}

#ifdef SPMV_HAVE_CUDA
// Parts on CUDA devices (src/cuda/distributed_device.cpp).
template <class T>
std::unique_ptr<DistributedOperator<T>> make_device_distributed_operator(index_t rows, index_t cols,
                                                                         const Partition& partition,
                                                                         std::vector<PartMatrices<T>> parts,
                                                                         const DistributedOptions& options);
#endif

}  // namespace spmv::detail
