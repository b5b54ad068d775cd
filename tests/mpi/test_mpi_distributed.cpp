// Run under mpirun with 2 or more ranks (ctest MpiDistributed.Ranks2/3): every
// rank builds the same matrices, keeps its part of each partition, and the
// product, the transposed product and SpMM (3 columns, both layouts) over MPI
// (halo and all-gather, equal rows, equal non-zeros and the graph partition,
// f32 and f64, cpu backend) gathered from all ranks must match the reference
// on the zoo and the small real matrices (SPMV_MPI_BACKEND=cuda: the parts on
// the GPUs, one rank per GPU, and MpiDeviceOperator's product with the
// vectors on the GPUs on the zoo). Under the graph partition each rank's x and y
// hold the entries of its owned_rows(). Prints one line per failure and exits
// non-zero on rank 0 when any rank failed.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <string>

#ifdef SPMV_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include "multi/dense_rows.hpp"
#include "spmv/mpi.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

// The entries of `v` at `indices`.
template <class T>
std::vector<T> entries_at(const std::vector<T>& v, const std::vector<index_t>& indices) {
  std::vector<T> entries;
  for (const index_t i : indices) entries.push_back(v[i]);
  return entries;
}

// The rows `indices` of an n x k block in `layout`, as a block in that layout.
template <class T>
std::vector<T> rows_at(const std::vector<T>& block, index_t n, index_t k, Layout layout,
                       const std::vector<index_t>& indices) {
  const auto count = static_cast<index_t>(indices.size());
  std::vector<T> rows(static_cast<std::size_t>(count) * k);
  for (index_t i = 0; i < count; ++i)
    for (index_t j = 0; j < k; ++j)
      rows[detail::dense_offset(i, j, count, k, layout)] = block[detail::dense_offset(indices[i], j, n, k, layout)];
  return rows;
}

// Every rank's `local` (rank p's entries are offsets[p] .. offsets[p + 1] of
// the partition's order) on every rank, in A's order: under a row order each
// entry goes to its row of A.
template <class T>
std::vector<T> gathered_in_a_order(const std::vector<T>& local, const std::vector<index_t>& offsets,
                                   const Partition& partition) {
  const int ranks = partition.parts();
  std::vector<int> counts(ranks), displacements(ranks);
  for (int p = 0; p < ranks; ++p) {
    displacements[p] = offsets[p];
    counts[p] = offsets[p + 1] - offsets[p];
  }
  std::vector<T> gathered(static_cast<std::size_t>(offsets.back()));
  const MPI_Datatype type = sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE;
  MPI_Allgatherv(local.data(), static_cast<int>(local.size()), type, gathered.data(), counts.data(),
                 displacements.data(), type, MPI_COMM_WORLD);
  if (partition.row_order.empty()) return gathered;
  std::vector<T> in_a_order(gathered.size());
  for (int p = 0, i = 0; p < ranks; ++p)
    for (const index_t row : partition.rows_of_part(p)) in_a_order[row] = gathered[i++];
  return in_a_order;
}

// Each rank's part on the cpu backend; with SPMV_MPI_BACKEND=cuda (a GPU
// machine) on the cuda backend, rank r on GPU r % (the GPUs it sees): one
// rank per GPU, x exchanged over MPI through the host.
PlanOptions part_options(int rank) {
  PlanOptions options;
  options.backend = Backend::cpu;
  const char* backend = std::getenv("SPMV_MPI_BACKEND");
  if (backend == nullptr || std::string(backend) != "cuda") return options;
  options.backend = Backend::cuda;
#ifdef SPMV_HAVE_CUDA
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    throw Unavailable("SPMV_MPI_BACKEND=cuda but this rank sees no CUDA device");
  options.device = rank % devices;
#else
  (void)rank;
  throw Unavailable("SPMV_MPI_BACKEND=cuda but this build has no CUDA backend");
#endif
  return options;
}

