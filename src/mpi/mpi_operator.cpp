// MpiOperator (spmv/mpi.hpp): the rank's part of split_into_parts, its
// operators planned through plan(), the exchange over MPI.
#include "spmv/mpi.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include "mpi/mpi_support.hpp"
#include "multi/dense_rows.hpp"
#include "spmv/error.hpp"

namespace spmv {

namespace {

using detail::check_mpi;
using detail::mpi_type;

// rows x k entries as an MPI count (an int).
int message_count(index_t rows, index_t k) {
  const std::int64_t count = std::int64_t{rows} * k;
  if (count > std::numeric_limits<int>::max())
    throw InvalidArgument("MpiOperator::spmm: a message of " + std::to_string(count) +
                          " entries is beyond MPI's int counts (fewer columns at once)");
  return static_cast<int>(count);
}

}  // namespace

template <class T>
MpiOperator<T>::MpiOperator(const Csr<T>& a, const Partition& partition, Exchange exchange,
                            const PlanOptions& part_options, MPI_Comm comm)
    : comm_(comm), exchange_(exchange) {
  const int rank = detail::rank_of_part(partition, comm, "MpiOperator");
  const int size = partition.parts();
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

template <class T>
void MpiOperator<T>::spmm(const T* b_local, T* c_local, index_t k, Layout layout, T alpha, T beta) {
  if (k < 0) throw InvalidArgument("MpiOperator::spmm: k = " + std::to_string(k) + " columns (must be >= 0)");
  if (k == 0) return;
  const index_t own = part_.column_end - part_.column_begin, rows = part_.row_end - part_.row_begin;
  const auto same_row = [](index_t i) { return i; };
  if (beta != T(0)) detail::gather_dense_rows(c_local, rows, k, layout, rows, same_row, c_rows_);
  c_rows_.resize(static_cast<std::size_t>(rows) * k);
  if (exchange_ == Exchange::allgather) {  // every rank's rows of B, row-major, as slices k times as long
    detail::gather_dense_rows(b_local, own, k, layout, own, same_row, own_rows_);
    row_counts_.resize(slice_counts_.size());
    row_offsets_.resize(slice_offsets_.size());
    for (std::size_t p = 0; p < row_counts_.size(); ++p) {
      row_counts_[p] = message_count(slice_counts_[p], k);
      row_offsets_[p] = message_count(slice_offsets_[p], k);
    }
    b_rows_.resize(static_cast<std::size_t>(full_x_.size()) * k);
    check_mpi(MPI_Allgatherv(own_rows_.data(), message_count(own, k), mpi_type<T>(), b_rows_.data(),
                             row_counts_.data(), row_offsets_.data(), mpi_type<T>(), comm_),
              "MPI_Allgatherv");
    block_->spmm(b_rows_.data(), c_rows_.data(), k, Layout::row_major, alpha, beta);
  } else {
    detail::gather_dense_rows(b_local, own, k, layout, own, same_row, b_rows_);
    ghost_rows_.resize(part_.ghost_columns.size() * static_cast<std::size_t>(k));
    send_rows_.resize(part_.sends.size());
    std::vector<MPI_Request> requests;
    for (const HaloReceive& receive : part_.receives) {
      requests.emplace_back();
      check_mpi(MPI_Irecv(ghost_rows_.data() + static_cast<std::size_t>(receive.offset) * k,
                          message_count(receive.count, k), mpi_type<T>(), receive.from, 2, comm_, &requests.back()),
                "MPI_Irecv");
    }
    for (std::size_t s = 0; s < part_.sends.size(); ++s) {
      const std::vector<index_t>& columns = part_.sends[s].local_columns;
      detail::gather_dense_rows(
          b_rows_.data(), own, k, Layout::row_major, static_cast<index_t>(columns.size()),
          [&columns](index_t i) { return columns[i]; }, send_rows_[s]);
      requests.emplace_back();
      check_mpi(MPI_Isend(send_rows_[s].data(), message_count(static_cast<index_t>(columns.size()), k),
                          mpi_type<T>(), part_.sends[s].to, 2, comm_, &requests.back()),
                "MPI_Isend");
    }
    local_->spmm(b_rows_.data(), c_rows_.data(), k, Layout::row_major, alpha, beta);
    check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    if (remote_) {
      remote_rows_.resize(part_.remote_rows.size() * static_cast<std::size_t>(k));
      remote_->spmm(ghost_rows_.data(), remote_rows_.data(), k, Layout::row_major, T(1), T(0));
      add_remote_rows(part_.remote_rows, remote_rows_.data(), alpha, c_rows_.data(), k);
    }
  }
  detail::scatter_dense_rows(c_rows_, rows, same_row, c_local, rows, k, layout);
}

template class MpiOperator<float>;
template class MpiOperator<double>;

}  // namespace spmv
