// The distributed operator with its parts on the GPU: P = 1..4 parts on one
// device (the exchange as device copies), equal rows, equal non-zeros and
// the graph partition (its parts' vectors in P's order on the device), halo
// and all-gather, cuda and cusparse parts, f32 and f64, against the
// reference on the zoo and a few real matrices; and parts spread over every
// GPU of the machine (peer copies), with and without the overlap, and one
// part per GPU with NCCL; repeated runs replayed as a captured graph.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#ifdef SPMV_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include "distributed_products.hpp"
#include "spmv/distributed.hpp"
#include "spmv/gen.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

void check_on_device(const test::ZooMatrix& m, Backend backend) {
  for (const Exchange exchange : {Exchange::halo, Exchange::allgather}) {
    DistributedOptions options;
    options.part_options.backend = backend;
    options.exchange = exchange;
    for (int parts = 1; parts <= std::min<index_t>(4, m.matrix.rows); ++parts)
      for (const PartitionMethod method : {PartitionMethod::rows, PartitionMethod::nonzeros, PartitionMethod::graph}) {
        // The graph partition: square matrices, in a build with METIS (unit tests cover the refusals).
        if (method == PartitionMethod::graph && (m.matrix.rows != m.matrix.cols || !graph_partition_available()))
          continue;
        test::check_distributed_products<double>(m.matrix, m.name, method, parts, options);
        test::check_distributed_products<float>(m.matrix, m.name, method, parts, options);
      }
  }
}

// One test per zoo matrix (of at least one row), so that under
// compute-sanitizer they run side by side rather than as one long test.
std::vector<std::string> zoo_names_with_rows() {
  std::vector<std::string> names;
  for (const auto& m : test::matrix_zoo())
    if (m.matrix.rows > 0) names.push_back(m.name);
  return names;
}

class GpuDistributedZoo : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuDistributedZoo, PartsOnOneDevice) {
  SPMV_GPU_TEST_PRELUDE();
  for (const auto& m : test::matrix_zoo())
    if (m.name == GetParam()) check_on_device(m, Backend::cuda);
}

