// MpiDeviceOperator (spmv/mpi.hpp): the rank's part of split_into_parts on
// its GPU, x moved between the ranks' GPUs by NCCL. One apply():
//   exchange stream, after x is ready on the compute stream: the rank packs
//     its send lists (halo), then one NCCL group of its sends and receives,
//     then (halo) the remote block's product on the ghosts;
//   compute stream: the local block's product beside it, then the remote
//     product added into y by row once the ghosts are in (all-gather: the
//     row block's product on the gathered x).
// The next apply's packing waits for x_ready, recorded after this apply's
// last step on the compute stream, so no buffer is rewritten while read.
#include "spmv/mpi.hpp"

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "mpi/mpi_support.hpp"
#include "multi/part_operators.hpp"
#include "spmv/error.hpp"

#ifdef SPMV_HAVE_CUDA
#include <cuda_runtime.h>

#include "cuda/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_scope.hpp"
#include "cuda/nccl_communicators.hpp"
#include "cuda/non_blocking_stream.hpp"
#include "cuda/ordering_event.hpp"
#include "cuda/permute_vectors.hpp"
#endif

namespace spmv {

#ifdef SPMV_HAVE_CUDA

template <class T>
struct MpiDeviceOperator<T>::DeviceState {
  int device = 0;
  int rank = 0;
  Exchange exchange_kind = Exchange::halo;
  cudaStream_t compute = nullptr;  // PlanOptions::stream: the caller's
  detail::NonBlockingStream exchange;
  detail::OrderingEvent x_ready, received;
  std::shared_ptr<detail::NcclCommunicators> nccl;  // shared with the comm's other operators
  detail::PartOperators<T> ops;
  // All-gather: x of every rank, and where each rank's slice starts.
  detail::DeviceBuffer<T> full_x;
  std::vector<index_t> slice_offsets;
  // Halo: the lists of split_into_parts, the ghosts, the remote product, and
  // every send list concatenated with a buffer of their entries.
  std::vector<HaloSend> sends;
  std::vector<HaloReceive> receives;
  std::vector<index_t> send_offsets;
  detail::DeviceBuffer<index_t> send_columns, remote_rows;
  detail::DeviceBuffer<T> send_buffer, ghosts, remote_y;
};

namespace {

// The NCCL id made by rank 0, on every rank; Unavailable on every rank when
// rank 0 could not load NCCL (the others would otherwise wait for it).
detail::NcclUniqueId broadcast_nccl_id(int rank, MPI_Comm comm) {
  detail::NcclUniqueId id{};
  std::string failure;
  if (rank == 0) try {
      id = detail::NcclCommunicators::new_unique_id();
    } catch (const Unavailable& e) {
      failure = e.what();
    }
  int failed = failure.empty() ? 0 : 1;
  detail::check_mpi(MPI_Bcast(&failed, 1, MPI_INT, 0, comm), "MPI_Bcast");
  if (failed)
    throw Unavailable("MpiDeviceOperator: NCCL is not available on rank 0" + (failure.empty() ? "" : ": " + failure));
  detail::check_mpi(MPI_Bcast(id.bytes, sizeof(id.bytes), MPI_CHAR, 0, comm), "MPI_Bcast");
  return id;
}

// NCCL communicators kept on the MPI communicator (an attribute), one per
// device of this rank, for every MpiDeviceOperator over the same ranks: making
// one takes seconds (ncclCommInitRank). Sharing is safe because an operator's
// exchanges are collective: every rank calls them in the same order.
using NcclByDevice = std::map<int, std::shared_ptr<detail::NcclCommunicators>>;

int delete_nccl_by_device(MPI_Comm, int, void* attribute, void*) {
  delete static_cast<NcclByDevice*>(attribute);
  return MPI_SUCCESS;
}

int nccl_keyval() {
  static const int keyval = [] {
    int made = MPI_KEYVAL_INVALID;
    detail::check_mpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_nccl_by_device, &made, nullptr),
                      "MPI_Comm_create_keyval");
    return made;
  }();
  return keyval;
}