// The product, the transposed product and SpMM over the communicator for
// one case; true when all match.
template <class T>
bool product_matches(const Csr<double>& matrix, const std::string& name, PartitionMethod method, Exchange exchange,
                     int ranks, int rank) {
  const Csr<T> a = cast<T>(matrix);
  const Partition partition = spmv::partition(a, method, ranks);
  MpiOperator<T> op(a, partition, exchange, part_options(rank), MPI_COMM_WORLD);
  const auto reported = [&](const ::testing::AssertionResult& result, const char* product) {
    if (!result && rank == 0)
      std::printf("FAILED %s%s, %d ranks by %s, %s, %s: %s\n", product, name.c_str(), ranks, to_string(method),
                  to_string(exchange), sizeof(T) == 4 ? "f32" : "f64", result.message());
    return bool(result);
  };
  // The rank's entries of x (and of y for A^T): its rows under a row order
  // (square), else its column range.
  std::vector<index_t> own_columns(op.column_end() - op.column_begin());
  std::iota(own_columns.begin(), own_columns.end(), op.column_begin());
  const std::vector<index_t>& own_x = partition.row_order.empty() ? own_columns : op.owned_rows();

  const auto x = test::random_vector<T>(a.cols, 31);
  const auto y0 = test::random_vector<T>(a.rows, 32);
  const std::vector<T> x_local = entries_at(x, own_x);
  std::vector<T> y_local = entries_at(y0, op.owned_rows());
  op.apply(x_local.data(), y_local.data(), T(-0.5), T(2));
  const std::vector<T> y = gathered_in_a_order(y_local, partition.row_offsets, partition);
  const bool same = reported(test::matches_reference_spmv(a, x, y0, T(-0.5), T(2), y), "");

  // The transposed product: x of A's rows (the rank's rows), y of its columns
  // (the slice the forward product reads from x_local).
  const auto xt = test::random_vector<T>(a.rows, 33);
  const auto yt0 = test::random_vector<T>(a.cols, 34);
  const std::vector<T> xt_local = entries_at(xt, op.owned_rows());
  std::vector<T> yt_local = entries_at(yt0, own_x);
  op.apply_transposed(xt_local.data(), yt_local.data(), T(-0.5), T(2));
  const std::vector<T> yt = gathered_in_a_order(yt_local, partition.column_offsets, partition);
  const bool same_t = reported(test::matches_reference_spmv_transposed(a, xt, yt0, T(-0.5), T(2), yt), "transposed ");

  // SpMM of 3 columns in both layouts: the rank's rows of B (its entries of
  // x) and of C, gathered column by column.
  bool same_spmm = true;
  const index_t k = 3;
  for (const Layout layout : {Layout::row_major, Layout::col_major}) {
    const auto b = test::random_vector<T>(static_cast<std::size_t>(a.cols) * k, 35);
    const auto c0 = test::random_vector<T>(static_cast<std::size_t>(a.rows) * k, 36);
    const std::vector<T> b_local = rows_at(b, a.cols, k, layout, own_x);
    std::vector<T> c_local = rows_at(c0, a.rows, k, layout, op.owned_rows());
    op.spmm(b_local.data(), c_local.data(), k, layout, T(-0.5), T(2));
    std::vector<T> c(c0.size());
    for (index_t j = 0; j < k; ++j) {
      std::vector<T> column_local(op.owned_rows().size());
      for (std::size_t i = 0; i < column_local.size(); ++i)
        column_local[i] = c_local[detail::dense_offset(static_cast<index_t>(i), j,
                                                       static_cast<index_t>(column_local.size()), k, layout)];
      const std::vector<T> column = gathered_in_a_order(column_local, partition.row_offsets, partition);
      for (index_t i = 0; i < a.rows; ++i) c[detail::dense_offset(i, j, a.rows, k, layout)] = column[i];
    }
    same_spmm = reported(test::matches_reference_spmm(a, b, c0, k, layout, T(-0.5), T(2), c),
                         layout == Layout::row_major ? "spmm row-major " : "spmm col-major ") && same_spmm;
  }
  return same && same_t && same_spmm;
}