INSTANTIATE_TEST_SUITE_P(GpuDistributed, GpuDistributedZoo, ::testing::ValuesIn(zoo_names_with_rows()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(GpuDistributed, PartsOnOneDeviceOnRealMatrices) {
  SPMV_GPU_TEST_PRELUDE();
  int checked = 0;
  for (const auto& m : test::zoo_and_real_matrices(300000)) {
    if (m.name.find(".mtx") == std::string::npos || checked == 3) continue;
    check_on_device(m, Backend::cuda);
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no real matrices in " << test::shared_data_dir();
}

TEST(GpuDistributed, CusparsePartsAndAGeneratedStencil) {
  SPMV_GPU_TEST_PRELUDE();
  check_on_device({"stencil27:n=20", generate(parse_generator_spec("stencil27:n=20"))}, Backend::cusparse);
  check_on_device({"rmat:scale=12", generate(parse_generator_spec("rmat:scale=12"))}, Backend::cuda);
}

// With the overlap, a slab of a stencil multiplies its interior on the
// compute stream and its edge (the plane that reads the other slab's) on the
// exchange stream after the ghosts; without it, the local block is one
// operator. Both give the reference's products.
TEST(GpuDistributed, SlabsOfAStencilMultiplyTheirEdgesBesideTheInterior) {
  SPMV_GPU_TEST_PRELUDE();
  const test::ZooMatrix m{"stencil27:n=20", generate(parse_generator_spec("stencil27:n=20"))};
  for (const bool overlap : {true, false}) {
    DistributedOptions options;
    options.part_options.backend = Backend::cuda;
    options.overlap = overlap;
    SCOPED_TRACE(overlap ? "overlap on" : "overlap off");
    const auto op = make_distributed_operator(m.matrix, partition_nonzeros(m.matrix, 2), options);
    for (const auto& part : op->describe_parts())
      EXPECT_EQ(part.size(), overlap ? 3u : 2u);  // (the interior and its edge, or the local block) and the remote
    test::check_distributed_products<double>(m.matrix, m.name, PartitionMethod::nonzeros, 2, options);
    test::check_distributed_products<float>(m.matrix, m.name, PartitionMethod::nonzeros, 2, options);
  }
}

#ifdef SPMV_HAVE_CUDA
TEST(GpuDistributed, PartsOnEveryDevice) {
  SPMV_GPU_TEST_PRELUDE();
  int devices = 0;
  ASSERT_EQ(cudaGetDeviceCount(&devices), cudaSuccess);
  DistributedOptions options;
  options.part_options.backend = Backend::cuda;
  for (int device = 0; device < devices; ++device) options.devices.push_back(device);
  const std::vector<test::ZooMatrix> matrices{
      {"stencil27:n=20", generate(parse_generator_spec("stencil27:n=20"))},
      {"rmat:scale=12", generate(parse_generator_spec("rmat:scale=12"))}};
  for (const test::ZooMatrix& m : matrices)
    for (const Exchange exchange : {Exchange::halo, Exchange::allgather})
      for (const bool overlap : {true, false})
        for (int parts = 1; parts <= std::max(4, devices); ++parts) {
          options.exchange = exchange;
          options.overlap = overlap;
          options.pull_from_peers = !overlap;  // both ways of moving x, each with and without the overlap
          SCOPED_TRACE(std::to_string(devices) + " devices, overlap " + (overlap ? "on" : "off") +
                       (options.pull_from_peers ? ", pull" : ", push"));
          test::check_distributed_products<double>(m.matrix, m.name, PartitionMethod::nonzeros, parts, options);
          test::check_distributed_products<float>(m.matrix, m.name, PartitionMethod::rows, parts, options);
        }
}

// The NCCL transport, one part on each of the first P devices (P = 1 to all
// of them): products, transposed products and SpMM as the shared check runs
// them, halo and all-gather. Two parts on one device are refused. Without
// libnccl.so.2 the test skips (fails with SPMV_REQUIRE_GPU=1: the GPU
// machines we run on have NCCL).
TEST(GpuDistributed, NcclSendsTheEntriesBetweenOnePartPerDevice) {
  SPMV_GPU_TEST_PRELUDE();
  int devices = 0;
  ASSERT_EQ(cudaGetDeviceCount(&devices), cudaSuccess);
  const Csr<double> a = generate(parse_generator_spec("stencil27:n=16"));
  DistributedOptions options;
  options.part_options.backend = Backend::cuda;
  options.nccl = true;
  options.devices = {0};
  try {
    EXPECT_TRUE(make_distributed_operator(a, partition_rows(a, 1), options)->uses_nccl());
  } catch (const Unavailable& e) {
    if (test::gpu_required()) FAIL() << e.what();
    GTEST_SKIP() << e.what();
  }
  options.devices = {0, 0};
  EXPECT_THROW(make_distributed_operator(a, partition_rows(a, 2), options), InvalidArgument);
  for (int parts = 1; parts <= devices; ++parts) {
    options.devices.clear();
    for (int device = 0; device < parts; ++device) options.devices.push_back(device);
    for (const Exchange exchange : {Exchange::halo, Exchange::allgather}) {
      options.exchange = exchange;
      test::check_distributed_products<double>(a, "stencil27:n=16", PartitionMethod::nonzeros, parts, options);
      test::check_distributed_products<float>(a, "stencil27:n=16", PartitionMethod::rows, parts, options);
    }
  }
}

// run() replays its captured graph from the second call on (or queues its
// steps one by one when told not to), with the same results.
TEST(GpuDistributed, RepeatedRunsReplayACapturedGraph) {
  SPMV_GPU_TEST_PRELUDE();
  int devices = 0;
  ASSERT_EQ(cudaGetDeviceCount(&devices), cudaSuccess);
  const Csr<double> a = generate(parse_generator_spec("stencil27:n=24"));
  const auto x = test::random_vector<double>(a.cols, 5);
  for (const bool replay : {true, false})
    for (const bool pull : {true, false})
      for (const Exchange exchange : {Exchange::halo, Exchange::allgather}) {
        SCOPED_TRACE(std::string(replay ? "replayed" : "queued") + (pull ? " / pull / " : " / push / ") +
                     to_string(exchange));
        DistributedOptions options;
        options.part_options.backend = Backend::cuda;
        options.exchange = exchange;
        options.replay_graphs = replay;
        options.pull_from_peers = pull;
        for (int device = 0; device < devices; ++device) options.devices.push_back(device);
        const auto op = make_distributed_operator(a, partition_nonzeros(a, 3), options);
        op->load_x(x.data());
        for (int round = 0; round < 3; ++round) {
          op->run(2.0, 0.0);
          std::vector<double> y(a.rows);
          op->store_y(y.data());
          EXPECT_TRUE(test::matches_reference_spmv(a, x, {}, 2.0, 0.0, y)) << "round " << round;
          EXPECT_EQ(op->replays_graphs(), replay && round > 0) << "round " << round << ": " << op->graph_refusal();
          EXPECT_EQ(op->pulls_from_peers(), pull);  // every pair of GPUs lent so far has peer access
        }
        // A new alpha each call (as a solver's step length): each is right,
        // and the steps captured for alpha = 2 are still replayed after.
        for (int call = 0; call < 20; ++call) {
          const double alpha = 0.5 + call;
          op->run(alpha, 0.0);
          std::vector<double> y(a.rows);
          op->store_y(y.data());
          EXPECT_TRUE(test::matches_reference_spmv(a, x, {}, alpha, 0.0, y)) << "alpha " << alpha;
        }
        op->run(2.0, 0.0);
        EXPECT_EQ(op->replays_graphs(), replay);
      }
}
#endif

}  // namespace
}  // namespace spmv
