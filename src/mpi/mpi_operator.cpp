// MpiOperator (spmv/mpi.hpp): the rank's part of split_into_parts, its
// operators planned through plan(), the exchange over MPI.
#include "spmv/mpi.hpp"

#include <string>

#include "spmv/error.hpp"

namespace spmv {

namespace {

template <class T>
MPI_Datatype mpi_type() {
  return sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE;
}

void check_mpi(int status, const char* call) {
  if (status != MPI_SUCCESS) throw Error(std::string("MPI call failed: ") + call);
}

}  // namespace

template <class T>
MpiOperator<T>::MpiOperator(const Csr<T>& a, const Partition& partition, Exchange exchange,
                            const PlanOptions& part_options, MPI_Comm comm)
    : comm_(comm), exchange_(exchange) {
  int rank = 0, size = 0;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  if (partition.parts() != size)
    throw InvalidArgument("MpiOperator: the partition has " + std::to_string(partition.parts()) +
                          " parts for a communicator of " + std::to_string(size) + " ranks (one part per rank)");
  part_ = std::move(split_into_parts(a, partition, exchange)[rank]);
  owned_rows_ = partition.rows_of_part(rank);
  if (exchange == Exchange::allgather) {
    block_ = plan(part_.block, part_options);
    full_x_.assign(a.cols, T(0));
    summed_.assign(static_cast<std::size_t>(part_.column_end - part_.column_begin), T(0));
    for (int p = 0; p < size; ++p) {
      slice_offsets_.push_back(partition.column_offsets[p]);
      slice_counts_.push_back(partition.column_offsets[p + 1] - partition.column_offsets[p]);
    }
  } else {
    local_ = plan(part_.local, part_options);
    if (!part_.ghost_columns.empty()) remote_ = plan(part_.remote, part_options);
    ghosts_.assign(part_.ghost_columns.size(), T(0));
    remote_y_.assign(part_.remote_rows.size(), T(0));
    for (const HaloSend& send : part_.sends) send_buffers_.emplace_back(send.local_columns.size());
  }
}

template <class T>
MpiOperator<T>::~MpiOperator() = default;

template <class T>
void MpiOperator<T>::apply(const T* x_local, T* y_local, T alpha, T beta) {
  if (exchange_ == Exchange::allgather) {
    check_mpi(MPI_Allgatherv(x_local, part_.column_end - part_.column_begin, mpi_type<T>(), full_x_.data(),
                             slice_counts_.data(), slice_offsets_.data(), mpi_type<T>(), comm_),
              "MPI_Allgatherv");
    block_->apply(full_x_.data(), y_local, alpha, beta);
    return;
  }
  // Receives posted first, then the packed sends; the local block's product
  // runs while the messages travel.
  std::vector<MPI_Request> requests;
  for (const HaloReceive& receive : part_.receives) {
    requests.emplace_back();
    check_mpi(MPI_Irecv(ghosts_.data() + receive.offset, receive.count, mpi_type<T>(), receive.from, 0, comm_,
                        &requests.back()),
              "MPI_Irecv");
  }
  for (std::size_t s = 0; s < part_.sends.size(); ++s) {
    const HaloSend& send = part_.sends[s];
    std::vector<T>& buffer = send_buffers_[s];
    for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = x_local[send.local_columns[i]];
    requests.emplace_back();
    check_mpi(MPI_Isend(buffer.data(), static_cast<int>(buffer.size()), mpi_type<T>(), send.to, 0, comm_,
                        &requests.back()),
              "MPI_Isend");
  }
  local_->apply(x_local, y_local, alpha, beta);
  check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  if (!remote_) return;
  remote_->apply(ghosts_.data(), remote_y_.data(), T(1), T(0));
  add_remote_rows(part_.remote_rows, remote_y_.data(), alpha, y_local);
}

template <class T>
void MpiOperator<T>::apply_transposed(const T* x_local, T* y_local, T alpha, T beta) {
  if (exchange_ == Exchange::allgather) {  // full_x_ holds the rank's full-length product
    block_->apply_transposed(x_local, full_x_.data(), T(1), T(0));
    check_mpi(MPI_Reduce_scatter(full_x_.data(), summed_.data(), slice_counts_.data(), mpi_type<T>(), MPI_SUM, comm_),
              "MPI_Reduce_scatter");
    scale_summed_products(summed_, alpha, beta, y_local);
    return;
  }
  // The shares of other ranks' columns first, sent as they are ready; the
  // local block's product runs while they travel.
  std::vector<MPI_Request> requests;
  for (std::size_t s = 0; s < part_.sends.size(); ++s) {  // what each holder of our columns sends back
    requests.emplace_back();
    check_mpi(MPI_Irecv(send_buffers_[s].data(), static_cast<int>(send_buffers_[s].size()), mpi_type<T>(),
                        part_.sends[s].to, 1, comm_, &requests.back()),
              "MPI_Irecv");
  }
  // remote_y_ holds x on the rows that read ghosts, ghosts_ their shares.
  if (remote_) {
    for (std::size_t i = 0; i < remote_y_.size(); ++i) remote_y_[i] = x_local[part_.remote_rows[i]];
    remote_->apply_transposed(remote_y_.data(), ghosts_.data(), T(1), T(0));
  }
  for (const HaloReceive& receive : part_.receives) {
    requests.emplace_back();
    check_mpi(MPI_Isend(ghosts_.data() + receive.offset, receive.count, mpi_type<T>(), receive.from, 1, comm_,
                        &requests.back()),
              "MPI_Isend");
  }
  local_->apply_transposed(x_local, y_local, alpha, beta);
  check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  for (std::size_t s = 0; s < part_.sends.size(); ++s) {
    const std::vector<index_t>& columns = part_.sends[s].local_columns;
    for (std::size_t i = 0; i < columns.size(); ++i) y_local[columns[i]] += alpha * send_buffers_[s][i];
  }
}

template class MpiOperator<float>;
template class MpiOperator<double>;

}  // namespace spmv
