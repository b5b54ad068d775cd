// Distributed SpMV over MPI: one rank per part of a Partition
// (distributed.hpp), each rank multiplying its rows with its own Operator
// (cpu backend, or any backend its PlanOptions name) and exchanging x over
// MPI: the halo with point-to-point messages along the send and receive lists
// built at plan time (the local block's product overlaps them), or the
// paper's all-gather of x (MPI_Allgatherv). Built when CMake finds MPI
// (SPMV_MPI); link spmv::spmv_mpi.
//
//   MpiOperator<double> op(a, partition_nonzeros(a, size), Exchange::halo, {}, MPI_COMM_WORLD);
//   op.apply(x_local, y_local);   // collective: every rank calls it
//
// MpiDeviceOperator (below) keeps each rank's vectors on its GPU and moves x
// between the GPUs by NCCL.
#pragma once

#include <mpi.h>

#include <memory>
#include <vector>

#include "spmv/distributed.hpp"

namespace spmv {

template <class T>
class MpiOperator {
 public:
  // Collective. Every rank passes the same matrix and partition (of as many
  // parts as the communicator has ranks; InvalidArgument otherwise) and keeps
  // the part of its rank.
  MpiOperator(const Csr<T>& a, const Partition& partition, Exchange exchange, const PlanOptions& part_options,
              MPI_Comm comm);
  ~MpiOperator();
  MpiOperator(const MpiOperator&) = delete;
  MpiOperator& operator=(const MpiOperator&) = delete;

  // This rank's rows of A and y, and its entries of x, as positions in the
  // partition's order (A's own order unless it has a row order).
  index_t row_begin() const { return part_.row_begin; }
  index_t row_end() const { return part_.row_end; }
  index_t column_begin() const { return part_.column_begin; }
  index_t column_end() const { return part_.column_end; }
  // A's rows this rank owns, in the order of y_local (and of x_local: a
  // partition with a row order is of a square matrix, x split like y).
  const std::vector<index_t>& owned_rows() const { return owned_rows_; }

  // Collective: y_local = alpha A_rank x + beta y_local, x_local holding
  // this rank's entries of x and y_local its rows (beta == 0: not read):
  // x_local[i] = x[owned_rows()[i]] under the graph partition.
  void apply(const T* x_local, T* y_local, T alpha = T(1), T beta = T(0));
  // Collective: y_local = alpha (A^T x)_rank + beta y_local, x_local holding
  // this rank's rows' entries of x (of A's rows) and y_local its entries of y
  // (of A's columns: the slice apply reads from x_local). The remote block's
  // products on other ranks' columns are sent to their owners and added
  // there (the halo reversed); all-gather: MPI_Reduce_scatter of the
  // full-length products.
  void apply_transposed(const T* x_local, T* y_local, T alpha = T(1), T beta = T(0));
  // Collective: c_local = alpha (A B)_rank + beta c_local for k columns,
  // b_local holding this rank's rows of B (the entries apply reads from
  // x_local, k of them each) and c_local its rows of C, both in `layout`
  // without padding (beta == 0: c_local is not read). The ghosts' rows of B
  // travel along the halo lists (k entries each), or every rank's rows by
  // MPI_Allgatherv; the rank's operators multiply the k columns at once.
  void spmm(const T* b_local, T* c_local, index_t k, Layout layout, T alpha = T(1), T beta = T(0));

 private:
  MPI_Comm comm_;
  Exchange exchange_;
  PartMatrices<T> part_;
  std::vector<index_t> owned_rows_;
  std::vector<int> slice_counts_, slice_offsets_;  // every rank's x slice (all-gather)
  std::unique_ptr<Operator<T>> block_, local_, remote_;
  std::vector<T> full_x_, ghosts_;
  std::vector<T> summed_;  // all-gather: the rank's columns of the summed transposed products
  std::vector<T> remote_y_;  // the remote product on the compressed rows (add_remote_rows; transposed: their x)
  std::vector<std::vector<T>> send_buffers_;
  // spmm, row-major: the rank's rows of B (all-gather: every rank's, its own
  // in own_rows_, and the slices' counts and offsets in entries), its
  // ghosts' rows, its rows of C, its remote block's product, the packed rows
  // it sends
  std::vector<T> b_rows_, own_rows_, ghost_rows_, c_rows_, remote_rows_;
  std::vector<int> row_counts_, row_offsets_;
  std::vector<std::vector<T>> send_rows_;
};

// One rank per GPU with the vectors on the device: each rank's x and y stay
// on its GPU, and the halo (or all-gather) of x moves between the GPUs by
// NCCL, its communicator made over `comm` (rank 0's ncclGetUniqueId sent to
// every rank with MPI_Bcast, then ncclCommInitRank): nothing passes through
// the host. part_options names the cuda or cusparse backend, the rank's
// device and the stream of its products; x_local and y_local are device
// pointers on that device (in the partition's order, as for MpiOperator),
// and apply() returns once the product is queued on that stream (read y
// after synchronising it). The local block's product runs beside the
// exchange (halo). Products only: MpiOperator has the transposed product
// and SpMM (through the host). Throws Unavailable in a build without CUDA
// or where libnccl.so.2 cannot be loaded; every rank must construct it (the
// communicator is made collectively).
template <class T>
class MpiDeviceOperator {
 public:
  MpiDeviceOperator(const Csr<T>& a, const Partition& partition, Exchange exchange, const PlanOptions& part_options,
                    MPI_Comm comm);
  ~MpiDeviceOperator();
  MpiDeviceOperator(const MpiDeviceOperator&) = delete;
  MpiDeviceOperator& operator=(const MpiDeviceOperator&) = delete;

  index_t row_begin() const { return row_begin_; }
  index_t row_end() const { return row_end_; }
  index_t column_begin() const { return column_begin_; }
  index_t column_end() const { return column_end_; }
  const std::vector<index_t>& owned_rows() const { return owned_rows_; }
  // The rank's operators (local and remote blocks, or the row block).
  std::vector<OperatorDescription> describe() const;

  // Collective: y_local = alpha A_rank x + beta y_local (beta == 0: not read).
  void apply(const T* x_local, T* y_local, T alpha = T(1), T beta = T(0));

 private:
  struct DeviceState;  // streams, buffers, operators and the NCCL communicator
  index_t row_begin_ = 0, row_end_ = 0, column_begin_ = 0, column_end_ = 0;
  std::vector<index_t> owned_rows_;
  std::unique_ptr<DeviceState> state_;
};

}  // namespace spmv