#ifdef SPMV_HAVE_CUDA
// A device copy of `host`, freed with the object.
template <class T>
struct DeviceVector {
  T* data = nullptr;
  explicit DeviceVector(const std::vector<T>& host) {
    if (cudaMalloc(&data, std::max<std::size_t>(1, host.size()) * sizeof(T)) != cudaSuccess)
      throw Error("cudaMalloc failed in the MPI test");
    cudaMemcpy(data, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  }
  ~DeviceVector() { cudaFree(data); }
  DeviceVector(const DeviceVector&) = delete;
  DeviceVector& operator=(const DeviceVector&) = delete;
};

// MpiDeviceOperator (x and y on the rank's GPU, x moved by NCCL): the
// product with beta == 0 (y = NaN first: not read) and with alpha and beta,
// gathered from all ranks, against the reference.
template <class T>
bool device_product_matches(const Csr<double>& matrix, const std::string& name, PartitionMethod method,
                            Exchange exchange, int ranks, int rank) {
  const Csr<T> a = cast<T>(matrix);
  const Partition partition = spmv::partition(a, method, ranks);
  const PlanOptions options = part_options(rank);
  cudaSetDevice(options.device);
  MpiDeviceOperator<T> op(a, partition, exchange, options, MPI_COMM_WORLD);
  std::vector<index_t> own_columns(op.column_end() - op.column_begin());
  std::iota(own_columns.begin(), own_columns.end(), op.column_begin());
  const std::vector<index_t>& own_x = partition.row_order.empty() ? own_columns : op.owned_rows();
  const auto x = test::random_vector<T>(a.cols, 41);
  const auto y0 = test::random_vector<T>(a.rows, 42);
  bool same = true;
  for (const bool with_beta : {false, true}) {
    const DeviceVector<T> x_local(entries_at(x, own_x));
    std::vector<T> y_local = with_beta ? entries_at(y0, op.owned_rows())
                                       : std::vector<T>(op.owned_rows().size(), std::numeric_limits<T>::quiet_NaN());
    const DeviceVector<T> y_device(y_local);
    const T alpha = with_beta ? T(-0.5) : T(1), beta = with_beta ? T(2) : T(0);
    op.apply(x_local.data, y_device.data, alpha, beta);
    cudaStreamSynchronize(static_cast<cudaStream_t>(options.stream));
    cudaMemcpy(y_local.data(), y_device.data, y_local.size() * sizeof(T), cudaMemcpyDeviceToHost);
    const std::vector<T> y = gathered_in_a_order(y_local, partition.row_offsets, partition);
    const auto result = test::matches_reference_spmv(a, x, with_beta ? y0 : std::vector<T>{}, alpha, beta, y);
    if (!result && rank == 0)
      std::printf("FAILED device product%s %s, %d ranks by %s, %s, %s: %s\n", with_beta ? " (alpha, beta)" : "",
                  name.c_str(), ranks, to_string(method), to_string(exchange), sizeof(T) == 4 ? "f32" : "f64",
                  result.message());
    same = same && bool(result);
  }
  return same;
}
#endif

int run(int ranks, int rank) {
  int failures = 0, cases = 0;
  for (const auto& m : test::zoo_and_real_matrices(20000)) {
    if (m.matrix.rows < ranks) continue;  // partition refuses: unit tests cover it
    for (const PartitionMethod method : {PartitionMethod::rows, PartitionMethod::nonzeros, PartitionMethod::graph})
      for (const Exchange exchange : {Exchange::halo, Exchange::allgather}) {
        // The graph partition: square matrices, in a build with METIS (unit tests cover the refusals).
        if (method == PartitionMethod::graph && (m.matrix.rows != m.matrix.cols || !graph_partition_available()))
          continue;
        failures += !product_matches<double>(m.matrix, m.name, method, exchange, ranks, rank);
        failures += !product_matches<float>(m.matrix, m.name, method, exchange, ranks, rank);
        cases += 2;
      }
  }
  const PlanOptions options = part_options(rank);
#ifdef SPMV_HAVE_CUDA
  // One rank per GPU with the vectors on the GPUs (NCCL): the zoo, every
  // partition and exchange. The operators share one NCCL communicator (kept
  // on MPI_COMM_WORLD): making one per operator took seconds each.
  if (options.backend == Backend::cuda)
    for (const auto& m : test::matrix_zoo()) {
      if (m.matrix.rows < ranks) continue;
      for (const PartitionMethod method : {PartitionMethod::rows, PartitionMethod::nonzeros, PartitionMethod::graph})
        for (const Exchange exchange : {Exchange::halo, Exchange::allgather}) {
          if (method == PartitionMethod::graph && (m.matrix.rows != m.matrix.cols || !graph_partition_available()))
            continue;
          failures += !device_product_matches<double>(m.matrix, m.name, method, exchange, ranks, rank);
          failures += !device_product_matches<float>(m.matrix, m.name, method, exchange, ranks, rank);
          cases += 2;
        }
    }
#endif
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("%d ranks: %d cases, %d failures (summed over ranks); parts on the %s backend (rank 0: device %d)\n",
                ranks, cases, total, to_string(options.backend), options.device);
  return total == 0 && cases > 0 ? 0 : 1;
}

}  // namespace
}  // namespace spmv

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int ranks = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = 1;
  try {
    status = spmv::run(ranks, rank);
  } catch (const std::exception& e) {
    std::printf("rank %d: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
