// Partitions (equal rows, equal non-zeros, the caller's), the local/remote
// split and halo lists, the exchange volume and model, and the distributed
// operator on the host backends against the reference, on the zoo and small
// real matrices for P = 1..4.
#include <gtest/gtest.h>

#include <numeric>
#include <set>

#include "distributed_products.hpp"
#include "spmv/distributed.hpp"
#include "spmv/gen.hpp"
#include "spmv/io.hpp"
#include "test_support.hpp"

namespace spmv {
namespace {

Csr<double> stencil() { return generate(parse_generator_spec("stencil5:n=12")); }

void expect_invalid(const std::function<void()>& call, const std::string& words) {
  try {
    call();
    ADD_FAILURE() << "no error; expected one saying '" << words << "'";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(Partition, EqualRows) {
  const Csr<double> a = stencil();  // 144 rows
  const Partition p = partition_rows(a, 3);
  EXPECT_EQ(p.row_offsets, (std::vector<index_t>{0, 48, 96, 144}));
  EXPECT_EQ(p.column_offsets, p.row_offsets);  // square: x follows y
  EXPECT_EQ(partition_rows(a, 1).row_offsets, (std::vector<index_t>{0, 144}));
}

TEST(Partition, EqualNonzerosBalancesAHeavyRow) {
  // Row 0 holds half of the non-zeros: PCSR-II gives it a part of its own.
  std::vector<std::tuple<index_t, index_t, double>> entries;
  for (index_t c = 0; c < 100; ++c) entries.emplace_back(0, c, 1.0);
  for (index_t r = 1; r < 100; ++r) entries.emplace_back(r, r, 1.0);
  const Csr<double> a = test::from_triplets(100, 100, entries);
  const Partition by_nnz = partition_nonzeros(a, 2);
  EXPECT_EQ(by_nnz.row_offsets, (std::vector<index_t>{0, 1, 100}));
  EXPECT_EQ(partition_rows(a, 2).row_offsets, (std::vector<index_t>{0, 50, 100}));
  // Every part keeps a row even when one row holds all the non-zeros.
  std::vector<std::tuple<index_t, index_t, double>> one_row;
  for (index_t c = 0; c < 10; ++c) one_row.emplace_back(9, c, 1.0);
  const Partition crowded = partition_nonzeros(test::from_triplets(10, 10, one_row), 4);
  for (int p = 0; p < 4; ++p) EXPECT_LT(crowded.row_offsets[p], crowded.row_offsets[p + 1]);
}

TEST(Partition, NonzerosWithinOneRowOfEqualShares) {
  const Csr<double> a = generate(parse_generator_spec("rmat:scale=11"));
  for (int parts : {2, 3, 4}) {
    const Partition p = partition_nonzeros(a, parts);
    index_t longest = 0;
    for (index_t r = 0; r < a.rows; ++r) longest = std::max(longest, a.row_length(r));
    for (int k = 0; k < parts; ++k) {
      const double share = double(a.row_ptr[p.row_offsets[k + 1]] - a.row_ptr[p.row_offsets[k]]);
      EXPECT_LE(std::abs(share - double(a.nnz()) / parts), 2.0 * longest) << "part " << k << " of " << parts;
    }
  }
}

TEST(Partition, BadPartitionsAreRefused) {
  const Csr<double> a = stencil();
  expect_invalid([&] { partition_rows(a, 0); }, "at least 1 part (got 0)");
  expect_invalid([&] { partition_nonzeros(a, -2); }, "at least 1 part (got -2)");
  expect_invalid([&] { partition_rows(a, 145); }, "cannot split 144 rows into 145 parts");
  expect_invalid([&] { partition_nonzeros(Csr<double>{}, 1); }, "cannot split 0 rows into 1 parts");
  expect_invalid([&] { partition_from_row_offsets(144, 144, {0, 50, 50, 144}); }, "part 1 of the partition is empty");
  expect_invalid([&] { partition_from_row_offsets(144, 144, {0, 80, 40, 144}); }, "part 1 of the partition is empty");
  expect_invalid([&] { partition_from_row_offsets(144, 144, {0, 100}); }, "from 0 to the 144 rows");
  expect_invalid([&] { split_into_parts(generate(parse_generator_spec("stencil5:n=5")), partition_rows(a, 2),
                                        Exchange::halo); },
                 "does not fit a 25 x 25 matrix");
  expect_invalid([&] { partition_method_from_string("graph"); }, "unknown partition 'graph'");
  expect_invalid([&] { exchange_from_string("all"); }, "unknown exchange 'all'");
}

TEST(Split, LocalRemoteAndHaloListsOfATridiagonalMatrix) {
  // 6 x 6 tridiagonal over 3 parts of 2 rows: each part needs one neighbour
  // entry from each side.
  std::vector<std::tuple<index_t, index_t, double>> entries;
  for (index_t r = 0; r < 6; ++r)
    for (index_t c = std::max(0, r - 1); c <= std::min(5, r + 1); ++c) entries.emplace_back(r, c, 10.0 * r + c);
  const Csr<double> a = test::from_triplets(6, 6, entries);
  const auto parts = split_into_parts(a, partition_rows(a, 3), Exchange::halo);
  ASSERT_EQ(parts.size(), 3u);
  const PartMatrices<double>& middle = parts[1];
  EXPECT_EQ(middle.ghost_columns, (std::vector<index_t>{1, 4}));
  EXPECT_EQ(middle.local.cols, 2);
  EXPECT_EQ(middle.local.col_idx, (std::vector<index_t>{0, 1, 0, 1}));  // columns 2, 3 renumbered
  EXPECT_EQ(middle.remote.cols, 2);
  EXPECT_EQ(middle.remote.row_ptr, (std::vector<index_t>{0, 1, 2}));
  EXPECT_EQ(middle.remote.col_idx, (std::vector<index_t>{0, 1}));
  EXPECT_EQ(middle.remote.values, (std::vector<double>{21.0, 34.0}));
  ASSERT_EQ(middle.receives.size(), 2u);
  EXPECT_EQ(middle.receives[0].from, 0);
  EXPECT_EQ(middle.receives[0].offset, 0);
  EXPECT_EQ(middle.receives[1].from, 2);
  EXPECT_EQ(middle.receives[1].offset, 1);
  ASSERT_EQ(parts[0].sends.size(), 1u);
  EXPECT_EQ(parts[0].sends[0].to, 1);
  EXPECT_EQ(parts[0].sends[0].local_columns, (std::vector<index_t>{1}));  // global column 1
  ASSERT_EQ(parts[2].sends.size(), 1u);
  EXPECT_EQ(parts[2].sends[0].local_columns, (std::vector<index_t>{0}));  // global column 4

  const ExchangeVolume halo = exchange_volume(parts, Exchange::halo);
  EXPECT_EQ(halo.received_bytes, (std::vector<std::size_t>{8, 16, 8}));
  EXPECT_EQ(halo.sent_bytes, (std::vector<std::size_t>{8, 16, 8}));
  EXPECT_EQ(halo.messages_received, (std::vector<int>{1, 2, 1}));
  EXPECT_EQ(halo.packed_bytes, 32u);
  // Links of 1 GB/s: the busiest part moves 16 bytes.
  EXPECT_DOUBLE_EQ(predicted_exchange_seconds_on_links(halo, 1.0), 16e-9);
  EXPECT_DOUBLE_EQ(predicted_exchange_seconds_on_one_device(halo, 1.0), 2.0 * (32 + 32) * 1e-9);

  const auto gathered = split_into_parts(a, partition_rows(a, 3), Exchange::allgather);
  EXPECT_EQ(gathered[1].block.cols, 6);
  EXPECT_EQ(gathered[1].block.col_idx, (std::vector<index_t>{1, 2, 3, 2, 3, 4}));
  const ExchangeVolume all = exchange_volume(gathered, Exchange::allgather);
  EXPECT_EQ(all.received_bytes, (std::vector<std::size_t>{32, 32, 32}));
  EXPECT_EQ(all.packed_bytes, 0u);
}

TEST(Split, PartsReassembleTheMatrix) {
  // Every entry lands in exactly one part's local or remote block, at its
  // renumbered column; the send lists mirror the receive lists.
  for (const auto& m : test::matrix_zoo()) {
    const Csr<double>& a = m.matrix;
    for (int parts = 1; parts <= std::min<index_t>(4, a.rows); ++parts) {
      const Partition partition = partition_nonzeros(a, parts);
      const auto split = split_into_parts(a, partition, Exchange::halo);
      std::int64_t entries = 0;
      for (int p = 0; p < parts; ++p) {
        const PartMatrices<double>& part = split[p];
        entries += part.local.nnz() + part.remote.nnz();
        for (index_t r = 0; r < part.remote.rows; ++r)
          for (index_t k = part.remote.row_ptr[r]; k < part.remote.row_ptr[r + 1]; ++k) {
            const index_t global = part.ghost_columns[part.remote.col_idx[k]];
            EXPECT_TRUE(global < part.column_begin || global >= part.column_end) << m.name;
          }
        index_t received = 0;
        for (const HaloReceive& receive : part.receives) {
          received += receive.count;
          const auto& sends = split[receive.from].sends;
          const auto send = std::find_if(sends.begin(), sends.end(), [&](const HaloSend& s) { return s.to == p; });
          ASSERT_NE(send, sends.end()) << m.name;
          ASSERT_EQ(static_cast<index_t>(send->local_columns.size()), receive.count);
          for (index_t i = 0; i < receive.count; ++i)
            EXPECT_EQ(send->local_columns[i] + split[receive.from].column_begin,
                      part.ghost_columns[receive.offset + i]);
        }
        EXPECT_EQ(received, static_cast<index_t>(part.ghost_columns.size())) << m.name;
      }
      EXPECT_EQ(entries, a.nnz()) << m.name << " in " << parts << " parts";
    }
  }
}

TEST(DistributedOperator, HostBackendsOnTheZooAndRealMatrices) {
  for (const auto& m : test::zoo_and_real_matrices(20000)) {
    for (const Backend backend : {Backend::cpu, Backend::reference}) {
      if (backend == Backend::reference && m.matrix.nnz() > 5000) continue;  // the serial oracle: small ones
      for (const Exchange exchange : {Exchange::halo, Exchange::allgather}) {
        DistributedOptions options;
        options.part_options.backend = backend;
        options.exchange = exchange;
        for (int parts = 1; parts <= 4; ++parts) {
          if (parts > m.matrix.rows) {
            expect_invalid([&] { partition_rows(m.matrix, parts); }, "cannot split");
            continue;
          }
          for (const PartitionMethod method : {PartitionMethod::rows, PartitionMethod::nonzeros}) {
            test::check_distributed_products<double>(m.matrix, m.name, method, parts, options);
            const bool zoo = m.name.find(".mtx") == std::string::npos;  // real matrices: f64 only
            if (backend == Backend::cpu && zoo)
              test::check_distributed_products<float>(m.matrix, m.name, method, parts, options);
          }
        }
      }
    }
  }
}

TEST(DistributedOperator, EachPartHasItsOwnPlan) {
  const Csr<double> a = stencil();
  DistributedOptions options;
  options.part_options.backend = Backend::cpu;
  const auto op = make_distributed_operator(a, partition_rows(a, 3), options);
  const auto described = op->describe_parts();
  ASSERT_EQ(described.size(), 3u);
  for (const auto& part : described) {
    ASSERT_EQ(part.size(), 2u);  // the local and the remote block
    EXPECT_EQ(part[0].backend, Backend::cpu);
  }
  EXPECT_EQ(op->volume().total_bytes(), 4u * 12 * sizeof(double));  // two interfaces of 12, both ways
}

TEST(DistributedOperator, CudaWithoutADeviceIsUnavailable) {
  if (cuda_available()) GTEST_SKIP() << "a CUDA device is present (tests/gpu covers it)";
  const Csr<double> a = stencil();
  DistributedOptions options;
  options.part_options.backend = Backend::cuda;
  EXPECT_THROW(make_distributed_operator(a, partition_rows(a, 2), options), Unavailable);
}

}  // namespace
}  // namespace spmv
