// Internal: the operators of one part of a distributed operator, each planned
// on its own through the public plan(), and the factory of the device parts.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "spmv/distributed.hpp"
#include "spmv/error.hpp"

namespace spmv::detail {

template <class T>
struct PartOperators {
  std::unique_ptr<Operator<T>> block;   // allgather: the row block on all columns
  std::unique_ptr<Operator<T>> local;   // halo: the block on the part's own columns
  std::unique_ptr<Operator<T>> remote;  // halo: the block on its ghosts (null without ghosts)

  std::vector<OperatorDescription> describe() const {
    std::vector<OperatorDescription> descriptions;
    for (const auto* op : {block.get(), local.get(), remote.get()})
      if (op) descriptions.push_back(op->describe());
    return descriptions;
  }
};

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

template <class T>
PartOperators<T> plan_part(const PartMatrices<T>& part, Exchange exchange, const PlanOptions& options) {
  PartOperators<T> ops;
  if (exchange == Exchange::allgather) {
    ops.block = plan(part.block, options);
  } else {
    ops.local = plan(part.local, options);
    if (!part.ghost_columns.empty()) ops.remote = plan(part.remote, options);
  }
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
