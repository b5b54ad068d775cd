// Run under mpirun with 2 or more ranks (ctest MpiDistributed.Ranks2/3): every
// rank builds the same matrices, keeps its part of each partition, and the
// product and the transposed product over MPI (halo and all-gather, equal
// rows, equal non-zeros and the graph partition, f32 and f64, cpu backend)
// gathered from all ranks must match the reference on the zoo and the small
// real matrices. Under the graph
// partition each rank's x and y hold the entries of its owned_rows(). Prints
// one line per failure and exits non-zero on rank 0 when any rank failed.
#include <mpi.h>

#include <cstdio>
#include <limits>
#include <numeric>

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

// The product over the communicator for one case; true when it matches.
template <class T>
bool product_matches(const Csr<double>& matrix, const std::string& name, PartitionMethod method, Exchange exchange,
                     int ranks, int rank) {
  const Csr<T> a = cast<T>(matrix);
  const Partition partition = spmv::partition(a, method, ranks);
  PlanOptions options;
  options.backend = Backend::cpu;
  MpiOperator<T> op(a, partition, exchange, options, MPI_COMM_WORLD);
  const auto x = test::random_vector<T>(a.cols, 31);
  const auto y0 = test::random_vector<T>(a.rows, 32);
  // The rank's entries of x: its rows under a row order (square), else its column range.
  std::vector<index_t> own_columns(op.column_end() - op.column_begin());
  std::iota(own_columns.begin(), own_columns.end(), op.column_begin());
  const std::vector<T> x_local = entries_at(x, partition.row_order.empty() ? own_columns : op.owned_rows());
  std::vector<T> y_local = entries_at(y0, op.owned_rows());
  op.apply(x_local.data(), y_local.data(), T(-0.5), T(2));
  // Every rank's y in the partition's order, then each entry to its row of A.
  std::vector<int> counts(ranks), offsets(ranks);
  for (int p = 0; p < ranks; ++p) {
    offsets[p] = partition.row_offsets[p];
    counts[p] = partition.row_offsets[p + 1] - partition.row_offsets[p];
  }
  std::vector<T> gathered(a.rows);
  MPI_Allgatherv(y_local.data(), static_cast<int>(y_local.size()), sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE,
                 gathered.data(), counts.data(), offsets.data(), sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE,
                 MPI_COMM_WORLD);
  std::vector<T> y(a.rows);
  for (int p = 0, i = 0; p < ranks; ++p)
    for (const index_t row : partition.rows_of_part(p)) y[row] = gathered[i++];
  const ::testing::AssertionResult same = test::matches_reference_spmv(a, x, y0, T(-0.5), T(2), y);
  if (!same && rank == 0)
    std::printf("FAILED %s, %d ranks by %s, %s, %s: %s\n", name.c_str(), ranks, to_string(method),
                to_string(exchange), sizeof(T) == 4 ? "f32" : "f64", same.message());

  // The transposed product: x of A's rows (the rank's rows), y of its columns
  // (the slice the forward product reads from x_local).
  const auto xt = test::random_vector<T>(a.rows, 33);
  const auto yt0 = test::random_vector<T>(a.cols, 34);
  const std::vector<index_t>& own_y = partition.row_order.empty() ? own_columns : op.owned_rows();
  const std::vector<T> xt_local = entries_at(xt, op.owned_rows());
  std::vector<T> yt_local = entries_at(yt0, own_y);
  op.apply_transposed(xt_local.data(), yt_local.data(), T(-0.5), T(2));
  for (int p = 0; p < ranks; ++p) {
    offsets[p] = partition.column_offsets[p];
    counts[p] = partition.column_offsets[p + 1] - partition.column_offsets[p];
  }
  std::vector<T> gathered_t(a.cols);
  MPI_Allgatherv(yt_local.data(), static_cast<int>(yt_local.size()), sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE,
                 gathered_t.data(), counts.data(), offsets.data(), sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE,
                 MPI_COMM_WORLD);
  std::vector<T> yt(a.cols);
  if (partition.row_order.empty())
    yt = gathered_t;
  else
    for (int p = 0, i = 0; p < ranks; ++p)
      for (const index_t row : partition.rows_of_part(p)) yt[row] = gathered_t[i++];
  const ::testing::AssertionResult same_t = test::matches_reference_spmv_transposed(a, xt, yt0, T(-0.5), T(2), yt);
  if (!same_t && rank == 0)
    std::printf("FAILED transposed %s, %d ranks by %s, %s, %s: %s\n", name.c_str(), ranks, to_string(method),
                to_string(exchange), sizeof(T) == 4 ? "f32" : "f64", same_t.message());
  return same && same_t;
}

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
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("%d ranks: %d cases, %d failures (summed over ranks)\n", ranks, cases, total);
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