// The communicator of this rank's `device` over `comm`: the kept one when
// every rank keeps one for its device (agreed by an all-reduce, so that all
// or none make a new one), else a new one, then kept.
std::shared_ptr<detail::NcclCommunicators> nccl_over(MPI_Comm comm, int device, int rank, int ranks) {
  void* attribute = nullptr;
  int found = 0;
  detail::check_mpi(MPI_Comm_get_attr(comm, nccl_keyval(), &attribute, &found), "MPI_Comm_get_attr");
  auto* kept = found ? static_cast<NcclByDevice*>(attribute) : nullptr;
  const int here = kept && kept->count(device) ? 1 : 0;
  int everywhere = 0;
  detail::check_mpi(MPI_Allreduce(&here, &everywhere, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (everywhere) return kept->at(device);
  auto made = std::make_shared<detail::NcclCommunicators>(device, rank, ranks, broadcast_nccl_id(rank, comm));
  if (!kept) {
    kept = new NcclByDevice;
    detail::check_mpi(MPI_Comm_set_attr(comm, nccl_keyval(), kept), "MPI_Comm_set_attr");
  }
  (*kept)[device] = made;
  return made;
}

}  // namespace

template <class T>
MpiDeviceOperator<T>::MpiDeviceOperator(const Csr<T>& a, const Partition& partition, Exchange exchange,
                                        const PlanOptions& part_options, MPI_Comm comm) {
  if (part_options.backend != Backend::cuda && part_options.backend != Backend::cusparse)
    throw InvalidArgument(std::string("MpiDeviceOperator: the parts need a GPU backend (cuda or cusparse), not ") +
                          to_string(part_options.backend));
  const int rank = detail::rank_of_part(partition, comm, "MpiDeviceOperator");
  const int ranks = partition.parts();
  PartMatrices<T> part = std::move(split_into_parts(a, partition, exchange)[rank]);
  row_begin_ = part.row_begin;
  row_end_ = part.row_end;
  column_begin_ = part.column_begin;
  column_end_ = part.column_end;
  owned_rows_ = partition.rows_of_part(rank);

  const detail::DeviceScope on_device(part_options.device);
  state_ = std::make_unique<DeviceState>();
  DeviceState& s = *state_;
  s.device = part_options.device;
  s.rank = rank;
  s.exchange_kind = exchange;
  s.compute = static_cast<cudaStream_t>(part_options.stream);
  s.nccl = nccl_over(comm, s.device, rank, ranks);
  s.ops = detail::plan_part(part, exchange, part_options);
  if (exchange == Exchange::allgather) {
    s.full_x = detail::DeviceBuffer<T>(a.cols, "MPI rank's full x");
    s.full_x.set_zero();
    s.slice_offsets = partition.column_offsets;
    return;
  }
  if (s.ops.remote) s.ops.remote->set_stream(s.exchange.get());  // it reads the ghosts alone: it follows them
  detail::ConcatenatedSends sends = detail::concatenated_sends(part.sends);
  s.send_offsets = std::move(sends.offsets);
  s.send_columns = detail::DeviceBuffer<index_t>(sends.columns, "MPI rank's send lists");
  s.send_buffer = detail::DeviceBuffer<T>(sends.columns.size(), "MPI rank's send buffer");
  s.ghosts = detail::DeviceBuffer<T>(part.ghost_columns.size(), "MPI rank's ghosts");
  s.remote_rows = detail::DeviceBuffer<index_t>(part.remote_rows, "MPI rank's remote rows");
  s.remote_y = detail::DeviceBuffer<T>(part.remote_rows.size(), "MPI rank's remote product");
  for (detail::DeviceBuffer<T>* written_later : {&s.send_buffer, &s.ghosts, &s.remote_y}) written_later->set_zero();
  s.sends = std::move(part.sends);
  s.receives = std::move(part.receives);
}

template <class T>
MpiDeviceOperator<T>::~MpiDeviceOperator() {
  if (!state_) return;
  const detail::DeviceScope on_device(state_->device);  // freed on their device
  state_.reset();
}

template <class T>
std::vector<OperatorDescription> MpiDeviceOperator<T>::describe() const {
  return state_->ops.describe();
}

template <class T>
void MpiDeviceOperator<T>::apply(const T* x_local, T* y_local, T alpha, T beta) {
  DeviceState& s = *state_;
  const detail::DeviceScope on_device(s.device);
  const cudaStream_t exchange = s.exchange.get();
  constexpr detail::NcclDataType type = detail::nccl_type<T>();
  SPMV_CUDA_CHECK(cudaEventRecord(s.x_ready.get(), s.compute));
  SPMV_CUDA_CHECK(cudaStreamWaitEvent(exchange, s.x_ready.get(), 0));
  const auto own = static_cast<std::size_t>(column_end_ - column_begin_);
  if (s.exchange_kind == Exchange::allgather) {
    if (own > 0)
      SPMV_CUDA_CHECK(cudaMemcpyAsync(s.full_x.data() + column_begin_, x_local, own * sizeof(T),
                                      cudaMemcpyDeviceToDevice, exchange));
    s.nccl->group([&] {
      for (int q = 0; q + 1 < static_cast<int>(s.slice_offsets.size()); ++q) {
        const auto theirs = static_cast<std::size_t>(s.slice_offsets[q + 1] - s.slice_offsets[q]);
        if (q == s.rank) continue;
        if (own > 0) s.nccl->send(0, x_local, own, type, q, exchange);
        if (theirs > 0) s.nccl->receive(0, s.full_x.data() + s.slice_offsets[q], theirs, type, q, exchange);
      }
    });
    SPMV_CUDA_CHECK(cudaEventRecord(s.received.get(), exchange));
    SPMV_CUDA_CHECK(cudaStreamWaitEvent(s.compute, s.received.get(), 0));
    s.ops.block->apply(s.full_x.data(), y_local, alpha, beta);
    return;
  }
  if (s.send_columns.size() > 0)
    detail::gather_rows(s.send_columns.data(), static_cast<index_t>(s.send_columns.size()), 1, Layout::row_major,
                        x_local, s.send_buffer.data(), exchange);
  s.nccl->group([&] {
    for (std::size_t i = 0; i < s.sends.size(); ++i) {
      const std::size_t count = s.sends[i].local_columns.size();
      if (count > 0) s.nccl->send(0, s.send_buffer.data() + s.send_offsets[i], count, type, s.sends[i].to, exchange);
    }
    for (const HaloReceive& receive : s.receives)
      if (receive.count > 0)
        s.nccl->receive(0, s.ghosts.data() + receive.offset, static_cast<std::size_t>(receive.count), type,
                        receive.from, exchange);
  });
  if (s.ops.remote) s.ops.remote->apply(s.ghosts.data(), s.remote_y.data(), T(1), T(0));
  SPMV_CUDA_CHECK(cudaEventRecord(s.received.get(), exchange));
  s.ops.local->apply(x_local, y_local, alpha, beta);
  SPMV_CUDA_CHECK(cudaStreamWaitEvent(s.compute, s.received.get(), 0));
  if (s.ops.remote)
    detail::scatter_rows(s.remote_rows.data(), static_cast<index_t>(s.remote_rows.size()), 1, Layout::row_major,
                         s.remote_y.data(), y_local, alpha, T(1), s.compute);
}

#else  // a build without CUDA

template <class T>
struct MpiDeviceOperator<T>::DeviceState {};

const char* const no_cuda = "MpiDeviceOperator needs CUDA devices: this build was configured without CUDA";

template <class T>
MpiDeviceOperator<T>::MpiDeviceOperator(const Csr<T>&, const Partition&, Exchange, const PlanOptions&, MPI_Comm) {
  throw Unavailable(no_cuda);
}

template <class T>
MpiDeviceOperator<T>::~MpiDeviceOperator() = default;

template <class T>
std::vector<OperatorDescription> MpiDeviceOperator<T>::describe() const {
  return {};
}

template <class T>
void MpiDeviceOperator<T>::apply(const T*, T*, T, T) {
  throw Unavailable(no_cuda);
}

#endif

template class MpiDeviceOperator<float>;
template class MpiDeviceOperator<double>;

}  // namespace spmv
